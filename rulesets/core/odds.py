"""Exact probabilities.

:class:`Distribution` is a finite distribution over hashable outcomes with exact
:class:`~fractions.Fraction` probabilities. It is enough for any rule: ``map`` applies a rule to
each outcome, ``bind`` chains a second random step that depends on the first, ``product`` joins
independent steps. Counting successes in a pool and keeping the highest dice go through icepool
(pinned), behind the few functions below, so engines never import it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import product as cartesian
from math import comb
from typing import TypeVar

import icepool

from rulesets.core.dice import Die
from rulesets.core.typography import typography

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Distribution[T: Hashable]:
    """Outcomes and their exact probabilities (they sum to 1)."""

    probabilities: Mapping[T, Fraction]

    @classmethod
    def of(cls, weights: Mapping[T, int | Fraction]) -> Distribution[T]:
        total = sum(weights.values(), Fraction(0))
        if total <= 0:
            raise ValueError("a distribution needs a positive total weight")
        return cls({k: Fraction(v) / total for k, v in weights.items() if v})

    @classmethod
    def certain(cls, outcome: T) -> Distribution[T]:
        return cls({outcome: Fraction(1)})

    @classmethod
    def uniform(cls, outcomes: Iterable[T]) -> Distribution[T]:
        counts: dict[T, int] = defaultdict(int)
        for outcome in outcomes:
            counts[outcome] += 1
        return cls.of(counts)

    def __iter__(self) -> Iterator[tuple[T, Fraction]]:
        return iter(self.probabilities.items())

    def __getitem__(self, outcome: T) -> Fraction:
        return self.probabilities.get(outcome, Fraction(0))

    def outcomes(self) -> list[T]:
        return list(self.probabilities)

    def map(self, fn: Callable[[T], U]) -> Distribution[U]:
        out: dict[U, Fraction] = defaultdict(Fraction)
        for outcome, p in self.probabilities.items():
            out[fn(outcome)] += p
        return Distribution(dict(out))

    def bind(self, fn: Callable[[T], Distribution[U]]) -> Distribution[U]:
        out: dict[U, Fraction] = defaultdict(Fraction)
        for outcome, p in self.probabilities.items():
            for inner, q in fn(outcome).probabilities.items():
                out[inner] += p * q
        return Distribution(dict(out))

    def probability(self, predicate: Callable[[T], bool]) -> Fraction:
        return sum((p for o, p in self.probabilities.items() if predicate(o)), Fraction(0))

    def mean(self, value: Callable[[T], int | Fraction] | None = None) -> Fraction:
        """Expected value of ``value(outcome)`` (of the outcome itself when it is a number)."""
        total = Fraction(0)
        for outcome, p in self.probabilities.items():
            number = value(outcome) if value is not None else outcome
            if not isinstance(number, int | Fraction):
                raise TypeError("mean() needs numeric outcomes or a value function")
            total += Fraction(number) * p
        return total

    def sorted_items(self) -> list[tuple[T, Fraction]]:
        return sorted(self.probabilities.items(), key=lambda item: item[0])  # type: ignore[arg-type,return-value]

    def total(self) -> Fraction:
        return sum(self.probabilities.values(), Fraction(0))


def product[T: Hashable](*dists: Distribution[T]) -> Distribution[tuple[T, ...]]:
    """Joint distribution of independent steps (tuples of outcomes)."""
    out: dict[tuple[T, ...], Fraction] = defaultdict(Fraction)
    for combo in cartesian(*(d.probabilities.items() for d in dists)):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        out[tuple(o for o, _ in combo)] += p
    return Distribution(dict(out))


def add(a: Distribution[int], b: Distribution[int]) -> Distribution[int]:
    """Sum of two independent integer distributions (convolution)."""
    return a.bind(lambda x: b.map(lambda y: x + y))


# --- icepool adapter -------------------------------------------------------------------------


def _to_icepool(die: Die) -> icepool.Die[int]:
    return icepool.Die(list(die.faces))


def _from_icepool(result: icepool.Die[int]) -> Distribution[int]:
    denominator = result.denominator()
    return Distribution({int(o): Fraction(int(q), denominator) for o, q in result.items() if q})


def die_distribution(die: Die) -> Distribution[int]:
    """One roll of ``die``."""
    return Distribution.uniform(die.faces)


def success_count(count: int, die: Die, successes: Iterable[int]) -> Distribution[int]:
    """Number of dice among ``count`` rolls of ``die`` showing one of ``successes``.

    Each die succeeds independently with the same probability, so the count is binomial: computed
    exactly in closed form (and memoised), which beats a general pool evaluation by two orders of
    magnitude for the 10–15 dice pools tables roll.
    """
    return _success_count(count, die, frozenset(successes))


@lru_cache(maxsize=1024)
def _success_count(count: int, die: Die, wanted: frozenset[int]) -> Distribution[int]:
    if count <= 0:
        return Distribution.certain(0)
    p = Fraction(sum(1 for face in die.faces if face in wanted), len(die.faces))
    q = 1 - p
    return Distribution(
        {k: comb(count, k) * p**k * q ** (count - k) for k in range(count + 1) if p**k * q ** (count - k)}
    )


def sum_of(dice: Iterable[Die]) -> Distribution[int]:
    """Sum of one roll of each die."""
    dice = list(dice)
    if not dice:
        return Distribution.certain(0)
    return _from_icepool(icepool.Pool([_to_icepool(d) for d in dice]).sum())


def keep_highest_sum(dice: Iterable[Die], keep: int) -> Distribution[int]:
    """Sum of the ``keep`` highest of one roll of each die."""
    dice = list(dice)
    if not dice or keep <= 0:
        return Distribution.certain(0)
    return _from_icepool(icepool.Pool([_to_icepool(d) for d in dice]).highest(keep).sum())


def brute_force[U: Hashable](dice: Iterable[Die], fn: Callable[[tuple[int, ...]], U]) -> Distribution[U]:
    """Enumerate every face combination (for tests and tiny cases)."""
    counts: dict[U, int] = defaultdict(int)
    for faces in cartesian(*(d.faces for d in dice)):
        counts[fn(tuple(faces))] += 1
    return Distribution.of(counts)


@dataclass(frozen=True, slots=True)
class Chart:
    """A named distribution to draw: ``bars`` are (label, probability) in display order."""

    key: str
    title: str
    bars: tuple[tuple[str, Fraction], ...]
    mean: Fraction | None = None
    unit: str = ""

    def __post_init__(self) -> None:  # French spacing for what the chart shows (issue 15)
        object.__setattr__(self, "title", typography(self.title))
        object.__setattr__(self, "bars", tuple((typography(label), p) for label, p in self.bars))
        object.__setattr__(self, "unit", typography(self.unit))


@dataclass(frozen=True, slots=True)
class Odds:
    """What an odds panel shows: the outcome tiers, charts and a few named expectations."""

    outcomes: tuple[tuple[str, str, Fraction], ...]  # (code, French label, probability)
    charts: tuple[Chart, ...] = ()
    expectations: tuple[tuple[str, str, Fraction], ...] = field(default=())  # (code, label, value)

    def __post_init__(self) -> None:  # French spacing for the panel's labels (issue 15)
        object.__setattr__(self, "outcomes", tuple((c, typography(label), p) for c, label, p in self.outcomes))
        object.__setattr__(self, "expectations", tuple((c, typography(label), v) for c, label, v in self.expectations))

    def probability(self, code: str) -> Fraction:
        for c, _, p in self.outcomes:
            if c == code:
                return p
        raise KeyError(code)
