"""The Nephilim page in a real browser on a phone: a burst against two defenders, the scene that
settles itself (a shot brings its approach and defence), a spell chosen in a defender's column."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE

pytestmark = pytest.mark.e2e


def test_a_burst_against_two_defenders_resolves_on_a_phone(browser, live_server, bestiary, shot):
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/nephilim/")
    # a shot: its standard approach, a ranged weapon and the default defence follow (§3, §10)
    page.select_option("select[name='mode']", "tir")
    expect(page.locator("input[name='attacker.approach.name']")).to_have_value("Tir (visée 1r)")
    expect(page.locator("input[name='defenders.0.defence.name']")).to_have_value("Encaisser les dommages")
    expect(page.locator(".settle-notes")).to_contain_text("Attaque à distance (tir)")
    page.select_option("select[name='preset.weapon']", label="Fusil d'assaut AK-47 (4 PHYS) — tir")
    expect(page.locator("input[name='attacker.weapon.name']")).to_have_value("Fusil d'assaut AK-47")
    # the choices read by their names, their numbers on one line behind « Ajuster »
    expect(page.locator("select[name='preset.weapon'] option:checked")).to_have_text(
        "Fusil d'assaut AK-47 (4 PHYS) — tir"
    )
    expect(page.locator("[data-adjust='weapon'] .adjust-line")).to_contain_text("degré\u00a04, 4\u00a0PHYS")
    expect(page.locator("select[name='preset.approach_tir'] option:checked")).to_have_text("Tir (visée 1r)")
    page.wait_for_load_state("networkidle")
    page.select_option("select[name='cadence']", "raf_cont")
    page.wait_for_load_state("networkidle")
    page.click("button:has-text('Ajouter un défenseur')")
    page.wait_for_selector("input[name='defenders.1.name']")
    expect(page.locator("input[name='defenders.1.defence.name']")).to_have_value("Encaisser les dommages")
    expect(page.locator("select[name='cadence']")).to_have_value("raf_cont")
    for i, name in enumerate(("Vigile", "Chauffeur")):
        expect(page.locator(f"select[name='preset.defence_tir.{i}'] option:checked")).to_have_text(
            "Encaisser les dommages"
        )
        page.fill(f"input[name='defenders.{i}.name']", name)
    page.locator("input[name='defenders.1.name']").dispatch_event("change")
    expect(page.locator(".scene")).to_contain_text("Chauffeur")
    expect(page.locator(".scene")).to_contain_text("Vigile")
    page.wait_for_load_state("networkidle")
    page.fill("input[name='dice.attaque.1']", "20")
    page.click("#resolve-button")
    page.wait_for_selector("#story")
    final = page.inner_text("#final")
    assert "Vigile encaisse" in final
    assert "Chauffeur encaisse" in final
    assert "8\u00a0PHYS · 0\u00a0MAG" in final  # AK-47 4 + continuous burst (5 − 1 for two targets)
    assert page.is_visible("#odds svg")
    shot(page, "nephilim-burst-phone")
    context.close()


def test_a_creature_and_a_spell_in_a_defenders_column_on_a_phone(browser, live_server, bestiary, shot):
    context = browser.new_context(viewport=PHONE, locale="fr-FR", is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/nephilim/")
    # the Mercenaire's AK-47 shoots: the attack follows his weapon, and the page says so
    page.select_option("select[name='preset.attacker']", label="Mercenaire (Humain ordinaire)")
    expect(page.locator(".settle-notes")).to_contain_text("Fusil d'assaut AK-47\u00a0: attaque à distance (tir).")
    expect(page.locator("select[name='mode']")).to_have_value("tir")
    expect(page.locator("#live .no-dice")).to_have_count(0)
    page.click("button:has-text('Ajouter un défenseur')")
    page.wait_for_selector("input[name='defenders.1.name']")
    expect(page.locator("select[name='cadence']")).to_have_value("cpc")
    # Armure invincible chosen in column 2 spares defender n°2 only (§13, §14 système B1)
    column = page.locator("fieldset.neph-defender").nth(1)
    column.locator("details.neph-column-effects > summary").click()
    select = column.locator("select[name^='preset.defender_effect_2.']")
    select.select_option(label="Armure invincible (Sort, Mêlée et distance)")
    column = page.locator("fieldset.neph-defender").nth(1)
    expect(column.locator("details.neph-column-effects .neph-active")).to_have_text("Armure invincible")
    expect(column.locator("details.neph-column-effects")).to_have_attribute("open", re.compile(".*"))
    page.wait_for_load_state("networkidle")
    page.fill("input[name='dice.attaque.1']", "10")
    page.fill("input[name='dice.attaque.2']", "10")
    page.click("#resolve-button")
    page.wait_for_selector("#story")
    final = page.inner_text("#final")
    assert re.search(r"Le défenseur encaisse\s+4\s+PHYS · 0\s+MAG", final), final
    assert re.search(r"Le défenseur encaisse\s+0\s+PHYS · 0\s+MAG", final), final
    shot(page, "nephilim-column-spell-phone")
    context.close()
