"""Builders for the Aventuriers engine tests (pure: no database)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rulesets.aventuriers.engine import dice_for, resolve
from rulesets.aventuriers.model import DiceGroup, Fighter, Scenario, Side, Weapon
from rulesets.core.dice import fixed_roll
from rulesets.core.french import DEFINITE_M, PROPER_F
from rulesets.core.results import Result


def hero(**changes: Any) -> Fighter:
    base = Fighter(
        name="Elwen",
        grammar=PROPER_F,
        side=Side.AVENTURIER,
        pv=8,
        stamina=1,
        weapon=Weapon(name="Épée longue", dice=(DiceGroup("bleu", 2),)),
        defence=(DiceGroup("noir", 1, protection=True), DiceGroup("bleu", 1)),
    )
    return replace(base, **changes)


def monster(**changes: Any) -> Fighter:
    base = Fighter(
        name="Orc",
        grammar=DEFINITE_M,
        side=Side.MONSTRE,
        pv=5,
        px=4,
        weapon=Weapon(name="Hache", dice=(DiceGroup("noir", 1),)),
        defence=(DiceGroup("noir", 1), DiceGroup("bleu", 1)),
    )
    return replace(base, **changes)


def play(scenario: Scenario, dice: Mapping[str, int]) -> Result:
    """Resolve with every die typed; dice the rules read but the test omits default to face 1."""
    values = {slot.key: dice.get(slot.key, 1) for slot in dice_for(scenario).slots}
    unknown = set(dice) - set(values)
    assert not unknown, f"dice not read by the rules: {unknown}"
    return resolve(scenario, fixed_roll(values))
