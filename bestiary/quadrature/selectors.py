"""Read functions over the Quadrature tables, and their translation into scenario data."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from bestiary.quadrature.models import ActionCard, Adversary, Block, CardEffect, DeckEntry, Die, PowerLevel
from rulesets.core.schema import parse
from rulesets.quadrature.model import Capability, DiceFaces, Kind, Mental
from rulesets.quadrature.odds import DiceStats, power_table

NO_EFFECT: dict[str, Any] = {
    "fatigue": 0,
    "light": 0,
    "heavy": 0,
    "up": 0,
    "down": 0,
    "bleed": 0,
    "stunned": False,
    "entangled": False,
}


def dice_faces_data() -> dict[str, Any]:
    """The adversary dice of the database as scenario data (``faces``); empty when none exist."""
    faces = {d.rung: d.face_list() for d in Die.objects.all()}
    return {"faces": faces} if faces else {}


def dice_faces() -> DiceFaces:
    data = dice_faces_data().get("faces", {})
    return parse(DiceFaces, data) if data else DiceFaces()


def power_levels() -> list[PowerLevel]:
    return list(PowerLevel.objects.order_by("order"))


def power_rows() -> list[tuple[PowerLevel, DiceStats]]:
    """The power table computed from the dice: each level with its min, mean, max and distribution."""
    levels = power_levels()
    stats = power_table(dice_faces(), [(lv.name, lv.danger, lv.menace, lv.nuisance) for lv in levels])
    return [(lv, st) for lv, (_name, st) in zip(levels, stats, strict=True)]


def card_list() -> list[ActionCard]:
    return list(ActionCard.objects.prefetch_related("effects").order_by("-reusable", "name"))


def card_data(card: ActionCard) -> dict[str, Any]:
    effects: dict[str, CardEffect] = {e.slot: e for e in card.effects.all()}
    return {
        "name": card.name,
        "cost": card.cost,
        "initiative": card.initiative,
        "fatigue_cost": card.fatigue_cost,
        "attack": card.attack,
        "star_fives": card.star_fives,
        "text": card.text,
        **{
            slot: (effects[slot].data() if slot in effects else dict(NO_EFFECT))
            for slot in ("star", "success", "failure")
        },
    }


def adversary_list(kind: str | None = None) -> list[Adversary]:
    qs = Adversary.objects.select_related("power").prefetch_related(
        "parts",
        Prefetch("blocks", queryset=Block.objects.select_related("part", "card").order_by("part__order", "order")),
        Prefetch("deck_entries", queryset=DeckEntry.objects.select_related("card").prefetch_related("card__effects")),
    )
    if kind:
        qs = qs.filter(kind=kind)
    return list(qs.order_by("kind", "danger", "menace", "-nuisance", "name"))


def adversary_data(adv: Adversary) -> dict[str, Any]:
    """A fresh sheet (nothing ticked, this round's tokens from its intact blocks) as scenario data."""
    parts = list(adv.parts.all())
    number = {p.pk: i + 1 for i, p in enumerate(parts)}
    blocks = list(adv.blocks.all())

    def tokens(capability: Capability) -> int:
        return sum(b.value for b in blocks if b.capability == capability.value)

    return {
        "name": adv.name,
        "grammar": adv.grammar_data(),
        "kind": adv.kind,
        "danger": adv.danger,
        "menace": adv.menace,
        "nuisance": adv.nuisance,
        "guard_type": adv.guard_type,
        "guard": adv.guard,
        "parts": [
            {"name": p.name, "armour": p.armour, "armour_lost": 0, "natural_armour": p.natural_armour} for p in parts
        ],
        "blocks": [
            {
                "boxes": b.boxes,
                "ticked": 0,
                "capability": b.capability,
                "value": b.value,
                "label": b.card.name if b.card else b.label,
                "part": number[b.part_id],
            }
            for b in blocks
        ],
        "fatigue_boxes": adv.fatigue_boxes if adv.kind == Kind.CREATURE.value else 0,
        "fatigue_ticked": 0,
        "tenacity": adv.tenacity,
        "action_points": adv.action_points,
        "reactions": adv.reactions,
        "speed": adv.speed,
        "mental": adv.disposition if adv.kind == Kind.CREATURE.value else Mental.AGRESSIF.value,
        "traits": {
            "predator_reflexes": adv.predator_reflexes,
            "bloodthirsty": adv.bloodthirsty,
            "exhausting_strike": adv.exhausting_strike,
            "terror_aura": adv.terror_aura,
            "hive_mind": adv.hive_mind,
            "hypnotic_gaze": adv.hypnotic_gaze,
        },
        "deck": [card_data(e.card) for e in adv.deck_entries.all()],
        "endurance_tokens": tokens(Capability.ENDURANCE),
        "evasion_tokens": tokens(Capability.EVASION),
        "stability_tokens": tokens(Capability.STABILITY) if adv.kind == Kind.CREATURE.value else 0,
        "allied_stability": 0,
        "bleeding": 0,
        "stunned": False,
        "entangled": False,
        "horde": {
            "direction": adv.horde_direction,
            "high_members": adv.horde_high_members,
            "low_members": adv.horde_low_members,
            "stability_on_wound_dealt": adv.horde_stability_dealt,
            "stability_on_wound_taken": adv.horde_stability_taken,
        },
    }
