"""Render time of a shared result's PNG (issue 19, item 1): ``make share-image``.

The largest share of the worked examples (by stored bytes: feerie-action's sixteen sylphs, the
tallest image) and the smallest, each timed **interleaved**: each round runs every measure once,
in a new shuffled order, and the figures are medians over the rounds (the machine is shared: a
drift hits every measure alike, so the ratios hold within one run).

* ``first render``: ``GET /r/<id>.png`` with the share's images evicted from the cache first: the
  layout, the SVG template, resvg's rendering and the cache write, through the whole middleware
  stack (Django's test client, no network);
* ``cached``: the same request, the PNG in the cache;
* ``revalidated``: the same request with ``If-None-Match``: a 304;
* ``layout + SVG`` and ``resvg only``: the two halves of a first render, without Django's stack.

The cache is the default one: local memory, or Redis when ``REDIS_URL`` is set (the production
set-up: ``REDIS_URL=redis://127.0.0.1:6379/11 make share-image``). One JSON document on
stdout, progress on stderr. ``BENCH_REPEAT`` sets the rounds (default 15).
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import random
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
for _rate in ("PAGE_RATE", "RESOLVE_RATE", "SHARE_RATE"):
    os.environ.setdefault(_rate, "0")  # no limit: the benchmark measures the image, not the limiter
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "calculator.settings")

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from calculator import share_image  # noqa: E402
from calculator.forms import permalink_query  # noqa: E402
from calculator.models import SharedResult  # noqa: E402
from rulesets.core.registry import get, load_all  # noqa: E402


def every_example_share(client: Client) -> list[tuple[str, int, SharedResult]]:
    out = []
    for slug in sorted(load_all()):
        for index, example in enumerate(get(slug).examples()):
            query = permalink_query(
                {"scenario": example.request["scenario"], "dice": example.request.get("dice", {})}, 7
            )
            response = client.post("/r/", {"ruleset": slug, "q": query.urlencode()})
            if response.status_code == 303:
                out.append((slug, index, SharedResult.objects.get(pk=response["Location"].rsplit("/", 1)[1])))
    return out


def evict(shared: SharedResult) -> None:
    cache.delete_many([share_image._key(kind, shared.id) for kind in ("svg", "png")])


def measures(client: Client, shared: SharedResult) -> dict[str, Callable[[], object]]:
    url = f"/r/{shared.id}.png"
    tag = client.get(url)["ETag"]
    svg = share_image.render_svg(shared)

    def first() -> object:
        evict(shared)
        response = client.get(url)
        assert response.status_code == 200
        return response

    def cached() -> object:
        response = client.get(url)
        assert response.status_code == 200
        return response

    def revalidated() -> object:
        response = client.get(url, headers={"If-None-Match": tag})
        assert response.status_code == 304
        return response

    return {
        "first render": first,
        "cached": cached,
        "revalidated": revalidated,
        "layout + SVG": lambda: share_image.render_svg(shared),
        "resvg only": lambda: share_image.render_png(svg),
    }


def run(repeat: int) -> dict[str, Any]:
    client = Client()
    start = time.perf_counter()
    for name in share_image.FONT_FILES:
        share_image.metrics(name)
    font_load_ms = (time.perf_counter() - start) * 1000
    shares = every_example_share(client)
    largest = max(shares, key=lambda s: s[2].size)
    smallest = min(shares, key=lambda s: s[2].size)
    timed: dict[tuple[str, str], Callable[[], object]] = {}
    described = {}
    for label, (slug, index, shared) in (("largest", largest), ("smallest", smallest)):
        for name, fn in measures(client, shared).items():
            timed[(label, name)] = fn
        png = share_image.png_bytes(shared)
        described[label] = {
            "ruleset": slug,
            "example": index,
            "share_bytes": shared.size,
            "story_chars": sum(len(p) for p in shared.story),
            "png_bytes": len(png),
            "png_size": [int.from_bytes(png[16:20]), int.from_bytes(png[20:24])],
        }
    for fn in timed.values():  # warm-up: templates, odds caches, the font metrics
        fn()
    samples: dict[tuple[str, str], list[float]] = {key: [] for key in timed}
    for round_ in range(repeat):
        order = list(timed)
        random.shuffle(order)
        for key in order:
            t = time.perf_counter()
            timed[key]()
            samples[key].append((time.perf_counter() - t) * 1000)
        print(f"round {round_ + 1}/{repeat}", file=sys.stderr)
    report: dict[str, Any] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} CPU (shared with other work: medians, interleaved)",
        "cache": "redis" if os.environ.get("REDIS_URL") else "locmem",
        "rounds": repeat,
        "font_metrics_load_ms": round(font_load_ms, 1),
    }
    for label in described:
        figures = {
            name: {
                "median_ms": round(statistics.median(samples[(label, name)]), 2),
                "min_ms": round(min(samples[(label, name)]), 2),
            }
            for (lab, name) in samples
            if lab == label
        }
        first, cached = figures["first render"]["median_ms"], figures["cached"]["median_ms"]
        report[label] = {
            "share": described[label],
            "timings": figures,
            "first_over_cached": round(first / cached, 1) if cached else None,
        }
    return report


def main() -> None:
    from django.db import connection

    repeat = int(os.environ.get("BENCH_REPEAT", "15"))
    with contextlib.redirect_stdout(sys.stderr):
        old = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            call_command("loadfixtures", verbosity=0)
        cache.clear()
        report = run(repeat)
    finally:
        with contextlib.redirect_stdout(sys.stderr):
            connection.creation.destroy_test_db(old, verbosity=0)
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
