"""The enCORE flow in a real browser, on a phone and on a desktop."""

import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.e2e


def fill_aldric(page):
    page.select_option("select[name='preset.npc.0']", label="Arbalétrier (Menace 2)")
    expect(page.locator("input[name='npcs.0.name']")).to_have_value("Arbalétrier")
    page.fill("input[name='pc.name']", "Aldric")
    page.fill("input[name='pc.attribute']", "3")
    page.check("input[name='pc.speciality']")
    page.click("[data-adjust='weapon.pc'] > summary")  # the numbers wait behind « Ajuster »
    page.fill("input[name='pc.weapon']", "3")
    page.click("[data-adjust='protection.pc'] > summary")
    page.fill("input[name='pc.armour']", "1")
    page.fill("input[name='pc.cover']", "2")
    page.locator("input[name='pc.cover']").dispatch_event("change")
    page.wait_for_selector("input[name='dice.pc.5']")
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize(("label", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_gm_types_the_dice_resolves_and_shares_the_permalink(browser, live_server, bestiary, shot, label, viewport):
    context = browser.new_context(viewport=viewport, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/encore/")
    fill_aldric(page)
    assert "Arbalétrier" in page.inner_text("#scene .scene")
    for i, face in enumerate(["5", "2", "3", "1", "4"], 1):
        page.fill(f"input[name='dice.pc.{i}']", face)
    page.click("button:has-text('Résoudre')")
    page.wait_for_selector("#story")
    assert [page.inner_text(f"#technical .die-face >> nth={i}") for i in range(5)] == ["5", "2", "3", "1", "4"]
    story = page.inner_text("#story")
    assert "Réussite partielle" in story
    assert "Aldric" in story
    assert "Santé d'Aldric" in page.inner_text("#technical")
    assert "7 — Valide, Stress 1" in page.inner_text("#final")
    assert page.is_visible("#odds svg")
    query = parse_qs(urlparse(page.url).query)
    assert query["r"] == ["1"]
    assert "seed" in query
    shot(page, f"encore-{label}")
    # the permalink, opened elsewhere, tells the same story
    other = browser.new_context(viewport=viewport).new_page()
    other.goto(page.url)
    assert other.inner_text("#story") == story
    assert other.input_value("input[name='dice.pc.2']") == "2"
    context.close()


def test_the_page_works_without_javascript(browser, live_server, bestiary, shot):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/encore/")
    page.fill("input[name='pc.attribute']", "4")
    page.click("button:has-text('Actualiser la scène')")
    page.wait_for_selector("input[name='dice.pc.4']")
    page.click("button:has-text('Résoudre')")
    page.wait_for_selector("#story")
    assert re.search(r"seed=\d+", page.url)
    shot(page, "encore-nojs")
    context.close()


def test_a_wrong_die_is_refused_on_its_input_and_nothing_is_lost(browser, live_server, bestiary):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/encore/")
    page.fill("input[name='pc.name']", "Tavish")
    page.fill("input[name='dice.pc.1']", "9")
    page.click("button:has-text('Résoudre')")
    page.wait_for_selector(".die-input.has-error")
    assert "n'est pas une face du dé d6" in page.inner_text(".die-input.has-error")
    assert page.input_value("input[name='pc.name']") == "Tavish"
    assert page.input_value("input[name='dice.pc.1']") == "9"
    context.close()


def test_a_second_npc_makes_an_area_attack_that_asks_for_an_area_weapon(browser, live_server, bestiary, shot):
    context = browser.new_context(viewport=PHONE, locale="fr-FR", is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/encore/")
    assert not page.is_visible("input[name='pc.weapon']")  # behind « Ajuster »
    page.click("button:has-text('Ajouter un PNJ')")
    expect(page.locator(".settle-notes")).to_contain_text("Plusieurs PNJ visés")
    assert page.input_value("select[name='action']") == "zone"
    # the reason shows on its field: the weapon's « Ajuster » opened by itself
    assert page.is_visible("input[name='pc.weapon_area']")
    assert "demande une arme de zone" in page.inner_text("[data-adjust='weapon.pc']")
    labels = page.eval_on_selector_all("select[name='preset.weapon'] option", "els => els.map(e => e.textContent)")
    page.select_option("select[name='preset.weapon']", label=next(x for x in labels if x.startswith("Grenade")))
    expect(page.locator("[data-adjust='weapon.pc'] .adjust-line")).to_have_text("Zone : 3 dégâts, arme de zone")
    page.wait_for_selector("input[name='dice.pc.1']")
    shot(page, "encore-table-phone")
    page.click("#resolve-button")
    page.wait_for_selector("#story")
    context.close()
