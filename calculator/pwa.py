"""The installable web app: the manifest, the service worker and the page shown when the server is unreachable.

The worker (``/sw.js``, served from the site root so that its scope is the whole site) precaches the
static files every page uses and the offline page; its cache is named after a hash of those files, so a
new deployment (or, in development, an edited file) installs a new worker and drops the old cache.
Pages are always asked of the network; when it cannot be reached the offline page answers. POST
requests and the API are never touched by the worker.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

THEME_COLOR = "#2b211c"  # the navigation bar (static/css/estoc.css .site-header)
BACKGROUND_COLOR = "#fbf8f3"  # --estoc-paper
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)
# Static files precached at install: what every page links, plus each rule system's own sheet.
# Anything else under STATIC_URL (a sheet added later, the capture library) is cached on first use.
PRECACHE_DIRECTORIES = ("css/", "js/", "icons/")
PRECACHE_FILES = (
    "vendor/bootstrap/bootstrap.min.css",
    "favicon.svg",
    "django_htmx/htmx-2.min.js",
)


def _precached_names() -> list[str]:
    names = set(PRECACHE_FILES)
    for finder in finders.get_finders():
        for path, _storage in finder.list([]):
            name = path.replace("\\", "/")
            if name.startswith(PRECACHE_DIRECTORIES) and not name.endswith((".gz", ".br", ".map")):
                names.add(name)
    return sorted(names)


def _hashed_storage() -> bool:
    """True with the production manifest storage: every URL then carries its file's content hash."""
    return isinstance(staticfiles_storage, ManifestFilesMixin)


def _version(urls: list[str], names: list[str], offline: str) -> str:
    digest = hashlib.sha256()
    for url in urls:
        digest.update(url.encode())
    if not _hashed_storage():  # plain URLs: the contents decide
        for name in names:
            found = finders.find(name)
            if isinstance(found, str):
                with open(found, "rb") as handle:
                    digest.update(hashlib.sha256(handle.read()).digest())
    digest.update(offline.encode())
    digest.update(render_to_string("pwa/sw.js", {"config": ""}).encode())
    return digest.hexdigest()[:16]


def _offline_html() -> str:
    return render_to_string("offline.html")


def worker_config() -> dict[str, Any]:
    """What the worker script is told: its cache version, the URLs to precache, the offline page."""
    if settings.DEBUG:
        return _worker_config()
    return _cached_worker_config()


def _worker_config() -> dict[str, Any]:
    names, urls = [], []
    for name in _precached_names():
        try:
            urls.append(static(name))
        except ValueError:  # not collected (the manifest storage knows no such file): not precached
            continue
        names.append(name)
    offline_url = reverse("offline")
    return {
        "version": _version(urls, names, _offline_html()),
        "precache": [*urls, offline_url],
        "offline": offline_url,
        "static": settings.STATIC_URL,
        "api": reverse("api:api-root"),
        # hashed URLs never change: the cache answers first; plain URLs: the network first
        "staticFirst": "cache" if _hashed_storage() else "network",
    }


_cached_worker_config = cache(_worker_config)


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    config = json.dumps(worker_config(), indent=2, sort_keys=True)
    response = HttpResponse(
        render_to_string("pwa/sw.js", {"config": config}),
        content_type="text/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = reverse("home")
    return response


@require_safe
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> HttpResponse:
    data = {
        "id": reverse("home"),
        "name": _("Estoc — calculateur de combat"),
        "short_name": "Estoc",
        "description": _(
            "Le calculateur de combat de la table\u00a0: choisissez les combattants, tapez les dés, "
            "lisez le récit, le détail du calcul et les chances."
        ),
        "lang": "fr",
        "dir": "ltr",
        "start_url": reverse("home"),
        "scope": reverse("home"),
        "display": "standalone",
        "orientation": "any",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "categories": ["games", "utilities"],
        "icons": [
            {"src": static(name), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for name, sizes, purpose in ICONS
        ],
    }
    return JsonResponse(
        data,
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False, "indent": 2},
    )


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """The page the worker shows when the server cannot be reached (precached at install)."""
    return render(request, "offline.html")
