"""The Quadrature flow in a real browser: load a creature, attack it, carry the sheet to the next round."""

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(("label", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_gm_attacks_a_bestiary_creature_and_follows_its_living_sheet(
    browser, live_server, bestiary, shot, label, viewport
):
    context = browser.new_context(viewport=viewport, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/quadrature/")
    page.click('summary:has-text("Table de puissance")')  # seven columns: they scroll inside their panel
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.select_option("select[name='preset.creature']", label="Brigand vétéran — Compétent")
    expect(page.locator("input[name='adversary.name']")).to_have_value("Brigand vétéran")
    page.wait_for_load_state("networkidle")
    page.select_option("select[name='mode']", "pc_attack")
    page.wait_for_load_state("networkidle")
    page.fill("input[name='target_part']", "3")  # Bras armé: 🛡️ 1, Frappe vive
    page.click('summary:has-text("Effets de l\'action du personnage")')
    page.fill("input[name='pc.score']", "14")
    page.fill("input[name='pc_success.light']", "3")
    page.fill("input[name='pc_success.bleed']", "1")
    page.locator("input[name='pc_success.bleed']").dispatch_event("change")
    page.wait_for_timeout(400)  # the live redraw fires 150 ms after a change
    page.wait_for_load_state("networkidle")
    page.click("button:has-text('Résoudre')")
    try:
        expect(page.locator("#story")).to_be_visible(timeout=60_000)
    except AssertionError:
        shot(page, f"quadrature-fail-{label}")
        raise
    assert "Bras armé" in page.inner_text("#technical")
    # The wound chain's sentences wrap: nothing scrolls sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert page.is_visible(".q-sheet")
    query = parse_qs(urlparse(page.url).query)
    assert query["r"] == ["1"]
    shot(page, f"quadrature-{label}")
    page.click("a:has-text('Fin de manche avec la fiche obtenue')")
    expect(page.locator("#technical")).to_contain_text("La plaie se referme")
    assert parse_qs(urlparse(page.url).query)["mode"] == ["round"]
    context.close()
