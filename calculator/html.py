"""HTML built in Python for the hot template helpers: Django's ``format_html`` semantics, faster.

``django.utils.html.format_html`` escapes each argument with ``conditional_escape``, which is wrapped
by ``keep_lazy`` (a check for lazy arguments on every call). A calculator page renders a few hundred
fields and options this way; the wrapper cost more than the escaping (docs/performance.md). These
functions give the same strings: a value with ``__html__`` (a ``SafeString``, a form's bound field)
is taken as it is, anything else is ``html.escape``d, as Django's ``escape`` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape as _escape
from typing import Any

from django.utils.safestring import SafeString


def esc(value: Any) -> str:
    """``conditional_escape(value)`` as a plain str."""
    html = getattr(value, "__html__", None)
    if html is not None:
        return str(html())
    return _escape(str(value))


def fmt(template: str, *args: Any, **kwargs: Any) -> SafeString:
    """``format_html(template, *args, **kwargs)``."""
    return SafeString(template.format(*[esc(a) for a in args], **{k: esc(v) for k, v in kwargs.items()}))


def fmt_join(sep: str, template: str, args: Iterable[Any]) -> SafeString:
    """``format_html_join(sep, template, args)``: each row a sequence of positional arguments or a
    mapping of keyword arguments."""
    return SafeString(
        esc(sep).join(
            template.format(**{k: esc(v) for k, v in row.items()})
            if isinstance(row, Mapping)
            else template.format(*[esc(a) for a in row])
            for row in args
        )
    )
