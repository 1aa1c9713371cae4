"""bench/compare.py: the pure parts — the ABBA order, the ratio and its verdict, the arguments and
their French messages, the comparison of two request mixes. The run itself (worktrees, gunicorn,
wrk) is exercised by running the script, not here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.compare import (
    DEFAULTS,
    NBSP,
    WORKTREE,
    ArgumentError,
    canonical_path,
    check_options,
    normalized,
    outside,
    parse_args,
    resolve,
    schedule,
    verdict,
)
from bench.load.run import Req


def run(rps: float, p95: float = 100.0, non_2xx: int = 0, timeouts: int = 0) -> dict[str, Any]:
    """A wrk result as ``bench/load/run.py``'s ``wrk()`` returns it, reduced to what the verdict reads."""
    return {
        "requests_per_s": rps,
        "requests": int(rps * 20),
        "latency_ms": {"p50": p95 / 2, "p95": p95, "p99": p95 * 1.5},
        "non_2xx_3xx": non_2xx,
        "socket_errors": {"connect": 0, "read": 0, "write": 0, "timeout": timeouts},
    }


def test_the_runs_alternate_base_and_head_in_abba_order() -> None:
    assert schedule(1) == ["base", "head"]
    assert schedule(3) == ["base", "head", "head", "base", "base", "head"]
    assert schedule(4).count("base") == schedule(4).count("head") == 4


def test_the_ratio_is_head_median_over_base_median_and_meets_the_target_at_two() -> None:
    order = schedule(3)
    rps = {"base": iter([100.0, 90.0, 110.0]), "head": iter([210.0, 190.0, 200.0])}
    result = verdict(order, [run(next(rps[role])) for role in order])
    assert result["base"]["median_requests_per_s"] == 100.0
    assert result["head"]["median_requests_per_s"] == 200.0
    assert result["ratio"] == 2.0
    assert result["met"] is True
    assert result["target"] == f"≥{NBSP}2× base"
    # each pair's own ratio, in the order of the pairs: (100, 210), (190, 90), (110, 200)
    assert result["pair_ratios"] == [2.1, round(190 / 90, 3), round(200 / 110, 3)]
    assert result["pair_ratio_range"] == [round(200 / 110, 3), round(190 / 90, 3)]
    assert result["median_pair_ratio"] == 2.1


def test_the_same_commit_twice_is_about_one_and_does_not_meet_the_target() -> None:
    order = schedule(2)
    result = verdict(order, [run(150.0), run(153.0), run(149.0), run(151.0)])
    assert result["ratio"] == pytest.approx(1.0, abs=0.02)
    assert result["met"] is False


def test_errors_on_head_void_the_verdict_whatever_the_ratio() -> None:
    order = schedule(1)
    assert verdict(order, [run(100.0), run(300.0, non_2xx=5)])["met"] is False
    assert verdict(order, [run(100.0), run(300.0, timeouts=1)])["met"] is False
    slow_base = verdict(order, [run(100.0, timeouts=3), run(300.0)])
    assert slow_base["met"] is True
    assert slow_base["clean"] == {"base": False, "head": True}


def test_the_p95_and_the_errors_are_reported_per_commit() -> None:
    order = schedule(1)
    result = verdict(order, [run(100.0, p95=400.0, non_2xx=2), run(120.0, p95=300.0)])
    assert result["base"]["p95_ms"] == [400.0]
    assert result["base"]["non_2xx_3xx"] == 2
    assert result["head"]["median_p95_ms"] == 300.0


def test_another_target_can_be_asked() -> None:
    assert verdict(schedule(1), [run(100.0), run(160.0)], target=1.5)["met"] is True


def test_runs_that_do_not_come_in_pairs_are_refused() -> None:
    with pytest.raises(ValueError, match="pairs"):
        verdict(["base", "base"], [run(1.0), run(2.0)])
    with pytest.raises(ValueError, match="pairs"):
        verdict(["base", "head"], [run(1.0)])


def test_the_defaults_are_three_pairs_of_twenty_seconds_at_fifty_connections() -> None:
    assert check_options({}) == DEFAULTS
    assert DEFAULTS["rounds"] * 2 * DEFAULTS["seconds"] <= 120  # the default run stays under ~4 minutes
    assert (DEFAULTS["connections"], DEFAULTS["threads"], DEFAULTS["target"]) == (50, 2, 2.0)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rounds": 0}, f"--rounds doit être un entier supérieur ou égal à 1 (reçu{NBSP}: «{NBSP}0{NBSP}»)."),
        ({"seconds": 2.5}, "--seconds doit être un entier"),
        ({"warmup": -1}, "--warmup doit être un entier supérieur ou égal à 0"),
        ({"target": 0}, "--target doit être un nombre positif"),
        ({"threads": 8, "connections": 4}, f"ne peut pas dépasser --connections (4){NBSP}:"),
        ({"duration": 60}, f"option inconnue{NBSP}: «{NBSP}duration{NBSP}»."),
    ],
)
def test_bad_options_are_refused_in_french(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        check_options(options)
    assert message in str(caught.value)


def test_the_command_line_gives_base_head_and_the_options() -> None:
    base, head, options = parse_args(["81e3378", "HEAD", "--rounds", "2", "--seconds", "10", "--target", "1.5"])
    assert (base, head) == ("81e3378", "HEAD")
    assert options == {**DEFAULTS, "rounds": 2, "seconds": 10, "target": 1.5}


def test_head_defaults_to_the_working_tree() -> None:
    assert parse_args(["81e3378"])[1] == WORKTREE


def test_a_missing_base_is_explained_in_french() -> None:
    with pytest.raises(ArgumentError, match="il manque BASE, le commit de référence"):
        parse_args([])


def test_a_number_that_is_not_one_is_explained_in_french() -> None:
    with pytest.raises(ArgumentError) as caught:
        parse_args(["81e3378", "--connections", "beaucoup"])
    assert str(caught.value) == (
        f"--connections doit être un entier supérieur ou égal à 1 (reçu{NBSP}: «{NBSP}beaucoup{NBSP}»)."
    )


def test_an_unknown_option_stops_with_a_french_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        parse_args(["81e3378", "--duree", "5"])
    assert caught.value.code == 2
    assert f"bench/compare.py{NBSP}: arguments invalides" in capsys.readouterr().err


def test_commits_are_resolved_by_git_and_the_working_tree_is_none() -> None:
    sha = resolve("HEAD", "HEAD")
    assert sha is not None
    assert len(sha) == 40
    assert resolve(sha[:10]) == sha
    assert resolve(WORKTREE) is None


@pytest.mark.parametrize("ref", ["pas-un-commit-0000", "deadbeefdeadbeef"])
def test_an_unknown_commit_is_explained_in_french(ref: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        resolve(ref, "HEAD")
    assert str(caught.value).startswith(
        f"HEAD{NBSP}: commit inconnu «{NBSP}{ref}{NBSP}» (git rev-parse ne le trouve pas"
    )


def test_an_option_is_not_taken_for_a_commit() -> None:
    with pytest.raises(ArgumentError, match="n’est pas un nom de commit"):
        resolve("--all")


def test_a_query_is_compared_whatever_the_order_of_its_parameters() -> None:
    assert canonical_path("/encore/?b=2&a=1&r=1") == canonical_path("/encore/?a=1&r=1&b=2")
    assert canonical_path("/encore/?a=2&a=1") != canonical_path("/encore/?a=1&a=2")  # a list keeps its order
    assert canonical_path("/r/abc") == "/r/abc"


def test_two_servers_of_the_same_code_give_the_same_normalized_mix() -> None:
    def mix(token: str, cookie: str, short: str, query: str) -> list[Req]:
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "HX-Request": "true",
            "X-CSRFToken": token,
            "Cookie": f"csrftoken={cookie}",
        }
        return [
            Req("htmx_resolve", "encore", "POST", "/encore/", headers, f"{query}&csrfmiddlewaretoken={token}".encode()),
            Req("permalink", "encore", "GET", f"/encore/?{query}&r=1"),
            Req("short_link", "encore", "GET", short),
        ]

    one = normalized(mix("tok1", "cookie1", "/r/aaa", "x=1&y=2"))
    assert one == normalized(mix("tok2", "cookie2", "/r/bbb", "y=2&x=1"))
    assert one != normalized(mix("tok1", "cookie1", "/r/aaa", "x=1&y=3"))


def test_modules_imported_from_another_checkout_are_named(tmp_path: Path) -> None:
    root = tmp_path / "worktree"
    files = {
        "calculator": str(root / "calculator" / "__init__.py"),
        "rulesets.core": "/work/main/rulesets/core/__init__.py",
        "bestiary": None,
    }
    assert outside(files, root) == ["bestiary", "rulesets.core"]
