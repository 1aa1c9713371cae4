"""Estoc benchmarks: ``make bench`` (or ``python bench/run.py``). Figures for docs/performance.md.

One JSON document on stdout (progress on stderr), with every target of issue 18 and its verdict
under ``verdicts``:

1. ``latency`` (in-process, ``bench/latency.py``): every view of the six pages and the API timed
   interleaved against a bare view and the engine alone; ratios on CPU time, wall clock beside.
2. ``odds``: exact odds computation time per ruleset scenario, enCORE pools of 1 to 15 dice, each
   ruleset's default and largest sensible scenario.
3. ``page_weight``: first load (HTML + CSS + JS, gzip) and the htmx result fragment.
4. ``worst_case`` (``bench/worst.py``): the slowest accepted requests each ruleset's search finds.
5. ``first_request`` (``bench/first_request.py``): a fresh gunicorn worker's first request against
   a warm one.
6. ``perceived`` (``bench/perceived.py``): click on « Résoudre » → result painted, six pages, phone.
7. ``capacity`` (``bench/compare.py``): the ``make load`` mix against ``BENCH_BASE`` (default: main
   when issue 18 was opened) and this working tree, side by side.

``BENCH_ONLY=latency,odds`` runs only the parts named; ``BENCH_REPEAT`` sets the latency rounds.
Parts 4-7 run as their own processes (each starts its own servers), one after the other.
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
for _rate in ("PAGE_RATE", "RESOLVE_RATE", "SHARE_RATE"):
    os.environ.setdefault(_rate, "0")  # no limit (calculator/limits.py)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "calculator.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.staticfiles import finders  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from rulesets.core.registry import load_all  # noqa: E402
from rulesets.core.schema import parse  # noqa: E402


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


def odds_extremes() -> dict[str, dict[str, float]]:
    """Each ruleset's default scenario and its largest sensible one (bench/scenarios.py): median
    cold (the engines' caches cleared before each run) and warm, in ms."""
    from bench.scenarios import scenarios
    from bench.worst import clear_engine_caches

    rulesets = load_all()
    out: dict[str, dict[str, float]] = {}
    for slug, cases in scenarios().items():
        for case, build in cases.items():
            built = build()
            for i, scenario in enumerate(built if isinstance(built, list) else [built]):
                odds_of = rulesets[slug].odds

                def cold(s: Any = scenario, fn: Any = odds_of) -> None:
                    clear_engine_caches()
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
        unknown = sorted(set(only) - set(PARTS))
        if unknown:
            raise SystemExit(f"BENCH_ONLY : partie inconnue {unknown} (parties : {', '.join(PARTS)})")
        report = run(Client(), only)
    finally:
        with contextlib.redirect_stdout(sys.stderr):
            connection.creation.destroy_test_db(old, verbosity=0)
    for part, command in SEPARATE.items():
        if not only or part in only:
            report[part] = separate(part, command)
    report["verdicts"] = verdicts(report)
    text = json.dumps(report, indent=2, ensure_ascii=False)
    out = ROOT / "artifacts" / "bench" / "report.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n")
    print(text)


PARTS = ("latency", "odds", "weight", "worst_case", "first_request", "perceived", "capacity")
SEPARATE = {
    "worst_case": ["bench/worst.py"],
    "first_request": ["bench/first_request.py"],
    "perceived": ["bench/perceived.py"],
    "capacity": ["bench/compare.py", os.environ.get("BENCH_BASE", "81e3378"), "WORKTREE"],
}


def separate(part: str, command: list[str]) -> dict[str, Any]:
    """A part that runs in its own process: its JSON report (stdout), or why it failed."""
    import subprocess

    print(f"[bench] {part}: {' '.join(command)}", file=sys.stderr, flush=True)
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "PLAIN_STATIC", "API_RATE"}}
    done = subprocess.run(
        [sys.executable, *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800, check=False
    )
    sys.stderr.write(done.stderr[-4000:])
    if done.returncode != 0:
        return {"error": f"exit {done.returncode}", "stderr": done.stderr[-2000:]}
    try:
        answer: dict[str, Any] = json.loads(done.stdout)
    except ValueError:
        return {"error": "no JSON on stdout", "stdout": done.stdout[-2000:]}
    return answer


def _met(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return value == "met"
    return None


def verdicts(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target of issue 18: what was measured, and whether it is met (None: not measured)."""
    out: list[dict[str, Any]] = []
    latency = report.get("latency")
    if isinstance(latency, dict):
        worst = latency["worst_ratio"]
        pages = latency["pages"]
        for name, target in (("htmx resolve", 8), ("live update", 8), ("permalink", 25)):
            over = sorted(slug for slug, rows in pages.items() if not rows[name]["met"])
            out.append(
                {
                    "target": f"{name} ≤ {target}× the bare view (CPU time), every page",
                    "measured": f"worst {worst[name]}×",
                    "over": over,
                    "met": not over,
                }
            )
        over = sorted(slug for slug, rows in pages.items() if not rows["API resolve"]["met"])
        out.append(
            {
                "target": "API resolve ≤ 1.5× its floor (engine + JSON encoding), every ruleset",
                "measured": f"worst {worst['API resolve / floor']}×",
                "over": over,
                "met": not over,
            }
        )
    worst_case = report.get("worst_case")
    if isinstance(worst_case, dict) and "error" not in worst_case:
        slowest = worst_case.get("maximum") or {}
        out.append(
            {
                "target": "every accepted request ≤ 100 ms warm",
                "measured": f"{slowest.get('warm_ms')} ms warm ({slowest.get('warm_cpu_ms')} ms CPU), "
                f"{slowest.get('ruleset')}: {str(slowest.get('description', ''))[:90]}",
                "met": _met(worst_case.get("met")),
            }
        )
    first = report.get("first_request")
    if isinstance(first, dict) and "error" not in first:
        with_warmup = (first.get("summary") or {}).get("warmup") or {}
        out.append(
            {
                "target": "a fresh worker's first request ≤ 3× a warm one",
                "measured": f"worst {with_warmup.get('worst_ratio')}× ({with_warmup.get('worst_kind')}), "
                f"{with_warmup.get('met')} of {with_warmup.get('of')} requests within 3× (with the warm-up)",
                "met": _met(first.get("verdict", first.get("met"))),
            }
        )
    perceived = report.get("perceived")
    if isinstance(perceived, dict) and "error" not in perceived:
        phone = (perceived.get("summary") or {}).get("phone") or {}
        p95 = [row.get("p95_ms") for row in phone.values() if isinstance(row, dict)]
        out.append(
            {
                "target": "click on « Résoudre » → result painted, p95 ≤ 100 ms, six pages at 390×844",
                "measured": f"p95 {min(p95, default=None)}–{max(p95, default=None)} ms over {len(p95)} pages",
                "met": _met(perceived.get("verdict")),
            }
        )
    capacity = report.get("capacity")
    if isinstance(capacity, dict) and "error" not in capacity:
        out.append(
            {
                "target": "mixed-load capacity ≥ 2× the base commit, side by side",
                "measured": capacity.get("ratio"),
                "met": _met(capacity.get("met")),
            }
        )
    for part in ("worst_case", "first_request", "perceived", "capacity"):
        if isinstance(report.get(part), dict) and "error" in report[part]:
            out.append({"target": part, "measured": report[part]["error"], "met": None})
    return out


def run(client: Client, only: list[str]) -> dict[str, Any]:
    """Every part of the report, or those named in ``only`` (``BENCH_ONLY=latency,odds``)."""
    from bench import latency

    report: dict[str, Any] = {}
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
    from bench.latency import example_form, htmx_post

    page = client.get("/encore/").content
    css_js = []
    for rel in ("vendor/bootstrap/bootstrap.min.css", "css/estoc.css", "js/estoc.js", "django_htmx/htmx-2.min.js"):
        path = finders.find(rel)
        css_js.append((rel, Path(path).read_bytes()))
    encore = load_all()["encore"]
    form = example_form(encore, encore.examples()[0].request)
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
