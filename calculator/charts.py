"""Server-rendered SVG bar charts of exact distributions (no chart library)."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class ChartView:
    chart: Chart
    bars: list[Bar]
    width: int = WIDTH
    height: int = HEIGHT
    baseline: int = HEIGHT - BOTTOM


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
        bars.append(
            Bar(
                x=round(x, 1),
                y=round(HEIGHT - BOTTOM - h, 1),
                width=round(width, 1),
                height=round(h, 1),
                label=label,
                percent=fr_percent(float(p), 0 if n > 8 else 1),
                label_x=round(x + width / 2, 1),
                show_label=i % step == 0 or i == n - 1,
                show_percent=n <= 12,
            )
        )
    return ChartView(chart=chart, bars=bars)
