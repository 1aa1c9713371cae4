"""Every worked example of the Quadrature adversaries ruleset reproduces exactly through the request API."""

from __future__ import annotations

import pytest

from rulesets.core.registry import get
from rulesets.core.request import resolve, result_data
from rulesets.quadrature.examples import examples

RULESET = get("quadrature")


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.key)
def test_each_worked_example_gives_its_expected_outcome_and_numbers(example):
    resolution = resolve(RULESET, example.request)
    result = resolution.result
    assert result.outcome == example.expected["outcome"]
    for key, value in example.expected["numbers"].items():
        assert result.numbers[key] == value, key


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.key)
def test_each_worked_example_cites_the_seed_and_emits_ordered_events(example):
    resolution = resolve(RULESET, example.request)
    assert example.source.startswith("Adversaires § ")
    assert resolution.result.events
    assert all(e.rule.startswith("Adversaires § ") for e in resolution.result.events)
    assert resolution.result.events[-1].kind == "sheet"
    assert resolution.narrative.scene
    assert resolution.narrative.story


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.key)
def test_each_worked_example_serialises_to_json_data(example):
    data = result_data(resolve(RULESET, example.request))
    assert data["ruleset"] == "quadrature"
    assert data["outcome"] == example.expected["outcome"]


def test_the_example_keys_are_unique():
    keys = [e.key for e in examples()]
    assert len(keys) == len(set(keys))


def test_every_example_dice_were_typed_so_no_seed_changes_them():
    for example in examples():
        a = resolve(RULESET, {**example.request, "seed": 1}).result
        b = resolve(RULESET, {**example.request, "seed": 2}).result
        assert a.numbers == b.numbers, example.key


def test_the_sheet_after_an_exchange_can_be_posted_again_to_chain_rounds():
    hit = next(e for e in examples() if e.key == "bleeding_token")
    first = resolve(RULESET, hit.request)
    sheet = first.result.events[-1].data["sheet"]
    request = {"scenario": {**hit.request["scenario"], "mode": "round", "adversary": sheet}}
    second = resolve(RULESET, request).result
    assert second.numbers["bleed_ticked"] == 1
    assert second.numbers["bleeding"] == 0
