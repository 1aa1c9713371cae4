"""The odds benchmark's scenarios: for each ruleset its default page and the largest scenario a
table would sensibly play (issue 9: odds ≤ 10 ms by default, ≤ 100 ms at worst). Timed by
``bench/run.py``; the test suite checks the same scenarios for exactness, never for speed."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from rulesets.aventuriers.model import DiceGroup, Weapon
from rulesets.aventuriers.model import Scenario as AventuriersScenario
from rulesets.core.schema import parse
from rulesets.encore.model import Scenario as EncoreScenario
from rulesets.feerie.action import ActionScenario, Fighter
from rulesets.feerie.model import DiceTerm, Exchange
from rulesets.nephilim.model import Scenario as NephilimScenario
from rulesets.quadrature.model import Adversary, Pc, PcSource
from rulesets.quadrature.model import Mode as QuadratureMode
from rulesets.quadrature.model import Scenario as QuadratureScenario


def encore_largest() -> EncoreScenario:
    """15 d6 (attribute 10, a speciality, three allies' dice) against Menace 3."""
    scenario: EncoreScenario = parse(
        EncoreScenario,
        {"pc": {"attribute": 10, "speciality": True, "bonus_dice": 3}, "npcs": [{"menace": 3, "weapon": 4}]},
    )
    return scenario


def nephilim_largest() -> NephilimScenario:
    """A shot « coup par coup » at six defenders, each with a margin choice, armour and an effect."""
    from tests.rulesets.nephilim.helpers import (
        approach,
        attacker,
        def_fx,
        defence,
        defender,
        protection,
        ranged,
        weapon,
    )

    defenders = [
        defender(
            name=f"Cible {i}",
            degree=14,
            defence=defence("Parer arme projectiles", "tir"),
            margin_damage=3,
            protections=[protection("Gilet pare-balles lourd")],
            effects=[def_fx("Retenue du souffle de la Chrysopée")],
        )
        for i in range(6)
    ]
    scenario: NephilimScenario = ranged(
        attacker(
            kind="autre",
            degree=18,
            margin_damage=4,
            approach=approach("Tir (visée 1r)"),
            weapon=weapon("Fusil d'assaut AK-47"),
        ),
        *defenders,
        cadence="cpc",
    )
    return scenario


def feerie_largest() -> Exchange:
    """A dice term of 3d20 − 3d20."""
    return dataclasses.replace(Exchange(), roll=DiceTerm(plus=3, minus=3, sides=20))


def feerie_action_largest() -> ActionScenario:
    """Twelve fighters in one Action."""
    return ActionScenario(fighters=tuple(Fighter(f"F{i}", vigilance=10 + i % 3, affinities=i % 2) for i in range(12)))


def quadrature_largest() -> list[QuadratureScenario]:
    """Eight adversary dice (4 Danger, 2 Menace, 2 Nuisance) against a rolled PC with 6 🟦, 6 🟨,
    3 upgrades and advantage 3; and that PC striking with disadvantage 3."""
    big = QuadratureScenario(
        adversary=dataclasses.replace(Adversary(), danger=4, menace=2, nuisance=2),
        pc=Pc(source=PcSource.ROLLED, characteristic=6, skill=6, skill_upgrades=3, advantage=3),
    )
    strike = dataclasses.replace(big, mode=QuadratureMode.PC_ATTACK, pc=dataclasses.replace(big.pc, advantage=-3))
    return [big, strike]


def aventuriers_largest() -> AventuriersScenario:
    """8 attack dice against 8 defence dice, with Riposte and Contrecoup on a defender of 20 PV."""
    from tests.rulesets.aventuriers.helpers import hero, monster

    pool = (DiceGroup("noir", 3, protection=True), DiceGroup("noir", 2), DiceGroup("bleu", 3))
    return AventuriersScenario(
        attacker=monster(pv=20, weapon=Weapon(dice=(DiceGroup("noir", 4), DiceGroup("bleu", 4))), defence=pool),
        defender=hero(pv=20, riposte=True, contrecoup=True, defence=pool),
    )


def scenarios() -> dict[str, dict[str, Callable[[], Any]]]:
    """slug → {"default": …, "largest": …} (a list where one ruleset has two worst cases)."""
    return {
        "encore": {"default": EncoreScenario, "largest": encore_largest},
        "nephilim": {"default": NephilimScenario, "largest": nephilim_largest},
        "feerie": {"default": Exchange, "largest": feerie_largest},
        "feerie-action": {"default": ActionScenario, "largest": feerie_action_largest},
        "quadrature": {"default": QuadratureScenario, "largest": quadrature_largest},
        "aventuriers": {"default": AventuriersScenario, "largest": aventuriers_largest},
    }
