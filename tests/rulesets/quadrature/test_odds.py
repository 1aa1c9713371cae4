"""Exact odds of Quadrature exchanges, checked against brute-force enumeration and the power table."""

from __future__ import annotations

import sys
from collections import defaultdict
from dataclasses import replace
from fractions import Fraction

import pytest

from rulesets.core.dice import Die, fixed_roll
from rulesets.core.odds import brute_force
from rulesets.quadrature.dice import pc_pool, pc_score
from rulesets.quadrature.engine import dice_for, read_adversary_roll, resolve
from rulesets.quadrature.model import DiceFaces, Effect, Mental, Mode, Pc, PcSource, PlayerFaces, Rung, Scenario, Traits
from rulesets.quadrature.odds import adversary_roll, dice_stats, odds, pc_distribution, power_table

from .helpers import BASE, PRUDENT, with_ticks

odds_module = sys.modules["rulesets.quadrature.odds"]
D, M, N = Rung.DANGER, Rung.MENACE, Rung.NUISANCE
FACES = DiceFaces()

# The seed's power table: (name, 🟫, ⬜, 🟧) and its « Moyenne » column. The rows are data for the test.
POWER_LEVELS = [
    ("Insignifiant", 0, 0, 4, 6),
    ("Nuisible", 0, 1, 3, 7),
    ("Faible", 0, 2, 2, 8),
    ("Novice", 0, 3, 1, 9),
    ("Initié", 0, 4, 0, 10),
    ("Compétent", 1, 3, 0, 11),
    ("Vétéran", 2, 2, 0, 12),
    ("Expert", 3, 1, 0, 13),
    ("Élite", 4, 0, 0, 14),
]


def _die(rung: Rung) -> Die:
    return Die(name=rung.value, faces=FACES.of(rung))


@pytest.mark.parametrize(("name", "danger", "menace", "nuisance", "mean"), POWER_LEVELS)
def test_the_power_table_means_match_the_seed(name, danger, menace, nuisance, mean):
    stats = dict(power_table(FACES, [(name, danger, menace, nuisance)]))[name]
    assert stats.mean == mean


@pytest.mark.parametrize(
    ("name", "minimum", "maximum"),
    [
        ("Insignifiant", 0, 12),
        ("Nuisible", 0, 14),
        ("Faible", 0, 16),
        ("Novice", 0, 18),
        ("Initié", 0, 20),
        ("Compétent", 2, 20),
        ("Vétéran", 4, 20),
        ("Expert", 6, 20),
        ("Élite", 8, 20),
    ],
)
def test_the_power_table_min_and_max_are_computed_from_the_faces(name, minimum, maximum):
    # The seed prints other min/max (e.g. 16 for 🟧🟧🟧🟧, whose faces top at 3): rules/quadrature.md
    # asks for the columns to be computed from the dice; docs/rules/quadrature.md records the gap.
    levels = [(n, d, m, k) for n, d, m, k, _mean in POWER_LEVELS]
    stats = dict(power_table(FACES, levels))[name]
    assert (stats.minimum, stats.maximum) == (minimum, maximum)


def test_each_power_level_distribution_sums_to_one():
    for _name, stats in power_table(FACES, [(n, d, m, k) for n, d, m, k, _ in POWER_LEVELS]):
        assert sum(stats.distribution.values()) == 1


@pytest.mark.parametrize("rungs", [[D, M, N, N], [M, M, M, M], [D, D, M, N, N], [M, N, N, N, N, N]])
def test_the_adversary_roll_matches_brute_force_enumeration(rungs):
    expected = brute_force(
        [_die(r) for r in rungs], lambda faces: (lambda r: (r.total, r.fives))(read_adversary_roll(faces, 5))
    )
    assert adversary_roll(rungs, FACES) == dict(expected.probabilities)


def test_dice_stats_mean_matches_brute_force():
    rungs = [D, D, M, N, N]
    expected = brute_force([_die(r) for r in rungs], lambda faces: read_adversary_roll(faces, 5).total)
    assert dice_stats(rungs, FACES).mean == expected.mean()


@pytest.mark.parametrize(
    "pc",
    [
        Pc(source=PcSource.ROLLED, characteristic=1, skill=1),
        Pc(source=PcSource.ROLLED, characteristic=0, skill=0, advantage=1),
        Pc(source=PcSource.ROLLED, characteristic=2, skill=2, skill_upgrades=1, advantage=-1),
        Pc(source=PcSource.ROLLED, characteristic=1, skill=2, advantage=2),
    ],
)
def test_the_pc_score_distribution_matches_brute_force_enumeration(pc):
    faces = PlayerFaces()
    pool = pc_pool(pc, faces)
    dice = [*pool.characteristic, *pool.skill, pool.alea, *pool.edge]
    nc, ns = len(pool.characteristic), len(pool.skill)

    def read(values: tuple[int, ...]) -> tuple[int, bool, bool]:
        sc = pc_score(values[:nc], values[nc : nc + ns], values[nc + ns :], pool.advantage, faces)
        return sc.score, sc.defaut, sc.critique

    assert pc_distribution(pc, faces) == dict(brute_force(dice, read).probabilities)


def _brute_attack(s: Scenario) -> tuple[Fraction, Fraction]:
    """P(✅) and P(⭐) by enumerating every adversary face through the engine.

    A rolled Garde is enumerated on its own (its dice are independent of the adversary's); each
    adversary roll goes through the engine once and is compared with every Garde (ties succeed).
    """
    gardes: dict[int, Fraction] = {s.pc.score: Fraction(1)}
    if s.pc.source is PcSource.ROLLED:
        pool = pc_pool(s.pc, s.pc_faces)
        dice = [*pool.characteristic, *pool.skill, pool.alea, *pool.edge]
        nc, ns = len(pool.characteristic), len(pool.skill)
        gardes = dict(
            brute_force(
                dice, lambda v: pc_score(v[:nc], v[nc : nc + ns], v[nc + ns :], pool.advantage, s.pc_faces).score
            ).probabilities
        )
    typed = replace(s, pc=replace(s.pc, source=PcSource.TYPED, score=0))
    slots = dice_for(typed).slots
    success = Fraction(0)
    star = Fraction(0)
    for values, p in brute_force([sl.die for sl in slots], lambda v: v):
        result = resolve(typed, fixed_roll({sl.key: v for sl, v in zip(slots, values)}))
        total = result.numbers["total"]
        assert isinstance(total, int)
        success += p * sum((q for garde, q in gardes.items() if total >= garde), Fraction(0))
        if result.numbers["star"]:
            star += p
    return success, star


@pytest.mark.parametrize(
    "scenario",
    [
        Scenario(adversary=PRUDENT, card=2, pc=Pc(score=11)),
        Scenario(adversary=BASE, card=3, pc=Pc(score=14), matchup=-1),
        Scenario(adversary=replace(BASE, mental=Mental.PANIQUE), card=1, pc=Pc(score=7)),
        Scenario(
            adversary=replace(PRUDENT, danger=0, menace=2, nuisance=2),
            card=2,
            pc=Pc(source=PcSource.ROLLED, characteristic=0, skill=0),
        ),
    ],
    ids=["typed-garde", "matchup", "panicked", "rolled-garde"],
)
def test_adversary_attack_odds_match_enumeration_through_the_engine(scenario):
    result = odds(scenario)
    success, star = _brute_attack(scenario)
    assert result.probability("success") == success
    assert result.probability("failure") == 1 - success
    assert {c: v for c, _l, v in result.expectations}["star"] == star


def test_every_available_card_gets_its_own_odds_against_the_garde():
    result = odds(Scenario(adversary=PRUDENT, card=2, pc=Pc(score=12)))
    codes = [c for c, _l, _v in result.expectations]
    assert [c for c in codes if c.startswith("card.")] == [
        f"card.{i}.{k}" for i in range(1, 5) for k in ("success", "star")
    ]
    for i in (1, 3):
        brute, brute_star = _brute_attack(Scenario(adversary=PRUDENT, card=i, pc=Pc(score=12)))
        values = {c: v for c, _l, v in result.expectations}
        assert values[f"card.{i}.success"] == brute
        assert values[f"card.{i}.star"] == brute_star


def test_a_card_with_a_destroyed_block_gets_no_odds():
    result = odds(Scenario(adversary=with_ticks(PRUDENT, {3: 3}), card=2, pc=Pc(score=12)))
    assert "card.4.success" not in [c for c, _l, _v in result.expectations]


def test_expected_effects_on_the_pc_follow_the_outcome_odds():
    adv = replace(PRUDENT, traits=Traits(exhausting_strike=True))
    result = odds(Scenario(adversary=adv, card=2, pc=Pc(score=11)))
    values = {c: v for c, _l, v in result.expectations}
    p = result.probability("success")
    assert values["pc_light"] == 3 * p + (1 - p)
    assert values["pc_fatigue"] == p
    assert values["pc_down"] == values["star"]


def test_pc_attack_odds_match_enumeration_through_the_engine():
    s = Scenario(
        mode=Mode.PC_ATTACK,
        adversary=BASE,
        target_part=3,
        pc=Pc(source=PcSource.ROLLED, characteristic=1, skill=1),
        pc_success=Effect(light=4),
    )
    spec = dice_for(s)
    counts: dict[str, Fraction] = defaultdict(Fraction)
    boxes: dict[str, Fraction] = defaultdict(Fraction)
    for values, p in brute_force([sl.die for sl in spec.slots], lambda v: v):
        result = resolve(s, fixed_roll({sl.key: v for sl, v in zip(spec.slots, values)}))
        counts[result.outcome] += p
        boxes[str(result.numbers["boxes_ticked"])] += p
    result = odds(s)
    assert {c: v for c, _l, v in result.outcomes} == dict(counts)
    chart = next(ch for ch in result.charts if ch.key == "boxes")
    assert dict(chart.bars) == dict(boxes)


def test_pc_attack_odds_with_a_typed_score_are_certain():
    result = odds(Scenario(mode=Mode.PC_ATTACK, adversary=BASE, pc=Pc(score=11)))
    assert result.probability("hit") == 1


def test_pc_attack_odds_report_defaut_and_critique_probabilities():
    s = Scenario(mode=Mode.PC_ATTACK, adversary=BASE, pc=Pc(source=PcSource.ROLLED, characteristic=1, skill=1))
    values = {c: v for c, _l, v in odds(s).expectations}
    dist = pc_distribution(s.pc, s.pc_faces)
    assert values["defaut"] == sum(p for (_s, d, _c), p in dist.items() if d)
    assert values["critique"] == sum(p for (_s, _d, c), p in dist.items() if c)


def test_round_and_gaze_odds_are_the_certain_outcome():
    assert odds(Scenario(mode=Mode.ROUND)).probability("round") == 1
    gaze = Scenario(mode=Mode.HYPNOTIC_GAZE, adversary=replace(BASE, traits=Traits(hypnotic_gaze=True)))
    assert odds(gaze).probability("entangled") == 1


def test_odds_outcomes_always_sum_to_one():
    for s in (
        Scenario(),
        Scenario(pc=Pc(source=PcSource.ROLLED)),
        Scenario(mode=Mode.PC_ATTACK, pc=Pc(source=PcSource.ROLLED, characteristic=3, skill=2)),
    ):
        assert sum(p for _c, _l, p in odds(s).outcomes) == 1


def _is_distribution(s: Scenario) -> bool:
    o = odds(s)
    return sum(p for _c, _l, p in o.outcomes) == 1 and all(sum(p for _l, p in c.bars) == 1 for c in o.charts)


def test_odds_of_the_default_and_the_largest_sensible_scenarios_are_exact_distributions():
    """Their speed is measured by ``make bench`` (bench/scenarios.py), not asserted here."""
    big = Scenario(
        adversary=replace(BASE, danger=4, menace=2, nuisance=2),
        pc=Pc(source=PcSource.ROLLED, characteristic=6, skill=6, skill_upgrades=3, advantage=3),
    )
    attack = replace(big, mode=Mode.PC_ATTACK, pc=replace(big.pc, advantage=-3))
    assert all(_is_distribution(s) for s in (Scenario(), big, attack))


PROBABILITY_CODES = {"star", "defaut", "critique"}


@pytest.mark.parametrize(
    "scenario",
    [
        Scenario(adversary=PRUDENT, card=2, pc=Pc(score=12)),
        Scenario(mode=Mode.PC_ATTACK, adversary=BASE, pc=Pc(source=PcSource.ROLLED, characteristic=1, skill=1)),
    ],
    ids=["adversary-attack", "pc-attack"],
)
def test_probability_expectations_are_labelled_probabilite_and_counts_are_not(scenario):
    """The generic odds panel shows a percentage only when the label contains « Probabilité »."""
    for code, label, value in odds(scenario).expectations:
        is_probability = code in PROBABILITY_CODES or code.startswith("card.")
        assert label.startswith("Probabilité") is is_probability, (code, label)
        if is_probability:
            assert 0 <= value <= 1
