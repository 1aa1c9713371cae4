"""Exact odds of an enCORE action.

A roll's consequences depend only on how many dice succeed, so the odds are the exact
distribution of the success count (icepool, through ``rulesets.core.odds``) pushed through the
very :func:`~rulesets.encore.engine.resolve` that resolves a table roll: one representative roll
per success count (two counts in an opposition).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from rulesets.core.dice import D6, DiceRoll, fixed_roll
from rulesets.core.i18n import _
from rulesets.core.odds import Chart, Distribution, Odds, product, success_count
from rulesets.core.results import Result
from rulesets.encore.engine import (
    DEFAITE,
    ECHEC,
    EGALITE,
    EVITE,
    EVITE_COMPLICATION,
    PARTIELLE,
    REUSSITE,
    TOUCHE,
    VICTOIRE,
    opponent_pool,
    outcome_label,
    pc_pool,
    pool_size,
    resolve,
)
from rulesets.encore.model import Action, Scenario

SUCCESS, MISS = 6, 1


def representative_roll(prefix: str, size: int, successes: int) -> dict[str, int]:
    """A roll of ``size`` d6 with exactly ``successes`` successes (6s, the others 1s)."""
    return {f"{prefix}.{i + 1}": SUCCESS if i < successes else MISS for i in range(size)}


def successes_distribution(size: int, success_face: int) -> Distribution[int]:
    return success_count(size, D6, range(success_face, 7))


class Outcomes:
    """Every distinct resolution with its exact probability (results are not hashable)."""

    def __init__(self, pairs: list[tuple[Result, Fraction]]) -> None:
        self.pairs = pairs

    def map(self, fn: Callable[[Result], int | str]) -> Distribution[int | str]:
        weights: dict[int | str, Fraction] = {}
        for result, p in self.pairs:
            key = fn(result)
            weights[key] = weights.get(key, Fraction(0)) + p
        return Distribution(weights)

    def probability(self, predicate: Callable[[Result], bool]) -> Fraction:
        return sum((p for r, p in self.pairs if predicate(r)), Fraction(0))


def outcome_distribution(scenario: Scenario) -> Outcomes:
    """Resolve one representative roll per success count (pair of counts in an opposition)."""
    face = scenario.rules.success_face
    size = pool_size(pc_pool(scenario))
    mine = successes_distribution(size, face)
    if scenario.action is Action.OPPOSITION:
        opp_size = pool_size(opponent_pool(scenario))
        joint = product(mine, successes_distribution(opp_size, face))
        return Outcomes(
            [
                (
                    resolve(
                        scenario,
                        _roll({**representative_roll("pc", size, a), **representative_roll("opp", opp_size, b)}),
                    ),
                    p,
                )
                for (a, b), p in joint
            ]
        )
    return Outcomes([(resolve(scenario, _roll(representative_roll("pc", size, k))), p) for k, p in mine])


def _roll(values: dict[str, int]) -> DiceRoll:
    return fixed_roll(values)


def _chart(key: str, title: str, dist: Distribution[int | str], unit: str) -> Chart:
    bars = tuple((str(v), p) for v, p in dist.sorted_items())
    return Chart(key=key, title=title, bars=bars, mean=dist.mean(), unit=unit)


def _number(result: Result, key: str) -> int:
    value = result.numbers.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def odds(scenario: Scenario) -> Odds:
    """Outcome tiers, damage dealt, and the Santé the PC (or the ally) loses in the breach."""
    results = outcome_distribution(scenario)
    by_outcome = results.map(lambda r: r.outcome)
    if scenario.action is Action.OPPOSITION:
        codes = (VICTOIRE, EGALITE, DEFAITE)
    elif scenario.action is Action.NPC_AMBUSH:
        codes = (EVITE, EVITE_COMPLICATION, TOUCHE)
    else:
        codes = (REUSSITE, PARTIELLE, ECHEC)
    outcomes = tuple((c, outcome_label(c), by_outcome[c]) for c in codes)
    charts: list[Chart] = []
    expectations: list[tuple[str, str, Fraction]] = []
    if scenario.action in (Action.ATTACK, Action.AREA, Action.OPPOSITION):
        dealt = results.map(lambda r: _number(r, "damage_dealt") if r.outcome != DEFAITE else 0)
        charts.append(_chart("damage_dealt", _("Dégâts infligés"), dealt, _("dégâts")))
        expectations.append(("damage_dealt", _("Dégâts infligés en moyenne"), dealt.mean()))
        npc_out = results.probability(lambda r: any(e.kind == "npc_out" for e in r.events))
        if scenario.action is not Action.OPPOSITION:
            expectations.append(("npc_out", _("Probabilité de mettre un PNJ hors de combat"), npc_out))
    if scenario.action is Action.AREA:
        hits = results.map(lambda r: _number(r, "targets_hit"))
        charts.append(_chart("targets_hit", _("Cibles touchées"), hits, _("cibles")))
    if scenario.action is Action.MANOEUVRE:
        expectations.append(
            (
                "effect",
                _("Probabilité d'obtenir l'effet"),
                results.probability(lambda r: r.numbers.get("effect") is True),
            )
        )
    if scenario.action in (Action.ATTACK, Action.MANOEUVRE, Action.AREA):
        expectations.append(
            (
                "breach",
                _("Probabilité d'ouvrir une brèche"),
                results.probability(lambda r: r.numbers.get("breach") is True),
            )
        )
    taken = results.map(lambda r: _number(r, "strike_damage") if r.outcome != VICTOIRE else 0)
    if scenario.action is Action.OPPOSITION:
        taken = results.map(lambda r: _number(r, "damage_dealt") if r.outcome == DEFAITE else 0)
    if scenario.action is not Action.NON_COMBAT:
        who = scenario.strike.interposer if scenario.strike.interpose else scenario.pc.noun
        title = _("Santé perdue par {name}").format(name=who.subject)
        charts.append(_chart("damage_taken", title, taken, _("dégâts")))
        expectations.append(("damage_taken", _("Dégâts subis en moyenne"), taken.mean()))
    return Odds(outcomes=outcomes, charts=tuple(charts), expectations=tuple(expectations))


__all__ = ["ECHEC", "odds", "outcome_distribution", "representative_roll"]
