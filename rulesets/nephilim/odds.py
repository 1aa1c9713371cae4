"""Exact odds of a Nephilim Légende exchange.

A strike reads two D100 (attack, then defence): 10 000 pairs. The damage pipeline only depends on
a face through a handful of facts — success, critique, maladresse and the margin choices actually
usable — so the 100 faces of each die fall into a few classes. The odds run the *same* strike
code as :func:`~rulesets.nephilim.engine.resolve` once per pair of classes (a few dozen calls),
weighted by the class sizes: exact, and fast. Attaque rapide adds its two independent strikes
(convolution); every defender of a burst or coup par coup gets its own distribution.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from rulesets.core.i18n import _
from rulesets.core.odds import Chart, Distribution, Odds
from rulesets.nephilim.engine import (
    TIER_LABELS,
    TIERS,
    Roll,
    Strike,
    StrikeContext,
    attack_degree,
    defence_degree,
    plan,
    read_roll,
    resolve_strike,
    strike_context,
)
from rulesets.nephilim.model import Scenario

FACES = range(1, 101)


@dataclass(frozen=True, slots=True)
class StrikeFacts:
    """What the odds report about one strike."""

    hit: bool
    critical: bool
    fumble: bool
    defence_success: bool
    phys: int
    mag: int
    tier: str


def _key(roll: Roll, chosen: int) -> tuple[bool, bool, bool, int]:
    """What the pipeline reads of a roll: success, critique, maladresse, usable margin choices."""
    return (roll.success, roll.critical, roll.fumble, min(roll.choices, chosen))


@lru_cache(maxsize=1024)
def _classes(degree: int, chosen: int) -> dict[tuple[bool, bool, bool, int], tuple[int, int]]:
    """Faces of a D100 grouped by what the pipeline reads: key → (representative face, count)."""
    out: dict[tuple[bool, bool, bool, int], tuple[int, int]] = {}
    for face in FACES:
        key = _key(read_roll(face, degree), chosen)
        rep, count = out.get(key, (face, 0))
        out[key] = (rep, count + 1)
    return out


@lru_cache(maxsize=1024)
def _defence_classes(degree: int, chosen: int) -> tuple[tuple[int, int], ...]:
    """Defence faces grouped by what the pipeline reads of them: success and usable margin choices
    (a defence critique or maladresse changes nothing): (representative face, count)."""
    out: dict[tuple[bool, int], tuple[int, int]] = {}
    for face in FACES:
        roll = read_roll(face, degree)
        key = (roll.success, min(roll.choices, chosen))
        rep, count = out.get(key, (face, 0))
        out[key] = (rep, count + 1)
    return tuple(out.values())


def facts_of(roll_hit: bool, attack: Roll, defence: Roll | None, phys: int, mag: int, tier: str) -> StrikeFacts:
    return StrikeFacts(roll_hit, attack.critical, attack.fumble, bool(defence and defence.success), phys, mag, tier)


Prepared = tuple[int, int, Callable[[bool], int], StrikeContext]
ClassKey = tuple[bool, bool, bool, int]


def _prepare(scn: Scenario, st: Strike) -> Prepared:
    """Attack degree, defence margin choices wanted, the defence degree given a hit, and the
    strike's context (its effects, read once for every face)."""
    context = strike_context(scn, st)
    s, att_fx, def_fx = context.situation, context.att_fx, context.def_fx
    att_deg = attack_degree(scn, s, att_fx, None)

    def def_deg(hit: bool) -> int:
        return defence_degree(scn, s, st, hit, att_fx, def_fx, None)

    return att_deg, s.defender.margin_damage, def_deg, context


@dataclass
class Memo:
    """What one odds computation has already worked out, per strike and attack class."""

    scn: Scenario
    prepared: dict[int, Prepared] = field(default_factory=dict)
    conditionals: dict[tuple[int, ClassKey], Distribution[StrikeFacts]] = field(default_factory=dict)

    def prepare(self, st: Strike) -> Prepared:
        if st.index not in self.prepared:
            self.prepared[st.index] = _prepare(self.scn, st)
        return self.prepared[st.index]

    def conditional(self, st: Strike, att_face: int) -> Distribution[StrikeFacts]:
        prepared = self.prepare(st)
        key = _key(read_roll(att_face, prepared[0]), self.scn.attacker.margin_damage)
        if (st.index, key) not in self.conditionals:
            self.conditionals[(st.index, key)] = _conditional(self.scn, st, key, prepared)
        return self.conditionals[(st.index, key)]


def conditional(scn: Scenario, st: Strike, att_face: int, memo: Memo | None = None) -> Distribution[StrikeFacts]:
    """One strike's facts over its defence die, the attack die showing ``att_face``."""
    return (memo or Memo(scn)).conditional(st, att_face)


def _conditional(scn: Scenario, st: Strike, key: ClassKey, prepared: Prepared) -> Distribution[StrikeFacts]:
    """The same, for every attack face of the class ``key`` (the pipeline reads nothing else)."""
    att_deg, def_wanted, def_deg, context = prepared
    att_face = _classes(att_deg, scn.attacker.margin_damage)[key][0]
    hit = key[0]
    if st.defence_slot is None:
        defence_classes: list[tuple[int | None, int]] = [(None, 1)]
    else:
        defence_classes = list(_defence_classes(def_deg(hit), def_wanted))
    weights: dict[StrikeFacts, int] = defaultdict(int)
    for def_face, count in defence_classes:
        o = resolve_strike(scn, st, att_face, def_face, detail=False, context=context)
        weights[facts_of(o.hit, o.attack, o.defence, o.phys, o.mag, o.tier)] += count
    return Distribution.of(weights)


def strike_distribution(scn: Scenario, st: Strike, memo: Memo | None = None) -> Distribution[StrikeFacts]:
    """Exact distribution of one strike's facts over its two D100."""
    memo = memo or Memo(scn)
    att_deg = memo.prepare(st)[0]
    out: dict[StrikeFacts, Fraction] = defaultdict(Fraction)
    for att_face, count in _classes(att_deg, scn.attacker.margin_damage).values():
        for facts, p in memo.conditional(st, att_face):
            out[facts] += p * Fraction(count, 100)
    return Distribution(dict(out))


def _tier_cdf(dist: Distribution[StrikeFacts]) -> list[Fraction]:
    """P(tier ≤ t) for each tier t, in TIERS order."""
    mass = [Fraction(0)] * len(TIERS)
    for facts, p in dist:
        mass[TIERS.index(facts.tier)] += p
    out: list[Fraction] = []
    total = Fraction(0)
    for m in mass:
        total += m
        out.append(total)
    return out


def tier_distribution(scn: Scenario, memo: Memo | None = None) -> Distribution[str]:
    """The exchange's outcome (the worst tier for the defenders over every strike), exactly.

    Strikes that share an attack die (a burst) are independent once that die is known; strikes
    with their own dice are independent. So P(worst ≤ t) is a product of per-strike
    probabilities, averaged over the classes of each shared attack die.
    """
    memo = memo or Memo(scn)
    groups: dict[str, list[Strike]] = defaultdict(list)
    for st in plan(scn):
        groups[st.attack_slot].append(st)
    cdf = [Fraction(1)] * len(TIERS)
    for strikes in groups.values():
        degrees = [memo.prepare(st)[0] for st in strikes]
        classes: dict[tuple[ClassKey, ...], tuple[int, int]] = {}
        for face in FACES:
            key = tuple(_key(read_roll(face, deg), scn.attacker.margin_damage) for deg in degrees)
            rep, count = classes.get(key, (face, 0))
            classes[key] = (rep, count + 1)
        group_cdf = [Fraction(0)] * len(TIERS)
        for rep, count in classes.values():
            per_strike = [_tier_cdf(memo.conditional(st, rep)) for st in strikes]
            for t in range(len(TIERS)):
                p = Fraction(count, 100)
                for strike_cdf in per_strike:
                    p *= strike_cdf[t]
                group_cdf[t] += p
        cdf = [c * g for c, g in zip(cdf, group_cdf)]
    probabilities = {tier: cdf[i] - (cdf[i - 1] if i else Fraction(0)) for i, tier in enumerate(TIERS)}
    return Distribution({t: p for t, p in probabilities.items() if p})


def _chart(key: str, title: str, dist: Distribution[int]) -> Chart:
    low, high = min(dist.outcomes()), max(dist.outcomes())
    bars = tuple((str(v), dist[v]) for v in range(low, high + 1))
    return Chart(key=key, title=title, bars=bars, mean=dist.mean(), unit=_("points"))


def odds(scn: Scenario) -> Odds:
    """The outcome partition (worst tier of the exchange), the probabilities of hit, critique,
    maladresse and defence success per strike, and PHYS and MAG taken per defender (both attacks
    summed for Attaque rapide)."""
    strikes = plan(scn)
    memo = Memo(scn)
    dists = [(st, strike_distribution(scn, st, memo)) for st in strikes]
    single = len(strikes) == 1
    tiers = tier_distribution(scn, memo)
    outcomes = tuple((tier, _(TIER_LABELS[tier]), tiers[tier]) for tier in TIERS if tiers[tier])
    expectations: list[tuple[str, str, Fraction]] = []
    for st, dist in dists:
        prefix = "" if single else f"s{st.index}."
        who = "" if single else f" — {st.prefix.rstrip(' ·')}"
        expectations.append((prefix + "hit", _("Probabilité de toucher") + who, dist.probability(lambda f: f.hit)))
        expectations.append(
            (prefix + "critical", _("Probabilité de critique") + who, dist.probability(lambda f: f.critical))
        )
        expectations.append(
            (prefix + "fumble", _("Probabilité de maladresse") + who, dist.probability(lambda f: f.fumble))
        )
        if st.defence_slot is not None:
            expectations.append(
                (
                    prefix + "defence_success",
                    _("Probabilité de défense réussie") + who,
                    dist.probability(lambda f: f.defence_success),
                )
            )
        expectations.append(
            (prefix + "wounded", _("Probabilité de blesser") + who, dist.probability(lambda f: f.phys + f.mag > 0))
        )
    charts: list[Chart] = []
    for i, defender in enumerate(scn.defenders):
        mine = [dist for st, dist in dists if st.defender_index == i]
        if not mine:
            continue
        phys = _sum([dist.map(lambda f: f.phys) for dist in mine])
        mag = _sum([dist.map(lambda f: f.mag) for dist in mine])
        charts.append(_chart(f"d{i + 1}.phys", _("Dommages PHYS encaissés — {name}").format(name=defender.name), phys))
        charts.append(_chart(f"d{i + 1}.mag", _("Dommages MAG encaissés — {name}").format(name=defender.name), mag))
        expectations.append((f"d{i + 1}.phys", _("PHYS moyens — {name}").format(name=defender.name), phys.mean()))
        expectations.append((f"d{i + 1}.mag", _("MAG moyens — {name}").format(name=defender.name), mag.mean()))
    return Odds(outcomes=outcomes, charts=tuple(charts), expectations=tuple(expectations))


def _sum(dists: list[Distribution[int]]) -> Distribution[int]:
    total = dists[0]
    for dist in dists[1:]:
        total = total.bind(lambda x, dd=dist: dd.map(lambda y: x + y))  # type: ignore[misc]
    return total
