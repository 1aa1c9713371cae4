"""The Féerie exchange in a real browser, on a phone and on a desktop: the seed's Wichtln."""

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(("label", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_wichtln_hammers_a_lutin_with_typed_dice(browser, live_server, bestiary, shot, label, viewport):
    context = browser.new_context(viewport=viewport, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/feerie/")
    page.select_option("select[name='preset.attacker']", label="Wichtln (Taille −2)")
    expect(page.locator("input[name='attacker.name']")).to_have_value("Wichtln")
    page.wait_for_timeout(1000)  # let the live scene's delayed refresh finish
    page.wait_for_load_state("networkidle")
    page.select_option("select[name='preset.defender']", label="Lutin (Taille −2)")
    page.wait_for_load_state("networkidle")
    expect(page.locator("input[name='defender.name']")).to_have_value("Lutin")
    page.wait_for_load_state("networkidle")
    assert "Wichtln" in page.inner_text("#scene .scene")
    page.fill("input[name='dice.plus.1']", "10")
    page.fill("input[name='dice.moins.1']", "10")
    page.click("button:has-text('Résoudre')")
    page.wait_for_selector("#story")
    story = page.inner_text("#story")
    assert "Wichtln" in story
    technical = page.inner_text("#technical")
    assert "Accessoire «\u202fmarteau\u202f»" in technical
    final = page.inner_text("#final")
    assert "Touché" in final
    assert "Essence perdue" in final
    assert page.is_visible("#odds svg")
    query = parse_qs(urlparse(page.url).query)
    assert query["r"] == ["1"]
    shot(page, f"feerie-{label}")
    other = browser.new_context(viewport=viewport).new_page()
    other.goto(page.url)
    assert other.inner_text("#story") == story
    context.close()


@pytest.mark.parametrize(("label", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_action_chooses_combatants_and_targets_by_name(browser, live_server, bestiary, shot, label, viewport):
    """An Ogre and a Lutin replace the seed's Rübezahl and Serpent: the descriptions follow, the activities
    name their combatants, the targets are boxes by name."""
    context = browser.new_context(viewport=viewport, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/feerie/action/")
    page.select_option("select[name='preset.fighter.0']", label="Ogre (Taille +2)")
    expect(page.locator("input[name='fighters.0.name']")).to_have_value("Ogre")
    page.wait_for_load_state("networkidle")
    page.select_option("select[name='preset.fighter.1']", label="Lutin (Taille −2)")
    expect(page.locator("input[name='fighters.1.name']")).to_have_value("Lutin")
    page.wait_for_load_state("networkidle")
    labels = [page.input_value(f"input[name='activities.{j}.label']") for j in (0, 1)]
    assert labels == ["attaque l'Ogre", "attaque le Lutin"]
    assert "attaque le Lutin" in page.inner_text(".settle-notes")  # the game master is told
    actor = page.locator("select[name='activities.0.actor'] option:checked")
    expect(actor).to_have_text("Lutin")
    # the Lutin's activity: its only possible target is the Ogre, ticked; untick it and it has none
    box = page.get_by_label("Ogre", exact=True).first
    expect(box).to_be_checked()
    box.uncheck()
    page.wait_for_load_state("networkidle")
    expect(page.locator("input[name='activities.0.targets']")).to_have_value("")
    page.get_by_label("Ogre", exact=True).first.check()
    page.wait_for_load_state("networkidle")
    expect(page.locator("input[name='activities.0.targets']")).to_have_value("0")
    page.click("#resolve-button")
    page.wait_for_selector("#story")
    assert "Ogre" in page.inner_text("#story")
    shot(page, f"feerie-action-{label}")
    context.close()
