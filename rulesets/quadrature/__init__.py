"""Quadrature adversaries: creature sheets, both attack directions, hordes and the threat level 💀.

Seed: ``000_415b80e59de2a9f9.txt`` (« 🐉 Adversaires »); decisions: ``docs/rules/quadrature.md``.
"""

from __future__ import annotations

from rulesets.core.registry import Ruleset, register
from rulesets.quadrature import encounter as encounter  # registers the encounter rules
from rulesets.quadrature.engine import dice_for, resolve
from rulesets.quadrature.examples import examples
from rulesets.quadrature.model import Scenario
from rulesets.quadrature.narrative import scene, story
from rulesets.quadrature.odds import odds

RULESET = register(
    Ruleset(
        slug="quadrature",
        name="Quadrature — adversaires",
        tagline="Fiches vivantes de créatures, attaques dans les deux sens, hordes et niveau de menace 💀",
        scenario_type=Scenario,
        dice_for=dice_for,
        resolve=resolve,
        odds=odds,
        scene=scene,
        story=story,
        examples=examples,
    )
)

__all__ = ["RULESET"]
