"""A whole enCORE fight in a real browser, on a phone: three turns, Enter to resolve, Appliquer,
Fin du tour, Ctrl+Z and Rétablir; and two tabs on the same encounter."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.encounters import expect_gauge as expect_card_gauge
from tests.e2e.encounters import log_in
from tests.factories_encounters import UserFactory

pytestmark = pytest.mark.e2e


def card(page, name):
    return page.locator("article.combatant", has=page.locator("h3", has_text=re.compile(f"^{name}$")))


def expect_gauge(page, name, label, value):
    expect_card_gauge(card(page, name), label, value)


def play_turn(page, dice):
    """Agir (the suggested PC against the suggested NPC) → calculator → dice → Enter → Appliquer."""
    page.click("form.act-form button[type=submit]")
    page.wait_for_selector("#encounter-banner")
    page.wait_for_selector(f"input[name='dice.pc.{len(dice)}']")
    for i, face in enumerate(dice, 1):
        page.fill(f"input[name='dice.pc.{i}']", str(face))
    page.press(f"input[name='dice.pc.{len(dice)}']", "Enter")  # Enter resolves
    page.wait_for_selector("#apply-form")
    story = page.inner_text("#story")
    page.click("#apply-form button")
    page.wait_for_url(re.compile(r"/encounters/\d+/"))
    page.wait_for_selector("#encounter")
    return story


def test_a_three_turn_encore_fight_with_undo_on_a_phone(browser, live_server, bestiary, shot):
    user = UserFactory()
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    log_in(page, live_server.url, user)

    page.select_option("select[name='system']", "encore")
    page.fill("input[name='name']", "Le saloon")
    page.click("button:has-text('Créer la rencontre')")
    page.wait_for_selector("#encounter")
    expect(page.locator("#clock")).to_have_text("Tour 1")

    # Aldric typed in, then his sheet completed; the crossbowman from the bestiary
    page.select_option("#add select[name='kind']", "pj")
    page.fill("#add input[name='name']", "Aldric")
    page.click("#add button:has-text('Ajouter')")
    expect(card(page, "Aldric")).to_be_visible()
    aldric = card(page, "Aldric")
    aldric.locator("summary:has-text('Fiche')").click()
    for field, value in (("attribute", "3"), ("weapon", "3"), ("armour", "1"), ("cover", "2")):
        aldric.locator(f"input[name$='-{field}']").fill(value)
    aldric.locator("input[name$='-speciality']").check()
    aldric.locator("button:has-text('Enregistrer la fiche')").click()
    page.wait_for_selector("#log .log-entry.action-edit")
    page.locator("#add summary").click()
    page.select_option("#add select[name='preset']", label="Arbalétrier (Menace 2)")
    page.click("#add button:has-text('Ajouter')")
    expect(card(page, "Arbalétrier")).to_be_visible()
    expect_gauge(page, "Arbalétrier", "Santé", "4 / 4")
    shot(page, "encounter-encore-start")

    # Turn 1: one success against Menace 2 — partial, 3 damage, the breach costs Aldric 1
    story = play_turn(page, [5, 2, 3, 1, 4])
    assert "Aldric" in story
    expect_gauge(page, "Aldric", "Santé", "7 / 8")
    expect_gauge(page, "Aldric", "Stress", "1")
    expect_gauge(page, "Arbalétrier", "Santé", "1 / 4")
    expect_gauge(page, "Arbalétrier", "Attaques ce tour", "1 / 2")
    expect(card(page, "Aldric").locator(".state-badge", has_text="a agi")).to_be_visible()
    page.click("#advance-button")
    expect(page.locator("#clock")).to_have_text("Tour 2")
    expect_gauge(page, "Arbalétrier", "Attaques ce tour", "2 / 2")
    expect(card(page, "Aldric").locator(".state-badge", has_text="a agi")).to_have_count(0)

    # Turn 2: a failure, the breach again: Aldric 7 → 6; Ctrl+Z takes it back, Rétablir replays it
    play_turn(page, [1, 1, 2, 3, 4])
    expect_gauge(page, "Aldric", "Santé", "6 / 8")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+z")
    expect_gauge(page, "Aldric", "Santé", "7 / 8")
    expect(page.locator("#log .log-entry.is-undone")).to_have_count(1)
    page.click("#redo-button")
    expect_gauge(page, "Aldric", "Santé", "6 / 8")
    expect(page.locator("#log .log-entry.is-undone")).to_have_count(0)
    page.click("#advance-button")
    expect(page.locator("#clock")).to_have_text("Tour 3")

    # Turn 3: three successes, one beyond the Menace: 3 + 1 = 4, the crossbowman falls
    play_turn(page, [5, 6, 5, 1, 2])
    expect_gauge(page, "Arbalétrier", "Santé", "0 / 4")
    expect(card(page, "Arbalétrier")).to_have_class(re.compile("is-out"))
    expect(page.locator("#encounter")).to_contain_text("Plus aucun PNJ ne peut riposter")
    shot(page, "encounter-encore-phone")

    # two steps back with the toolbar: the crossbowman stands again at 1 Santé, turn 2's end undone
    page.click("#undo-button")
    expect_gauge(page, "Arbalétrier", "Santé", "1 / 4")
    page.click("#undo-button")
    expect(page.locator("#clock")).to_have_text("Tour 2")

    # the log tells the story, and its technical lines on demand
    log = page.locator("#log")
    expect(log.locator(".log-entry")).to_have_count(8)
    expect(log.locator(".log-entry.is-undone")).to_have_count(2)
    expect(log.locator(".log-story").first).to_be_visible()
    page.click("label[for='log-technical']")
    expect(log.locator(".log-lines", has_text="Arbalétrier — Santé : 4 → 1")).to_be_visible()
    context.close()


def test_two_tabs_never_corrupt_an_encounter(browser, live_server, bestiary, shot):
    user = UserFactory()
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    first = context.new_page()
    log_in(first, live_server.url, user)
    first.select_option("select[name='system']", "encore")
    first.fill("input[name='name']", "Deux onglets")
    first.click("button:has-text('Créer la rencontre')")
    first.wait_for_selector("#encounter")
    url = first.url
    second = context.new_page()
    second.goto(url)
    first.click("#advance-button")
    expect(first.locator("#clock")).to_have_text("Tour 2")
    second.click("#advance-button")  # drawn from the old version
    expect(second.locator("#encounter-message")).to_contain_text("Cette rencontre a changé entre-temps")
    expect(second.locator("#clock")).to_have_text("Tour 2")  # the fresh state, not turn 3
    second.click("#advance-button")  # now from the fresh version
    expect(second.locator("#clock")).to_have_text("Tour 3")
    shot(second, "encounter-two-tabs")
    context.close()
