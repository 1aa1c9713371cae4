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
from dataclasses import dataclass
from fractions import Fraction

from rulesets.core.i18n import _
from rulesets.core.odds import Chart, Distribution, Odds
from rulesets.nephilim.engine import (
    TIER_LABELS,
    TIERS,
    Roll,
    Strike,
    active_components,
    attack_degree,
    defence_degree,
    plan,
    read_roll,
    resolve_strike,
    situation_for,
    weapon_magical,
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


def _classes(degree: int, chosen: int) -> dict[tuple[bool, bool, bool, int], tuple[int, int]]:
    """Faces of a D100 grouped by what the pipeline reads: key → (representative face, count)."""
    out: dict[tuple[bool, bool, bool, int], tuple[int, int]] = {}
    for face in FACES:
        roll = read_roll(face, degree)
        key = (roll.success, roll.critical, roll.fumble, min(roll.choices, chosen))
        rep, count = out.get(key, (face, 0))
        out[key] = (rep, count + 1)
    return out


def facts_of(roll_hit: bool, attack: Roll, defence: Roll | None, phys: int, mag: int, tier: str) -> StrikeFacts:
    return StrikeFacts(
        roll_hit, attack.critical, attack.fumble, bool(defence and defence.success), phys, mag, tier
    )


def strike_distribution(scn: Scenario, st: Strike) -> Distribution[StrikeFacts]:
    """Exact distribution of one strike's facts over its two D100."""
    s = situation_for(scn, st)
    a, d = scn.attacker, s.defender
    att_fx = active_components(a.effects, True, s, None, False)
    def_fx = active_components(scn.effects_of(st.defender_index), False, s, None, weapon_magical(scn, att_fx))
    att_deg = attack_degree(scn, s, att_fx, None)
    weights: dict[StrikeFacts, int] = defaultdict(int)
    for (hit, *_rest), (att_face, att_count) in _classes(att_deg, a.margin_damage).items():
        if st.defence_slot is None:
            defence_classes: list[tuple[int | None, int]] = [(None, 100)]
        else:
            def_deg = defence_degree(scn, s, st, hit, att_fx, def_fx, None)
            defence_classes = [(face, count) for face, count in _classes(def_deg, d.margin_damage).values()]
        for def_face, def_count in defence_classes:
            o = resolve_strike(scn, st, att_face, def_face, detail=False)
            weights[facts_of(o.hit, o.attack, o.defence, o.phys, o.mag, o.tier)] += att_count * def_count
    return Distribution.of(weights)


def _chart(key: str, title: str, dist: Distribution[int]) -> Chart:
    low, high = min(dist.outcomes()), max(dist.outcomes())
    bars = tuple((str(v), dist[v]) for v in range(low, high + 1))
    return Chart(key=key, title=title, bars=bars, mean=dist.mean(), unit=_("points"))


def odds(scn: Scenario) -> Odds:
    """Probabilities of hit, critique, maladresse, defence success and each damage tier; PHYS and
    MAG taken per defender (both attacks summed for Attaque rapide)."""
    strikes = plan(scn)
    dists = [(st, strike_distribution(scn, st)) for st in strikes]
    single = len(strikes) == 1
    outcomes: list[tuple[str, str, Fraction]] = []
    for st, dist in dists:
        prefix = "" if single else f"s{st.index}."
        who = "" if single else st.prefix
        outcomes.append((prefix + "hit", who + _("Attaque réussie"), dist.probability(lambda f: f.hit)))
        outcomes.append((prefix + "critical", who + _("Réussite critique"), dist.probability(lambda f: f.critical)))
        outcomes.append((prefix + "fumble", who + _("Maladresse"), dist.probability(lambda f: f.fumble)))
        if st.defence_slot is not None:
            outcomes.append(
                (prefix + "defence_success", who + _("Défense réussie"), dist.probability(lambda f: f.defence_success))
            )
        outcomes.append((prefix + "wounded", who + _("Dommages encaissés"), dist.probability(lambda f: f.phys + f.mag > 0)))
        for tier in TIERS:
            p = dist.probability(lambda f, t=tier: f.tier == t)  # type: ignore[misc]
            if p:
                outcomes.append((prefix + "tier." + tier, who + _(TIER_LABELS[tier]), p))
    charts: list[Chart] = []
    expectations: list[tuple[str, str, Fraction]] = []
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
    return Odds(outcomes=tuple(outcomes), charts=tuple(charts), expectations=tuple(expectations))


def _sum(dists: list[Distribution[int]]) -> Distribution[int]:
    total = dists[0]
    for dist in dists[1:]:
        total = total.bind(lambda x, dd=dist: dd.map(lambda y: x + y))  # type: ignore[misc]
    return total
