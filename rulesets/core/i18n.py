"""Translation hook for engine and narrator texts.

Engines must not import Django, yet their French texts should be translatable through Django's
i18n. Texts are marked with :func:`_`; the web layer installs Django's ``gettext`` at start-up with
:func:`set_translator`. Without it (CLI of the pure package, unit tests) the French source is used.
"""

from __future__ import annotations

from collections.abc import Callable

_translator: Callable[[str], str] = str


def _no_language() -> str | None:
    return None


_language: Callable[[], str | None] = _no_language
_cache: dict[tuple[str | None, str], str] = {}
_CACHE_MAX = 20_000  # source texts are finite; the bound only guards against a caller passing built strings


def set_translator(translator: Callable[[str], str], language: Callable[[], str | None] | None = None) -> None:
    """Use ``translator`` for every later call of :func:`_`.

    ``language`` names the active language: translations are then remembered per language, so
    that an engine's few hundred texts cost a lookup each instead of a catalogue search (a
    resolution translates some forty texts).
    """
    global _translator, _language
    _translator = translator
    _language = language or _no_language
    _cache.clear()


def _(message: str) -> str:
    """Translate ``message`` (a French source text)."""
    key = (_language(), message)
    translated = _cache.get(key)
    if translated is None:
        translated = _translator(message)
        if len(_cache) >= _CACHE_MAX:
            _cache.clear()
        _cache[key] = translated
    return translated


def fr_number(value: float | int, decimals: int = 0) -> str:
    """Format a number the French way: decimal comma, narrow no-break space for thousands."""
    text = f"{value:,.{decimals}f}"
    return text.replace(",", "\u202f").replace(".", ",")


def fr_percent(value: float, decimals: int = 1) -> str:
    """``0.6349`` → ``"63,5 %"`` (with a no-break space before the sign)."""
    return f"{fr_number(value * 100, decimals)}\u00a0%"
