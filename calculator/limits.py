"""Rate limits per client, shared by every worker through the Django cache (issue 17, finding 1).

Before, the API's limiter (django-ninja's ``AnonRateThrottle``) identified the client by the raw
``X-Forwarded-For`` header (a client sending a new one with each request was never limited) and
counted in each process's memory; the pages (live updates computing odds, « Résoudre »,
permalinks) and share creation were not limited at all.

:class:`RateLimitMiddleware` sorts each request into buckets by its route and method, and counts it
in each, per client (``calculator.clientip.client_address``; an IPv6 client by its /64 network, a
single subscriber's usual allocation):

========  ===============  =========================================================================
bucket    setting          requests
========  ===============  =========================================================================
api       ``API_RATE``     every ``/api/`` request
resolve   ``RESOLVE_RATE`` « Résoudre » on a calculator page (a POST that is not a live update
                           ``_live``, nor ``_refresh`` or ``_clear``, which never resolve), a
                           permalink with its result (GET ``r=1``), and the API's resolve and odds
                           (which count in ``api`` too). A row added or a creature loaded (``_add``,
                           ``_del``, ``_load``) counts as a resolve: the view resolves when the
                           action names nothing it knows; a short result link (``/p/<id>``), a
                           Quadrature sheet's PDF
page      ``PAGE_RATE``    every other request of a calculator page: page views, live updates
                           (htmx POSTs ``_live`` and GETs that redraw the scene, the dice and the
                           odds)
share     ``SHARE_RATE``   share creation (``POST /r/``)
========  ===============  =========================================================================

A rate is ``N/s``, ``N/m``, ``N/h`` or ``N/d`` (``second``, ``minute``… spelled out too); ``0`` or
empty: no limit. The count is a sliding window, estimated from two fixed windows (the current one's
count, plus the previous one's weighted by how much of it the sliding window still covers), in the
default cache: ``cache.incr`` is atomic (Redis ``INCR``, a lock in local memory), so with
``REDIS_URL`` every worker shares the counts; in local memory (no ``REDIS_URL``) each process
counts alone, which a system check (``estoc.W001``) warns about when DEBUG is off. A refused
request is not counted. Each window's key carries its number, so a counter never outlives it.

Past the limit: 429 with ``Retry-After`` (seconds), in French: JSON in the API's error format for
``/api/``, ``templates/429.html`` for a page, and that template's ``throttled`` part for an htmx
request, shown in the layout's ``#throttled`` slot (``templates/base.html``: htmx swaps 429).

The warm-up's requests (``calculator.warmup.WARMUP_ADDRESS`` as the socket address, no forwarded
header) are not counted. The cache failing never refuses a request: it is logged and let through.
"""

from __future__ import annotations

import contextlib
import logging
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from ipaddress import IPv6Address, ip_address, ip_network
from typing import Any

from django.conf import settings
from django.core import checks
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import ResolverMatch

from calculator.api_errors import json_error
from calculator.clientip import client_address

logger = logging.getLogger(__name__)

ERROR_THROTTLED = "Trop de requêtes\u202f: réessayez dans {wait}."
ERROR_RATE = "{name}\u202f: «\u202f{value}\u202f» n'est pas une limite (attendu\u202f: N/s, N/m, N/h ou N/d, par exemple 60/m\u202f; 0 pour aucune)."
# what the page says was sent too often, per bucket
WHAT = {
    "api": "requêtes à l'API",
    "resolve": "résolutions",
    "page": "mises à jour de la page",
    "share": "partages",
}
SETTINGS = {"api": "API_RATE", "resolve": "RESOLVE_RATE", "page": "PAGE_RATE", "share": "SHARE_RATE"}
KEY_PREFIX = "estoc:limit"
# a calculator page's POST that never resolves, whatever else it holds (calculator/views.py LIVE and
# dice_actions, calculator/forms.py apply_form_actions)
NEVER_RESOLVES = ("_live", "_refresh", "_clear")
# float slack: a request that exactly fills the window fits
EPSILON = 1e-9
CALCULATOR_ROUTES = frozenset({"calculator", "calculator_page"})
API_COMPUTE_ROUTES = frozenset({"resolve", "odds"})

_RATE = re.compile(
    r"^\s*(?P<count>\d+)\s*/\s*(?P<unit>s|sec|second|m|min|minute|h|hour|d|day)s?\s*$",
    re.IGNORECASE,
)
_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Rate:
    """``count`` requests per ``seconds``."""

    count: int
    seconds: int


@lru_cache(maxsize=32)
def parse_rate(value: str | None, name: str = "rate") -> Rate | None:
    """``"60/m"`` → Rate(60, 60); ``"0"`` or empty → None (no limit); ImproperlyConfigured else."""
    text = (value or "").strip()
    if text in {"", "0"}:
        return None
    match = _RATE.match(text)
    if match is None or int(match["count"]) == 0:
        raise ImproperlyConfigured(ERROR_RATE.format(name=name, value=text))
    return Rate(int(match["count"]), _SECONDS[match["unit"][0].lower()])


def check_settings() -> None:
    """Every rate setting parses (``CalculatorConfig.ready``: a typo stops the server starting)."""
    for setting in SETTINGS.values():
        parse_rate(getattr(settings, setting, ""), setting)


def rate_of(bucket: str) -> Rate | None:
    setting = SETTINGS[bucket]
    return parse_rate(getattr(settings, setting, ""), setting)


def client_key(request: HttpRequest) -> str:
    """What a client is counted by: its address, an IPv6 address's /64 network."""
    address = client_address(request)
    try:
        parsed = ip_address(address)
    except ValueError:
        return address or "unknown"
    if isinstance(parsed, IPv6Address):
        return str(ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def retry_after(previous: int, current: int, fraction: float, limit: int, seconds: int) -> int:
    """Seconds until one more request fits: ``previous`` requests counted in the previous window,
    ``current`` in this one, ``fraction`` of this one elapsed (at least 1)."""
    remaining = (1 - fraction) * seconds
    if current + 1 <= limit and previous:
        # within this window, once the previous one's weight has fallen enough
        wait = seconds * (1 - fraction - (limit - current - 1) / previous)
    elif current + 1 <= limit:
        wait = 0.0
    else:
        # in the next window, once this one's weight has fallen enough
        wait = remaining + seconds * max(0.0, 1 - (limit - 1) / current)
    return max(1, math.ceil(wait - EPSILON))


def _incr(key: str, timeout: int) -> int:
    """Add one to ``key`` atomically; a missing key is created with ``timeout``."""
    try:
        return cache.incr(key)
    except ValueError:
        if cache.add(key, 1, timeout):
            return 1
        return cache.incr(key)


def hit(bucket: str, client: str, rate: Rate, now: float | None = None) -> int:
    """Count a request of ``client`` in ``bucket``: 0 when it is let through, else the seconds to
    wait (the request is then not counted)."""
    now = time.time() if now is None else now
    window, elapsed = divmod(now, rate.seconds)
    fraction = elapsed / rate.seconds
    base = f"{KEY_PREFIX}:{bucket}:{rate.seconds}:{client}"
    key = f"{base}:{int(window)}"
    count = _incr(key, 2 * rate.seconds + 1)  # kept through the next window, which weighs it
    previous = int(cache.get(f"{base}:{int(window) - 1}") or 0)
    if previous * (1 - fraction) + count <= rate.count + EPSILON:
        return 0
    with contextlib.suppress(ValueError):  # gone meanwhile: nothing to take back
        cache.decr(key)
    return retry_after(previous, count - 1, fraction, rate.count, rate.seconds)


def undo(bucket: str, client: str, rate: Rate, now: float) -> None:
    """Take back a request :func:`hit` counted (another bucket refused it)."""
    window = int(now // rate.seconds)
    with contextlib.suppress(ValueError):
        cache.decr(f"{KEY_PREFIX}:{bucket}:{rate.seconds}:{client}:{window}")


def buckets(request: HttpRequest, match: ResolverMatch) -> list[str]:
    """The buckets ``request`` counts in (see the module's docstring)."""
    if "api" in match.namespaces:
        compute = request.method == "POST" and match.url_name in API_COMPUTE_ROUTES
        return ["api", "resolve"] if compute else ["api"]
    if match.url_name in CALCULATOR_ROUTES:
        return ["resolve" if resolves(request) else "page"]
    if match.url_name in {"short_link", "quadrature_sheet_pdf"}:  # a stored result link, a PDF: each
        return ["resolve"]  # resolves (a long Quadrature sheet's PDF costs up to ~3 s of CPU)
    if match.url_name == "share_create" and request.method == "POST":
        return ["share"]
    return []


def resolves(request: HttpRequest) -> bool:
    """Whether a calculator page's request may resolve: « Résoudre » (a POST but a live update,
    ``_refresh`` or ``_clear``), or a permalink with its result (GET ``r=1``)."""
    if request.method == "POST":
        return not any(key in request.POST for key in NEVER_RESOLVES)
    return request.GET.get("r") == "1"


def wait_text(seconds: int) -> str:
    """« 12 s », « 3 min », « 2 h » (rounded up)."""
    if seconds < 60:
        return f"{seconds}\u00a0s"
    if seconds < 3600:
        return f"{math.ceil(seconds / 60)}\u00a0min"
    return f"{math.ceil(seconds / 3600)}\u00a0h"


def throttled(request: HttpRequest, bucket: str, seconds: int) -> HttpResponse:
    """The 429 answer: JSON for the API, a fragment for htmx, else the page."""
    wait = wait_text(seconds)
    message = ERROR_THROTTLED.format(wait=wait)
    response: HttpResponse
    if bucket == "api" or request.path_info.startswith("/api/"):
        response = json_error(429, message)
    else:
        context = {"message": message, "wait": wait, "what": WHAT[bucket], "seconds": seconds}
        if getattr(request, "htmx", False):
            response = render(request, "429.html#throttled", context, status=429)
            response["HX-Retarget"] = "#throttled"
            response["HX-Reswap"] = "innerHTML"
        else:
            response = render(request, "429.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response


def exempt(request: HttpRequest) -> bool:
    """The warm-up's own requests (calculator/warmup.py), never a client's."""
    from calculator.warmup import WARMUP_ADDRESS

    meta = request.META
    return meta.get("REMOTE_ADDR") == WARMUP_ADDRESS and "HTTP_X_FORWARDED_FOR" not in meta


class RateLimitMiddleware:
    """Counts each request in its buckets before its view runs; 429 past a bucket's rate."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> HttpResponse | None:
        match = request.resolver_match
        if match is None:
            return None
        limited = [(b, r) for b in buckets(request, match) if (r := rate_of(b)) is not None]
        if not limited or exempt(request):
            return None
        client = client_key(request)
        now = time.time()
        counted: list[tuple[str, Rate]] = []
        try:
            for bucket, rate in limited:
                wait = hit(bucket, client, rate, now)
                if wait:
                    for done, done_rate in counted:
                        undo(done, client, done_rate, now)
                    break
                counted.append((bucket, rate))
            else:
                return None
        except Exception:
            # the limits protect the service; the cache failing must not stop it
            logger.warning("rate limit: the cache failed, request let through", exc_info=True)
            return None
        return throttled(request, bucket, wait)


@checks.register(checks.Tags.caches)
def per_process_limits(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """estoc.W001: DEBUG off, a limit set and the cache in local memory: each worker counts alone."""
    backend = str(settings.CACHES.get("default", {}).get("BACKEND", ""))
    local = backend.endswith(("LocMemCache", "DummyCache"))
    try:
        limited = any(rate_of(bucket) is not None for bucket in SETTINGS)
    except ImproperlyConfigured as exc:
        return [checks.Error(str(exc), id="estoc.E001")]
    if settings.DEBUG or not local or not limited:
        return []
    return [
        checks.Warning(
            "Les limites de requêtes sont comptées par processus\u202f: le cache est en mémoire locale.",
            hint="Définir REDIS_URL pour que tous les workers partagent les compteurs (calculator/limits.py).",
            id="estoc.W001",
        )
    ]
