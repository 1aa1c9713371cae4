"""Exact odds against brute-force enumeration of both D100 of a strike (10 000 pairs)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulesets.core.dice import D100
from rulesets.core.odds import Distribution, Odds, brute_force
from rulesets.nephilim.engine import TIERS, Strike, plan, resolve_strike
from rulesets.nephilim.model import Scenario
from rulesets.nephilim.odds import StrikeFacts, odds, strike_distribution
from tests.rulesets.nephilim.helpers import (
    approach,
    att_fx,
    attacker,
    def_fx,
    defence,
    defender,
    protection,
    ranged,
    scenario,
    weapon,
)


def _brute(scn: Scenario, st: Strike) -> Distribution[StrikeFacts]:
    def facts(faces: tuple[int, ...]) -> StrikeFacts:
        o = resolve_strike(scn, st, faces[0], faces[1] if st.defence_slot else None, detail=False)
        return StrikeFacts(
            o.hit, o.attack.critical, o.attack.fumble, bool(o.defence and o.defence.success), o.phys, o.mag, o.tier
        )

    dice = [D100, D100] if st.defence_slot else [D100]
    return brute_force(dice, facts)


CASES = {
    "standard": scenario(attacker(), defender(defence=defence("Standard"))),
    "parade_critique_armure": scenario(
        attacker(weapon=weapon("Glaive élémentaire de Feu"), ka_feu=7),
        defender(defence=defence("Parer"), protections=[protection("Gilet pare-balles lourd")]),
    ),
    "subtile": scenario(
        attacker(approach=approach("Attaque subtile"), degree=9), defender(defence=defence("Esquiver"), degree=8)
    ),
    "marges": scenario(
        attacker(degree=17, margin_damage=3, margin_malus=1),
        defender(degree=16, defence=defence("Standard"), margin_damage=2),
    ),
    "desarmer": scenario(attacker(), defender(defence=defence("Désarmer (avec arme)"), degree=9)),
    "retenue": scenario(
        attacker(
            weapon=weapon("Arme magique des Dames du Lac (invoc.)"), ka_feu=10, effects=[att_fx("Prince de la spirale")]
        ),
        defender(effects=[def_fx("Retenue du souffle de la Chrysopée")], defence=defence("Parer")),
    ),
    "encaisser_insensible": scenario(attacker(weapon=weapon("Glaive élémentaire d'Eau")), defender(kind="autre")),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_strike_distribution_equals_brute_force_enumeration(name: str) -> None:
    scn = CASES[name]
    st = plan(scn)[0]
    assert strike_distribution(scn, st) == _brute(scn, st)


def test_each_column_of_a_burst_equals_brute_force_enumeration() -> None:
    defenders = [
        defender(
            name="A",
            defence=defence("Parer arme projectiles", "tir"),
            protections=[protection("Gilet pare-balles léger")],
        ),
        defender(name="B", defence=defence("Encaisser les dommages", "tir"), kind="autre"),
        defender(name="C", defence=defence("Parer arme projectiles", "tir"), defence_number=2, degree=7),
    ]
    scn = ranged(
        attacker(kind="autre", approach=approach("Tir (visée 1r)"), weapon=weapon("Fusil d'assaut AK-47")),
        *defenders,
        cadence="raf_cont",
    )
    for st in plan(scn):
        assert strike_distribution(scn, st) == _brute(scn, st)


def test_attaque_rapide_damage_is_the_sum_of_two_enumerated_strikes() -> None:
    scn = scenario(
        attacker(approach=approach("Attaque rapide"), weapon=weapon("Marteau")),
        defender(defence=defence("Parer"), defence_number=1, defence_number_2=2),
    )
    first, second = (_brute(scn, st) for st in plan(scn))
    total = first.bind(lambda a: second.map(lambda b: a.phys + b.phys))
    chart = next(c for c in odds(scn).charts if c.key == "d1.phys")
    assert dict(chart.bars) == {str(v): total[v] for v in range(min(total.outcomes()), max(total.outcomes()) + 1)}
    assert chart.mean == total.mean()


def _expectation(result: Odds, code: str) -> Fraction:
    return next(v for c, _label, v in result.expectations if c == code)


def test_the_probabilities_of_hit_critique_maladresse_and_defence_are_exact() -> None:
    result = odds(scenario(attacker(), defender(defence=defence("Standard"))))
    assert _expectation(result, "hit") == Fraction(60, 100)  # 1..60, critiques included
    assert _expectation(result, "critical") == Fraction(5, 100)  # 11, 22, 33, 44, 55
    assert _expectation(result, "fumble") == Fraction(5, 100)  # 66, 77, 88, 99, 100
    assert _expectation(result, "defence_success") == Fraction(50, 100)


@pytest.mark.parametrize("name", list(CASES))
def test_the_outcome_partition_equals_brute_force_and_sums_to_one(name: str) -> None:
    scn = CASES[name]
    brute = _brute(scn, plan(scn)[0]).map(lambda f: f.tier)
    result = odds(scn)
    assert {code: p for code, _label, p in result.outcomes} == dict(brute.probabilities)
    assert sum(p for _c, _l, p in result.outcomes) == 1


def test_the_outcome_of_a_rapid_attack_is_the_worst_of_its_two_strikes() -> None:
    scn = scenario(
        attacker(approach=approach("Attaque rapide"), weapon=weapon("Marteau")),
        defender(defence=defence("Parer"), defence_number=1, defence_number_2=2),
    )
    first, second = (_brute(scn, st) for st in plan(scn))
    worst = first.bind(lambda a: second.map(lambda b: max(a.tier, b.tier, key=TIERS.index)))
    assert {c: p for c, _l, p in odds(scn).outcomes} == dict(worst.probabilities)


def test_the_outcome_of_a_burst_shares_the_attack_die_between_columns() -> None:
    defenders = [
        defender(name="A", defence=defence("Parer arme projectiles", "tir")),
        defender(name="B", defence=defence("Encaisser les dommages", "tir"), kind="autre"),
    ]
    scn = ranged(
        attacker(kind="autre", approach=approach("Tir (visée 1r)"), weapon=weapon("Fusil d'assaut AK-47")),
        *defenders,
        cadence="raf_ctrl",
    )
    a, b = plan(scn)

    def worst(faces: tuple[int, ...]) -> str:
        one = resolve_strike(scn, a, faces[0], faces[1], detail=False)
        two = resolve_strike(scn, b, faces[0], None, detail=False)
        return max(one.tier, two.tier, key=TIERS.index)

    brute = brute_force([D100, D100], worst)
    assert {c: p for c, _l, p in odds(scn).outcomes} == dict(brute.probabilities)


def test_the_odds_charts_sum_to_one_and_name_each_defender() -> None:
    result = odds(CASES["parade_critique_armure"])
    for chart in result.charts:
        assert sum(p for _label, p in chart.bars) == 1
    assert [c.key for c in result.charts] == ["d1.phys", "d1.mag"]


def test_the_largest_sensible_exchange_stays_exact_and_quick() -> None:
    defenders = [
        defender(
            name=f"Cible {i}",
            degree=14,
            defence=defence("Parer arme projectiles", "tir"),
            margin_damage=3,
            protections=[protection("Gilet pare-balles lourd")],
            effects=[def_fx("Retenue du souffle de la Chrysopée")],
        )
        for i in range(6)
    ]
    scn = ranged(
        attacker(
            kind="autre",
            degree=18,
            margin_damage=4,
            approach=approach("Tir (visée 1r)"),
            weapon=weapon("Fusil d'assaut AK-47"),
        ),
        *defenders,
        cadence="cpc",
    )
    result = odds(scn)
    assert len(result.charts) == 12
    assert all(sum(p for _l, p in c.bars) == 1 for c in result.charts)


def test_every_probability_is_labelled_probabilite_so_the_page_shows_a_percentage() -> None:
    scn = scenario(
        attacker(approach=approach("Attaque rapide"), weapon=weapon("Marteau")),
        defender(defence=defence("Parer"), defence_number=1, defence_number_2=2),
    )
    result = odds(scn)
    probabilities = [label for code, label, _v in result.expectations if not code.endswith((".phys", ".mag"))]
    means = [label for code, label, _v in result.expectations if code.endswith((".phys", ".mag"))]
    assert len(probabilities) == 10  # hit, critique, maladresse, defence, wounded × two attacks
    assert all(label.startswith("Probabilité ") for label in probabilities)
    assert means == ["PHYS moyens — Garde", "MAG moyens — Garde"]
