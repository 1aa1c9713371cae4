"""The Aventuriers flow in a real browser, on a phone and on a desktop."""

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(("label", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_gm_loads_a_monster_types_the_dice_and_sees_the_riposte(
    browser, live_server, bestiary, shot, label, viewport
):
    context = browser.new_context(viewport=viewport, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/aventuriers/")
    page.select_option("select[name='preset.atk_monster']", label="Orc (5 PV, 4 PX)")
    expect(page.locator("input[name='attacker.name']")).to_have_value("Orc")
    page.fill("input[name='defender.name']", "Elwen")
    page.select_option("select[name='defender.side']", "aventurier")
    page.check("input[name='defender.riposte']")
    page.check("input[name='defender.contrecoup']")
    page.locator("input[name='defender.contrecoup']").dispatch_event("change")
    page.wait_for_selector("input[name='dice.riposte.1']")
    page.wait_for_load_state("networkidle")
    assert "riposter" in page.inner_text("#live .scene")
    # the Orc's 1 noir + 1 bleu: noir 4 = 🛡, bleu 4 = 🛡 → no damage; Elwen's default bleu 5 = 🛡⚡
    page.fill("input[name='dice.attaque.1']", "4")
    page.fill("input[name='dice.attaque.2']", "4")
    page.fill("input[name='dice.defense.1']", "5")
    page.fill("input[name='dice.riposte.1']", "1")
    page.fill("input[name='dice.riposte.2']", "1")
    page.click("button:has-text('Résoudre')")
    page.wait_for_selector("#story")
    assert "Riposte" in page.inner_text("#technical")
    assert "Riposte : dégâts-éclairs\n2" in page.inner_text("#final")
    assert page.is_visible("#odds svg")
    assert page.is_visible(".avt-grid")
    query = parse_qs(urlparse(page.url).query)
    assert query["r"] == ["1"]
    shot(page, f"aventuriers-{label}")
    other = browser.new_context(viewport=viewport).new_page()
    other.goto(page.url)
    assert other.inner_text("#story") == page.inner_text("#story")
    context.close()
