"""enCORE's turn order (issue 16, seed ``003`` « Les conflits »): the players' order, who has acted,
NPCs beside it with their attacks, who is out, the ambush; and the encounter page's « Ordre du tour »."""

import html
import re

import pytest
from django.core.management import call_command

from bestiary.encore.models import NPC
from calculator.tables import row_key
from encounters.models import Combatant
from rulesets.core.encounter import Fighter, Turn
from rulesets.encore.encounter import PJ, PNJ, RULES, Ambush, Clock, NpcState, PcState
from rulesets.encore.turns import turns
from tests.encounters.helpers import add, advance, detail_url, play
from tests.factories_encounters import EncounterFactory

N = "\u202f"


def pc(key, name, **state):
    return Fighter(key, name, PJ, PcState(name=name, **state))


def npc(key, name, **state):
    return Fighter(key, name, PNJ, NpcState(name=name, **state))


def order(fighters, **clock):
    return turns(tuple(fighters), Clock(**clock), None)


def keys(turn_list):
    return [t.key for t in turn_list]


# --- the rules -------------------------------------------------------------------------------------


def test_the_rules_turns_are_registered():
    assert RULES.turns is turns


def test_pcs_keep_the_encounters_order_the_players_chose_and_npcs_have_no_turn():
    # « dans l'ordre que choisissent les joueurs » : no ranking by attribute or weapon
    got = order([pc("1", "Aldric", attribute=2), npc("2", "Loup"), pc("3", "Bérénice", attribute=5)], turn=1)
    assert got.turns == (Turn("1"), Turn("3"))
    assert (got.now.key, got.next.key) == ("1", "3")
    assert got.heading == ""


def test_equal_pcs_are_no_tie_to_break_they_stay_in_the_encounters_order():
    same = {"attribute": 3, "weapon": 3}
    got = order([pc("7", "Céleste", **same), pc("2", "Aldric", **same), pc("5", "Bérénice", **same)], turn=2)
    assert keys(got.turns) == ["7", "2", "5"]


def test_the_game_masters_order_puts_the_one_who_started_the_conflict_first():
    got = order([pc("1", "Aldric"), pc("2", "Bérénice"), pc("3", "Céleste")], turn=1).reordered(["3"])
    assert keys(got.turns) == ["3", "1", "2"]
    assert (got.now.key, got.next.key) == ("3", "1")


def test_the_notes_say_the_players_choose_and_the_starter_acts_first():
    got = order([pc("1", "Aldric")], turn=1)
    assert got.notes == (
        f"Les joueurs choisissent l'ordre{N}; celui qui a engagé le conflit agit en premier{N}: le MJ le place en "
        "tête avec ▲▼.",
        f"Un PJ qui n'a pas encore agi peut s'interposer dans une brèche{N}: c'est son action du tour.",
    )


def test_a_pc_who_acted_or_interposed_is_done_and_the_next_one_acts():
    got = order([pc("1", "Aldric", acted=True), pc("2", "Bérénice"), pc("3", "Céleste")], turn=1)
    assert got.turns == (Turn("1", done=True), Turn("2"), Turn("3"))
    assert (got.now.key, got.next.key) == ("2", "3")
    everyone_acted = order([pc("1", "Aldric", acted=True), pc("2", "Bérénice", acted=True)], turn=1)
    assert everyone_acted.now is None
    assert everyone_acted.next is None


def test_npcs_are_aside_with_their_attacks_left_this_turn_out_of_their_menace():
    got = order(
        [
            pc("1", "Aldric"),
            npc("2", "Arbalétrier", menace=2),
            npc("3", "Capitaine", menace=3, attacks_left=1),
            npc("4", "Loup", menace=2, attacks_left=0),
        ],
        turn=1,
    )
    assert keys(got.turns) == ["1"]
    assert got.aside == (
        Turn("2", "2\u00a0attaques ce tour sur 2"),
        Turn("3", "1\u00a0attaque ce tour sur 3"),
        Turn("4", "plus d'attaque ce tour (0 sur 2)"),
    )


def test_who_is_out_of_the_fight_has_no_turn_and_is_aside_hors_de_combat():
    got = order(
        [pc("1", "Aldric", sante=0), pc("2", "Bérénice"), npc("3", "Loup", sante=0), npc("4", "Ours", menace=1)],
        turn=3,
    )
    assert keys(got.turns) == ["2"]
    assert got.aside == (
        Turn("4", "1\u00a0attaque ce tour sur 1"),
        Turn("1", "hors de combat"),
        Turn("3", "hors de combat"),
    )


def test_pcs_ambush_the_pcs_act_before_the_first_turn_and_the_npcs_are_caught_off_guard():
    got = order(
        [npc("1", "Loup", menace=2), pc("2", "Aldric", acted=True), pc("3", "Bérénice")], turn=0, ambush=Ambush.PCS
    )
    assert got.heading == f"Embuscade des PJ{N}: chaque PJ agit une fois avant le premier tour, sans ouvrir de brèche"
    assert got.turns == (Turn("2", done=True), Turn("3"))
    assert got.aside == (Turn("1", "pris de court, ne frappe pas (Menace 2)"),)
    assert got.notes == (f"Les joueurs choisissent l'ordre des PJ{N}; le MJ le règle avec ▲▼.",)


def test_npcs_ambush_each_npc_spends_an_attack_before_the_first_turn_and_the_pcs_wait():
    got = order(
        [
            pc("1", "Aldric"),
            npc("2", "Arbalétrier", menace=2, attacks_left=1),  # its ambush attack spent
            npc("3", "Loup", menace=1),
            npc("4", "Ours", sante=0),
        ],
        turn=0,
        ambush=Ambush.NPCS,
    )
    assert got.heading == f"Embuscade des PNJ{N}: chaque PNJ dépense une attaque avant le premier tour"
    assert got.turns == (
        Turn("2", f"une attaque{N}: PER contre Menace 2 pour l'éviter", done=True),
        Turn("3", f"une attaque{N}: PER contre Menace 1 pour l'éviter"),
    )
    assert got.now.key == "3"
    assert got.aside == (Turn("1", f"PER pour éviter le coup{N}; agit au premier tour"), Turn("4", "hors de combat"))
    assert got.notes[0].startswith("Un groupe ou un boss n'en dépense qu'une.")


def test_the_ambush_is_over_from_the_first_turn_whatever_the_clock_remembers():
    got = order([pc("1", "Aldric"), npc("2", "Loup", menace=2)], turn=1, ambush=Ambush.NPCS)
    assert got.heading == ""
    assert keys(got.turns) == ["1"]
    assert keys(got.aside) == ["2"]


def test_turn_zero_without_an_ambush_says_how_to_set_it():
    got = order([pc("1", "Aldric")], turn=0)
    assert keys(got.turns) == ["1"]
    assert got.notes[0] == (
        f"Tour 0 sans embuscade{N}: choisissez qui surprend («{N}Embuscade{N}» dans les réglages de la "
        "rencontre), ou passez au tour 1."
    )


# --- the encounter page ----------------------------------------------------------------------------


ALDRIC = {"attribute": 3, "speciality": True, "weapon": 3, "armour": 1, "cover": 2, "sante": 8, "sante_max": 8}


def panel(client, encounter):
    response = client.get(detail_url(encounter))
    assert response.status_code == 200
    page = response.content.decode()
    match = re.search(r'<details class="panel panel-turns" id="turns">.*?</details>', page, re.S)
    assert match, "no « Ordre du tour » panel"
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(re.sub(r"<[^>]+>", " ", match.group(0)))).strip()


def move(client, encounter, **data):
    encounter.refresh_from_db()
    response = client.post(f"{detail_url(encounter)}turns/", {"version": encounter.version, **data})
    encounter.refresh_from_db()
    return response


@pytest.mark.django_db
def test_the_encounter_page_shows_the_players_order_and_the_game_master_moves_and_resets_it(client):
    call_command("loaddata", "fixtures/encore.json", verbosity=0)
    encounter = EncounterFactory(system="encore", clock={"turn": 1})
    client.force_login(encounter.owner)
    aldric = Combatant.objects.create(encounter=encounter, kind=PJ, name="Aldric", state={"name": "Aldric", **ALDRIC})
    berenice = Combatant.objects.create(encounter=encounter, kind=PJ, name="Bérénice", state={"name": "Bérénice"})
    preset = NPC.objects.get(name="Arbalétrier")
    assert add(client, encounter, preset=f"npc:{row_key(preset.name)}", name="", count="1").status_code == 303
    bolt = encounter.combatants.get(name="Arbalétrier")

    shown = panel(client, encounter)
    assert "Aldric agit , puis Bérénice" in shown
    assert "Arbalétrier · 2\u00a0attaques ce tour sur 2" in shown
    assert f"celui qui a engagé le conflit agit en premier{N}:" in shown

    # Bérénice started the conflict: one place up
    assert move(client, encounter, move=str(berenice.pk), by="-1").status_code == 303
    assert encounter.turn_order == [str(berenice.pk), str(aldric.pk)]
    assert "Bérénice agit , puis Aldric" in panel(client, encounter)

    # back to the rules' order
    assert move(client, encounter, reset="1").status_code == 303
    assert encounter.turn_order == []
    assert "Aldric agit , puis Bérénice" in panel(client, encounter)

    # Aldric acts (the seed's partial: the crossbowman strikes in the breach), then Bérénice's turn
    response = play(
        client,
        encounter,
        "encore",
        {"pc": aldric, "npcs": bolt},
        {"pc.1": 5, "pc.2": 2, "pc.3": 3, "pc.4": 1, "pc.5": 4},
    )
    assert response.status_code == 303
    shown = panel(client, encounter)
    assert "Bérénice agit" in shown
    assert "Arbalétrier · 1\u00a0attaque ce tour sur 2" in shown

    # « Fin du tour 1 »: everyone acts again, in the players' order
    assert advance(client, encounter).status_code == 303
    assert "Aldric agit , puis Bérénice" in panel(client, encounter)
