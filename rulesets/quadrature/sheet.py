"""Reading a living sheet: what the creature still has, its dice, and its threat level 💀.

« On lit toujours ce que la créature possède encore, jamais ce qu'elle a perdu » (§ Santé ♥️ et
parties du corps): every function here derives the creature's current capabilities from its
intact blocks.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rulesets.core.french import count, quote, typography
from rulesets.quadrature.model import (
    RUNGS,
    Adversary,
    Capability,
    Card,
    Effect,
    HordeMood,
    Kind,
    Mental,
    MoodDirection,
    Rung,
)


def part_blocks(adv: Adversary, part: int) -> list[int]:
    """Indices (in ``adv.blocks``) of the blocks of part ``part`` (0-based), top to bottom."""
    return [k for k, b in enumerate(adv.blocks) if b.part == part + 1]


def part_destroyed(adv: Adversary, part: int) -> bool:
    return all(not adv.blocks[k].intact for k in part_blocks(adv, part))


def block_number(adv: Adversary, k: int) -> int:
    """The block's rank within its part (1 = top)."""
    return part_blocks(adv, adv.blocks[k].part - 1).index(k) + 1


def capability_total(adv: Adversary, capability: Capability) -> int:
    """Sum of the values that intact blocks grant for ``capability``."""
    return sum(b.value for b in adv.blocks if b.intact and b.capability is capability)


def capability_design(adv: Adversary, capability: Capability) -> int:
    """The same sum over every block of the printed sheet (intact or not)."""
    return sum(b.value for b in adv.blocks if b.capability is capability)


def card_available(adv: Adversary, card: Card) -> bool:
    """A card granted by blocks stays in the deck while at least one of them is intact."""
    granting = [b for b in adv.blocks if b.capability is Capability.ACTION and b.label == card.name]
    return not granting or any(b.intact for b in granting)


def card_cost(adv: Adversary, card: Card) -> int:
    """The card's ⚫ cost, raised by each destroyed block that kept it cheap."""
    extra = sum(
        b.value for b in adv.blocks if b.capability is Capability.ACTION_COST and b.label == card.name and not b.intact
    )
    return card.cost + extra


def armour_bonus(adv: Adversary, part_index: int) -> int:
    """Armour that intact carapace blocks of the *other* parts grant against 💢 (never against 💔)."""
    return sum(
        b.value
        for b in adv.blocks
        if b.part != part_index + 1 and b.intact and b.capability is Capability.ARMOUR_OTHERS
    )


def members(adv: Adversary) -> int:
    """A horde's members still standing (one per unticked box)."""
    return sum(b.left for b in adv.blocks)


def horde_tokens(adv: Adversary) -> int:
    """A horde's tokens 🕷️ still on the field (one per group with a member left)."""
    return sum(1 for b in adv.blocks if b.intact)


def horde_mood(adv: Adversary, count: int | None = None) -> HordeMood:
    """The horde's state by member count (« Hordes § États mentaux simplifiés »)."""
    n = members(adv) if count is None else count
    start, end = (
        (HordeMood.ENRAGE, HordeMood.PANIQUE)
        if adv.horde.direction is MoodDirection.RAGE_TO_PANIC
        else (HordeMood.PANIQUE, HordeMood.ENRAGE)
    )
    if n >= adv.horde.high_members:
        return start
    if n <= adv.horde.low_members:
        return end
    return HordeMood.NEUTRE


def exhausted(adv: Adversary) -> bool:
    return adv.kind is Kind.CREATURE and adv.fatigue_boxes > 0 and adv.fatigue_ticked >= adv.fatigue_boxes


def destroyed(adv: Adversary) -> bool:
    return all(not b.intact for b in adv.blocks)


# --- dice -----------------------------------------------------------------------------------


def base_rungs(adv: Adversary) -> list[Rung]:
    """The printed dice, highest rung first."""
    return [Rung.DANGER] * adv.danger + [Rung.MENACE] * adv.menace + [Rung.NUISANCE] * adv.nuisance


def shift_rungs(rungs: list[Rung], steps: int) -> list[Rung]:
    """Apply ``steps`` net crans: up turns the lowest-ranked die up, down the highest down."""
    out = sorted(rungs, key=lambda r: -r.rank)
    for _ in range(abs(steps)):
        if steps > 0:
            i = min(range(len(out)), key=lambda k: (out[k].rank, -k))
            if out[i].rank < len(RUNGS) - 1:
                out[i] = RUNGS[out[i].rank + 1]
        else:
            i = max(range(len(out)), key=lambda k: (out[k].rank, -k))
            if out[i].rank > 0:
                out[i] = RUNGS[out[i].rank - 1]
        out.sort(key=lambda r: -r.rank)
    return out


MENTAL_STEPS: dict[Mental, int] = {Mental.ENRAGE: 1, Mental.AGRESSIF: 1, Mental.PRUDENT: 0, Mental.PANIQUE: -2}
MENTAL_GUARD: dict[Mental, int] = {Mental.ENRAGE: -2, Mental.AGRESSIF: 0, Mental.PRUDENT: 1, Mental.PANIQUE: 1}
HORDE_ATTACK: dict[HordeMood, int] = {HordeMood.ENRAGE: 1, HordeMood.NEUTRE: 0, HordeMood.PANIQUE: -1}
HORDE_GUARD: dict[HordeMood, int] = {HordeMood.ENRAGE: -1, HordeMood.NEUTRE: 0, HordeMood.PANIQUE: 1}


def guard_modifier(adv: Adversary) -> int:
    """The Garde modifier of the creature's mental state (or the horde's mood)."""
    if adv.kind is Kind.HORDE:
        return HORDE_GUARD[horde_mood(adv)]
    return MENTAL_GUARD[adv.mental]


# --- threat level 💀 -----------------------------------------------------------------------


def effect_lethality(effect: Effect) -> int:
    """Létalité of an effect: 💧 5, 💢 5, 💔 10, 🔺/🔻 5 each."""
    return 5 * effect.fatigue + 5 * effect.light + 10 * effect.heavy + 5 * (effect.up + effect.down)


@dataclass(frozen=True, slots=True)
class Threat:
    """The 💀 threat level and each of its terms (``rules/quadrature.md`` § Threat level)."""

    blocks: int
    boxes: int
    fatigue: int
    endurance: int
    evasion: int
    armour: int
    tenacity: int
    actions: int
    best_card: str
    best_effect: int
    danger: int
    nuisance: int

    @property
    def survival(self) -> int:
        return (
            5 * self.blocks
            + self.boxes
            + 2 * self.fatigue
            + 2 * self.endurance
            + 2 * self.evasion
            + 3 * self.armour
            + 2 * self.tenacity
        )

    @property
    def lethality(self) -> int:
        return 5 * self.actions + self.best_effect

    @property
    def reliability(self) -> Fraction:
        return Fraction(6, 5) ** self.danger

    @property
    def value(self) -> Fraction:
        return self.survival * self.lethality * self.reliability + 2 * self.nuisance

    def terms(self) -> list[tuple[str, str, int]]:
        """(code, French label, points) of each term, for the sheet: counts agreed, French
        spacing (issue 15)."""
        terms = [
            ("blocks", f"♥️ Blocs de partie : {self.blocks} × 5", 5 * self.blocks),
            ("boxes", f"💢 Attrition : {count(self.boxes, 'case')} × 1", self.boxes),
            ("fatigue", f"💧 Fatigue : {count(self.fatigue, 'case')} × 2", 2 * self.fatigue),
            ("endurance", f"🫁 Endurance : {self.endurance} × 2", 2 * self.endurance),
            ("evasion", f"🍀 Évasion : {self.evasion} × 2", 2 * self.evasion),
            ("armour", f"🛡️ Armure : {self.armour} × 3", 3 * self.armour),
            ("tenacity", f"🧠 Ténacité : {count(self.tenacity, 'case')} × 2", 2 * self.tenacity),
            ("actions", f"⚫ Actions : {self.actions} × 5", 5 * self.actions),
            (
                "best_effect",
                f"Meilleur effet ✅ ({quote(self.best_card) if self.best_card else '—'})",
                self.best_effect,
            ),
        ]
        return [(code, typography(label), points) for code, label, points in terms]


def threat(adv: Adversary, *, current: bool = False) -> Threat:
    """💀 of the printed sheet (``current=False``) or of what the creature still has."""
    return _threat(adv, current)


@lru_cache(maxsize=128)
def _threat(adv: Adversary, current: bool) -> Threat:
    blocks = [b for b in adv.blocks if b.intact or not current]
    cards = [c for c in adv.deck if c.attack and (not current or card_available(adv, c))]
    best = max(cards, key=lambda c: effect_lethality(c.success), default=None)
    cap = capability_total if current else capability_design
    return Threat(
        blocks=len(blocks),
        boxes=sum(b.left if current else b.boxes for b in blocks),
        fatigue=0 if adv.kind is Kind.HORDE else adv.fatigue_boxes - (adv.fatigue_ticked if current else 0),
        endurance=cap(adv, Capability.ENDURANCE),
        evasion=cap(adv, Capability.EVASION),
        armour=sum(
            p.armour_left if current else p.armour
            for i, p in enumerate(adv.parts)
            if not (current and part_destroyed(adv, i))
        ),
        tenacity=adv.tenacity,
        actions=adv.action_points,
        best_card=best.name if best else "",
        best_effect=effect_lethality(best.success) if best else 0,
        danger=adv.danger,
        nuisance=adv.nuisance,
    )
