"""enCORE odds: exact, and equal to brute-force enumeration of every face of every die."""

from fractions import Fraction
from itertools import product

import pytest

from rulesets.core.dice import D6, fixed_roll
from rulesets.encore.engine import dice_for, resolve
from rulesets.encore.model import NPC, PC, Action, Rules, Scenario, Strike
from rulesets.encore.odds import odds


def brute(scenario):
    """Resolve every combination of faces; tally outcomes, damage dealt and damage taken."""
    slots = dice_for(scenario).slots
    outcomes, dealt, taken = {}, {}, {}
    total = 6 ** len(slots)
    for faces in product(D6.faces, repeat=len(slots)):
        result = resolve(scenario, fixed_roll({s.key: f for s, f in zip(slots, faces)}))
        p = Fraction(1, total)
        outcomes[result.outcome] = outcomes.get(result.outcome, 0) + p
        d = result.numbers.get("damage_dealt", 0) if result.outcome != "defaite" else 0
        dealt[d] = dealt.get(d, 0) + p
        if scenario.action is Action.OPPOSITION:
            t = result.numbers.get("damage_dealt", 0) if result.outcome == "defaite" else 0
        else:
            t = result.numbers.get("strike_damage", 0)
        taken[t] = taken.get(t, 0) + p
    return outcomes, dealt, taken


def chart(o, key):
    c = next(c for c in o.charts if c.key == key)
    return {int(label): p for label, p in c.bars}


SCENARIOS = [
    Scenario(
        pc=PC(attribute=3, speciality=True, weapon=3, armour=1, cover=2), npcs=(NPC(menace=2, sante=4, weapon=3),)
    ),
    Scenario(
        pc=PC(attribute=2, weapon=2), npcs=(NPC(menace=3, sante=3, weapon=4, protection=1),), strike=Strike(attacks=3)
    ),
    Scenario(pc=PC(attribute=3), npcs=(NPC(menace=1, sante=1),), rules=Rules(success_face=4)),
    Scenario(
        action=Action.AREA,
        pc=PC(attribute=4, weapon=3, weapon_area=True, weapon_limit=2),
        npcs=(NPC(menace=1, sante=2), NPC(menace=2, sante=5, protection=1), NPC(menace=1)),
    ),
    Scenario(action=Action.OPPOSITION, pc=PC(attribute=2, weapon=3), opponent=PC(attribute=3, weapon=2, armour=1)),
]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_odds_equal_brute_force_enumeration(scenario):
    exact = odds(scenario)
    outcomes, dealt, taken = brute(scenario)
    for code, _label, p in exact.outcomes:
        assert p == outcomes.get(code, 0), code
    assert chart(exact, "damage_dealt") == {k: v for k, v in dealt.items() if v}
    assert chart(exact, "damage_taken") == {k: v for k, v in taken.items() if v}


def test_outcome_probabilities_sum_to_one():
    for scenario in SCENARIOS:
        assert sum(p for _c, _l, p in odds(scenario).outcomes) == 1


def test_aldric_odds_are_exact_fractions():
    o = odds(SCENARIOS[0])
    assert o.probability("reussite") == Fraction(131, 243)
    assert o.probability("partielle") == Fraction(80, 243)
    assert o.probability("echec") == Fraction(32, 243)


def test_the_expected_damage_taken_is_the_breach_probability_times_the_strike():
    o = odds(SCENARIOS[0])
    expected = {c: v for c, _l, v in o.expectations}
    assert expected["damage_taken"] == expected["breach"] * 1


def test_large_pools_stay_exact():
    o = odds(Scenario(pc=PC(attribute=10, speciality=True, bonus_dice=3), npcs=(NPC(menace=3),)))
    assert sum(p for _c, _l, p in o.outcomes) == 1
    assert o.probability("echec") == Fraction(2, 3) ** 15
