"""Exact odds against brute-force enumeration of the dice (small dice), and their speed."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.core.dice import fixed_roll, numeric_die
from rulesets.core.odds import brute_force
from rulesets.feerie.action import ActionScenario, Fighter, _initiative_weights, _ranked, first_weights
from rulesets.feerie.action import odds as action_odds
from rulesets.feerie.engine import dice_for, resolve
from rulesets.feerie.examples import lutin, wichtln
from rulesets.feerie.model import Blow, BlowKind, DiceTerm, Exchange, Situation, Tactic
from rulesets.feerie.odds import odds, settlements, term_distribution, term_weights

SMALL = DiceTerm(plus=1, minus=1, sides=6)

CASES = {
    "contact": Exchange(attacker=wichtln(), defender=lutin(), roll=SMALL),
    "close": Exchange(attacker=lutin(), defender=wichtln(), roll=DiceTerm(plus=2, minus=1, sides=4)),
    "blow": Exchange(attacker=wichtln(), defender=lutin(), roll=SMALL, blows=(Blow(BlowKind.STUN, attack_malus=-4),)),
    "object": Exchange(
        attacker=lutin(),
        defender=lutin(),
        roll=DiceTerm(plus=1, minus=2, sides=4),
        situation=Situation(target_inanimate=True, object_encaissement=4),
    ),
    "incident": Exchange(attacker=lutin(), defender=wichtln(), roll=SMALL, incident_threshold=-12),
}


def brute(s: Exchange) -> dict[str, dict[object, Fraction]]:
    spec = dice_for(s)
    dice = [slot.die for slot in spec.slots]
    keys = spec.keys()

    def one(faces: tuple[int, ...]) -> tuple[str, int]:
        r = resolve(s, fixed_roll(dict(zip(keys, faces))))
        return (r.outcome, int(r.numbers["essence_lost"] or 0))

    dist = brute_force(dice, one)
    outcome: dict[object, Fraction] = {}
    lost: dict[object, Fraction] = {}
    for (o, loss), p in dist:
        outcome[o] = outcome.get(o, Fraction(0)) + p
        lost[str(loss)] = lost.get(str(loss), Fraction(0)) + p
    return {"outcome": outcome, "lost": lost}


@pytest.mark.parametrize("name", list(CASES))
def test_outcome_odds_equal_the_enumeration_of_every_face(name: str) -> None:
    s = CASES[name]
    expected = brute(s)
    got = odds(s)
    for code, _label, p in got.outcomes:
        assert p == expected["outcome"].get(code, Fraction(0)), code
    assert sum(p for _c, _l, p in got.outcomes) == 1


@pytest.mark.parametrize("name", list(CASES))
def test_essence_lost_distribution_equals_the_enumeration(name: str) -> None:
    s = CASES[name]
    expected = brute(s)["lost"]
    chart = odds(s).charts[0]
    assert dict(chart.bars) == expected


def test_the_dice_term_distribution_is_the_convolution_of_the_dice() -> None:
    d6 = numeric_die("d6", 6)
    expected = brute_force([d6, d6, d6], lambda f: f[0] + f[1] - f[2])
    assert dict(term_distribution(DiceTerm(plus=2, minus=1, sides=6)).probabilities) == dict(expected.probabilities)


def test_one_d20_minus_one_d20_is_symmetric_and_peaks_at_zero() -> None:
    dist = term_distribution(DiceTerm())
    assert dist[0] == Fraction(20, 400)
    assert dist[19] == dist[-19] == Fraction(1, 400)


def test_the_hit_probability_is_reported_as_an_expectation() -> None:
    o = odds(Exchange(attacker=wichtln(), defender=lutin()))
    hit = {c: v for c, _l, v in o.expectations}["hit"]
    # Attaque 23 vs Défense 16: hit when d20 − d20 ≥ −7
    assert hit == term_distribution(DiceTerm()).probability(lambda t: t >= -7)


def test_the_default_and_the_largest_sensible_odds_are_exact_distributions() -> None:
    """Their speed is measured by ``make bench`` (bench/scenarios.py), not asserted here."""
    for s in (Exchange(), dataclasses.replace(Exchange(), roll=DiceTerm(plus=3, minus=3, sides=20))):
        o = odds(s)
        assert all(sum(p for _l, p in c.bars) == 1 for c in o.charts)


def test_action_odds_of_acting_first_equal_the_enumeration() -> None:
    d4 = DiceTerm(plus=1, minus=1, sides=4)
    a = Fighter("A", vigilance=5, initiative_bonus=-3)
    b = Fighter("B", vigilance=4, tactic=Tactic(0, 1, -1))
    c = Fighter("C", vigilance=5, initiative=3)
    s = ActionScenario(fighters=(a, b, c), roll=d4)
    die = numeric_die("d4", 4)

    def first(faces: tuple[int, ...]) -> str:
        ia, ib = 2 + faces[0] - faces[1], 4 + faces[2] - faces[3]
        keys = [
            (ia, 5, 0, 0, faces[0] - faces[1], "A"),
            (ib, 4, 0, 0, faces[2] - faces[3], "B"),
            (3, 5, 0, 0, 3 - 5, "C"),
        ]
        keys = [k for k in keys if k[0] > 0]
        if not keys:
            return "nobody"
        keys.sort(key=lambda k: k[:5], reverse=True)
        if len(keys) > 1 and keys[0][:5] == keys[1][:5]:
            return "tie"
        return keys[0][5]

    expected = brute_force([die] * 4, first)
    got = {c: p for c, _l, p in action_odds(s).outcomes}
    assert got["first_0"] == expected["A"]
    assert got["first_1"] == expected["B"]
    assert got["first_2"] == expected["C"]
    assert got["nobody"] == expected["nobody"]


def test_action_odds_sum_to_one_for_twelve_fighters() -> None:
    s = ActionScenario(fighters=tuple(Fighter(f"F{i}", vigilance=10 + i % 3, affinities=i % 2) for i in range(12)))
    o = action_odds(s)
    assert sum(p for _c, _l, p in o.outcomes) == 1
    assert o.probability("simultaneous") > 0


def test_probability_expectations_are_labelled_probabilite_and_means_are_not() -> None:
    # the odds panel prints a label containing "Probabilité" as a percentage, anything else as a decimal
    o = odds(Exchange(attacker=wichtln(), defender=lutin()))
    labels = {c: label for c, label, _v in o.expectations}
    assert labels["hit"].startswith("Probabilité")
    assert labels["incident"].startswith("Probabilité")
    assert "Probabilité" not in labels["essence_lost"]
    s = ActionScenario(fighters=(Fighter("Rübezahl", vigilance=20), Fighter("Serpent", vigilance=17)))
    action_labels = [label for _c, label, _v in action_odds(s).expectations]
    assert action_labels == [
        "Probabilité que Rübezahl ne puisse agir (Initiative ≤ 0)",
        "Probabilité que Serpent ne puisse agir (Initiative ≤ 0)",
    ]


def test_the_margin_chart_groups_its_bars_to_fit_a_phone_and_keeps_every_chance() -> None:
    o = odds(Exchange(attacker=wichtln(), defender=lutin()))
    chart = next(c for c in o.charts if c.key == "margin")
    assert len(chart.bars) == 6
    assert sum(p for _l, p in chart.bars) == 1
    # Attaque 23 vs Défense 16 with 1d20 − 1d20: margins −12 … +26, eight values a bar, one starting at 0
    assert [label for label, _p in chart.bars] == ["−12…−9", "−8…−1", "0…7", "8…15", "16…23", "24…26"]
    assert chart.bars[0][1] == term_distribution(DiceTerm()).probability(lambda t: -19 <= t <= -16)
    assert chart.bars[2][1] == term_distribution(DiceTerm()).probability(lambda t: -7 <= t <= 0)


def test_a_small_dice_term_keeps_one_margin_bar_per_value() -> None:
    o = odds(CASES["contact"])
    chart = next(c for c in o.charts if c.key == "margin")
    assert [label for label, _p in chart.bars] == [str(m) for m in range(7 - 5, 7 + 6)]


def test_the_dice_boxes_have_short_labels() -> None:
    labels = [slot.label for slot in dice_for(Exchange()).slots]
    assert labels == ["Jet d'Attaque : +d20", "Jet d'Attaque : −d20"]
    labels = [slot.label for slot in dice_for(dataclasses.replace(Exchange(), roll=DiceTerm(plus=2, minus=1))).slots]
    assert labels == ["Jet d'Attaque : +d20 n°1", "Jet d'Attaque : +d20 n°2", "Jet d'Attaque : −d20"]


def test_the_initiative_chart_groups_its_ranks_with_one_range_starting_at_one() -> None:
    s = ActionScenario(fighters=(Fighter("Rübezahl", vigilance=20), Fighter("Serpent", vigilance=17)))
    charts = {c.key: c for c in action_odds(s).charts}
    labels = [label for label, _p in charts["initiative_1"].bars]
    assert len(labels) <= 6
    assert "1…8" in labels  # Vigilance 17 − 19 … 17 + 19: the bar below holds the ranks that cannot act
    assert sum(p for _l, p in charts["initiative_1"].bars) == 1


def test_a_wide_essence_lost_chart_is_grouped_with_zero_on_its_own() -> None:
    s = Exchange(attacker=wichtln(), defender=lutin(), roll=DiceTerm(plus=2, minus=1, sides=20))
    chart = next(c for c in odds(s).charts if c.key == "essence_lost")
    lost = settlements(s).map(lambda st: st.essence_lost)
    assert len(chart.bars) <= 6
    assert chart.bars[0] == ("0", lost.probability(lambda v: v == 0))
    assert sum(p for _l, p in chart.bars) == 1
    for label, p in chart.bars[1:]:
        low, _sep, high = label.partition("…")
        assert p == lost.probability(lambda v, lo=int(low), hi=int(high or low): lo <= v <= hi)


@pytest.mark.parametrize(("plus", "minus", "sides"), [(1, 0, 2), (1, 1, 6), (2, 1, 5), (1, 3, 3), (3, 3, 2), (3, 2, 4)])
def test_term_weights_count_every_roll_of_the_dice(plus: int, minus: int, sides: int) -> None:
    """The prefix-sum convolution against the enumeration of every face."""
    die = numeric_die(f"d{sides}", sides)
    expected = brute_force([die] * (plus + minus), lambda f: sum(f[:plus]) - sum(f[plus:]))
    weights = term_weights(DiceTerm(plus=plus, minus=minus, sides=sides))
    total = sides ** (plus + minus)
    assert [v for v, _n in weights] == sorted(expected.outcomes())
    assert {v: Fraction(n, total) for v, n in weights} == dict(expected.probabilities)


FIGHTERS = st.lists(
    st.builds(
        Fighter,
        name=st.just("F"),
        vigilance=st.integers(0, 2),
        initiative_bonus=st.integers(-3, 3),
        affinities=st.integers(0, 1),
        initiative=st.one_of(st.none(), st.none(), st.integers(-1, 4)),
    ),
    min_size=1,
    max_size=5,
)


@settings(max_examples=200, deadline=None)
@given(FIGHTERS, st.sampled_from([DiceTerm(1, 1, 3), DiceTerm(1, 0, 2), DiceTerm(2, 1, 2)]))
def test_first_weights_equal_the_product_of_the_others_below_each_key(fighters: list[Fighter], roll: DiceTerm) -> None:
    """The sweep against the direct sum: for each key of a combatant, its weight times every other
    combatant's weight strictly below it (ties included: few Vigilances, few faces)."""
    s = ActionScenario(fighters=tuple(fighters), roll=roll)
    ranked = [_ranked(_initiative_weights(s, f), f) for f in s.fighters]
    expected = []
    for i, (_r, acting) in enumerate(ranked):
        total = 0
        for key, weight in acting:
            product = weight
            for j, (other, _a) in enumerate(ranked):
                if j != i:
                    product *= other.below(key)
            total += product
        expected.append(total)
    assert first_weights(ranked) == expected
