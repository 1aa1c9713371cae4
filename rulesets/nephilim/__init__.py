"""Nephilim Légende (D100): the nephilim-rpg.com wiki combat calculator, and better."""

from __future__ import annotations

from rulesets.core.registry import Ruleset, register
from rulesets.nephilim import encounter as encounter  # registers the encounter rules
from rulesets.nephilim.engine import dice_for, resolve
from rulesets.nephilim.examples import examples
from rulesets.nephilim.model import Scenario
from rulesets.nephilim.narrative import scene, story
from rulesets.nephilim.odds import odds

RULESET = register(
    Ruleset(
        slug="nephilim",
        name="Nephilim Légende",
        tagline="D100 sous le seuil, dommages physiques et magiques, approches, sorts et rafales",
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
