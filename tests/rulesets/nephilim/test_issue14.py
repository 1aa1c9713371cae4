"""Issue 14, Nephilim: a named option always carries its rule, nothing accepted and ignored.

Each test is named after the item of the issue it proves (seed ``002_78b74c4e792a38cc.txt``).
"""

from __future__ import annotations

from typing import Any

import pytest

from rulesets.core.french import typography as fr
from rulesets.core.registry import get
from rulesets.core.request import resolve
from rulesets.core.schema import ScenarioError
from rulesets.nephilim.narrative import scene, story
from tests.rulesets.nephilim.helpers import approach, att_fx, attacker, def_fx, defender, run, scenario, weapon


def errors_of(scenario_data: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(ScenarioError) as info:
        resolve(get("nephilim"), {"scenario": scenario_data})
    return info.value.errors


def melee(att: dict[str, Any], *defenders: dict[str, Any]) -> dict[str, Any]:
    return {"mode": "melee", "attacker": att, "defenders": list(defenders) or [defender()]}


def _labels(result: Any, kind: str) -> list[tuple[str, str]]:
    return [(e.label, e.value) for e in result.events if e.kind == kind]


# --- 1. Retenue du souffle de la Chrysopée on mixed damage -----------------------------------------

MIXED_ELEVEN = attacker(
    degree=8,
    weapon=weapon("Glaive élémentaire de Feu"),  # 3 PHYS + 3 MAG
    approach=approach("Attaque puissante"),  # +2 PHYS
    ka_feu=5,  # +1, typed as the weapon: PHYS and MAG
    effects=[att_fx("Pierre d'affûtage lumineux")],  # +1 PHYS
)


def test_retenue_du_souffle_on_mixed_damage_takes_ten_off_the_total() -> None:
    """« Si > 10 : −10 aux dommages totaux »: 7 PHYS + 4 MAG = 11 leaves 1 in all, not 1 + 1."""
    scn = scenario(MIXED_ELEVEN, defender(effects=[def_fx("Retenue du souffle de la Chrysopée")]))
    result = run(scn, attaque_1=45)
    n = result.numbers
    assert (n["phys_raw"], n["mag_raw"]) == (7, 4)
    assert (n["phys_taken"], n["mag_taken"], n["damage_taken"]) == (0, 1, 1)
    assert not [e for e in result.events if e.kind == "minimum"]
    assert (fr("Retenue du souffle de la Chrysopée : 11 > 10, −10 au total, sans minimum"), "PHYS −7 · MAG −3") in [
        (e.label, e.value) for e in result.events if e.kind == "cancel"
    ]


def test_retenue_du_souffle_mag_first_setting_also_leaves_the_total_minus_ten() -> None:
    scn = scenario(
        MIXED_ELEVEN,
        defender(effects=[def_fx("Retenue du souffle de la Chrysopée")]),
        settings={"retenue_order": "mag_dabord"},
    )
    n = run(scn, attaque_1=45).numbers
    assert (n["phys_taken"], n["mag_taken"]) == (1, 0)


# --- 2. Métamorphe, Stase, Mnémos ----------------------------------------------------------------


def test_metamorphe_stase_mnemos_are_shown_for_attacker_and_defender() -> None:
    scn = scenario(
        attacker(metamorphe=4, stase=True, mnemos=True),
        defender(name="Ondine", metamorphe=2, stase=True, mnemos=True),
    )
    result = run(scn, attaque_1=20)
    assert _labels(result, "metamorphe") == [("Métamorphe de Sahar", "4"), ("Métamorphe d'Ondine", "2")]
    assert _labels(result, "stase") == [
        ("Stase de Sahar", "oui, sans effet chiffré"),
        ("Stase d'Ondine", "oui, sans effet chiffré"),
    ]
    assert _labels(result, "mnemos") == [
        ("Mnémos de Sahar", "en jeu, sans effet chiffré"),
        ("Mnémos d'Ondine", "en jeu, sans effet chiffré"),
    ]
    text = scene(scn)
    assert "Sa fiche : Métamorphe 4, en Stase, Mnémos en jeu." in text
    assert "Métamorphe 2, en Stase, Mnémos en jeu" in text
    assert result.numbers["metamorphe"] == 4


def test_metamorphe_stase_mnemos_are_refused_outside_a_nephilim() -> None:
    errors = errors_of(
        melee(
            attacker(kind="autre", metamorphe=3, stase=True, mnemos=True),
            defender(kind="initie", metamorphe=1, stase=True, mnemos=True),
        )
    )
    for who in ("scenario.attacker", "scenario.defenders.0"):
        assert errors[f"{who}.metamorphe"] == "Seul un Nephilim a un Métamorphe."
        assert errors[f"{who}.stase"] == "Seul un Nephilim peut être en Stase."
        assert errors[f"{who}.mnemos"] == "Seul un Nephilim a un Mnémos."


# --- 3. Régisseur de fureur « métamorphe à 10 » ---------------------------------------------------


def test_regisseur_de_fureur_brings_the_metamorphe_to_10() -> None:
    scn = scenario(attacker(metamorphe=3, effects=[att_fx("Régisseur de fureur")]), defender())
    result = run(scn, attaque_1=20)
    assert result.numbers["metamorphe"] == 10
    assert result.numbers["attack_degree"] == 6 + 10
    assert _labels(result, "metamorphe") == [("Métamorphe de Sahar", fr("10 (Régisseur de fureur ; 3 sans lui)"))]
    assert fr("Sa fiche : Métamorphe 10 sous l'effet de « Régisseur de fureur ».") in fr(scene(scn))
    assert any("Métamorphe monte à 10" in p for p in story(scn, result))


def test_regisseur_de_fureur_read_as_a_condition_needs_metamorphe_10() -> None:
    """The other reading of « (métamorphe à 10) », a row's condition: +10 only at Métamorphe 10."""
    row = dict(att_fx("Régisseur de fureur"), metamorphe=0, condition="metamorphe_10")
    at_10 = run(scenario(attacker(metamorphe=10, effects=[row]), defender()), attaque_1=20)
    at_9 = run(scenario(attacker(metamorphe=9, effects=[row]), defender()), attaque_1=20)
    assert (at_10.numbers["attack_degree"], at_9.numbers["attack_degree"]) == (16, 6)
    assert any(e.kind == "effect_off" and "métamorphe" in e.label.lower() for e in at_9.events)


# --- 4. Frapper: « Dommages selon la force du simulacre » ------------------------------------------

FRAPPER = approach("Frapper")


def test_frapper_strikes_with_the_force_of_the_simulacre() -> None:
    scn = scenario(attacker(approach=FRAPPER, weapon=weapon("Mains nues"), simulacre_force=4), defender())
    result = run(scn, attaque_1=20)
    assert (result.numbers["phys_raw"], result.numbers["phys_taken"], result.numbers["mag_taken"]) == (4, 4, 0)
    assert (fr("Frapper : force du simulacre de Sahar"), "PHYS 4") in _labels(result, "weapon")
    assert "de toute la force de son simulacre (4)" in scene(scn)


def test_frapper_force_of_the_simulacre_has_bounds_and_refuses_a_held_weapon() -> None:
    for bad in (0, 11):
        errors = errors_of(melee(attacker(approach=FRAPPER, weapon=weapon("Mains nues"), simulacre_force=bad)))
        assert errors["scenario.attacker.simulacre_force"] == fr(
            f"Force du simulacre (Frapper) : doit être entre 1 et 10 (reçu {bad})."
        )
    errors = errors_of(melee(attacker(approach=FRAPPER, weapon=weapon("Épée/hache"))))
    assert errors["scenario.attacker.weapon.type"] == fr(
        "« Frapper » est une attaque à mains nues : « Épée/hache » est une arme manufacturée."
    )
    errors = errors_of(melee(attacker(simulacre_force=3)))
    assert errors["scenario.attacker.simulacre_force"] == fr(
        "La force du simulacre ne compte qu'avec l'approche « Frapper »."
    )


# --- 5. Améthyste revêtue de flammes « sinon +3 vitesse/initiative » ---------------------------------


def test_amethyste_adds_three_to_the_initiative_shown_without_ka_feu() -> None:
    scn = scenario(attacker(initiative_ka=4, effects=[att_fx("Améthyste revêtue de flammes")]), defender())
    result = run(scn, attaque_1=20)
    assert result.numbers["initiative"] == 4 * 2 + 3
    assert _labels(result, "initiative") == [
        ("Initiative et MV de Sahar (Ka-Eau × 2)", "8 +3 (Améthyste revêtue de flammes) = 11")
    ]
    feu = scenario(
        attacker(
            initiative_ka=4,
            approach=approach("Attaque en force"),
            approach_element="feu",
            approach_value=1,
            effects=[att_fx("Améthyste revêtue de flammes")],
        ),
        defender(),
    )
    with_ka_feu = run(feu, attaque_1=20).numbers
    assert (with_ka_feu["initiative"], with_ka_feu["attack_degree"]) == (8, 6 + 1 + 3 + 6)
