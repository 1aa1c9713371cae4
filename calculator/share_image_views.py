"""``/r/<id>.png`` and ``/r/<id>.svg``: the image of a shared result drawn on the server (issue 19,
items 1 and 5), linkable and embeddable, there without JavaScript (calculator/share_image.py draws
it).

Both answer GET and HEAD (preview bots ask HEAD first), 404 for an unknown share, and are cached
for a year by browsers and proxies (a share never changes: ``immutable``), with a strong ETag
(the hash of the bytes) that a revalidation answers with 304. The SVG is a document a browser may
open on its own: its policy forbids every script and every fetch (``default-src 'none'``), and
nothing may sniff it into another type. Neither reads the session: no cookie, no ``Vary: Cookie``,
so shared caches keep them.

A first render (the image not in the cache yet) costs up to a second of CPU (docs/performance.md):
it counts as a resolve in the client's ``RESOLVE_RATE`` (calculator/limits.py), a 429 past it; an
image already drawn is served whatever the count (preview bots fetch the same images again).
"""

from __future__ import annotations

import logging

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response
from django.views.decorators.http import require_safe

from calculator import limits, share_image
from calculator.models import SharedResult

logger = logging.getLogger(__name__)
CACHE_CONTROL = "public, max-age=31536000, immutable"
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'"


def _share(share_id: str) -> SharedResult:
    if "\x00" in share_id:  # PostgreSQL refuses a NUL in a query: no share has one
        raise Http404(share_id)
    shared = SharedResult.objects.filter(pk=share_id).first()
    if shared is None:
        raise Http404(share_id)
    return shared


def _refused(request: HttpRequest) -> HttpResponse | None:
    """The 429 when a first render would pass the client's ``RESOLVE_RATE``; else None (counted)."""
    rate = limits.rate_of("resolve")
    if rate is None or limits.exempt(request):
        return None
    try:
        wait = limits.hit("resolve", limits.client_key(request), rate)
    except Exception:  # the limits protect the service; the cache failing must not stop it
        logger.warning("rate limit: the cache failed, image rendered", exc_info=True)
        return None
    return limits.throttled(request, "resolve", wait) if wait else None


def _image(request: HttpRequest, body: bytes, content_type: str, filename: str) -> HttpResponse:
    tag = share_image.etag(body)
    response = HttpResponse(body, content_type=content_type)
    response["ETag"] = tag
    response["Cache-Control"] = CACHE_CONTROL
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    conditional = get_conditional_response(request, etag=tag, response=response)
    return conditional if conditional is not None else response


@require_safe
def shared_png(request: HttpRequest, share_id: str) -> HttpResponse:
    """The share's PNG, 1,440 px wide (the 720 px layout at zoom 2)."""
    shared = _share(share_id)
    if share_image.cached("png", shared.id) is None and (refused := _refused(request)) is not None:
        return refused
    return _image(request, share_image.png_bytes(shared), "image/png", f"estoc-{shared.id}.png")


@require_safe
def shared_svg(request: HttpRequest, share_id: str) -> HttpResponse:
    """The share's SVG, the PNG's source (its texts are text: searchable, selectable)."""
    shared = _share(share_id)
    if share_image.cached("svg", shared.id) is None and (refused := _refused(request)) is not None:
        return refused
    response = _image(
        request, share_image.svg_text(shared).encode(), "image/svg+xml; charset=utf-8", f"estoc-{shared.id}.svg"
    )
    response["Content-Security-Policy"] = SVG_CSP  # set here, the CSP middleware keeps it
    return response
