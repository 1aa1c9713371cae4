"""Quadrature adversaries: the scenario of one exchange, and the living sheet it acts on.

Everything the seed (« 🐉 Adversaires », ``000_415b80e59de2a9f9.txt``) lets a game master vary is
a typed field here: the creature's dice, Garde, body parts with their armour and blocks of boxes,
the capability each block grants, fatigue, Ténacité, action points, traits and deck, plus its
current state (boxes ticked, tokens left, mental state, bleeding). Dice faces come in as data
(:class:`DiceFaces`, defaults = the seed's faces); the engine holds no table.

Blocks are one flat list on the sheet, each naming its part (``Block.part``, from 1) and read in
sheet order: the form, the ORM and the API all handle one level of lists. A horde uses the same
sheet with ``kind = horde``: its blocks are its groups (one token 🕷️ per block, one member per box);
see ``docs/rules/quadrature.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated

from rulesets.core.french import DEFINITE_M, Grammar, Noun, count
from rulesets.core.i18n import _
from rulesets.core.schema import Choice, Spec
from rulesets.quadrature.names import adversary_who

SEED = "Adversaires"


def rule(section: str) -> str:
    """A citation of the seed's section, e.g. ``rule("Blessures graves 💔")``."""
    return f"{SEED} § {section}"


class Mode(Choice):
    ADVERSARY_ATTACK = "adversary_attack"
    PC_ATTACK = "pc_attack"
    ROUND = "round"
    HYPNOTIC_GAZE = "hypnotic_gaze"
    COURSE = "course"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "adversary_attack": _("L'adversaire attaque un personnage"),
            "pc_attack": _("Un personnage attaque l'adversaire"),
            "round": _("Fin de manche puis début de la suivante"),
            "hypnotic_gaze": _("Regard hypnotique"),
            "course": _("Course 🏃 (⚫ + ▢💧)"),
        }


class Play(Choice):
    """How the adversary pays the card it plays (« Actions ⚫ et réactions ⚡ »)."""

    ACTION = "action"
    REACTION = "reaction"
    PREDATOR = "predator"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "action": _("Action : la carte coûte ses ⚫"),
            "reaction": _("Réaction ⚡ : la carte coûte une réaction au lieu de ses ⚫"),
            "predator": _("Réflexes de prédateur : Frappe vive ⚡ sur une cible qui quitte l'Engagement serré (≬)"),
        }


class CuirasseReading(Choice):
    """How « Cuirasse naturelle (X) » reads « elle est totalement ignorée » (docs/rules/quadrature.md)."""

    WHOLE_ATTACK = "whole_attack"
    LIGHT_ONLY = "light_only"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "whole_attack": _("L'attaque entière est ignorée (X imprimé ; une 💔 n'est jamais ignorée)"),
            "light_only": _("Seules ses 💢 sont ignorées (X = armure restante ; 💧, 🩸, 🔺🔻 passent)"),
        }


class Kind(Choice):
    CREATURE = "creature"
    HORDE = "horde"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"creature": _("Adversaire"), "horde": _("Horde 🕷️")}


class Rung(Choice):
    """A die's quality, from the lowest rung to the highest."""

    NUISANCE = "nuisance"
    MENACE = "menace"
    DANGER = "danger"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"nuisance": _("Nuisance 🟧"), "menace": _("Menace ⬜"), "danger": _("Danger 🟫")}

    @property
    def rank(self) -> int:
        return RUNGS.index(self)


RUNGS: tuple[Rung, ...] = (Rung.NUISANCE, Rung.MENACE, Rung.DANGER)


class GuardType(Choice):
    ESQUIVE = "esquive"
    PARADE = "parade"
    BLOCAGE = "blocage"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"esquive": _("Esquive"), "parade": _("Parade"), "blocage": _("Blocage")}


class Mental(Choice):
    """The creature's 4-state mental track, from anger to fear (no neutral centre)."""

    ENRAGE = "enrage"
    AGRESSIF = "agressif"
    PRUDENT = "prudent"
    PANIQUE = "panique"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "enrage": _("😡 Enragé"),
            "agressif": _("😠 Agressif"),
            "prudent": _("😟 Prudent"),
            "panique": _("😱 Paniqué"),
        }


# The track from fear (index 0) to anger (index 3): 🔺 moves right, 🔻 moves left.
TRACK: tuple[Mental, ...] = (Mental.PANIQUE, Mental.PRUDENT, Mental.AGRESSIF, Mental.ENRAGE)


class HordeMood(Choice):
    ENRAGE = "enrage"
    NEUTRE = "neutre"
    PANIQUE = "panique"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"enrage": _("😠 Enragé"), "neutre": _("😐 Neutre"), "panique": _("😬 Paniqué")}


class MoodDirection(Choice):
    RAGE_TO_PANIC = "rage_to_panic"
    PANIC_TO_RAGE = "panic_to_rage"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "rage_to_panic": _("Débute enragée, tend vers paniquée"),
            "panic_to_rage": _("Débute paniquée, tend vers enragée"),
        }


class Capability(Choice):
    """What an intact block gives the creature."""

    ACTION = "action"
    ACTION_COST = "action_cost"
    ENDURANCE = "endurance"
    EVASION = "evasion"
    STABILITY = "stability"
    ARMOUR_OTHERS = "armour_others"
    OTHER = "other"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "action": _("Action du deck (perdue si le bloc est détruit)"),
            "action_cost": _("Action bon marché (son coût ⚫ augmente si le bloc est détruit)"),
            "endurance": _("Endurance 🫁"),
            "evasion": _("Évasion 🍀"),
            "stability": _("Stabilité ◇"),
            "armour_others": _("Armure aux autres parties 🛡️ (carapace)"),
            "other": _("Autre capacité"),
        }


class PcSource(Choice):
    TYPED = "typed"
    ROLLED = "rolled"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"typed": _("Score saisi"), "rolled": _("Score lancé (dés du personnage)")}


Count = Annotated[int, Spec(label=_("Nombre"), ge=0, le=20)]


@dataclass(frozen=True, slots=True)
class Effect:
    """An effect line of a card: 💧 💢 💔 🔺 🔻 🩸 and the states Sonné 🫨 / Entravé 🕸️."""

    fatigue: Annotated[int, Spec(label=_("Fatigue 💧"), ge=0, le=20)] = 0
    light: Annotated[int, Spec(label=_("Blessures légères 💢"), ge=0, le=20)] = 0
    heavy: Annotated[int, Spec(label=_("Blessures graves 💔"), ge=0, le=10)] = 0
    up: Annotated[int, Spec(label=_("Vers la colère 🔺"), ge=0, le=10)] = 0
    down: Annotated[int, Spec(label=_("Vers la peur 🔻"), ge=0, le=10)] = 0
    bleed: Annotated[int, Spec(label=_("Hémorragie 🩸"), ge=0, le=10)] = 0
    stunned: Annotated[bool, Spec(label=_("Sonné 🫨"))] = False
    entangled: Annotated[bool, Spec(label=_("Entravé 🕸️"))] = False

    @property
    def physical(self) -> bool:
        """Does the effect deal physical damage (💢 or 💔)?"""
        return self.light > 0 or self.heavy > 0

    @property
    def empty(self) -> bool:
        return not (
            self.fatigue
            or self.light
            or self.heavy
            or self.up
            or self.down
            or self.bleed
            or self.stunned
            or self.entangled
        )


NO_EFFECT = Effect()


@dataclass(frozen=True, slots=True)
class Card:
    """An adversary action card: cost ⚫, initiative, fatigue cost, ⭐ Repérez X 5 / ✅ / ❌ (no ⚠️)."""

    name: Annotated[str, Spec(label=_("Nom de l'action"), max_length=80, help=_("Vide\u202f: ligne ignorée."))]
    cost: Annotated[int, Spec(label=_("Coût ⚫"), ge=0, le=5)] = 1
    initiative: Annotated[int, Spec(label=_("Initiative"), ge=0, le=10)] = 3
    fatigue_cost: Annotated[int, Spec(label=_("Coût de fatigue 💧"), ge=0, le=10)] = 0
    attack: Annotated[
        bool, Spec(label=_("Jet contre la Garde"), help=_("Décocher pour une action sans jet (déplacement)."))
    ] = True
    star_fives: Annotated[int, Spec(label=_("⭐ Repérez X 5\u202f: X"), ge=1, le=4)] = 1
    star: Annotated[Effect, Spec(label=_("Effet ⭐ Repérez X 5"))] = NO_EFFECT
    success: Annotated[Effect, Spec(label=_("Effet ✅ Réussite"))] = NO_EFFECT
    failure: Annotated[Effect, Spec(label=_("Effet ❌ Échec"))] = NO_EFFECT
    text: Annotated[str, Spec(label=_("Texte de la carte"), max_length=300)] = ""


@dataclass(frozen=True, slots=True)
class Block:
    """A block of boxes ▢ of a body part (a horde: a group of members, one token 🕷️)."""

    boxes: Annotated[int, Spec(label=_("Cases ▢"), ge=0, le=20, help=_("0\u202f: ligne vide, ignorée."))] = 3
    ticked: Annotated[int, Spec(label=_("Cases cochées"), ge=0, le=20)] = 0
    capability: Annotated[Capability, Spec(label=_("Capacité conférée"))] = Capability.OTHER
    value: Annotated[int, Spec(label=_("Valeur de la capacité"), ge=0, le=10)] = 0
    label: Annotated[str, Spec(label=_("Libellé (nom de l'action)"), max_length=80)] = ""
    part: Annotated[int, Spec(label=_("Partie du corps (n°)"), ge=1, le=8)] = 1

    @property
    def intact(self) -> bool:
        return self.ticked < self.boxes

    @property
    def left(self) -> int:
        return self.boxes - self.ticked


@dataclass(frozen=True, slots=True)
class Part:
    """A named body part and its Armure 🛡️ X (X boxes); its blocks name it by number."""

    name: Annotated[str, Spec(label=_("Partie du corps"), max_length=60)] = "Corps"
    armour: Annotated[int, Spec(label=_("Armure 🛡️"), ge=0, le=10)] = 0
    armour_lost: Annotated[int, Spec(label=_("Cases d'armure détruites"), ge=0, le=10)] = 0
    natural_armour: Annotated[bool, Spec(label=_("Cuirasse naturelle"))] = False

    @property
    def armour_left(self) -> int:
        return self.armour - self.armour_lost


@dataclass(frozen=True, slots=True)
class Traits:
    predator_reflexes: Annotated[bool, Spec(label=_("Réflexes de prédateur"))] = False
    bloodthirsty: Annotated[bool, Spec(label=_("Sanguinaire"))] = False
    exhausting_strike: Annotated[bool, Spec(label=_("Frappe épuisante"))] = False
    terror_aura: Annotated[bool, Spec(label=_("Aura de terreur"))] = False
    hive_mind: Annotated[bool, Spec(label=_("Esprit de ruche"))] = False
    hypnotic_gaze: Annotated[bool, Spec(label=_("Regard hypnotique"))] = False


@dataclass(frozen=True, slots=True)
class HordeRules:
    """A horde's conditional Stabilité and its mood by member count."""

    direction: Annotated[MoodDirection, Spec(label=_("Évolution de l'état"))] = MoodDirection.RAGE_TO_PANIC
    high_members: Annotated[int, Spec(label=_("Membres pour l'état de départ (au moins)"), ge=0, le=99)] = 7
    low_members: Annotated[int, Spec(label=_("Membres pour l'état final (au plus)"), ge=0, le=99)] = 3
    stability_on_wound_dealt: Annotated[int, Spec(label=_("◇ gagnés en infligeant une blessure"), ge=0, le=5)] = 1
    stability_on_wound_taken: Annotated[int, Spec(label=_("◇ gagnés en subissant une blessure"), ge=0, le=5)] = 0


@dataclass(frozen=True, slots=True)
class DiceFaces:
    """The faces of the three adversary dice (data; defaults = the seed's)."""

    nuisance: Annotated[
        tuple[int, ...], Spec(label=_("Faces du dé de Nuisance 🟧"), ge=0, le=9, min_items=2, max_items=12)
    ] = (0, 1, 1, 2, 2, 3)
    menace: Annotated[
        tuple[int, ...], Spec(label=_("Faces du dé de Menace ⬜"), ge=0, le=9, min_items=2, max_items=12)
    ] = (0, 1, 2, 3, 4, 5)
    danger: Annotated[
        tuple[int, ...], Spec(label=_("Faces du dé de Danger 🟫"), ge=0, le=9, min_items=2, max_items=12)
    ] = (2, 3, 3, 4, 4, 5)
    star_face: Annotated[int, Spec(label=_("Face comptée par ⭐ Repérez"), ge=0, le=9)] = 5

    def of(self, rung: Rung) -> tuple[int, ...]:
        return {Rung.NUISANCE: self.nuisance, Rung.MENACE: self.menace, Rung.DANGER: self.danger}[rung]


@dataclass(frozen=True, slots=True)
class PlayerFaces:
    """The player dice of the Quadrature core rules (data; defaults from ``rules/quadrature.md``)."""

    blue: Annotated[tuple[int, ...], Spec(label=_("Faces 🟦"), ge=0, le=9, min_items=2, max_items=12)] = (
        0,
        1,
        2,
        3,
        4,
        5,
    )
    yellow: Annotated[tuple[int, ...], Spec(label=_("Faces 🟨"), ge=0, le=9, min_items=2, max_items=12)] = (
        0,
        1,
        2,
        3,
        4,
        5,
    )
    alea: Annotated[tuple[int, ...], Spec(label=_("Faces ⬜ (aléa)"), ge=0, le=9, min_items=2, max_items=12)] = (
        0,
        1,
        2,
        3,
        4,
        5,
    )
    advantage: Annotated[tuple[int, ...], Spec(label=_("Faces 🟩"), ge=0, le=9, min_items=2, max_items=12)] = (
        0,
        1,
        2,
        3,
        4,
        5,
    )
    disadvantage: Annotated[tuple[int, ...], Spec(label=_("Faces 🟥"), ge=0, le=9, min_items=2, max_items=12)] = (
        0,
        1,
        2,
        3,
        4,
        5,
    )
    upgraded: Annotated[
        tuple[int, ...], Spec(label=_("Faces 🟫 (compétence ⬆)"), ge=0, le=9, min_items=2, max_items=12)
    ] = (1, 2, 3, 4, 5, 5)
    weak: Annotated[tuple[int, ...], Spec(label=_("Faces 🟪 (faible)"), ge=0, le=9, min_items=2, max_items=12)] = (
        0,
        0,
        1,
        2,
        3,
        4,
    )
    defaut_face: Annotated[int, Spec(label=_("Face de Défaut ⚠️"), ge=0, le=9)] = 0
    critique_face: Annotated[int, Spec(label=_("Face de Critique"), ge=0, le=9)] = 5


@dataclass(frozen=True, slots=True)
class Pc:
    """The player character: its roll (Garde or attack, typed or rolled) and what the traits read."""

    name: Annotated[str, Spec(label=_("Nom du personnage"), max_length=60)] = "Le personnage"
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = field(default_factory=Grammar)
    source: Annotated[PcSource, Spec(label=_("Score du personnage"))] = PcSource.TYPED
    score: Annotated[int, Spec(label=_("Score saisi (Garde ou attaque)"), ge=0, le=40)] = 10
    characteristic: Annotated[int, Spec(label=_("Caractéristique (🟦)"), ge=0, le=6)] = 2
    skill: Annotated[int, Spec(label=_("Compétence (🟨)"), ge=0, le=6)] = 2
    skill_upgrades: Annotated[int, Spec(label=_("Dés de compétence améliorés ⬆ (🟫)"), ge=0, le=6)] = 0
    advantage: Annotated[int, Spec(label=_("Avantage 🟩 (+) / désavantage 🟥 (−)"), ge=-3, le=3)] = 0
    bleeding: Annotated[bool, Spec(label=_("Le personnage saigne 🩸"))] = False
    endurance_tokens: Annotated[int, Spec(label=_("Jetons d'Endurance 🫁 du personnage"), ge=0, le=20)] = 1
    stability_tokens: Annotated[int, Spec(label=_("Jetons de Stabilité ◇ du personnage"), ge=0, le=20)] = 1


@dataclass(frozen=True, slots=True)
class Settings:
    """Visible choices where the seed and the rules file are silent (``docs/rules/quadrature.md``)."""

    tokens_accumulate: Annotated[
        bool, Spec(label=_("Les jetons non dépensés s'ajoutent à ceux de la manche suivante"))
    ] = False
    evasion_pooled: Annotated[
        bool, Spec(label=_("Les 💢 d'une 💔 esquivée s'ajoutent aux 💢 du coup (une seule réduction)"))
    ] = True
    horde_mood_steps: Annotated[
        bool, Spec(label=_("Horde\u202f: ±1 en attaque = un cran de dé (sinon ±1 au total)"))
    ] = True
    cuirasse: Annotated[
        CuirasseReading, Spec(label=_("Cuirasse naturelle\u202f: «\u202ftotalement ignorée\u202f»"))
    ] = CuirasseReading.WHOLE_ATTACK


# The seed's four reusable actions (« Actions d'adversaires »), as the bestiary prints them.
HARCELEMENT = Card(
    "Harcèlement",
    1,
    2,
    star=Effect(fatigue=1),
    success=Effect(light=1, fatigue=1),
    failure=Effect(fatigue=1),
    text="Une pluie de coups faibles mais incessants visant à épuiser la garde.",
)
# « ⚔️ Frappe vive ⚫ (init. 3) ⭐ Repérez un 5 : la cible subit 🔻. ✅ Inflige 💢💢💢 ❌ Inflige 💢 »; also the
# strike that Réflexes de prédateur offers on a target leaving the Engagement serré (≬).
FRAPPE_VIVE = Card("Frappe vive", 1, 3, star=Effect(down=1), success=Effect(light=3), failure=Effect(light=1))
FRAPPE_LOURDE = Card("Frappe lourde", 2, 5, star=Effect(stunned=True), success=Effect(heavy=1), failure=Effect(light=2))
MORSURE = Card(
    "Morsure",
    2,
    3,
    star=Effect(entangled=True),
    success=Effect(light=3),
    failure=Effect(light=1),
    text="Repérez un 5 : la créature agrippe la cible.",
)


# The default sheet is the bestiary's « Loup des cendres » (``fixtures/quadrature.json``, adversary 2):
# one source of truth, pinned by ``tests/rulesets/quadrature/test_issue14.py`` (issue 14, item 6).
def _default_deck() -> tuple[Card, ...]:
    return (HARCELEMENT, FRAPPE_VIVE, MORSURE)


def _default_parts() -> tuple[Part, ...]:
    return (Part("Tête", armour=1), Part("Corps", armour=1), Part("Mâchoires", armour=0), Part("Pattes", armour=0))


def _default_blocks() -> tuple[Block, ...]:
    return (
        Block(3, capability=Capability.STABILITY, value=1, part=1),
        Block(4, capability=Capability.ENDURANCE, value=2, part=2),
        Block(3, capability=Capability.ACTION, label="Morsure", part=3),
        Block(3, capability=Capability.ACTION, label="Harcèlement", part=4),
    )


HORDE_ACTIONS = 2  # « Les hordes ne disposent que de deux actions par manche, et pas de réactions ⚡ »
HORDE_FORBIDDEN = frozenset({Capability.ENDURANCE, Capability.EVASION, Capability.ARMOUR_OTHERS})


@dataclass(frozen=True, slots=True)
class Adversary:
    """A living adversary sheet: what it is, and where it stands now."""

    name: Annotated[str, Spec(label=_("Nom de l'adversaire"), max_length=80)] = "Loup des cendres"
    # A common noun by default, as in the bestiary (« le Loup des cendres »); issue 15, item 2.
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = DEFINITE_M
    kind: Annotated[Kind, Spec(label=_("Type de fiche"))] = Kind.CREATURE
    danger: Annotated[int, Spec(label=_("Dés de Danger 🟫"), ge=0, le=8)] = 0
    menace: Annotated[int, Spec(label=_("Dés de Menace ⬜"), ge=0, le=8)] = 3
    nuisance: Annotated[int, Spec(label=_("Dés de Nuisance 🟧"), ge=0, le=8)] = 1
    guard_type: Annotated[GuardType, Spec(label=_("Type de Garde"))] = GuardType.ESQUIVE
    guard: Annotated[int, Spec(label=_("Valeur de Garde"), ge=0, le=30)] = 10
    parts: Annotated[tuple[Part, ...], Spec(label=_("Parties du corps"), min_items=1, max_items=8)] = field(
        default_factory=_default_parts
    )
    blocks: Annotated[
        tuple[Block, ...], Spec(label=_("Blocs de cases (dans l'ordre de la fiche)"), min_items=1, max_items=24)
    ] = field(default_factory=_default_blocks)
    fatigue_boxes: Annotated[int, Spec(label=_("Cases de fatigue 💧"), ge=0, le=20)] = 4
    fatigue_ticked: Annotated[int, Spec(label=_("Cases de fatigue cochées"), ge=0, le=20)] = 0
    tenacity: Annotated[int, Spec(label=_("Ténacité 🧠 (cases)"), ge=0, le=10)] = 2
    action_points: Annotated[int, Spec(label=_("Points d'action ⚫"), ge=0, le=6)] = 2
    reactions: Annotated[int, Spec(label=_("Réactions ⚡"), ge=0, le=4)] = 0
    reactions_spent: Annotated[
        int,
        Spec(
            label=_("Réactions ⚡ déjà jouées cette manche"),
            ge=0,
            le=5,
            help=_("Réflexes de prédateur compris ; remis à 0 au début de la manche."),
        ),
    ] = 0
    speed: Annotated[int, Spec(label=_("Vitesse 🚶 (cases)"), ge=0, le=30)] = 10
    mental: Annotated[Mental, Spec(label=_("État mental"))] = Mental.AGRESSIF
    traits: Annotated[Traits, Spec(label=_("Traits"))] = Traits(bloodthirsty=True)
    deck: Annotated[tuple[Card, ...], Spec(label=_("Deck d'actions"), min_items=1, max_items=20)] = field(
        default_factory=_default_deck
    )
    endurance_tokens: Annotated[int, Spec(label=_("Jetons d'Endurance 🫁 restants"), ge=0, le=40)] = 2
    evasion_tokens: Annotated[int, Spec(label=_("Jetons d'Évasion 🍀 restants"), ge=0, le=40)] = 0
    stability_tokens: Annotated[int, Spec(label=_("Jetons de Stabilité ◇ restants"), ge=0, le=40)] = 1
    allied_stability: Annotated[int, Spec(label=_("◇ partagés par les alliés (Esprit de ruche)"), ge=0, le=40)] = 0
    bleeding: Annotated[int, Spec(label=_("Jetons d'Hémorragie 🩸"), ge=0, le=20)] = 0
    stunned: Annotated[bool, Spec(label=_("Sonné 🫨"))] = False
    entangled: Annotated[bool, Spec(label=_("Entravé 🕸️"))] = False
    horde: Annotated[HordeRules, Spec(label=_("Règles de horde"))] = HordeRules()

    def __post_init__(self) -> None:
        # Empty rows (a block of 0 boxes, a card or a part without a name) are form padding: drop them.
        # Parts are dropped only from the end, so the blocks' part numbers keep their meaning.
        blocks = tuple(b for b in self.blocks if b.boxes > 0)
        deck = tuple(c for c in self.deck if c.name)
        parts = list(self.parts)
        while len(parts) > 1 and not parts[-1].name and not any(b.part == len(parts) for b in blocks):
            parts.pop()
        object.__setattr__(self, "blocks", blocks or self.blocks[:1])
        object.__setattr__(self, "deck", deck or self.deck[:1])
        object.__setattr__(self, "parts", tuple(parts))

    @property
    def dice_count(self) -> int:
        return self.danger + self.menace + self.nuisance

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        if any(b.boxes == 0 for b in self.blocks):
            errors["blocks"] = _("Il faut au moins un bloc d'au moins une case.")
        if not any(c.name for c in self.deck):
            errors["deck"] = _("Il faut au moins une action nommée dans le deck.")
        if self.dice_count < 4:
            errors["nuisance"] = _("Un adversaire lance au moins quatre dés (il en a {n}).").format(n=self.dice_count)
        elif self.dice_count > 8:
            errors["nuisance"] = _("Huit dés au plus (il en a {n}).").format(n=self.dice_count)
        if self.fatigue_ticked > self.fatigue_boxes:
            errors["fatigue_ticked"] = _("Plus de cases cochées ({t}) que de cases de fatigue ({n}).").format(
                t=self.fatigue_ticked, n=self.fatigue_boxes
            )
        for i, part in enumerate(self.parts):
            if part.armour_lost > part.armour:
                errors[f"parts.{i}.armour_lost"] = _("{part} : plus de cases d'armure détruites que d'armure.").format(
                    part=part.name
                )
            if not any(b.part == i + 1 for b in self.blocks):
                errors[f"parts.{i}.name"] = _("{part} : aucun bloc de cases ne se rattache à cette partie.").format(
                    part=part.name
                )
        for j, block in enumerate(self.blocks):
            if block.part > len(self.parts):
                errors[f"blocks.{j}.part"] = _("Bloc {n} : la fiche n'a que {parts}.").format(
                    n=j + 1, parts=count(len(self.parts), "partie")
                )
            if block.ticked > block.boxes:
                errors[f"blocks.{j}.ticked"] = _("Bloc {n} : plus de cases cochées que de cases.").format(n=j + 1)
            if block.capability in (Capability.ACTION, Capability.ACTION_COST) and block.label not in {
                c.name for c in self.deck
            }:
                errors[f"blocks.{j}.label"] = _("Bloc {n} : aucune action « {label} » dans le deck.").format(
                    n=j + 1, label=block.label
                )
        if self.reactions_spent > self.reactions_per_round:
            errors["reactions_spent"] = _("Réactions jouées : au plus {n} par manche.").format(
                n=self.reactions_per_round
            )
        if self.kind is Kind.HORDE:
            if self.guard_type is not GuardType.ESQUIVE:
                errors["guard_type"] = _("La seule défense des hordes est l'esquive.")
            if self.horde.low_members > self.horde.high_members:
                errors["horde.low_members"] = _("Le seuil bas ne peut dépasser le seuil haut.")
            errors.update(self._horde_errors())
        return errors

    @property
    def reactions_per_round(self) -> int:
        """The ⚡ of a round: the printed reactions, +1 with Réflexes de prédateur (§ Traits offensifs)."""
        return self.reactions + (1 if self.traits.predator_reflexes else 0)

    def _horde_errors(self) -> dict[str, str]:
        """§ Hordes: « deux actions par manche, et pas de réactions ⚡ », « les hordes n'ont pas de
        fatigue », « Armure ∞ » and « Évasion ∞ » replace armour and Évasion: a horde sheet that
        declares any of these is refused on the field, never silently ignored (issue 14)."""
        errors: dict[str, str] = {}
        if self.action_points > HORDE_ACTIONS:
            # fewer is a horde that already acted this round (an encounter writes the ⚫ left)
            errors["action_points"] = _(
                "Une horde ne dispose que de deux actions par manche (🌕 Bande II, 🌗 Bande III) : 2 ⚫ au plus, pas {n}."
            ).format(n=self.action_points)
        if self.reactions:
            errors["reactions"] = _("Une horde n'a pas de réactions ⚡.")
        if self.reactions_spent:
            errors["reactions_spent"] = _("Une horde n'a pas de réactions ⚡.")
        if self.traits.predator_reflexes:
            errors["traits.predator_reflexes"] = _("Une horde n'a pas de réactions ⚡ : pas de Réflexes de prédateur.")
        if self.fatigue_boxes:
            errors["fatigue_boxes"] = _("Les hordes n'ont pas de fatigue : 0 case (la fatigue devient 💢).")
        if self.fatigue_ticked:
            errors["fatigue_ticked"] = _("Les hordes n'ont pas de fatigue : aucune case cochée.")
        if self.endurance_tokens:
            errors["endurance_tokens"] = _("Les hordes n'ont pas de fatigue, donc pas d'Endurance 🫁.")
        if self.evasion_tokens:
            errors["evasion_tokens"] = _("Les hordes ont l'Évasion ∞ : pas de jetons d'Évasion 🍀.")
        for i, part in enumerate(self.parts):
            if part.armour:
                errors[f"parts.{i}.armour"] = _("Les hordes ont l'Armure ∞ (tout dégât réduit à 1 💢) : armure 0.")
            if part.natural_armour:
                errors[f"parts.{i}.natural_armour"] = _("Une horde n'a pas de Cuirasse naturelle (Armure ∞).")
        for j, block in enumerate(self.blocks):
            if block.capability in HORDE_FORBIDDEN:
                errors[f"blocks.{j}.capability"] = _(
                    "Bloc {n} : une horde n'a ni fatigue, ni armure, ni Évasion."
                ).format(n=j + 1)
        return errors


@dataclass(frozen=True, slots=True)
class Scenario:
    """One exchange with a Quadrature adversary (or one round boundary of its living sheet)."""

    mode: Annotated[Mode, Spec(label=_("Situation"))] = Mode.ADVERSARY_ATTACK
    adversary: Annotated[Adversary, Spec(label=_("Adversaire"))] = Adversary()
    card: Annotated[int, Spec(label=_("Carte jouée (n° dans le deck, à partir de 1)"), ge=1, le=20)] = 2
    play: Annotated[
        Play,
        Spec(
            label=_("Jouée comme"),
            help=_("Réflexes de prédateur joue toujours la Frappe vive, quelle que soit la carte choisie."),
        ),
    ] = Play.ACTION
    matchup: Annotated[
        int, Spec(label=_("Matchup\u202f: 🟩 (+) / 🟥 (−) sur les dés de l'adversaire"), ge=-3, le=3)
    ] = 0
    pc: Annotated[Pc, Spec(label=_("Personnage"))] = Pc()
    target_part: Annotated[int, Spec(label=_("Partie visée (n°, à partir de 1)"), ge=1, le=8)] = 2
    pc_success: Annotated[Effect, Spec(label=_("Effets ✅ de l'action du personnage"))] = Effect(light=3)
    pc_failure: Annotated[Effect, Spec(label=_("Effets ❌ de l'action du personnage"))] = NO_EFFECT
    faces: Annotated[DiceFaces, Spec(label=_("Dés d'adversaires"))] = DiceFaces()
    pc_faces: Annotated[PlayerFaces, Spec(label=_("Dés des joueurs"))] = PlayerFaces()
    settings: Annotated[Settings, Spec(label=_("Réglages"))] = Settings()

    def played_card(self) -> Card | None:
        """The card the adversary plays: the deck's ``card``; with Réflexes de prédateur, the Frappe
        vive (the deck's own when it holds one, else the seed's « ⚔️ Frappe vive »)."""
        deck = self.adversary.deck
        if self.play is Play.PREDATOR:
            return next((c for c in deck if c.name == FRAPPE_VIVE.name), FRAPPE_VIVE)
        return deck[self.card - 1] if 1 <= self.card <= len(deck) else None

    def check(self) -> dict[str, str]:
        from rulesets.quadrature.sheet import card_available, card_cost, destroyed  # local: sheet imports model

        errors: dict[str, str] = {}
        adv = self.adversary
        who = adversary_who(adv.name, adv.grammar)
        acting = self.mode in (Mode.ADVERSARY_ATTACK, Mode.HYPNOTIC_GAZE, Mode.COURSE)
        if acting and destroyed(adv):
            # « La créature reste en jeu tant que toutes ses parties ne sont pas détruites » (§ Santé ♥️):
            # a creature with no intact block, a horde with no member left, does not act (issue 14).
            if adv.kind is Kind.HORDE:
                errors["adversary.blocks"] = _(
                    "{name} n'{has} plus aucun membre : la horde est anéantie, elle n'agit plus."
                )
            else:
                errors["adversary.blocks"] = _("Toutes les parties {of_name} sont détruites : {il} n'{acts} plus.")
            errors["adversary.blocks"] = errors["adversary.blocks"].format(
                name=who.Subject,
                of_name=who.de,
                has=who.form("a", "ont"),
                il=who.il,
                acts=who.form("agit", "agissent"),
            )
        if acting and adv.fatigue_boxes and adv.fatigue_ticked >= adv.fatigue_boxes:
            errors["adversary.fatigue_ticked"] = _(
                "{name} {is_} {exhausted} : hors de combat, {il} n'{acts} plus."
            ).format(
                name=who.Subject,
                is_=who.form("est", "sont"),
                exhausted=who.agree("Épuisé"),
                il=who.il,
                acts=who.form("agit", "agissent"),
            )
        if self.mode is Mode.ADVERSARY_ATTACK:
            errors.update(self._play_errors(who))
            card = self.played_card()
            if card is None:
                errors["card"] = _("Le deck n'a que {cards}.").format(cards=count(len(adv.deck), "carte"))
            elif self.play is not Play.PREDATOR and not card_available(adv, card):
                errors["card"] = _("« {name} » a quitté le deck : le bloc qui la conférait est détruit.").format(
                    name=card.name
                )
            elif self.play is Play.ACTION and card_cost(adv, card) > adv.action_points:
                errors["card"] = _("« {name} » coûte {cost} ⚫ ; {adv} n'en {has} que {ap}.").format(
                    name=card.name,
                    cost=card_cost(adv, card),
                    adv=who.subject,
                    has=who.form("a", "ont"),
                    ap=adv.action_points,
                )
            elif (
                card.fatigue_cost and card.fatigue_cost - adv.endurance_tokens >= adv.fatigue_boxes - adv.fatigue_ticked
            ):
                errors["card"] = _("Payer {cost} 💧 remplirait la piste de fatigue : action impossible.").format(
                    cost=card.fatigue_cost
                )
        if self.mode is Mode.COURSE:
            errors.update(self._course_errors(who))
        if self.pc.source is PcSource.ROLLED and self.pc.skill_upgrades > self.pc.skill:
            errors["pc.skill_upgrades"] = _("Seuls les dés de compétence s'améliorent : {n} au plus.").format(
                n=self.pc.skill
            )
        if self.mode is Mode.PC_ATTACK and self.target_part > len(adv.parts):
            errors["target_part"] = _("{adv} n'{has} que {parts}.").format(
                adv=who.Subject, has=who.form("a", "ont"), parts=count(len(adv.parts), "partie du corps")
            )
        if self.mode is Mode.PC_ATTACK and adv.kind is Kind.HORDE and self.target_part != 1:
            errors["target_part"] = _("Une horde se frappe en bloc : visez la partie 1.")
        if self.mode is Mode.HYPNOTIC_GAZE and not adv.traits.hypnotic_gaze:
            errors["mode"] = _("{name} n'{has} pas le trait Regard hypnotique.").format(
                name=who.Subject, has=who.form("a", "ont")
            )
        if self.mode is Mode.HYPNOTIC_GAZE and adv.action_points < 1:
            errors["mode"] = _("Le Regard hypnotique coûte ⚫ : {name} n'{has} aucun point d'action.").format(
                name=who.subject, has=who.form("a", "ont")
            )
        return errors

    def _play_errors(self, who: Noun) -> dict[str, str]:
        """« ⚫ La créature dispose d'un ou plusieurs points d'action ⚫, et parfois de réactions ⚡ »:
        a reaction is paid with one of the round's ⚡, not with ⚫; Réflexes de prédateur's ⚡ pays a
        Frappe vive on a target leaving the Engagement serré (§ Traits offensifs)."""
        adv = self.adversary
        left = adv.reactions_per_round - adv.reactions_spent
        if self.play is Play.REACTION and not adv.reactions:
            return {
                "play": _("{name} n'{has} aucune réaction ⚡ sur sa fiche.").format(
                    name=who.Subject, has=who.form("a", "ont")
                )
            }
        if self.play is Play.PREDATOR and not adv.traits.predator_reflexes:
            return {
                "play": _("{name} n'{has} pas le trait Réflexes de prédateur.").format(
                    name=who.Subject, has=who.form("a", "ont")
                )
            }
        if self.play is not Play.ACTION and left < 1:
            return {
                "play": _("{name} {has} déjà joué {its} ⚡ de la manche ({n} en tout).").format(
                    name=who.Subject, has=who.form("a", "ont"), its=who.ses("réactions"), n=adv.reactions_per_round
                )
            }
        return {}

    def _course_errors(self, who: Noun) -> dict[str, str]:
        """§ Actions ⚫ et réactions ⚡ : « dépenser ⚫ + ▢💧 pour une action de Course »; the ▢💧 is a
        fatigue cost (§ Fatigue : « Une créature ne peut pas jouer une action dont le coût remplirait
        sa piste de fatigue »)."""
        adv = self.adversary
        if adv.kind is Kind.HORDE:
            return {"mode": _("Une horde ne court pas : elle se déplace avec 🌕 Bande II.")}
        if adv.action_points < COURSE_COST:
            return {
                "mode": _("La Course coûte ⚫ : {name} n'{has} aucun point d'action.").format(
                    name=who.subject, has=who.form("a", "ont")
                )
            }
        if COURSE_FATIGUE - adv.endurance_tokens >= adv.fatigue_boxes - adv.fatigue_ticked:
            return {"mode": _("Payer le ▢💧 de la Course remplirait la piste de fatigue : action impossible.")}
        return {}


COURSE_COST = 1  # ⚫
COURSE_FATIGUE = 1  # ▢💧
