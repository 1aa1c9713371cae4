"""Small builders shared by the Quadrature tests."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulesets.core.dice import fixed_roll
from rulesets.core.results import Result
from rulesets.quadrature.engine import dice_for, resolve
from rulesets.quadrature.examples import BASE as EXAMPLE_SHEET
from rulesets.quadrature.model import Adversary, Effect, Mental, Mode, Pc, Scenario

# The sheet these tests were written on (issue 14, item 6: the default is now the bestiary's wolf).
BASE = EXAMPLE_SHEET
PRUDENT = replace(BASE, mental=Mental.PRUDENT)


def hit(adv: Adversary, effect: Effect, part: int = 2, score: int = 20) -> Result:
    """A PC's attack that lands (typed score) on ``part`` with ``effect``."""
    s = Scenario(mode=Mode.PC_ATTACK, adversary=adv, target_part=part, pc=Pc(score=score), pc_success=effect)
    return resolve(s, fixed_roll({}))


def attack(adv: Adversary, card: int, garde: int, dice: list[int], **extra: Any) -> Result:
    pc = extra.pop("pc", Pc(score=garde))
    s = Scenario(mode=Mode.ADVERSARY_ATTACK, adversary=adv, card=card, pc=pc, **extra)
    spec = dice_for(s)
    assert len(spec.slots) == len(dice), [sl.key for sl in spec.slots]
    return resolve(s, fixed_roll({f"adv.{i}": v for i, v in enumerate(dice, start=1)}))


def sheet_after(result: Result) -> dict[str, Any]:
    data: dict[str, Any] = result.events[-1].data["sheet"]
    return data


def kinds(result: Result) -> list[str]:
    return [e.kind for e in result.events]


def with_ticks(adv: Adversary, ticks: dict[int, int]) -> Adversary:
    """``adv`` with block ``k`` (index in ``adv.blocks``) ticked ``ticks[k]`` times."""
    return replace(adv, blocks=tuple(replace(b, ticked=ticks.get(k, b.ticked)) for k, b in enumerate(adv.blocks)))
