"""Every worked example of seed 004 reproduces exactly through the generic request."""

from __future__ import annotations

import pytest

from rulesets.core import registry
from rulesets.core.request import resolve, result_data
from rulesets.core.results import Example
from rulesets.feerie import ACTION, RULESET

EXCHANGE_EXAMPLES = RULESET.examples()
ACTION_EXAMPLES = ACTION.examples()


def _check(example: Example, outcome: str, numbers: dict[str, object]) -> None:
    for key, value in example.expected.items():
        got = outcome if key == "outcome" else numbers.get(key)
        assert got == value, f"{example.key}: {key} = {got!r}, expected {value!r}"


@pytest.mark.parametrize("example", EXCHANGE_EXAMPLES, ids=[e.key for e in EXCHANGE_EXAMPLES])
def test_each_exchange_example_of_the_seed_reproduces_exactly(example: Example) -> None:
    res = resolve(RULESET, example.request)
    _check(example, res.result.outcome, dict(res.result.numbers))


@pytest.mark.parametrize("example", ACTION_EXAMPLES, ids=[e.key for e in ACTION_EXAMPLES])
def test_each_action_example_of_the_seed_reproduces_exactly(example: Example) -> None:
    res = resolve(ACTION, example.request)
    _check(example, res.result.outcome, dict(res.result.numbers))


def test_the_ruleset_is_registered_under_its_slug() -> None:
    assert registry.get("feerie") is RULESET


def test_the_examples_cover_every_worked_example_the_issue_lists() -> None:
    keys = {e.key for e in (*EXCHANGE_EXAMPLES, *ACTION_EXAMPLES)}
    assert {
        "wichtln_contact",
        "wichtln_distance",
        "wichtln_defense",
        "redcap_tactique",
        "rubezahl_serpent",
        "activite_supplementaire_rang_9",
        "activite_supplementaire_rang_12",
        "pixie_hippogriffe",
        "poignard_de_cristal",
        "poignard_de_cristal_anticipe",
        "ogre_sylphes",
        "geants_feu_follet",
        "ogre_farfadets",
        "ogre_sylphes_action",
        "geants_feu_follet_action",
    } <= keys


def test_an_example_result_serialises_to_json_data() -> None:
    data = result_data(resolve(RULESET, EXCHANGE_EXAMPLES[0].request))
    assert data["ruleset"] == "feerie"
    assert data["numbers"]["attack"] == 23
    assert all(d["typed"] for d in data["dice"])
    assert data["narrative"]["story"]
