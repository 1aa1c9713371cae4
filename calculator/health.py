"""``/healthz``: whether this process can serve, for the container's health check and a monitor.

Issue 17, the compose item: ``compose.yaml`` marks the web service healthy (and nginx waits for
it) only when this answers 200. It checks what every page needs:

* the database: one cheap query (``SELECT 1``) on the default connection;
* the cache (Redis in production: the rate limits, the bestiary cache): a key written, read back
  and deleted. A cache that accepts a write but gives nothing back (a dummy cache) fails too.

It answers JSON, ``{"status": "ok", "database": "ok", "cache": "ok"}`` with 200, or 503 with
``"indisponible"`` for the status and for each part that failed. The answer names no host, no
error and no traceback (the server's log has them, logger ``calculator.health``).

It is never cached (``Cache-Control: no-store``), reads and writes no session (no cookie is set),
needs no CSRF token, answers GET and HEAD only (405 otherwise), and is exempt from
``SECURE_SSL_REDIRECT`` (``SECURE_REDIRECT_EXEMPT`` in the settings): the container's health check
asks gunicorn over plain HTTP, from inside the container (``deploy/healthcheck.py``).
"""

from __future__ import annotations

import logging
import uuid

from django.core.cache import cache
from django.db import connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)

OK = "ok"
DOWN = "indisponible"
# the cache key lives a few seconds at most, even if the delete below never runs
PROBE_SECONDS = 10


def database_ok() -> bool:
    """One ``SELECT 1`` on the default database; False (logged) on any error."""
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            row = cursor.fetchone()
        return row is not None and row[0] == 1
    except Exception:
        logger.warning("health check: the database does not answer", exc_info=True)
        return False


def cache_ok() -> bool:
    """A key written, read back and deleted in the default cache; False (logged) on any error."""
    key = f"healthz:{uuid.uuid4().hex}"
    value = uuid.uuid4().hex
    try:
        cache.set(key, value, timeout=PROBE_SECONDS)
        read = cache.get(key)
        cache.delete(key)
    except Exception:
        logger.warning("health check: the cache does not answer", exc_info=True)
        return False
    if read != value:
        logger.warning("health check: the cache did not give back the value written")
        return False
    return True


@csrf_exempt
@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the cache both answer, else 503 naming the part that failed."""
    parts = {"database": OK if database_ok() else DOWN, "cache": OK if cache_ok() else DOWN}
    healthy = all(state == OK for state in parts.values())
    body = {"status": OK if healthy else DOWN, **parts}
    return JsonResponse(body, status=200 if healthy else 503)
