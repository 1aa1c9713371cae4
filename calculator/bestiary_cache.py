"""What each page reads from the bestiary on every request, kept as Python objects in this process.

Table settings and preset lists change only when an admin edits the bestiary, yet every page view
and API call reads them. Each process keeps them in memory (no unpickling on every request, as a
shared cache would need) under the bestiary's *version*, a token kept in the shared cache
(``estoc:bestiary:version``): any save or delete of a bestiary model writes a new token, so every
process drops its copies. A process reads the token at most every ``VERSION_CHECK_SECONDS``
(a bestiary edit shows in the other processes within that delay, at once in the one that saved)
and recomputes a copy at the latest after ``BESTIARY_CACHE_SECONDS`` anyway (0: no caching, the
test suite's setting).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save

from calculator.plugins import PresetGroup, WebPlugin
from rulesets.core.schema import copy_data

VERSION_KEY = "estoc:bestiary:version"
VERSION_CHECK_SECONDS = 1.0

# (version token, when it was read from the shared cache)
_seen: list[Any] = [None, float("-inf")]
# (plug-in slug, name) → (version token, when computed, value)
_VALUES: dict[tuple[str, str], tuple[Any, float, Any]] = {}
# (plug-in slug, name) → (version token, {key: (when computed, value)}, oldest first)
_KEYED: dict[tuple[str, str], tuple[Any, OrderedDict[Any, tuple[float, Any]]]] = {}
_lock = threading.Lock()


def _version(now: float) -> Any:
    """The bestiary's version token, read from the shared cache at most every VERSION_CHECK_SECONDS.

    A random token rather than a counter: were the shared cache emptied (Redis restarted), a
    counter would start again at a number a process may still hold copies under."""
    token, read_at = _seen
    if token is not None and now - read_at < VERSION_CHECK_SECONDS:
        return token
    token = cache.get(VERSION_KEY)
    if token is None:
        token = uuid.uuid4().hex
        if not cache.add(VERSION_KEY, token, None):  # another process wrote one first: use it
            token = cache.get(VERSION_KEY) or token
    _seen[:] = [token, now]
    return token


def cached(name: str, plugin: WebPlugin, compute: Any) -> Any:
    """``compute()``, kept in this process under ``name`` for the plug-in until the bestiary
    changes (see above). The value is shared: callers must not change it."""
    seconds = getattr(settings, "BESTIARY_CACHE_SECONDS", 30)
    if seconds <= 0:
        return compute()
    now = time.monotonic()
    version = _version(now)
    key = (plugin.slug, name)
    kept = _VALUES.get(key)
    if kept is not None and kept[0] == version and now - kept[1] < seconds:
        return kept[2]
    value = compute()
    with _lock:
        _VALUES[key] = (version, now, value)
    return value


MISSING = object()


def cached_by(name: str, plugin: WebPlugin, key: Any, compute: Any, size: int = 128) -> Any:
    """:func:`cached` for a value that also depends on ``key`` (hashable): the last ``size`` keys
    asked are kept, the least recently asked dropped first; all of them dropped when the bestiary
    changes. The value is shared: callers must not change it."""
    value = kept_by(name, plugin, key)
    if value is MISSING:
        value = compute()
        keep_by(name, plugin, key, value, size)
    return value


def kept_by(name: str, plugin: WebPlugin, key: Any) -> Any:
    """What :func:`keep_by` kept under ``key`` for this version of the bestiary, or ``MISSING``."""
    seconds = getattr(settings, "BESTIARY_CACHE_SECONDS", 30)
    if seconds <= 0:
        return MISSING
    now = time.monotonic()
    version = _version(now)
    with _lock:
        kept = _KEYED.get((plugin.slug, name))
        if kept is None or kept[0] != version:
            return MISSING
        entry = kept[1].get(key)
        if entry is None or now - entry[0] >= seconds:
            return MISSING
        kept[1].move_to_end(key)
        return entry[1]


def keep_by(name: str, plugin: WebPlugin, key: Any, value: Any, size: int = 128) -> None:
    """Keep ``value`` under ``key`` (see :func:`cached_by`)."""
    seconds = getattr(settings, "BESTIARY_CACHE_SECONDS", 30)
    if seconds <= 0:
        return
    now = time.monotonic()
    version = _version(now)
    slot = (plugin.slug, name)
    with _lock:
        kept = _KEYED.get(slot)
        if kept is None or kept[0] != version:
            kept = _KEYED[slot] = (version, OrderedDict())
        kept[1][key] = (now, value)
        kept[1].move_to_end(key)
        while len(kept[1]) > size:
            kept[1].popitem(last=False)


def clear_local() -> None:
    """Forget this process's copies and the version token it read (tests)."""
    with _lock:
        _VALUES.clear()
        _KEYED.clear()
        _seen[:] = [None, float("-inf")]


def defaults(plugin: WebPlugin) -> dict[str, Any]:
    """``plugin.defaults()``, cached (a copy: callers may merge into it)."""
    copied: dict[str, Any] = copy_data(cached("defaults", plugin, plugin.defaults))
    return copied


def presets(plugin: WebPlugin) -> list[PresetGroup]:
    return list(cached("presets", plugin, plugin.presets))


def invalidate(**_kwargs: Any) -> None:
    """A bestiary model was saved or deleted: a new version token, for every process."""
    token = uuid.uuid4().hex
    cache.set(VERSION_KEY, token, None)
    with _lock:
        _VALUES.clear()
        _KEYED.clear()
        _seen[:] = [token, time.monotonic()]


def connect() -> None:
    """Clear the cache whenever a model of a ``bestiary.*`` app is saved or deleted."""
    from django.apps import apps

    for config in apps.get_app_configs():
        if config.name.startswith("bestiary."):
            for model in config.get_models():
                post_save.connect(invalidate, sender=model, dispatch_uid=f"estoc-cache-save-{model._meta.label}")
                post_delete.connect(invalidate, sender=model, dispatch_uid=f"estoc-cache-del-{model._meta.label}")
