"""Estoc benchmarks: ``make bench`` (or ``python bench/run.py``). Figures for docs/performance.md.

1. Latency of the resolve views against a bare Django view behind the same middleware, in one
   run, in-process through Django's test client (no network): the htmx resolve fragment, the
   full permalink page, the JSON API resolve.
2. Exact odds computation time per ruleset scenario, and for enCORE pools of 1 to 15 dice.
3. Page weight: first load (HTML + CSS + JS, gzip) and the htmx result fragment.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SECRET_KEY", "bench-only")
os.environ.setdefault("SECURE", "0")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("PLAIN_STATIC", "1")
os.environ.setdefault("API_RATE", "1000000/m")  # the benchmark measures the views, not the limiter
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "calculator.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.staticfiles import finders  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from calculator.forms import permalink_query  # noqa: E402
from rulesets.core.registry import load_all  # noqa: E402
from rulesets.core.schema import parse, to_data  # noqa: E402


def timed(fn: Callable[[], object], repeat: int, warmup: int = 20) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def summary(samples: list[float]) -> dict[str, float]:
    samples = sorted(samples)
    return {
        "median_ms": round(statistics.median(samples), 3),
        "p95_ms": round(samples[int(len(samples) * 0.95) - 1], 3),
        "mean_ms": round(statistics.fmean(samples), 3),
    }


def clear_odds_caches() -> None:
    """Forget every memoised distribution of the engines, so that a timing is a cold one."""
    for name, module in list(sys.modules.items()):
        if name.startswith("rulesets.") and module is not None:
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def odds_extremes() -> dict[str, dict[str, float]]:
    """Each ruleset's default scenario and its largest sensible one (bench/scenarios.py): median
    cold (the engines' caches cleared before each run) and warm, in ms."""
    from bench.scenarios import scenarios

    rulesets = load_all()
    out: dict[str, dict[str, float]] = {}
    for slug, cases in scenarios().items():
        for case, build in cases.items():
            built = build()
            for i, scenario in enumerate(built if isinstance(built, list) else [built]):
                odds_of = rulesets[slug].odds

                def cold(s: Any = scenario, fn: Any = odds_of) -> None:
                    clear_odds_caches()
                    fn(s)

                name = f"{slug} {case}" + (f" #{i + 1}" if isinstance(built, list) else "")
                out[name] = {
                    "cold_median_ms": summary(timed(cold, 9, 1))["median_ms"],
                    "warm_median_ms": summary(timed(lambda s=scenario, fn=odds_of: fn(s), 9, 1))["median_ms"],
                }
    return out


def main() -> None:
    settings.ROOT_URLCONF = "bench.urls"
    # no setup_test_environment(): it instruments template rendering and would skew the figures
    from django.db import connection
    from django.test.utils import get_runner  # noqa: F401  (keeps the test DB helpers importable)

    # stdout carries the JSON report only: what the set-up prints goes to stderr
    with contextlib.redirect_stdout(sys.stderr):
        old = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            call_command("loadfixtures", verbosity=0)
        only = [part for part in os.environ.get("BENCH_ONLY", "").split(",") if part]
        report = run(Client(), only)
    finally:
        with contextlib.redirect_stdout(sys.stderr):
            connection.creation.destroy_test_db(old, verbosity=0)
    print(json.dumps(report, indent=2, ensure_ascii=False))


def run(client: Client, only: list[str]) -> dict[str, object]:
    """Every part of the report, or those named in ``only`` (``BENCH_ONLY=latency,odds``)."""
    from bench import latency

    report: dict[str, object] = {}
    rounds = int(os.environ.get("BENCH_REPEAT", "200"))
    if not only or "latency" in only:
        report["latency"] = latency.run(client, rounds)
    if not only or "odds" in only:
        report.update(odds_report())
    if not only or "weight" in only:
        report["page_weight"] = page_weight(client)
    return report


def odds_report() -> dict[str, object]:
    report: dict[str, object] = {}
    odds: dict[str, object] = {}
    for slug, ruleset in load_all().items():
        for example in ruleset.examples()[:3]:
            scenario = parse(ruleset.scenario_type, example.request["scenario"])
            odds[f"{slug}: {example.key}"] = summary(timed(lambda s=scenario, r=ruleset: r.odds(s), 50, 3))
    encore = load_all()["encore"]
    pools = {}
    for n in range(1, 16):
        attribute, bonus = min(n, 10), max(0, n - 10)  # attribute 0-10, allies' dice beyond
        scenario = parse(
            encore.scenario_type,
            {"pc": {"attribute": attribute, "bonus_dice": bonus}, "npcs": [{"menace": 3, "weapon": 4}]},
        )
        pools[n] = summary(timed(lambda s=scenario: encore.odds(s), 50, 3))["median_ms"]
    report["odds"] = odds
    report["encore_pool_odds_median_ms"] = pools
    report["odds_default_and_largest"] = odds_extremes()
    return report


def page_weight(client: Client) -> dict[str, int]:
    from bench.latency import htmx_post

    page = client.get("/encore/").content
    css_js = []
    for rel in ("vendor/bootstrap/bootstrap.min.css", "css/estoc.css", "js/estoc.js", "django_htmx/htmx-2.min.js"):
        path = finders.find(rel)
        css_js.append((rel, Path(path).read_bytes()))
    example = load_all()["encore"].examples()[0].request
    whole = to_data(parse(load_all()["encore"].scenario_type, example["scenario"]))
    form = permalink_query({"scenario": whole, "dice": example.get("dice", {})}, 42)
    fragment = htmx_post(client, "/encore/", [(k, v) for k, vs in form.lists() for v in vs]).content
    weight = {
        "html_bytes": len(page),
        "html_gzip": len(gzip.compress(page)),
        **{f"{rel}_gzip": len(gzip.compress(data)) for rel, data in css_js},
    }
    weight["first_load_gzip_total"] = weight["html_gzip"] + sum(len(gzip.compress(d)) for _r, d in css_js)
    weight["htmx_fragment_bytes"] = len(fragment)
    weight["htmx_fragment_gzip"] = len(gzip.compress(fragment))
    return weight


if __name__ == "__main__":
    main()
