"""The dice of an exchange: the adversary's four (or more) dice after the crans, and the PC's pool.

Both are built from the faces carried by the scenario (:class:`DiceFaces`, :class:`PlayerFaces`),
so the engine never holds a face table.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.core.dice import DiceSlot, Die
from rulesets.core.french import typography
from rulesets.core.i18n import _
from rulesets.quadrature.model import (
    Adversary,
    Card,
    DiceFaces,
    Kind,
    Pc,
    PlayerFaces,
    Rung,
    Scenario,
    Settings,
)
from rulesets.quadrature.names import pc_who
from rulesets.quadrature.sheet import HORDE_ATTACK, MENTAL_STEPS, base_rungs, horde_mood, shift_rungs

KEEP = 4  # « Au-delà, ajouter un dé et garder les quatre meilleurs. »


def rung_die(rung: Rung, faces: DiceFaces) -> Die:
    return Die(name=rung.label, faces=faces.of(rung))


@dataclass(frozen=True, slots=True)
class Step:
    """One source of crans on the adversary's dice (⬆ positive, ⬇ negative)."""

    label: str
    steps: int
    rule: str


def adversary_steps(adv: Adversary, card: Card | None, matchup: int, pc: Pc, settings: Settings) -> list[Step]:
    """Every source of ⬆/⬇ on the adversary's dice, in the order the sheet reads them."""
    from rulesets.quadrature.model import rule

    out: list[Step] = []
    if adv.kind is Kind.HORDE:
        mood = horde_mood(adv)
        if settings.horde_mood_steps and HORDE_ATTACK[mood]:
            out.append(
                Step(
                    _("Horde {mood}").format(mood=mood.label),
                    HORDE_ATTACK[mood],
                    rule("Hordes — États mentaux simplifiés"),
                )
            )
    elif MENTAL_STEPS[adv.mental]:
        out.append(Step(adv.mental.label, MENTAL_STEPS[adv.mental], rule("États mentaux (4 états)")))
    if matchup:
        out.append(
            Step(_("Matchup 🟩") if matchup > 0 else _("Matchup 🟥"), matchup, rule("Avantage et désavantage 🟩🟥"))
        )
    if (
        card is not None
        and adv.traits.bloodthirsty
        and pc.bleeding
        and (card.success.physical or card.failure.physical or card.star.physical)
    ):
        out.append(Step(_("Sanguinaire : la cible saigne 🟩"), 1, rule("Traits offensifs — Sanguinaire")))
    return out


def adversary_rungs(adv: Adversary, steps: int) -> list[Rung]:
    return shift_rungs(base_rungs(adv), steps)


def adversary_slots(rungs: list[Rung], faces: DiceFaces) -> tuple[DiceSlot, ...]:
    return tuple(
        DiceSlot(
            key=f"adv.{i}", die=rung_die(r, faces), label=_("Dé d'adversaire n°{i} ({die})").format(i=i, die=r.label)
        )
        for i, r in enumerate(rungs, start=1)
    )


# --- the player's pool (rules/quadrature.md § Players' side) --------------------------------


@dataclass(frozen=True, slots=True)
class PcPool:
    characteristic: tuple[Die, ...]
    skill: tuple[Die, ...]
    alea: Die
    edge: tuple[Die, ...]
    advantage: int  # > 0: keep the highest of aléa + edge; < 0: the lowest


def pc_pool(pc: Pc, faces: PlayerFaces) -> PcPool:
    blue = Die(name="🟦", faces=faces.blue)
    weak = Die(name="🟪", faces=faces.weak)
    yellow = Die(name="🟨", faces=faces.yellow)
    upgraded = Die(name="🟫", faces=faces.upgraded)
    characteristic = (blue,) * pc.characteristic if pc.characteristic else (weak,)
    ups = min(pc.skill_upgrades, pc.skill)
    skill = (upgraded,) * ups + (yellow,) * (pc.skill - ups) + (weak,) * max(0, 2 - pc.skill)
    edge_die = Die(name="🟩", faces=faces.advantage) if pc.advantage > 0 else Die(name="🟥", faces=faces.disadvantage)
    return PcPool(
        characteristic, skill, Die(name="⬜", faces=faces.alea), (edge_die,) * abs(pc.advantage), pc.advantage
    )


def pc_slots(pc: Pc, faces: PlayerFaces) -> tuple[DiceSlot, ...]:
    """The character's dice, each labelled with its name (« Le personnage : aléa ⬜ »), in French
    spacing: a dice label is shown as it is (issue 15)."""
    pool = pc_pool(pc, faces)
    who = pc_who(pc.name, pc.grammar).Subject

    def slot(key: str, die: Die, label: str) -> DiceSlot:
        return DiceSlot(key=key, die=die, label=typography(label))

    slots = [
        slot(f"pc.car.{i}", d, _("{who} : caractéristique {die} n°{i}").format(who=who, die=d.name, i=i))
        for i, d in enumerate(pool.characteristic, start=1)
    ]
    slots += [
        slot(f"pc.skill.{i}", d, _("{who} : compétence {die} n°{i}").format(who=who, die=d.name, i=i))
        for i, d in enumerate(pool.skill, start=1)
    ]
    slots.append(slot("pc.alea", pool.alea, _("{who} : aléa ⬜").format(who=who)))
    slots += [
        slot(f"pc.edge.{i}", d, _("{who} : {die} n°{i}").format(who=who, die=d.name, i=i))
        for i, d in enumerate(pool.edge, start=1)
    ]
    return tuple(slots)


@dataclass(frozen=True, slots=True)
class PcScore:
    score: int
    best_characteristic: int
    skill_kept: tuple[int, int]
    alea: int
    defaut: bool
    critique: bool


def pc_score(
    characteristic: tuple[int, ...], skill: tuple[int, ...], alea: tuple[int, ...], advantage: int, faces: PlayerFaces
) -> PcScore:
    """Best 🟦 + two best skill dice + the aléa (highest with 🟩, lowest with 🟥)."""
    best = max(characteristic)
    kept = sorted(skill, reverse=True)[:2]
    a = max(alea) if advantage > 0 else min(alea)
    pair = (kept[0], kept[1])
    return PcScore(
        score=best + sum(kept) + a,
        best_characteristic=best,
        skill_kept=pair,
        alea=a,
        defaut=faces.defaut_face in pair,
        critique=faces.critique_face in pair,
    )


def scenario_card(s: Scenario) -> Card | None:
    """The card played (Réflexes de prédateur: the Frappe vive), or None when out of the deck."""
    return s.played_card()
