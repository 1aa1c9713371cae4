"""gunicorn's settings for Estoc in production (the Dockerfile's command, compose.yaml's web).

Issue 17, finding 8 and the compose item. gunicorn sits behind nginx (``deploy/nginx.conf``), which
buffers every request and every response: a slow or silent client costs nginx a connection, never a
gunicorn thread. The values:

* ``WEB_CONCURRENCY`` gthread workers (default 4) × ``THREADS`` threads (default 4), as measured in
  docs/reliability.md; a resolve is CPU-bound Python, so one worker per core is the useful count,
  the threads cover the waits (database, Redis) and the static-free requests nginx forwards.
* ``preload_app``: the application is imported once, in the master, before the workers fork (a
  failing import stops the start with its traceback, and the workers share the imported modules).
* The warm-up (``calculator/warmup.py``) runs in each worker after the fork, before it serves
  (``post_worker_init``), not in the master: a worker forked from a warmed-up master still paid for
  its first request (the objects it touches are copied: their reference counts are written), one
  that warmed itself up did not (``bench/first_request.py``). ``calculator/wsgi.py`` warms up at
  import when ``warmup.enabled()``; the preloaded import happens in the master, so this file
  decides once from ``WARMUP`` (unset: on, since this is gunicorn), keeps the decision in
  ``ESTOC_WARM_UP_WORKERS`` and sets ``WARMUP=0`` for that import. ``WARMUP=0`` turns it off.
* ``limit_request_line`` 8190, gunicorn's maximum: a calculator page is its URL (every field), and a
  Quadrature permalink runs past the default 4094 bytes; nginx's ``large_client_header_buffers``
  lets the same line through.
* ``timeout`` 30 s (the warm-up's 10 s budget fits in it), ``keepalive`` 75 s: longer than nginx's
  upstream ``keepalive_timeout`` (60 s), so gunicorn never closes a kept-alive connection at the
  moment nginx reuses it (a 502).
* ``forwarded_allow_ips``: ``FORWARDED_ALLOW_IPS``, the proxy network's subnet in compose.yaml
  (only nginx is on it with web); gunicorn honours ``X-Forwarded-Proto`` from those addresses only.
* the control socket is off (nothing uses ``gunicornc``; the default path is shared by every
  gunicorn of the same user), the heartbeat file is on ``/dev/shm`` when it exists (a disk-backed
  temporary directory can block a worker, gunicorn's documentation).
* logs on the standard error: errors and the warm-up's report; the access log is nginx's (it sees
  the client's address and times the whole request); ``GUNICORN_ACCESS_LOG=1`` adds gunicorn's.
"""

from __future__ import annotations

import os
from typing import Any

from calculator import warmup  # only the standard library at import time: Django is not set up yet

wsgi_app = "calculator.wsgi:application"
bind = [os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")]
worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", "4"))
threads = int(os.environ.get("THREADS", "4"))
preload_app = True

limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190

timeout = 30
graceful_timeout = 30
keepalive = 75

forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

control_socket_disable = True
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
accesslog = "-" if os.environ.get("GUNICORN_ACCESS_LOG", "").strip().lower() in {"1", "true", "yes", "on"} else None

# Decided once, in the master, before the preloaded import, which must not warm the master up
# (WARMUP=0 for it). Kept in the environment: a SIGHUP reads this file again, after WARMUP=0.
if "ESTOC_WARM_UP_WORKERS" not in os.environ:
    os.environ["ESTOC_WARM_UP_WORKERS"] = "1" if warmup.enabled() else "0"
WARM_UP_WORKERS = os.environ["ESTOC_WARM_UP_WORKERS"] == "1"
os.environ["WARMUP"] = "0"


def post_worker_init(worker: Any) -> None:
    """Warm this worker up after the fork, before it accepts a connection (calculator/warmup.py)."""
    if WARM_UP_WORKERS:
        report = warmup.warm(worker.wsgi)
        worker.log.info(
            "worker %s warmed up: %d steps in %.2f s (%d failed, %d skipped)",
            worker.pid,
            len(report.done),
            report.seconds,
            len(report.failed),
            len(report.skipped),
        )
