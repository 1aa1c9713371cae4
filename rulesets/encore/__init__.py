"""enCORE conflicts: a d6 success pool against the NPC's Menace, the breach and the NPC strike."""

from rulesets.core.registry import Ruleset, register
from rulesets.encore import encounter as encounter  # registers the encounter rules
from rulesets.encore.engine import dice_for, resolve
from rulesets.encore.examples import examples
from rulesets.encore.model import Scenario
from rulesets.encore.narrative import scene, story
from rulesets.encore.odds import odds

RULESET = register(
    Ruleset(
        slug="encore",
        name="enCORE — conflits",
        tagline="Réserve de d6 contre la Menace, brèches et frappes des PNJ.",
        scenario_type=Scenario,
        dice_for=dice_for,
        resolve=resolve,
        odds=odds,
        scene=scene,
        story=story,
        examples=examples,
        engine_version="1.0",
    )
)
