"""enCORE in an encounter: the seed's Aldric fight over two turns, the breach, attacks per turn,
interposing, area weapons, manoeuvre advantages, the ambush turn, undo of clamped values."""

import pytest
from django.core.management import call_command

from bestiary.encore.models import NPC
from calculator.tables import row_key
from encounters.models import Combatant
from tests.encounters.helpers import add, advance, detail_url, play, redo, states, undo
from tests.factories_encounters import EncounterFactory

pytestmark = pytest.mark.django_db

ALDRIC = {
    "name": "Aldric",
    "attribute": 3,
    "speciality": True,
    "weapon": 3,
    "armour": 1,
    "cover": 2,
    "sante": 8,
    "sante_max": 8,
    "stress": 0,
}


FEMININE = {"article": "defini", "gender": "f", "elision": "auto"}


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loaddata", "fixtures/encore.json", verbosity=0)


@pytest.fixture
def encounter(client):
    encounter = EncounterFactory(system="encore", clock={"turn": 1})
    client.force_login(encounter.owner)
    return encounter


def pc(encounter, **state):
    return Combatant.objects.create(
        encounter=encounter, kind="pj", name=state["name"], state={**ALDRIC, "acted": False, **state}
    )


def crossbowman(client, encounter, name=""):
    preset = NPC.objects.get(name="Arbalétrier")
    response = add(client, encounter, preset=f"npc:{row_key(preset.name)}", name=name, count="1")
    assert response.status_code == 303
    return encounter.combatants.order_by("-pk").first()


def test_the_seeds_aldric_fight_runs_over_two_turns_in_an_encounter(client, encounter):
    aldric = pc(encounter, **ALDRIC)
    bolt = crossbowman(client, encounter)
    assert bolt.state["menace"] == 2
    assert bolt.state["sante"] == bolt.state["sante_max"] == 4

    # Turn 1: 5d6 against Menace 2, one success: partial, 3 damage; the breach: 3 − 2 = 1.
    response = play(
        client,
        encounter,
        "encore",
        {"pc": aldric, "npcs": bolt},
        {"pc.1": 5, "pc.2": 2, "pc.3": 3, "pc.4": 1, "pc.5": 4},
    )
    assert response.status_code == 303
    s = states(encounter)
    assert s["Aldric"]["sante"] == 7
    assert s["Aldric"]["stress"] == 1
    assert s["Aldric"]["acted"] is True
    assert s["Arbalétrier"]["sante"] == 1
    assert s["Arbalétrier"]["attacks_left"] == 1
    entry = encounter.log.order_by("-seq").first()
    assert entry.title == "Aldric contre l'Arbalétrier\u202f: Réussite partielle"
    assert "Aldric — Santé\u202f: 8 → 7" in entry.lines
    assert "Arbalétrier — Santé\u202f: 4 → 1" in entry.lines
    assert "Arbalétrier — Attaques restantes ce tour\u202f: — → 1" in entry.lines

    advance(client, encounter)
    s = states(encounter)
    assert encounter.clock["turn"] == 2
    assert s["Aldric"]["acted"] is False
    assert s["Arbalétrier"]["attacks_left"] is None  # back to its Menace

    # Turn 2: 3 successes, one beyond the Menace: 3 + 1 = 4, the crossbowman falls, no breach.
    play(
        client,
        encounter,
        "encore",
        {"pc": aldric, "npcs": bolt},
        {"pc.1": 5, "pc.2": 6, "pc.3": 5, "pc.4": 1, "pc.5": 2},
    )
    s = states(encounter)
    assert s["Arbalétrier"]["sante"] == 0
    assert s["Aldric"]["sante"] == 7
    page = client.get(detail_url(encounter)).content.decode()
    assert "hors de combat" in page
    assert "Plus aucun PNJ ne peut riposter" in page


def test_undo_and_redo_walk_the_whole_history_back_and_forth(client, encounter):
    aldric = pc(encounter, **ALDRIC)
    bolt = crossbowman(client, encounter)
    play(
        client,
        encounter,
        "encore",
        {"pc": aldric, "npcs": bolt},
        {"pc.1": 5, "pc.2": 2, "pc.3": 3, "pc.4": 1, "pc.5": 4},
    )
    advance(client, encounter)
    after = states(encounter)
    for _ in range(3):  # advance, apply, add
        assert undo(client, encounter).status_code == 303
    assert "Arbalétrier" not in states(encounter)
    assert states(encounter)["Aldric"]["sante"] == 8
    assert encounter.clock["turn"] == 1
    assert undo(client, encounter).status_code == 409  # nothing left: only Aldric was created directly
    for _ in range(3):
        assert redo(client, encounter).status_code == 303
    assert states(encounter) == after
    assert encounter.clock["turn"] == 2
    assert redo(client, encounter).status_code == 409


def test_undo_restores_a_clamped_santé_exactly(client, encounter):
    aldric = pc(encounter, **ALDRIC)
    wolf = Combatant.objects.create(
        encounter=encounter,
        kind="pnj",
        name="Loup",
        state={"name": "Loup", "menace": 1, "sante": 2, "sante_max": 5, "weapon": 2},
    )
    # three successes against Menace 1: weapon 3 + 2 = 5 damage on 2 Santé → 0 (3 absorbed)
    play(
        client,
        encounter,
        "encore",
        {"pc": aldric, "npcs": wolf},
        {"pc.1": 5, "pc.2": 6, "pc.3": 5, "pc.4": 1, "pc.5": 1},
    )
    assert states(encounter)["Loup"]["sante"] == 0
    undo(client, encounter)
    assert states(encounter)["Loup"]["sante"] == 2
    redo(client, encounter)
    assert states(encounter)["Loup"]["sante"] == 0


def test_an_npc_spends_its_menace_in_attacks_per_turn_and_loses_the_rest_at_the_end(client, encounter):
    aldric = pc(encounter, **ALDRIC)
    brute = Combatant.objects.create(
        encounter=encounter,
        kind="pnj",
        name="Brute",
        state={"name": "Brute", "grammar": FEMININE, "menace": 3, "sante": 9, "sante_max": 9, "weapon": 4},
    )
    # a failure opens the breach; the Brute focuses two attacks: 4 + 1 − 2 = 3
    play(
        client,
        encounter,
        "encore",
        {"pc": aldric, "npcs": brute},
        {"pc.1": 1, "pc.2": 1, "pc.3": 1, "pc.4": 1, "pc.5": 1},
        **{"strike.attacks": 2},
    )
    s = states(encounter)
    assert s["Brute"]["attacks_left"] == 1
    assert s["Aldric"]["sante"] == 5
    advance(client, encounter)
    entry = encounter.log.order_by("-seq").first()
    assert "La Brute perd 1\u00a0attaque non dépensée." in entry.story
    assert states(encounter)["Brute"]["attacks_left"] is None


def test_the_interposer_takes_the_strike_and_loses_their_action(client, encounter):
    aldric = pc(encounter, **ALDRIC)
    brenna = pc(encounter, name="Brenna", armour=1, cover=0, sante=6, sante_max=6)
    bolt = crossbowman(client, encounter)
    play(
        client,
        encounter,
        "encore",
        {"pc": aldric, "npcs": bolt, "interposer": brenna},
        {"pc.1": 1, "pc.2": 1, "pc.3": 1, "pc.4": 1, "pc.5": 1},
        **{"strike.interpose": True},
    )
    s = states(encounter)
    assert s["Aldric"]["sante"] == 8  # Brenna took it
    assert s["Brenna"]["sante"] == 4  # 3 − Protection 1
    assert s["Brenna"]["stress"] == 1
    assert s["Brenna"]["acted"] is True
    assert s["Aldric"]["acted"] is True


def test_an_area_weapon_wounds_every_target_it_reaches(client, encounter):
    grenadier = pc(encounter, name="Grenadière", weapon=2, weapon_area=True, speciality=False)
    brigand = NPC.objects.get(name="Brigand")
    add(client, encounter, preset=f"npc:{row_key(brigand.name)}", count="3")
    targets = list(encounter.combatants.filter(kind="pnj").order_by("pk"))
    # Menace 1 for all: three successes → 1 + 2 = 3 targets, 2 damage each
    play(client, encounter, "encore", {"pc": grenadier, "npcs": targets}, {"pc.1": 5, "pc.2": 5, "pc.3": 6})
    s = states(encounter)
    assert [s[f"Brigand {i}"]["sante"] for i in (1, 2, 3)] == [max(0, brigand.sante - 2)] * 3


def test_a_manoeuvre_that_helps_allies_gives_them_a_die_until_the_end_of_the_turn(client, encounter):
    aldric = pc(encounter, **ALDRIC)
    brenna = pc(encounter, name="Brenna", speciality=False)
    bolt = crossbowman(client, encounter)
    play(
        client,
        encounter,
        "encore",
        {"pc": aldric, "npcs": bolt},
        {"pc.1": 5, "pc.2": 6, "pc.3": 1, "pc.4": 1, "pc.5": 1},
        action="manoeuvre",
        effect="à terre",
        effect_helps_allies=True,
    )
    advantages = states(encounter)["Arbalétrier"]["advantages"]
    assert advantages == [{"effect": "à terre", "by": "Aldric", "until_turn": 1}]
    # Brenna's page starts with the +1d6; Aldric's own would not
    from tests.encounters.helpers import open_calculator

    assert "pc.bonus_dice=1" in open_calculator(client, encounter, "encore", pc=brenna, npcs=bolt)
    assert "pc.bonus_dice=0" in open_calculator(client, encounter, "encore", pc=aldric, npcs=bolt)
    advance(client, encounter)
    assert states(encounter)["Arbalétrier"]["advantages"] == []


def test_the_ambush_turn_comes_before_the_first_and_an_avoid_roll_is_not_an_action(client, encounter):
    encounter.clock = {"turn": 0, "ambush": "pnj"}
    encounter.save()
    aldric = pc(encounter, **ALDRIC)
    bolt = crossbowman(client, encounter)
    # PER 3 against Menace 2, no success: hit by 3 − 2 = 1
    from tests.encounters.helpers import open_calculator

    url = open_calculator(client, encounter, "encore", pc=aldric, npcs=bolt)
    assert "action=embuscade_pnj" in url
    play(
        client,
        encounter,
        "encore",
        {"pc": aldric, "npcs": bolt},
        {"pc.1": 1, "pc.2": 2, "pc.3": 3, "pc.4": 1, "pc.5": 1},
    )
    s = states(encounter)
    assert s["Aldric"]["sante"] == 7
    assert s["Aldric"]["acted"] is False
    assert s["Arbalétrier"]["attacks_left"] == 1
    advance(client, encounter)
    assert encounter.clock["turn"] == 1
    assert states(encounter)["Arbalétrier"]["attacks_left"] is None


def test_an_idle_turn_lets_the_adversity_move_on(client, encounter):
    pc(encounter, **ALDRIC)
    crossbowman(client, encounter)
    advance(client, encounter)
    entry = encounter.log.order_by("-seq").first()
    assert any("Aucun PJ n'a agi contre les PNJ ce tour" in p for p in entry.story)


def test_opposition_between_pcs_wounds_the_loser_and_uses_both_actions(client, encounter):
    aldric = pc(encounter, **ALDRIC)
    brenna = pc(encounter, name="Brenna", speciality=False, weapon=2, armour=0, cover=0)
    # Aldric 2 successes, Brenna 0: Aldric wins, 3 − 0 = 3
    play(
        client,
        encounter,
        "encore",
        {"pc": aldric, "opponent": brenna},
        {"pc.1": 5, "pc.2": 5, "pc.3": 1, "pc.4": 1, "pc.5": 1, "opp.1": 1, "opp.2": 2, "opp.3": 3},
    )
    s = states(encounter)
    assert s["Brenna"]["sante"] == 5
    assert s["Brenna"]["acted"] is True
    assert s["Aldric"]["acted"] is True


def test_the_log_of_a_few_rounds_reads_as_careful_french(client, encounter):
    """Issue 15: every title, story line and technical line of the log, over two turns with the
    seed's crossbowman (a bestiary name said « l'Arbalétrier »), a feminine ally who interposes and
    a manoeuvre that helps the allies."""
    from tests.french_lint import assert_clean

    aldric = pc(encounter, **ALDRIC)
    brenna = pc(encounter, name="Brenna", grammar=FEMININE | {"article": "propre"}, armour=1, cover=0)
    bolt = crossbowman(client, encounter)
    play(
        client,
        encounter,
        "encore",
        {"pc": aldric, "npcs": bolt, "interposer": brenna},
        {"pc.1": 5, "pc.2": 1, "pc.3": 1, "pc.4": 1, "pc.5": 1},
        **{"strike.interpose": True},
    )
    advance(client, encounter)
    play(
        client,
        encounter,
        "encore",
        {"pc": aldric, "npcs": bolt},
        {"pc.1": 5, "pc.2": 6, "pc.3": 1, "pc.4": 1, "pc.5": 1},
        action="manoeuvre",
        effect="à terre",
        effect_helps_allies=True,
    )
    advance(client, encounter)
    advance(client, encounter)  # an idle turn
    entries = list(encounter.log.order_by("seq"))
    texts = []
    for entry in entries:
        texts.append((f"{entry.seq} titre", entry.title))
        texts += [(f"{entry.seq} récit", line) for line in entry.story]
        texts += [(f"{entry.seq} ligne", line) for line in entry.lines]
    assert_clean(texts)
    story = [line for entry in entries for line in entry.story]
    assert "Brenna se jette devant Aldric. L'Arbalétrier profite de l'ouverture et frappe Brenna." in story or (
        "Brenna se jette devant Aldric. L'Arbalétrier contourne la garde et riposte sur Brenna." in story
    )
    assert "Les alliés gagnent +1d6 contre l'Arbalétrier jusqu'à la fin du tour." in story
    assert "L'avantage «\u202fà terre\u202f» contre l'Arbalétrier prend fin." in story
