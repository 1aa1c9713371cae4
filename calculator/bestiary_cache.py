"""Short-lived cache of what each page reads from the bestiary on every request.

Table settings and preset lists change only when an admin edits the bestiary, yet every page
view and API call reads them. They are cached for ``BESTIARY_CACHE_SECONDS``; any save or delete
of a bestiary model clears them in this process at once (other processes see the change when
their copy expires, at most that many seconds later).
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save

from calculator.plugins import PresetGroup, WebPlugin
from rulesets.core.schema import copy_data

VERSION_KEY = "estoc:bestiary:version"


def _version() -> int:
    version = cache.get(VERSION_KEY)
    if version is None:
        version = 1
        cache.set(VERSION_KEY, version, None)
    return int(version)


# What this process last read, by versioned key, for a second: a page request reads the presets
# twice (the view, then the plug-in's settle), and unpickling them from the cache costs more than
# the settle itself. The key carries the version, so an admin's edit is seen at once.
_RECENT: dict[str, tuple[float, Any]] = {}
RECENT_SECONDS = 1.0


def cached(name: str, plugin: WebPlugin, compute: Any) -> Any:
    """``compute()``, kept under ``name`` for the plug-in until the bestiary changes (see above)."""
    key = f"estoc:{plugin.slug}:{name}:{_version()}"
    seconds = getattr(settings, "BESTIARY_CACHE_SECONDS", 30)
    now = time.monotonic()
    recent = _RECENT.get(key)
    if recent is not None and now - recent[0] < min(RECENT_SECONDS, seconds):
        return recent[1]
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, seconds)
    if len(_RECENT) > 64:
        _RECENT.clear()
    _RECENT[key] = (now, value)
    return value


def defaults(plugin: WebPlugin) -> dict[str, Any]:
    """``plugin.defaults()``, cached (a copy: callers may merge into it)."""
    copied: dict[str, Any] = copy_data(cached("defaults", plugin, plugin.defaults))
    return copied


def presets(plugin: WebPlugin) -> list[PresetGroup]:
    return list(cached("presets", plugin, plugin.presets))


def invalidate(**_kwargs: Any) -> None:
    try:
        cache.incr(VERSION_KEY)
    except ValueError:
        cache.set(VERSION_KEY, 2, None)


def connect() -> None:
    """Clear the cache whenever a model of a ``bestiary.*`` app is saved or deleted."""
    from django.apps import apps

    for config in apps.get_app_configs():
        if config.name.startswith("bestiary."):
            for model in config.get_models():
                post_save.connect(invalidate, sender=model, dispatch_uid=f"estoc-cache-save-{model._meta.label}")
                post_delete.connect(invalidate, sender=model, dispatch_uid=f"estoc-cache-del-{model._meta.label}")
