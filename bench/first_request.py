"""A fresh worker's first request against the same request warm: ``python bench/first_request.py``.

Target (issue 18): the first request a fresh gunicorn worker serves takes at most 3× the same
request warm. Measured live, on loopback, with the start code of the other live measurements
(``bench/server.py``: PostgreSQL database ``estoc_first``, Redis db 10, DEBUG off):

* one gunicorn per mode, each with **one** gthread worker (so the first request is surely the
  fresh worker's), all running side by side. Modes (``--modes``, default ``off,warmup``): ``off``
  (``WARMUP=0``: no warm-up, the Dockerfile before it), ``warmup`` (``WARMUP=1``: each worker runs
  ``calculator/warmup.py`` as it loads the application — what the Dockerfile runs), ``preload``
  (``WARMUP=1`` and ``--preload``: the warm-up runs once in the master and the workers are forked
  from it) and ``preload-only`` (``--preload`` without the warm-up);
* request kinds (``--kinds``), per ruleset: ``page`` (GET the calculator page), ``htmx resolve``
  (« Résoudre »: htmx's POST of the first worked example's whole scenario, seed 42) and ``API
  resolve`` (POST ``/api/rulesets/<slug>/resolve`` with the first worked example);
* for each kind, interleaved over the modes (kind 1 on mode A, on mode B…, kind 2 on mode A…):
  the worker of that mode is stopped (SIGTERM to its pid, which a ``post_worker_init`` hook writes
  once the worker has loaded the application, warm-up included) and the master forks a new one;
  once the new worker says it is ready (plus 0.5 s), the request is sent once — ``first_ms`` — then
  ``--warm`` times more — ``warm_median_ms``. Each request is a new connection (``Connection:
  close``); its time runs from the connection to the response's last byte;
* then ``--idle-warm`` times (default 3) the same request after the same 0.5 s pause as the
  first one had — ``warm_idle_median_ms``: a request that follows a pause costs more than one in a
  back-to-back series whatever the worker's age (on this shared 2-core machine, 3.7 ms against
  1.8 ms for an API resolve), so ``ratio_idle_matched`` (``first_ms / warm_idle_median_ms``) tells
  what is left of the fresh worker's own cost;
* ``--repeat N`` (default 3) does the whole round N times: ``first_ms`` is the median of the N
  first requests, the warm figures the medians of every warm request.

The verdict per kind and mode is ``"met"`` when ``ratio = first_ms / warm_median_ms ≤ 3`` (the
warm requests back to back, as the target is worded); ``verdict_idle_matched`` applies the same
bound to ``ratio_idle_matched``. The overall ``verdict`` (and ``verdict_idle_matched``) is that of
``verdict_mode`` (``warmup``: what the Dockerfile runs) on every kind.
Prints the JSON report on stdout (logs on stderr), also written to
``artifacts/first_request/report.json``. ``run()`` returns the same report for ``bench/run.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import server  # noqa: E402

DATABASE = "estoc_first"
REDIS = "redis://127.0.0.1:6379/10"
OUT = server.ARTIFACTS / "first_request"
TARGET_RATIO = 3.0
PAUSE = 0.5  # seconds between a worker's readiness and its first request (and before each idle-matched one)
MODES: dict[str, tuple[dict[str, str], tuple[str, ...]]] = {
    "off": ({"WARMUP": "0"}, ()),
    "warmup": ({"WARMUP": "1"}, ()),
    "preload": ({"WARMUP": "1"}, ("--preload",)),
    "preload-only": ({"WARMUP": "0"}, ("--preload",)),
}
DEFAULT_MODES = ("off", "warmup")
KINDS = ("page", "htmx resolve", "API resolve")
# a CSRF secret of our own, sent as the cookie and the header (Django compares the two)
CSRF = "firstrequestbenchcsrfsecret00000"
HOOK = '''"""gunicorn hook of bench/first_request.py: tells when a worker has loaded the application."""
import pathlib

READY = pathlib.Path({ready!r})


def post_worker_init(worker):
    (READY / str(worker.pid)).write_text("")
'''

# Run in a subprocess with the server's environment: the requests of every ruleset, as JSON.
DESCRIBE = """
import json
import django

django.setup()
from calculator.forms import permalink_query
from calculator.views import page_path
from rulesets.core.registry import load_all
from rulesets.core.schema import parse, to_data

out = {}
for slug, ruleset in load_all().items():
    example = ruleset.examples()[0]
    whole = to_data(parse(ruleset.scenario_type, example.request["scenario"]))
    form = permalink_query({"scenario": whole, "dice": example.request.get("dice", {})}, 42)
    out[slug] = {
        "page": page_path(slug),
        "form": [[k, v] for k, vs in form.lists() for v in vs],
        "api": json.dumps(example.request),
    }
print(json.dumps(out))
"""


def describe(env: dict[str, str]) -> dict[str, dict[str, Any]]:
    """slug → its page's path, the htmx resolve's form pairs and the API resolve's body."""
    answer = subprocess.run(
        [server.PYTHON, "-c", DESCRIBE], env=env, cwd=ROOT, check=True, capture_output=True, text=True
    )
    return json.loads(answer.stdout.strip().splitlines()[-1])


Request = tuple[str, str, bytes, dict[str, str]]


def requests_of(described: dict[str, dict[str, Any]], kinds: tuple[str, ...]) -> dict[str, Request]:
    """``"<slug> <kind>"`` → (method, path, body, headers)."""
    out: dict[str, Request] = {}
    for slug, d in described.items():
        for kind in kinds:
            if kind == "page":
                out[f"{slug} page"] = ("GET", d["page"], b"", {})
            elif kind == "htmx resolve":
                body = urlencode([(k, v) for k, v in d["form"]]).encode()
                headers = {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "HX-Request": "true",
                    "HX-Target": "calculator",
                    "X-CSRFToken": CSRF,
                    "Cookie": f"csrftoken={CSRF}",
                }
                out[f"{slug} htmx resolve"] = ("POST", d["page"], body, headers)
            elif kind == "API resolve":
                headers = {"Content-Type": "application/json"}
                out[f"{slug} API resolve"] = ("POST", f"/api/rulesets/{slug}/resolve", d["api"].encode(), headers)
            else:
                raise SystemExit(f"unknown request kind {kind!r} (known: {', '.join(KINDS)})")
    return out


def timed_request(base: str, request: Request) -> float:
    """One request on a new connection: ms from the connection to the response's last byte."""
    method, path, body, headers = request
    parts = urlsplit(base)
    start = time.perf_counter()
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)
    try:
        connection.request(method, path, body=body or None, headers={**headers, "Origin": base, "Connection": "close"})
        response = connection.getresponse()
        response.read()
    finally:
        connection.close()
    elapsed = (time.perf_counter() - start) * 1000
    if response.status != 200:
        raise SystemExit(f"{method} {path} answered {response.status}: fix the benchmark first")
    return elapsed


class Worker:
    """The single worker of one gunicorn: its pid (from the hook's files), replaced on demand."""

    def __init__(self, ready: Path) -> None:
        self.ready = ready
        self.seen: set[str] = set()

    def _new_pid(self, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            fresh = {p.name for p in self.ready.iterdir()} - self.seen
            if fresh:
                self.seen |= fresh
                return int(max(fresh, key=lambda name: (self.ready / name).stat().st_mtime))
            time.sleep(0.02)
        raise SystemExit(f"no new gunicorn worker within {timeout:.0f} s ({self.ready})")

    def current(self) -> int:
        files = sorted(self.ready.iterdir(), key=lambda p: p.stat().st_mtime)
        if not files:
            return self._new_pid(60)
        self.seen |= {p.name for p in files}
        return int(files[-1].name)

    def replace(self) -> float:
        """Stop the worker (SIGTERM to its pid only) and wait for the master's new one: seconds until ready."""
        pid = self.current()
        start = time.monotonic()
        os.kill(pid, signal.SIGTERM)
        self._new_pid(120)
        took = time.monotonic() - start
        time.sleep(PAUSE)  # the worker enters its accept loop; the old one's exit settles
        return took


@contextlib.contextmanager
def servers(database_url: str, modes: tuple[str, ...]) -> Iterator[dict[str, tuple[str, Worker]]]:
    """One gunicorn per mode (one worker each), side by side; mode → (base URL, worker)."""
    with contextlib.ExitStack() as stack:
        out: dict[str, tuple[str, Worker]] = {}
        for mode in modes:
            variables, options = MODES[mode]
            folder = OUT / mode
            ready = folder / "ready"
            ready.mkdir(parents=True, exist_ok=True)
            for stale in ready.iterdir():
                stale.unlink()
            hook = folder / "gunicorn_hook.py"
            hook.write_text(HOOK.format(ready=str(ready)))
            env = server.server_env(database_url, REDIS, **variables)
            base = stack.enter_context(
                server.gunicorn(env, workers=1, log_path=folder / "gunicorn.log", extra=(*options, "-c", str(hook)))
            )
            out[mode] = (base, Worker(ready))
        yield out


def run(
    modes: tuple[str, ...] = DEFAULT_MODES,
    kinds: tuple[str, ...] = KINDS,
    warm: int = 10,
    idle_warm: int = 3,
    repeat: int = 3,
    database: str = DATABASE,
    verdict_mode: str = "warmup",
) -> dict[str, Any]:
    """Measure every request kind of every ruleset on a fresh worker of every mode; the report."""
    started = time.monotonic()
    database_url = server.ensure_database(database)
    env = server.server_env(database_url, REDIS)
    server.prepare(env)
    requests = requests_of(describe(env), kinds)
    first: dict[str, dict[str, list[float]]] = {name: {m: [] for m in modes} for name in requests}
    warms: dict[str, dict[str, list[float]]] = {name: {m: [] for m in modes} for name in requests}
    idle: dict[str, dict[str, list[float]]] = {name: {m: [] for m in modes} for name in requests}
    boot: dict[str, list[float]] = {m: [] for m in modes}
    loadavg_before = [round(v, 2) for v in os.getloadavg()]
    logs = {mode: OUT / mode / "gunicorn.log" for mode in modes}
    log_start = {mode: path.stat().st_size if path.exists() else 0 for mode, path in logs.items()}
    with servers(database_url, modes) as running:
        for round_ in range(repeat):
            for name, request in requests.items():
                for mode in modes:
                    base, worker = running[mode]
                    boot[mode].append(worker.replace())
                    first[name][mode].append(timed_request(base, request))
                    warms[name][mode] += [timed_request(base, request) for _ in range(warm)]
                    for _ in range(idle_warm):
                        time.sleep(PAUSE)
                        idle[name][mode].append(timed_request(base, request))
                server.log(
                    f"round {round_ + 1}/{repeat} {name}: "
                    + ", ".join(
                        f"{m} {first[name][m][-1]:.1f} / {statistics.median(warms[name][m][-warm:]):.1f} ms"
                        for m in modes
                    )
                )
    errors = {mode: server.server_errors(path, log_start[mode]) for mode, path in logs.items()}
    results: dict[str, dict[str, Any]] = {}
    for name in requests:
        results[name] = {}
        for mode in modes:
            first_ms = statistics.median(first[name][mode])
            warm_ms = statistics.median(warms[name][mode])
            ratio = first_ms / warm_ms
            results[name][mode] = {
                "first_ms": round(first_ms, 1),
                "warm_median_ms": round(warm_ms, 1),
                "ratio": round(ratio, 2),
                "verdict": "met" if ratio <= TARGET_RATIO else "not met",
                "first_samples_ms": [round(v, 1) for v in first[name][mode]],
            }
            if idle[name][mode]:
                idle_ms = statistics.median(idle[name][mode])
                matched = first_ms / idle_ms
                results[name][mode] |= {
                    "warm_idle_median_ms": round(idle_ms, 1),
                    "ratio_idle_matched": round(matched, 2),
                    "verdict_idle_matched": "met" if matched <= TARGET_RATIO else "not met",
                }
    summary = {
        mode: {
            "worst_ratio": max(results[name][mode]["ratio"] for name in requests),
            "worst_kind": max(requests, key=lambda name, m=mode: results[name][m]["ratio"]),
            "met": sum(results[name][mode]["verdict"] == "met" for name in requests),
            "met_idle_matched": sum(results[name][mode].get("verdict_idle_matched") == "met" for name in requests),
            "of": len(requests),
            "worker_ready_s_median": round(statistics.median(boot[mode]), 2),
        }
        for mode in modes
    }
    overall = overall_idle = None
    if verdict_mode in modes:
        judged = summary[verdict_mode]
        overall = "met" if judged["met"] == judged["of"] else "not met"
        if idle_warm:
            overall_idle = "met" if judged["met_idle_matched"] == judged["of"] else "not met"
    return {
        "target": f"first request of a fresh worker ≤ {TARGET_RATIO:g}× the same request warm",
        "method": (
            "one gunicorn per mode (1 gthread worker, bench/server.py's options), PostgreSQL, Redis, "
            f"DEBUG off; per kind, interleaved over the modes: worker replaced, {PAUSE} s pause, 1 first request, "
            f"{warm} warm back to back, {idle_warm} warm each after a {PAUSE} s pause; "
            f"{repeat} round(s)"
        ),
        "modes": {m: {"env": MODES[m][0], "gunicorn_options": list(MODES[m][1])} for m in modes},
        "verdict_mode": verdict_mode,
        "verdict": overall,
        "verdict_idle_matched": overall_idle,
        "summary": summary,
        "requests": results,
        "server_errors": {m: e for m, e in errors.items() if e},
        "loadavg_before": loadavg_before,
        "loadavg_after": [round(v, 2) for v in os.getloadavg()],
        "seconds": round(time.monotonic() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modes", default=",".join(DEFAULT_MODES), help=f"among {', '.join(MODES)}")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"among {', '.join(KINDS)}")
    parser.add_argument("--warm", type=int, default=10, help="warm requests after the first, per kind")
    parser.add_argument("--idle-warm", type=int, default=3, help="warm requests after a pause, per kind (0: none)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (first_ms is the median over them)")
    parser.add_argument("--database", default=DATABASE)
    parser.add_argument("--verdict-mode", default="warmup", help="the mode the overall verdict is taken from")
    args = parser.parse_args()
    modes = tuple(m for m in args.modes.split(",") if m)
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        raise SystemExit(f"unknown mode(s) {unknown}: {', '.join(MODES)}")
    report = run(
        modes=modes,
        kinds=tuple(k for k in args.kinds.split(",") if k),
        warm=args.warm,
        idle_warm=args.idle_warm,
        repeat=args.repeat,
        database=args.database,
        verdict_mode=args.verdict_mode,
    )
    text = json.dumps(report, indent=2, ensure_ascii=False)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "report.json").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
