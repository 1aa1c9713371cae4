"""Worked examples: one ready-to-post request per rule of the seed, with what it must give.

The seed states its rules without numbered worked examples (its only computed figures are the
power table, tested in ``tests/rulesets/quadrature/test_odds.py``). Each example below applies one
paragraph of the seed to the default sheet (or a small variant) with typed dice, so every rule has
a reproducible request; ``source`` cites the paragraph.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulesets.core.french import Article, Grammar, typography
from rulesets.core.results import Example
from rulesets.core.schema import to_data
from rulesets.quadrature.model import (
    FRAPPE_LOURDE,
    FRAPPE_VIVE,
    HARCELEMENT,
    MORSURE,
    Adversary,
    Block,
    Capability,
    Effect,
    GuardType,
    Kind,
    Mental,
    Mode,
    Part,
    Pc,
    PcSource,
    Scenario,
    Traits,
    rule,
)

# The examples' own sheet: a Compétent (🟫⬜⬜⬜) hunter with a Frappe lourde on its Corps. The page's
# default is the bestiary's Loup des cendres (issue 14, item 6); the examples keep the sheet they were
# computed on, under its own name, so that no two « Loup des cendres » disagree.
BASE = Adversary(
    name="Chacal des cendres",
    danger=1,
    menace=3,
    nuisance=0,
    guard=11,
    parts=(Part("Tête", armour=1), Part("Corps", armour=2), Part("Mâchoires", armour=1), Part("Pattes", armour=0)),
    blocks=(
        Block(3, capability=Capability.STABILITY, value=1, part=1),
        Block(4, capability=Capability.ENDURANCE, value=2, part=2),
        Block(4, capability=Capability.ACTION, label="Frappe lourde", part=2),
        Block(3, capability=Capability.ACTION, label="Morsure", part=3),
        Block(3, capability=Capability.ACTION, label="Harcèlement", part=4),
    ),
    fatigue_boxes=5,
    speed=6,
    traits=Traits(),
    deck=(HARCELEMENT, FRAPPE_VIVE, FRAPPE_LOURDE, replace(MORSURE, text="")),
)
PRUDENT = replace(BASE, mental=Mental.PRUDENT)


def _attack(adv: Adversary, card: int, garde: int, dice: list[int], **extra: Any) -> dict[str, Any]:
    pc = extra.pop("pc", Pc(score=garde))
    s = Scenario(mode=Mode.ADVERSARY_ATTACK, adversary=adv, card=card, pc=pc, **extra)
    return {"scenario": to_data(s), "dice": {f"adv.{i}": v for i, v in enumerate(dice, start=1)}}


def _hit(
    adv: Adversary, part: int, score: int, effect: Effect, dice: dict[str, int] | None = None, pc: Pc | None = None
) -> dict[str, Any]:
    s = Scenario(mode=Mode.PC_ATTACK, adversary=adv, target_part=part, pc=pc or Pc(score=score), pc_success=effect)
    return {"scenario": to_data(s), "dice": dice or {}}


def _round(adv: Adversary) -> dict[str, Any]:
    return {"scenario": to_data(Scenario(mode=Mode.ROUND, adversary=adv)), "dice": {}}


def _ex(key: str, title: str, section: str, request: dict[str, Any], outcome: str, **numbers: Any) -> Example:
    """An example; its title is shown on the page, in French spacing (issue 15)."""
    return Example(
        key=key,
        title=typography(title),
        source=rule(section),
        request=request,
        expected={"outcome": outcome, "numbers": numbers},
    )


EVASIVE = replace(PRUDENT, evasion_tokens=1)
CUIRASSE = replace(
    PRUDENT,
    parts=tuple(replace(p, natural_armour=True) if p.name == "Corps" else p for p in BASE.parts),
)
SCARABEE = replace(
    PRUDENT,
    name="Scarabée cuirassé",
    parts=(Part("Carapace", armour=3), Part("Pattes", armour=0)),
    blocks=(
        Block(4, capability=Capability.ARMOUR_OTHERS, value=1, part=1),
        Block(3, capability=Capability.OTHER, label="Course", part=2),
    ),
)
HORDE = Adversary(
    name="Rats des égouts",
    grammar=Grammar(article=Article.PLURAL),  # « les Rats des égouts »
    kind=Kind.HORDE,
    danger=0,
    menace=2,
    nuisance=2,
    guard_type=GuardType.ESQUIVE,
    guard=9,
    parts=(Part("Meute"),),
    blocks=(Block(3), Block(3), Block(3)),
    fatigue_boxes=0,
    tenacity=0,
    action_points=2,
    endurance_tokens=0,
    stability_tokens=0,
)
BLEEDING = replace(
    PRUDENT,
    bleeding=2,
    endurance_tokens=0,
    stability_tokens=0,
    blocks=tuple(replace(b, ticked={1: 2, 4: 1}.get(k, 0)) for k, b in enumerate(BASE.blocks)),
)


def examples() -> tuple[Example, ...]:
    return (
        # --- the adversary attacks ---
        _ex(
            "heavy_strike_star",
            "Frappe lourde réussie avec un 5 : 💔 et Sonné",
            "Quand l'adversaire attaque un personnage",
            _attack(PRUDENT, 3, 12, [5, 4, 3, 1]),
            "success",
            total=13,
            fives=1,
            success=True,
            star=True,
            pc_heavy=1,
            pc_stunned=True,
        ),
        _ex(
            "quick_strike_failure",
            "Frappe vive ratée : ❌ 💢",
            "Quand l'adversaire attaque un personnage",
            _attack(PRUDENT, 2, 14, [2, 0, 3, 4]),
            "failure",
            total=9,
            fives=0,
            success=False,
            star=False,
            pc_light=1,
        ),
        _ex(
            "harassment_star_on_failure",
            "Harcèlement raté mais ⭐ : 💧 + 💧",
            "Actions d'adversaires",
            _attack(PRUDENT, 1, 15, [5, 5, 1, 0]),
            "failure",
            total=11,
            fives=2,
            star=True,
            pc_fatigue=2,
            pc_light=0,
        ),
        _ex(
            "panicked_dice",
            "Paniqué ⬇⬇ : 🟫⬜⬜⬜ devient ⬜⬜⬜🟧",
            "États mentaux (4 états)",
            _attack(replace(BASE, mental=Mental.PANIQUE), 2, 10, [3, 3, 2, 3]),
            "success",
            steps=-2,
            total=11,
            pc_light=3,
        ),
        _ex(
            "five_dice_keep_four",
            "Au-delà d'Élite : cinq dés, on garde les quatre meilleurs",
            "Dés d'adversaires (0 à 5)",
            _attack(replace(PRUDENT, danger=4, menace=1), 4, 16, [5, 5, 2, 4, 0]),
            "success",
            total=16,
            fives=2,
            star=True,
            pc_light=3,
            pc_entangled=True,
        ),
        _ex(
            "exhausting_strike",
            "Frappe épuisante contre une cible sans Endurance",
            "Traits d'adversaires",
            _attack(
                replace(PRUDENT, traits=Traits(exhausting_strike=True)),
                1,
                8,
                [4, 3, 2, 1],
                pc=Pc(score=8, endurance_tokens=0),
            ),
            "success",
            total=10,
            pc_fatigue=2,
            pc_light=1,
            pc_fatigue_min_boxes=2,
        ),
        _ex(
            "bloodthirsty",
            "Sanguinaire : la cible saigne, 🟩 sur les dés",
            "Traits d'adversaires",
            _attack(
                replace(PRUDENT, traits=Traits(bloodthirsty=True)), 2, 5, [2, 2, 0, 0], pc=Pc(score=5, bleeding=True)
            ),
            "failure",
            steps=1,
            total=4,
            pc_light=1,
        ),
        _ex(
            "aggressive_against_disadvantage",
            "Agressif ⬆ et matchup 🟥 s'annulent",
            "Avantage et désavantage 🟩🟥",
            _attack(BASE, 2, 12, [4, 3, 5, 0], matchup=-1),
            "success",
            steps=0,
            total=12,
            fives=1,
            star=True,
            pc_light=3,
            pc_down=1,
        ),
        # --- a PC attacks ---
        _ex(
            "light_wounds_armour",
            "💢💢💢 sur le Corps (🛡️ 2) : une case",
            "Blessures légères 💢",
            _hit(BASE, 2, 12, Effect(light=3)),
            "hit",
            hit=True,
            garde=11,
            light_in=3,
            light_passed=1,
            boxes_ticked=1,
        ),
        _ex(
            "armour_minimum_one",
            "💢 contre 🛡️ 2 : au moins 1 passe toujours",
            "Blessures légères 💢",
            _hit(BASE, 2, 11, Effect(light=1)),
            "hit",
            light_passed=1,
            boxes_ticked=1,
        ),
        _ex(
            "attack_misses",
            "Score sous la Garde : l'attaque échoue",
            "Quand un personnage attaque l'adversaire",
            _hit(BASE, 2, 10, Effect(light=3)),
            "miss",
            hit=False,
            boxes_ticked=0,
        ),
        _ex(
            "prudent_guard",
            "Prudent : Garde +1",
            "États mentaux (4 états)",
            _hit(PRUDENT, 2, 11, Effect(light=3)),
            "miss",
            garde=12,
            hit=False,
        ),
        _ex(
            "enraged_guard",
            "Enragé : Garde −2",
            "États mentaux (4 états)",
            _hit(replace(BASE, mental=Mental.ENRAGE), 2, 9, Effect(light=3)),
            "hit",
            garde=9,
            hit=True,
        ),
        _ex(
            "heavy_cracks_plate",
            "💔 + 💢💢 sur les Mâchoires (🛡️ 1) : la plaque cède, les 💢 passent entières",
            "Blessures graves 💔",
            _hit(BASE, 3, 12, Effect(heavy=1, light=2)),
            "hit",
            armour_destroyed=1,
            light_passed=2,
            boxes_ticked=2,
        ),
        _ex(
            "heavy_destroys_block",
            "💔 sur les Pattes (sans armure) : le bloc du dessus est détruit",
            "Blessures graves 💔",
            _hit(BASE, 4, 12, Effect(heavy=1)),
            "hit",
            blocks_destroyed=1,
            boxes_ticked=0,
            armour_destroyed=0,
        ),
        _ex(
            "evasion_converts_heavy",
            "Évasion 🍀 : 💔 → 3 💢, réduites par l'armure",
            "Défenses : Armure et Évasion",
            _hit(EVASIVE, 2, 12, Effect(heavy=1)),
            "hit",
            evasion_spent=1,
            light_in=3,
            light_passed=1,
            armour_destroyed=0,
        ),
        _ex(
            "stunned_no_evasion",
            "Sonné 🫨 : l'Évasion est désactivée",
            "Défenses : Armure et Évasion",
            _hit(replace(EVASIVE, stunned=True), 2, 12, Effect(heavy=1)),
            "hit",
            evasion_spent=0,
            armour_destroyed=1,
        ),
        _ex(
            "natural_armour_ignores",
            "Cuirasse naturelle (2) : une attaque de moins de 2 💢 est ignorée",
            "Traits d'adversaires",
            _hit(CUIRASSE, 2, 12, Effect(light=1)),
            "hit",
            boxes_ticked=0,
            light_passed=0,
        ),
        _ex(
            "natural_armour_passes",
            "Cuirasse naturelle (2) : 2 💢 passent (minimum 1)",
            "Traits d'adversaires",
            _hit(CUIRASSE, 2, 12, Effect(light=2)),
            "hit",
            boxes_ticked=1,
            light_passed=1,
        ),
        _ex(
            "carapace_bonus",
            "Carapace : +1 d'armure aux autres parties contre les 💢",
            "Défenses : Armure et Évasion",
            _hit(SCARABEE, 2, 12, Effect(light=2)),
            "hit",
            light_passed=1,
            boxes_ticked=1,
        ),
        _ex(
            "carapace_not_heavy",
            "La carapace n'absorbe pas les 💔 des autres parties",
            "Défenses : Armure et Évasion",
            _hit(SCARABEE, 2, 12, Effect(heavy=1)),
            "hit",
            blocks_destroyed=1,
            armour_destroyed=0,
        ),
        _ex(
            "block_filled",
            "Bloc rempli : « Morsure » quitte le deck",
            "Blessures légères 💢",
            _hit(BASE, 3, 12, Effect(light=4)),
            "hit",
            boxes_ticked=3,
            blocks_destroyed=1,
        ),
        _ex(
            "fatigue_endurance",
            "💧💧 avec 2 jetons 🫁 : une case est cochée malgré le tampon",
            "Fatigue 💧 et Endurance 🫁",
            _hit(BASE, 2, 12, Effect(fatigue=2)),
            "hit",
            endurance_spent=1,
            fatigue_added=1,
            fatigue_ticked=1,
        ),
        _ex(
            "fatigue_no_endurance",
            "💧💧 sans Endurance : deux cases",
            "Fatigue 💧 et Endurance 🫁",
            _hit(replace(BASE, endurance_tokens=0), 2, 12, Effect(fatigue=2)),
            "hit",
            endurance_spent=0,
            fatigue_ticked=2,
        ),
        _ex(
            "exhaustion",
            "Dernière case de fatigue : Épuisé, hors de combat",
            "Fatigue 💧 et Endurance 🫁",
            _hit(replace(BASE, fatigue_ticked=4, endurance_tokens=0), 2, 12, Effect(fatigue=1)),
            "exhausted",
            exhausted=True,
            fatigue_ticked=5,
        ),
        _ex(
            "stability_then_track",
            "🔺🔺 : un ◇ absorbe, puis Agressif → Enragé",
            "États mentaux (4 états)",
            _hit(BASE, 2, 12, Effect(up=2)),
            "hit",
            stability_spent=1,
            mental_after="enrage",
        ),
        _ex(
            "bleeding_token",
            "Une hémorragie posée saignera en fin de manche",
            "Hémorragie 🩸",
            _hit(BASE, 2, 12, Effect(light=3, bleed=1)),
            "hit",
            bleeding=1,
            boxes_ticked=1,
        ),
        _ex(
            "rolled_attack_defaut",
            "Attaque lancée : 🟦 5 + 🟨 4 + 🟪 0 + aléa 🟩 4 = 13, Défaut ⚠️",
            "Quand un personnage attaque l'adversaire",
            _hit(
                BASE,
                2,
                0,
                Effect(light=3),
                dice={"pc.car.1": 3, "pc.car.2": 5, "pc.skill.1": 4, "pc.skill.2": 0, "pc.alea": 2, "pc.edge.1": 4},
                pc=Pc(source=PcSource.ROLLED, characteristic=2, skill=1, advantage=1),
            ),
            "hit",
            score=13,
            pc_defaut=True,
            pc_critique=False,
        ),
        # --- hordes ---
        _ex(
            "horde_light",
            "Horde : tout dégât est réduit à 1 💢 (Enragée : Garde −1)",
            "Hordes",
            _hit(HORDE, 1, 8, Effect(light=3)),
            "hit",
            garde=8,
            members_before=9,
            members_after=8,
        ),
        _ex(
            "horde_heavy",
            "Horde : 💔 → 💢 + 🔻, sans ◇ le 🔻 coûte un membre de plus",
            "Hordes",
            _hit(HORDE, 1, 8, Effect(heavy=1)),
            "hit",
            members_after=7,
        ),
        _ex(
            "horde_fatigue",
            "Horde : la fatigue devient une blessure",
            "Hordes",
            _hit(HORDE, 1, 8, Effect(fatigue=2)),
            "hit",
            members_after=8,
        ),
        _ex(
            "horde_attack",
            "Horde enragée : ⬆ sur ses dés, et un ◇ gagné en blessant",
            "Hordes",
            _attack(HORDE, 2, 8, [3, 3, 2, 1]),
            "success",
            steps=1,
            total=9,
            pc_light=3,
            stability_tokens=1,
        ),
        _ex(
            "hive_mind",
            "Esprit de ruche : la réserve commune ◇ absorbe avant la piste",
            "Traits d'adversaires",
            _hit(replace(BASE, traits=Traits(hive_mind=True), allied_stability=1), 2, 12, Effect(down=3)),
            "hit",
            stability_spent=2,
            mental_after="prudent",
        ),
        # --- the living sheet ---
        _ex(
            "round_bleeding",
            "Fin de manche : 🩸 × 2 sur le bloc le plus entamé, puis régénération",
            "Hémorragie 🩸",
            _round(BLEEDING),
            "round",
            bleed_ticked=2,
            blocks_destroyed=1,
            bleeding=1,
            endurance_tokens=0,
            stability_tokens=1,
        ),
        _ex(
            "round_regeneration",
            "Début de manche : 🫁 et ◇ des blocs intacts",
            "Santé ♥️ et parties du corps",
            _round(replace(BASE, endurance_tokens=0, stability_tokens=0)),
            "round",
            endurance_tokens=2,
            stability_tokens=1,
            cards_available=4,
        ),
        _ex(
            "hypnotic_gaze",
            "Regard hypnotique : la cible vide sa Stabilité et est Entravée",
            "Traits d'adversaires",
            {
                "scenario": to_data(
                    Scenario(
                        mode=Mode.HYPNOTIC_GAZE,
                        adversary=replace(BASE, traits=Traits(hypnotic_gaze=True)),
                        pc=Pc(stability_tokens=2),
                    )
                ),
                "dice": {},
            },
            "entangled",
            pc_stability_spent=2,
            pc_entangled=True,
        ),
    )
