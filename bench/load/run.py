"""Estoc load test: ``make load`` (or ``python bench/load/run.py``). Figures for docs/reliability.md.

Loopback only, bounded in time (about 4 minutes with the defaults):

1. prepares a dedicated PostgreSQL database (``estoc_load``: created if missing, migrated, fixtures
   loaded), collects the static files and starts gunicorn as the Dockerfile does, 4 workers, on
   127.0.0.1 (``bench/server.py``: DEBUG off, throw-away SECRET_KEY, SECURE=0, REDIS_URL, API_RATE
   raised, the page, resolve and share limits off);
2. builds the request mix from each ruleset's worked examples (``rulesets/*/examples.py``), for the
   five rule systems and the Féerie Action page: full page loads, htmx live updates and htmx
   resolves (POSTs with a CSRF cookie/token pair), API resolves, API odds, permalink pages (``?…&r=1``) and
   short links (``/r/<id>``, created beforehand); every request is sent once and must answer 200;
3. runs wrk (``bench/load/mix.lua``) for 60 s with 50 connections on 2 threads, after a 5 s warm-up:
   back-to-back requests, the server's capacity; then 60 s of 50 users who each wait 1 to 3 s
   between requests (Python threads, see ``users()``);
4. runs 15 s at each concurrency 1, 5, 10, 25, 50 on the resolve requests only (htmx and API) and
   draws their p50/p95 against concurrency (``docs/img/latency-concurrency.svg``, plain SVG);
5. stops gunicorn and prints a JSON report (also written to ``artifacts/load/report.json``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench import server  # noqa: E402

HERE = Path(__file__).resolve().parent
OUT = server.ARTIFACTS / "load"
SVG = ROOT / "docs" / "img" / "latency-concurrency.svg"

# relative weight of each kind of request in the mix (per ruleset and per example)
WEIGHTS = {
    "page": 2,  # GET /<slug>/ — the full page, first visit
    "live": 4,  # POST /<slug>/ with _live=1 and HX-Request — the scene, the dice and the odds while typing
    "htmx_resolve": 3,  # POST /<slug>/ with HX-Request — the click on « Résoudre »
    "api_resolve": 2,  # POST /api/rulesets/<slug>/resolve (JSON)
    "api_odds": 1,  # POST /api/rulesets/<slug>/odds (JSON)
    "permalink": 1,  # GET /<slug>/?<form>&r=1 — the permanent link, full page with the result
    "short_link": 1,  # GET /r/<id> — a shared result, read from PostgreSQL
}
RESOLVE_KINDS = ("htmx_resolve", "api_resolve")
# gunicorn's largest request line (the Dockerfile sets it): a longer permalink answers 414, so an
# example whose permalink is longer is left out of the mix (and named in the report)
LIMIT_REQUEST_LINE = 8190


@dataclass
class Req:
    kind: str
    slug: str
    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


def setup_django(env: dict[str, str]) -> None:
    """Import the rulesets in this process (the examples and the form's query format)."""
    for key in ("DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DEBUG", "SECURE", "ALLOWED_HOSTS", "DATABASE_URL"):
        os.environ[key] = env[key]
    import django

    django.setup()


def send(base: str, req: Req, timeout: float = 30.0) -> tuple[int, dict[str, str], bytes, float]:
    parsed = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=timeout)
    try:
        start = time.perf_counter()
        conn.request(req.method, req.path, body=req.body or None, headers=req.headers)
        response = conn.getresponse()
        body = response.read()
        elapsed = (time.perf_counter() - start) * 1000
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body, elapsed
    finally:
        conn.close()


def csrf_pair(base: str) -> tuple[str, str]:
    """A CSRF cookie and a form token that go together, as a browser gets them from a page."""
    status, headers, body, _ = send(base, Req("page", "encore", "GET", "/encore/"))
    assert status == 200, status
    cookie = re.search(r"csrftoken=([^;]+)", headers.get("set-cookie", ""))
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    if cookie is None or token is None:
        raise SystemExit("no CSRF cookie/token on /encore/")
    return cookie.group(1), token.group(1).decode()


def pick(items: tuple[Any, ...], n: int) -> list[Any]:
    """``n`` items spread over the list (the first, the last and evenly between)."""
    if len(items) <= n:
        return list(items)
    step = (len(items) - 1) / (n - 1) if n > 1 else 0
    return [items[round(i * step)] for i in range(n)]


def build(base: str, per_ruleset: int) -> tuple[list[Req], list[dict[str, str]]]:
    """Every request of the mix, each sent once and checked; the examples left out, and why."""
    from calculator.forms import permalink_query
    from calculator.views import page_path
    from rulesets.core.registry import load_all
    from rulesets.core.schema import parse, to_data

    cookie, token = csrf_pair(base)
    form_headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
        "X-CSRFToken": token,
        "Cookie": f"csrftoken={cookie}",
    }
    share_headers = {k: v for k, v in form_headers.items() if k != "HX-Request"}  # the plain « Partager » form
    json_headers = {"Content-Type": "application/json", "Accept": "application/json"}
    out: list[Req] = []
    skipped: list[dict[str, str]] = []
    for slug, ruleset in load_all().items():
        page = page_path(slug)
        usable = []
        for example in ruleset.examples():
            body = json.dumps(example.request, ensure_ascii=False).encode()
            api = Req("api_resolve", slug, "POST", f"/api/rulesets/{slug}/resolve", json_headers, body)
            status, *_ = send(base, api)
            if status != 200:  # a worked example of a refusal (e.g. a forbidden range): not load traffic
                skipped.append({"ruleset": slug, "example": example.key, "why": f"API resolve answers {status}"})
                continue
            usable.append(example)
        fitting = []
        for example in usable:
            request = example.request
            # the whole scenario, as the page's form carries it: an example may leave out a field
            # that defaults to true, which an absent checkbox would turn off
            whole = to_data(parse(ruleset.scenario_type, request["scenario"]))
            form = permalink_query({"scenario": whole, "dice": request.get("dice", {})}, request.get("seed", 42))
            line = len(f"GET {page}?{form.urlencode()}&r=1 HTTP/1.1")
            if line > LIMIT_REQUEST_LINE:
                skipped.append(
                    {
                        "ruleset": slug,
                        "example": example.key,
                        "why": f"request line {line} bytes > {LIMIT_REQUEST_LINE}",
                    }
                )
                continue
            fitting.append((example, form))
        for example, form in pick(tuple(fitting), per_ruleset):
            request = example.request
            body = json.dumps(request, ensure_ascii=False).encode()
            resolve_form = form.copy()
            resolve_form["csrfmiddlewaretoken"] = token
            live_form = resolve_form.copy()
            live_form["_live"] = "1"  # what the fields' hx-post adds (hx-vals)
            htmx = Req("htmx_resolve", slug, "POST", page, form_headers, resolve_form.urlencode().encode())
            status, headers, content, _ = send(base, htmx)
            if status != 200 or b'id="result"' not in content or "hx-push-url" not in headers:
                skipped.append({"ruleset": slug, "example": example.key, "why": f"htmx resolve answers {status}"})
                continue
            link = headers["hx-push-url"]
            share_form = urllib.parse.urlencode(
                {"ruleset": slug, "q": link.split("?", 1)[1], "csrfmiddlewaretoken": token}
            ).encode()
            status, headers, *_ = send(base, Req("share", slug, "POST", "/r/", share_headers, share_form))
            if status != 303:
                skipped.append({"ruleset": slug, "example": example.key, "why": f"share answers {status}"})
                continue
            short = urllib.parse.urlsplit(headers["location"]).path
            out += [
                Req("page", slug, "GET", page),
                Req("live", slug, "POST", page, {**form_headers, "HX-Target": "live"}, live_form.urlencode().encode()),
                htmx,
                Req("api_resolve", slug, "POST", f"/api/rulesets/{slug}/resolve", json_headers, body),
                Req("api_odds", slug, "POST", f"/api/rulesets/{slug}/odds", json_headers, body),
                Req("permalink", slug, "GET", link),
                Req("short_link", slug, "GET", short),
            ]
    for req in out:  # every request of the mix answers 200 before the load starts
        status, *_ = send(base, req)
        if status != 200:
            raise SystemExit(f"{req.kind} {req.method} {req.path[:120]} answers {status}: fix the mix first")
    return out, skipped


def unloaded(base: str, reqs: list[Req], passes: int) -> dict[str, dict[str, float]]:
    """Each request sent alone ``passes`` times: the latency per kind without concurrency."""
    samples: dict[str, list[float]] = {}
    for _ in range(passes):
        for req in reqs:
            samples.setdefault(req.kind, []).append(send(base, req)[3])
    return {
        kind: {"median_ms": round(statistics.median(v), 1), "max_ms": round(max(v), 1), "n": len(v)}
        for kind, v in samples.items()
    }


def lua_string(data: bytes) -> str:
    out = []
    for b in data:
        if 32 <= b < 127 and b not in (34, 92):
            out.append(chr(b))
        else:
            out.append(f"\\{b:03d}")
    return '"' + "".join(out) + '"'


def write_lua(path: Path, reqs: list[Req], weights: dict[str, int], seed: int = 9) -> Counter[str]:
    shuffled = weighted(reqs, weights)
    random.Random(seed).shuffle(shuffled)
    lines = ["return {"]
    for r in shuffled:
        headers = ", ".join(f"[{lua_string(k.encode())}] = {lua_string(v.encode())}" for k, v in r.headers.items())
        body = lua_string(r.body) if r.body else "nil"
        lines.append(
            f"  {{kind = {lua_string(r.kind.encode())}, method = {lua_string(r.method.encode())}, "
            f"path = {lua_string(r.path.encode())}, headers = {{{headers}}}, body = {body}}},"
        )
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="latin-1")
    return Counter(r.kind for r in shuffled)


def wrk(base: str, requests_file: Path, connections: int, threads: int, seconds: int) -> dict[str, Any]:
    command = [
        "wrk",
        f"-t{min(threads, connections)}",
        f"-c{connections}",
        f"-d{seconds}s",
        "--timeout",
        "5s",
        "-s",
        str(HERE / "mix.lua"),
        base,
        "--",
        str(requests_file),
    ]
    server.log(" ".join(command))
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    match = re.search(r"@@WRK-JSON@@\n(.*)\n@@END@@", done.stdout, re.S)
    if done.returncode != 0 or match is None:
        raise SystemExit(f"wrk failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    raw = json.loads(match.group(1))
    seconds_run = raw["duration_us"] / 1e6
    p = raw["latency_us"]["percentiles"]
    errors = raw["errors"]
    return {
        "connections": connections,
        "threads": min(threads, connections),
        "seconds": round(seconds_run, 1),
        "requests": raw["requests"],
        "requests_per_s": round(raw["requests"] / seconds_run, 1),
        "latency_ms": {
            "p50": round(p["50"] / 1000, 1),
            "p75": round(p["75"] / 1000, 1),
            "p90": round(p["90"] / 1000, 1),
            "p95": round(p["95"] / 1000, 1),
            "p99": round(p["99"] / 1000, 1),
            "p99.9": round(p["99.9"] / 1000, 1),
            "max": round(raw["latency_us"]["max"] / 1000, 1),
            "mean": round(raw["latency_us"]["mean"] / 1000, 1),
        },
        "non_2xx_3xx": errors["status"],
        "socket_errors": {k: errors[k] for k in ("connect", "read", "write", "timeout")},
        "statuses": dict(sorted(raw["statuses"].items())),
        "megabytes": round(raw["bytes"] / 1e6, 1),
    }


def weighted(reqs: list[Req], weights: dict[str, int]) -> list[Req]:
    return [r for r in reqs for _ in range(weights.get(r.kind, 0))]


def nearest_rank(ordered: list[float], q: float) -> float:
    return ordered[max(0, int(-(-len(ordered) * q // 100)) - 1)] if ordered else 0.0


def users(base: str, mix: list[Req], count: int, seconds: int, think_ms: int) -> dict[str, Any]:
    """``count`` users for ``seconds``: each waits ``think_ms`` (± 50 %, uniform), then opens a
    connection, sends a request of the mix and reads the answer, and so on.

    Python threads rather than wrk: wrk's ``delay()`` waits on a connection already open, so its
    think time is a silent connection, which a browser does not leave; behind sync workers (the
    Dockerfile's before gthread) each such connection held a whole worker.
    """
    deadline = time.monotonic() + seconds
    latencies: list[float] = []
    statuses: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    lock = threading.Lock()

    def user(i: int) -> None:
        rng = random.Random(i)
        while True:
            time.sleep(rng.uniform(think_ms / 2, think_ms * 3 / 2) / 1000)
            if time.monotonic() >= deadline:
                return
            try:
                status, _, _, ms = send(base, rng.choice(mix), timeout=10)
            except (OSError, http.client.HTTPException) as exc:
                with lock:
                    errors[type(exc).__name__] += 1
                continue
            with lock:
                latencies.append(ms)
                statuses[str(status)] += 1

    server.log(f"{count} users for {seconds} s, think time {think_ms} ms ± 50 % (Python threads)")
    started = time.monotonic()
    pool = [threading.Thread(target=user, args=(i,), daemon=True) for i in range(count)]
    for t in pool:
        t.start()
    for t in pool:
        t.join(timeout=seconds + 30)
    server.log(f"users done in {time.monotonic() - started:.0f} s (the last ones finish their wait)")
    elapsed = float(seconds)  # requests are started within the window only
    ordered = sorted(latencies)
    return {
        "users": count,
        "think_ms": f"uniform {think_ms // 2}-{think_ms * 3 // 2}",
        "seconds": round(elapsed, 1),
        "requests": len(ordered),
        "requests_per_s": round(len(ordered) / elapsed, 1),
        "latency_ms": {f"p{q:g}": round(nearest_rank(ordered, q), 1) for q in (50, 75, 90, 95, 99, 99.9)}
        | {
            "max": round(ordered[-1], 1) if ordered else 0.0,
            "mean": round(statistics.fmean(ordered), 1) if ordered else 0.0,
        },
        "non_2xx_3xx": sum(v for k, v in statuses.items() if not k.startswith(("2", "3"))),
        "socket_errors": dict(errors),
        "statuses": dict(sorted(statuses.items())),
    }


def svg_chart(points: list[dict[str, Any]], target_ms: float, title: str, note: str) -> str:
    """Resolve latency (p50, p95) against concurrency, as a small self-contained SVG."""
    width, height = 680, 400
    left, right, top, bottom = 64, 56, 64, 64
    xs = [p["connections"] for p in points]
    p50 = [p["latency_ms"]["p50"] for p in points]
    p95 = [p["latency_ms"]["p95"] for p in points]
    top_value = max([*p95, target_ms]) * 1.12
    magnitude = 10 ** max(0, len(str(int(top_value))) - 1)
    step = next(s * magnitude for s in (0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10) if top_value / (s * magnitude) <= 8)
    y_max = step * -(-top_value // step)
    plot_w, plot_h = width - left - right, height - top - bottom
    x_max = max(xs)

    def x(value: float) -> float:
        return left + plot_w * value / x_max

    def y(value: float) -> float:
        return top + plot_h * (1 - value / y_max)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'font-family="DejaVu Sans, Arial, sans-serif" font-size="12" role="img" aria-label="{title}">',
        f"<title>{title}</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">{title}</text>',
        *(
            f'<text x="{width / 2}" y="{40 + 14 * i}" text-anchor="middle" fill="#555" font-size="11">{line}</text>'
            for i, line in enumerate(note.split("\n"))
        ),
    ]
    tick = 0.0
    while tick <= y_max + 1e-9:
        parts.append(
            f'<line x1="{left}" y1="{y(tick):.1f}" x2="{width - right}" y2="{y(tick):.1f}" stroke="#e5e5e5"/>'
            f'<text x="{left - 8}" y="{y(tick) + 4:.1f}" text-anchor="end" fill="#333">{tick:g}</text>'
        )
        tick += step
    for value in xs:
        parts.append(
            f'<line x1="{x(value):.1f}" y1="{top + plot_h}" x2="{x(value):.1f}" y2="{top + plot_h + 5}" stroke="#333"/>'
            f'<text x="{x(value):.1f}" y="{top + plot_h + 19}" text-anchor="middle" fill="#333">{value}</text>'
        )
    parts += [
        f'<line x1="{left}" y1="{top + plot_h}" x2="{width - right}" y2="{top + plot_h}" stroke="#333"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#333"/>',
        f'<text x="{left + plot_w / 2}" y="{height - 22}" text-anchor="middle">connexions simultanées (wrk -c)</text>',
        f'<text transform="translate(16 {top + plot_h / 2}) rotate(-90)" text-anchor="middle">latence (ms)</text>',
        f'<line x1="{left}" y1="{y(target_ms):.1f}" x2="{width - right}" y2="{y(target_ms):.1f}" '
        f'stroke="#c0392b" stroke-dasharray="6 4"/>',
        f'<text x="{width - right - 4}" y="{y(target_ms) - 6:.1f}" text-anchor="end" fill="#c0392b">'
        f"objectif p95 {target_ms:g} ms</text>",
    ]

    def shown(value: float) -> str:
        return f"{value:.0f}" if value >= 100 else f"{value:g}"

    for values, colour, label, dy in ((p50, "#2471a3", "p50", 16), (p95, "#d68910", "p95", -7)):
        path = " ".join(f"{x(a):.1f},{y(b):.1f}" for a, b in zip(xs, values))
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.5"/>')
        for a, b in zip(xs, values):
            parts.append(
                f'<circle cx="{x(a):.1f}" cy="{y(b):.1f}" r="3.5" fill="{colour}"><title>{label} à {a} : {b} ms'
                f"</title></circle>"
                f'<text x="{x(a) + 6:.1f}" y="{y(b) + dy:.1f}" fill="{colour}" font-size="11">{shown(b)}</text>'
            )
    legend_y = top + 10
    for i, (colour, label) in enumerate((("#2471a3", "p50"), ("#d68910", "p95"))):
        lx = left + 12 + i * 70
        parts.append(
            f'<line x1="{lx}" y1="{legend_y}" x2="{lx + 22}" y2="{legend_y}" stroke="{colour}" stroke-width="2.5"/>'
            f'<text x="{lx + 28}" y="{legend_y + 4}">{label}</text>'
        )
    rps = " · ".join(f"{p['connections']} : {p['requests_per_s']:g} req/s" for p in points)
    parts.append(f'<text x="{width / 2}" y="{height - 6}" text-anchor="middle" fill="#555" font-size="11">{rps}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_chart(report: dict[str, Any], svg: Path) -> str:
    """The chart of ``report["resolve_by_concurrency"]``; its path, relative to the repository."""
    points = report["resolve_by_concurrency"]
    load = float((report.get("machine") or {}).get("loadavg_before", [0])[0])
    note = (
        f"résolutions htmx + API des 6 pages · gunicorn {report.get('workers', 4)} workers, PostgreSQL · "
        f"{report.get('sweep_seconds', 15)} s par point\n"
        f"{report.get('date', time.strftime('%Y-%m-%d'))}, commit {report.get('commit', '?')} · "
        f"2 cœurs, charge {load:.1f} avant la mesure" + (" (machine partagée : préliminaire)" if load > 1.5 else "")
    )
    svg.parent.mkdir(parents=True, exist_ok=True)
    svg.write_text(svg_chart(points, 150, "Estoc : latence des résolutions selon la charge", note))
    return str(svg.relative_to(ROOT) if svg.is_relative_to(ROOT) else svg)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", default=server.DEFAULT_DATABASE)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument(
        "--worker-class", default="gthread", choices=["gthread", "sync"], help="gthread: the Dockerfile's"
    )
    parser.add_argument("--duration", type=int, default=60, help="seconds of the mixed run")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument(
        "--think-ms",
        type=int,
        default=2000,
        help="mean wait of each user between requests in a second mixed run, Python users (0 = no such run)",
    )
    parser.add_argument("--sweep", default="1,5,10,25,50", help="concurrencies of the resolve-only runs ('' = none)")
    parser.add_argument("--sweep-duration", type=int, default=15)
    parser.add_argument("--examples", type=int, default=4, help="worked examples per ruleset in the mix")
    parser.add_argument("--svg", type=Path, default=SVG)
    parser.add_argument("--chart-from", type=Path, help="only redraw the chart from a report.json")
    args = parser.parse_args()
    if args.chart_from:
        print(write_chart(json.loads(args.chart_from.read_text()), args.svg))
        return
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get install -y wrk")

    started = time.monotonic()
    timings: dict[str, float] = {}
    OUT.mkdir(parents=True, exist_ok=True)
    env = server.server_env(server.ensure_database(args.database))
    setup_django(env)
    server.prepare(env)
    timings["prepare_s"] = round(time.monotonic() - started, 1)
    log_path = OUT / "gunicorn.log"
    log_start = log_path.stat().st_size if log_path.exists() else 0
    report: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d"),
        "workers": args.workers,
        "sweep_seconds": args.sweep_duration,
        "machine": {"cores": os.cpu_count(), "loadavg_before": [round(v, 2) for v in os.getloadavg()]},
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
        ).stdout.strip(),
        "working_tree_changed": bool(
            subprocess.run(
                ["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True, cwd=ROOT
            ).stdout.strip()
        ),
        "server": f"gunicorn (Dockerfile's options), {args.workers} {args.worker_class} workers, PostgreSQL {args.database}, "
        "Redis cache, DEBUG off",
    }
    with server.gunicorn(env, workers=args.workers, log_path=log_path, worker_class=args.worker_class) as base:
        t = time.monotonic()
        reqs, skipped = build(base, args.examples)
        report["unloaded_latency_by_kind"] = unloaded(base, reqs, passes=2)
        timings["build_and_unloaded_s"] = round(time.monotonic() - t, 1)
        mix_file = OUT / "requests.lua"
        resolve_file = OUT / "resolve.lua"
        mix = write_lua(mix_file, reqs, WEIGHTS)
        write_lua(resolve_file, reqs, dict.fromkeys(RESOLVE_KINDS, 1))
        report["mix"] = {
            "rulesets": sorted({r.slug for r in reqs}),
            "distinct_requests": len(reqs),
            "weights": WEIGHTS,
            "share_of_requests": {k: f"{100 * v / sum(mix.values()):.0f} %" for k, v in sorted(mix.items())},
            "examples_left_out": skipped,
        }
        if args.warmup:
            wrk(base, mix_file, 10, args.threads, args.warmup)
        t = time.monotonic()
        report["mixed"] = wrk(base, mix_file, args.connections, args.threads, args.duration)
        report["mixed"]["loadavg_after"] = [round(v, 2) for v in os.getloadavg()]
        timings["mixed_s"] = round(time.monotonic() - t, 1)
        if args.think_ms:
            t = time.monotonic()
            report["users_with_think_time"] = users(
                base, weighted(reqs, WEIGHTS), args.connections, args.duration, args.think_ms
            )
            timings["users_with_think_time_s"] = round(time.monotonic() - t, 1)
        sweep = []
        t = time.monotonic()
        for c in [int(v) for v in args.sweep.split(",") if v.strip()]:
            sweep.append(wrk(base, resolve_file, c, args.threads, args.sweep_duration))
        timings["sweep_s"] = round(time.monotonic() - t, 1)
        report["resolve_by_concurrency"] = [
            {k: p[k] for k in ("connections", "requests_per_s", "latency_ms", "non_2xx_3xx", "socket_errors")}
            for p in sweep
        ]
    report["server_log_errors"] = server.server_errors(log_path, log_start)[:20]
    report["machine"]["loadavg_after"] = [round(v, 2) for v in os.getloadavg()]
    if sweep:
        report["chart"] = write_chart(report, args.svg)
    timings["total_s"] = round(time.monotonic() - started, 1)
    report["timings"] = timings
    text = json.dumps(report, indent=2, ensure_ascii=False)
    (OUT / ("report.json" if args.worker_class == "gthread" else f"report-{args.worker_class}.json")).write_text(
        text + "\n"
    )
    print(text)


if __name__ == "__main__":
    main()
