"""The living sheet (A5 landscape, printable) and the power table of the Quadrature page."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from bestiary.quadrature import selectors
from bestiary.quadrature.web import sheet_of
from rulesets.core.i18n import fr_number
from rulesets.quadrature.model import Adversary, Capability, Kind
from rulesets.quadrature.sheet import (
    armour_bonus,
    capability_total,
    card_available,
    card_cost,
    exhausted,
    horde_mood,
    horde_tokens,
    members,
    part_blocks,
    part_destroyed,
    threat,
)

register = template.Library()

SYMBOLS = {"fatigue": "💧", "light": "💢", "heavy": "💔", "up": "🔺", "down": "🔻", "bleed": "🩸"}


def _effect(effect: Any) -> str:
    bits = [SYMBOLS[k] * getattr(effect, k) for k in SYMBOLS if getattr(effect, k)]
    if effect.stunned:
        bits.append("Sonné 🫨")
    if effect.entangled:
        bits.append("Entravé 🕸️")
    return " ".join(bits) or "—"


def _bars(dist: dict[int, Fraction], width: int = 150, height: int = 28) -> SafeString:
    """A tiny server-rendered SVG histogram (no inline style: the CSP forbids it)."""
    if not dist:
        return SafeString("")
    top = max(dist.values())
    lo, hi = min(dist), max(dist)
    n = hi - lo + 1
    w = width / n
    rects = "".join(
        f'<rect x="{(t - lo) * w:.1f}" y="{height - float(p / top) * height:.1f}" width="{max(w - 1, 1):.1f}" '
        f'height="{float(p / top) * height:.1f}"><title>{t} : {fr_number(float(p) * 100, 1)} %</title></rect>'
        for t, p in sorted(dist.items())
    )
    return SafeString(
        f'<svg class="q-bars" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
        f'aria-label="distribution {lo}–{hi}">{rects}</svg>'
    )


def sheet_context(adv: Adversary) -> dict[str, Any]:
    parts = []
    for i, part in enumerate(adv.parts):
        blocks = []
        for k in part_blocks(adv, i):
            b = adv.blocks[k]
            blocks.append(
                {
                    "boxes": "▣" * b.ticked + "▢" * b.left,
                    "intact": b.intact,
                    "capability": _capability(b.capability, b.value, b.label),
                }
            )
        parts.append(
            {
                "name": part.name,
                "armour": "🛡️" * part.armour_left + "✕" * part.armour_lost,
                "armour_left": part.armour_left,
                "bonus": armour_bonus(adv, i),
                "natural": part.natural_armour,
                "destroyed": part_destroyed(adv, i),
                "blocks": blocks,
            }
        )
    deck = [
        {
            "number": n,
            "name": c.name,
            "cost": "⚫" * card_cost(adv, c),
            "initiative": c.initiative,
            "fatigue_cost": "💧" * c.fatigue_cost,
            "attack": c.attack,
            "star_fives": c.star_fives,
            "star": _effect(c.star),
            "success": _effect(c.success),
            "failure": _effect(c.failure),
            "text": c.text,
        }
        for n, c in enumerate(adv.deck, start=1)
        if card_available(adv, c)
    ]
    t = threat(adv)
    now = threat(adv, current=True)
    reactions = adv.reactions + (1 if adv.traits.predator_reflexes else 0)
    traits = [
        label
        for name, label in (
            ("predator_reflexes", "Réflexes de prédateur"),
            ("bloodthirsty", "Sanguinaire"),
            ("exhausting_strike", "Frappe épuisante"),
            ("terror_aura", "Aura de terreur"),
            ("hive_mind", "Esprit de ruche"),
            ("hypnotic_gaze", "Regard hypnotique"),
        )
        if getattr(adv.traits, name)
    ]
    return {
        "adv": adv,
        "horde": adv.kind is Kind.HORDE,
        "members": members(adv),
        "tokens": horde_tokens(adv),
        "horde_mood": horde_mood(adv).label if adv.kind is Kind.HORDE else "",
        "dice": "🟫" * adv.danger + "⬜" * adv.menace + "🟧" * adv.nuisance,
        "parts": parts,
        "deck": deck,
        "fatigue": "▣" * adv.fatigue_ticked + "▢" * (adv.fatigue_boxes - adv.fatigue_ticked),
        "exhausted": exhausted(adv),
        "endurance": capability_total(adv, Capability.ENDURANCE),
        "evasion": capability_total(adv, Capability.EVASION),
        "stability": capability_total(adv, Capability.STABILITY),
        "reactions": reactions,
        "traits": traits,
        "threat": t,
        "threat_value": fr_number(float(t.value), 1),
        "threat_now": fr_number(float(now.value), 1),
        "threat_reliability": fr_number(float(t.reliability), 3),
    }


def _capability(capability: Capability, value: int, label: str) -> str:
    if capability is Capability.ACTION:
        return f"Action : {label}"
    if capability is Capability.ACTION_COST:
        return f"{label} à coût réduit (+{value} ⚫ si ce bloc tombe)"
    if capability is Capability.ENDURANCE:
        return f"Endurance 🫁 {value}"
    if capability is Capability.EVASION:
        return f"Évasion 🍀 {value}"
    if capability is Capability.STABILITY:
        return f"Stabilité ◇ {value}"
    if capability is Capability.ARMOUR_OTHERS:
        return f"Armure +{value} aux autres parties"
    return label


@register.simple_tag(takes_context=True)
def quadrature_sheet(context: template.Context) -> SafeString:
    """The living sheet: what the creature still has (after the exchange when there is one)."""
    adv = sheet_of(context.get("resolution"), context.get("scenario"))
    if adv is None:
        return SafeString("")
    return SafeString(render_to_string("calculator/quadrature_sheet.html", sheet_context(adv)))


@register.simple_tag
def quadrature_power_table() -> SafeString:
    """The power table computed from the dice of the database: min, mean, max and the chart."""
    rows = [
        {
            "name": lv.name,
            "pc": lv.pc_equivalent,
            "dice": lv.dice_symbols,
            "min": st.minimum,
            "mean": fr_number(float(st.mean), 1),
            "max": st.maximum,
            "chart": _bars(st.distribution),
        }
        for lv, st in selectors.power_rows()
    ]
    return SafeString(render_to_string("calculator/quadrature_power.html", {"rows": rows}))
