"""What follows a choice on the Féerie pages (``bestiary.feerie.settle``): each rule, with the seed's words.

Seed ``004_6e592e6a2992f712.txt`` (« Règles de simulation (3) — Le combat ») and ``shared/rules/feerie.md``.
Each test starts from the form a game master has in front of them (the page's own controls) and changes
one thing, as a click would.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from bestiary.feerie import models as m
from bestiary.feerie.settle import settle_action, settle_exchange
from calculator.tables import row_key
from tests.pages import plain
from tests.test_table_mode import controls, form_data

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def bestiary() -> None:
    call_command("loaddata", "fixtures/feerie.json", verbosity=0)


def page(client: Any, path: str, data: dict[str, str] | None = None) -> dict[str, str]:
    """The form's values as the browser would send them, after ``data`` was posted (or on the default page)."""
    response = client.post(path, data) if data is not None else client.get(path)
    return {"_f": "1", **form_data(controls(response))}


def load(client: Any, path: str, data: dict[str, str], select: str, key: str) -> dict[str, str]:
    return page(client, path, {**data, "_load": select, select: key})


def creature(name: str, mode: str = "m") -> str:
    """The key the page sends for a creature au contact (``ogre.m``) or à distance (``ogre-a-distance.r``)."""
    side = m.Creature.objects.get(name=name).name + (" à distance" if mode == "r" else "")
    return f"{row_key(side)}.{mode}"


def apply(data: dict[str, str], changes: dict[str, str | None]) -> dict[str, str]:
    out = dict(data)
    for key, value in changes.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


# --- the exchange ---------------------------------------------------------------------------------------


def test_the_default_exchange_is_left_as_it_is(client: Any) -> None:
    """« Only change what is invalid »: the page's own scene needs nothing."""
    settled = settle_exchange(page(client, "/feerie/"))
    assert settled.changes == {}
    assert plain(settled.notes) == []


def test_a_tactic_beyond_the_cap_is_brought_back_to_it(client: Any) -> None:
    """« Un modificateur ne peut être supérieur à la somme des Affinités et des maîtrises de Pouvoirs
    utilisées pour l'activité » : the Wichtln's marteau +3 caps it at ±3; the tactic keeps its shape."""
    data = page(client, "/feerie/") | {
        "attacker.tactic.initiative": "-2",
        "attacker.tactic.attack": "6",
        "attacker.tactic.defense": "-4",
    }
    settled = settle_exchange(data)
    assert {k: settled.changes[f"attacker.tactic.{k}"] for k in ("initiative", "attack")} == {
        "initiative": "-1",
        "attack": "3",
    }
    assert settled.changes["attacker.tactic.defense"] == "-2"
    assert plain(settled.notes) == [
        "Tactique du Wichtln ramenée à son plafond (±3)\u202f: Initiative −1 · Attaque +3 · Défense −2."
    ]


def test_a_combatant_without_combat_attributes_has_no_tactic(client: Any) -> None:
    """« Un personnage qui a quelque aptitude au combat (i.e. des Affinités ou des Pouvoirs qui viennent
    modifier son Attaque ou sa Défense) peut choisir […] une tactique » : loading the Lutin as defender,
    whose farces +2 apply to its Attaque, keeps a tactic within ±2; the Farfadet's esquive too; a
    combatant whose Attributs touch no combat competence loses its tactic."""
    data = page(client, "/feerie/") | {
        "defender.tactic.attack": "3",
        "defender.tactic.defense": "-3",
        "defender.attributes.0.attack": "",
        "defender.attributes.0.defense": "",
    }
    data = {k: v for k, v in data.items() if v != ""}
    settled = settle_exchange(data)
    assert settled.changes["defender.tactic.attack"] == "0"
    assert settled.changes["defender.tactic.defense"] == "0"
    assert plain(settled.notes) == [
        "Sans Affinité ni Pouvoir de combat pour cette activité, pas de tactique. Tactique du Redcap retirée."
    ]


def test_a_surprised_defender_declares_no_tactic(client: Any) -> None:
    """« Un personnage surpris subit un malus […] et ne peut recourir à une tactique »."""
    data = page(client, "/feerie/") | {
        "defender.tactic.attack": "2",
        "defender.tactic.defense": "-2",
        "situation.surprised": "on",
    }
    settled = settle_exchange(data)
    assert (settled.changes["defender.tactic.attack"], settled.changes["defender.tactic.defense"]) == ("0", "0")
    assert plain(settled.notes) == [
        "Un personnage surpris ne peut pas recourir à une tactique. Tactique du Redcap retirée."
    ]


def test_a_ranged_attack_drops_the_charge_and_the_other_assailants(client: Any) -> None:
    """A charge is « une attaque au corps à corps »; « les limites en nombre d'adversaires ne concernent
    pas les attaques à distance »."""
    data = page(client, "/feerie/") | {
        "mode": "ranged",
        "situation.movement.pace": "course",
        "situation.charge": "on",
        "situation.co_attackers.0.count": "2",
    }
    settled = settle_exchange(data)
    assert settled.changes["situation.charge"] is None
    assert settled.changes["situation.co_attackers.0.count"] == "0"
    assert "Une charge est une attaque au corps à corps. Charge retirée." in plain(settled.notes)


def test_a_melee_attack_resets_what_counts_only_at_range(client: Any) -> None:
    """Difficulty, range, terrain, aiming and the target's pace are modifiers « des attaques à distance »."""
    data = page(client, "/feerie/") | {
        "situation.range_modifier": "4",
        "situation.aim_ranks": "2",
        "situation.target_movement.pace": "trot",
        "situation.target_movement.malus": "-4",
    }
    settled = settle_exchange(data)
    assert settled.changes["situation.range_modifier"] == "0"
    assert settled.changes["situation.aim_ranks"] == "0"
    assert settled.changes["situation.target_movement.pace"] == "none"
    assert plain(settled.notes) == [
        "Corps à corps\u202f: les rangs de visée, la portée, l'allure de la cible ne comptent qu'à distance\u202f; "
        "remis à zéro."
    ]


def test_a_mounted_defender_keeps_one_angle_covered(client: Any) -> None:
    """« Le cavalier et sa monture ont chacun un angle d'attaque protégé » : 5 open angles at most."""
    data = page(client, "/feerie/") | {"defender.mount.mounted": "on", "situation.open_angles": "6"}
    settled = settle_exchange(data)
    assert settled.changes == {"situation.open_angles": "5"}


def test_a_passive_rider_needs_a_mount(client: Any) -> None:
    """The passive rider's Défense is « Habileté de la monture − sa Taille »: without a mount, unticked."""
    data = page(client, "/feerie/") | {"situation.defender_rider_passive": "on"}
    settled = settle_exchange(data)
    assert settled.changes == {"situation.defender_rider_passive": None}


def test_an_impossible_special_blow_is_withdrawn_with_the_engines_reason(client: Any) -> None:
    """« Tenir en respect » works on « un adversaire de Taille inférieure ou égale »: the Wichtln (−2)
    cannot hold off the Redcap (−1); « Acharnement » needs the previous activity's losses."""
    data = load(client, "/feerie/", page(client, "/feerie/"), "preset.blow.0", "tenir_en_respect")
    assert data["blows.0.kind"] == "aucun"
    data = page(client, "/feerie/")
    data |= {"blows.0.kind": "acharnement", "blows.0.defense_malus": "-8"}
    settled = settle_exchange(data)
    assert settled.changes["blows.0.kind"] == "aucun"
    assert plain(settled.notes) == [
        "L'acharnement demande des pertes d'Essence infligées lors de l'activité précédente. Coup spécial retiré."
    ]
    assert settle_exchange(data | {"previous_loss": "6"}).changes == {}


def test_a_bestiary_creature_takes_the_attributes_of_the_mode(client: Any) -> None:
    """The bestiary says where an Attribut applies (the Wichtln's marteau au contact, its voix tonnante à
    distance): switching the attack to ranged gives an unadjusted creature its ranged Attributs."""
    data = load(client, "/feerie/", page(client, "/feerie/"), "preset.attacker", creature("Wichtln"))
    settled = settle_exchange(data | {"mode": "ranged"})
    names = {v for k, v in settled.changes.items() if k.startswith("attacker.attributes.") and k.endswith(".name")}
    assert "voix tonnante" in names
    assert plain(settled.notes) == [
        "À distance\u202f: le Wichtln prend ses Attributs à distance (tablier de cuir, voix tonnante)."
    ]
    adjusted = data | {"mode": "ranged", "attacker.vigilance": "16"}
    assert settle_exchange(adjusted).changes == {}


def test_loading_a_creature_replaces_every_attribute_row_of_the_previous_one(client: Any) -> None:
    data = load(client, "/feerie/", page(client, "/feerie/"), "preset.attacker", creature("Lutin"))
    assert data["attacker.attributes.0.name"] == "farces"
    assert "attacker.attributes.1.name" not in data


def test_every_option_left_on_the_exchange_gives_a_valid_scene(client: Any) -> None:
    """After the settle, the page resolves (the sweep of tests/test_table_mode.py, with notes)."""
    data = load(client, "/feerie/", page(client, "/feerie/"), "preset.attacker", creature("Ogre"))
    data = load(client, "/feerie/", data, "preset.defender", creature("Farfadet"))
    data = load(client, "/feerie/", data, "preset.blow.0", "tenir_en_respect")
    assert data["blows.0.kind"] == "tenir_en_respect"
    assert client.post("/feerie/", data).status_code == 303


# --- the Action -----------------------------------------------------------------------------------------

ACTION = "/feerie/action/"


def test_the_default_action_is_left_as_it_is(client: Any) -> None:
    settled = settle_action(page(client, ACTION))
    assert settled.changes == {}


def test_the_targets_boxes_become_the_targets(client: Any) -> None:
    """Targets are chosen by name; the engine still reads their numbers (from 0)."""
    data = page(client, ACTION)
    data = apply(data, {"activities.0._targets.0": None})
    settled = settle_action(data)
    assert settled.changes == {"activities.0.targets": ""}
    settled = settle_action(page(client, ACTION) | {"activities.1.ranged": "on"})
    assert settled.changes == {}


def test_a_combatant_does_not_target_itself(client: Any) -> None:
    """« Un combattant ne s'attaque pas lui-même » : the actor changed to the target, it leaves the targets."""
    data = page(client, ACTION) | {"activities.1.actor": "1"}
    settled = settle_action(data)
    assert settled.changes["activities.1.targets"] == ""
    assert (
        plain(settled.notes)[-1]
        == "Un combattant ne s'attaque pas lui-même. Le Serpent à Sornettes retiré de ses propres cibles."
    )


def test_removing_a_combatant_renumbers_the_activities(client: Any) -> None:
    """Activities point at combatants by number: the rows after a removed one move up, so do they."""
    data = load(client, ACTION, page(client, ACTION), "preset.fighter.1", "lutin")  # a Lutin comes in second
    data = page(client, ACTION, {**data, "_add": "fighters"})
    data = load(client, ACTION, data, "preset.fighter.2", row_key(m.Creature.objects.get(name="Ogre").name))
    # the first activity is the Lutin's (on Rübezahl); the second becomes the Ogre's, on Rübezahl and the Lutin
    data |= {"activities.1.actor": "2", "activities.1._targets.0": "on", "activities.1._targets.1": "on"}
    data = page(client, ACTION, data)
    assert (data["activities.0.actor"], data["activities.1.targets"]) == ("1", "0, 1")
    after = page(client, ACTION, {**data, "_del": "fighters.1"})
    assert after["fighters.1.name"] == "Ogre"
    assert after["activities.1.actor"] == "1"  # still the Ogre
    assert after["activities.1.targets"] == "0"  # still Rübezahl, no longer the Lutin
    assert after["activities.0.kind"] == "none"  # the Lutin's own activity has no author any more


def test_loading_other_creatures_rewrites_the_descriptions_that_named_the_former_ones(client: Any) -> None:
    """The issue: after loading an Ogre and a Lutin, no description names Rübezahl or the Serpent."""
    ogre, lutin = (row_key(m.Creature.objects.get(name=n).name) for n in ("Ogre", "Lutin"))
    data = load(client, ACTION, page(client, ACTION), "preset.fighter.0", ogre)
    data = load(client, ACTION, data, "preset.fighter.1", lutin)
    labels = [data["activities.0.label"], data["activities.1.label"]]
    assert labels == ["attaque l'Ogre", "attaque le Lutin"]  # each with its article (issue 15)
    response = client.post(ACTION, data)
    assert response.status_code == 303


def test_a_typed_description_that_names_no_former_creature_stays(client: Any) -> None:
    data = page(client, ACTION) | {"activities.0.label": "fuit à toutes jambes", "fighters.1.name": "Kaa"}
    settled = settle_action(data)
    assert "activities.0.label" not in settled.changes
    assert settled.changes["activities.1.label"] == "attaque Kaa"


def test_a_name_typed_over_another_is_said_as_a_proper_name(client: Any) -> None:
    """Issue 15: « Kaa » typed over « le Serpent à Sornettes » is not « le Kaa »; the note says how to change
    it. A name that begins as the former one did keeps its grammar (« Serpent 2 » stays « le Serpent 2 »)."""
    settled = settle_action(page(client, ACTION) | {"fighters.1.name": "Kaa"})
    assert settled.changes["fighters.1.grammar.article"] == "propre"
    assert (
        "«\u202fKaa\u202f» remplace «\u202fSerpent à Sornettes\u202f»\u202f: se dit «\u202fKaa\u202f», au masculin "
        "(à changer sous «\u202fGrammaire du nom\u202f»)." in settled.notes
    )
    settled = settle_action(page(client, ACTION) | {"fighters.1.name": "Serpent 2"})
    assert "fighters.1.grammar.article" not in settled.changes


def test_a_fighters_tactic_follows_its_cap_its_surprise_and_its_activity(client: Any) -> None:
    """« Un modificateur ne peut être supérieur à [son plafond] »; « un personnage surpris n'a pas la
    possibilité de déclarer de tactique au cours de la première Action »; « on ne peut déclarer de
    tactique que si l'on agit »."""
    base = page(client, ACTION) | {"fighters.0.tactic_cap": "2"}
    settled = settle_action(base | {"fighters.0.tactic.attack": "4", "fighters.0.tactic.defense": "-4"})
    assert (settled.changes["fighters.0.tactic.attack"], settled.changes["fighters.0.tactic.defense"]) == ("2", "-2")
    surprised = base | {
        "fighters.0.tactic.attack": "2",
        "fighters.0.tactic.defense": "-2",
        "fighters.0.surprised": "on",
    }
    assert settle_action(surprised).changes["fighters.0.tactic.attack"] == "0"
    idle = base | {"fighters.0.tactic.attack": "2", "fighters.0.tactic.defense": "-2", "activities.1.kind": "none"}
    settled = settle_action(idle)
    assert settled.changes["fighters.0.tactic.attack"] == "0"
    assert "n'a déclaré aucune activité" in settled.notes[0]


def test_aiming_needs_a_ranged_activity(client: Any) -> None:
    """« Par rang d'Initiative (8 au maximum) où le tireur retarde son tir, il gagne +1 » : a shooter only."""
    settled = settle_action(page(client, ACTION) | {"activities.0.aim": "on"})
    assert settled.changes == {"activities.0.aim": None}
    assert plain(settled.notes) == ["On ne vise qu'à distance. Visée retirée."]
