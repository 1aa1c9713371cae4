"""``manage.py resolve nephilim``: the worked examples through the command line, and the odds."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest
from django.core.management import call_command

from rulesets.nephilim.examples import examples

pytestmark = pytest.mark.django_db


def _run(monkeypatch: pytest.MonkeyPatch, *args: str, stdin: str = "") -> dict[str, Any]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    out = io.StringIO()
    call_command("resolve", *args, stdout=out, stderr=io.StringIO())
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


@pytest.mark.parametrize("key", ["critique", "rafale_trois_cibles", "marge_superieure_10"])
def test_the_cli_resolves_a_worked_example_to_its_expected_numbers(monkeypatch: pytest.MonkeyPatch, key: str) -> None:
    example = next(e for e in examples() if e.key == key)
    data = _run(monkeypatch, "nephilim", "-", stdin=json.dumps(example.request))
    if example.expected["outcome"] is not None:
        assert data["outcome"] == example.expected["outcome"]
    for name, value in example.expected["numbers"].items():
        assert data["numbers"][name] == value, name


def test_the_cli_computes_exact_odds_for_a_burst(monkeypatch: pytest.MonkeyPatch) -> None:
    example = next(e for e in examples() if e.key == "rafale_trois_cibles")
    data = _run(monkeypatch, "nephilim", "-", "--odds", stdin=json.dumps({"scenario": example.request["scenario"]}))
    assert data["outcomes"]
    labels = [e["label"] for e in data["expectations"]]
    assert any(label.startswith("Probabilité de toucher") for label in labels)
    assert any(label.startswith("PHYS moyens") for label in labels)
