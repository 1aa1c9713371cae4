"""Bad input becomes French per-field messages, never an exception elsewhere."""

from __future__ import annotations

import pytest

from rulesets.core.registry import get
from rulesets.core.request import odds as request_odds
from rulesets.core.request import resolve as request_resolve
from rulesets.core.schema import ScenarioError, json_schema, parse, to_data
from rulesets.quadrature.examples import HORDE
from rulesets.quadrature.model import Mode, Scenario

RULESET = get("quadrature")


def _errors(data: dict) -> dict[str, str]:
    with pytest.raises(ScenarioError) as err:
        parse(Scenario, data)
    return err.value.errors


def test_the_default_scenario_parses_and_round_trips():
    scenario = parse(Scenario, {})
    assert parse(Scenario, to_data(scenario)) == scenario


def test_an_out_of_range_number_names_its_field_in_french():
    errors = _errors({"adversary": {"guard": 99}})
    assert errors["adversary.guard"] == "Valeur de Garde\u202f: doit être entre 0 et 30 (reçu 99)."


def test_a_word_instead_of_a_number_is_refused_in_french():
    assert "nombre entier attendu" in _errors({"card": "deux"})["card"]


def test_an_unknown_mental_state_lists_the_choices():
    message = _errors({"adversary": {"mental": "furieux"}})["adversary.mental"]
    assert "choix inconnu" in message
    assert "Enragé" in message


def test_fewer_than_four_dice_are_refused():
    errors = _errors({"adversary": {"danger": 0, "menace": 2, "nuisance": 1}})
    assert "au moins quatre dés" in errors["adversary.nuisance"]


def test_more_ticked_boxes_than_boxes_are_refused_on_the_block():
    data = to_data(Scenario())
    data["adversary"]["blocks"][0]["ticked"] = 3
    data["adversary"]["blocks"][0]["boxes"] = 2
    errors = _errors(data)
    assert "plus de cases cochées" in errors["adversary.blocks.0.ticked"]


def test_a_block_of_a_part_the_sheet_does_not_have_is_refused():
    data = to_data(Scenario())
    data["adversary"]["blocks"][3]["part"] = 6
    errors = _errors(data)
    assert errors["adversary.blocks.3.part"] == "Bloc 4\u202f: la fiche n'a que 4\u00a0parties."
    assert "aucun bloc" in errors["adversary.parts.3.name"]


def test_more_destroyed_armour_than_armour_is_refused():
    data = to_data(Scenario())
    data["adversary"]["parts"][3]["armour_lost"] = 1
    assert "armure" in _errors(data)["adversary.parts.3.armour_lost"]


def test_a_block_granting_an_unknown_action_is_refused():
    data = to_data(Scenario())
    data["adversary"]["blocks"][3]["label"] = "Griffure"
    assert "aucune action «\u202fGriffure\u202f»" in _errors(data)["adversary.blocks.3.label"]


def test_a_card_number_beyond_the_deck_is_refused():
    # the default is the bestiary's Loup des cendres (issue 14, item 6): three cards
    assert _errors({"card": 9, "mode": "adversary_attack"})["card"] == "Le deck n'a que 3\u00a0cartes."


def test_a_target_part_beyond_the_sheet_is_refused():
    assert _errors({"mode": "pc_attack", "target_part": 7})["target_part"] == (
        "Le Loup des cendres n'a que 4\u00a0parties du corps."
    )


def test_a_horde_is_hit_as_a_whole():
    # a valid horde sheet (issue 14: a creature's sheet marked « horde » is refused on its own fields)
    data = to_data(Scenario(mode=Mode.PC_ATTACK, adversary=HORDE, target_part=2))
    data["adversary"]["parts"].append({"name": "Arrière"})
    data["adversary"]["blocks"][2]["part"] = 2
    assert "partie 1" in _errors(data)["target_part"]


def test_a_face_list_with_an_impossible_face_is_refused():
    errors = _errors({"faces": {"menace": [0, 1, 2, 3, 4, 12]}})
    assert "faces.menace.5" in errors


def test_an_unknown_field_is_refused():
    assert _errors({"colere": 1})["colere"] == "Champ inconnu."


def test_the_request_layer_prefixes_errors_and_never_raises_anything_else():
    with pytest.raises(ScenarioError) as err:
        request_resolve(RULESET, {"scenario": {"adversary": {"guard": -1}}, "dice": {"adv.9": "3"}})
    assert "scenario.adversary.guard" in err.value.errors
    with pytest.raises(ScenarioError):
        request_odds(RULESET, {"scenario": {"mode": "nimporte"}})


def test_a_typed_die_for_a_slot_the_rules_do_not_read_is_refused():
    with pytest.raises(ScenarioError) as err:
        request_resolve(RULESET, {"scenario": {}, "dice": {"pc.alea": "3"}})
    assert err.value.errors["dice.pc.alea"] == "Ce dé n'est pas lancé dans cette situation."


def test_the_json_schema_describes_the_scenario_with_french_titles():
    schema = json_schema(Scenario)
    assert schema["properties"]["mode"]["x-enum-labels"]["pc_attack"] == "Un personnage attaque l'adversaire"
    assert schema["properties"]["adversary"]["properties"]["guard"]["title"] == "Valeur de Garde"


def test_server_rolls_are_reproducible_from_the_seed():
    a = request_resolve(RULESET, {"scenario": {}, "seed": 42}).result
    b = request_resolve(RULESET, {"scenario": {}, "seed": 42}).result
    assert a.numbers == b.numbers
    assert a.dice.seed == 42


def test_empty_rows_of_a_padded_form_are_ignored():
    data = to_data(Scenario())
    data["adversary"]["blocks"].append({"boxes": 0})
    data["adversary"]["deck"].append({"name": ""})
    data["adversary"]["parts"].append({"name": ""})
    scenario = parse(Scenario, data)
    assert len(scenario.adversary.blocks) == 4
    assert len(scenario.adversary.deck) == 3
    assert len(scenario.adversary.parts) == 4


def test_a_sheet_with_only_empty_blocks_is_refused():
    data = to_data(Scenario())
    data["adversary"]["blocks"] = [{"boxes": 0, "part": 1}]
    data["adversary"]["parts"] = [{"name": "Corps"}]
    assert "au moins un bloc" in _errors(data)["adversary.blocks"]
