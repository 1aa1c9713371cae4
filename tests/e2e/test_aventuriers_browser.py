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
    page.click("[data-adjust='sheet.defender'] > summary")  # the target's sheet waits behind « Ajuster »
    page.select_option("select[name='defender.side']", "aventurier")
    page.check("input[name='defender.riposte']")
    page.check("input[name='defender.contrecoup']")
    page.locator("input[name='defender.contrecoup']").dispatch_event("change")
    page.wait_for_selector("input[name='dice.riposte.1']")
    page.wait_for_load_state("networkidle")
    assert "riposter" in page.inner_text("#scene .scene")
    # the Orc's 1 noir + 1 bleu: noir 4 = 🛡, bleu 4 = 🛡 → no damage; Elwen's default bleu 5 = 🛡⚡
    page.fill("input[name='dice.attaque.1']", "4")
    page.fill("input[name='dice.attaque.2']", "4")
    page.fill("input[name='dice.defense.1']", "5")
    page.fill("input[name='dice.riposte.1']", "1")
    page.fill("input[name='dice.riposte.2']", "1")
    page.click("button:has-text('Résoudre')")
    page.wait_for_selector("#story")
    assert "Riposte" in page.inner_text("#technical")
    assert "Riposte\u202f: dégâts-éclairs\n2" in page.inner_text("#final")  # French spacing (issue 15)
    assert page.is_visible("#odds svg")
    # the grid waits in its folded section, its verdict in the title
    assert "de face, au contact" in page.inner_text("summary:has-text('Orientation, zones et engagement')")
    page.click("summary:has-text('Orientation, zones et engagement')")
    assert page.is_visible(".avt-grid")
    query = parse_qs(urlparse(page.url).query)
    assert query["r"] == ["1"]
    shot(page, f"aventuriers-{label}")
    other = browser.new_context(viewport=viewport).new_page()
    other.goto(page.url)
    assert other.inner_text("#story") == page.inner_text("#story")
    context.close()


def _option(page, select, start):
    labels = page.eval_on_selector_all(f"{select} option", "els => els.map(e => e.textContent)")
    return next(label for label in labels if label.startswith(start))


@pytest.mark.parametrize(("label", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_page_leads_with_the_choices_and_the_dice_follow_the_weapon(
    browser, live_server, bestiary, shot, label, viewport
):
    context = browser.new_context(
        viewport=viewport, locale="fr-FR", is_mobile=label == "phone", has_touch=label == "phone"
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/aventuriers/")
    # the decisions first: the situation, then who attacks with what, the numbers behind « Ajuster »
    assert page.locator("select[name='action']").bounding_box()["y"] < viewport["height"]
    assert page.is_visible("select[name='preset.atk_weapon']")
    assert not page.is_visible("input[name='attacker.pv']")
    expect(page.locator("[data-adjust='weapon.attacker'] .adjust-line")).to_have_text("« Épée » : mêlée, 2 dés bleus")
    page.fill("input[name='dice.defense.1']", "4")  # the Gobelin's blue die, typed before the weapon changes
    select = "select[name='preset.atk_weapon']"
    page.select_option(select, label=_option(page, select, "Épée longue"))
    expect(page.locator("[data-adjust='weapon.attacker'] .adjust-line")).to_have_text(
        "« Épée longue » : mêlée, 2 dés noirs"
    )
    titles = page.eval_on_selector_all("input.die", "els => els.map(e => e.title)")
    assert len(titles) == 3
    assert all("3 (💥💥💥)" in t for t in titles[:2])  # the black die's faces
    assert "6 (⚡⚡)" in titles[2]  # the target's blue die, unchanged
    assert page.input_value("input[name='dice.defense.1']") == "4"  # what was typed in it stays
    page.select_option(select, label=_option(page, select, "Arc court"))
    expect(page.locator(".settle-notes")).to_contain_text("« Arc court » ne s'utilise qu'à distance")
    assert page.input_value("select[name='mode']") == "distance"
    assert "à 2 cases" in " ".join(page.inner_text("#scene .scene").split())  # « à 2 cases », no-break space
    shot(page, f"aventuriers-table-{label}")
    page.click("#resolve-button")
    page.wait_for_selector("#story")
    assert "Attaque impossible" not in page.inner_text("#story")
    context.close()
