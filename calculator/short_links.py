"""Permalinks that always fit (issue 17, finding 9): a compact ``z`` parameter, else a short link.

A result's permalink names every field of the scenario; a large one (Féerie Action's
``ogre_sylphes_action``: 12 KB) went past gunicorn's request line (8,190 bytes, a 414) and past
what wikis and chats keep of a link. :func:`fit` gives the link to show instead:

1. the permalink itself when it fits in ``limit`` bytes (``settings.PERMALINK_MAX_BYTES``, 2,000 by
   default, for the links a table copies: « Lien permanent », the URL a result pushes or redirects
   to; :data:`NAVIGATION_MAX_BYTES` for the links the page follows itself: its variations);
2. else the same URL with the scenario's fields packed into one parameter ``z`` (the marker, the
   seed, the typed dice and the ``_``-prefixed context fields stay readable), compressed with zlib,
   or LZMA when zlib's does not fit, and base64url-encoded;
3. else a short link ``/p/<id>``, a :class:`~calculator.models.ShortLink` row keyed by a hash of the
   URL (the same result always gets the same one), which renders the calculator from the stored
   URL (:func:`calculator.share_views.short_link`) without redirecting to it.

:func:`expand_query` undoes step 2: the same query string, byte for byte, before anything reads it
(:func:`expands_compact_links` on the calculator view, ``services.resolution_from_query`` for
« Partager » and « Appliquer »). A corrupt, truncated or oversized ``z`` is refused with a French
message (:class:`LinkError`, a 400), never a guess: the decompressed size is bounded
(:data:`MAX_EXPANDED_BYTES`, a decompression bomb stops there) and zlib's Adler-32 or our CRC-32
must match.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import lzma
import re
import zlib
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_plus

from django.conf import settings
from django.core.exceptions import TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, QueryDict
from django.template.loader import render_to_string

from calculator.http import form_query_dict
from rulesets.core.schema import ScenarioError

PACKED = "z"
SHORT_PREFIX = "/p/"
DEFAULT_PERMALINK_MAX_BYTES = 2000
# gunicorn's --limit-request-line 8190 (Dockerfile) less "GET ", " HTTP/1.1" and a margin
NAVIGATION_MAX_BYTES = 8000
# what a ``z`` may expand to: some 20 times the largest worked example's query (12 KB)
MAX_EXPANDED_BYTES = 256 * 1024
# base64 of MAX_EXPANDED_BYTES would never be needed: a compact link is at most a request line
MAX_PACKED_CHARS = 16 * 1024

_ZLIB = 1
_LZMA = 2
# a small window: queries are tens of KB, and the decoder allocates the dictionary
_LZMA_FILTERS: list[dict[str, Any]] = [
    {"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": MAX_EXPANDED_BYTES}
]
_BASE64URL = re.compile(r"[A-Za-z0-9_-]+")

ERROR_CORRUPT = (
    "Ce lien est abîmé ou incomplet\u202f: son paramètre «\u202fz\u202f» ne se décode pas. Recopiez le lien en entier, "
    "ou rouvrez le résultat depuis la page qui l'a donné."
)
ERROR_TOO_LARGE = "Ce lien décompressé dépasserait {limit}\u00a0Kio\u202f: il n'a pas été ouvert."
ERROR_TOO_MANY_FIELDS = "Ce lien compte trop de champs\u202f: il n'a pas été ouvert."
ERROR_TWICE = "Ce lien a plusieurs paramètres «\u202fz\u202f»\u202f: il n'a pas été ouvert."


class LinkError(ScenarioError):
    """A compact link that cannot be expanded: the French message is in ``errors["__all__"]``."""

    def __init__(self, message: str) -> None:
        super().__init__({"__all__": message})

    @property
    def message(self) -> str:
        return str(self.errors["__all__"])


def permalink_max_bytes() -> int:
    return int(getattr(settings, "PERMALINK_MAX_BYTES", DEFAULT_PERMALINK_MAX_BYTES))


# --- packing -------------------------------------------------------------------------------------


# The pairs left readable beside ``z``: the marker and context fields (``_f``, ``_enc``,
# ``_role.pc``…), ``r``, the seed and the typed dice. Encoded keys: these are plain ASCII.
_KEPT_PREFIXES = ("_", "r=", "seed=", "dice.")
_KEPT_NAMES = frozenset(("r", "seed"))


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


@functools.lru_cache(maxsize=128)
def pack(text: str) -> str:
    """The ``z`` value of ``text`` (encoded pairs joined by ``&``), zlib: a format byte, then the
    zlib stream (its Adler-32 checks it). Some 0.1 ms for a 12 KB query; kept for the last texts
    packed (the rolls of a scene pack the same fields: the seed and the dice stay beside ``z``)."""
    return _b64(bytes([_ZLIB]) + zlib.compress(text.encode("utf-8"), 9))


@functools.lru_cache(maxsize=32)
def pack_lzma(text: str) -> str:
    """:func:`pack` with LZMA2 (a third shorter, some 2 ms for 12 KB: tried when zlib's link does
    not fit): a format byte, the raw LZMA2 stream, the CRC-32 of the text."""
    raw = text.encode("utf-8")
    body = lzma.compress(raw, format=lzma.FORMAT_RAW, filters=_LZMA_FILTERS)
    return _b64(bytes([_LZMA]) + body + zlib.crc32(raw).to_bytes(4, "big"))


def unpack(value: str) -> str:
    """The text a ``z`` value packs, or :class:`LinkError` (corrupt, truncated, too large)."""
    if len(value) > MAX_PACKED_CHARS:
        raise LinkError(ERROR_TOO_LARGE.format(limit=MAX_EXPANDED_BYTES // 1024))
    if not value or not _BASE64URL.fullmatch(value):
        raise LinkError(ERROR_CORRUPT)
    try:
        data = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise LinkError(ERROR_CORRUPT) from None
    if len(data) < 2:
        raise LinkError(ERROR_CORRUPT)
    kind, body = data[0], data[1:]
    try:
        if kind == _ZLIB:
            inflater = zlib.decompressobj()
            raw = inflater.decompress(body, MAX_EXPANDED_BYTES + 1)
            if len(raw) > MAX_EXPANDED_BYTES or inflater.unconsumed_tail:
                raise LinkError(ERROR_TOO_LARGE.format(limit=MAX_EXPANDED_BYTES // 1024))
            if not inflater.eof or inflater.unused_data:
                raise LinkError(ERROR_CORRUPT)
        elif kind == _LZMA and len(body) > 4:
            decoder = lzma.LZMADecompressor(format=lzma.FORMAT_RAW, filters=_LZMA_FILTERS)
            raw = decoder.decompress(body[:-4], MAX_EXPANDED_BYTES + 1)
            if len(raw) > MAX_EXPANDED_BYTES or (not decoder.eof and not decoder.needs_input):
                raise LinkError(ERROR_TOO_LARGE.format(limit=MAX_EXPANDED_BYTES // 1024))
            if not decoder.eof or decoder.unused_data or zlib.crc32(raw) != int.from_bytes(body[-4:], "big"):
                raise LinkError(ERROR_CORRUPT)
        else:
            raise LinkError(ERROR_CORRUPT)
        return raw.decode("utf-8")
    except (zlib.error, lzma.LZMAError, UnicodeDecodeError):
        raise LinkError(ERROR_CORRUPT) from None


def expand_query(query: str) -> str:
    """``query`` with its ``z`` pair replaced by the pairs it packs, in place: the permalink's own
    query string. A query without ``z`` comes back as it is."""
    pieces = query.split("&")
    found = [i for i, piece in enumerate(pieces) if unquote_plus(piece.partition("=")[0]) == PACKED]
    if not found:
        return query
    if len(found) > 1:
        raise LinkError(ERROR_TWICE)
    i = found[0]
    text = unpack(pieces[i].partition("=")[2])
    out = "&".join([*pieces[:i], text, *pieces[i + 1 :]] if text else [*pieces[:i], *pieces[i + 1 :]])
    if len(out.encode("utf-8")) > MAX_EXPANDED_BYTES:
        raise LinkError(ERROR_TOO_LARGE.format(limit=MAX_EXPANDED_BYTES // 1024))
    return out


def expanded_query_dict(query: str) -> QueryDict:
    """:func:`expand_query` read as Django reads a query string (the same field limit)."""
    try:
        return form_query_dict(expand_query(query).encode("utf-8"))
    except TooManyFieldsSent:
        raise LinkError(ERROR_TOO_MANY_FIELDS) from None


@functools.lru_cache(maxsize=64)
def compact(url: str, limit: int) -> str | None:
    """``url`` with its scenario fields in ``z`` when that fits in ``limit`` bytes, else None.

    The ``z`` pair takes the place of the first packed pair, where :func:`expand_query` puts them
    back: each key keeps its values in their order (a key is packed or kept, never both), and a
    permalink of Estoc's (marker, fields, dice, seed, ``r``, context) comes back byte for byte.
    Kept: a result page asks for its permalink several times (redirect, pushed URL, the link)."""
    path, sep, query = url.partition("?")
    if not sep:
        return None
    pieces = query.split("&")
    prefixes, names = _KEPT_PREFIXES, _KEPT_NAMES
    kept = [p.startswith(prefixes) or p in names for p in pieces]
    first = next((i for i, k in enumerate(kept) if not k), None)
    if first is None:
        return None
    text = "&".join([p for p, k in zip(pieces, kept, strict=True) if not k])
    after = [p for p, k in zip(pieces[first + 1 :], kept[first + 1 :], strict=True) if k]
    for packer in (pack, pack_lzma):
        out = f"{path}?{'&'.join([*pieces[:first], f'{PACKED}={packer(text)}', *after])}"
        if len(out.encode("utf-8")) <= limit:
            return out
    return None


# --- short links ---------------------------------------------------------------------------------


def short_id(url: str) -> str:
    """The key of ``url``'s short link: 96 bits of its SHA-256, base64url (16 characters)."""
    return _b64(hashlib.sha256(url.encode("utf-8")).digest()[:12])


def short_link(url: str) -> str:
    """``/p/<id>``, the row created when missing (the same URL always gets the same one)."""
    from calculator.models import ShortLink

    key = short_id(url)
    row, _created = ShortLink.objects.get_or_create(id=key, defaults={"url": url})
    if row.url != url:  # 96 bits collided: the whole digest
        key = _b64(hashlib.sha256(url.encode("utf-8")).digest())
        ShortLink.objects.get_or_create(id=key, defaults={"url": url})
    return f"{SHORT_PREFIX}{key}"


def fit(url: str, limit: int | None = None) -> str:
    """The link to show for ``url``: itself, its compact form, or its short link (module docstring).

    ``limit``: bytes of the whole link (path and query, without the host); default
    ``settings.PERMALINK_MAX_BYTES``."""
    limit = permalink_max_bytes() if limit is None else limit
    if not url or (len(url) <= limit and len(url.encode("utf-8")) <= limit):
        return url
    return compact(url, limit) or short_link(url)


# --- the views' side -----------------------------------------------------------------------------


def link_error_response(request: HttpRequest, error: LinkError) -> HttpResponse:
    body = render_to_string("calculator/link_error.html", {"message": error.message}, request)
    return HttpResponse(body, status=400)


def expands_compact_links(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Decorator: a GET with ``z`` reaches ``view`` with ``request.GET`` expanded (the permalink's
    own query); a ``z`` that cannot be expanded is a French 400."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if PACKED in request.GET:
            try:
                request.GET = expanded_query_dict(request.META.get("QUERY_STRING", ""))  # type: ignore[assignment]
            except LinkError as exc:
                return link_error_response(request, exc)
        return view(request, *args, **kwargs)

    return wrapper
