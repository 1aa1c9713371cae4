"""Warm a server process up before it serves: its first request then costs what a warm one does.

Without it, the first request a fresh gunicorn worker serves took 14–160× the same request warm
(``bench/first_request.py``): importing the URL configuration (the API, django-ninja, every
plug-in), compiling the templates, loading the translation catalogues, building the forms' fields
and the engines' memoised tables all happen on first use.

:func:`warm` does all of that once, through the real WSGI application (the URL resolver, every
middleware, the views, the templates), as requests built here and never sent over a network:

* ``/`` and, per ruleset (``load_all``, so every ruleset is imported): its page (the form built,
  the odds of the default scenario), « Résoudre » as htmx posts it (the first worked example's
  whole scenario, seed 42), that result's permalink (the full page with the result), a live
  update of the same form, and the API's resolve and odds of the first worked example;
* every template of the project's ``templates/`` compiled (``get_template``: the cached loader
  keeps them), those no request above renders included (shares, encounters, accounts).

It writes no row: the requests carry no session cookie and change no session (so none is saved),
log nobody in (axes keeps nothing), never post to ``/r/`` (no share) and open no encounter; the
CSRF check passes with a secret made here (cookie and header). The rate limits
(calculator/limits.py) do not count them: they come from an address no client has
(``WARMUP_ADDRESS``).

Then every database connection this thread opened is closed, and the garbage the warm-up left is
collected (a full collection would otherwise fall on one of the first requests). A gthread worker
serves from other threads, which open their own database connections (Django's are per thread), so
these would only linger; and under ``gunicorn --preload`` the warm-up runs in the master, which must
fork no open database socket into its workers. The Redis client stays: the process's threads share
it (``calculator/cache.py``), and redis-py resets a pool that finds itself in a forked process.

Each worker warms itself up (the Dockerfile runs gunicorn without ``--preload``): a worker forked
from a warmed-up master shares the master's memory copy-on-write, and its first request still
copied 1,000–2,500 pages (the objects it touches: their reference counts are written) and took
2–5× longer than after a warm-up of its own (``bench/first_request.py --modes
off,warmup,preload``). The cost: each worker spends about a second more starting (0.5–1 s of CPU).

It never stops a server from starting: a step that raises or answers another status than the one
expected is logged as a warning (logger ``calculator.warmup``) and the next step runs; steps left
when ``WARMUP_SECONDS`` (default 10, below gunicorn's 30-second worker timeout) have run out are
skipped, with a warning.

Environment: ``WARMUP`` — ``1`` runs it, ``0`` does not; unset, it runs under gunicorn (the
Dockerfile's server and ``bench/server.py``'s) and nowhere else (``manage.py runserver``, the test
suite, the shell, management commands). ``calculator/wsgi.py`` calls :func:`warm` when
:func:`enabled`.
"""

from __future__ import annotations

import gc
import io
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlencode, urlsplit

logger = logging.getLogger(__name__)

DEFAULT_SECONDS = 10.0
# the rate limits and axes see this address: no client has it, so no client's budget is spent
WARMUP_ADDRESS = "127.0.0.254"
SEED = 42
# the steps run per ruleset, after "home" and before "templates"
PER_RULESET = ("page", "resolve, permalink, live update", "API")

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def enabled(environ: dict[str, str] | None = None) -> bool:
    """Whether to warm up: ``WARMUP`` when set (on for ``1``/``true``/``yes``/``on``, off for
    anything else), else whether this process runs under gunicorn."""
    value = (os.environ if environ is None else environ).get("WARMUP", "").strip().lower()
    if value:
        return value in {"1", "true", "yes", "on"}
    return "gunicorn" in sys.modules


@dataclass
class Report:
    """What :func:`warm` did: the steps run, those that failed (with why), those skipped, seconds."""

    done: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


class Client:
    """Calls a WSGI application with requests built here, as gunicorn would hand them over."""

    def __init__(self, application: WSGIApp) -> None:
        from django.conf import settings
        from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH
        from django.utils.crypto import get_random_string

        self.application = application
        self.host = host(settings.ALLOWED_HOSTS)
        self.secure = bool(settings.SECURE_SSL_REDIRECT or settings.SESSION_COOKIE_SECURE)
        self.proxy_header = settings.SECURE_PROXY_SSL_HEADER if self.secure else None
        self.csrf = get_random_string(CSRF_SECRET_LENGTH, CSRF_ALLOWED_CHARS)
        self.csrf_cookie = settings.CSRF_COOKIE_NAME
        self.csrf_header = settings.CSRF_HEADER_NAME  # a META key: HTTP_X_CSRFTOKEN

    @property
    def origin(self) -> str:
        return f"{'https' if self.secure else 'http'}://{self.host}"

    def environ(
        self, method: str, url: str, body: bytes = b"", content_type: str = "", meta: dict[str, str] | None = None
    ) -> dict[str, Any]:
        parts = urlsplit(url)
        env: dict[str, Any] = {
            "REQUEST_METHOD": method,
            "SCRIPT_NAME": "",
            "PATH_INFO": parts.path,
            "QUERY_STRING": parts.query,
            "SERVER_NAME": self.host,
            "SERVER_PORT": "443" if self.secure else "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": WARMUP_ADDRESS,
            "HTTP_HOST": self.host,
            "HTTP_USER_AGENT": "estoc-warmup",
            "HTTP_ACCEPT_LANGUAGE": "fr",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "https" if self.secure else "http",
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            "CONTENT_LENGTH": str(len(body)),
            **(meta or {}),
        }
        if content_type:
            env["CONTENT_TYPE"] = content_type
        if self.proxy_header:
            name, value = self.proxy_header
            env[name] = value
        if method == "POST":
            env["HTTP_COOKIE"] = f"{self.csrf_cookie}={self.csrf}"
            env[self.csrf_header] = self.csrf
            env["HTTP_ORIGIN"] = self.origin
        return env

    def request(
        self, method: str, url: str, body: bytes = b"", content_type: str = "", meta: dict[str, str] | None = None
    ) -> Answer:
        captured: dict[str, Any] = {}

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[..., Any]:
            captured["status"] = int(status.split(" ", 1)[0])
            captured["headers"] = dict(headers)
            return lambda data: None

        result = self.application(self.environ(method, url, body, content_type, meta), start_response)
        try:
            content = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()  # request_finished: what a server does after each response
        return Answer(captured["status"], captured["headers"], content)

    def get(self, url: str, expect: int = 200, **meta: str) -> Answer:
        return checked(self.request("GET", url, meta=meta), expect, url)

    def post_form(self, url: str, pairs: list[tuple[str, str]], expect: int = 200, **meta: str) -> Answer:
        body = urlencode(pairs).encode()
        answer = self.request("POST", url, body, "application/x-www-form-urlencoded", meta)
        return checked(answer, expect, url)

    def post_json(self, url: str, data: Any, expect: int = 200) -> Answer:
        answer = self.request("POST", url, json.dumps(data).encode(), "application/json")
        return checked(answer, expect, url)


def host(allowed: list[str]) -> str:
    """A host name ``ALLOWED_HOSTS`` accepts (``localhost`` for ``*`` or an empty list)."""
    for entry in allowed:
        if entry == "*":
            return "localhost"
        name = entry.lstrip(".")
        if name:
            return name
    return "localhost"


class UnexpectedStatus(Exception):
    pass


def checked(answer: Answer, expect: int, url: str) -> Answer:
    if answer.status != expect:
        raise UnexpectedStatus(f"{url} answered {answer.status}, not {expect}")
    return answer


def steps(client: Client) -> list[tuple[str, Callable[[], object]]]:
    """The warm-up's steps, in order: (name, call)."""
    from calculator.views import page_path
    from rulesets.core.registry import load_all

    out: list[tuple[str, Callable[[], object]]] = [("home", lambda: client.get("/"))]
    for slug in load_all():
        page, resolve, api = PER_RULESET
        out.append((f"{slug}: {page}", partial(client.get, page_path(slug))))
        out.append((f"{slug}: {resolve}", partial(page_round, client, slug)))
        out.append((f"{slug}: {api}", partial(api_round, client, slug)))
    out.append(("templates", compile_templates))
    return out


def example_pairs(slug: str) -> tuple[list[tuple[str, str]], dict[str, Any]]:
    """The first worked example of ``slug``: its whole scenario as a page's form posts it (seed
    42), and its API request."""
    from calculator.forms import permalink_query
    from rulesets.core.registry import get
    from rulesets.core.schema import parse, to_data

    ruleset = get(slug)
    request = dict(ruleset.examples()[0].request)
    # the whole scenario (an absent checkbox would turn a field that defaults to true off)
    whole = to_data(parse(ruleset.scenario_type, request["scenario"]))
    form = permalink_query({"scenario": whole, "dice": request.get("dice", {})}, SEED)
    return [(k, v) for k, values in form.lists() for v in values], request


def page_round(client: Client, slug: str) -> None:
    """« Résoudre » (htmx), the result's permalink (the full page with the result), a live update."""
    from calculator.views import page_path

    url = page_path(slug)
    pairs, _request = example_pairs(slug)
    answer = client.post_form(url, pairs, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="calculator")
    link = answer.headers.get("HX-Push-Url")
    if link:
        client.get(link)
    client.post_form(url, [*pairs, ("_live", "1")], HTTP_HX_REQUEST="true", HTTP_HX_TARGET="live")


def api_round(client: Client, slug: str) -> None:
    """The API's resolve and odds of the first worked example."""
    _pairs, request = example_pairs(slug)
    client.post_json(f"/api/rulesets/{slug}/resolve", request)
    client.post_json(f"/api/rulesets/{slug}/odds", request)


def compile_templates() -> int:
    """Compile every template of the project's ``templates/`` (kept by the cached loader)."""
    from django.conf import settings
    from django.template.loader import get_template

    count = 0
    folders = cast(list[str | Path], settings.TEMPLATES[0].get("DIRS", []))
    for folder in folders:
        root = Path(folder)
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix in {".html", ".txt", ".js", ".md"}:
                get_template(path.relative_to(root).as_posix())
                count += 1
    return count


def close_connections() -> None:
    """Close every database connection this thread holds (nothing to fork), and its caches.

    The Redis client and its pool stay: the process's threads share them (calculator/cache.py), so
    the warm-up's connection serves the worker's first request; redis-py resets a pool that finds
    itself in another process after a fork."""
    from django.core.cache import caches
    from django.db import connections

    connections.close_all()
    for cache in caches.all(initialized_only=True):
        cache.close()


def warm(application: WSGIApp, seconds: float | None = None) -> Report:
    """Run every step against ``application``; never raises (see the module's docstring)."""
    started = time.monotonic()
    report = Report()
    try:
        budget = seconds if seconds is not None else float(os.environ.get("WARMUP_SECONDS", DEFAULT_SECONDS))
        client = Client(application)
        for name, call in steps(client):
            if time.monotonic() - started > budget:
                report.skipped.append(name)
                continue
            try:
                call()
            except Exception as exc:
                report.failed[name] = f"{type(exc).__name__}: {exc}"
                logger.warning("warm-up: %s failed, the server starts anyway", name, exc_info=True)
            else:
                report.done.append(name)
        if report.skipped:
            logger.warning("warm-up: %.0f s budget spent, skipped: %s", budget, ", ".join(report.skipped))
    except Exception:
        report.failed["warm-up"] = "see the log"
        logger.warning("warm-up failed, the server starts anyway", exc_info=True)
    finally:
        try:
            close_connections()
        except Exception:
            logger.warning("warm-up: closing the connections failed", exc_info=True)
        # the warm-up's garbage collected now, not by a full collection during the first requests
        gc.collect()
        report.seconds = time.monotonic() - started
    logger.info(
        "warm-up: %d steps in %.2f s (%d failed, %d skipped)",
        len(report.done),
        report.seconds,
        len(report.failed),
        len(report.skipped),
    )
    return report
