"""The Nephilim page in a real browser on a phone: a burst against two defenders."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE

pytestmark = pytest.mark.e2e


def test_a_burst_against_two_defenders_resolves_on_a_phone(browser, live_server, bestiary, shot):
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/nephilim/")
    page.select_option("select[name='mode']", "tir")
    page.select_option("select[name='preset.weapon']", label="Fusil d'assaut AK-47 (4 PHYS)")
    expect(page.locator("input[name='attacker.weapon.name']")).to_have_value("Fusil d'assaut AK-47")
    page.select_option("select[name='preset.approach']", label="Tir (visée 1r)")
    expect(page.locator("input[name='attacker.approach.name']")).to_have_value("Tir (visée 1r)")
    page.select_option("select[name='cadence']", "raf_cont")
    page.click("button:has-text('Ajouter un défenseur')")
    page.wait_for_selector("input[name='defenders.1.name']")
    for i, name in enumerate(("Vigile", "Chauffeur")):
        page.select_option(f"select[name='preset.defence.{i}']", label="Encaisser les dommages (distance — tir)")
        expect(page.locator(f"input[name='defenders.{i}.defence.name']")).to_have_value("Encaisser les dommages")
        page.fill(f"input[name='defenders.{i}.name']", name)
    page.locator("input[name='defenders.1.name']").dispatch_event("change")
    expect(page.locator("#live .scene")).to_contain_text("Chauffeur")
    expect(page.locator("#live .scene")).to_contain_text("Vigile")
    page.wait_for_load_state("networkidle")
    page.fill("input[name='dice.attaque.1']", "20")
    page.click("button:has-text('Résoudre')")
    page.wait_for_selector("#story")
    final = page.inner_text("#final")
    assert "Vigile encaisse" in final
    assert "Chauffeur encaisse" in final
    assert "8 PHYS · 0 MAG" in final  # AK-47 4 + continuous burst (5 − 1 for two targets)
    assert page.is_visible("#odds svg")
    shot(page, "nephilim-burst-phone")
    context.close()
