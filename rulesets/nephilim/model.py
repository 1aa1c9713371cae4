"""Nephilim Légende combat scenario (seed ``002_78b74c4e792a38cc.txt``).

One exchange: an attacker (Nephilim, humain initié or autre PNJ) strikes with a melee, ranged or
thrown weapon, chosen approach and spells/invocations/formulas, against one defender — or, with a
firearm shooting coup par coup or in bursts, against several defenders, each with their own
defence type, Défense n°, protections and effects.

Every table of the seed (approaches, weapons, ammunition, protections, defence types, effects)
comes **in** the scenario as numbers and flags: the engine holds no table. The bestiary fixtures
carry the seed's rows; the API accepts any row an admin could type.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated

from rulesets.core.french import Grammar, Noun, quote
from rulesets.core.i18n import _
from rulesets.core.schema import Choice, Spec
from rulesets.nephilim.language import who

# --------------------------------------------------------------------------- choices


class Mode(Choice):
    """How the attack travels: melee (AM), shooting (AD, Tir) or throwing (AD, Lancer)."""

    MELEE = "melee"
    RANGED = "tir"
    THROWN = "lancer"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"melee": _("Mêlée"), "tir": _("Distance — tir"), "lancer": _("Distance — lancer")}


class Element(Choice):
    NONE = "aucun"
    FEU = "feu"
    EAU = "eau"
    AIR = "air"
    TERRE = "terre"
    LUNE = "lune"
    SOLEIL = "soleil"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "aucun": _("—"),
            "feu": _("Feu"),
            "eau": _("Eau"),
            "air": _("Air"),
            "terre": _("Terre"),
            "lune": _("Lune"),
            "soleil": _("Soleil"),
        }


class AttackerKind(Choice):
    NEPHILIM = "nephilim"
    INITIE = "initie"
    AUTRE = "autre"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "nephilim": _("Nephilim"),
            "initie": _("Humain initié"),
            "autre": _("Autre PNJ (humain ordinaire, animal…)"),
        }


class DefenderKind(Choice):
    NEPHILIM = "nephilim"
    INITIE = "initie"
    CREATURE = "creature_magique"
    SELENIM = "selenim"
    AUTRE = "autre"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "nephilim": _("Nephilim"),
            "initie": _("Humain initié"),
            "creature_magique": _("Créature magique (Kabbale, effet-dragon, Daïmon…)"),
            "selenim": _("Selenim"),
            "autre": _("Autre PNJ (humain ordinaire, animal…)"),
        }


class Sensitivity(Choice):
    """Magic sensitivity: from the defender's type (seed §1, §14) or forced by the game master."""

    AUTO = "auto"
    SENSITIVE = "sensible"
    INSENSITIVE = "insensible"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "auto": _("Selon le type de défenseur"),
            "sensible": _("Sensible aux dommages magiques"),
            "insensible": _("Insensible aux dommages magiques"),
        }


class ApproachKind(Choice):
    """The behaviour of an attack approach (seed §2, §3); its numbers come with the approach."""

    STANDARD = "standard"
    FORCE = "force"
    RAPIDE = "rapide"
    PUISSANTE = "puissante"
    SUBTILE = "subtile"
    ETRANGE = "etrange"
    TIR_INSTINCTIF = "tir_instinctif"
    FRAPPER = "frapper"
    IMMOBILISER = "immobiliser"
    FAIRE_TOMBER = "faire_tomber"
    TIR = "tir"
    LANCER = "lancer"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "standard": _("Standard"),
            "force": _("Attaque en force"),
            "rapide": _("Attaque rapide"),
            "puissante": _("Attaque puissante"),
            "subtile": _("Attaque subtile"),
            "etrange": _("Attaque étrange"),
            "tir_instinctif": _("Tir instinctif"),
            "frapper": _("Frapper"),
            "immobiliser": _("Immobiliser"),
            "faire_tomber": _("Faire tomber"),
            "tir": _("Tir"),
            "lancer": _("Lancer"),
        }

    @property
    def mode(self) -> Mode:
        if self is ApproachKind.TIR:
            return Mode.RANGED
        if self is ApproachKind.LANCER:
            return Mode.THROWN
        return Mode.MELEE


class WeaponType(Choice):
    NATURAL = "nat"
    MADE = "m"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"nat": _("Naturelle"), "m": _("Manufacturée")}


class Cadence(Choice):
    UNIQUE = "unique"
    CPC = "cpc"
    RAF_CTRL = "raf_ctrl"
    RAF_CONT = "raf_cont"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "unique": _("Tir unique"),
            "cpc": _("Coup par coup"),
            "raf_ctrl": _("Rafale contrôlée"),
            "raf_cont": _("Rafale continue"),
        }

    @property
    def is_burst(self) -> bool:
        return self in (Cadence.RAF_CTRL, Cadence.RAF_CONT)


class DefenceStyle(Choice):
    """What a defence type looks like at the table (narration, and the Colibris condition)."""

    STANDARD = "standard"
    DODGE = "esquive"
    PARRY = "parade"
    ELABORATE = "elaboree"
    DISARM = "desarmer"
    COUNTER = "contre"
    FLEE = "fuite"
    BREAK_FREE = "liberation"
    BLOCK = "blocage"
    ABSORB = "encaisser"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "standard": _("Défense standard"),
            "esquive": _("Esquive"),
            "parade": _("Parade"),
            "elaboree": _("Défense élaborée"),
            "desarmer": _("Désarmement"),
            "contre": _("Contre-attaque"),
            "fuite": _("Fuite"),
            "liberation": _("Se libérer"),
            "blocage": _("Blocage"),
            "encaisser": _("Encaisser"),
        }


class Scope(Choice):
    """Where a spell, invocation or formula works: (mêlée), (distance) or (mêlée+dist)."""

    MELEE = "melee"
    RANGED = "distance"
    BOTH = "tous"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"melee": _("Mêlée"), "distance": _("Distance"), "tous": _("Mêlée et distance")}

    def covers(self, mode: Mode) -> bool:
        if self is Scope.BOTH:
            return True
        return (mode is Mode.MELEE) == (self is Scope.MELEE)


class ComponentKind(Choice):
    """One typed piece of an effect. Values are signed degrees or damage points."""

    ATTACK = "attaque"
    DEFENCE = "defense"
    OPPONENT_DEFENCE = "defense_adverse"
    DAMAGE = "dommages"
    DAMAGE_PHYS = "dommages_phys"
    DAMAGE_MAG = "dommages_mag"
    PROTECTION_PHYS = "protection_phys"
    PROTECTION_MAG = "protection_mag"
    CANCEL_PHYS = "annule_phys"
    CANCEL_MAG = "annule_mag"
    CANCEL_ALL = "annule_tout"
    NULL_NON_MAG_PROT = "null_non_mag_prot"
    NO_EXTRA_DEFENCE_MALUS = "sans_malus_defenses"
    OPPONENT_NEXT_ROUND_ATTACK = "attaque_adverse_round_suivant"
    WEAPON_MAGICAL = "arme_magique"
    ARMOUR_MAGICAL = "armure_magique"
    INITIATIVE = "initiative"
    METAMORPHE = "metamorphe"
    NOTE = "note"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "attaque": _("Degrés d'attaque"),
            "defense": _("Degrés de défense"),
            "defense_adverse": _("Défense de l'adversaire (cet échange)"),
            "dommages": _("Dommages (type de l'arme)"),
            "dommages_phys": _("Dommages physiques"),
            "dommages_mag": _("Dommages magiques"),
            "protection_phys": _("Protection physique"),
            "protection_mag": _("Protection magique"),
            "annule_phys": _("Annule les dommages physiques"),
            "annule_mag": _("Annule les dommages magiques"),
            "annule_tout": _("Annule tous les dommages"),
            "null_non_mag_prot": _("Annule la protection physique non magique (nullNonMagProt)"),
            "sans_malus_defenses": _("Pas de malus de défenses supplémentaires"),
            "attaque_adverse_round_suivant": _("Attaque de l'adversaire au round suivant"),
            "arme_magique": _("L'arme devient d'origine magique"),
            "armure_magique": _("L'armure devient d'origine magique"),
            "initiative": _("Initiative et MV (vitesse)"),
            "metamorphe": _("Métamorphe porté à"),
            "note": _("Note sans effet chiffré"),
        }


class Condition(Choice):
    ALWAYS = "toujours"
    FORCE = "attaque_en_force"
    APPROACH_POSITIVE = "approche_positive"
    APPROACH_FEU = "approche_feu"
    NOT_APPROACH_FEU = "approche_pas_feu"
    FIREARM = "arme_a_feu"
    MELEE_WEAPON = "arme_melee"
    HAS_ARMOUR = "porte_armure"
    COORDINATED = "action_coordonnee"
    TARGET_FAILED_KA_DOMINANT = "cible_echoue_ka_dominant"
    DODGE = "esquive"
    FIRST_DEFENCE = "premiere_defense"
    METAMORPHE_10 = "metamorphe_10"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "toujours": _("Toujours"),
            "attaque_en_force": _("Seulement avec Attaque en force"),
            "approche_positive": _("Seulement si Approche > 0"),
            "approche_feu": _("Seulement avec une Approche Ka-Feu"),
            "approche_pas_feu": _("Seulement sans Approche Ka-Feu"),
            "arme_a_feu": _("Seulement avec une arme à feu"),
            "arme_melee": _("Seulement avec une arme de mêlée ou naturelle"),
            "porte_armure": _("Seulement si le défenseur porte une armure"),
            "action_coordonnee": _("Seulement pour une action coordonnée"),
            "cible_echoue_ka_dominant": _("Seulement si la cible a échoué son jet de Ka dominant"),
            "esquive": _("Seulement en esquive"),
            "premiere_defense": _("Seulement pour la 1re défense du round"),
            "metamorphe_10": _("Seulement si le Métamorphe de l'attaquant est à 10"),
        }


class Behaviour(Choice):
    """The few effects whose rule needs code (issue 3): selectable by name in the admin."""

    NONE = "aucun"
    RETENUE_DU_SOUFFLE = "retenue_du_souffle"
    EAU_FORTE = "eau_forte"
    MANTEAU_ELEMENTAIRE = "manteau_elementaire"
    TRANSMUTATION_DU_FAUVE = "transmutation_du_fauve"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "aucun": _("Aucun comportement particulier"),
            "retenue_du_souffle": _("Retenue du souffle (annule ≤ seuil, sinon −seuil au total)"),
            "eau_forte": _("Eau-forte (dommages physiques de l'attaquant ÷ 2)"),
            "manteau_elementaire": _("Manteau élémentaire (annulation si même élément que l'arme)"),
            "transmutation_du_fauve": _("Transmutation du fauve (inefficace contre armes magiques/élémentaires)"),
        }


class BurstReduction(Choice):
    """How "−1 par cible supplémentaire" reads (seed §14, Cadence bonus)."""

    ALL_TARGETS = "toutes"
    PROGRESSIVE = "progressive"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "toutes": _("Chaque cible : bonus − (nombre de cibles − 1)"),
            "progressive": _("Cible n : bonus − (n − 1)"),
        }


class RetenueOrder(Choice):
    PHYS_FIRST = "phys_dabord"
    MAG_FIRST = "mag_dabord"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "phys_dabord": _("Retirer d'abord des dommages physiques"),
            "mag_dabord": _("Retirer d'abord des dommages magiques"),
        }


# --------------------------------------------------------------------------- Spec helpers

Name = Annotated[str, Spec(label=_("Nom"), max_length=120)]


def _deg(label: str, ge: int = -30, le: int = 30, help: str = "") -> Spec:
    return Spec(label=label, ge=ge, le=le, help=help)


# --------------------------------------------------------------------------- element and cadence sets

ELEMENT_FIELDS = ("feu", "eau", "air", "terre", "lune")


@dataclass(frozen=True, slots=True)
class Elements:
    """The elements an approach or a defence type allows (one checkbox each)."""

    feu: Annotated[bool, Spec(label=_("Feu"))] = False
    eau: Annotated[bool, Spec(label=_("Eau"))] = False
    air: Annotated[bool, Spec(label=_("Air"))] = False
    terre: Annotated[bool, Spec(label=_("Terre"))] = False
    lune: Annotated[bool, Spec(label=_("Lune"))] = False

    def members(self) -> tuple[Element, ...]:
        return tuple(Element(name) for name in ELEMENT_FIELDS if getattr(self, name))

    def has(self, element: Element) -> bool:
        return element.value in ELEMENT_FIELDS and bool(getattr(self, element.value))

    def describe(self) -> str:
        return ", ".join(e.label for e in self.members()) or _("aucun")


@dataclass(frozen=True, slots=True)
class Cadences:
    """The firing modes of a weapon (§5)."""

    unique: Annotated[bool, Spec(label=_("Tir unique"))] = True
    cpc: Annotated[bool, Spec(label=_("Coup par coup"))] = False
    raf_ctrl: Annotated[bool, Spec(label=_("Rafale contrôlée"))] = False
    raf_cont: Annotated[bool, Spec(label=_("Rafale continue"))] = False

    def allows(self, cadence: Cadence) -> bool:
        return bool(getattr(self, cadence.value))


# --------------------------------------------------------------------------- table rows


@dataclass(frozen=True, slots=True)
class Approach:
    """An attack approach (seed §2 AM, §3 AD)."""

    kind: Annotated[ApproachKind, Spec(label=_("Approche d'attaque"))] = ApproachKind.STANDARD
    name: Annotated[str, Spec(label=_("Nom de l'approche"), max_length=120)] = "Standard"
    attack_modifier: Annotated[int, _deg(_("Modificateur d'attaque (degrés)"))] = 0
    damage_bonus_phys: Annotated[int, _deg(_("Bonus de dommages physiques"), 0, 20)] = 0
    elements: Annotated[Elements, Spec(label=_("Éléments de l'approche"))] = field(default_factory=Elements)
    defence_malus_on_hit: Annotated[int, _deg(_("Malus à la défense adverse si l'attaque réussit"), 0, 20)] = 0
    opponent_next_round_malus: Annotated[int, _deg(_("Malus de l'adversaire au round suivant"), 0, 20)] = 0
    attacker_cannot_defend: Annotated[bool, Spec(label=_("L'attaquant ne peut pas se défendre ce round"))] = False
    deals_damage: Annotated[bool, Spec(label=_("Inflige des dommages"))] = True
    aiming_rounds: Annotated[int, _deg(_("Rounds de visée"), 0, 10)] = 0


@dataclass(frozen=True, slots=True)
class Weapon:
    """A melee (§4), ranged (§5) or thrown (§6) weapon."""

    name: Annotated[str, Spec(label=_("Nom de l'arme"), max_length=120)] = "Mains nues"
    category: Annotated[Mode, Spec(label=_("Catégorie d'arme"))] = Mode.MELEE
    degree: Annotated[int, _deg(_("Degré de l'arme"), 0, 20)] = 1
    phys: Annotated[int, _deg(_("Dommages physiques (PHYS)"), 0, 30)] = 1
    mag: Annotated[int, _deg(_("Dommages magiques (MAG)"), 0, 30)] = 0
    type: Annotated[WeaponType, Spec(label=_("Type d'arme"))] = WeaponType.NATURAL
    element: Annotated[Element, Spec(label=_("Élément de l'arme"))] = Element.NONE
    magical: Annotated[bool, Spec(label=_("Arme magique"))] = False
    null_non_mag_prot: Annotated[bool, Spec(label=_("Transperce les protections non magiques (nullNonMagProt)"))] = (
        False
    )
    firearm: Annotated[bool, Spec(label=_("Arme à feu"))] = False
    range_m: Annotated[int, _deg(_("Portée (m)"), 0, 100000)] = 0
    range_label: Annotated[str, Spec(label=_("Portée (texte)"), max_length=60)] = ""
    ammunition: Annotated[int, _deg(_("Munitions (0 : durée du sort)"), 0, 1000)] = 0
    cadences: Annotated[Cadences, Spec(label=_("Cadences"))] = field(default_factory=Cadences)


@dataclass(frozen=True, slots=True)
class Ammunition:
    """Ammunition for firearms (§7). ``compatible`` blank: every firearm."""

    name: Annotated[str, Spec(label=_("Munition"), max_length=120)] = "Standard"
    damage_bonus: Annotated[int, _deg(_("Bonus de dommages de la munition"), 0, 20)] = 0
    compatible: Annotated[
        str, Spec(label=_("Arme compatible"), max_length=120, help=_("Vide : toutes les armes à feu."))
    ] = ""


@dataclass(frozen=True, slots=True)
class Protection:
    """A protection worn (§8): armour, Phalange replacement, invocation armour, mantle, shield.

    ``element`` is set on elemental mantles only: a weapon of the same element is cancelled.
    """

    name: Annotated[str, Spec(label=_("Protection"), max_length=120)] = "Aucune"
    phys: Annotated[int, _deg(_("Protection physique"), 0, 30)] = 0
    mag: Annotated[int, _deg(_("Protection magique"), 0, 30)] = 0
    magical: Annotated[bool, Spec(label=_("D'origine magique"))] = False
    element: Annotated[Element, Spec(label=_("Élément (manteau)"))] = Element.NONE
    optional_bonus: Annotated[int, _deg(_("Bonus optionnel (PHYS et MAG)"), 0, 10)] = 0
    use_optional_bonus: Annotated[bool, Spec(label=_("Bonus optionnel utilisé"))] = False


@dataclass(frozen=True, slots=True)
class DefenceType:
    """A defence type (§9 mêlée, §10 tir, §11 lancer)."""

    name: Annotated[str, Spec(label=_("Type de défense"), max_length=120)] = "Standard"
    style: Annotated[DefenceStyle, Spec(label=_("Genre de défense"))] = DefenceStyle.STANDARD
    context: Annotated[Mode, Spec(label=_("Contre quel type d'attaque"))] = Mode.MELEE
    rolls: Annotated[bool, Spec(label=_("Demande un jet de défense"))] = True
    modifier: Annotated[int, _deg(_("Modificateur de défense (degrés)"))] = 0
    success_reduce_phys: Annotated[int, _deg(_("Si réussie : dommages physiques retirés"), 0, 30)] = 1
    success_reduce_mag: Annotated[int, _deg(_("Si réussie : dommages magiques retirés"), 0, 30)] = 1
    success_cancel: Annotated[bool, Spec(label=_("Si réussie : dommages annulés"))] = False
    success_no_minimum: Annotated[bool, Spec(label=_("Si réussie : pas de minimum de 1"))] = False
    failure_add_phys: Annotated[int, _deg(_("Si ratée : dommages physiques ajoutés"), 0, 30)] = 0
    failure_add_mag: Annotated[int, _deg(_("Si ratée : dommages magiques ajoutés"), 0, 30)] = 0
    no_extra_defence_malus: Annotated[bool, Spec(label=_("Pas de malus de défenses supplémentaires"))] = False
    elements: Annotated[Elements, Spec(label=_("Éléments de la défense"))] = field(default_factory=Elements)
    needs_shield: Annotated[bool, Spec(label=_("Nécessite un bouclier ou un objet"))] = False
    escapes: Annotated[bool, Spec(label=_("Si réussie : le défenseur s'échappe"))] = False
    needs_attack_roll: Annotated[bool, Spec(label=_("Si réussie : un jet d'attaque standard est requis"))] = False


@dataclass(frozen=True, slots=True)
class Effect:
    """A spell, invocation or formula (§12 attacker, §13 defender), made of typed components.

    Numeric components apply when ``condition`` holds (the defence malus inflicted on the
    opponent has its own condition); flags always apply within the effect's scope. A row with a
    blank name is an empty form row and is ignored.
    """

    name: Annotated[str, Spec(label=_("Sort, invocation ou formule"), max_length=120)] = ""
    scope: Annotated[Scope, Spec(label=_("Portée de l'effet"))] = Scope.BOTH
    target: Annotated[int, _deg(_("Défenseur concerné (0 : tous)"), 0, 6)] = 0
    condition: Annotated[Condition, Spec(label=_("Condition des bonus"))] = Condition.ALWAYS
    attack: Annotated[int, _deg(_("Degrés d'attaque"))] = 0
    defence: Annotated[int, _deg(_("Degrés de défense"))] = 0
    damage: Annotated[int, _deg(_("Dommages (type de l'arme)"))] = 0
    damage_phys: Annotated[int, _deg(_("Dommages physiques"))] = 0
    damage_mag: Annotated[int, _deg(_("Dommages magiques"))] = 0
    protection_phys: Annotated[int, _deg(_("Protection physique"))] = 0
    protection_mag: Annotated[int, _deg(_("Protection magique"))] = 0
    opponent_defence: Annotated[int, _deg(_("Défense de l'adversaire (cet échange)"))] = 0
    opponent_defence_condition: Annotated[Condition, Spec(label=_("Condition (défense adverse)"))] = Condition.ALWAYS
    opponent_next_round_attack: Annotated[int, _deg(_("Attaque de l'adversaire au round suivant"))] = 0
    initiative: Annotated[int, _deg(_("Initiative et MV (vitesse)"))] = 0
    initiative_condition: Annotated[Condition, Spec(label=_("Condition (initiative)"))] = Condition.ALWAYS
    metamorphe: Annotated[
        int, _deg(_("Métamorphe porté à"), 0, 10, help=_("0 : le Métamorphe de l'attaquant ne change pas."))
    ] = 0
    cancel_phys: Annotated[bool, Spec(label=_("Annule les dommages physiques"))] = False
    cancel_mag: Annotated[bool, Spec(label=_("Annule les dommages magiques"))] = False
    cancel_all: Annotated[bool, Spec(label=_("Annule tous les dommages"))] = False
    null_non_mag_prot: Annotated[bool, Spec(label=_("Annule la protection physique non magique (nullNonMagProt)"))] = (
        False
    )
    no_extra_defence_malus: Annotated[bool, Spec(label=_("Pas de malus de défenses supplémentaires"))] = False
    weapon_magical: Annotated[bool, Spec(label=_("L'arme devient d'origine magique"))] = False
    armour_magical: Annotated[bool, Spec(label=_("L'armure devient d'origine magique"))] = False
    behaviour: Annotated[Behaviour, Spec(label=_("Comportement nommé"))] = Behaviour.NONE
    element: Annotated[Element, Spec(label=_("Élément (manteau)"))] = Element.NONE
    threshold: Annotated[int, _deg(_("Seuil (Retenue du souffle)"), 0, 100)] = 10
    note: Annotated[str, Spec(label=_("Note sans effet chiffré"), max_length=200)] = ""

    @property
    def active(self) -> bool:
        return bool(self.name)

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        if self.behaviour is Behaviour.MANTEAU_ELEMENTAIRE and self.element is Element.NONE:
            errors["element"] = _("Un manteau élémentaire doit avoir un élément.")
        return errors


# --------------------------------------------------------------------------- combatants

EFFECTS_MAX = 16
# « Frapper : Dommages selon la force du simulacre » (§2): a PHYS degree like a weapon's; the seed's
# unarmed row (« Mains nues | 1 | 1 ») is the least, the heaviest melee row of §4 is 4.
SIMULACRE_FORCE_MIN = 1
SIMULACRE_FORCE_MAX = 10


def nephilim_only(metamorphe: int, stase: bool, mnemos: bool) -> dict[str, str]:
    """§1: Métamorphe, Stase and Mnémos belong to a Nephilim (attacker and defender) only."""
    errors: dict[str, str] = {}
    if metamorphe:
        errors["metamorphe"] = _("Seul un Nephilim a un Métamorphe.")
    if stase:
        errors["stase"] = _("Seul un Nephilim peut être en Stase.")
    if mnemos:
        errors["mnemos"] = _("Seul un Nephilim a un Mnémos.")
    return errors


@dataclass(frozen=True, slots=True)
class Attacker:
    """The attacker (§1): type, degree, Approche, weapon, approach and effects."""

    name: Annotated[str, Spec(label=_("Nom de l'attaquant"), max_length=120)] = "Attaquant"
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = field(default_factory=Grammar)
    kind: Annotated[AttackerKind, Spec(label=_("Type d'attaquant"))] = AttackerKind.NEPHILIM
    degree: Annotated[int, _deg(_("Vécu ou Menace (degré)"), 0, 30)] = 5
    approach_element: Annotated[Element, Spec(label=_("Élément de l'Approche"))] = Element.NONE
    approach_value: Annotated[int, _deg(_("Approche (valeur du Ka)"), 0, 30)] = 0
    ka_feu: Annotated[int, _deg(_("Ka-Feu (bonus de dommages)"), 0, 30)] = 0
    initiative_ka: Annotated[int, _deg(_("Ka-Eau, Ka-Soleil ou Menace (initiative et MV)"), 0, 30)] = 0
    metamorphe: Annotated[int, _deg(_("Métamorphe"), 0, 10)] = 0
    stase: Annotated[bool, Spec(label=_("En Stase"))] = False
    mnemos: Annotated[bool, Spec(label=_("Mnémos en jeu"))] = False
    simulacre_force: Annotated[
        int,
        _deg(
            _("Force du simulacre (Frapper)"),
            SIMULACRE_FORCE_MIN,
            SIMULACRE_FORCE_MAX,
            help=_("Les dommages physiques de l'approche « Frapper » ; 1 comme « Mains nues »."),
        ),
    ] = 1
    approach: Annotated[Approach, Spec(label=_("Approche d'attaque"))] = field(default_factory=Approach)
    weapon: Annotated[Weapon, Spec(label=_("Arme"))] = field(default_factory=Weapon)
    ammunition: Annotated[Ammunition, Spec(label=_("Munition"))] = field(default_factory=Ammunition)
    effects: Annotated[tuple[Effect, ...], Spec(label=_("Sorts, invocations, formules"), max_items=EFFECTS_MAX)] = ()
    coordinated: Annotated[bool, Spec(label=_("Action coordonnée"))] = False
    wounds: Annotated[int, _deg(_("Malus de blessures (degrés)"), -30, 0)] = 0
    situational: Annotated[int, _deg(_("Modificateur de situation (degrés)"))] = 0
    carried_over: Annotated[int, _deg(_("Report du round précédent (degrés)"))] = 0
    situation: Annotated[str, Spec(label=_("Contexte de la scène"), max_length=300)] = ""
    margin_damage: Annotated[int, _deg(_("Marge > 10 : choix « +1 dommage »"), 0, 30)] = 0
    margin_malus: Annotated[int, _deg(_("Marge > 10 : choix « −1 défense adverse »"), 0, 30)] = 0

    def __post_init__(self) -> None:
        if not self.name.strip():  # a blank name (a new form row) reads as the role
            object.__setattr__(self, "name", _("Attaquant"))

    @property
    def who(self) -> Noun:
        """The attacker's name with its grammar, as the texts say it (issue 15)."""
        return who(self.name, self.grammar)

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        element, value = self.approach_element, self.approach_value
        if self.kind is AttackerKind.AUTRE and (value or element is not Element.NONE):
            errors["approach_value"] = _("Un autre PNJ n'a pas d'Approche.")
        elif self.kind is AttackerKind.INITIE and value and element is not Element.SOLEIL:
            errors["approach_element"] = _("Un humain initié attaque avec l'Approche Ka-Soleil.")
        elif self.kind is AttackerKind.NEPHILIM and value:
            if element is Element.NONE:
                errors["approach_element"] = _("Choisissez l'élément de l'Approche.")
            elif not self.approach.elements.has(element):
                allowed = self.approach.elements.describe()
                errors["approach_element"] = _(
                    "L'Approche Ka-{element} n'est pas permise par l'approche {approach} (éléments : {allowed})."
                ).format(element=element.label, approach=quote(self.approach.name), allowed=allowed)
        if self.ka_feu and self.kind is not AttackerKind.NEPHILIM:
            errors["ka_feu"] = _("Seul un Nephilim ajoute son Ka-Feu aux dommages.")
        if self.kind is not AttackerKind.NEPHILIM:
            errors.update(nephilim_only(self.metamorphe, self.stase, self.mnemos))
        if self.approach.kind is ApproachKind.FRAPPER:
            if self.weapon.type is not WeaponType.NATURAL:
                errors["weapon.type"] = _(
                    "« Frapper » est une attaque à mains nues : {weapon} est une arme manufacturée."
                ).format(weapon=quote(self.weapon.name))
        elif self.simulacre_force != 1:
            errors["simulacre_force"] = _("La force du simulacre ne compte qu'avec l'approche « Frapper ».")
        return errors


@dataclass(frozen=True, slots=True)
class Defender:
    """One defender (a column of the multi-defender table)."""

    name: Annotated[str, Spec(label=_("Nom du défenseur"), max_length=120)] = "Défenseur"
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = field(default_factory=Grammar)
    kind: Annotated[DefenderKind, Spec(label=_("Type de défenseur"))] = DefenderKind.AUTRE
    sensitivity: Annotated[Sensitivity, Spec(label=_("Sensibilité magique"))] = Sensitivity.AUTO
    degree: Annotated[int, _deg(_("Vécu ou Menace (degré de défense)"), 0, 30)] = 5
    approach_element: Annotated[Element, Spec(label=_("Élément de l'Approche"))] = Element.NONE
    approach_value: Annotated[int, _deg(_("Approche (valeur du Ka)"), 0, 30)] = 0
    metamorphe: Annotated[int, _deg(_("Métamorphe"), 0, 10)] = 0
    stase: Annotated[bool, Spec(label=_("En Stase"))] = False
    mnemos: Annotated[bool, Spec(label=_("Mnémos en jeu"))] = False
    defence: Annotated[DefenceType, Spec(label=_("Type de défense"))] = field(default_factory=DefenceType)
    defence_number: Annotated[int, _deg(_("Défense n°"), 1, 10)] = 1
    defence_number_2: Annotated[int, _deg(_("Défense n° (2e attaque rapide)"), 1, 10)] = 2
    armour: Annotated[Protection, Spec(label=_("Armure"))] = field(default_factory=Protection)
    shield: Annotated[Protection, Spec(label=_("Bouclier"))] = field(default_factory=lambda: Protection(name="Aucun"))
    other: Annotated[Protection, Spec(label=_("Manteau ou autre protection"))] = field(
        default_factory=lambda: Protection(name="Aucune")
    )
    failed_ka_dominant: Annotated[bool, Spec(label=_("A échoué son jet de Ka dominant"))] = False
    wounds: Annotated[int, _deg(_("Malus de blessures (degrés)"), -30, 0)] = 0
    situational: Annotated[int, _deg(_("Modificateur de situation (degrés)"))] = 0
    carried_over: Annotated[int, _deg(_("Report du round précédent (degrés)"))] = 0
    margin_damage: Annotated[int, _deg(_("Marge > 10 : choix « −1 dommage »"), 0, 30)] = 0
    margin_malus: Annotated[int, _deg(_("Marge > 10 : choix « −1 attaque adverse »"), 0, 30)] = 0

    def __post_init__(self) -> None:
        if not self.name.strip():  # a blank name (a new form row) reads as the role
            object.__setattr__(self, "name", _("Défenseur"))

    @property
    def who(self) -> Noun:
        """The defender's name with its grammar, as the texts say it (issue 15)."""
        return who(self.name, self.grammar)

    @property
    def protections(self) -> tuple[tuple[str, Protection], ...]:
        """The protections worn, by slot ("armour", "shield", "other")."""
        return (("armour", self.armour), ("shield", self.shield), ("other", self.other))

    @property
    def magic_sensitive(self) -> bool:
        """Seed §1 and §14: everyone but ordinary humans and animals, unless forced."""
        if self.sensitivity is Sensitivity.AUTO:
            return self.kind is not DefenderKind.AUTRE
        return self.sensitivity is Sensitivity.SENSITIVE

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        element, value = self.approach_element, self.approach_value
        if value and self.kind is not DefenderKind.NEPHILIM:
            errors["approach_value"] = _("Seul un Nephilim ajoute une Approche à sa défense.")
        elif value and element is Element.NONE:
            errors["approach_element"] = _("Choisissez l'élément de l'Approche.")
        elif value and not self.defence.elements.has(element):
            allowed = self.defence.elements.describe()
            errors["approach_element"] = _(
                "L'Approche Ka-{element} n'est pas permise par la défense {defence} (éléments : {allowed})."
            ).format(element=element.label, defence=quote(self.defence.name), allowed=allowed)
        if self.kind is not DefenderKind.NEPHILIM:
            errors.update(nephilim_only(self.metamorphe, self.stase, self.mnemos))
        return errors


@dataclass(frozen=True, slots=True)
class Settings:
    """Rule constants of the seed, visible and adjustable (docs/rules/nephilim.md)."""

    extra_defence_malus: Annotated[int, _deg(_("Malus par défense au-delà de la 1re"), 0, 10)] = 2
    critical_multiplier: Annotated[int, _deg(_("Multiplicateur des dommages critiques"), 1, 4)] = 2
    minimum_weapon_degree: Annotated[int, _deg(_("Degré d'arme minimal pour le minimum de 1"), 0, 20)] = 2
    ka_feu_threshold_1: Annotated[int, _deg(_("Ka-Feu pour +1 aux dommages"), 1, 30)] = 5
    ka_feu_threshold_2: Annotated[int, _deg(_("Ka-Feu pour +2 aux dommages"), 1, 30)] = 10
    burst_controlled_bonus: Annotated[int, _deg(_("Bonus PHYS de la rafale contrôlée"), 0, 20)] = 2
    burst_continuous_bonus: Annotated[int, _deg(_("Bonus PHYS de la rafale continue"), 0, 20)] = 5
    burst_target_reduction: Annotated[int, _deg(_("Réduction du bonus par cible supplémentaire"), 0, 10)] = 1
    burst_reduction: Annotated[BurstReduction, Spec(label=_("Lecture de la réduction par cible"))] = (
        BurstReduction.ALL_TARGETS
    )
    burst_single_roll: Annotated[bool, Spec(label=_("Rafale : un seul jet d'attaque pour toutes les cibles"))] = True
    retenue_order: Annotated[RetenueOrder, Spec(label=_("Retenue du souffle : ordre de retrait"))] = (
        RetenueOrder.PHYS_FIRST
    )

    def check(self) -> dict[str, str]:
        if self.ka_feu_threshold_2 <= self.ka_feu_threshold_1:
            return {"ka_feu_threshold_2": _("Le second seuil de Ka-Feu doit dépasser le premier.")}
        return {}


DEFENDERS_MAX = 6

# How the messages say an attack type (issue 15: « ne s'emploie pas au tir », not « en distance — tir »).
MODE_IN = {Mode.MELEE: "en mêlée", Mode.RANGED: "au tir", Mode.THROWN: "au lancer"}
ATTACK_OF = {Mode.MELEE: "à une attaque en mêlée", Mode.RANGED: "à un tir", Mode.THROWN: "à une arme lancée"}
WEAPON_KIND = {Mode.MELEE: "une arme de mêlée", Mode.RANGED: "une arme de tir", Mode.THROWN: "une arme de lancer"}


@dataclass(frozen=True, slots=True)
class Scenario:
    """Un échange de combat de Nephilim Légende."""

    mode: Annotated[Mode, Spec(label=_("Type d'attaque"))] = Mode.MELEE
    cadence: Annotated[Cadence, Spec(label=_("Cadence de tir"))] = Cadence.UNIQUE
    attacker: Annotated[Attacker, Spec(label=_("Attaquant"))] = field(default_factory=Attacker)
    defenders: Annotated[tuple[Defender, ...], Spec(label=_("Défenseurs"), min_items=1, max_items=DEFENDERS_MAX)] = (
        Defender(),
    )
    defender_effects: Annotated[
        tuple[Effect, ...],
        Spec(label=_("Sorts, invocations, formules des défenseurs"), max_items=EFFECTS_MAX * DEFENDERS_MAX),
    ] = ()
    settings: Annotated[Settings, Spec(label=_("Réglages de règles"))] = field(default_factory=Settings)

    def effects_of(self, index: int) -> tuple[Effect, ...]:
        """The effects on defender ``index`` (0-based): those aimed at it and those for all."""
        return tuple(e for e in self.defender_effects if e.active and e.target in (0, index + 1))

    @property
    def rapid(self) -> bool:
        return self.attacker.approach.kind is ApproachKind.RAPIDE

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        attacker, weapon, approach = self.attacker, self.attacker.weapon, self.attacker.approach
        if approach.kind.mode is not self.mode:
            errors["attacker.approach.kind"] = _("L'approche {approach} ne s'emploie pas {mode}.").format(
                approach=quote(approach.name), mode=_(MODE_IN[self.mode])
            )
        expected = self.mode
        if approach.kind is ApproachKind.TIR_INSTINCTIF:
            expected = Mode.RANGED
        if weapon.category is not expected:
            errors["attacker.weapon.category"] = _("{weapon} est {category} : il faut {expected}.").format(
                weapon=quote(weapon.name), category=_(WEAPON_KIND[weapon.category]), expected=_(WEAPON_KIND[expected])
            )
        if self.cadence is not Cadence.UNIQUE and not weapon.cadences.allows(self.cadence):
            errors["cadence"] = _("L'arme {weapon} ne permet pas la cadence {cadence}.").format(
                weapon=quote(weapon.name), cadence=quote(self.cadence.label)
            )
        if len(self.defenders) > 1:
            if self.cadence is Cadence.UNIQUE:
                errors["defenders"] = _("Plusieurs défenseurs : seulement en coup par coup ou en rafale.")
            elif self.rapid:
                errors["defenders"] = _("L'attaque rapide vise un seul défenseur.")
        ammo = attacker.ammunition
        if ammo.damage_bonus:
            if not weapon.firearm:
                errors["attacker.ammunition"] = _("Les munitions ne s'emploient qu'avec une arme à feu.")
            elif ammo.compatible and weapon.name != ammo.compatible:
                errors["attacker.ammunition"] = _("La munition {ammo} ne convient pas à l'arme {weapon}.").format(
                    ammo=quote(ammo.name), weapon=quote(weapon.name)
                )
        for i, effect in enumerate(self.defender_effects):
            if effect.target > len(self.defenders):
                errors[f"defender_effects.{i}.target"] = _("Il n'y a pas de défenseur n°{n}.").format(n=effect.target)
        for i, defender in enumerate(self.defenders):
            if defender.defence.context is not self.mode:
                errors[f"defenders.{i}.defence"] = _("La défense {defence} ne répond pas {attack}.").format(
                    defence=quote(defender.defence.name), attack=_(ATTACK_OF[self.mode])
                )
        return errors
