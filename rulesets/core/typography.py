"""French spacing of a text about to be shown (issue 15): the typography half of the French
toolkit (:mod:`rulesets.core.french`), kept apart so that the schema's messages can use it."""

from __future__ import annotations

import re
from functools import lru_cache

NBSP = "\u00a0"
NNBSP = "\u202f"  # narrow no-break space: before ; : ! ? and inside « »
MINUS = "\u2212"


_SPACE_BEFORE = re.compile(r"([^\s\u00a0\u202f])[ \u00a0\u202f]*([;:!?])(?=[\s\"»)\]]|$)")
_OPEN_GUILLEMET = re.compile(r"«[ \u00a0\u202f]*")
_CLOSE_GUILLEMET = re.compile(r"[ \u00a0\u202f]*»")
_HYPHEN_MINUS = re.compile(r"(^|[\s(\[/=→:;,])-(?=\d)")
_URL = re.compile(r"\b(?:https?|ftp|mailto):\S+")


def _spacing(text: str) -> str:
    text = _SPACE_BEFORE.sub(lambda m: m.group(1) + NNBSP + m.group(2), text)
    text = _OPEN_GUILLEMET.sub("«" + NNBSP, text)
    text = _CLOSE_GUILLEMET.sub(NNBSP + "»", text)
    return _HYPHEN_MINUS.sub(lambda m: m.group(1) + MINUS, text)


_ANY = re.compile(r"[;:!?«»]|-\d")


@lru_cache(maxsize=8192)
def typography(text: str) -> str:
    """French spacing for a plain text: a narrow no-break space before « ; : ! ? » and inside
    « », the minus sign U+2212 for a hyphen used as a sign (« -2 » → « −2 »). URLs and times
    (« 12:30 ») are left alone; a colon glued to a word (« Dés: ») gets its space.

    For a text about to be shown, never for one still being composed (it is idempotent)."""
    if not text or not _ANY.search(text):
        return text
    pieces: list[str] = []
    last = 0
    for m in _URL.finditer(text):
        pieces.append(_spacing(text[last : m.start()]))
        pieces.append(m.group(0))
        last = m.end()
    pieces.append(_spacing(text[last:]))
    return "".join(pieces)
