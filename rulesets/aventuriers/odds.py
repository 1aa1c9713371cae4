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
from collections.abc import Sequence
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


def roll_weights(dice: Sequence[DieType]) -> Weights:
    """Symbol totals of one roll of ``dice``, as integer weights summing to the product of the
    numbers of faces."""
    out: Weights = {(0, 0, 0): 1}
    for die in dice:
        step: Weights = defaultdict(int)
        for (d, s, lt), w in out.items():
            for face in die.faces:
                step[(d + face.damage, s + face.shield, lt + face.lightning)] += w
        out = dict(step)
    return out


def prefix_weights(dice: Sequence[DieType]) -> list[Weights]:
    """``out[k]``: totals of the first ``k`` dice, scaled to the total weight of all the dice."""
    total = prod(len(d.faces) for d in dice)
    out: list[Weights] = []
    current: Weights = {(0, 0, 0): 1}
    done = 1
    for k in range(len(dice) + 1):
        scale = total // done
        out.append({key: w * scale for key, w in current.items()})
        if k < len(dice):
            current = roll_weights_step(current, dice[k])
            done *= len(dice[k].faces)
    return out


def roll_weights_step(weights: Weights, die: DieType) -> Weights:
    step: Weights = defaultdict(int)
    for (d, s, lt), w in weights.items():
        for face in die.faces:
            step[(d + face.damage, s + face.shield, lt + face.lightning)] += w
    return dict(step)


def joint(scenario: Scenario) -> Distribution[Outcome]:
    """Exact joint distribution of an attack, a flash attack or a reaction talent."""
    p = plan(scenario)
    attacker, defender, rules = scenario.attacker, scenario.defender, scenario.rules
    if not p.allowed:
        return Distribution.certain((0, 0, 0, False, 0))
    gains_a = counts_stamina(attacker, rules)
    gains_d = counts_stamina(defender, rules)
    attack: dict[tuple[int, int], int] = defaultdict(int)
    for (d, _s, lt), w in roll_weights(p.attack_dice).items():
        attack[(d + p.bonus, 0 if p.flash or not gains_a else lt)] += w
    cap = len(p.defence_dice)
    c_total = prod(len(d.faces) for d in p.counter_dice)
    # a flash defence reads the first k dice; a defence roll reads them all
    d_prefix = prefix_weights(p.defence_dice) if p.flash else [{} for _k in range(cap)] + [roll_weights(p.defence_dice)]
    c_prefix = prefix_weights(p.counter_dice)

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
    final: dict[Outcome, int] = defaultdict(int)
    for (lost, gd, ga, fb), w in middle.items():
        if fb <= 0:
            final[(lost, gd, ga, fb == 0, 0)] += w * c_total
            continue
        k = flash_dice_count(fb, len(p.counter_dice))
        for (_d, s, lt), wc in c_prefix[k].items():
            a_lost = min(unblocked(fb, s), attacker.pv)
            final[(lost, gd, ga + (lt if gains_a else 0), True, a_lost)] += w * wc
    return Distribution.of(final)


def success_distribution(scenario: Scenario) -> Distribution[int]:
    """Lightning read on the success-test die (0, 1, 2 or more)."""
    die = scenario.die(scenario.rules.success_die)
    faces = die.faces if die is not None else ()
    return Distribution.uniform(f.lightning for f in faces) if faces else Distribution.certain(0)


def _bars(dist: Distribution[int], top: int) -> tuple[tuple[str, Fraction], ...]:
    return tuple((str(v), dist[v]) for v in range(top + 1))


def odds(scenario: Scenario) -> Odds:
    """Outcome tiers, distributions of PV lost and stamina gained, probability to kill."""
    if scenario.action is Action.SUCCESS_TEST:
        tiers_dist = success_distribution(scenario).map(success_tier)
        tiers = ("aucun_eclair", "un_eclair", "deux_eclairs")
        return Odds(outcomes=tuple((t, OUTCOME_LABELS[t], tiers_dist[t]) for t in tiers))
    p = plan(scenario)
    if not p.allowed:
        return Odds(outcomes=(("impossible", OUTCOME_LABELS["impossible"], Fraction(1)),))
    attacker, defender = scenario.attacker, scenario.defender
    dist = joint(scenario)
    kill = dist.probability(lambda o: o[0] >= defender.pv)
    wound = dist.probability(lambda o: 0 < o[0] < defender.pv)
    unharmed = dist.probability(lambda o: o[0] == 0)
    outcomes = (
        ("tue", OUTCOME_LABELS["tue"], kill),
        ("blesse", OUTCOME_LABELS["blesse"], wound),
        ("indemne", OUTCOME_LABELS["indemne"], unharmed),
    )
    pv = dist.map(lambda o: o[0])
    charts = [
        Chart(
            "pv_lost",
            _("PV perdus par {name}").format(name=defender.name),
            _bars(pv, defender.pv),
            pv.mean(),
            _("PV"),
        )
    ]
    rules = scenario.rules
    if counts_stamina(attacker, rules) and not p.flash:
        ga = dist.map(lambda o: o[2])
        charts.append(
            Chart(
                "attacker_stamina",
                _("Stamina gagnée par {name}").format(name=attacker.name),
                _bars(ga, max(ga.outcomes())),
                ga.mean(),
                _("stamina"),
            )
        )
    if counts_stamina(defender, rules) and p.defence_roll:
        gd = dist.map(lambda o: o[1])
        charts.append(
            Chart(
                "defender_stamina",
                _("Stamina gagnée par {name}").format(name=defender.name),
                _bars(gd, max(gd.outcomes())),
                gd.mean(),
                _("stamina"),
            )
        )
    expectations = [
        ("kill", _("Probabilité de tuer {name}").format(name=defender.name), kill),
        ("pv_lost", _("PV perdus en moyenne"), pv.mean()),
    ]
    if p.riposte_possible:
        ap = dist.map(lambda o: o[4])
        charts.append(
            Chart(
                "attacker_pv_lost",
                _("PV perdus par {name} (Riposte)").format(name=attacker.name),
                _bars(ap, attacker.pv),
                ap.mean(),
                _("PV"),
            )
        )
        expectations.append(("riposte", _("Probabilité d'une Riposte"), dist.probability(lambda o: o[3])))
        expectations.append(
            (
                "attacker_killed",
                _("Probabilité que {name} meure de la Riposte").format(name=attacker.name),
                dist.probability(lambda o: o[4] >= attacker.pv),
            )
        )
    return Odds(outcomes=outcomes, charts=tuple(charts), expectations=tuple(expectations))
