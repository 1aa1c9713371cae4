"""Issue 14, the Féerie exchange: a named special blow or pace carries the seed's numbers, and attack
angles are the game master's placement, an overflow refused on its field.

Seed ``004_6e592e6a2992f712.txt`` (« Les coups spéciaux », « Déplacement en combat », « Adversaires
multiples ») and ``shared/rules/feerie.md`` (« Decisions added after the first audit »).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from rulesets.core.french import DEFINITE_M
from rulesets.core.request import resolve
from rulesets.core.schema import ScenarioError, to_data
from rulesets.feerie import RULESET
from rulesets.feerie.model import SEED_BLOWS, SEED_PACES, Blow, BlowKind, Pace

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "feerie.json"
ROWS = json.loads(FIXTURE.read_text(encoding="utf-8"))
BLOW_ROWS = {r["fields"]["kind"]: r["fields"] for r in ROWS if r["model"] == "feerie.specialblow"}
PACE_ROWS = {r["fields"]["pace"]: r["fields"] for r in ROWS if r["model"] == "feerie.allure"}
BLOW_NUMBERS = ("attack_malus", "ranged_attack_malus", "defense_malus", "effect_value")
PACE_NUMBERS = ("malus", "charge_bonus", "divisor")
HIT = {"plus.1": 20, "moins.1": 1}
EVEN = {"plus.1": 10, "moins.1": 10}

OGRE = {"name": "Ogre", "grammar": to_data(DEFINITE_M), "taille": 2, "habilete": 12}
SYLPHE = {"name": "Sylphe", "grammar": to_data(DEFINITE_M), "taille": -2, "habilete": 14}
RANGED_ATTACK = 15 + 3  # the default Wichtln at range: Vigilance and his hammer (ticked for Attaque)


def run(scenario: dict[str, Any], dice: dict[str, int] | None = None) -> Any:
    return resolve(RULESET, {"scenario": scenario, "dice": dice or EVEN}).result


def errors(scenario: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(ScenarioError) as info:
        resolve(RULESET, {"scenario": scenario, "dice": EVEN})
    return info.value.errors


def attack_terms(result: Any) -> list[tuple[str, str]]:
    return [(e.label, e.value) for e in result.events if e.data.get("quantity") == "attack"]


# --- item 1: a name carries its rule --------------------------------------------------------------------


def test_desarmer_by_name_carries_minus_8() -> None:
    # the request: the Wichtln's Attaque 23, and « Désarmer −8 »
    r = run({"blows": [{"kind": "desarmer"}]})
    assert r.numbers["attack"] == 23 - 8
    assert ("Coup spécial\u202f: Désarmer", "−8") in attack_terms(r)


def test_faire_tomber_by_name_gives_minus_4_to_the_fallen() -> None:
    r = run({"blows": [{"kind": "faire_tomber"}]}, HIT)
    assert (r.outcome, r.numbers["attack"], r.numbers["effect_faire_tomber"]) == ("blow", 23 - 6, -4)


def test_vol_plane_by_name_projects_one_unit_per_4_points() -> None:
    r = run({"blows": [{"kind": "vol_plane"}]}, HIT)
    # 23 − 8 + 19 = 34 against 20: margin 14, ⌊14/2⌋ + 12 = 19 Dommages before Encaissement: 4 units
    assert (r.outcome, r.numbers["raw_damage"], r.numbers["effect_vol_plane"]) == ("blow", 19, 4)


def test_entraver_by_name_at_range_carries_minus_12() -> None:
    r = run({"mode": "ranged", "blows": [{"kind": "entraver"}]})
    assert r.numbers["attack"] == RANGED_ATTACK - 12


def test_course_charge_by_name_carries_minus_8_attack_and_plus_4_damage() -> None:
    r = run({"situation": {"movement": {"pace": "course"}, "charge": True}})
    assert (r.numbers["attack"], r.numbers["damage"]) == (23 - 8, 12 + 4)


def test_target_running_by_name_halves_its_minus_8() -> None:
    r = run({"mode": "ranged", "situation": {"target_movement": {"pace": "course"}}})
    assert r.numbers["attack"] == RANGED_ATTACK - 4


def test_a_typed_number_is_an_override_shown_as_such() -> None:
    r = run({"blows": [{"kind": "desarmer", "attack_malus": -6}]})
    assert r.numbers["attack"] == 23 - 6
    assert ("Coup spécial\u202f: Désarmer (valeur saisie\u202f; la règle\u202f: −8)", "−6") in attack_terms(r)
    # a typed value equal to the rule is no override
    same = run({"blows": [{"kind": "desarmer", "attack_malus": -8}]})
    assert attack_terms(same) == attack_terms(run({"blows": [{"kind": "desarmer"}]}))


def test_an_effect_value_the_blow_does_not_read_is_refused() -> None:
    assert (
        "n'a pas de valeur d'effet"
        in errors({"blows": [{"kind": "desarmer", "effect_value": 3}]})["scenario.blows.0.effect_value"]
    )


def test_a_per_points_blow_with_a_slice_of_zero_is_refused() -> None:
    assert (
        "tranche de 0" in errors({"blows": [{"kind": "vol_plane", "effect_value": 0}]})["scenario.blows.0.effect_value"]
    )


def test_pace_numbers_without_a_pace_are_refused() -> None:
    assert (
        "Immobile"
        in errors({"situation": {"movement": {"pace": "none", "malus": -4}}})["scenario.situation.movement.malus"]
    )


@pytest.mark.parametrize("kind", [k.value for k in BlowKind if k is not BlowKind.NONE])
def test_every_fixture_blow_row_equals_the_engine_rule(kind: str) -> None:
    row, rule = BLOW_ROWS[kind], SEED_BLOWS[BlowKind(kind)]
    assert {k: row[k] for k in BLOW_NUMBERS} == {k: getattr(rule, k) for k in BLOW_NUMBERS}


def test_the_fixture_lists_every_blow_and_every_pace() -> None:
    assert set(BLOW_ROWS) == {k.value for k in BlowKind if k is not BlowKind.NONE}
    assert set(PACE_ROWS) == {p.value for p in Pace if p is not Pace.NONE}


@pytest.mark.parametrize("pace", [p.value for p in Pace if p is not Pace.NONE])
def test_every_fixture_pace_row_equals_the_engine_rule(pace: str) -> None:
    row, rule = PACE_ROWS[pace], SEED_PACES[Pace(pace)]
    assert {k: row[k] for k in PACE_NUMBERS} == {k: getattr(rule, k) for k in PACE_NUMBERS}


def _blow_scenario(kind: BlowKind, mode: str, blow: dict[str, Any]) -> dict[str, Any]:
    scenario: dict[str, Any] = {"mode": mode, "blows": [blow]}
    if kind is BlowKind.RELENTLESS:
        scenario["previous_loss"] = 9
    if kind in (BlowKind.HOLD_OFF, BlowKind.INSIDE_GUARD):
        scenario["defender"] = {"taille": -2}  # the Wichtln's Taille: both guard blows may be tried
    return scenario


def _same(a: Any, b: Any) -> None:
    assert (a.outcome, dict(a.numbers)) == (b.outcome, dict(b.numbers))
    assert [(e.kind, e.label, e.value) for e in a.events] == [(e.kind, e.label, e.value) for e in b.events]


@pytest.mark.parametrize("mode", ["melee", "ranged"])
@pytest.mark.parametrize("dice", [EVEN, HIT], ids=["even", "hit"])
@pytest.mark.parametrize("kind", [k for k in BlowKind if k is not BlowKind.NONE], ids=lambda k: k.value)
def test_every_blow_by_name_alone_resolves_as_its_table_row_loaded(
    kind: BlowKind, mode: str, dice: dict[str, int]
) -> None:
    """The property of issue 14: the name alone, the seed's rule written out, and the bestiary's row loaded
    give exactly the same numbers and the same lines."""
    by_name = run(_blow_scenario(kind, mode, {"kind": kind.value}), dice)
    rule = to_data(dataclasses.replace(Blow(kind), **dataclasses.asdict(SEED_BLOWS[kind])))
    _same(by_name, run(_blow_scenario(kind, mode, rule), dice))
    row = {"kind": kind.value, **{k: BLOW_ROWS[kind.value][k] for k in BLOW_NUMBERS}}
    _same(by_name, run(_blow_scenario(kind, mode, row), dice))


@pytest.mark.parametrize("charge", [False, True])
@pytest.mark.parametrize("pace", [p for p in Pace if p is not Pace.NONE], ids=lambda p: p.value)
def test_every_pace_by_name_alone_resolves_as_its_table_row_loaded(pace: Pace, charge: bool) -> None:
    row = {"pace": pace.value, **{k: PACE_ROWS[pace.value][k] for k in PACE_NUMBERS}}
    by_name = run({"situation": {"movement": {"pace": pace.value}, "charge": charge}})
    _same(by_name, run({"situation": {"movement": row, "charge": charge}}))
    rule = {"pace": pace.value, **dataclasses.asdict(SEED_PACES[pace])}
    _same(by_name, run({"situation": {"movement": rule, "charge": charge}}))
    target = run({"mode": "ranged", "situation": {"target_movement": {"pace": pace.value}}})
    _same(target, run({"mode": "ranged", "situation": {"target_movement": row}}))


# --- item 2: angles --------------------------------------------------------------------------------------


def _sylphes(count: int, **situation: Any) -> dict[str, Any]:
    return {
        "attacker": SYLPHE,
        "defender": OGRE,
        "situation": {"open_angles": 4, "co_attackers": [{"count": count, "taille": -2}], **situation},
    }


def test_four_sylphes_packed_by_default_cost_the_ogre_nothing() -> None:
    r = run(_sylphes(3))
    assert (r.numbers["occupied_angles"], r.numbers["defense"]) == (1, 12 - 2)


def test_four_sylphes_spread_by_the_game_master_over_four_angles_cost_six() -> None:
    # « un malus de -2 à sa Défense par angle d'attaque occupé au-delà du premier »
    r = run(_sylphes(3, occupied_angles=4))
    assert (r.numbers["occupied_angles"], r.numbers["defense"]) == (4, 12 - 2 - 6)
    (angles,) = r.events_of("angles")
    assert "placement du meneur" in angles.label
    assert angles.data["malus"] == -6


def test_the_angles_set_must_be_possible_for_these_attackers() -> None:
    assert (
        "de 1 à 4 angles de l'Ogre (reçu 5)"
        in errors(_sylphes(3, occupied_angles=5))["scenario.situation.occupied_angles"]
    )
    # sixteen Sylphes fill the four angles: they cannot be packed into three
    assert "occupent 4\u00a0angles" in errors(_sylphes(15, occupied_angles=3))["scenario.situation.occupied_angles"]


def test_angles_set_without_other_assailants_are_refused() -> None:
    assert (
        "aucun angle à répartir" in errors({"situation": {"occupied_angles": 2}})["scenario.situation.occupied_angles"]
    )


def test_a_seventeenth_sylphe_is_refused_on_its_field() -> None:
    message = errors(_sylphes(16))["scenario.situation.co_attackers.0.count"]
    assert message == "Plus de place autour de l'Ogre (4\u00a0angles ouverts, surface 8 chacun)\u202f: 1 de trop."


def test_a_second_giant_is_refused_on_its_field() -> None:
    # « Les Géants ne peuvent s'acharner à deux et un seul d'entre eux peut attaquer »
    scenario = {
        "attacker": {"name": "Géant", "taille": 4},
        "defender": {"name": "Feu follet", "taille": -4},
        "situation": {"open_angles": 6, "co_attackers": [{"count": 1, "taille": 4, "name": "Géant"}]},
    }
    message = errors(scenario)["scenario.situation.co_attackers.0.count"]
    assert "il est le seul à pouvoir attaquer" in message
    assert "Taille +4" in message


def test_the_story_never_speaks_of_crowded_angles_without_a_malus() -> None:
    from rulesets.feerie.model import Exchange
    from rulesets.feerie.narrative import story

    def told(scenario: dict[str, Any]) -> str:
        res = resolve(RULESET, {"scenario": scenario, "dice": EVEN})
        assert isinstance(res.scenario, Exchange)
        return " ".join(story(res.scenario, res.result))

    packed = told(_sylphes(3))
    assert "surveiller trop d'angles" not in packed
    assert "se bousculent" not in packed
    spread = told(_sylphes(3, occupied_angles=4))
    assert "surveiller trop d'angles" in spread or "se bousculent" in spread
