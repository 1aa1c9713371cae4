"""Property tests over every registered engine: any valid scenario resolves, and the odds agree.

Scenarios are the rulesets' worked examples with a few fields redrawn within their declared
bounds; those the rules refuse (``check``) are discarded. For each: resolving never raises, the outcome probabilities sum to exactly 1 and
are never negative, and the outcome just rolled is one the odds give a positive probability.
"""

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rulesets.core import request as core_request
from rulesets.core.registry import load_all
from rulesets.core.schema import ScenarioError, parse
from tests.strategies import mutated_example, scenario_data

RULESETS = load_all()
PROPERTY_SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)


def valid_scenario(ruleset, data):
    try:
        return parse(ruleset.scenario_type, data)
    except ScenarioError:
        assume(False)
        raise


@pytest.mark.parametrize("slug", sorted(RULESETS))
@PROPERTY_SETTINGS
@given(data=st.data(), seed=st.integers(min_value=0, max_value=2**31 - 1))
def test_any_valid_scenario_resolves_and_its_odds_are_a_distribution(slug, data, seed):
    ruleset = RULESETS[slug]
    raw = data.draw(mutated_example(ruleset))
    scenario = valid_scenario(ruleset, raw)
    resolution = core_request.resolve(ruleset, {"scenario": raw, "seed": seed})
    odds = ruleset.odds(scenario)
    probabilities = [p for _code, _label, p in odds.outcomes]
    assert all(p >= 0 for p in probabilities)
    assert sum(probabilities, Fraction(0)) == 1
    codes = {code: p for code, _label, p in odds.outcomes}
    if resolution.result.outcome in codes:
        assert codes[resolution.result.outcome] > 0
    for chart in odds.charts:
        assert sum((p for _label, p in chart.bars), Fraction(0)) == 1


ENCORE = RULESETS["encore"]


@PROPERTY_SETTINGS
@given(data=st.data(), seed=st.integers(min_value=0, max_value=2**31 - 1), extra=st.integers(min_value=1, max_value=5))
def test_encore_damage_is_never_negative_and_more_protection_never_hurts_more(data, seed, extra):
    raw = data.draw(scenario_data(ENCORE.scenario_type))
    valid_scenario(ENCORE, raw)
    base = core_request.resolve(ENCORE, {"scenario": raw, "seed": seed})
    numbers = base.result.numbers
    for key, value in numbers.items():
        if key.startswith(("damage", "strike_damage")) and isinstance(value, int):
            assert value >= 0
    armoured = {**raw, "pc": {**raw["pc"], "armour": min(10, raw["pc"]["armour"] + extra)}}
    again = core_request.resolve(ENCORE, {"scenario": armoured, "seed": seed})
    assert again.result.numbers.get("strike_damage", 0) <= numbers.get("strike_damage", 0)
    shielded = {**raw, "npcs": [{**n, "protection": min(10, n["protection"] + extra)} for n in raw["npcs"]]}
    try:
        third = core_request.resolve(ENCORE, {"scenario": shielded, "seed": seed})
    except ScenarioError:
        return
    assert third.result.numbers.get("damage_dealt", 0) <= numbers.get("damage_dealt", 0)
