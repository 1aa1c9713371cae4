"""Issue 16: the live player view in two browsers. The game master (a laptop) applies a result, ends
the turn and undoes; the player's phone shows each within 2 seconds, without a reload; a hidden
combatant and an NPC's exact health never reach the player's page nor its raw event stream."""

import re
import threading
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from encounters.models import Combatant, PlayerLink
from tests.e2e.conftest import DESKTOP
from tests.e2e.encounters import log_in
from tests.factories_encounters import EncounterFactory, UserFactory

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
ALINE = {"name": "Aline", "attribute": 3, "weapon": 2, "sante": 8, "sante_max": 8, "stress": 0, "acted": False}
BRIGAND = {"name": "Brigand", "menace": 2, "sante": 3, "sante_max": 3}
GUETTEUR = {"name": "Guetteur", "menace": 1, "sante": 2, "sante_max": 2}


def watch_console(page):
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


class RawStream(threading.Thread):
    """The player's event stream as bytes, read beside the browser until the server ends it."""

    def __init__(self, url):
        super().__init__(daemon=True)
        self.url, self.data = url, b""

    def run(self):
        with urllib.request.urlopen(self.url, timeout=30) as response:
            while chunk := response.read1(65536):
                self.data += chunk


def within(seconds, check):
    start = time.monotonic()
    check(seconds * 1000)
    return time.monotonic() - start


def test_the_players_phone_follows_the_game_masters_changes_and_sees_nothing_hidden(
    browser, live_server, bestiary, shot
):
    user = UserFactory()
    encounter = EncounterFactory(owner=user, system="encore", clock={"turn": 1}, name="Le saloon")
    Combatant.objects.create(encounter=encounter, kind="pj", name="Aline", state=ALINE, position=1)
    Combatant.objects.create(encounter=encounter, kind="pnj", name="Brigand", state=BRIGAND, position=2)
    Combatant.objects.create(
        encounter=encounter, kind="pnj", name="Guetteur", state=GUETTEUR, position=3, visibility="hidden"
    )

    gm_context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    gm = gm_context.new_page()
    gm_errors = watch_console(gm)
    log_in(gm, live_server.url, user)
    gm.goto(f"{live_server.url}/encounters/{encounter.pk}/")
    gm.locator("#players summary").click()
    gm.click("#player-link-button")
    expect(gm.locator("#players .player-qr svg")).to_be_visible()
    url = gm.locator("#player-url").get_attribute("href")
    assert re.fullmatch(rf"{re.escape(live_server.url)}/live/[\w-]{{32}}/", url)
    shot(gm, "player-link-desktop")

    player_context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="fr-FR")
    phone = player_context.new_page()
    phone_errors = watch_console(phone)
    phone.goto(url)
    expect(phone.locator("#live-status")).to_have_text("En direct")
    brigand = phone.locator(".player-card", has=phone.locator("h2", has_text="Brigand"))
    expect(brigand).to_contain_text("Indemne")
    expect(phone.locator(".player-card", has=phone.locator("h2", has_text="Aline"))).to_contain_text("8 / 8")
    raw = RawStream(url + "events")
    raw.start()

    # « Appliquer »: Aline strikes the brigand (three 6: a full success)
    gm.click("form.act-form button[type=submit]")
    gm.wait_for_selector("input[name='dice.pc.3']")
    for i in (1, 2, 3):
        gm.fill(f"input[name='dice.pc.{i}']", "6")
    gm.press("input[name='dice.pc.3']", "Enter")
    gm.wait_for_selector("#apply-form")
    gm.click("#apply-form button")
    start = time.monotonic()
    entry = phone.locator(".player-log .log-entry").first
    expect(entry).to_contain_text("Aline contre Brigand", timeout=2000)
    assert time.monotonic() - start <= 2.0
    expect(brigand).not_to_contain_text("Indemne")
    expect(phone.locator("#live-status")).to_have_text("En direct")
    assert phone.evaluate("performance.getEntriesByType('navigation').length") == 1  # never reloaded
    assert phone.evaluate("document.querySelector('#player-state').getBoundingClientRect().top") < PHONE["height"]
    shot(phone, "player-view-phone")

    # « Fin du tour », then « Annuler »: each within 2 seconds
    gm.wait_for_url(re.compile(r"/encounters/\d+/"))
    gm.click("#advance-button")
    expect(phone.locator(".player-head .clock")).to_have_text("Tour 2", timeout=2000)
    expect(gm.locator("#clock")).to_have_text("Tour 2")
    gm.click("#undo-button")
    expect(phone.locator(".player-head .clock")).to_have_text("Tour 1", timeout=2000)
    expect(gm.locator("#clock")).to_have_text("Tour 1")  # the game master's page swapped in too

    # the hidden lookout and the brigand's exact health: neither on the page nor in the stream
    html = phone.content()
    assert "Guetteur" not in html
    assert not brigand.locator(".player-gauge").count()
    # the link withdrawn: the phone is told, the stream ends
    gm.once("dialog", lambda dialog: dialog.accept())
    gm.click("#players button:has-text('Retirer ce lien')")
    expect(phone.locator("#player-state")).to_contain_text("retiré ce lien", timeout=2000)
    raw.join(10)
    assert not raw.is_alive()
    stream = raw.data.decode()
    assert stream.count("event: state") >= 3
    assert "event: revoked" in stream
    assert "Guetteur" not in stream
    assert "Brigand · Santé" not in stream
    assert not PlayerLink.objects.filter(encounter=encounter).exists()
    assert gm_errors == []
    assert phone_errors == []
    gm_context.close()
    player_context.close()


def test_without_event_source_the_view_polls_and_without_javascript_it_has_a_refresh_link(
    browser, live_server, bestiary
):
    user = UserFactory()
    encounter = EncounterFactory(owner=user, system="encore", clock={"turn": 1})
    Combatant.objects.create(encounter=encounter, kind="pj", name="Aline", state=ALINE)
    link = PlayerLink.objects.create(encounter=encounter, token="t" * 32)
    url = f"{live_server.url}/live/{link.token}/"

    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="fr-FR")
    context.add_init_script("delete window.EventSource;")
    page = context.new_page()
    page.goto(url)
    expect(page.locator("#live-status")).to_have_text("Mise à jour toutes les 5\u00a0secondes")
    from encounters import services

    services.combatant_adjust(
        encounter=encounter, version=encounter.version, combatant=encounter.combatants.get(), field="sante", delta=-1
    )
    expect(page.locator(".player-card")).to_contain_text("7 / 8", timeout=7000)
    context.close()

    context = browser.new_context(viewport=PHONE, java_script_enabled=False, locale="fr-FR")
    page = context.new_page()
    page.goto(url)
    refresh = page.locator("#refresh")
    expect(refresh).to_be_visible()
    expect(refresh).to_have_text("Actualiser")
    expect(page.locator(".player-card")).to_contain_text("7 / 8")
    context.close()
