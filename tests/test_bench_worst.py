"""The worst-case suite's logic (bench/worst.py): its corners are requests the API accepts, the
bodies it reports replay the same scenario, its mutations stay within the declared bounds, and
its report names the slowest input. Nothing here is timed: ``api_work`` is replaced by a stand-in
whose cost the test chooses."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from bench import worst
from rulesets.core import request as core_request
from rulesets.core.registry import load_all
from rulesets.core.schema import ScenarioError, fields_of, to_data

RULESETS = load_all()


def corner_data(slug: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for description, scenario in worst.CORNERS[slug]():
        data = to_data(scenario) if dataclasses.is_dataclass(scenario) else scenario
        out.append((description, data))
    return out


def test_every_ruleset_has_corners() -> None:
    assert set(worst.CORNERS) == set(RULESETS)


@pytest.mark.parametrize("slug", sorted(worst.CORNERS))
def test_every_corner_is_a_request_the_api_accepts(slug: str) -> None:
    for description, data in corner_data(slug):
        assert worst.accepted(RULESETS[slug], data) is not None, description


@pytest.mark.parametrize("slug", sorted(worst.CORNERS))
def test_a_reported_body_parses_to_the_same_scenario(slug: str) -> None:
    ruleset = RULESETS[slug]
    for description, data in corner_data(slug):
        full = worst.accepted(ruleset, data)
        assert full is not None
        short = worst.minimal(ruleset.scenario_type, full)
        assert core_request.parse_scenario(ruleset, short) == core_request.parse_scenario(ruleset, full), description
        assert len(json.dumps(short)) <= len(json.dumps(full))


def test_a_default_scenario_reports_an_empty_body() -> None:
    for ruleset in RULESETS.values():
        assert worst.minimal(ruleset.scenario_type, to_data(ruleset.scenario_type())) == {}


def _bounds_hold(cls: type, data: dict[str, Any]) -> None:
    """Every number of ``data`` is within its declared bounds (recursively)."""
    for site in worst.sites(cls, data):
        value = site.holder[site.key]
        if site.rows:
            assert site.spec.max_items is None or len(value) <= site.spec.max_items, site.path
            assert len(value) >= (site.spec.min_items or 0), site.path
        elif site.tp is int and value is not None:
            assert site.spec.ge is None or value >= site.spec.ge, site.path
            assert site.spec.le is None or value <= site.spec.le, site.path


@pytest.mark.parametrize("slug", sorted(worst.CORNERS))
def test_mutations_stay_within_the_declared_bounds(slug: str) -> None:
    ruleset = RULESETS[slug]
    rng = random.Random(7)
    kept = 0
    for _description, data in corner_data(slug):
        current = worst.accepted(ruleset, data)
        assert current is not None
        for _step in range(15):
            child = json.loads(json.dumps(current))
            said = worst.mutate(ruleset.scenario_type, child, rng)
            assert said.split("=")[0].split(" ")[0]  # names the path it changed
            _bounds_hold(ruleset.scenario_type, child)
            try:
                core_request.parse_scenario(ruleset, child)
            except ScenarioError:
                continue  # a cross-field check refused it: the search drops such a child
            kept += 1
            current = worst.accepted(ruleset, child)
            assert current is not None
    assert kept > 0


def test_sites_reach_nested_rows_and_their_numbers() -> None:
    ruleset = RULESETS["aventuriers"]
    data = to_data(ruleset.scenario_type())
    paths = {site.path for site in worst.sites(ruleset.scenario_type, data)}
    assert "die_types" in paths  # a list of rows
    assert "die_types.0.faces.0.damage" in paths  # a number inside a row of a row
    assert "attacker.weapon.dice.0.count" in paths
    assert "board.attacker_facing" in paths  # a choice
    declared = {f.name for f in fields_of(ruleset.scenario_type)}
    assert {p.split(".")[0] for p in paths} <= declared


def test_the_report_names_the_slowest_input_and_its_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a stand-in whose cost grows with the scenario's size, the report ranks by it."""
    clock = {"now": 0.0}

    def fake_work(_ruleset: Any, body: dict[str, Any]) -> None:
        clock["now"] += len(json.dumps(body)) / 1000  # "ms" of fake work: larger bodies are slower

    def fake_timed(fn: Any) -> tuple[float, float]:
        before = clock["now"]
        fn()
        spent = clock["now"] - before
        return spent, spent

    monkeypatch.setattr(worst, "api_work", fake_work)
    monkeypatch.setattr(worst, "timed", fake_timed)
    report = worst.run(budget_s=0.5, seed=3)
    assert set(report["rulesets"]) == set(RULESETS)
    for slug, part in report["rulesets"].items():
        warm = [m["warm_ms"] for m in part["slowest"]]
        assert warm == sorted(warm, reverse=True)
        assert 1 <= len(warm) <= worst.TOP
        assert part["max_warm_ms"] == warm[0]
        for m in part["slowest"]:
            assert core_request.parse_scenario(RULESETS[slug], m["body"]["scenario"]) is not None
            assert set(m) >= {"description", "warm_ms", "cold_ms", "warm_cpu_ms", "cold_cpu_ms", "body"}
    top = max(report["rulesets"].items(), key=lambda item: item[1]["max_warm_ms"])
    assert report["maximum"]["ruleset"] == top[0]
    assert report["met"] == (report["maximum"]["warm_ms"] <= worst.TARGET_MS)
    json.dumps(report)  # the CLI prints it as JSON
