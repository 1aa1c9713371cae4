"""Every worked example of the seed's §14 reproduces exactly through the generic request path."""

from __future__ import annotations

import pytest

from rulesets.core.registry import get
from rulesets.core.request import resolve, result_data
from rulesets.core.results import Example
from rulesets.nephilim.examples import examples

EXAMPLES = examples()


def test_the_ruleset_is_registered_with_its_examples() -> None:
    ruleset = get("nephilim")
    assert ruleset.name == "Nephilim Légende"
    assert len(ruleset.examples()) == len(EXAMPLES) >= 25


def test_example_keys_are_unique() -> None:
    keys = [e.key for e in EXAMPLES]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.key for e in EXAMPLES])
def test_each_worked_example_gives_its_expected_numbers(example: Example) -> None:
    resolution = resolve(get("nephilim"), example.request)
    if "outcome" in example.expected:
        assert resolution.result.outcome == example.expected["outcome"]
    for key, expected in example.expected["numbers"].items():
        assert resolution.result.numbers[key] == expected, key
    assert all(resolution.dice.was_typed(k) for k in example.request["dice"])


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.key for e in EXAMPLES])
def test_each_example_serialises_to_json_with_a_story(example: Example) -> None:
    data = result_data(resolve(get("nephilim"), example.request))
    assert data["events"]
    assert data["narrative"]["scene"]
    assert data["narrative"]["story"]
    assert all(e["rule"].startswith("§") for e in data["events"])
