"""In-process latency of every calculator view, interleaved, against a bare view and the engine.

Every request goes through Django's test client, so it crosses the whole middleware stack but not
the network. The views are timed **interleaved**: each round calls every view once, in a new
shuffled order, and the figures are medians over the rounds. A figure that drifts (the machine is
shared) drifts for every view alike, so the ratios hold within one run; timing the views one after
another made a figure move 3.4× between two runs (issue 18).

For each of the six pages:

* ``htmx resolve``: the click on « Résoudre » (POST, urlencoded as htmx sends it, ``HX-Request``),
  with a new seed on every call: the same scene, a new roll;
* ``live update``: a field typed (the same POST with ``_live=1``): a new name on every call, so that
  every call is a new scene, and the page's first « Ajuster » line in ``_adjusted`` (estoc.js names
  the lines whose fields changed);
* ``permalink``: the full page of a result (GET ``?…&r=1``: form, result and odds), the same link
  every time (a shared result opened by the table);
* ``first visit``: the page opened (GET, no target: it weighs in the load mix);

and for each rule system:

* ``API resolve``: ``POST /api/rulesets/<slug>/resolve``;
* ``engine floor``: the same request without Django: table settings merged, parsed, resolved,
  narrated, turned into the API's data and JSON-encoded (``rulesets.core.request``).

Targets (issue 18): htmx resolve and live update ≤ 8× the bare view, permalink ≤ 25×, API
resolve ≤ 1.5× its floor.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import statistics
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.test import Client

SEED, NAME = "__seed__", "__name__"  # placeholders, replaced on every call (urlencode leaves them)
TARGETS = {"htmx resolve": 8.0, "live update": 8.0, "permalink": 25.0}
API_TARGET = 1.5
_ADJUST_LINE = re.compile(r'class="[^"]*\badjust-line\b[^"]*"[^>]*data-key="([^"]*)"[^>]*data-row="([^"]*)"')


def htmx_post(client: Client, url: str, pairs: list[tuple[str, str]] | str, **headers: str) -> Any:
    """What htmx sends for a form: an urlencoded body (not the test client's default multipart);
    ``pairs`` already encoded is sent as it is (the timed calls encode nothing)."""
    body = pairs if isinstance(pairs, str) else urlencode(pairs)
    return client.post(url, body, content_type="application/x-www-form-urlencoded", HTTP_HX_REQUEST="true", **headers)


def example_form(ruleset: Any, request: dict[str, Any], seed: int = 42) -> Any:
    """A worked example's request as a page's form posts it (a QueryDict): the whole scenario (a
    request may leave out a field that defaults to true, which an absent checkbox would turn off),
    its typed dice, ``seed``."""
    from calculator.forms import permalink_query
    from rulesets.core.schema import parse, to_data

    whole = to_data(parse(ruleset.scenario_type, request["scenario"]))
    return permalink_query({"scenario": whole, "dice": request.get("dice", {})}, seed)


def adjusted(html: str) -> str:
    """The ``_adjusted`` value estoc.js sends with a live change: ``key:row`` of each line shown."""
    return ",".join(f"{key}:{row}" for key, row in _ADJUST_LINE.findall(html))


def page_requests(client: Client) -> dict[str, dict[str, Callable[[], Any]]]:
    """slug → {"htmx resolve", "live update", "permalink", "API resolve", "engine floor"}: each a
    call that answers 200 (checked once here)."""
    from calculator import services
    from calculator.views import page_path
    from rulesets.core import request as core_request
    from rulesets.core.registry import load_all

    out: dict[str, dict[str, Callable[[], Any]]] = {}
    for slug, ruleset in load_all().items():
        example = ruleset.examples()[0]
        form = example_form(ruleset, example.request)
        url = page_path(slug)
        pairs = [(k, v) for k, vs in form.lists() for v in vs]
        link = htmx_post(client, url, pairs)["HX-Push-Url"]
        page = client.get(link).content.decode()
        # a new seed on every click (the table's case: same scene, a new roll)
        resolve_template = urlencode([(k, SEED if k == "seed" else v) for k, v in pairs])
        # a name typed: a new scene on every live change (no cache of a scene can answer it), and the
        # first « Ajuster » line of the page redrawn (as when a number behind « Ajuster » is typed)
        name = next(k for k, _v in pairs if k.endswith("name"))
        live = [(k, NAME if k == name else v) for k, v in pairs] + [("_live", "1")]
        lines = adjusted(page).split(",")
        if lines[0]:
            live.append(("_adjusted", lines[0]))
        live_template = urlencode(live)
        counter = itertools.count(1)
        body = json.dumps(example.request)
        payload = example.request
        merged = services.with_table_settings(ruleset=ruleset, payload=payload)

        def floor(r: Any = ruleset, m: dict[str, Any] = merged) -> str:
            return json.dumps(core_request.result_data(core_request.resolve(r, m)))

        def resolve_call(u: str = url, t: str = resolve_template, n: Any = counter) -> Any:
            return htmx_post(client, u, t.replace(SEED, str(next(n))))

        def live_call(u: str = url, t: str = live_template, n: Any = counter) -> Any:
            return htmx_post(client, u, t.replace(NAME, f"Banc {next(n)}"), HTTP_HX_TARGET="live")

        calls: dict[str, Callable[[], Any]] = {
            "htmx resolve": resolve_call,
            "live update": live_call,
            "permalink": lambda u=link: client.get(u),
            "first visit": lambda u=url: client.get(u),
            "API resolve": lambda s=slug, b=body: client.post(
                f"/api/rulesets/{s}/resolve", b, content_type="application/json"
            ),
            "engine floor": floor,
        }
        for name, call in calls.items():
            answer = call()
            status = getattr(answer, "status_code", 200)
            if status != 200:
                raise SystemExit(f"{slug} {name} answers {status}: fix the benchmark first")
        out[slug] = calls
    return out


def interleaved(
    views: dict[str, Callable[[], Any]], rounds: int, warmup: int = 10, seed: int = 18
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Each view called ``warmup`` times, then ``rounds`` rounds of every view once, in a shuffled
    order each round; the samples in ms, per view: wall-clock time and this thread's CPU time."""
    names = list(views)
    for _ in range(warmup):
        for name in names:
            views[name]()
    rng = random.Random(seed)
    wall: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(rounds):
        rng.shuffle(names)
        for name in names:
            fn = views[name]
            start, start_cpu = time.perf_counter(), time.thread_time()
            fn()
            cpu[name].append((time.thread_time() - start_cpu) * 1000)
            wall[name].append((time.perf_counter() - start) * 1000)
    return wall, cpu


def summary(wall: list[float], cpu: list[float]) -> dict[str, float]:
    ordered = sorted(wall)
    return {
        "cpu_median_ms": round(statistics.median(cpu), 3),
        "median_ms": round(statistics.median(ordered), 3),
        "p95_ms": round(ordered[max(0, -(-len(ordered) * 95 // 100) - 1)], 3),
    }


def run(client: Client, rounds: int) -> dict[str, Any]:
    """The latency report: per view its medians (CPU and wall clock) and p95, its ratios and verdict.

    The verdicts are on the ratios of **CPU time** (this thread's, ``time.thread_time``): what a
    request costs the server, the stuff of capacity, and what a shared machine does not blur (a
    process waiting for a core counts in the wall clock, not in its CPU time). The wall-clock
    ratios are reported beside them."""
    requests = page_requests(client)
    views: dict[str, Callable[[], Any]] = {"bare view": lambda: client.get("/bench/bare/")}
    for slug, calls in requests.items():
        for name, call in calls.items():
            views[f"{slug} {name}"] = call
    started = time.monotonic()
    wall, cpu = interleaved(views, rounds)
    bare_cpu = statistics.median(cpu["bare view"])
    bare_wall = statistics.median(wall["bare view"])

    def row_of(view: str) -> dict[str, Any]:
        return summary(wall[view], cpu[view])

    report: dict[str, Any] = {
        "method": f"{rounds} rounds, every view once per round in a shuffled order; medians; "
        "verdicts on the CPU-time ratios",
        "seconds": round(time.monotonic() - started, 1),
        "bare view": row_of("bare view"),
        "pages": {},
    }
    verdicts: list[bool] = []
    worst: dict[str, float] = {}
    for slug in requests:
        rows: dict[str, Any] = {}
        for name in ("htmx resolve", "live update", "permalink"):
            row = row_of(f"{slug} {name}")
            ratio = row["cpu_median_ms"] / bare_cpu
            row.update(
                ratio_to_bare=round(ratio, 2),
                wall_ratio_to_bare=round(row["median_ms"] / bare_wall, 2),
                target=f"≤ {TARGETS[name]:g}× bare",
                met=ratio <= TARGETS[name],
            )
            verdicts.append(row["met"])
            worst[name] = max(worst.get(name, 0.0), ratio)
            rows[name] = row
        visit = row_of(f"{slug} first visit")  # the page opened (no target: reported for the load mix)
        visit["ratio_to_bare"] = round(visit["cpu_median_ms"] / bare_cpu, 2)
        rows["first visit"] = visit
        api = row_of(f"{slug} API resolve")
        floor = row_of(f"{slug} engine floor")
        ratio = api["cpu_median_ms"] / floor["cpu_median_ms"]
        rows["API resolve"] = {
            **api,
            "engine_floor_cpu_median_ms": floor["cpu_median_ms"],
            "engine_floor_median_ms": floor["median_ms"],
            "ratio_to_floor": round(ratio, 2),
            "wall_ratio_to_floor": round(api["median_ms"] / floor["median_ms"], 2),
            "ratio_to_bare": round(api["cpu_median_ms"] / bare_cpu, 2),
            "target": f"≤ {API_TARGET:g}× floor",
            "met": ratio <= API_TARGET,
        }
        verdicts.append(rows["API resolve"]["met"])
        worst["API resolve / floor"] = max(worst.get("API resolve / floor", 0.0), ratio)
        report["pages"][slug] = rows
    report["worst_ratio"] = {k: round(v, 2) for k, v in worst.items()}
    report["met"] = all(verdicts)
    return report
