"""Properties over random exchanges: the engine never fails on valid input and keeps its invariants."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.core.dice import fixed_roll
from rulesets.core.schema import ScenarioError, parse
from rulesets.nephilim.engine import dice_for, resolve
from rulesets.nephilim.model import Scenario
from rulesets.nephilim.odds import odds
from tests.rulesets.nephilim import seed_tables as t

MELEE_DEFENCES = [r for r in t.DEFENCES if r["context"] == "melee"]
small = st.integers(min_value=0, max_value=12)


@st.composite
def exchanges(draw: Any) -> dict[str, Any]:
    weapon = draw(st.sampled_from(t.MELEE_WEAPONS))
    approach = draw(st.sampled_from([r for r in t.MELEE_APPROACHES if r["kind"] != "tir_instinctif"]))
    attacker = {
        "kind": draw(st.sampled_from(["nephilim", "initie", "autre"])),
        "degree": draw(st.integers(min_value=0, max_value=20)),
        "weapon": weapon,
        "approach": approach,
        "effects": draw(st.lists(st.sampled_from(t.ATTACKER_EFFECTS), max_size=3)),
        "margin_damage": draw(small),
        "margin_malus": draw(small),
    }
    if attacker["kind"] == "nephilim":
        attacker["ka_feu"] = draw(small)
    defender = {
        "kind": draw(st.sampled_from(["nephilim", "initie", "creature_magique", "selenim", "autre"])),
        "degree": draw(st.integers(min_value=0, max_value=20)),
        "defence": draw(st.sampled_from(MELEE_DEFENCES)),
        "defence_number": draw(st.integers(min_value=1, max_value=4)),
        "armour": {k: v for k, v in draw(st.sampled_from(t.PROTECTIONS)).items() if k != "slot"},
        "margin_damage": draw(small),
    }
    effects = [dict(e, target=1) for e in draw(st.lists(st.sampled_from(t.DEFENDER_EFFECTS), max_size=3))]
    return {"mode": "melee", "attacker": attacker, "defenders": [defender], "defender_effects": effects}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=exchanges(), faces=st.lists(st.integers(min_value=1, max_value=100), min_size=4, max_size=4))
def test_any_valid_exchange_resolves_with_its_invariants(data: dict[str, Any], faces: list[int]) -> None:
    try:
        scn: Scenario = parse(Scenario, data)
    except ScenarioError as exc:  # a refused combination is a French message on a field
        messages = list(exc.errors.values())
        scn = None  # type: ignore[assignment]
    if scn is None:
        assert all(isinstance(v, str) and v for v in messages)
        return
    keys = dice_for(scn).keys()
    result = resolve(scn, fixed_roll(dict(zip(keys, faces))))
    n = result.numbers
    assert int(n["phys_taken"]) >= 0  # type: ignore[arg-type]
    assert int(n["mag_taken"]) >= 0  # type: ignore[arg-type]
    if not n["hit"]:
        assert n["phys_taken"] == n["mag_taken"] == 0
    if not scn.defenders[0].magic_sensitive:
        assert n["mag_taken"] == 0
    if any(e.get("cancel_all") for e in data["defender_effects"]):
        assert n["phys_taken"] == n["mag_taken"] == 0
    assert result.outcome in {"fumble", "miss", "dodged", "defended", "absorbed", "graze", "wound", "terrible"}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=exchanges())
def test_the_odds_of_any_valid_exchange_form_a_partition(data: dict[str, Any]) -> None:
    try:
        scn: Scenario = parse(Scenario, data)
    except ScenarioError:
        return
    result = odds(scn)
    assert sum(p for _c, _l, p in result.outcomes) == 1
    for chart in result.charts:
        assert sum(p for _l, p in chart.bars) == 1
