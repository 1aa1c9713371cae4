"""Aventuriers — exact odds of one exchange.

Decomposed, never sampled: each roll is the convolution of its dice into symbol totals
(💥, 🛡, ⚡), computed with integer weights; a flash defence uses the prefix of its ordered dice
(one distribution per number of dice); the Riposte's flash defence is bound only where the
Riposte happens. The same :func:`~rulesets.aventuriers.engine.plan` and step functions as the
engine decide every branch, so the odds are those of :func:`~rulesets.aventuriers.engine.resolve`
(the tests compare both by enumerating every die).

:func:`joint_weights` builds the whole joint distribution of an exchange; the odds only read its
marginals, which :func:`marginals` computes without it (one symbol of a roll at a time): ten
12-face dice against ten took 16 s through the joint distribution (issue 18), some 15 ms so.
The tests check that both give the same marginals.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from math import prod

from rulesets.aventuriers.engine import (
    OUTCOME_LABELS,
    Plan,
    counts_stamina,
    flash_dice_count,
    plan,
    riposte_damage,
    success_tier,
    unblocked,
)
from rulesets.aventuriers.model import MAX_POOL, MAX_SYMBOLS, Action, DieType, Fighter, Rules, Scenario
from rulesets.aventuriers.speech import fighter
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
    """What the odds read of an exchange: the marginal weights of each part of an :data:`Outcome`
    (``counts[i]``: value of ``outcome[i]`` → integer weight, positive weights only), over one
    common total, turned into exact fractions on demand."""

    def __init__(self, counts: dict[int, dict[int, int]], total: int) -> None:
        self.counts = counts
        self.total = total

    @classmethod
    def of_joint(cls, weights: dict[Outcome, int]) -> _Marginals:
        """The marginals of a joint distribution (the reference the tests compare with)."""
        counts: dict[int, dict[int, int]] = {i: defaultdict(int) for i in range(5)}
        for o, w in weights.items():
            for i in range(5):
                counts[i][int(o[i])] += w
        return cls({i: dict(c) for i, c in counts.items()}, sum(weights.values()))

    def probability(self, index: int, predicate: Callable[[int], bool]) -> Fraction:
        return Fraction(sum(w for v, w in self.counts[index].items() if predicate(v)), self.total)

    def of(self, index: int) -> dict[int, int]:
        return self.counts[index]

    def chart(self, key: str, title: str, index: int, top: int | None, unit: str) -> Chart:
        counts = self.of(index)
        last = max(counts) if top is None else top
        bars = tuple((str(v), Fraction(counts.get(v, 0), self.total)) for v in range(last + 1))
        mean = Fraction(sum(v * w for v, w in counts.items()), self.total)
        return Chart(key, title, bars, mean, unit)


LIGHTNING_BITS = (MAX_POOL * MAX_SYMBOLS).bit_length()  # room for the most ⚡ a roll can show


def _attack_joint(dice: Sequence[DieType], bonus: int, lightning: bool) -> dict[int, dict[int, int]]:
    """The attack roll's 💥 (plus ``bonus``) and, when ``lightning``, its ⚡ read as stamina:
    damage → stamina → weight (one convolution per die; both totals packed in one integer key)."""
    states: dict[int, int] = {0: 1}
    for die in dice:
        faces: dict[int, int] = defaultdict(int)
        for f in die.faces:
            faces[(f.damage << LIGHTNING_BITS) + (f.lightning if lightning else 0)] += 1
        step: dict[int, int] = defaultdict(int)
        for key, w in states.items():
            for face, n in faces.items():
                step[key + face] += w * n
        states = step
    out: dict[int, dict[int, int]] = defaultdict(dict)
    mask = (1 << LIGHTNING_BITS) - 1
    for key, w in states.items():
        out[(key >> LIGHTNING_BITS) + bonus][key & mask] = w
    return dict(out)


def _prefix_marginals(dice: Sequence[DieType], symbol: str) -> list[dict[int, int]]:
    """``out[k]``: total of one symbol (``"shield"`` or ``"lightning"``) on the first ``k`` dice,
    as weights scaled to the total weight of all the dice (as :func:`prefix_weights`)."""
    total = prod(len(d.faces) for d in dice)
    out: list[dict[int, int]] = []
    current: dict[int, int] = {0: 1}
    done = 1
    for k in range(len(dice) + 1):
        scale = total // done
        out.append({v: w * scale for v, w in current.items()})
        if k < len(dice):
            faces: dict[int, int] = defaultdict(int)
            for f in dice[k].faces:
                faces[getattr(f, symbol)] += 1
            step: dict[int, int] = defaultdict(int)
            for v, w in current.items():
                for fv, n in faces.items():
                    step[v + fv] += w * n
            current = dict(step)
            done *= len(dice[k].faces)
    return out


def _add(counts: dict[int, int], key: int, weight: int) -> None:
    if weight:
        counts[key] = counts.get(key, 0) + weight


def marginals(scenario: Scenario) -> _Marginals:
    """The marginals of :func:`joint_weights`, computed without the joint distribution.

    PV lost, Riposte and the attacker's PV lost read only the 🛡 of the defence rolls, the
    defender's stamina only their ⚡: each roll is reduced to one symbol at a time (a convolution of
    one number per die). Only the attacker's stamina needs a joint law: its ⚡ of attack and of the
    flash defence against a Riposte are tied through the 💥 that decide whether the Riposte
    happens, so the attack roll is kept as (💥, ⚡) and the Riposte's flash damage is summed over
    the defence's 🛡 with cumulative weights. Same plan and step functions as the engine, so the
    figures are those of the joint distribution (the tests compare both).
    """
    p = plan(scenario)
    attacker, defender, rules = scenario.attacker, scenario.defender, scenario.rules
    if not p.allowed:
        return _Marginals.of_joint({(0, 0, 0, False, 0): 1})
    gains_a = counts_stamina(attacker, rules)
    gains_d = counts_stamina(defender, rules)
    attack = _attack_joint(p.attack_dice, p.bonus, gains_a and not p.flash)
    by_damage = {d: sum(row.values()) for d, row in attack.items()}
    cap = len(p.defence_dice)
    nc = len(p.counter_dice)
    t_counter = prod(len(d.faces) for d in p.counter_dice)
    lost: dict[int, int] = {}
    gained_d: dict[int, int] = {}
    # fb: the Riposte's flash damage (-1: no Riposte); weights over the attack and defence rolls
    flash_back: dict[int, int] = {}
    if not p.defence_roll:
        for d, w in by_damage.items():
            _add(lost, min(d, defender.pv), w * t_counter)
            _add(gained_d, 0, w * t_counter)
            _add(flash_back, -1, w)
        shields: list[dict[int, int]] = [{0: 1}]
    else:
        shields = _prefix_marginals(p.defence_dice, "shield")
        sparks = _prefix_marginals(p.defence_dice, "lightning")
        for d, w in by_damage.items():
            k = flash_dice_count(d, cap) if p.flash else cap
            for s, ws in shields[k].items():
                through = unblocked(d, s)
                _add(lost, min(through, defender.pv), w * ws * t_counter)
                riposte = p.riposte_possible and through == 0  # PV lost is 0 exactly when nothing goes through
                _add(flash_back, riposte_damage(s, defender, rules) if riposte else -1, w * ws)
            if gains_d:
                for lt, wl in sparks[k].items():
                    _add(gained_d, lt, w * wl * t_counter)
            else:
                _add(gained_d, 0, w * sum(sparks[k].values()) * t_counter)
    total = sum(lost.values())
    riposted: dict[int, int] = {}
    lost_a: dict[int, int] = {}
    counter_shields = _prefix_marginals(p.counter_dice, "shield")
    for fb, w in flash_back.items():
        _add(riposted, int(fb >= 0), w * t_counter)
        if fb <= 0:
            _add(lost_a, 0, w * t_counter)
            continue
        for s, wc in counter_shields[flash_dice_count(fb, nc)].items():
            _add(lost_a, min(unblocked(fb, s), attacker.pv), w * wc)
    gained_a = _attacker_stamina(p, attack, shields, defender, rules, t_counter, gains_a)
    counts = {0: lost, 1: gained_d, 2: gained_a, 3: riposted, 4: lost_a}
    return _Marginals(counts, total)


def _attacker_stamina(
    p: Plan,
    attack: dict[int, dict[int, int]],
    shields: list[dict[int, int]],
    defender: Fighter,
    rules: Rules,
    t_counter: int,
    gains_a: bool,
) -> dict[int, int]:
    """Stamina gained by the attacker: ⚡ of the attack plus, when a Riposte strikes back, ⚡ of its
    flash defence (as many dice as the Riposte's flash damage, within its limit)."""
    shield_law = shields[-1]
    t_defence = sum(shield_law.values())
    # (attack ⚡ read as stamina, dice of the attacker's flash defence: 0 when no Riposte damage) → weight
    joint: dict[tuple[int, int], int] = defaultdict(int)
    if not p.riposte_possible:
        for row in attack.values():
            for ga, w in row.items():
                joint[(ga, 0)] += w * t_defence
    else:
        nc = len(p.counter_dice)
        levels = sorted(set(attack) | set(shield_law))
        below: dict[int, int] = defaultdict(int)  # ga → weight of the attack rolls with 💥 ≤ the level
        shield_below = 0  # weight of the defence rolls with 🛡 < the current 💥
        shield_sorted = sorted(shield_law.items())
        j = 0
        for level in levels:
            while j < len(shield_sorted) and shield_sorted[j][0] < level:
                shield_below += shield_sorted[j][1]
                j += 1
            for ga, w in attack.get(level, {}).items():
                below[ga] += w
                joint[(ga, 0)] += w * shield_below  # 🛡 < 💥: damage goes through, no Riposte
            ws = shield_law.get(level)
            if ws:  # 🛡 = level ≥ every 💥 counted in ``below``: a Riposte of that many flash damage
                fb = riposte_damage(level, defender, rules)
                k = flash_dice_count(fb, nc) if fb > 0 else 0
                for ga, w in below.items():
                    joint[(ga, k)] += w * ws
    out: dict[int, int] = {}
    sparks = _prefix_marginals(p.counter_dice, "lightning") if gains_a else []
    for (ga, k), w in joint.items():
        if k == 0 or not gains_a:
            _add(out, ga, w * t_counter)
            continue
        for lt, wc in sparks[k].items():
            _add(out, ga + lt, w * wc)
    return out


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
    m = marginals(scenario)
    kill = m.probability(0, lambda v: v >= defender.pv)
    wound = m.probability(0, lambda v: 0 < v < defender.pv)
    unharmed = m.probability(0, lambda v: v == 0)
    outcomes = (
        ("tue", OUTCOME_LABELS["tue"], kill),
        ("blesse", OUTCOME_LABELS["blesse"], wound),
        ("indemne", OUTCOME_LABELS["indemne"], unharmed),
    )
    a, d = fighter(attacker), fighter(defender)
    pv_chart = m.chart("pv_lost", _("PV perdus par {d}").format(d=d), 0, defender.pv, _("PV"))
    charts = [pv_chart]
    if counts_stamina(attacker, rules) and not p.flash:
        title = _("Stamina gagnée par {a}").format(a=a)
        charts.append(m.chart("attacker_stamina", title, 2, None, _("stamina")))
    if counts_stamina(defender, rules) and p.defence_roll:
        title = _("Stamina gagnée par {d}").format(d=d)
        charts.append(m.chart("defender_stamina", title, 1, None, _("stamina")))
    expectations = [
        ("kill", _("Probabilité de tuer {d}").format(d=d), kill),
        ("pv_lost", _("PV perdus en moyenne"), pv_chart.mean or Fraction(0)),
    ]
    if p.riposte_possible:
        title = _("PV perdus par {a} (Riposte)").format(a=a)
        charts.append(m.chart("attacker_pv_lost", title, 4, attacker.pv, _("PV")))
        expectations.append(("riposte", _("Probabilité d'une Riposte"), m.probability(3, bool)))
        expectations.append(
            (
                "attacker_killed",
                _("Probabilité que la Riposte tue {a}").format(a=a),
                m.probability(4, lambda v: v >= attacker.pv),
            )
        )
    return Odds(outcomes=outcomes, charts=tuple(charts), expectations=tuple(expectations))
