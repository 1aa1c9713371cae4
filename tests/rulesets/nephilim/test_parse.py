"""Bad input becomes French messages on the field that caused them, never an exception elsewhere."""

from __future__ import annotations

from typing import Any

import pytest

from rulesets.core.french import typography as fr
from rulesets.core.registry import get
from rulesets.core.request import resolve
from rulesets.core.schema import ScenarioError, json_schema
from rulesets.nephilim.model import Scenario
from tests.rulesets.nephilim.helpers import approach, attacker, defence, defender, weapon


def errors_of(payload: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(ScenarioError) as info:
        resolve(get("nephilim"), payload)
    return info.value.errors


def melee(att: dict[str, Any] | None = None, *defenders: dict[str, Any], **extra: Any) -> dict[str, Any]:
    scenario: dict[str, Any] = {
        "mode": "melee",
        "attacker": att or attacker(),
        "defenders": list(defenders) or [defender()],
    }
    scenario.update(extra)
    return {"scenario": scenario}


def test_a_degree_out_of_bounds_names_the_field_and_its_bounds() -> None:
    errors = errors_of(melee(attacker(degree=45)))
    assert errors == {"scenario.attacker.degree": fr("Vécu ou Menace (degré) : doit être entre 0 et 30 (reçu 45).")}


def test_an_unknown_choice_lists_the_french_choices() -> None:
    errors = errors_of(melee(attacker(kind="dragon")))
    assert fr("choix inconnu « dragon »") in errors["scenario.attacker.kind"]
    assert "Humain initié" in errors["scenario.attacker.kind"]


def test_a_text_where_a_number_is_expected() -> None:
    errors = errors_of(melee(attacker(), defender(defence_number="deux")))
    assert errors["scenario.defenders.0.defence_number"] == fr("Défense n° : nombre entier attendu.")


def test_an_approach_element_not_allowed_by_the_attack_approach() -> None:
    errors = errors_of(melee(attacker(approach=approach("Attaque en force"), approach_element="eau", approach_value=3)))
    assert errors["scenario.attacker.approach_element"] == fr(
        "L'Approche Ka-Eau n'est pas permise par l'approche « Attaque en force » (éléments : Feu, Terre)."
    )


def test_an_ordinary_npc_has_no_approach() -> None:
    errors = errors_of(melee(attacker(kind="autre", approach_element="feu", approach_value=2)))
    assert errors["scenario.attacker.approach_value"] == "Un autre PNJ n'a pas d'Approche."


def test_an_initie_attacks_with_ka_soleil_only() -> None:
    errors = errors_of(melee(attacker(kind="initie", approach_element="feu", approach_value=2)))
    assert "Ka-Soleil" in errors["scenario.attacker.approach_element"]


def test_ka_feu_is_a_nephilim_bonus() -> None:
    errors = errors_of(melee(attacker(kind="autre", ka_feu=6)))
    assert errors["scenario.attacker.ka_feu"] == "Seul un Nephilim ajoute son Ka-Feu aux dommages."


def test_a_defender_approach_not_allowed_by_the_defence_type() -> None:
    errors = errors_of(melee(attacker(), defender(defence=defence("Parer"), approach_element="eau", approach_value=2)))
    assert fr("n'est pas permise par la défense « Parer »") in errors["scenario.defenders.0.approach_element"]


def test_a_ranged_weapon_in_melee_needs_tir_instinctif() -> None:
    errors = errors_of(melee(attacker(weapon=weapon("Arc"))))
    assert errors["scenario.attacker.weapon.category"] == fr("« Arc » est une arme de tir : il faut une arme de mêlée.")


def test_a_melee_approach_cannot_shoot() -> None:
    errors = errors_of(
        melee(attacker(weapon=weapon("Arc")), defender(defence=defence("Encaisser les dommages", "tir")), mode="tir")
    )
    assert errors["scenario.attacker.approach.kind"] == fr("L'approche « Standard » ne s'emploie pas au tir.")


def test_a_cadence_the_weapon_does_not_have() -> None:
    errors = errors_of(
        melee(
            attacker(weapon=weapon("Arc"), approach=approach("Tir (visée 1r)")),
            defender(defence=defence("Encaisser les dommages", "tir")),
            mode="tir",
            cadence="raf_cont",
        )
    )
    assert errors["scenario.cadence"] == fr("L'arme « Arc » ne permet pas la cadence « Rafale continue ».")


def test_several_defenders_need_coup_par_coup_or_a_burst() -> None:
    errors = errors_of(melee(attacker(), defender(), defender(name="Autre")))
    assert errors["scenario.defenders"] == fr("Plusieurs défenseurs : seulement en coup par coup ou en rafale.")


def test_too_many_defenders() -> None:
    errors = errors_of(melee(attacker(), *[defender(name=f"D{i}") for i in range(7)]))
    assert errors["scenario.defenders"] == fr("Défenseurs : au plus 6\u00a0éléments.")


def test_no_defender_at_all() -> None:
    errors = errors_of({"scenario": {"defenders": []}})
    assert errors["scenario.defenders"] == fr("Défenseurs : au moins 1\u00a0élément.")


def test_ammunition_for_an_incompatible_weapon() -> None:
    ammo = {"name": "Balles blindées d'armes de poing", "damage_bonus": 2, "compatible": "Pistolet 9mm"}
    errors = errors_of(
        melee(
            attacker(
                kind="autre",
                weapon=weapon("Fusil d'assaut AK-47"),
                ammunition=ammo,
                approach=approach("Tir (visée 1r)"),
            ),
            defender(defence=defence("Encaisser les dommages", "tir")),
            mode="tir",
        )
    )
    assert errors["scenario.attacker.ammunition"] == fr(
        "La munition « Balles blindées d'armes de poing » ne convient pas à l'arme « Fusil d'assaut AK-47 »."
    )


def test_ammunition_needs_a_firearm() -> None:
    ammo = {"name": "Balles creuses/perforantes/explosives", "damage_bonus": 4}
    errors = errors_of(melee(attacker(ammunition=ammo)))
    assert errors["scenario.attacker.ammunition"] == "Les munitions ne s'emploient qu'avec une arme à feu."


def test_a_defence_type_of_the_wrong_context() -> None:
    errors = errors_of(melee(attacker(), defender(defence=defence("Encaisser les dommages", "tir"))))
    assert errors["scenario.defenders.0.defence"] == fr(
        "La défense « Encaisser les dommages » ne répond pas à une attaque en mêlée."
    )


def test_a_mantle_effect_needs_an_element() -> None:
    mantle = {"name": "Manteau", "behaviour": "manteau_elementaire"}
    errors = errors_of(melee(attacker(), defender(), defender_effects=[mantle]))
    assert errors["scenario.defender_effects.0.element"] == "Un manteau élémentaire doit avoir un élément."


def test_a_defender_effect_aimed_at_a_missing_defender() -> None:
    errors = errors_of(
        melee(attacker(), defender(), defender_effects=[{"name": "Précognition", "defence": 4, "target": 3}])
    )
    assert errors["scenario.defender_effects.0.target"] == "Il n'y a pas de défenseur n°3."


def test_an_unknown_field_is_refused() -> None:
    errors = errors_of(melee(attacker(force=3)))
    assert errors["scenario.attacker.force"] == "Champ inconnu."


def test_a_typed_die_that_is_not_a_face() -> None:
    errors = errors_of({**melee(), "dice": {"attaque.1": "101"}})
    assert errors["dice.attaque.1"].startswith(fr("D100 attaque — Sahar : « 101 » n'est pas une face du dé D100"))


def test_a_typed_die_the_rules_do_not_read() -> None:
    errors = errors_of({**melee(), "dice": {"defense.1": "40"}})
    assert errors["dice.defense.1"] == "Ce dé n'est pas lancé dans cette situation."


def test_double_zero_reads_as_a_hundred_and_fumbles() -> None:
    resolution = resolve(get("nephilim"), {**melee(attacker(degree=12)), "dice": {"attaque.1": "00"}})
    assert resolution.result.outcome == "fumble"


def test_blank_dice_are_rolled_from_the_seed_reproducibly() -> None:
    first = resolve(get("nephilim"), {**melee(), "seed": 1234})
    again = resolve(get("nephilim"), {**melee(), "seed": 1234})
    assert first.result == again.result
    assert first.narrative == again.narrative


def test_the_empty_scenario_is_a_valid_default_exchange() -> None:
    resolution = resolve(get("nephilim"), {"scenario": {}, "seed": 7})
    assert resolution.result.numbers["strikes"] == 1


def test_the_json_schema_carries_french_titles() -> None:
    schema = json_schema(Scenario)
    assert schema["properties"]["attacker"]["properties"]["degree"]["title"] == "Vécu ou Menace (degré)"
    assert schema["properties"]["defenders"]["maxItems"] == 6


def test_a_blank_name_reads_as_the_role() -> None:
    resolution = resolve(get("nephilim"), {"scenario": {"attacker": {"name": ""}, "defenders": [{"name": " "}]}})
    assert resolution.scenario.attacker.name == "Attaquant"
    assert resolution.scenario.defenders[0].name == "Défenseur"
