"""Exact odds of a Quadrature exchange, by decomposition (never sampling).

* The adversary's roll: a dynamic programme over the dice keeps the multiset of the four highest
  faces seen so far (at most a few hundred states), so « total » and « number of 5s among the kept
  dice » come out jointly and exactly, whatever the number of dice.
* The PC's score: best 🟦, two best skill dice and the aléa are independent; each is reduced to its
  kept faces by its own small programme, then the three are combined.
* Everything after the roll (✅/❌/⭐, the wound chain) is deterministic given the roll: the odds call
  the engine's own functions on each distinct roll outcome.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from rulesets.core.dice import DiceRoll
from rulesets.core.french import typography
from rulesets.core.i18n import _
from rulesets.core.odds import Chart, Odds
from rulesets.quadrature.dice import (
    KEEP,
    PcPool,
    adversary_rungs,
    adversary_steps,
    pc_pool,
    pc_score,
)
from rulesets.quadrature.engine import card_effect, read_adversary_roll, resolve
from rulesets.quadrature.model import (
    Card,
    DiceFaces,
    Kind,
    Mode,
    Pc,
    PcSource,
    PlayerFaces,
    Rung,
    Scenario,
)
from rulesets.quadrature.sheet import HORDE_ATTACK, card_available, horde_mood

Weights = dict[tuple[int, ...], int]


def _keep_highest(faces_list: Iterable[tuple[int, ...]], keep: int) -> tuple[Weights, int]:
    """Weights of the sorted ``keep`` highest faces of independent dice, and the total weight."""
    states: Weights = {(): 1}
    total = 1
    for faces in faces_list:
        total *= len(faces)
        new: Weights = defaultdict(int)
        for state, w in states.items():
            for f in faces:
                new[tuple(sorted((*state, f), reverse=True)[:keep])] += w
        states = dict(new)
    return states, total


def _keep_lowest(faces_list: Iterable[tuple[int, ...]]) -> tuple[Weights, int]:
    states: Weights = {(): 1}
    total = 1
    for faces in faces_list:
        total *= len(faces)
        new: Weights = defaultdict(int)
        for state, w in states.items():
            for f in faces:
                new[(min((*state, f)),)] += w
        states = dict(new)
    return states, total


def adversary_roll(rungs: list[Rung], faces: DiceFaces, bonus: int = 0) -> dict[tuple[int, int], Fraction]:
    """Exact joint distribution of (total, number of star faces among the kept dice)."""
    return dict(_adversary_roll(tuple(rungs), faces, bonus))


@lru_cache(maxsize=256)
def _adversary_roll(
    rungs: tuple[Rung, ...], faces: DiceFaces, bonus: int
) -> tuple[tuple[tuple[int, int], Fraction], ...]:
    states, total = _keep_highest((faces.of(r) for r in rungs), KEEP)
    weights: dict[tuple[int, int], int] = defaultdict(int)
    for kept, w in states.items():
        roll = read_adversary_roll(kept, faces.star_face, bonus)
        weights[(roll.total, roll.fives)] += w
    out = {k: Fraction(w, total) for k, w in weights.items()}
    return tuple(out.items())


@dataclass(frozen=True, slots=True)
class DiceStats:
    minimum: int
    mean: Fraction
    maximum: int
    distribution: dict[int, Fraction]


def dice_stats(rungs: list[Rung], faces: DiceFaces) -> DiceStats:
    """min, mean, max and the distribution of an adversary's roll (the power table's columns)."""
    dist: dict[int, Fraction] = defaultdict(Fraction)
    for (t, _f), p in adversary_roll(rungs, faces).items():
        dist[t] += p
    return DiceStats(
        min(dist), sum((t * p for t, p in dist.items()), Fraction(0)), max(dist), dict(sorted(dist.items()))
    )


def pc_distribution(pc: Pc, faces: PlayerFaces) -> dict[tuple[int, bool, bool], Fraction]:
    """Exact joint distribution of (score, Défaut, Critique) of a rolled PC."""
    pool: PcPool = pc_pool(pc, faces)
    car, car_total = _keep_highest((d.faces for d in pool.characteristic), 1)
    skill, skill_total = _keep_highest((d.faces for d in pool.skill), 2)
    alea_dice = [pool.alea.faces, *(d.faces for d in pool.edge)]
    alea, alea_total = _keep_lowest(alea_dice) if pool.advantage < 0 else _keep_highest(alea_dice, 1)
    denominator = car_total * skill_total * alea_total
    out: dict[tuple[int, bool, bool], Fraction] = defaultdict(Fraction)
    for c, wc in car.items():
        for k, wk in skill.items():
            for a, wa in alea.items():
                sc = pc_score(c, k, a, pool.advantage, faces)
                out[(sc.score, sc.defaut, sc.critique)] += Fraction(wc * wk * wa, denominator)
    return dict(out)


def pc_scores(pc: Pc, faces: PlayerFaces) -> dict[int, Fraction]:
    if pc.source is PcSource.TYPED:
        return {pc.score: Fraction(1)}
    out: dict[int, Fraction] = defaultdict(Fraction)
    for (score, _d, _c), p in pc_distribution(pc, faces).items():
        out[score] += p
    return dict(sorted(out.items()))


def _bars(dist: dict[int, Fraction]) -> tuple[tuple[str, Fraction], ...]:
    return tuple((str(k), p) for k, p in sorted(dist.items()))


def _mean(dist: dict[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))


@dataclass(frozen=True, slots=True)
class CardOdds:
    success: Fraction
    star: Fraction
    effects: dict[str, Fraction]  # expected 💧 💢 💔 🔺 🔻 🩸 on the PC


@lru_cache(maxsize=256)
def _roll_summary(
    rungs: tuple[Rung, ...], faces: DiceFaces, bonus: int
) -> tuple[tuple[int, ...], tuple[Fraction, ...], tuple[Fraction, ...]]:
    """Totals ascending, P(total ≥ each), and P(at least x star faces) for x = 0 … 4."""
    weights: dict[int, Fraction] = defaultdict(Fraction)
    stars = [Fraction(0)] * (KEEP + 1)
    for (t, f), p in _adversary_roll(rungs, faces, bonus):
        weights[t] += p
        stars[f] += p
    totals = tuple(sorted(weights))
    tail: list[Fraction] = []
    acc = Fraction(0)
    for t in reversed(totals):
        acc += weights[t]
        tail.append(acc)
    at_least_star = [sum(stars[x:], Fraction(0)) for x in range(KEEP + 1)]
    return totals, tuple(reversed(tail)), tuple(at_least_star)


def card_odds(s: Scenario, card: Card, garde: dict[int, Fraction]) -> CardOdds:
    """Exact odds of ``card`` against a Garde distribution (⭐ included)."""
    adv = s.adversary
    steps = sum(st.steps for st in adversary_steps(adv, card, s.matchup, s.pc, s.settings))
    bonus = HORDE_ATTACK[horde_mood(adv)] if adv.kind is Kind.HORDE and not s.settings.horde_mood_steps else 0
    totals, at_least, stars = _roll_summary(tuple(adversary_rungs(adv, steps)), s.faces, bonus)

    def p_at_least(g: int) -> Fraction:
        i = bisect_left(totals, g)
        return at_least[i] if i < len(totals) else Fraction(0)

    success = sum((pg * p_at_least(g) for g, pg in garde.items()), Fraction(0))
    star = stars[min(card.star_fives, KEEP)]
    effects: dict[str, Fraction] = defaultdict(Fraction)
    bonus_fatigue = 1 if adv.traits.exhausting_strike else 0
    for outcome_success, p_outcome in ((True, success), (False, 1 - success)):
        for has_star, p_star in ((True, star), (False, 1 - star)):
            effect, _ = card_effect(card, outcome_success, card.star_fives if has_star else 0)
            weight = p_outcome * p_star
            for key in ("fatigue", "light", "heavy", "up", "down", "bleed"):
                effects[key] += weight * getattr(effect, key)
            if outcome_success:
                effects["fatigue"] += weight * bonus_fatigue
    return CardOdds(success, star, dict(effects))


def _adversary_attack(s: Scenario) -> Odds:
    adv = s.adversary
    card = s.played_card()
    assert card is not None  # Scenario.check refuses a card out of the deck
    if not card.attack:
        return Odds(outcomes=(("action", _("Action jouée"), Fraction(1)),))
    garde = pc_scores(s.pc, s.pc_faces)
    this = card_odds(s, card, garde)
    steps = sum(st.steps for st in adversary_steps(adv, card, s.matchup, s.pc, s.settings))
    stats = dice_stats(adversary_rungs(adv, steps), s.faces)
    charts = [Chart("total", _("Total de l'adversaire (4 meilleurs dés)"), _bars(stats.distribution), stats.mean)]
    if s.pc.source is PcSource.ROLLED:
        charts.append(Chart("garde", _("Garde du personnage"), _bars(garde), _mean(garde)))
    expectations: list[tuple[str, str, Fraction]] = [
        ("star", _("Probabilité ⭐ Repérez {x} 5").format(x=card.star_fives), this.star),
    ]
    labels = {"fatigue": "💧", "light": "💢", "heavy": "💔", "up": "🔺", "down": "🔻", "bleed": "🩸"}
    for key, sym in labels.items():
        if this.effects.get(key):
            expectations.append((f"pc_{key}", _("{sym} infligés en moyenne").format(sym=sym), this.effects[key]))
    for i, other in enumerate(adv.deck, start=1):
        if other.attack and card_available(adv, other):
            o = this if i == s.card else card_odds(s, other, garde)
            expectations.append(
                (
                    f"card.{i}.success",
                    typography(_("Probabilité « {name} » : ✅ Réussite").format(name=other.name)),
                    o.success,
                )
            )
            expectations.append(
                (
                    f"card.{i}.star",
                    typography(
                        _("Probabilité « {name} » : ⭐ Repérez {x} 5").format(name=other.name, x=other.star_fives)
                    ),
                    o.star,
                )
            )
    return Odds(
        outcomes=(("success", _("✅ Réussite"), this.success), ("failure", _("❌ Échec"), 1 - this.success)),
        charts=tuple(charts),
        expectations=tuple(expectations),
    )


def _pc_attack(s: Scenario) -> Odds:
    dist = (
        pc_distribution(s.pc, s.pc_faces)
        if s.pc.source is PcSource.ROLLED
        else {(s.pc.score, False, False): Fraction(1)}
    )
    scores: dict[int, Fraction] = defaultdict(Fraction)
    for (score, _d, _c), p in dist.items():
        scores[score] += p
    outcomes: dict[str, Fraction] = defaultdict(Fraction)
    boxes: dict[int, Fraction] = defaultdict(Fraction)
    labels: dict[str, str] = {}
    cache: dict[int, tuple[str, str, int]] = {}
    for score, p in scores.items():
        if score not in cache:
            typed = replace(s, pc=replace(s.pc, source=PcSource.TYPED, score=score))
            res = resolve(typed, DiceRoll(values={}))
            ticked = res.numbers.get("boxes_ticked", 0)
            cache[score] = (res.outcome, res.outcome_label, ticked if isinstance(ticked, int) else 0)
        outcome, label, ticked = cache[score]
        outcomes[outcome] += p
        labels[outcome] = label
        boxes[ticked] += p
    order = ["miss", "hit", "exhausted", "destroyed"]
    charts = [Chart("boxes", _("Cases ▢ cochées sur l'adversaire"), _bars(boxes), _mean(boxes))]
    if s.pc.source is PcSource.ROLLED:
        charts.insert(0, Chart("score", _("Score d'attaque du personnage"), _bars(scores), _mean(scores)))
    expectations: list[tuple[str, str, Fraction]] = [("boxes", _("Cases cochées en moyenne"), _mean(boxes))]
    if s.pc.source is PcSource.ROLLED:
        expectations.append(
            (
                "defaut",
                _("Probabilité de Défaut ⚠️ (dé de compétence gardé à 0)"),
                sum((p for (_s, d, _c), p in dist.items() if d), Fraction(0)),
            )
        )
        expectations.append(
            (
                "critique",
                _("Probabilité de Critique (dé de compétence gardé à 5)"),
                sum((p for (_s, _d, c), p in dist.items() if c), Fraction(0)),
            )
        )
    return Odds(
        outcomes=tuple((code, labels[code], outcomes[code]) for code in order if code in outcomes),
        charts=tuple(charts),
        expectations=tuple(expectations),
    )


def odds(s: Scenario) -> Odds:
    """Exact outcome probabilities, charts and expectations of the scenario."""
    if s.mode is Mode.ADVERSARY_ATTACK:
        return _adversary_attack(s)
    if s.mode is Mode.PC_ATTACK:
        return _pc_attack(s)
    res = resolve(s, DiceRoll(values={}))  # the round boundary and the gaze roll no dice
    return Odds(outcomes=((res.outcome, res.outcome_label, Fraction(1)),))


def power_table(faces: DiceFaces, levels: Iterable[tuple[str, int, int, int]]) -> list[tuple[str, DiceStats]]:
    """The power table computed from the dice: ``levels`` are (name, 🟫, ⬜, 🟧) rows (data)."""
    return [
        (name, dice_stats([Rung.DANGER] * d + [Rung.MENACE] * m + [Rung.NUISANCE] * n, faces))
        for name, d, m, n in levels
    ]


__all__ = [
    "CardOdds",
    "DiceStats",
    "adversary_roll",
    "card_odds",
    "dice_stats",
    "odds",
    "pc_distribution",
    "power_table",
]
