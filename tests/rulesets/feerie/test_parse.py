"""Bad input becomes a French message on the field that caused it."""

from __future__ import annotations

from typing import Any

import pytest

from rulesets.core.request import resolve
from rulesets.core.schema import ScenarioError, json_schema, parse, to_data
from rulesets.feerie import ACTION, RULESET
from rulesets.feerie.action import ActionScenario
from rulesets.feerie.model import Exchange


def errors_of(data: dict[str, Any], cls: type = Exchange) -> dict[str, str]:
    with pytest.raises(ScenarioError) as info:
        parse(cls, data)
    return info.value.errors


def test_the_default_scenario_parses_and_round_trips() -> None:
    s = parse(Exchange, {})
    assert parse(Exchange, to_data(s)) == s


def test_an_aspect_out_of_bounds_is_refused_in_french() -> None:
    errors = errors_of({"attacker": {"habilete": 99}})
    assert errors["attacker.habilete"] == "Habileté\u202f: doit être entre 0 et 60 (reçu 99)."


def test_a_taille_beyond_five_is_refused() -> None:
    assert "Taille" in errors_of({"defender": {"taille": 7}})["defender.taille"]


def test_an_attribute_on_attack_and_damage_is_refused() -> None:
    attr = {"name": "marteau", "kind": "accessoire", "value": 3, "attack": True, "damage": True}
    errors = errors_of({"attacker": {"attributes": [attr]}})
    assert errors["attacker.attributes.0.damage"] == (
        "«\u202fmarteau\u202f» porte déjà sur le jet d'Attaque\u202f: il ne peut s'appliquer aussi aux Dommages."
    )


def test_an_attribute_on_defense_and_soak_is_refused() -> None:
    attr = {"name": "bouclier", "kind": "accessoire", "value": 2, "defense": True, "soak": True}
    assert "Encaissement" in errors_of({"defender": {"attributes": [attr]}})["defender.attributes.0.soak"]


def test_the_same_attribute_listed_twice_is_refused() -> None:
    attr = {"name": "duel", "value": 2, "attack": True}
    assert "deux fois" in errors_of({"attacker": {"attributes": [attr, attr]}})["attacker.attributes.1.name"]


def test_a_tactic_that_does_not_sum_to_zero_is_refused() -> None:
    attr = {"name": "duel", "value": 4, "attack": True}
    errors = errors_of({"attacker": {"attributes": [attr], "tactic": {"attack": 4, "defense": -2}}})
    assert errors["attacker.tactic"] == "La somme des modifications de tactique doit être nulle (reçu +2)."


def test_a_tactic_beyond_the_cap_is_refused() -> None:
    attr = {"name": "duel", "value": 4, "attack": True}
    errors = errors_of({"attacker": {"attributes": [attr], "tactic": {"attack": 5, "defense": -5}}})
    assert "(4)" in errors["attacker.tactic.attack"]
    assert "attacker.tactic.defense" in errors


def test_a_character_without_combat_attributes_cannot_declare_a_tactic() -> None:
    assert "attacker.tactic.attack" in errors_of(
        {"attacker": {"attributes": [], "tactic": {"attack": 1, "defense": -1}}}
    )


def test_a_surprised_defender_cannot_use_a_tactic() -> None:
    attr = {"name": "duel", "value": 2, "defense": True}
    errors = errors_of(
        {"defender": {"attributes": [attr], "tactic": {"attack": -1, "defense": 1}}, "situation": {"surprised": True}}
    )
    assert errors["defender.tactic"] == "Un personnage surpris ne peut pas recourir à une tactique."


def test_ranged_only_options_are_refused_in_melee() -> None:
    errors = errors_of({"situation": {"aim_ranks": 3}})
    assert errors["situation.aim_ranks"] == "Ne s'applique qu'à une attaque à distance."


def test_aiming_beyond_eight_ranks_is_refused() -> None:
    assert "entre 0 et 8" in errors_of({"mode": "ranged", "situation": {"aim_ranks": 9}})["situation.aim_ranks"]


def test_a_charge_without_movement_is_refused() -> None:
    assert "déplacement" in errors_of({"situation": {"charge": True}})["situation.charge"]


def test_hold_off_on_a_bigger_defender_is_refused() -> None:
    errors = errors_of(
        {
            "attacker": {"taille": -2},
            "defender": {"taille": 0},
            "blows": [{"kind": "tenir_en_respect", "attack_malus": -12}],
        }
    )
    assert "Taille inférieure ou égale" in errors["blows.0.kind"]


def test_entering_the_guard_of_a_smaller_defender_is_refused() -> None:
    errors = errors_of(
        {"attacker": {"taille": 2}, "defender": {"taille": 0}, "blows": [{"kind": "entrer_dans_la_garde"}]}
    )
    assert "Taille supérieure ou égale" in errors["blows.0.kind"]


def test_relentlessness_needs_a_previous_loss() -> None:
    assert (
        "activité précédente" in errors_of({"blows": [{"kind": "acharnement", "defense_malus": -8}]})["previous_loss"]
    )


def test_an_unknown_special_blow_lists_the_choices_in_french() -> None:
    message = errors_of({"blows": [{"kind": "coup_de_pied"}]})["blows.0.kind"]
    assert message.startswith("Coup spécial\u202f: choix inconnu «\u202fcoup_de_pied\u202f»")
    assert "Désarmer" in message


def test_a_typed_dice_term_outside_the_dice_range_is_refused() -> None:
    assert errors_of({"term": 25})["term"] == "Le terme de dés 1d20 − 1d20 va de −19 à 19 (reçu 25)."


def test_a_typed_die_that_is_not_a_face_is_refused_through_the_request() -> None:
    with pytest.raises(ScenarioError) as info:
        resolve(RULESET, {"scenario": {}, "dice": {"plus.1": "21"}})
    assert "n'est pas une face du dé d20" in info.value.errors["dice.plus.1"]


def test_an_unknown_field_is_refused() -> None:
    assert errors_of({"bravoure": 3})["bravoure"] == "Champ inconnu."


def test_an_action_activity_of_an_unknown_fighter_is_refused() -> None:
    errors = errors_of({"fighters": [{"name": "A"}], "activities": [{"actor": 3, "kind": "other"}]}, ActionScenario)
    assert "activities.0.actor" in errors


def test_an_action_attack_without_target_is_refused() -> None:
    errors = errors_of(
        {"fighters": [{"name": "A"}, {"name": "B"}], "activities": [{"actor": 0, "kind": "attack"}]}, ActionScenario
    )
    assert errors["activities.0.targets"] == "Une attaque vise au moins une cible."


def test_a_bite_too_big_for_the_ogre_is_refused() -> None:
    fighters = [{"name": "Ogre", "taille": 2}] + [{"name": f"L{k}", "taille": -2} for k in range(5)]
    errors = errors_of(
        {"fighters": fighters, "activities": [{"actor": 0, "kind": "attack", "targets": "1,2,3,4,5"}]}, ActionScenario
    )
    assert errors["activities.0.targets"] == (
        "Un seul coup ne couvre qu'une surface de 8\u202f; ces cibles en occupent 10."
    )


def test_a_surprised_fighter_cannot_declare_a_tactic() -> None:
    errors = errors_of(
        {"fighters": [{"name": "A", "surprised": True, "tactic": {"initiative": 2, "attack": -2}}]}, ActionScenario
    )
    assert "surpris" in errors["fighters.0.tactic"]


def test_a_changed_tactic_beyond_the_cap_is_refused() -> None:
    data = {
        "fighters": [{"name": "A", "tactic_cap": 2}, {"name": "B"}],
        "activities": [
            {
                "actor": 0,
                "kind": "attack",
                "targets": "1",
                "change": {"rank": 5, "new_tactic": True, "tactic": {"attack": 3, "defense": -3}},
            }
        ],
    }
    assert "activities.0.change.tactic.attack" in errors_of(data, ActionScenario)


def test_both_scenarios_have_a_json_schema_with_french_titles() -> None:
    schema = json_schema(Exchange)
    assert schema["properties"]["attacker"]["properties"]["habilete"]["title"] == "Habileté"
    assert "required" not in json_schema(ActionScenario)
    assert parse(ActionScenario, {}).fighters[0].name == "Rübezahl"
    assert ACTION.scenario_type is ActionScenario


def test_a_piercing_projectile_affects_only_one_target() -> None:
    data = {
        "fighters": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
        "activities": [{"actor": 0, "kind": "attack", "targets": "1,2", "ranged": True}],
    }
    assert (
        errors_of(data, ActionScenario)["activities.0.targets"]
        == "Un projectile purement transperçant n'affecte qu'une cible."
    )


def test_a_passive_character_cannot_declare_a_tactic() -> None:
    data = {"fighters": [{"name": "A", "tactic_cap": 1, "tactic": {"attack": 1, "defense": -1}}, {"name": "B"}]}
    assert "aucune activité" in errors_of(data, ActionScenario)["fighters.0.tactic"]
    attr = {"name": "duel", "value": 2, "defense": True}
    errors = errors_of(
        {
            "defender": {"attributes": [attr], "tactic": {"attack": -1, "defense": 1}},
            "situation": {"defender_passive": True},
        }
    )
    assert "passif" in errors["defender.tactic"]


def test_targets_that_are_not_numbers_are_refused() -> None:
    data = {
        "fighters": [{"name": "A"}, {"name": "B"}],
        "activities": [{"actor": 0, "kind": "attack", "targets": "Bob"}],
    }
    assert "séparés par des virgules" in errors_of(data, ActionScenario)["activities.0.targets"]


def test_a_mounted_defender_has_a_protected_angle() -> None:
    # « Le cavalier et sa monture ont chacun un angle d'attaque protégé (le cavalier par en-dessous) »
    mounted = {"mount": {"mounted": True, "taille": 2}}
    errors = errors_of({"defender": mounted, "situation": {"open_angles": 6}})
    assert "5 angles ouverts au plus" in errors["situation.open_angles"]
    assert parse(Exchange, {"defender": mounted, "situation": {"open_angles": 5}}).situation.open_angles == 5
