"""Contes de Fées (Féerie): one exchange (registered as ``feerie``) and the Action sequence.

The exchange is registered as ``feerie`` (page ``/feerie/``). The Action sequence is a second
pure engine with its own scenario (:mod:`rulesets.feerie.action`), registered as
``feerie-action``: the generic views serve it at ``/feerie/action/``, the API at
``/api/rulesets/feerie-action/…``.
"""

from __future__ import annotations

from rulesets.core.i18n import _
from rulesets.core.registry import Ruleset, register
from rulesets.feerie import action, engine, examples, narrative, odds
from rulesets.feerie import encounter as encounter  # registers the encounter rules
from rulesets.feerie.action import ActionScenario
from rulesets.feerie.model import Exchange

RULESET = register(
    Ruleset(
        slug="feerie",
        name=_("Contes de Fées"),
        tagline=_("Féerie : un échange entre deux Féeriques — Attaque contre Défense, Dommages contre Encaissement."),
        scenario_type=Exchange,
        dice_for=engine.dice_for,
        resolve=engine.resolve,
        odds=odds.odds,
        scene=narrative.scene,
        story=narrative.story,
        examples=examples.examples,
    )
)

ACTION = register(
    Ruleset(
        slug="feerie-action",
        name=_("Contes de Fées : la séquence d'une Action"),
        tagline=_(
            "Déclarations, Initiative, décompte des rangs, anticipation, activités supplémentaires, changements d'intention."
        ),
        scenario_type=ActionScenario,
        dice_for=action.dice_for,
        resolve=action.resolve,
        odds=action.odds,
        scene=narrative.action_scene,
        story=narrative.action_story,
        examples=examples.action_examples,
    )
)

__all__ = ["ACTION", "RULESET"]
