"""Aventuriers' turn order (issue 16): the phase des Aventuriers, then the phase du Maître des
Ombres (seed ``001_98d48faccdd02c66`` « Combat », Livret Aventure, p. 16–20). The side whose phase
it is has the turns, in the encounter's order (the seed leaves it to the players and to the Maître
des Ombres), done once its combat action is made; the other side waits aside; the Attaques
d'opportunité come first at the start of the phase des Aventuriers; who is out has no turn."""

import re

import pytest

from encounters import services
from encounters.models import Combatant
from rulesets.aventuriers.encounter import AventurierState, Clock, MonsterState, Phase
from rulesets.aventuriers.model import Scenario
from rulesets.aventuriers.turns import turns
from rulesets.core.encounter import Fighter
from tests.encounters.helpers import advance, detail_url
from tests.factories_encounters import EncounterFactory

NB = "\u202f"
TABLE = Scenario()
AVENTURIERS = Clock(turn=2, phase=Phase.AVENTURIERS, opening=False)
OMBRES = Clock(turn=2, phase=Phase.OMBRES, opening=False)
OPENING = Clock(turn=2, phase=Phase.AVENTURIERS, opening=True)


def hero(key: str, name: str, **state) -> Fighter:
    return Fighter(key, name, "aventurier", AventurierState(name=name, **state))


def beast(key: str, name: str, **state) -> Fighter:
    return Fighter(key, name, "monstre", MonsterState(name=name, **state))


CAST = (
    beast("1", "Gobelin"),
    hero("2", "Elwen"),
    hero("3", "Bruno"),
    beast("4", "Orc"),
    hero("5", "Ysolde"),
)


def keys(order) -> list[str]:
    return [t.key for t in order.turns]


def test_the_aventuriers_phase_gives_the_turns_to_the_aventuriers_in_the_encounters_order():
    order = turns(CAST, AVENTURIERS, TABLE)
    assert keys(order) == ["2", "3", "5"]
    assert [t.detail for t in order.turns] == ["", "", ""]
    assert order.heading == "Phase des Aventuriers, tour 2"
    assert (order.now.key, order.next.key) == ("2", "3")


def test_the_maitre_des_ombres_phase_gives_the_turns_to_the_monsters_in_the_encounters_order():
    order = turns(CAST, OMBRES, TABLE)
    assert keys(order) == ["1", "4"]
    assert order.heading == "Phase du Maître des Ombres, tour 2"
    assert (order.now.key, order.next.key) == ("1", "4")


def test_the_other_side_waits_aside_for_its_phase():
    order = turns(CAST, AVENTURIERS, TABLE)
    assert [(t.key, t.detail, t.done) for t in order.aside] == [
        ("1", "attend la phase du Maître des Ombres", False),
        ("4", "attend la phase du Maître des Ombres", False),
    ]
    order = turns(CAST, OMBRES, TABLE)
    assert [(t.key, t.detail) for t in order.aside] == [
        ("2", "attend la phase des Aventuriers du tour 3"),
        ("3", "attend la phase des Aventuriers du tour 3"),
        ("5", "attend la phase des Aventuriers du tour 3"),
    ]


def test_a_combat_action_made_this_turn_marks_the_turn_done_and_the_next_one_acts():
    cast = (hero("2", "Elwen", acted=True), hero("3", "Bruno"), hero("5", "Ysolde"), beast("1", "Gobelin"))
    order = turns(cast, AVENTURIERS, TABLE)
    assert [(t.key, t.done) for t in order.turns] == [("2", True), ("3", False), ("5", False)]
    assert (order.now.key, order.next.key) == ("3", "5")
    everyone = tuple(hero(f.key, f.name, acted=True) for f in cast[:3]) + cast[3:]
    assert turns(everyone, AVENTURIERS, TABLE).now is None


def test_a_monster_that_already_struck_this_turn_is_done_in_its_phase_and_said_so_while_waiting():
    cast = (beast("1", "Gobelin", acted=True), beast("4", "Orc"), hero("2", "Elwen"))
    assert [t.detail for t in turns(cast, AVENTURIERS, TABLE).aside] == [
        "attend la phase du Maître des Ombres (action de combat déjà faite ce tour)",
        "attend la phase du Maître des Ombres",
    ]
    order = turns(cast, OMBRES, TABLE)
    assert [(t.key, t.done) for t in order.turns] == [("1", True), ("4", False)]
    assert order.now.key == "4"


def test_who_is_out_of_the_fight_has_no_turn_and_does_not_wait_aside():
    cast = (beast("1", "Gobelin", pv=0), hero("2", "Elwen", pv=0), hero("3", "Bruno"), beast("4", "Orc"))
    order = turns(cast, AVENTURIERS, TABLE)
    assert keys(order) == ["3"]
    assert [t.key for t in order.aside] == ["4"]
    order = turns(cast, OMBRES, TABLE)
    assert keys(order) == ["4"]
    assert [t.key for t in order.aside] == ["3"]


def test_at_the_start_of_the_phase_the_aventuriers_with_an_attaque_d_opportunite_come_first():
    cast = (hero("2", "Elwen"), hero("3", "Bruno", opportunity=True), hero("5", "Ysolde"), beast("1", "Gobelin"))
    order = turns(cast, OPENING, TABLE)
    assert keys(order) == ["3", "2", "5"]
    assert [t.detail for t in order.turns] == ["Attaque d'opportunité possible d'abord", "", ""]
    assert order.heading == "Début de la phase des Aventuriers, tour 2"


def test_aventuriers_with_an_attaque_d_opportunite_keep_the_encounters_order_among_themselves():
    cast = (
        hero("2", "Elwen"),
        hero("3", "Bruno", opportunity=True),
        hero("5", "Ysolde"),
        hero("6", "Aldric", opportunity=True),
    )
    assert keys(turns(cast, OPENING, TABLE)) == ["3", "6", "2", "5"]


def test_once_the_start_of_the_phase_is_over_an_unused_opportunity_no_longer_counts():
    cast = (hero("2", "Elwen"), hero("3", "Bruno", opportunity=True), beast("1", "Araignée", opportunity=True))
    order = turns(cast, AVENTURIERS, TABLE)
    assert keys(order) == ["2", "3"]
    assert [t.detail for t in order.turns] == ["", ""]
    assert [t.detail for t in order.aside] == ["attend la phase du Maître des Ombres"]
    assert not any("opportunité" in n for n in order.notes)


def test_a_monster_with_an_attaque_d_opportunite_is_named_before_the_first_action():
    spider = Fighter(
        "1",
        "Araignée géante",
        "monstre",
        MonsterState(name="Araignée géante", opportunity=True, attaque_opportunite=True),
    )
    order = turns((hero("2", "Elwen"), spider, beast("4", "Orc")), OPENING, TABLE)
    assert keys(order) == ["2"]
    assert [t.detail for t in order.aside] == [
        "Attaque d'opportunité possible d'abord, puis attend la phase du Maître des Ombres",
        "attend la phase du Maître des Ombres",
    ]
    assert f"Avant la première action{NB}: Attaque d'opportunité possible pour l'Araignée géante." in order.notes


def test_the_notes_say_who_chooses_the_order_and_how_to_pass_a_turn():
    choose = (
        f"Les joueurs choisissent l'ordre de leurs aventuriers (ici, celui de la rencontre){NB}: ▲ ▼ pour le suivre."
    )
    shadows = (
        "Le Maître des Ombres active ses monstres dans l'ordre de son choix (ici, celui de la rencontre)"
        f"{NB}: ▲ ▼ pour le suivre."
    )
    passing = (
        f"Qui n'attaque pas ce tour{NB}: cochez «{NB}A fait son action de combat ce tour{NB}» dans sa fiche "
        "pour passer au suivant."
    )
    assert turns(CAST, AVENTURIERS, TABLE).notes == (choose, passing)
    assert turns(CAST, OMBRES, TABLE).notes == (shadows, passing)


def test_no_figure_standing_on_the_phases_side_leaves_no_turn():
    order = turns((beast("1", "Gobelin", pv=0), hero("2", "Elwen")), OMBRES, TABLE)
    assert order.turns == ()
    assert order.now is None
    assert [t.key for t in order.aside] == ["2"]


# --- the encounter page ------------------------------------------------------------------------------


def figure(encounter, kind: str, name: str) -> Combatant:
    data = services.state_parse(services.rules_for(encounter), kind, {"name": name})
    return Combatant.objects.create(encounter=encounter, kind=kind, name=name, state=data)


def panel(client, encounter) -> str:
    text = client.get(detail_url(encounter)).content.decode()
    match = re.search(r'id="turns".*?</details>', text, re.S)
    assert match, "no turn order panel on the page"
    return match.group(0)


@pytest.mark.django_db
def test_the_encounter_page_shows_the_phase_and_the_game_master_reorders_it(client):
    encounter = EncounterFactory(system="aventuriers", clock={"turn": 1, "phase": "aventuriers", "opening": False})
    client.force_login(encounter.owner)
    figure(encounter, "aventurier", "Elwen")
    bruno = figure(encounter, "aventurier", "Bruno")
    figure(encounter, "monstre", "Gobelin")

    text = panel(client, encounter)
    assert "Phase des Aventuriers, tour 1" in text
    assert "Elwen agit" in text
    assert "puis Bruno" in text
    assert "Gobelin</strong> · attend la phase du Maître des Ombres" in text

    encounter.refresh_from_db()
    moved = client.post(f"{detail_url(encounter)}turns/", {"version": encounter.version, "move": bruno.key, "by": "-1"})
    assert moved.status_code == 303
    text = panel(client, encounter)
    assert "Bruno agit" in text
    assert "puis Elwen" in text

    encounter.refresh_from_db()
    reset = client.post(f"{detail_url(encounter)}turns/", {"version": encounter.version, "reset": "1"})
    assert reset.status_code == 303
    text = panel(client, encounter)
    assert "Elwen agit" in text
    assert "puis Bruno" in text

    # « Fin de la phase des Aventuriers »: the Maître des Ombres' phase, the Gobelin acts
    assert advance(client, encounter).status_code == 303
    text = panel(client, encounter)
    assert "Phase du Maître des Ombres, tour 1" in text
    assert "Gobelin agit" in text
    assert "Elwen</strong> · attend la phase des Aventuriers du tour 2" in text
