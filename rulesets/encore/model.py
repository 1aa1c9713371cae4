"""enCORE conflict scenario (seed ``003``; decisions in ``shared/rules/encore.md``).

Every number a table would hold (weapon damage, Protection, Menace, the success face, the health
tiers) arrives in the scenario: the page fills it from the bestiary, the API from the request.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated

from rulesets.core.french import DEFINITE_M, Grammar, Noun, count, together
from rulesets.core.i18n import _
from rulesets.core.schema import Choice, Spec

# --- how the story says a combatant (issue 15) ---------------------------------------------------

# The default and generated names are roles, not proper names: « PJ », « PNJ », « Autre PJ », « PNJ
# n°2 » (a row just added), « PJ 2 » (an encounter's numbered combatants), « Allié ». With the default
# grammar (a proper name) they read as the common nouns they are: « le PJ », « l'autre PJ », « du PNJ
# n°2 », « l'allié ».
_ROLE_NAME = re.compile(r"(?:autre )?(?:PN?J|allié)(?: n°\s?\d+| \d+)?", re.IGNORECASE)


def role_noun(name: str, grammar: Grammar, fallback: str) -> Noun:
    """The :class:`Noun` a combatant's name is told with (issue 15, item 1).

    A blank name is the role ``fallback`` (« le PJ », « l'allié »); a role name left with the
    default grammar is a masculine common noun (« le PJ », « l'autre PJ »); any other name is said
    as its grammar says (« Aldric », « l'Arbalétrier », « la Sorcière des marais »)."""
    text = " ".join(name.split())
    if not text:
        return Noun(fallback, DEFINITE_M)
    if grammar == Grammar() and _ROLE_NAME.fullmatch(text):
        return Noun(text[0].lower() + text[1:] if text[:1] in "Aa" else text, DEFINITE_M)  # « l'autre PJ »
    return Noun(text, grammar)


def _said(who: Noun | Sequence[Noun]) -> Noun:
    """One noun, or several said together (« l'Arbalétrier et la Brute », plural)."""
    if isinstance(who, Noun):
        return who
    return together(tuple(who)) if who else Noun("")


def conj(who: Noun | Sequence[Noun], singular: str, plural: str) -> str:
    """The verb (or any words) agreed in number with ``who``: « frappe » for « le Brigand »,
    « frappent » for « les Loups » or for several nouns said together."""
    return _said(who).form(singular, plural)


def is_plural(who: Noun | Sequence[Noun]) -> bool:
    return _said(who).plural


def is_feminine(who: Noun | Sequence[Noun]) -> bool:
    """Feminine only when every noun is (« la Harpie et l'Orc » are masculine together)."""
    return _said(who).feminine


def agree(who: Noun | Sequence[Noun], masculine: str, feminine: str | None = None, plural: str | None = None) -> str:
    """An adjective or a participle agreed with ``who`` (one noun or several said together):
    « blessé », « blessée », « blessés », « blessées »."""
    return _said(who).agree(masculine, feminine, plural)


def pronoun(who: Noun | Sequence[Noun]) -> str:
    """« il », « elle », « ils », « elles »."""
    return _said(who).il


class Action(Choice):
    ATTACK = "attaque"
    MANOEUVRE = "manoeuvre"
    AREA = "zone"
    NON_COMBAT = "hors_conflit"
    OPPOSITION = "opposition"
    NPC_AMBUSH = "embuscade_pnj"

    @classmethod
    def labels(cls) -> dict[str, str]:
        return {
            "attaque": _("Attaquer un PNJ"),
            "manoeuvre": _("Manœuvre contre un PNJ"),
            "zone": _("Arme de zone contre plusieurs PNJ"),
            "hors_conflit": _("Agir sans combattre"),
            "opposition": _("Opposition entre PJ"),
            "embuscade_pnj": _("Éviter l'embuscade d'un PNJ"),
        }


@dataclass(frozen=True, slots=True)
class Tier:
    """A health tier: Santé at or below ``numerator/denominator`` of the maximum."""

    name: Annotated[str, Spec(label=_("Nom du palier"), max_length=40)]
    numerator: Annotated[int, Spec(label=_("Seuil (numérateur)"), ge=0, le=100)]
    denominator: Annotated[int, Spec(label=_("Seuil (dénominateur)"), ge=1, le=100)]


DEFAULT_TIERS: tuple[Tier, ...] = (
    Tier("Hors de combat", 0, 1),
    Tier("Grave", 1, 4),
    Tier("Blessé", 1, 2),
)


@dataclass(frozen=True, slots=True)
class Rules:
    """Table settings (a ruleset setting in the admin; these are the seed's defaults)."""

    success_face: Annotated[
        int, Spec(label=_("Face minimale d'un succès"), ge=2, le=6, help=_("5 : un succès sur 5 ou 6."))
    ] = 5
    speciality_dice: Annotated[int, Spec(label=_("Dés apportés par une spécialité"), ge=0, le=5)] = 2
    healthy_tier: Annotated[str, Spec(label=_("Palier au-dessus de tous les seuils"), max_length=40)] = "Valide"
    tiers: Annotated[tuple[Tier, ...], Spec(label=_("Paliers de Santé"), min_items=1, max_items=8)] = DEFAULT_TIERS


@dataclass(frozen=True, slots=True)
class PC:
    name: Annotated[str, Spec(label=_("Nom du PJ"), max_length=60)] = "PJ"
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = field(default_factory=Grammar)
    attribute: Annotated[int, Spec(label=_("Attribut (dés)"), ge=0, le=10)] = 3
    speciality: Annotated[bool, Spec(label=_("Spécialité adaptée"))] = False
    # up to 8: an NPC holds at most 8 advantages in an encounter (issue 14: no silent clamp to 6)
    bonus_dice: Annotated[int, Spec(label=_("Avantages d'alliés (+1d6 chacun)"), ge=0, le=8)] = 0
    weapon: Annotated[int, Spec(label=_("Dégâts de l'arme"), ge=0, le=20, help=_("À mains nues : 1."))] = 1
    weapon_area: Annotated[bool, Spec(label=_("Arme de zone"))] = False
    weapon_limit: Annotated[int, Spec(label=_("Cibles au plus (0 : sans limite)"), ge=0, le=20)] = 0
    armour: Annotated[int, Spec(label=_("Protection de l'armure"), ge=0, le=10)] = 0
    cover: Annotated[int, Spec(label=_("Couvert (Protection 1 à 3)"), ge=0, le=3)] = 0
    sante: Annotated[int, Spec(label=_("Santé actuelle"), ge=0, le=99)] = 8
    sante_max: Annotated[int, Spec(label=_("Santé maximale"), ge=1, le=99)] = 8
    stress: Annotated[int, Spec(label=_("Stress"), ge=0, le=99)] = 0

    @property
    def protection(self) -> int:
        """Protections never add up: the highest of armour and cover."""
        return max(self.armour, self.cover)

    @property
    def noun(self) -> Noun:
        """How the story says this PC: « Aldric », « le PJ », « l'autre PJ »."""
        return role_noun(self.name, self.grammar, _("PJ"))

    def check(self) -> dict[str, str]:
        if self.sante > self.sante_max:
            return {
                "sante": _("Santé actuelle : ne peut dépasser la Santé maximale ({max}).").format(max=self.sante_max)
            }
        return {}


@dataclass(frozen=True, slots=True)
class NPC:
    name: Annotated[str, Spec(label=_("Nom du PNJ"), max_length=60)] = "PNJ"
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = field(default_factory=Grammar)
    menace: Annotated[int, Spec(label=_("Menace"), ge=1, le=3)] = 1
    sante: Annotated[int, Spec(label=_("Santé du PNJ"), ge=0, le=99)] = 3
    weapon: Annotated[int, Spec(label=_("Dégâts de l'arme du PNJ"), ge=0, le=20)] = 2
    protection: Annotated[int, Spec(label=_("Protection du PNJ"), ge=0, le=10)] = 0
    cover: Annotated[int, Spec(label=_("Couvert du PNJ (malus de dés)"), ge=0, le=3)] = 0
    boss: Annotated[bool, Spec(label=_("Boss ou calamité (on ne s'interpose pas)"))] = False
    attacks_left: Annotated[
        int | None, Spec(label=_("Attaques restantes ce tour"), ge=0, le=3, help=_("Vide : autant que sa Menace."))
    ] = None

    @property
    def noun(self) -> Noun:
        """How the story says this NPC: « l'Arbalétrier », « la Sorcière des marais », « le PNJ »."""
        return role_noun(self.name, self.grammar, _("PNJ"))

    @property
    def attacks_available(self) -> int:
        return self.menace if self.attacks_left is None else min(self.attacks_left, self.menace)

    def check(self) -> dict[str, str]:
        if self.attacks_left is not None and self.attacks_left > self.menace:
            return {
                "attacks_left": _("Attaques restantes : au plus la Menace du PNJ ({menace}).").format(
                    menace=self.menace
                )
            }
        return {}


def focus_refused(npc: NPC, attacks: int) -> str:
    """Why a strike cannot focus ``attacks`` attacks of ``npc`` this turn, or ``""`` (issue 14).

    Seed « Les attaques des PNJ »: the NPC has « autant [d'attaques] par tour que sa Menace »,
    « Une fois ses attaques dépensées, le PNJ ne frappe plus de ce tour », and the strike may join
    « plusieurs attaques : c'est concentrer ». Focusing more attacks than are left is refused on the
    field (``shared/rules/encore.md``): neither a silent no-strike nor a silent smaller strike.
    With none left the NPC simply does not strike; the engine and the story say so."""
    left = npc.attacks_available
    if left == 0 or attacks <= left:
        return ""
    who = npc.noun
    rest = _("qu'une attaque") if left == 1 else _("que {n}").format(n=count(left, _("attaque")))
    return _("Attaques concentrées : {name} {n_a} plus {rest} ce tour ({asked} demandées).").format(
        name=who.subject, n_a=conj(who, _("n'a"), _("n'ont")), rest=rest, asked=attacks
    )


@dataclass(frozen=True, slots=True)
class Strike:
    """The NPC strike in the breach, if the game master takes it."""

    enabled: Annotated[bool, Spec(label=_("Le PNJ frappe dans la brèche"))] = True
    striker: Annotated[int, Spec(label=_("PNJ qui frappe (n°)"), ge=1, le=8)] = 1
    attacks: Annotated[int, Spec(label=_("Attaques concentrées"), ge=1, le=3)] = 1
    interpose: Annotated[bool, Spec(label=_("Un allié s'interpose"))] = False
    interposer_name: Annotated[str, Spec(label=_("Nom de l'allié"), max_length=60)] = ""
    interposer_grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom de l'allié"))] = field(
        default_factory=Grammar
    )
    interposer_protection: Annotated[int, Spec(label=_("Protection de l'allié"), ge=0, le=10)] = 0
    interposer_sante: Annotated[int, Spec(label=_("Santé de l'allié"), ge=0, le=99)] = 8
    interposer_sante_max: Annotated[int, Spec(label=_("Santé maximale de l'allié"), ge=1, le=99)] = 8
    interposer_stress: Annotated[int, Spec(label=_("Stress de l'allié"), ge=0, le=99)] = 0

    @property
    def interposer(self) -> Noun:
        """How the story says the ally who interposes: its name, else « l'allié »."""
        return role_noun(self.interposer_name, self.interposer_grammar, _("allié"))


@dataclass(frozen=True, slots=True)
class Scenario:
    """An enCORE exchange: one PC acts against one or more NPCs (or another PC)."""

    action: Annotated[Action, Spec(label=_("Action"))] = Action.ATTACK
    pc: Annotated[PC, Spec(label=_("PJ"))] = field(default_factory=PC)
    npcs: Annotated[tuple[NPC, ...], Spec(label=_("PNJ visés"), min_items=1, max_items=8)] = (NPC(),)
    opponent: Annotated[PC, Spec(label=_("PJ opposé"))] = field(default_factory=lambda: PC(name="Autre PJ"))
    ambush: Annotated[bool, Spec(label=_("Les PJ sont embusqués (pas de brèche)"))] = False
    difficulty: Annotated[
        int, Spec(label=_("Difficulté (succès requis)"), ge=1, le=5, help=_("Pour agir sans combattre."))
    ] = 1
    effect: Annotated[str, Spec(label=_("Effet visé par la manœuvre"), max_length=120)] = ""
    effect_helps_allies: Annotated[bool, Spec(label=_("L'effet avantage les alliés (+1d6)"))] = False
    strike: Annotated[Strike, Spec(label=_("Frappe du PNJ"))] = field(default_factory=Strike)
    rules: Annotated[Rules, Spec(label=_("Réglages de la table"))] = field(default_factory=Rules)

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        if self.action in (Action.ATTACK, Action.MANOEUVRE, Action.NPC_AMBUSH) and len(self.npcs) > 1:
            errors["npcs"] = _("Cette action vise un seul PNJ ; choisissez « Arme de zone » pour en viser plusieurs.")
        if self.action is Action.AREA and not self.pc.weapon_area:
            errors["pc.weapon_area"] = _("Une attaque sur plusieurs PNJ demande une arme de zone.")
        if self.strike.striker > len(self.npcs):
            errors["strike.striker"] = _("PNJ qui frappe : il n'y a que {n}.").format(
                n=count(len(self.npcs), _("PNJ visé"), _("PNJ visés"))
            )
        else:
            striker = self.npcs[self.strike.striker - 1]
            if self.strike.enabled and self.strike.attacks > striker.menace:
                errors["strike.attacks"] = _("Attaques concentrées : au plus la Menace du PNJ ({menace}).").format(
                    menace=striker.menace
                )
            elif self.strike.enabled and (refused := focus_refused(striker, self.strike.attacks)):
                errors["strike.attacks"] = refused
            if self.strike.enabled and self.strike.interpose and striker.boss:
                errors["strike.interpose"] = _("On ne s'interpose pas devant un coup de boss ou une calamité.")
        if self.strike.interposer_sante > self.strike.interposer_sante_max:
            errors["strike.interposer_sante"] = _("Santé de l'allié : ne peut dépasser sa Santé maximale.")
        return errors
