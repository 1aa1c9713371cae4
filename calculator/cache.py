"""Django's Redis cache with one client, and so one connection pool, per process.

Django keeps a cache object per thread, and its Redis backend builds a client for each: its own
connection pool, its own connections, and redis-py's driver description (which reads the package's
metadata). Under gunicorn's threaded workers every thread's first request paid for all of it (about
2 ms, the largest part of a fresh worker's first API request: docs/performance.md) and each thread
held its own connections to Redis. redis-py's pools are thread-safe: here the threads of a process
share one client per configuration, built on first use (the worker's warm-up builds it).
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache
from django.utils.functional import cached_property

_CLIENTS: dict[tuple[Any, ...], Any] = {}
_LOCK = threading.Lock()


class SharedRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose client is shared by the process's threads."""

    # set by RedisCache.__init__ (not in django-stubs)
    _servers: list[str]
    _options: dict[str, Any]
    _class: type

    @cached_property
    def _cache(self) -> Any:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _LOCK:
            client = _CLIENTS.get(key)
            if client is None:
                client = _CLIENTS[key] = self._class(self._servers, **self._options)
        return client
