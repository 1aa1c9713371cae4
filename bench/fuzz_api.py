"""API fuzzing: ``make fuzz`` (or ``python bench/fuzz_api.py``). Figures for docs/reliability.md.

Schemathesis (``schemathesis run``) drives every operation of ``/api/openapi.json`` of a live
Estoc (gunicorn, 4 workers, PostgreSQL ``estoc_load``: ``bench/server.py``) with the checks
``not_a_server_error`` (no 5xx) and ``response_schema_conformance`` (every response matches the
schema of its status code in the OpenAPI document):

* phases ``examples``, ``coverage`` (deterministic edge cases: boundaries, wrong types, missing
  fields, other methods and content types) and ``fuzzing`` (Hypothesis, ``--max-examples`` 1000
  generated requests per operation), positive and negative data (``--mode all``);
* ``--continue-on-failure``: a failure does not stop an operation short of its 1000 requests;
* a fixed ``--seed`` so that a run can be replayed.

Reports per operation the requests sent in each phase and the status codes received, then every
failure with its check and the request (as a curl command), and writes
``artifacts/fuzz/summary.json`` (Schemathesis' own JSON report is next to it; its NDJSON events,
every request and response, ≈ 200 MB, are deleted once counted unless ``--keep-events``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import server  # noqa: E402

OUT = server.ARTIFACTS / "fuzz"
CHECKS = "not_a_server_error,response_schema_conformance"


def schemathesis(base: str, args: argparse.Namespace) -> tuple[int, float]:
    executable = shutil.which("schemathesis", path=str(Path(sys.executable).parent)) or "schemathesis"
    command = [
        executable,
        "run",
        f"{base}/api/openapi.json",
        "--checks",
        CHECKS,
        "--max-examples",
        str(args.max_examples),
        "--phases",
        "examples,coverage,fuzzing",
        "--mode",
        "all",
        "--continue-on-failure",
        "--workers",
        str(args.workers),
        "--seed",
        str(args.seed),
        "--request-timeout",
        "30",
        "--generation-database",
        "none",
        "--report",
        "json,ndjson",
        "--report-json-path",
        str(OUT / "schemathesis.json"),
        "--report-ndjson-path",
        str(OUT / "schemathesis.ndjson"),
        "--no-color",
        "--output-truncate",
        "false",
    ]
    if args.include:
        command += ["--include-operation-id-regex", args.include]
    server.log(" ".join(command[1:]))
    started = time.monotonic()
    with (OUT / "schemathesis.log").open("w") as out:
        done = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, timeout=args.timeout, cwd=OUT)
    return done.returncode, time.monotonic() - started


def per_operation(ndjson: Path) -> dict[str, Any]:
    """Requests sent per operation and phase, and the status codes received, from the NDJSON events."""
    requests: dict[str, Counter[str]] = defaultdict(Counter)
    statuses: dict[str, Counter[str]] = defaultdict(Counter)
    modes: dict[str, Counter[str]] = defaultdict(Counter)
    with ndjson.open() as f:
        for line in f:
            event = json.loads(line)
            finished = event.get("ScenarioFinished")
            if not finished:
                continue
            recorder = finished.get("recorder") or {}
            label = recorder.get("label", "?")
            phase = finished.get("phase", "?")
            for case in (recorder.get("cases") or {}).values():
                modes[label][((case.get("value") or {}).get("meta") or {}).get("generation", {}).get("mode", "?")] += 1
            for interaction in (recorder.get("interactions") or {}).values():
                requests[label][phase] += 1
                response = interaction.get("response") or {}
                statuses[label][str(response.get("status_code", "no response"))] += 1
    return {
        label: {
            "requests": sum(requests[label].values()),
            "by_phase": dict(requests[label]),
            "statuses": dict(sorted(statuses[label].items())),
            "generation_modes": dict(modes[label]),
        }
        for label in sorted(requests, key=lambda k: (k.split()[1], k))
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", default=server.DEFAULT_DATABASE)
    parser.add_argument("--max-examples", type=int, default=1000, help="fuzzing phase, per operation")
    parser.add_argument("--workers", default="2", help="schemathesis workers")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--include", default="", help="operation-id regex (default: every operation)")
    parser.add_argument("--timeout", type=int, default=1500, help="hard limit of the schemathesis run, seconds")
    parser.add_argument("--keep-events", action="store_true", help="keep the NDJSON events (≈ 200 MB)")
    args = parser.parse_args()
    started = time.monotonic()
    OUT.mkdir(parents=True, exist_ok=True)
    env = server.server_env(server.ensure_database(args.database))
    server.prepare(env)
    log_path = OUT / "gunicorn.log"
    log_start = log_path.stat().st_size if log_path.exists() else 0
    with server.gunicorn(env, log_path=log_path) as base:
        code, seconds = schemathesis(base, args)
    report = json.loads((OUT / "schemathesis.json").read_text())
    operations = per_operation(OUT / "schemathesis.ndjson")
    if not args.keep_events:  # every request and response: the counts are taken, the failures are in the JSON
        (OUT / "schemathesis.ndjson").unlink()
    summary = {
        "command": report.get("command"),
        "schemathesis": report.get("schemathesis_version"),
        "seed": report.get("seed"),
        "exit_code": code,
        "checks": CHECKS,
        "operations_tested": report.get("operations", {}).get("tested"),
        "test_cases": report.get("test_cases"),
        "operations": operations,
        "failures": report.get("failures", []),
        "errors": report.get("errors"),
        "server_log_errors": server.server_errors(log_path, log_start)[:40],
        "schemathesis_seconds": round(seconds, 1),
        "total_seconds": round(time.monotonic() - started, 1),
        "loadavg_after": [round(v, 2) for v in os.getloadavg()],
    }
    text = json.dumps(summary, indent=2, ensure_ascii=False)
    (OUT / "summary.json").write_text(text + "\n")
    print(text)
    # CI runs this: any failure, error, server error or a schemathesis refusal fails the step
    if summary["failures"] or summary["errors"] or summary["server_log_errors"] or code != 0:
        print("Schemathesis : échec (voir artifacts/fuzz/summary.json).", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
