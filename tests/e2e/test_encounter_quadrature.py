"""A two-round Quadrature fight in a real browser, on a phone: the bestiary's Loup des cendres
against Aldric — open the calculator, type the dice, Résoudre, Appliquer, Fin de la manche — with
an undo and a redo, the living sheet checked on the encounter page after every step."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.encounters import expect_gauge as expect_card_gauge
from tests.e2e.encounters import gauge_of, log_in
from tests.factories_encounters import UserFactory

pytestmark = pytest.mark.e2e


def card(page, pk):
    return page.locator(f"article#c{pk}")


def expect_gauge(page, pk, label, value):
    expect_card_gauge(card(page, pk), label, value)


def combatant_pk(page, name):
    article = page.locator("article.combatant", has=page.locator("h3", has_text=re.compile(f"^{name}$")))
    return int(article.get_attribute("id").removeprefix("c"))


def open_calculator(page, wolf, aldric):
    page.select_option("form.act-form select[name='role.adversary']", str(wolf))
    page.select_option("form.act-form select[name='role.pc']", str(aldric))
    page.click("form.act-form button[type=submit]")
    page.wait_for_url(re.compile(r"/quadrature/"))
    page.wait_for_load_state("networkidle")


def settle(page, selector):
    """A change redraws the live panels (dice, scene) 150 ms later: wait for it."""
    page.locator(selector).dispatch_event("change")
    page.wait_for_timeout(400)
    page.wait_for_load_state("networkidle")


def resolve_and_apply(page, shot=None, name=""):
    page.click("#resolve-button")
    page.wait_for_selector("#apply-form")
    story = page.inner_text("#story")
    if shot is not None:
        shot(page, name)
    page.click("#apply-form button")
    page.wait_for_url(re.compile(r"/encounters/\d+/"))
    page.wait_for_selector("#encounter")
    return story


def wolf_attacks(page, wolf, aldric, card_number, dice, shot=None, name=""):
    open_calculator(page, wolf, aldric)
    page.select_option("select[name='card']", str(card_number))
    settle(page, "select[name='card']")
    for i, face in enumerate(dice, 1):
        page.fill(f"input[name='dice.adv.{i}']", str(face))
    return resolve_and_apply(page, shot, name)


def aldric_strikes(page, wolf, aldric, part, score, **effect):
    open_calculator(page, wolf, aldric)
    page.select_option("select[name='mode']", "pc_attack")
    settle(page, "select[name='mode']")
    page.select_option("select[name='target_part']", str(part))
    if not page.is_visible("input[name='pc_success.light']"):
        page.click("details[data-adjust='pc_success'] > summary")
    page.fill("input[name='pc.score']", str(score))
    for key in ("light", "heavy", "bleed"):
        page.fill(f"input[name='pc_success.{key}']", str(effect.get(key, 0)))
    settle(page, "input[name='pc_success.bleed']")
    return resolve_and_apply(page)


def test_a_two_round_quadrature_fight_with_undo_on_a_phone(browser, live_server, bestiary, shot):
    user = UserFactory()
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    log_in(page, live_server.url, user)

    page.select_option("select[name='system']", "quadrature")
    page.fill("input[name='name']", "Le col des cendres")
    page.click("button:has-text('Créer la rencontre')")
    page.wait_for_selector("#encounter")
    expect(page.locator("#clock")).to_have_text("Manche 1")
    expect(page.locator("#advance-button")).to_contain_text("Fin de la manche 1")

    # the wolf from the bestiary, Aldric typed in and his Garde set on his sheet
    preset = page.locator("#add select[name='preset'] option", has_text="Loup des cendres")
    page.select_option("#add select[name='preset']", preset.get_attribute("value"))
    page.click("#add button:has-text('Ajouter')")
    page.wait_for_selector("article.combatant")
    wolf = combatant_pk(page, "Loup des cendres")
    expect_gauge(page, wolf, "Cases ▢", "13 / 13")
    expect(card(page, wolf)).to_contain_text("Deck : Harcèlement 1 ⚫, Frappe vive 1 ⚫, Morsure 2 ⚫")
    if not page.is_visible("#add select[name='kind']"):
        page.locator("#add summary").click()
    page.select_option("#add select[name='preset']", "")
    page.select_option("#add select[name='kind']", "pj")
    page.fill("#add input[name='name']", "Aldric")
    page.click("#add button:has-text('Ajouter')")
    expect(page.locator("article.combatant")).to_have_count(2)
    aldric = combatant_pk(page, "Aldric")
    card(page, aldric).locator("summary:has-text('Fiche')").click()
    card(page, aldric).locator(f"input[name='c{aldric}-garde']").fill("12")
    card(page, aldric).locator("button:has-text('Enregistrer la fiche')").click()
    expect_gauge(page, aldric, "Garde", "12")
    shot(page, "encounter-quadrature-start")

    # Round 1 — Frappe vive: 5 + 4 + 3 + 1 = 13 ≥ 12 and a 5: 💢💢💢 and 🔻 (absorbed by Aldric's ◇)
    story = wolf_attacks(page, wolf, aldric, 2, [5, 4, 3, 1], shot, "encounter-quadrature-calculator")
    assert "13" in story
    expect_gauge(page, aldric, "Blessures légères 💢", "3")
    expect_gauge(page, aldric, "Stabilité ◇", "0 / 1")
    expect_gauge(page, wolf, "Points d'action ⚫", "1 / 2")
    expect(card(page, wolf)).to_contain_text("engagé avec Aldric")

    # Aldric strikes the Mâchoires (no armour): 💢💢💢 fill the block, Morsure leaves the deck, 🩸 1
    aldric_strikes(page, wolf, aldric, 3, 14, light=3, bleed=1)
    expect_gauge(page, wolf, "Cases ▢", "10 / 13")
    expect(gauge_of(card(page, wolf), "Cases ▢").locator("xpath=..")).to_contain_text("3/4 blocs intacts")
    expect_gauge(page, wolf, "Hémorragie 🩸", "1")
    expect(card(page, wolf)).to_contain_text("Deck : Harcèlement 1 ⚫, Frappe vive 1 ⚫")
    expect(card(page, wolf)).not_to_contain_text("Morsure 2 ⚫")
    shot(page, "encounter-quadrature-round-1")

    # Fin de la manche: the bleeding ticks the Tête and closes; ⚫, 🫁, ◇ come back; Aldric's ◇ too
    page.click("#advance-button")
    expect(page.locator("#clock")).to_have_text("Manche 2")
    expect_gauge(page, wolf, "Cases ▢", "9 / 13")
    expect_gauge(page, wolf, "Points d'action ⚫", "2 / 2")
    expect(gauge_of(card(page, wolf), "Hémorragie 🩸")).to_have_count(0)
    expect_gauge(page, aldric, "Stabilité ◇", "1 / 1")
    expect(page.locator("#log")).to_contain_text("Fin de la manche 1 : la manche 2 commence.")

    # Round 2 — Frappe vive misses: 2 + 2 + 1 + 0 = 5 < 12, ❌ 💢
    wolf_attacks(page, wolf, aldric, 2, [2, 2, 1, 0])
    expect_gauge(page, aldric, "Blessures légères 💢", "4")
    expect_gauge(page, wolf, "Points d'action ⚫", "1 / 2")

    # Annuler takes the miss back, whole sheets included; Rétablir replays it
    page.click("#undo-button")
    expect_gauge(page, aldric, "Blessures légères 💢", "3")
    expect_gauge(page, wolf, "Points d'action ⚫", "2 / 2")
    expect(page.locator("#log .log-entry.is-undone")).to_have_count(1)
    shot(page, "encounter-quadrature-undone")
    page.click("#redo-button")
    expect_gauge(page, aldric, "Blessures légères 💢", "4")
    expect(page.locator("#log .log-entry.is-undone")).to_have_count(0)

    page.click("#advance-button")
    expect(page.locator("#clock")).to_have_text("Manche 3")
    expect_gauge(page, wolf, "Points d'action ⚫", "2 / 2")
    expect_gauge(page, wolf, "Cases ▢", "9 / 13")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "encounter-quadrature-phone")

    # the same encounter on a desktop
    page.set_viewport_size(DESKTOP)
    page.reload()
    expect_gauge(page, wolf, "Cases ▢", "9 / 13")
    shot(page, "encounter-quadrature-desktop")
    context.close()
