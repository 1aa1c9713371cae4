"""The « Rejouer ce résultat » link of a log entry (issue 16): only the site's own calculator.

An imported log carries its links as written in the file; the page puts one in ``<a href>`` and the
Markdown export in ``[…](…)``. :func:`safe_replay_link` is the one check, used by the import (a bad
link refuses the file) and by :attr:`encounters.models.LogEntry.permalink` (an old row shows none).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from django.urls import Resolver404, resolve

# What a permalink is made of: a path, then a query that ``urlencode`` wrote (unreserved characters,
# ``%XX``, ``+``, ``=``, ``&``), maybe ``#result``; nothing that ends a Markdown link or an HTML
# attribute (no space, quote, bracket, parenthesis, angle bracket, backslash), nothing beyond ASCII
_CHARACTERS = re.compile(r"[A-Za-z0-9\-._~/?#&=+%:@!$*,;]+")
_PATH = re.compile(r"[A-Za-z0-9\-._~/]+")
CALCULATOR_PAGES = frozenset({"calculator", "calculator_page", "short_link"})


def safe_replay_link(url: Any) -> bool:
    """True when ``url`` is a relative link to one of this site's calculator pages:
    ``/<ruleset>/?…``, ``/<system>/<page>/?…`` for a registered ruleset, or a short link ``/p/<id>``.

    Refused: anything not a string, empty, absolute (a scheme such as ``javascript:``, a host,
    ``//host``), a backslash, a control character or whitespace, a dot segment, and every other page
    of the site (``/admin/``, ``/encounters/1/``…). An entry without a link stores ``""``: callers
    accept that before asking."""
    if not isinstance(url, str) or not url or not _CHARACTERS.fullmatch(url):
        return False  # the whitelist leaves out control characters, whitespace and backslashes
    if not url.startswith("/") or url.startswith("//"):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    if parts.scheme or parts.netloc or not _PATH.fullmatch(parts.path):
        return False
    if any(segment in {".", ".."} for segment in parts.path.split("/")):
        return False  # a browser would follow « /p/.. » to another page than the one resolved
    try:
        match = resolve(parts.path)
    except Resolver404:
        return False
    if match.namespace or match.url_name not in CALCULATOR_PAGES:
        return False
    if match.url_name == "short_link":
        return True
    from rulesets.core.registry import load_all

    slug = match.kwargs.get("slug", "")
    if match.url_name == "calculator_page":
        slug = f"{slug}-{match.kwargs.get('page', '')}"
    return slug in load_all()
