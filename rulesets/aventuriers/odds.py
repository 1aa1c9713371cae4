"""Aventuriers — exact odds of one exchange.

Decomposed, never sampled: each roll is the convolution of its dice into symbol totals
(💥, 🛡, ⚡), computed with integer weights; a flash defence uses the prefix of its ordered dice
(one distribution per number of dice); the Riposte's flash defence is bound only where the
Riposte happens. The same :func:`~rulesets.aventuriers.engine.plan` and step functions as the
engine decide every branch, so the odds are those of :func:`~rulesets.aventuriers.engine.resolve`
(the tests compare both by enumerating every die).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from math import prod

from rulesets.aventuriers.engine import (
    OUTCOME_LABELS,
    counts_stamina,
    flash_dice_count,
    plan,
    riposte_damage,
    success_tier,
    unblocked,
)
from rulesets.aventuriers.model import Action, DieType, Scenario
from rulesets.core.i18n import _
from rulesets.core.odds import Chart, Distribution, Odds

Totals3 = tuple[int, int, int]
Weights = dict[Totals3, int]
# (PV lost by the target, stamina gained by the target, stamina gained by the attacker,
#  Riposte happened, PV lost by the attacker)
Outcome = tuple[int, int, int, bool, int]


def _faces(die: DieType, mask: Totals3) -> dict[Totals3, int]:
    """Distinct faces of a die (symbols kept by ``mask``) and how many faces show each."""
    out: dict[Totals3, int] = defaultdict(int)
    for f in die.faces:
        out[(f.damage * mask[0], f.shield * mask[1], f.lightning * mask[2])] += 1
    return out


def roll_weights_step(weights: Weights, die: DieType, mask: Totals3 = (1, 1, 1)) -> Weights:
    """Add one die to a roll (convolution)."""
    step: Weights = defaultdict(int)
    faces = _faces(die, mask)
    for (d, s, lt), w in weights.items():
        for (fd, fs, fl), n in faces.items():
            step[(d + fd, s + fs, lt + fl)] += w * n
    return dict(step)


def roll_weights(dice: Sequence[DieType], mask: Totals3 = (1, 1, 1)) -> Weights:
    """Symbol totals of one roll of ``dice``, as integer weights summing to the product of the
    numbers of faces; ``mask`` zeroes the symbols a roll does not read."""
    out: Weights = {(0, 0, 0): 1}
    for die in dice:
        out = roll_weights_step(out, die, mask)
    return out


def prefix_weights(dice: Sequence[DieType], mask: Totals3 = (1, 1, 1)) -> list[Weights]:
    """``out[k]``: totals of the first ``k`` dice, scaled to the total weight of all the dice."""
    total = prod(len(d.faces) for d in dice)
    out: list[Weights] = []
    current: Weights = {(0, 0, 0): 1}
    done = 1
    for k in range(len(dice) + 1):
        scale = total // done
        out.append({key: w * scale for key, w in current.items()})
        if k < len(dice):
            current = roll_weights_step(current, dice[k], mask)
            done *= len(dice[k].faces)
    return out


DEFENCE_MASK = (0, 1, 1)  # a defence reads 🛡 and ⚡ only


def joint(scenario: Scenario) -> Distribution[Outcome]:
    """Exact joint distribution of an attack, a flash attack or a reaction talent."""
    return Distribution.of(joint_weights(scenario))


def joint_weights(scenario: Scenario) -> dict[Outcome, int]:
    """The joint distribution as integer weights (every roll equally likely)."""
    p = plan(scenario)
    attacker, defender, rules = scenario.attacker, scenario.defender, scenario.rules
    if not p.allowed:
        return {(0, 0, 0, False, 0): 1}
    gains_a = counts_stamina(attacker, rules)
    gains_d = counts_stamina(defender, rules)
    attack: dict[tuple[int, int], int] = defaultdict(int)
    for (d, _s, lt), w in roll_weights(p.attack_dice, (1, 0, 1)).items():
        attack[(d + p.bonus, 0 if p.flash or not gains_a else lt)] += w
    cap = len(p.defence_dice)
    c_total = prod(len(d.faces) for d in p.counter_dice)
    # a flash defence reads the first k dice; a defence roll reads them all
    if p.flash:
        d_prefix = prefix_weights(p.defence_dice, DEFENCE_MASK)
    else:
        d_prefix = [{} for _k in range(cap)] + [roll_weights(p.defence_dice, DEFENCE_MASK)]
    c_prefix = prefix_weights(p.counter_dice, DEFENCE_MASK)

    # defender's side for each damage: (PV lost, stamina, Riposte flash damage or -1) → weight
    side_cache: dict[int, dict[tuple[int, int, int], int]] = {}

    def side(damage: int) -> dict[tuple[int, int, int], int]:
        cached = side_cache.get(damage)
        if cached is not None:
            return cached
        out: dict[tuple[int, int, int], int] = defaultdict(int)
        if not p.defence_roll:
            out[(min(damage, defender.pv), 0, -1)] += 1
        else:
            k = flash_dice_count(damage, cap) if p.flash else cap
            for (_d, s, lt), w in d_prefix[k].items():
                through = unblocked(damage, s)
                lost = min(through, defender.pv)
                fb = riposte_damage(s, defender, rules) if p.riposte_possible and lost == 0 else -1
                out[(lost, lt if gains_d else 0, fb)] += w
        side_cache[damage] = dict(out)
        return side_cache[damage]

    middle: dict[tuple[int, int, int, int], int] = defaultdict(int)
    for (damage, ga), wa in attack.items():
        for (lost, gd, fb), wd in side(damage).items():
            middle[(lost, gd, ga, fb)] += wa * wd
    # attacker's flash defence against a Riposte of fb flash damage: (PV lost, stamina) → weight
    counter_cache: dict[int, dict[tuple[int, int], int]] = {}

    def counter(fb: int) -> dict[tuple[int, int], int]:
        cached = counter_cache.get(fb)
        if cached is not None:
            return cached
        out: dict[tuple[int, int], int] = defaultdict(int)
        for (_d, s, lt), wc in c_prefix[flash_dice_count(fb, len(p.counter_dice))].items():
            out[(min(unblocked(fb, s), attacker.pv), lt if gains_a else 0)] += wc
        counter_cache[fb] = dict(out)
        return counter_cache[fb]

    final: dict[Outcome, int] = defaultdict(int)
    for (lost, gd, ga, fb), w in middle.items():
        if fb <= 0:
            final[(lost, gd, ga, fb == 0, 0)] += w * c_total
            continue
        for (a_lost, gc), wc in counter(fb).items():
            final[(lost, gd, ga + gc, True, a_lost)] += w * wc
    return dict(final)


def success_distribution(scenario: Scenario) -> Distribution[int]:
    """Lightning read on the success-test die (0, 1, 2 or more)."""
    die = scenario.die(scenario.rules.success_die)
    faces = die.faces if die is not None else ()
    return Distribution.uniform(f.lightning for f in faces) if faces else Distribution.certain(0)


class _Marginals:
    """Marginals of the integer joint weights, turned into exact fractions once."""

    def __init__(self, weights: dict[Outcome, int]) -> None:
        self.weights = weights
        self.total = sum(weights.values())

    def probability(self, predicate: Callable[[Outcome], bool]) -> Fraction:
        return Fraction(sum(w for o, w in self.weights.items() if predicate(o)), self.total)

    def of(self, index: int) -> dict[int, int]:
        out: dict[int, int] = defaultdict(int)
        for o, w in self.weights.items():
            out[int(o[index])] += w
        return out

    def chart(self, key: str, title: str, index: int, top: int | None, unit: str) -> Chart:
        counts = self.of(index)
        last = max(counts) if top is None else top
        bars = tuple((str(v), Fraction(counts.get(v, 0), self.total)) for v in range(last + 1))
        mean = Fraction(sum(v * w for v, w in counts.items()), self.total)
        return Chart(key, title, bars, mean, unit)


def odds(scenario: Scenario) -> Odds:
    """Outcome tiers, distributions of PV lost and stamina gained, probability to kill."""
    if scenario.action is Action.SUCCESS_TEST:
        lightning = success_distribution(scenario)
        tiers_dist = lightning.map(success_tier)
        tiers = ("aucun_eclair", "un_eclair", "deux_eclairs")
        top = max(lightning.outcomes())
        chart = Chart(
            "lightning",
            _("Éclairs du test de réussite"),
            tuple((str(v), lightning[v]) for v in range(top + 1)),
            lightning.mean(),
            _("⚡"),
        )
        return Odds(outcomes=tuple((t, OUTCOME_LABELS[t], tiers_dist[t]) for t in tiers), charts=(chart,))
    p = plan(scenario)
    if not p.allowed:
        return Odds(outcomes=(("impossible", OUTCOME_LABELS["impossible"], Fraction(1)),))
    attacker, defender, rules = scenario.attacker, scenario.defender, scenario.rules
    m = _Marginals(joint_weights(scenario))
    kill = m.probability(lambda o: o[0] >= defender.pv)
    wound = m.probability(lambda o: 0 < o[0] < defender.pv)
    unharmed = m.probability(lambda o: o[0] == 0)
    outcomes = (
        ("tue", OUTCOME_LABELS["tue"], kill),
        ("blesse", OUTCOME_LABELS["blesse"], wound),
        ("indemne", OUTCOME_LABELS["indemne"], unharmed),
    )
    pv_chart = m.chart("pv_lost", _("PV perdus par {name}").format(name=defender.name), 0, defender.pv, _("PV"))
    charts = [pv_chart]
    if counts_stamina(attacker, rules) and not p.flash:
        title = _("Stamina gagnée par {name}").format(name=attacker.name)
        charts.append(m.chart("attacker_stamina", title, 2, None, _("stamina")))
    if counts_stamina(defender, rules) and p.defence_roll:
        title = _("Stamina gagnée par {name}").format(name=defender.name)
        charts.append(m.chart("defender_stamina", title, 1, None, _("stamina")))
    expectations = [
        ("kill", _("Probabilité de tuer {name}").format(name=defender.name), kill),
        ("pv_lost", _("PV perdus en moyenne"), pv_chart.mean or Fraction(0)),
    ]
    if p.riposte_possible:
        title = _("PV perdus par {name} (Riposte)").format(name=attacker.name)
        charts.append(m.chart("attacker_pv_lost", title, 4, attacker.pv, _("PV")))
        expectations.append(("riposte", _("Probabilité d'une Riposte"), m.probability(lambda o: o[3])))
        expectations.append(
            (
                "attacker_killed",
                _("Probabilité que la Riposte tue {name}").format(name=attacker.name),
                m.probability(lambda o: o[4] >= attacker.pv),
            )
        )
    return Odds(outcomes=outcomes, charts=tuple(charts), expectations=tuple(expectations))
