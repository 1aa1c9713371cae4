"""Exact odds: checked against the enumeration of every die through the engine itself."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.aventuriers.engine import dice_for, resolve
from rulesets.aventuriers.model import (
    Action,
    Board,
    DiceGroup,
    DieType,
    Face,
    Facing,
    Mode,
    Reach,
    Rules,
    Scenario,
    Weapon,
)
from rulesets.aventuriers.odds import (
    Outcome,
    _Marginals,
    joint,
    joint_weights,
    marginals,
    odds,
    prefix_weights,
    roll_weights,
)
from rulesets.core.dice import fixed_roll
from rulesets.core.odds import Distribution, brute_force
from tests.rulesets.aventuriers.helpers import hero, monster

COIN = DieType(key="piece", name="Pièce", faces=(Face(damage=1), Face(shield=1, lightning=1)))
FAR = Board(dx=2, dy=-2, attacker_facing=Facing.SOUTH, target_facing=Facing.NORTH)


def enumerate_outcomes(scenario: Scenario) -> Distribution[Outcome]:
    """Every face of every die, resolved by the engine."""
    spec = dice_for(scenario)
    keys = spec.keys()

    def outcome(faces: tuple[int, ...]) -> Outcome:
        n = resolve(scenario, fixed_roll(dict(zip(keys, faces)))).numbers
        return (
            int(n["pv_lost"] or 0),
            int(n["defender_stamina_gained"] or 0),
            int(n["attacker_stamina_gained"] or 0),
            bool(n["riposte"]),
            int(n["attacker_pv_lost"] or 0),
        )

    return brute_force([s.die for s in spec.slots], outcome)


ONE_NOIR = (DiceGroup("noir", 1),)
ONE_BLEU = (DiceGroup("bleu", 1),)

# Small cases: at most four six-faced dice (1 296 rolls), or two-faced coins.
SMALL = {
    "default": Scenario(),
    "riposte_contrecoup": Scenario(
        attacker=monster(pv=3, defence=ONE_NOIR), defender=hero(riposte=True, contrecoup=True, stamina=0)
    ),
    "riposte_strict": Scenario(
        attacker=monster(pv=2, defence=ONE_BLEU),
        defender=hero(riposte=True, contrecoup=True),
        rules=Rules(contrecoup_without_shield=False),
    ),
    "riposte_monster_defender": Scenario(
        attacker=hero(weapon=Weapon(dice=ONE_BLEU), defence=ONE_NOIR), defender=monster(riposte=True, pv=2)
    ),
    "attaque_eclair": Scenario(
        action=Action.LEAVE_ZONE,
        attacker=hero(attaque_eclair=True),
        defender=monster(defence=(DiceGroup("bleu", 1), DiceGroup("noir", 1))),
    ),
    "attaque_opportunite_vs_aventurier": Scenario(
        action=Action.PHASE_START,
        attacker=monster(attaque_opportunite=True, weapon=Weapon(dice=(DiceGroup("noir", 2),))),
        defender=hero(pv=3),
    ),
    "unblockable": Scenario(
        attacker=hero(weapon=Weapon(dice=(DiceGroup("noir", 2),), unblockable=True)), defender=monster(pv=4)
    ),
    "coup_bas": Scenario(
        attacker=hero(coup_bas=True),
        defender=monster(pv=3),
        board=Board(dx=0, dy=1, attacker_facing=Facing.NORTH, target_facing=Facing.NORTH),
    ),
    "flash_spell": Scenario(
        mode=Mode.RANGED,
        attacker=hero(weapon=Weapon(reach=Reach.RANGED, spell=True, flash=True, dice=(DiceGroup("noir", 2),))),
        defender=monster(),
        board=FAR,
    ),
    "monster_stamina": Scenario(
        attacker=monster(riposte=True, defence=ONE_BLEU),
        defender=monster(riposte=True),
        rules=Rules(monster_stamina=True),
    ),
    "coins_riposte_cap": Scenario(
        die_types=(*Scenario().die_types, COIN),
        attacker=monster(weapon=Weapon(dice=(DiceGroup("piece", 2),)), defence=(DiceGroup("piece", 2),), pv=2),
        defender=hero(riposte=True, contrecoup=True, defence=(DiceGroup("piece", 3),), stamina_max=2, stamina=1),
    ),
    "coins_flash_cap": Scenario(
        action=Action.LEAVE_ZONE,
        die_types=(*Scenario().die_types, COIN),
        attacker=hero(attaque_eclair=True, weapon=Weapon(dice=(DiceGroup("piece", 4),))),
        defender=hero(name="Rival", pv=3, defence=(DiceGroup("piece", 1), DiceGroup("piece", 1, protection=True))),
    ),
}
_ENUMERATED: dict[str, Distribution[Outcome]] = {}


def enumerated(name: str) -> Distribution[Outcome]:
    if name not in _ENUMERATED:
        _ENUMERATED[name] = enumerate_outcomes(SMALL[name])
    return _ENUMERATED[name]


@pytest.mark.parametrize("name", list(SMALL))
def test_joint_distribution_equals_the_enumeration_of_every_die(name: str) -> None:
    scenario = SMALL[name]
    assert joint(scenario).probabilities == enumerated(name).probabilities


@pytest.mark.parametrize("name", list(SMALL))
def test_outcome_probabilities_sum_to_one_and_match_the_enumeration(name: str) -> None:
    scenario = SMALL[name]
    result = odds(scenario)
    assert sum(p for _c, _l, p in result.outcomes) == 1
    brute = enumerated(name)
    pv = scenario.defender.pv
    assert result.probability("tue") == brute.probability(lambda o: o[0] >= pv)
    assert result.probability("indemne") == brute.probability(lambda o: o[0] == 0)


def test_roll_weights_of_two_blue_dice_enumerate_thirty_six_rolls() -> None:
    blue = Scenario().die("bleu")
    assert blue is not None
    weights = roll_weights((blue, blue))
    assert sum(weights.values()) == 36
    assert weights[(4, 0, 0)] == 1  # bleu 3 twice
    assert weights[(0, 0, 4)] == 1  # bleu 6 twice


def test_prefix_weights_share_one_total() -> None:
    noir, bleu = Scenario().die_types
    prefixes = prefix_weights((noir, bleu, bleu))
    assert [sum(p.values()) for p in prefixes] == [216, 216, 216, 216]
    assert prefixes[0] == {(0, 0, 0): 216}


def test_success_test_odds_of_the_default_blue_die() -> None:
    result = odds(Scenario(action=Action.SUCCESS_TEST))
    assert result.outcomes == (
        ("aucun_eclair", "Aucun éclair", Fraction(1, 2)),
        ("un_eclair", "Un éclair", Fraction(1, 3)),
        ("deux_eclairs", "Deux éclairs", Fraction(1, 6)),
    )
    chart = result.charts[0]
    assert chart.bars == (("0", Fraction(1, 2)), ("1", Fraction(1, 3)), ("2", Fraction(1, 6)))
    assert chart.mean == Fraction(2, 3)


def test_an_impossible_exchange_is_certain_to_be_impossible() -> None:
    result = odds(Scenario(action=Action.LEAVE_ZONE))
    assert result.outcomes == (("impossible", "Attaque impossible", Fraction(1)),)


def test_odds_give_the_charts_of_pv_lost_and_stamina_and_the_probability_to_kill() -> None:
    result = odds(SMALL["riposte_contrecoup"])
    keys = [c.key for c in result.charts]
    assert keys == ["pv_lost", "defender_stamina", "attacker_pv_lost"]
    pv_chart = result.charts[0]
    assert sum(p for _label, p in pv_chart.bars) == 1
    assert [c for c, _l, _v in result.expectations] == ["kill", "pv_lost", "riposte", "attacker_killed"]


def test_the_default_and_the_largest_sensible_scenarios_give_exact_distributions() -> None:
    """Their speed is measured by ``make bench`` (bench/scenarios.py), not asserted here."""
    big = (DiceGroup("noir", 3, protection=True), DiceGroup("noir", 2), DiceGroup("bleu", 3))
    largest = Scenario(
        attacker=monster(pv=20, weapon=Weapon(dice=(DiceGroup("noir", 4), DiceGroup("bleu", 4))), defence=big),
        defender=hero(pv=20, riposte=True, contrecoup=True, defence=big),
    )
    for scenario in (Scenario(), largest):
        assert sum(p for _c, _l, p in odds(scenario).outcomes) == 1


def test_odds_ignore_the_entry_mode() -> None:
    scenario = SMALL["riposte_contrecoup"]
    from rulesets.aventuriers.model import Entry

    assert odds(replace(scenario, entry=Entry.TOTALS)) == odds(scenario)


@pytest.mark.parametrize("name", list(SMALL))
def test_marginals_equal_those_of_the_joint_distribution(name: str) -> None:
    """The odds read each part of the outcome through :func:`marginals`, computed without the joint
    distribution; the joint is checked against the enumeration of every die above."""
    scenario = SMALL[name]
    fast, reference = marginals(scenario), _Marginals.of_joint(joint_weights(scenario))
    assert (fast.counts, fast.total) == (reference.counts, reference.total)


FACE = st.builds(Face, damage=st.integers(0, 2), shield=st.integers(0, 2), lightning=st.integers(0, 2))
DIE_TYPES = st.lists(st.lists(FACE, min_size=2, max_size=3), min_size=1, max_size=2).map(
    lambda dice: tuple(DieType(key=f"d{i}", name=f"Dé {i}", faces=tuple(f)) for i, f in enumerate(dice))
)


@st.composite
def small_exchanges(draw: st.DrawFn) -> Scenario:
    """Small custom dice and every switch of the exchange: reactions, flash attacks, stamina,
    unblockable damage, Coup bas from behind, PV low enough for every cap to bite."""
    die_types = draw(DIE_TYPES)
    keys = [d.key for d in die_types]

    def pool(least: int) -> tuple[DiceGroup, ...]:
        groups = draw(
            st.lists(
                st.builds(DiceGroup, die=st.sampled_from(keys), count=st.integers(0, 2), protection=st.booleans()),
                min_size=1,
                max_size=2,
            )
        )
        if sum(g.count for g in groups) < least:
            groups[0] = replace(groups[0], count=least)
        return tuple(groups)

    def fighter(**extra: object) -> dict[str, object]:
        return {
            "side": draw(st.sampled_from(["aventurier", "monstre"])),
            "pv": draw(st.integers(1, 4)),
            "defence": pool(0),
            "riposte": draw(st.integers(0, 3).map(lambda n: n < 3)),
            **extra,
        }

    # mostly plain attacks: the Riposte, and its flash defence, chain only there
    action = draw(st.sampled_from([Action.ATTACK] * 4 + [Action.LEAVE_ZONE, Action.PHASE_START]))
    rare = st.integers(0, 3).map(lambda n: n == 3)
    weapon = Weapon(dice=pool(1), flash=draw(rare), unblockable=draw(rare))
    attacker = hero(
        **fighter(weapon=weapon, coup_bas=draw(st.booleans()), attaque_eclair=True, attaque_opportunite=True)
    )
    defender_fields = fighter()
    defender = monster(**defender_fields, contrecoup=bool(defender_fields["riposte"]) and draw(st.booleans()))
    behind = draw(st.booleans())
    board = Board(dx=0, dy=1, attacker_facing=Facing.NORTH, target_facing=Facing.NORTH) if behind else Board()
    rules = Rules(
        success_die=keys[0],
        coup_bas_bonus=draw(st.integers(0, 2)),
        contrecoup_without_shield=draw(st.booleans()),
        monster_stamina=draw(st.booleans()),
    )
    return Scenario(
        action=action,
        attacker=attacker,
        defender=defender,
        board=replace(board, enforce=False),
        die_types=die_types,
        rules=rules,
    )


@settings(max_examples=300, deadline=None)
@given(small_exchanges())
def test_marginals_equal_those_of_the_joint_distribution_on_random_exchanges(scenario: Scenario) -> None:
    fast, reference = marginals(scenario), _Marginals.of_joint(joint_weights(scenario))
    assert (fast.counts, fast.total) == (reference.counts, reference.total)
