"""Bad input becomes a French message on the field that caused it, never an exception elsewhere."""

from __future__ import annotations

from typing import Any

import pytest

from rulesets.aventuriers.model import Scenario
from rulesets.core import request
from rulesets.core.registry import get
from rulesets.core.schema import ScenarioError, json_schema, parse, to_data

RULESET = get("aventuriers")


def errors_of(data: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(ScenarioError) as info:
        parse(Scenario, data)
    return info.value.errors


def test_an_empty_scenario_is_the_default_exchange() -> None:
    assert parse(Scenario, {}) == Scenario()


def test_pv_out_of_bounds_is_refused_in_french() -> None:
    assert errors_of({"attacker": {"pv": 0}}) == {"attacker.pv": "PV actuels\u202f: doit être entre 1 et 99 (reçu 0)."}


def test_a_non_number_is_refused_in_french() -> None:
    assert errors_of({"defender": {"stamina": "beaucoup"}}) == {
        "defender.stamina": "Stamina actuelle\u202f: nombre entier attendu."
    }


def test_an_unknown_choice_lists_the_choices() -> None:
    message = errors_of({"action": "fuite"})["action"]
    assert message.startswith("Situation\u202f: choix inconnu «\u202ffuite\u202f»")
    assert "test_de_reussite — Test de réussite (dé bleu)" in message


def test_an_unknown_die_is_refused_on_its_group() -> None:
    errors = errors_of({"attacker": {"weapon": {"dice": [{"die": "rouge", "count": 2}]}}})
    assert errors == {
        "attacker.weapon.dice.0.die": "Dé\u202f: «\u202frouge\u202f» inconnu (dés définis\u202f: noir, bleu)."
    }


def test_a_duplicate_die_code_is_refused() -> None:
    face = {"damage": 1}
    dice = [{"key": "noir", "name": "A", "faces": [face, face]}, {"key": "noir", "name": "B", "faces": [face, face]}]
    errors = errors_of({"die_types": dice})
    assert errors["die_types.1.key"] == "Code du dé\u202f: «\u202fnoir\u202f» est déjà utilisé."


def test_a_die_needs_at_least_two_faces() -> None:
    errors = errors_of({"die_types": [{"key": "x", "name": "X", "faces": [{"damage": 1}]}]})
    assert errors == {"die_types.0.faces": "Faces\u202f: au moins 2\u00a0éléments."}


def test_too_many_dice_in_a_roll_are_refused() -> None:
    errors = errors_of({"defender": {"defence": [{"die": "noir", "count": 6}, {"die": "bleu", "count": 5}]}})
    assert errors == {"defender.defence": "10\u00a0dés au plus dans un jet."}


def test_an_attack_without_dice_is_refused() -> None:
    errors = errors_of({"attacker": {"weapon": {"dice": []}}})
    assert errors == {"attacker.weapon.dice": "Jet d'attaque\u202f: au moins un dé."}


def test_a_melee_weapon_cannot_shoot() -> None:
    errors = errors_of({"mode": "distance"})
    assert errors == {"mode": "«\u202fÉpée\u202f» ne permet que l'attaque de mêlée."}


def test_a_ranged_weapon_cannot_strike_in_melee() -> None:
    errors = errors_of({"attacker": {"weapon": {"name": "Arc", "reach": "distance"}}})
    assert errors == {"mode": "«\u202fArc\u202f» ne permet que l'attaque à distance."}


def test_the_attacker_cannot_stand_on_the_targets_square() -> None:
    assert errors_of({"board": {"dx": 0, "dy": 0}}) == {
        "board.dx": "Attaquant\u202f: il ne peut pas occuper la case de la cible."
    }


def test_contrecoup_needs_riposte() -> None:
    errors = errors_of({"defender": {"contrecoup": True}})
    assert errors == {
        "defender.contrecoup": "Talent\u202f: Contrecoup\u202f: il s'ajoute à la Riposte, cochez aussi Riposte."
    }


def test_stamina_above_its_maximum_is_refused() -> None:
    errors = errors_of({"attacker": {"stamina": 6, "stamina_max": 5}})
    assert errors == {"attacker.stamina": "Stamina actuelle\u202f: dépasse la stamina maximale (5)."}


def test_an_unknown_success_die_is_refused() -> None:
    errors = errors_of({"rules": {"success_die": "vert"}})
    assert errors == {
        "rules.success_die": "Dé du test de réussite\u202f: «\u202fvert\u202f» inconnu (dés définis\u202f: noir, bleu)."
    }


def test_totals_the_dice_cannot_show_are_refused() -> None:
    errors = errors_of({"entry": "totaux", "attack_totals": {"damage": 5}})
    assert errors == {"attack_totals.damage": "Total 💥\u202f: ces dés ne peuvent pas en montrer plus de 4 (reçu 5)."}


def test_test_lightning_the_die_cannot_show_is_refused() -> None:
    errors = errors_of({"action": "test_de_reussite", "entry": "totaux", "test_lightning": 3})
    assert errors == {"test_lightning": "Test de réussite\u202f: «\u202fDé bleu\u202f» montre au plus 2\u00a0éclairs."}


def test_an_unknown_field_is_refused() -> None:
    assert errors_of({"attacker": {"mana": 3}}) == {"attacker.mana": "Champ inconnu."}


def test_a_typed_face_that_does_not_exist_names_the_die_and_its_faces() -> None:
    with pytest.raises(ScenarioError) as info:
        request.resolve(RULESET, {"scenario": {}, "dice": {"attaque.1": "7"}})
    message = info.value.errors["dice.attaque.1"]
    assert message.startswith("Attaque — Dé bleu n°1\u202f: «\u202f7\u202f» n'est pas une face du dé Dé bleu")
    assert "1 (💥), 2 (💥 ⚡), 3 (💥💥), 4 (🛡), 5 (🛡 ⚡), 6 (⚡⚡)" in message


def test_a_face_may_be_typed_by_its_label() -> None:
    resolution = request.resolve(RULESET, {"scenario": {}, "dice": {"attaque.1": "3 (💥💥)"}})
    assert resolution.dice["attaque.1"] == 3


def test_a_die_the_rules_do_not_read_is_refused() -> None:
    with pytest.raises(ScenarioError) as info:
        request.resolve(RULESET, {"scenario": {}, "dice": {"riposte.1": "1"}})
    assert info.value.errors == {"dice.riposte.1": "Ce dé n'est pas lancé dans cette situation."}


def test_the_json_schema_carries_french_titles() -> None:
    schema = json_schema(Scenario)
    assert schema["properties"]["action"]["title"] == "Situation"
    assert schema["properties"]["attacker"]["properties"]["pv"]["minimum"] == 1


def test_blank_form_values_fall_back_to_defaults() -> None:
    assert parse(Scenario, {"attacker": {"pv": "", "riposte": ""}}).attacker.pv == 10


def test_the_success_test_die_must_show_zero_one_and_two_lightning() -> None:
    plain = {"key": "gris", "name": "Dé gris", "faces": [{"damage": 1}, {"shield": 1}]}
    errors = errors_of(
        {
            "action": "test_de_reussite",
            "die_types": [plain, *to_data(Scenario().die_types)],
            "rules": {"success_die": "gris"},
        }
    )
    assert errors == {
        "rules.success_die": "Dé du test de réussite\u202f: «\u202fDé gris\u202f» doit pouvoir montrer 0, 1 et 2 éclairs."
    }
