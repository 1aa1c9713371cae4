"""JSON read from outside (an API body, an imported file, a page's hidden input), refused in French
when it could only end in a 500 further on (issue 17, finding 4).

* Nesting is bounded before anything recurses into it: the parser (``pydantic_core.from_json``, the
  Rust parser django-ninja already brings) stops at :data:`MAX_DEPTH` levels, where the standard
  library's would raise ``RecursionError`` at about a thousand.
* Numbers are finite: ``NaN``, ``Infinity`` and ``-Infinity`` (which ``json.loads`` accepts) and a
  number too large for a float (``1e400``) are refused; ``int(inf)`` raises ``OverflowError``.
* With ``allow_nul=False``, no string (key or value) holds the NUL character, which PostgreSQL
  refuses in a text or JSON column.
"""

from __future__ import annotations

import math
import re
from typing import Any

from pydantic_core import from_json

MAX_DEPTH = 200  # pydantic_core's parser limit (jiter's default recursion limit)

ERROR_NOT_JSON = "Le corps de la requête doit être un objet JSON valide."
ERROR_TOO_DEEP = "JSON imbriqué trop profondément\u202f: {n} niveaux au plus."
ERROR_NOT_FINITE = "Nombre refusé\u202f: NaN, Infinity et les nombres hors de portée ne sont pas des nombres finis."
ERROR_NUL = "Caractère nul (\\u0000) interdit dans un texte."
_WHERE = re.compile(r"at line (\d+) column (\d+)")


class JsonRefused(ValueError):
    """The input is refused; ``message`` says why, in French; ``line`` and ``column`` where, when the
    text is not JSON at all."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def loads(data: bytes | str, *, allow_nul: bool = True) -> Any:
    """``data`` parsed, or :class:`JsonRefused` (see the module docstring)."""
    try:
        value = from_json(data, allow_inf_nan=True)  # NaN and Infinity refused below, with their own message
    except ValueError as exc:
        text = str(exc)
        if "recursion limit" in text:
            raise JsonRefused(ERROR_TOO_DEEP.format(n=MAX_DEPTH)) from None
        where = _WHERE.search(text)
        line, column = (int(where.group(1)), int(where.group(2))) if where else (None, None)
        raise JsonRefused(ERROR_NOT_JSON, line, column) from None
    _check(value, allow_nul)
    return value


def _check(value: Any, allow_nul: bool) -> None:
    """Refuse a non-finite number (and a NUL, unless allowed) anywhere in ``value``, without recursion."""
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind is float:
            if not math.isfinite(item):
                raise JsonRefused(ERROR_NOT_FINITE)
        elif kind is str:
            if not allow_nul and "\x00" in item:
                raise JsonRefused(ERROR_NUL)
        elif kind is list:
            extend(item)
        elif kind is dict:
            if not allow_nul and any("\x00" in key for key in item):
                raise JsonRefused(ERROR_NUL)
            extend(item.values())
