"""Estoc under gunicorn, production-like, on loopback: shared by the live measurements.

``bench/load/run.py`` (wrk), ``bench/perceived.py`` (Playwright) and ``bench/fuzz_api.py``
(Schemathesis) all start the application the same way:

* a dedicated PostgreSQL database (``estoc_load`` by default, never the suite's ``test``), created
  with ``createdb`` when missing, migrated, with the fixtures loaded;
* ``collectstatic`` (production storage) into a throw-away ``STATIC_ROOT``, not the working tree's;
* gunicorn with the Dockerfile's options (4 gthread workers × 4 threads, 8190-byte request lines)
  on 127.0.0.1 and a free port, the production settings with DEBUG off, a throw-away SECRET_KEY,
  SECURE=0 (plain HTTP), REDIS_URL (the cache and the rate limiter shared by the workers, as in
  production), API_RATE raised and PAGE_RATE, RESOLVE_RATE, SHARE_RATE off (``0``) so that the
  limiter does not turn a load test into 429s.

Every step takes a ``root``: the checkout whose code is served, this working tree by default, or a
temporary ``git worktree`` of another commit (``bench/compare.py``). ``PYTHONPATH`` and the working
directory are set to that root, so that its packages come first on ``sys.path``: the virtualenv's
editable install of the main checkout is a meta-path finder consulted only after the path.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PG = ["-h", "127.0.0.1", "-p", "5432", "-U", "postgres"]
DEFAULT_DATABASE = os.environ.get("LOAD_DATABASE", "estoc_load")
DEFAULT_REDIS = os.environ.get("LOAD_REDIS_URL", "redis://127.0.0.1:6379/7")
ARTIFACTS = ROOT / "artifacts"


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S', time.gmtime())} UTC] {message}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _check_database_name(name: str) -> None:
    if name in {"test", "postgres", "template0", "template1"}:
        raise SystemExit(f"refusing to use the database {name!r}: pick a dedicated one (e.g. estoc_load)")


def database_url(name: str) -> str:
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def ensure_database(name: str = DEFAULT_DATABASE) -> str:
    """Create the PostgreSQL database ``name`` when missing; its URL."""
    _check_database_name(name)
    exists = subprocess.run(
        ["psql", *PG, "-d", "postgres", "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{name}'"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    if exists != "1":
        log(f"createdb {name}")
        subprocess.run(["createdb", *PG, name], check=True)
    return database_url(name)


def reset_database(name: str) -> str:
    """Drop the PostgreSQL database ``name`` (closing its connections) and create it empty; its URL."""
    _check_database_name(name)
    drop_database(name)
    log(f"createdb {name}")
    subprocess.run(["createdb", *PG, name], check=True)
    return database_url(name)


def drop_database(name: str) -> None:
    _check_database_name(name)
    subprocess.run(["dropdb", *PG, "--if-exists", "--force", name], check=True)


def server_env(
    database_url: str,
    redis_url: str = DEFAULT_REDIS,
    *,
    root: Path = ROOT,
    static_root: Path | None = None,
    **extra: str,
) -> dict[str, str]:
    """The environment of the server and of ``manage.py`` for the checkout ``root``.

    PLAIN_STATIC is dropped: ``bench/run.py`` sets it for the test client, and a server started from
    it (``bench/compare.py``'s ``compare()``) must keep the production storage.
    """
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "DJANGO_SETTINGS_MODULE", "PLAIN_STATIC"}}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "calculator.settings",
            "PYTHONPATH": str(root),
            "DEBUG": "0",
            "SECRET_KEY": "load-" + secrets.token_urlsafe(40),  # throw-away, new each run
            "SECURE": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "API_RATE": "100000000/m",  # measure the application, not the limiter (see docs/reliability.md)
            # the page, resolve and share limits off ("0"); an older commit ignores these variables
            "PAGE_RATE": "0",
            "RESOLVE_RATE": "0",
            "SHARE_RATE": "0",
            "STATIC_ROOT": str(static_root or os.environ.get("BENCH_STATIC_ROOT", "/tmp/estoc-bench/staticfiles")),
            "LOG_LEVEL": "WARNING",
        }
    )
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str, root: Path = ROOT) -> None:
    subprocess.run([PYTHON, str(root / "manage.py"), *args], check=True, env=env, cwd=root, stdout=subprocess.DEVNULL)


def prepare(env: dict[str, str], root: Path = ROOT) -> None:
    """Migrate, load the fixtures (only into empty tables), collect the static files, from ``root``."""
    log(f"migrate, loadfixtures, collectstatic ({root})")
    manage(env, "migrate", "--noinput", "-v", "0", root=root)
    manage(env, "loadfixtures", root=root)
    manage(env, "collectstatic", "--noinput", "-v", "0", root=root)


def wait_until_up(url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"{url} did not answer within {timeout:.0f} s")
        time.sleep(0.3)


@contextlib.contextmanager
def gunicorn(
    env: dict[str, str],
    workers: int = 4,
    log_path: Path | None = None,
    extra: tuple[str, ...] = (),
    worker_class: str = "gthread",
    root: Path = ROOT,
) -> Iterator[str]:
    """Serve Estoc from the checkout ``root`` with gunicorn on 127.0.0.1:<free port>; yields the base
    URL; always stopped.

    The options are the Dockerfile's (``WEB_CONCURRENCY`` workers, gthread, ``THREADS`` threads,
    8190-byte request lines), without the access log, plus ``extra``; ``worker_class="sync"`` for
    the Dockerfile's workers before 2026-12-01 (one request at a time per worker, no threads).
    """
    port = free_port()
    log_path = log_path or ARTIFACTS / "gunicorn.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    command = [
        PYTHON,
        "-m",
        "gunicorn",
        "calculator.wsgi",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        worker_class,
        *(["--threads", os.environ.get("THREADS", "4")] if worker_class == "gthread" else []),
        "--limit-request-line",
        "8190",
        "--log-level",
        "warning",
        *extra,
    ]
    with log_path.open("ab") as out:
        log(f"gunicorn, {workers} {worker_class} workers, on 127.0.0.1:{port} {' '.join(extra)} (log: {log_path})")
        process = subprocess.Popen(command, env=env, cwd=root, stdout=out, stderr=out, start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(base + "/")
            yield base
        finally:
            process.send_signal(signal.SIGTERM)  # this gunicorn's master only: it stops its workers
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log("gunicorn stopped")


def server_errors(log_path: Path, start: int = 0) -> list[str]:
    """Tracebacks and error lines written to the gunicorn log after byte ``start``."""
    with log_path.open("rb") as f:
        f.seek(start)
        text = f.read().decode("utf-8", "replace")
    return [
        line for line in text.splitlines() if "Traceback" in line or "ERROR" in line or "Internal Server Error" in line
    ]
