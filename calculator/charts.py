"""Server-rendered SVG bar charts of exact distributions (no chart library)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulesets.core.french import is_plural_count, plural
from rulesets.core.i18n import fr_percent
from rulesets.core.odds import Chart

WIDTH, HEIGHT, TOP, BOTTOM = 320, 140, 18, 22


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    percent: str
    label_x: float
    show_label: bool = True
    show_percent: bool = True
    title: str = ""  # what a pointer over the bar reads: « 3 points : 12,5 % »


@dataclass(frozen=True)
class ChartView:
    chart: Chart
    bars: list[Bar]
    width: int = WIDTH
    height: int = HEIGHT
    baseline: int = HEIGHT - BOTTOM


_NUMBER = re.compile(r"\d+")
_RANGE = re.compile(r"\d\s*[…–—-]\s*\d")
_OPEN_END = re.compile(r"\+$")


def _singular(unit: str) -> str:
    """« points d'Essence » → « point d'Essence », « rangs » → « rang »: the unit's first word
    singular when the unit is written in the plural (a unit is given as the charts' axis says it)."""
    first, _sep, rest = unit.partition(" ")
    if first.endswith(("s", "x")) and plural(first[:-1]) == first:
        return (first[:-1] + (" " + rest if rest else "")).strip()
    return unit


def bar_title(label: str, unit: str, percent: str) -> str:
    """A bar's tooltip, its unit agreed with its value (issue 15): « 1 point : 12,5 % », « 3 points :
    40 % », « rangs 17…24 : 33 % » (a range or an open end, the unit first and plural); a bar whose
    label is not a number keeps it alone (« Fuite : 5 % »)."""
    numbers = [int(n) for n in _NUMBER.findall(label)]
    if not unit or not numbers or not label.lstrip("−-+")[:1].isdigit():
        return f"{label}\u202f: {percent}"
    singular = _singular(unit)
    if _RANGE.search(label):  # « rangs 17…24 »: the unit first, a range reads as plural
        return f"{plural(singular)} {label}\u202f: {percent}"
    many = bool(_OPEN_END.search(label)) or is_plural_count(numbers[-1])
    return f"{label}\u00a0{plural(singular) if many else singular}\u202f: {percent}"


def chart_view(chart: Chart) -> ChartView:
    """Bars scaled to the most likely value; each with its label and its percentage."""
    n = max(1, len(chart.bars))
    slot = WIDTH / n
    width = max(4.0, slot * 0.7)
    peak = max((float(p) for _, p in chart.bars), default=1.0) or 1.0
    usable = HEIGHT - TOP - BOTTOM
    bars = []
    step = 1 if n <= 12 else -(-n // 8)  # at most ~8 tick labels on a crowded axis
    for i, (label, p) in enumerate(chart.bars):
        h = usable * float(p) / peak
        x = i * slot + (slot - width) / 2
        shown = fr_percent(float(p), 0 if n > 8 else 1)
        bars.append(
            Bar(
                x=round(x, 1),
                y=round(HEIGHT - BOTTOM - h, 1),
                width=round(width, 1),
                height=round(h, 1),
                label=label,
                percent=shown,
                label_x=round(x + width / 2, 1),
                show_label=i % step == 0 or i == n - 1,
                show_percent=n <= 12,
                title=bar_title(label, chart.unit, shown),
            )
        )
    return ChartView(chart=chart, bars=bars)
