"""Aventuriers (dungeon-crawler board game): symbol dice, flash damage, reactions and facing zones.

Seed ``001_98d48faccdd02c66`` with ``shared/rules/aventuriers.md``; the project's own decisions are
in ``docs/rules/aventuriers.md``.
"""

from __future__ import annotations

from rulesets.aventuriers import encounter as encounter  # registers the encounter rules
from rulesets.aventuriers.engine import dice_for, resolve
from rulesets.aventuriers.examples import examples
from rulesets.aventuriers.model import Scenario
from rulesets.aventuriers.narrative import scene, story
from rulesets.aventuriers.odds import odds
from rulesets.core.i18n import _
from rulesets.core.registry import Ruleset, register

RULESET = register(
    Ruleset(
        slug="aventuriers",
        name=_("Aventuriers"),
        tagline=_("Dés à symboles, dégâts-éclairs, réactions et zones d'orientation"),
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
