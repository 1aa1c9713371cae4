"""Estoc: mixed-load capacity of two commits, side by side in one run (``make compare``).

    .venv/bin/python bench/compare.py BASE [HEAD] [--rounds 3] [--seconds 20] [--connections 50]

BASE and HEAD are anything ``git rev-parse`` resolves to a commit (``81e3378``, ``main``,
``HEAD``…), or ``WORKTREE``: this working tree as it is, uncommitted changes included (the default
HEAD, to measure before committing). What is measured, and how (issue 18's capacity target):

1. each commit is checked out with ``git worktree add --detach`` under ``/tmp/estoc-compare/``
   (``WORKTREE`` serves the main checkout in place: the files as they are when its workers start);
2. each gets its own PostgreSQL database (``estoc_cmp_<base|head>_<sha>``, dropped and created
   afresh), migrated and loaded with the fixtures by its own code, its own ``collectstatic``
   STATIC_ROOT and its own Redis database (8 and 9, flushed first), then its own gunicorn with the
   Dockerfile's options (4 gthread workers × 4 threads, ``bench/server.py``), started from its
   checkout: PYTHONPATH and the working directory are the checkout, and a ``post_worker_init`` hook
   records where each worker imported ``calculator``, ``rulesets`` and ``bestiary`` from; the run
   stops if any of it comes from elsewhere (the virtualenv's editable install points at the main
   checkout);
3. each server gets the ``make load`` request mix (``bench/load/run.py``: ``build()``, ``WEIGHTS``)
   built by a subprocess that imports that commit's code, against that server (its own CSRF
   cookie and token, its own short links); every request answers 200 on its server before any
   load; the report says whether both mixes are the same requests (tokens and short-link ids
   aside);
4. after a warm-up of each server (``--warmup`` seconds of the mix, results dropped), wrk sends the
   mix back to back (no think time) to one server at a time, in ABBA order — base, head, head,
   base, base, head… — ``--rounds`` pairs of ``--seconds`` each at the same ``--connections`` and
   ``--threads``; both servers stay up, only one is loaded at any moment, so that a slow drift of
   the shared machine weighs on both alike;
5. prints one JSON document on stdout (logs go to stderr), also written to
   ``artifacts/compare/report.json``: each commit's requests/s per run and their median, p95
   latency, non-2xx answers and socket errors; the ratio HEAD/BASE of the median requests/s, each
   pair's own ratio and their median (the noise); the verdict against ``--target`` (2.0:
   "≥ 2× base"), met only if HEAD answered nothing but 2xx/3xx without socket errors; the load
   average before and after; the commits;
6. always cleans up, on error or SIGTERM too: stops both gunicorns, drops both databases, flushes
   both Redis databases, removes the worktrees (``git worktree remove --force``) and the
   STATIC_ROOTs.

About 3 minutes with the defaults: about 30 s of set-up and mix building, 2 × 5 s of warm-up,
6 × 20 s of load. On a busy shared machine the pairs' own ratios show the noise: more, shorter
rounds (``--rounds 6 --seconds 10``) follow a changing load more closely for the same time.
``compare(base, head, **options)`` returns the same report, for ``bench/run.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.parse
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import server  # noqa: E402
from bench.load import run as load  # noqa: E402

OUT = server.ARTIFACTS / "compare"
WORKTREES = Path("/tmp/estoc-compare")
WORKTREE = "WORKTREE"  # the working tree as it is, instead of a commit
REDIS_DB = {"base": 8, "head": 9}
TARGET_RATIO = 2.0
APP_PACKAGES = ("calculator", "rulesets", "bestiary")
NBSP = "\u00a0"
DEFAULTS: dict[str, Any] = {
    "rounds": 3,
    "seconds": 20,
    "connections": 50,
    "threads": 2,
    "warmup": 5,
    "examples": 4,
    "workers": 4,
    "target": TARGET_RATIO,
}

log = server.log


class ArgumentError(ValueError):
    """A bad argument; its message is in French, for the person who typed the command."""


def quoted(text: str) -> str:
    return f"«{NBSP}{text}{NBSP}»"


# -- arguments ----------------------------------------------------------------------------------


def resolve(ref: str, role: str = "BASE", cwd: Path = ROOT) -> str | None:
    """The full sha of ``ref``; None for ``WORKTREE`` (the working tree); ArgumentError otherwise."""
    if ref == WORKTREE:
        return None
    if not ref or ref.startswith("-"):
        raise ArgumentError(f"{role}{NBSP}: {quoted(ref)} n’est pas un nom de commit.")
    done = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"],
        cwd=cwd,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0 or not done.stdout.strip():
        raise ArgumentError(
            f"{role}{NBSP}: commit inconnu {quoted(ref)} (git rev-parse ne le trouve pas dans {cwd}). "
            f"Donnez un commit, une branche, HEAD ou {WORKTREE} (l’arbre de travail tel qu’il est)."
        )
    return done.stdout.strip()


def parse_number(option: str, text: str, minimum: float, kind: type[int] | type[float] = int) -> Any:
    """``text`` as an int (or a float) ≥ ``minimum``, or an ArgumentError in French."""
    try:
        value = kind(text)
    except (TypeError, ValueError):
        value = None
    if value is None or value < minimum or value != value:  # value != value: NaN
        what = "un entier" if kind is int else "un nombre"
        raise ArgumentError(f"{option} doit être {what} supérieur ou égal à {minimum:g} (reçu{NBSP}: {quoted(text)}).")
    return value


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options of ``compare()`` with the defaults filled in; ArgumentError (French) when one is
    unknown or out of range."""
    unknown = sorted(set(options) - set(DEFAULTS))
    if unknown:
        raise ArgumentError(f"option inconnue{NBSP}: {', '.join(quoted(name) for name in unknown)}.")
    merged = {**DEFAULTS, **options}
    minimums = {"rounds": 1, "seconds": 1, "connections": 1, "threads": 1, "warmup": 0, "examples": 1, "workers": 1}
    for name, minimum in minimums.items():
        value = merged[name]
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            raise ArgumentError(
                f"--{name} doit être un entier supérieur ou égal à {minimum} (reçu{NBSP}: {quoted(str(value))})."
            )
    target = merged["target"]
    if not isinstance(target, int | float) or isinstance(target, bool) or not target > 0:
        raise ArgumentError(f"--target doit être un nombre positif (reçu{NBSP}: {quoted(str(target))}).")
    if merged["threads"] > merged["connections"]:
        raise ArgumentError(
            f"--threads ({merged['threads']}) ne peut pas dépasser --connections ({merged['connections']}){NBSP}: "
            "wrk ouvre au moins une connexion par fil."
        )
    return merged


class FrenchParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}{NBSP}: arguments invalides ({message}).\n")


def parse_args(argv: Sequence[str]) -> tuple[str, str, dict[str, Any]]:
    """BASE, HEAD and the options of ``compare()`` from the command line; ArgumentError (French)."""
    parser = FrenchParser(
        prog="bench/compare.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        add_help=True,
    )
    parser.add_argument("base", nargs="?", metavar="BASE", help="le commit de référence")
    parser.add_argument(
        "head", nargs="?", default=WORKTREE, metavar="HEAD", help=f"le commit mesuré ({WORKTREE} par défaut)"
    )
    helps = {
        "rounds": "paires de mesures (ABBA)",
        "seconds": "durée de chaque mesure",
        "connections": "connexions de wrk",
        "threads": "fils de wrk",
        "warmup": "secondes de chauffe de chaque serveur",
        "examples": "exemples par règle dans le mélange",
        "workers": "workers gunicorn",
        "target": "rapport visé HEAD/BASE",
    }
    for name, text in helps.items():
        parser.add_argument(f"--{name}", default=str(DEFAULTS[name]), help=f"{text} ({DEFAULTS[name]})")
    args = parser.parse_args(argv)
    if not args.base:
        raise ArgumentError(
            f"il manque BASE, le commit de référence (par exemple{NBSP}: bench/compare.py 81e3378 {WORKTREE})."
        )
    options: dict[str, Any] = {
        name: parse_number(f"--{name}", getattr(args, name), 0 if name == "warmup" else 1)
        for name in helps
        if name != "target"
    }
    options["target"] = parse_number("--target", args.target, 0, float)
    return args.base, args.head, check_options(options)


# -- the figures --------------------------------------------------------------------------------


def schedule(rounds: int) -> list[str]:
    """Which server each run loads: base, head, head, base, base, head… (ABBA)."""
    order: list[str] = []
    for i in range(rounds):
        order += ["base", "head"] if i % 2 == 0 else ["head", "base"]
    return order


def side_summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One commit's runs: requests/s of each and their median, p95 of each and their median, errors."""
    rps = [r["requests_per_s"] for r in runs]
    p95 = [r["latency_ms"]["p95"] for r in runs]
    return {
        "requests_per_s": rps,
        "median_requests_per_s": round(statistics.median(rps), 1),
        "p95_ms": p95,
        "median_p95_ms": round(statistics.median(p95), 1),
        "p50_ms": [r["latency_ms"]["p50"] for r in runs],
        "non_2xx_3xx": sum(r["non_2xx_3xx"] for r in runs),
        "socket_errors": sum(sum(r["socket_errors"].values()) for r in runs),
        "requests": sum(r["requests"] for r in runs),
    }


def verdict(order: list[str], runs: list[dict[str, Any]], target: float = TARGET_RATIO) -> dict[str, Any]:
    """The ratio HEAD/BASE of the median requests/s, each pair's own ratio, and the verdict.

    ``order[i]`` names the server that ``runs[i]`` loaded. The target is met when the ratio is at
    least ``target`` and HEAD answered only 2xx/3xx, without socket errors (a fast error is not
    capacity).
    """
    if (
        len(order) != len(runs)
        or len(order) % 2
        or sorted(Counter(order).items())
        != [
            ("base", len(order) // 2),
            ("head", len(order) // 2),
        ]
    ):
        raise ValueError("runs must come in base/head pairs")
    by_role = {role: [r for o, r in zip(order, runs) if o == role] for role in ("base", "head")}
    sides = {role: side_summary(by_role[role]) for role in by_role}
    pairs = []
    for i in range(0, len(runs), 2):
        pair = dict(zip(order[i : i + 2], runs[i : i + 2]))
        base_rps = pair["base"]["requests_per_s"]
        pairs.append(round(pair["head"]["requests_per_s"] / base_rps, 3) if base_rps else None)
    base_median = sides["base"]["median_requests_per_s"]
    ratio = round(sides["head"]["median_requests_per_s"] / base_median, 3) if base_median else None
    clean = {role: s["non_2xx_3xx"] == 0 and s["socket_errors"] == 0 for role, s in sides.items()}
    known = [p for p in pairs if p is not None]
    return {
        "target": f"≥{NBSP}{target:g}× base",
        "target_ratio": target,
        "ratio": ratio,
        "met": ratio is not None and ratio >= target and clean["head"],
        "pair_ratios": pairs,
        "pair_ratio_range": [min(known), max(known)] if known else None,
        "median_pair_ratio": round(statistics.median(known), 3) if known else None,
        "clean": clean,
        "base": sides["base"],
        "head": sides["head"],
    }


# -- one side: a checkout, its database, its server ------------------------------------------------


@dataclass
class Side:
    role: str  # "base" or "head"
    ref: str  # as given on the command line
    commit: str | None  # full sha; None: the working tree in place
    root: Path = ROOT
    url: str = ""
    mix: dict[str, Any] = field(default_factory=dict)

    @property
    def tag(self) -> str:
        return self.commit[:8] if self.commit else "worktree"

    @property
    def database(self) -> str:
        return f"estoc_cmp_{self.role}_{self.tag}"

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:6379/{REDIS_DB[self.role]}"

    @property
    def static_root(self) -> Path:
        return WORKTREES / f"static-{self.role}-{self.tag}"

    @property
    def requests_file(self) -> Path:
        return OUT / f"requests-{self.role}.lua"

    @property
    def log_path(self) -> Path:
        return OUT / f"gunicorn-{self.role}.log"

    @property
    def code_report(self) -> Path:
        return WORKTREES / f"served-code-{self.role}-{self.tag}.jsonl"


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def describe(side: Side) -> dict[str, Any]:
    if side.commit is None:
        changed = git("status", "--porcelain", "--untracked-files=no").splitlines()
        return {
            "ref": side.ref,
            "commit": git("rev-parse", "HEAD"),
            "subject": git("log", "-1", "--format=%s", "HEAD"),
            "working_tree": True,
            "uncommitted_files": len(changed),
        }
    return {"ref": side.ref, "commit": side.commit, "subject": git("log", "-1", "--format=%s", side.commit)}


def add_worktree(side: Side) -> None:
    """``git worktree add --detach`` of the side's commit (a leftover of a killed run removed first)."""
    assert side.commit is not None
    path = WORKTREES / f"{side.role}-{side.commit[:12]}"
    if path.exists():
        subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=ROOT, capture_output=True)
        shutil.rmtree(path, ignore_errors=True)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, check=True)
    WORKTREES.mkdir(parents=True, exist_ok=True)
    log(f"git worktree add --detach {path} {side.commit[:12]}")
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(path), side.commit],
        cwd=ROOT,
        check=True,
        stdout=sys.stderr,
        stderr=sys.stderr,
    )
    side.root = path


def remove_worktree(side: Side) -> None:
    if side.root == ROOT:
        return
    assert side.root.parent == WORKTREES, side.root  # never anything but a worktree of this script
    log(f"git worktree remove --force {side.root}")
    subprocess.run(["git", "worktree", "remove", "--force", str(side.root)], cwd=ROOT, check=False)
    shutil.rmtree(side.root, ignore_errors=True)
    subprocess.run(["git", "worktree", "prune"], cwd=ROOT, check=False)


def flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def environment(side: Side) -> dict[str, str]:
    return server.server_env(
        server.database_url(side.database), side.redis_url, root=side.root, static_root=side.static_root
    )


def prepare(side: Side) -> None:
    """A fresh database, the fixtures, the static files and a flushed Redis database, by the side's code."""
    server.reset_database(side.database)
    flush_redis(side.redis_url)
    shutil.rmtree(side.static_root, ignore_errors=True)
    server.prepare(environment(side), root=side.root)


def gunicorn_config(side: Side) -> Path:
    """A gunicorn config file whose only setting is a hook: each worker, once the application is
    loaded, appends to ``side.code_report`` the file of every module of the application it
    imported, so that ``check_served_code`` can tell which checkout it serves."""
    side.code_report.unlink(missing_ok=True)
    path = WORKTREES / f"gunicorn-{side.role}-{side.tag}.conf.py"
    path.write_text(
        "import json, os, sys\n\n\n"
        "def post_worker_init(worker):\n"
        f"    packages = {APP_PACKAGES!r}\n"
        "    files = {\n"
        "        name: getattr(module, '__file__', None)\n"
        "        for name, module in list(sys.modules.items())\n"
        "        if name.split('.')[0] in packages\n"
        "    }\n"
        f"    with open({str(side.code_report)!r}, 'a') as out:\n"
        "        out.write(json.dumps({'pid': os.getpid(), 'files': files}) + '\\n')\n"
    )
    return path


def outside(files: dict[str, str | None], root: Path) -> list[str]:
    """The modules of ``files`` (name → file) that were not imported from ``root``."""
    return sorted(name for name, file in files.items() if file is None or not Path(file).resolve().is_relative_to(root))


def check_served_code(side: Side, workers: int, timeout: float = 30.0) -> str:
    """Wait for every worker's report of its modules; stop unless all come from the side's checkout."""
    deadline = time.monotonic() + timeout
    while True:
        lines = side.code_report.read_text().splitlines() if side.code_report.exists() else []
        if len(lines) >= workers:
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"{side.role}: {len(lines)} of {workers} workers reported their code within {timeout:g} s")
        time.sleep(0.2)
    root = side.root.resolve()
    count = 0
    for line in lines:
        report = json.loads(line)
        files = report["files"]
        wrong = outside(files, root)
        if wrong or "calculator" not in files:
            raise SystemExit(
                f"{side.role}: worker {report['pid']} does not serve {root}: "
                + ", ".join(f"{name} from {files.get(name)}" for name in (wrong or ["calculator"])[:5])
            )
        count = max(count, len(files))
    return f"{len(lines)} workers, {count} modules of {', '.join(APP_PACKAGES)} each, all from {root}"


def build_mix(side: Side, examples: int) -> dict[str, Any]:
    """The request mix against the side's server, built by a subprocess that imports the side's code."""
    mix_json = OUT / f"mix-{side.role}.json"
    command = [
        server.PYTHON,
        str(Path(__file__).resolve()),
        "--build-mix",
        str(side.root),
        side.url,
        str(side.requests_file),
        str(mix_json),
        str(examples),
    ]
    done = subprocess.run(command, env=environment(side), cwd=side.root, stdout=sys.stderr, stderr=sys.stderr)
    if done.returncode != 0:
        raise SystemExit(f"{side.role}: the request mix could not be built (exit status {done.returncode}, see above)")
    return json.loads(mix_json.read_text())


def canonical_path(path: str) -> str:
    """``path`` with its query's parameters sorted by name (the values of a repeated name keep their
    order): a permalink's parameters come in an order that can differ from one server process to
    the next (set iteration under hash randomization), which is the same request."""
    if "?" not in path:
        return path
    route, query = path.split("?", 1)
    pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
    return f"{route}?{urllib.parse.urlencode(sorted(pairs, key=lambda pair: pair[0]))}"


def normalized(reqs: list[load.Req]) -> list[str]:
    """The requests with what differs between two servers of the same code replaced: the CSRF token
    and cookie, the short links' ids, the order of a query's or a form's parameters."""
    out = []
    for r in reqs:
        token = r.headers.get("X-CSRFToken")
        cookie = r.headers.get("Cookie")
        path = "/r/<id>" if r.kind == "short_link" else canonical_path(r.path)
        body = r.body.decode("utf-8", "replace")
        headers = dict(r.headers)
        if headers.get("Content-Type") == "application/x-www-form-urlencoded":
            body = canonical_path("?" + body)[1:]  # the same order-blind form as a query
        if token:
            body = body.replace(urllib.parse.quote(token, safe=""), "<token>").replace(token, "<token>")
            headers["X-CSRFToken"] = "<token>"
        if cookie:
            headers["Cookie"] = "csrftoken=<cookie>"
        out.append(json.dumps([r.kind, r.slug, r.method, path, sorted(headers.items()), body], ensure_ascii=False))
    return sorted(out)


def build_mix_child(root: Path, url: str, requests_file: Path, mix_json: Path, examples: int) -> None:
    """In the subprocess: import ``root``'s code (not the main checkout's), build the mix against
    ``url``, write wrk's request file and a summary with the normalized requests."""
    main_paths = {str(ROOT), str(ROOT / "bench")}
    sys.path[:] = [str(root), *(p for p in sys.path if p not in main_paths and p != str(root))]
    load.setup_django(dict(os.environ))
    reqs, skipped = load.build(url, examples)
    files = {
        name: getattr(module, "__file__", None)
        for name, module in list(sys.modules.items())
        if name.split(".")[0] in APP_PACKAGES
    }
    wrong = outside(files, root.resolve())
    if wrong:
        raise SystemExit(f"the mix was built with code from outside {root}: {', '.join(wrong[:5])}")
    counts = load.write_lua(requests_file, reqs, load.WEIGHTS)
    requests = normalized(reqs)
    mix_json.write_text(
        json.dumps(
            {
                "rulesets": sorted({r.slug for r in reqs}),
                "distinct_requests": len(reqs),
                "share_of_requests": {k: f"{100 * v / sum(counts.values()):.0f} %" for k, v in sorted(counts.items())},
                "examples_left_out": skipped,
                "fingerprint": hashlib.sha256("\n".join(requests).encode()).hexdigest()[:16],
                "requests": requests,
            },
            ensure_ascii=False,
            indent=1,
        )
    )


def mix_report(sides: list[Side]) -> dict[str, Any]:
    base, head = (s.mix for s in sides)
    only_base = Counter(base["requests"]) - Counter(head["requests"])
    only_head = Counter(head["requests"]) - Counter(base["requests"])
    return {
        "same_requests": not only_base and not only_head,
        "only_in_base": sum(only_base.values()),
        "only_in_head": sum(only_head.values()),
        "distinct_requests": {s.role: s.mix["distinct_requests"] for s in sides},
        "rulesets": head["rulesets"],
        "weights": load.WEIGHTS,
        "share_of_requests": head["share_of_requests"],
        "examples_left_out": {s.role: s.mix["examples_left_out"] for s in sides},
    }


def remove_hook_files(side: Side) -> None:
    for path in (side.code_report, WORKTREES / f"gunicorn-{side.role}-{side.tag}.conf.py"):
        path.unlink(missing_ok=True)


def cleanup(side: Side) -> None:
    """Drop the side's database, flush its Redis database, remove its worktree and static files;
    each step even when another fails."""
    for step, action in (
        ("dropdb", lambda: server.drop_database(side.database)),
        ("redis flush", lambda: flush_redis(side.redis_url)),
        ("worktree", lambda: remove_worktree(side)),
        ("static files", lambda: shutil.rmtree(side.static_root, ignore_errors=True)),
        ("hook files", lambda: remove_hook_files(side)),
    ):
        try:
            action()
        except Exception as exc:  # cleaning up: report the failure and go on
            log(f"{side.role}: {step} failed during cleanup: {exc}")
    with contextlib.suppress(OSError):
        WORKTREES.rmdir()  # only when empty


# -- the run ------------------------------------------------------------------------------------


def compare(base: str, head: str = WORKTREE, **options: Any) -> dict[str, Any]:
    """Measure BASE and HEAD side by side (see the module's docstring); the report.

    ``options``: ``rounds``, ``seconds``, ``connections``, ``threads``, ``warmup``, ``examples``,
    ``workers``, ``target`` (defaults in ``DEFAULTS``). ArgumentError (French) on a bad argument.
    """
    settings = check_options(options)
    sides = [Side("base", base, resolve(base, "BASE")), Side("head", head, resolve(head, "HEAD"))]
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get install -y wrk")
    started = time.monotonic()
    timings: dict[str, float] = {}
    OUT.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"commits": {s.role: describe(s) for s in sides}}
    order = schedule(settings["rounds"])
    runs: list[dict[str, Any]] = []
    with contextlib.ExitStack() as stack:
        for side in sides:
            stack.callback(cleanup, side)
            if side.commit is not None:
                add_worktree(side)
        with ThreadPoolExecutor(max_workers=2) as pool:  # mostly waiting on PostgreSQL: both at once
            for future in [pool.submit(prepare, side) for side in sides]:
                future.result()
        timings["prepare_s"] = round(time.monotonic() - started, 1)
        served = {}
        for side in sides:
            side.log_path.write_bytes(b"")
            side.url = stack.enter_context(
                server.gunicorn(
                    environment(side),
                    workers=settings["workers"],
                    log_path=side.log_path,
                    extra=("--config", str(gunicorn_config(side))),
                    root=side.root,
                )
            )
            served[side.role] = check_served_code(side, settings["workers"])
            log(f"{side.role} ({side.ref}): {served[side.role]}")
        t = time.monotonic()
        for side in sides:
            side.mix = build_mix(side, settings["examples"])
        report["mix"] = mix_report(sides)
        if not report["mix"]["same_requests"]:
            log(
                f"the two mixes differ: {report['mix']['only_in_base']} requests only in base, "
                f"{report['mix']['only_in_head']} only in head (each is built by its own commit's code)"
            )
        timings["build_s"] = round(time.monotonic() - t, 1)
        by_role = {s.role: s for s in sides}
        c, th = settings["connections"], settings["threads"]
        if settings["warmup"]:
            for side in sides:
                load.wrk(side.url, side.requests_file, c, th, settings["warmup"])
        report["machine"] = {"cores": os.cpu_count(), "loadavg_before": [round(v, 2) for v in os.getloadavg()]}
        t = time.monotonic()
        for i, role in enumerate(order):
            side = by_role[role]
            result = load.wrk(side.url, side.requests_file, c, th, settings["seconds"])
            log(
                f"run {i + 1}/{len(order)} {role}: {result['requests_per_s']} req/s, "
                f"p95 {result['latency_ms']['p95']} ms, non-2xx {result['non_2xx_3xx']}"
            )
            runs.append(result)
            time.sleep(1)  # let the last answers of this run drain before the other server is loaded
        timings["load_s"] = round(time.monotonic() - t, 1)
        report["machine"]["loadavg_after"] = [round(v, 2) for v in os.getloadavg()]
        report["server_log_errors"] = {s.role: server.server_errors(s.log_path)[:20] for s in sides}
        report["served_code"] = served
    timings["total_s"] = round(time.monotonic() - started, 1)
    result = verdict(order, runs, settings["target"])
    report = {
        **{
            k: result[k]
            for k in ("target", "target_ratio", "ratio", "met", "pair_ratios", "pair_ratio_range", "median_pair_ratio")
        },
        **report,
        "clean": result["clean"],
        "base": result["base"],
        "head": result["head"],
        "order": order,
        "runs": [
            {
                "server": role,
                "requests_per_s": r["requests_per_s"],
                "latency_ms": {k: r["latency_ms"][k] for k in ("p50", "p95", "p99")},
                "non_2xx_3xx": r["non_2xx_3xx"],
                "socket_errors": r["socket_errors"],
            }
            for role, r in zip(order, runs)
        ],
        "settings": {
            **settings,
            "server": f"gunicorn, Dockerfile's options: {settings['workers']} gthread workers × "
            f"{os.environ.get('THREADS', '4')} threads, PostgreSQL, Redis cache, DEBUG off",
            "wrk": f"-t{th} -c{c} -d{settings['seconds']}s, back to back, bench/load/mix.lua",
        },
        "timings": timings,
    }
    (OUT / "report.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return report


@contextlib.contextmanager
def sigterm_as_exit() -> Iterator[None]:
    """SIGTERM raises SystemExit, so that the clean-up runs as it does on Ctrl-C."""

    def handler(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--build-mix"]:  # internal: the subprocess of build_mix()
        root, url, requests_file, mix_json, examples = argv[1:]
        build_mix_child(Path(root), url, Path(requests_file), Path(mix_json), int(examples))
        return
    try:
        base, head, options = parse_args(argv)
        with sigterm_as_exit():
            report = compare(base, head, **options)
    except ArgumentError as exc:
        print(f"bench/compare.py{NBSP}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
