"""Issue 16, the live player view: the link (unguessable, revocable, a QR code on the encounter
page), what players see of each combatant, the event stream (the state at once, then each change,
through the in-process broker and through Redis) and what never reaches it."""

import asyncio
import html
import re
import socket
import threading
import time

import pytest
from django.test import Client

from encounters import live, player, services
from encounters.models import Combatant, PlayerLink
from rulesets.core import encounter as core
from rulesets.core.schema import parse
from rulesets.encore.encounter import NpcState
from tests.encounters.helpers import detail_url
from tests.factories_encounters import EncounterFactory

pytestmark = pytest.mark.django_db

ALINE = {
    "name": "Aline",
    "sante": 8,
    "sante_max": 8,
    "grammar": {"article": "propre", "gender": "f", "elision": "auto"},
}
BRIGAND = {
    "name": "Brigand",
    "menace": 3,
    "sante": 3,
    "grammar": {"article": "defini", "gender": "m", "elision": "auto"},
}
GUETTEUR = {"name": "Guetteur", "menace": 2, "sante": 2}


def visible(page):
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


@pytest.fixture
def encounter(client):
    encounter = EncounterFactory(system="encore", clock={"turn": 1})
    client.force_login(encounter.owner)
    return encounter


@pytest.fixture
def cast(encounter):
    return {
        "aline": Combatant.objects.create(encounter=encounter, kind="pj", name="Aline", state=ALINE, position=1),
        "brigand": Combatant.objects.create(encounter=encounter, kind="pnj", name="Brigand", state=BRIGAND, position=2),
        "guetteur": Combatant.objects.create(
            encounter=encounter, kind="pnj", name="Guetteur", state=GUETTEUR, position=3, visibility="hidden"
        ),
    }


@pytest.fixture
def link(client, encounter, cast):
    assert client.post(f"{detail_url(encounter)}players/").status_code == 303
    return PlayerLink.objects.get(encounter=encounter)


def adjust(client, encounter, combatant, field="sante", delta="-1"):
    encounter.refresh_from_db()
    response = client.post(
        f"{detail_url(encounter)}combatants/{combatant.pk}/adjust/",
        {"version": encounter.version, "field": field, "delta": delta},
    )
    assert response.status_code == 303, response.content.decode()[:2000]


def test_the_link_is_unguessable_shown_as_a_qr_code_and_kept_once_made(client, encounter, link):
    assert len(link.token) >= 32
    page = client.get(detail_url(encounter)).content.decode()
    assert f"/live/{link.token}/" in page
    assert re.search(r'<div class="player-qr"[^>]*><svg', page)  # segno's QR code, inline
    client.post(f"{detail_url(encounter)}players/")
    assert PlayerLink.objects.get(encounter=encounter).token == link.token  # already shared: kept


def test_a_player_needs_no_account_and_sees_what_the_game_master_shows(client, encounter, link, cast):
    adjust(client, encounter, cast["brigand"])  # 3 → 2 of 3: « touché »
    adjust(client, encounter, cast["guetteur"])
    page = Client().get(f"/live/{link.token}/")
    assert page.status_code == 200
    assert page["Cache-Control"] == "no-store"
    text = visible(page.content.decode())
    assert "Aline PJ Santé 8 / 8" in text  # a PC exactly
    assert "Brigand PNJ Touché" in text  # an NPC in words, agreed with its name
    assert "2 / 3" not in text
    assert "Guetteur" not in page.content.decode()  # hidden: not a trace, nor its log entry
    assert "Brigand\u202f: état modifié" in text  # a step by hand on an NPC in words: not counted
    assert "Santé −1" not in text
    adjust(client, encounter, cast["aline"])
    assert "Aline\u202f: Santé −1" in visible(Client().get(f"/live/{link.token}/").content.decode())


def test_state_words_agree_with_the_name():
    rules = core.get("encore")

    def words(sante, **grammar):
        data = {"name": "x", "menace": 3, "sante": sante, "sante_max": 4, **({"grammar": grammar} if grammar else {})}
        return player.state_words(rules, core.Fighter("1", "x", "pnj", parse(NpcState, data)))

    assert words(4) == "indemne"
    assert words(3) == "touché"
    assert words(2, article="defini", gender="f", elision="auto") == "touchée"
    assert words(1, article="pluriel", gender="m", elision="auto") == "grièvement blessés"
    assert words(0) == "hors de combat"


def test_the_game_master_chooses_per_combatant_and_the_view_redraws(client, encounter, link, cast):
    version = encounter.version
    response = client.post(
        f"{detail_url(encounter)}players/visibility/",
        {f"v{cast['aline'].pk}": "name", f"v{cast['brigand'].pk}": "exact"},
    )
    assert response.status_code == 303
    encounter.refresh_from_db()
    assert encounter.version == version + 1  # open views redraw
    text = visible(Client().get(f"/live/{link.token}/").content.decode())
    assert "Aline PJ Brigand" in text  # Aline's name only
    assert "8 / 8" not in text
    assert "Santé 3 / 3" in text
    refused = client.post(f"{detail_url(encounter)}players/visibility/", {f"v{cast['aline'].pk}": "tout"})
    assert refused.status_code == 422
    assert "Vue des joueurs\u202f: choisissez une des options proposées. (Aline)" in visible(refused.content.decode())


def test_undone_entries_and_technical_lines_never_reach_the_players(client, encounter, link, cast):
    adjust(client, encounter, cast["aline"])
    encounter.refresh_from_db()
    client.post(f"{detail_url(encounter)}undo/", {"version": encounter.version})
    text = visible(Client().get(f"/live/{link.token}/").content.decode())
    assert "Santé −1" not in text
    adjust(client, encounter, cast["brigand"])
    page = Client().get(f"/live/{link.token}/").content.decode()
    assert "Brigand — Santé" not in visible(page)  # the technical diff line
    assert "3 → 2" not in page  # its gauge: the brigand is shown in words


def test_a_revoked_link_is_gone_and_a_new_one_has_another_token(client, encounter, link):
    assert client.post(f"{detail_url(encounter)}players/revoke/").status_code == 303
    for path in ("", "state", "events"):
        response = Client().get(f"/live/{link.token}/{path}")
        assert response.status_code == 404
    client.post(f"{detail_url(encounter)}players/")
    assert PlayerLink.objects.get(encounter=encounter).token != link.token


def test_another_game_master_cannot_make_or_withdraw_the_link(encounter, link):
    other = Client()
    other.force_login(EncounterFactory().owner)
    assert other.post(f"{detail_url(encounter)}players/revoke/").status_code == 404
    assert PlayerLink.objects.filter(pk=link.pk).exists()


# --- the stream -------------------------------------------------------------------------------------


def events(chunks):
    """Server-Sent Events as (event, data) pairs."""
    out = []
    for block in "".join(chunks).split("\n\n"):
        lines = block.split("\n")
        name = next((line[7:] for line in lines if line.startswith("event: ")), None)
        if name:
            out.append((name, "\n".join(line[6:] for line in lines if line.startswith("data: "))))
    return out


def test_the_stream_opens_with_the_state_and_carries_each_change(
    client, encounter, link, cast, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(live, "_BROKER", live.LocalBroker())
    response = Client().get(f"/live/{link.token}/events")
    assert response["Content-Type"].startswith("text/event-stream")
    assert response["X-Accel-Buffering"] == "no"
    chunks = iter(response.streaming_content)
    opening = next(chunks).decode()
    assert opening.startswith("retry: 2000\n\n")
    [(name, data)] = events([opening])
    assert name == "state"
    assert "Aline" in data
    assert "Guetteur" not in opening
    with django_capture_on_commit_callbacks(execute=True):
        adjust(client, encounter, cast["brigand"])
    update = next(chunks).decode()
    [(name, data)] = events([update])
    assert name == "state"
    encounter.refresh_from_db()
    assert update.startswith(f"id: {encounter.version}\n")
    assert "Brigand\u202f: état modifié" in visible(data)
    # a hidden combatant's change is published without a word of it
    with django_capture_on_commit_callbacks(execute=True):
        adjust(client, encounter, cast["guetteur"])
    update = next(chunks).decode()
    assert "Guetteur" not in update
    # revoked: told, and the stream ends
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"{detail_url(encounter)}players/revoke/")
    [(name, data)] = events([next(chunks).decode()])
    assert name == "revoked"
    assert "retiré ce lien" in data
    with pytest.raises(StopIteration):
        next(chunks)


def test_a_quiet_stream_beats_and_ends_after_its_lifetime(monkeypatch):
    monkeypatch.setattr(live, "_BROKER", live.LocalBroker())
    monkeypatch.setattr(live, "HEARTBEAT", 0.01)
    ticks = iter([0.0, 0.0, 0.5, 2.0])
    first = live.Message("state", "<p>x</p>", 3, 0.0)
    chunks = list(live.stream(live.broker().subscribe("c"), first, lifetime=1.0, clock=lambda: next(ticks)))
    assert chunks[0] == "retry: 2000\n\nid: 3\nevent: state\ndata: <p>x</p>\n\n"
    assert chunks[1:] == [": ♥\n\n"] * 3  # each quiet HEARTBEAT, until the clock passes the lifetime
    assert live.broker().listeners("c") == 0  # unsubscribed once ended


def test_an_older_change_published_late_is_not_sent_after_a_newer_state(monkeypatch):
    monkeypatch.setattr(live, "_BROKER", live.LocalBroker())
    subscription = live.broker().subscribe("c")
    stream = live.stream(subscription, live.Message("state", "v5", 5, 0.0))
    next(stream)
    live.broker().publish("c", live.Message("state", "v4", 4, 0.0))
    live.broker().publish("c", live.Message("state", "v6", 6, 0.0))
    assert next(stream) == "id: 6\nevent: state\ndata: v6\n\n"


def test_the_asynchronous_stream_receives_what_another_thread_publishes(monkeypatch):
    monkeypatch.setattr(live, "_BROKER", live.LocalBroker())

    async def run():
        subscription = await live.broker().asubscribe("c")
        stream = live.astream(subscription, live.Message("state", "v1", 1, 0.0))
        assert (await anext(stream)).endswith("data: v1\n\n")
        threading.Timer(0.05, lambda: live.broker().publish("c", live.Message("state", "v2", 2, 0.0))).start()
        got = await asyncio.wait_for(anext(stream), 2)
        await stream.aclose()
        return got

    assert asyncio.run(run()) == "id: 2\nevent: state\ndata: v2\n\n"
    assert live.broker().listeners("c") == 0


def redis_up():
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
    except OSError:
        return False
    return True


@pytest.mark.skipif(not redis_up(), reason="needs the Redis server on 127.0.0.1:6379 (CI starts it)")
def test_redis_carries_a_change_between_processes_both_ways():
    broker = live.RedisBroker("redis://127.0.0.1:6379/15")
    name = f"estoc:test:{time.time_ns()}"
    subscription = broker.subscribe(name)
    messages = subscription.messages(2.0)
    broker.publish(name, live.Message("state", "<p>a</p>\n<p>b</p>", 7, 1.5))
    got = next(m for m in messages if m is not None)
    subscription.close()
    assert got == live.Message("state", "<p>a</p>\n<p>b</p>", 7, 1.5)

    async def run():
        sub = await broker.asubscribe(name)
        stream = live.astream(sub, live.Message("state", "v1", 1, 0.0))
        await anext(stream)
        threading.Timer(0.05, lambda: broker.publish(name, live.Message("state", "v2", 2, 0.0))).start()
        got = await asyncio.wait_for(anext(stream), 3)
        await stream.aclose()
        return got

    assert asyncio.run(run()) == "id: 2\nevent: state\ndata: v2\n\n"


def test_nothing_is_drawn_for_an_encounter_without_a_link(encounter, cast, monkeypatch):
    drawn = []
    monkeypatch.setattr(player, "state_message", lambda e: drawn.append(e) or live.Message("state", "", 0, 0))
    player.changed(encounter.pk)
    assert drawn == []
    services.fighters(encounter)  # the cast is readable as ever


def test_what_players_see_travels_with_an_export_and_a_bad_value_is_refused(client, encounter, link, cast):
    import json

    from encounters import exports

    adjust(client, encounter, cast["aline"])
    data = exports.encounter_data(encounter)
    assert [c["visibility"] for c in data["combatants"]] == ["auto", "auto", "hidden"]
    copy = exports.encounter_import(owner=encounter.owner, data=json.loads(json.dumps(data)))
    assert list(copy.combatants.values_list("visibility", flat=True)) == ["auto", "auto", "hidden"]
    [entry] = copy.log.all()
    aline = copy.combatants.get(name="Aline")
    assert [(g["combatant"], g["before"], g["after"]) for g in entry.detail["gauges"]] == [(aline.pk, 8, 7)]
    data["combatants"][0]["visibility"] = "tout"
    response = client.post("/encounters/import/", {"text": json.dumps(data)})
    assert response.status_code == 400
    assert "Combattant n° 1\u202f: vue des joueurs «\u202ftout\u202f» inconnue" in visible(response.content.decode())


def test_a_story_paragraph_naming_a_hidden_combatant_is_left_out(client, encounter, link, cast):
    encounter.refresh_from_db()
    client.post(f"{detail_url(encounter)}advance/", {"version": encounter.version})
    entry = encounter.log.get()
    assert any("Guetteur" in p for p in entry.story)  # the turn's end names the hidden lookout…
    shown = player.player_context(encounter)["entries"]
    assert [e.seq for e in shown] == [entry.seq]  # …the entry is told…
    assert shown[0].story == [p for p in entry.story if "Guetteur" not in p]  # …without that paragraph
    assert "Guetteur" not in player.render_state(encounter)


def test_the_players_see_the_turn_order_without_hidden_turns_or_an_npcs_numbers(client):
    encounter = EncounterFactory(system="nephilim", clock={"round": 1})
    client.force_login(encounter.owner)
    from rulesets.core.schema import to_data
    from rulesets.nephilim.encounter import CombatantState
    from rulesets.nephilim.examples import EPEE

    def fighter(kind, name, ka, visibility="auto"):
        data = {"name": name, "type": "nephilim", "attack_degree": 6, "defence_degree": 6, "weapon": EPEE}
        data = to_data(parse(CombatantState, {**data, "initiative_ka": ka}))
        return Combatant.objects.create(encounter=encounter, kind=kind, name=name, state=data, visibility=visibility)

    fighter("pj", "Sahar", 4)
    fighter("pnj", "Sbire", 9)
    fighter("pnj", "Ombre", 12, visibility="hidden")
    client.post(f"{detail_url(encounter)}players/")
    gm = visible(client.get(detail_url(encounter)).content.decode())
    assert "Ombre agit" in gm  # the game master sees everyone's turn
    turns = player.player_context(encounter)["turns"]
    assert [(t["name"], t["now"]) for t in turns] == [("Sbire", False), ("Sahar", False)]
    sbire, sahar = turns
    assert sbire["detail"] == ""  # an NPC in words: its initiative is not told
    assert sahar["detail"].startswith("initiative ")
    page = player.render_state(encounter)
    assert "Ombre" not in page
    assert "Ordre du tour" in page


def test_two_sites_on_one_redis_server_have_their_own_channels(settings):
    settings.REDIS_URL = "redis://127.0.0.1:6379/3"
    assert live.channel(12) == "estoc:3:encounter:12"
    settings.LIVE_CHANNEL_PREFIX = "autre-site"
    assert live.channel(12) == "autre-site:3:encounter:12"
    settings.REDIS_URL = ""
    assert live.channel(12) == "autre-site:0:encounter:12"
