"""Estoc benchmarks: ``make bench`` (or ``python bench/run.py``). Figures for docs/performance.md.

1. Latency of the resolve views against a bare Django view behind the same middleware, in one
   run, in-process through Django's test client (no network): the htmx resolve fragment, the
   full permalink page, the JSON API resolve.
2. Exact odds computation time per ruleset scenario, and for enCORE pools of 1 to 15 dice.
3. Page weight: first load (HTML + CSS + JS, gzip) and the htmx result fragment.
"""

from __future__ import annotations

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


def htmx_post(client: Client, url: str, data: Any) -> Any:
    """What htmx sends for a form: an urlencoded body (not the test client's default multipart)."""
    from urllib.parse import urlencode

    pairs = data.lists() if hasattr(data, "lists") else data.items()
    body = urlencode([(k, v) for k, vs in pairs for v in (vs if isinstance(vs, list) else [vs])])
    return client.post(url, body, content_type="application/x-www-form-urlencoded", HTTP_HX_REQUEST="true")


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

    old = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        call_command("loadfixtures", verbosity=0)
        run(Client())
    finally:
        connection.creation.destroy_test_db(old, verbosity=0)


def run(client: Client) -> None:
    report: dict[str, object] = {}
    repeat = int(os.environ.get("BENCH_REPEAT", "300"))
    aldric = {
        "_f": "1",
        "action": "attaque",
        "pc.name": "Aldric",
        "pc.attribute": "3",
        "pc.speciality": "on",
        "pc.weapon": "3",
        "pc.armour": "1",
        "pc.cover": "2",
        "npcs.0.name": "Arbalétrier",
        "npcs.0.menace": "2",
        "npcs.0.sante": "4",
        "npcs.0.weapon": "3",
        "strike.enabled": "on",
        "dice.pc.1": "5",
        "dice.pc.2": "2",
        "dice.pc.3": "3",
        "dice.pc.4": "1",
        "dice.pc.5": "4",
        "seed": "42",
    }
    api_body = json.dumps(load_all()["encore"].examples()[0].request)
    views: dict[str, Callable[[], object]]
    permalink = client.post("/encore/", aldric)["Location"]
    views = {
        "bare view": lambda: client.get("/bench/bare/"),
        "enCORE resolve (htmx POST, fragment)": lambda: htmx_post(client, "/encore/", aldric),
        "enCORE permalink (full page GET)": lambda: client.get(permalink),
        "enCORE API resolve (JSON POST)": lambda: client.post(
            "/api/rulesets/encore/resolve", api_body, content_type="application/json"
        ),
    }
    # every other ruleset: its first worked example, through the page (htmx) and the API
    from calculator.forms import permalink_query
    from calculator.views import page_path

    for slug, ruleset in load_all().items():
        if slug == "encore":
            continue
        example = ruleset.examples()[0]
        # the whole scenario, as a page's form carries it (a request may leave out fields that
        # default to true, which an absent checkbox would turn off)
        whole = to_data(parse(ruleset.scenario_type, example.request["scenario"]))
        form = permalink_query({"scenario": whole, "dice": example.request.get("dice", {})}, 42)
        body = json.dumps(example.request)
        url = page_path(slug)
        views[f"{slug} resolve (htmx POST, fragment)"] = lambda u=url, f=form: htmx_post(client, u, f)
        views[f"{slug} API resolve (JSON POST)"] = lambda s=slug, b=body: client.post(
            f"/api/rulesets/{s}/resolve", b, content_type="application/json"
        )
    latency = {name: summary(timed(fn, repeat)) for name, fn in views.items()}
    bare = latency["bare view"]["median_ms"]
    for row in latency.values():
        row["ratio_to_bare"] = round(row["median_ms"] / bare, 2)
    report["latency"] = latency

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

    page = client.get("/encore/").content
    css_js = []
    for rel in ("vendor/bootstrap/bootstrap.min.css", "css/estoc.css", "js/estoc.js", "django_htmx/htmx-2.min.js"):
        path = finders.find(rel)
        css_js.append((rel, Path(path).read_bytes()))
    fragment = htmx_post(client, "/encore/", aldric).content
    weight = {
        "html_bytes": len(page),
        "html_gzip": len(gzip.compress(page)),
        **{f"{rel}_gzip": len(gzip.compress(data)) for rel, data in css_js},
    }
    weight["first_load_gzip_total"] = weight["html_gzip"] + sum(len(gzip.compress(d)) for _r, d in css_js)
    weight["htmx_fragment_bytes"] = len(fragment)
    weight["htmx_fragment_gzip"] = len(gzip.compress(fragment))
    report["page_weight"] = weight
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
