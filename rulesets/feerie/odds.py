"""Exact odds of one exchange: the dice term's distribution pushed through :func:`engine.settle`.

The only random step of an exchange is the dice term (``plus`` dice minus ``minus`` dice), whose
exact distribution is a convolution; every outcome is then a pure function of the term, so the
odds are exact and cost one :func:`settle` per distinct term value (39 for 1d20 − 1d20).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate

from rulesets.core.french import signed
from rulesets.core.i18n import _
from rulesets.core.odds import Chart, Distribution, Odds
from rulesets.feerie.engine import OUTCOMES, Settlement, defender_who, derive, settle
from rulesets.feerie.model import DiceTerm, Exchange


@lru_cache(maxsize=256)
def term_weights(term: DiceTerm) -> tuple[tuple[int, int], ...]:
    """(value, number of rolls) of ``plus``d``sides`` − ``minus``d``sides``, values ascending.

    Adding or taking away one die of ``n`` faces convolves the counts with a box of width ``n``:
    each new count is the difference of two prefix sums, so a die costs one pass over the values
    (3d100 − 3d100: six passes over at most 600 values, not 600 × 100 additions per die).
    """
    counts = [1]
    low = 0
    n = term.sides
    for sign in [1] * term.plus + [-1] * term.minus:
        prefix = [0, *accumulate(counts)]
        size = len(counts)
        counts = [prefix[min(j + 1, size)] - prefix[max(0, j + 1 - n)] for j in range(size + n - 1)]
        low += 1 if sign > 0 else -n
    return tuple((low + i, c) for i, c in enumerate(counts) if c)


@lru_cache(maxsize=256)
def term_distribution(term: DiceTerm) -> Distribution[int]:
    """Exact distribution of ``plus``d``sides`` − ``minus``d``sides`` (integer convolution)."""
    return Distribution.of(dict(term_weights(term)))


def settlements(s: Exchange) -> Distribution[Settlement]:
    """Distribution of the full settlement of the exchange."""
    dv = derive(s)
    cache: dict[int, Settlement] = {}

    def one(t: int) -> Settlement:
        if t not in cache:
            cache[t] = settle(s, dv, t)
        return cache[t]

    return term_distribution(s.roll).map(one)


MAX_BARS = 6


def grouped_bars(
    dist: Mapping[int, Fraction] | Mapping[int, int], anchor: int = 0, total: int = 1
) -> tuple[tuple[str, Fraction], ...]:
    """One bar per value, or equal ranges ("0…7") when that many bars would not fit a phone.

    The ranges are aligned on ``anchor`` (a margin of 0 hits, an initiative of 1 acts), so one bar
    never mixes both sides of the threshold that matters at the table. ``dist`` holds
    probabilities, or integer weights over ``total`` (summed as integers, divided once per bar).
    """
    values = sorted(dist)
    if len(values) <= 2 * MAX_BARS:
        return tuple((signed(v, plus=""), Fraction(dist[v]) / total) for v in values)
    low, high = values[0], values[-1]
    width = -(-(high - low + 1) // (MAX_BARS - 1))
    start = anchor + (low - anchor) // width * width
    bars: list[tuple[str, Fraction]] = []
    while start <= high:
        first, last = max(start, low), min(start + width - 1, high)
        share = sum(p for v, p in dist.items() if first <= v <= last)
        label = signed(first, plus="") if first == last else f"{signed(first, plus='')}…{signed(last, plus='')}"
        bars.append((label, Fraction(share) / total))
        start += width
    return tuple(bars)


def odds(s: Exchange) -> Odds:
    dist = settlements(s)
    by_outcome: dict[str, Fraction] = defaultdict(Fraction)
    lost: dict[int, Fraction] = defaultdict(Fraction)
    for st, p in dist:
        by_outcome[st.outcome] += p
        lost[st.essence_lost] += p
    if s.situation.target_inanimate:
        codes = ["object_damaged", "object_unharmed", "incident"]
        hit = by_outcome["object_damaged"] + by_outcome["object_unharmed"]
    else:
        codes = (
            ["hit", "hit_no_loss", "blow", "miss", "incident"]
            if s.active_blows
            else ["hit", "hit_no_loss", "miss", "incident"]
        )
        hit = by_outcome["hit"] + by_outcome["hit_no_loss"] + by_outcome["blow"]
    outcomes = tuple((c, OUTCOMES[c][0], by_outcome[c]) for c in codes)
    mean = sum((Fraction(v) * p for v, p in lost.items()), Fraction(0))
    title = (
        _("Dommages infligés à l'objet")
        if s.situation.target_inanimate
        else _("Essence perdue par {d.subject}").format(d=defender_who(s))
    )
    bars = grouped_bars(dict(lost), anchor=1)  # 0 (no loss) keeps a bar of its own
    margin: dict[int, Fraction] = defaultdict(Fraction)
    for st, p in dist:
        margin[st.margin] += p
    charts = (
        Chart("essence_lost", title, bars, mean, _("points d'Essence")),
        Chart(
            "margin",
            _("Marge de l'attaque"),
            grouped_bars(margin),
            dist.mean(lambda st: st.margin),
            _("points"),
        ),
    )
    expectations = (
        ("hit", _("Probabilité de toucher"), hit),
        ("essence_lost", _("Essence perdue en moyenne"), mean),
        ("incident", _("Probabilité d'incident"), by_outcome["incident"]),
    )
    return Odds(outcomes, charts, expectations)


__all__ = ["grouped_bars", "odds", "settlements", "term_distribution"]
