"""Contes de Fées (Féerie): the scenario of one exchange (one attack of one Féerique on another).

Seed ``004_6e592e6a2992f712.txt`` (« Règles de simulation (3) — Le combat ») and
``shared/rules/feerie.md``. Every table of the seed (surface by Taille, allures, couvertures,
éclairement, difficultés, portées, coups spéciaux) comes **in** the scenario as numbers; the
defaults of a field may be the seed's values, nothing else is a table literal. Issue 14: a special
blow and a pace are rules **named** by the seed, so their name carries the seed's numbers
(:data:`SEED_BLOWS`, :data:`SEED_PACES`); a number typed beside the name is an explicit override.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from rulesets.core.french import DEFINITE_M, Grammar, count, quote, signed
from rulesets.core.i18n import _
from rulesets.core.schema import Choice, Spec

ASPECT = Spec(label="Aspect", ge=0, le=60)


class Mode(Choice):
    """Corps à corps or à distance (« Les grandeurs en jeu »)."""

    MELEE = "melee"
    RANGED = "ranged"

    @classmethod
    def labels(cls) -> dict[str, str]:
        return {"melee": _("Corps à corps"), "ranged": _("À distance")}


class AttributeKind(Choice):
    AFFINITE = "affinite"
    POUVOIR = "pouvoir"
    ACCESSOIRE = "accessoire"

    @classmethod
    def labels(cls) -> dict[str, str]:
        return {"affinite": _("Affinité"), "pouvoir": _("Pouvoir (maîtrise)"), "accessoire": _("Accessoire")}


class Pace(Choice):
    """Allure de déplacement (« Déplacement en combat »)."""

    NONE = "none"
    WALK = "marche"
    TROT = "trot"
    RUN = "course"
    SPRINT = "sprint"

    @classmethod
    def labels(cls) -> dict[str, str]:
        return {
            "none": _("Immobile"),
            "marche": _("Marche"),
            "trot": _("Trot"),
            "course": _("Course"),
            "sprint": _("Sprint"),
        }


class CoverMode(Choice):
    """Couverture: no cover, aim at the exposed parts, or strike through the obstacle."""

    NONE = "none"
    EXPOSED = "exposed"
    THROUGH = "through"

    @classmethod
    def labels(cls) -> dict[str, str]:
        return {
            "none": _("Aucune couverture"),
            "exposed": _("Viser les parties exposées"),
            "through": _("Frapper au travers de la couverture"),
        }


class BlowKind(Choice):
    """The ten special blows of the seed (« Les coups spéciaux »); ``NONE`` is an empty form row."""

    NONE = "aucun"
    DISARM = "desarmer"
    TRIP = "faire_tomber"
    ENTANGLE = "entraver"
    STUN = "etourdir"
    HOLD_OFF = "tenir_en_respect"
    CRIPPLE = "handicaper"
    RELENTLESS = "acharnement"
    FRIGHTENING = "coup_effrayant"
    KNOCKBACK = "vol_plane"
    INSIDE_GUARD = "entrer_dans_la_garde"

    @classmethod
    def labels(cls) -> dict[str, str]:
        return {
            "aucun": _("— (aucun)"),
            "desarmer": _("Désarmer"),
            "faire_tomber": _("Faire tomber"),
            "entraver": _("Entraver"),
            "etourdir": _("Étourdir"),
            "tenir_en_respect": _("Tenir en respect"),
            "handicaper": _("Handicaper"),
            "acharnement": _("Acharnement"),
            "coup_effrayant": _("Coup effrayant"),
            "vol_plane": _("Vol plané"),
            "entrer_dans_la_garde": _("Entrer dans la garde"),
        }


@dataclass(frozen=True, slots=True)
class Attribute:
    """An Affinité, a Pouvoir (its maîtrise) or an Accessoire (its bonus), and where it applies.

    The game master ticks the quantities it applies to for this activity (« Conseil des
    concepteurs »: the combinations change with the declared activity).
    """

    name: Annotated[str, Spec(label=_("Nom"), max_length=80)] = ""
    kind: Annotated[AttributeKind, Spec(label=_("Nature"))] = AttributeKind.AFFINITE
    value: Annotated[int, Spec(label=_("Valeur (bonus ou maîtrise)"), ge=-20, le=30)] = 0
    initiative: Annotated[bool, Spec(label=_("S'applique à l'Initiative"))] = False
    attack: Annotated[bool, Spec(label=_("S'applique à l'Attaque"))] = False
    defense: Annotated[bool, Spec(label=_("S'applique à la Défense"))] = False
    damage: Annotated[bool, Spec(label=_("S'applique aux Dommages"))] = False
    soak: Annotated[bool, Spec(label=_("S'applique à l'Encaissement"))] = False

    @property
    def combat(self) -> bool:
        """Applied to a combat competence (Initiative, Attaque, Défense): counts in the tactic cap."""
        return self.initiative or self.attack or self.defense


@dataclass(frozen=True, slots=True)
class Tactic:
    """Zero-sum modifications of the three combat competences (« Les tactiques »)."""

    initiative: Annotated[int, Spec(label=_("Tactique : Initiative"), ge=-40, le=40)] = 0
    attack: Annotated[int, Spec(label=_("Tactique : Attaque"), ge=-40, le=40)] = 0
    defense: Annotated[int, Spec(label=_("Tactique : Défense"), ge=-40, le=40)] = 0

    @property
    def is_declared(self) -> bool:
        return bool(self.initiative or self.attack or self.defense)


def scale_tactic(initiative: int, attack: int, defense: int, reference_cap: int, cap: int) -> Tactic:
    """A named tactic written for ``reference_cap`` (Sire Didimus: 4) scaled to ``cap``.

    Each modification is scaled exactly, then rounded to a neighbouring integer (largest
    remainders first) so that the sum stays zero and no modification exceeds ``cap``.
    """
    from fractions import Fraction

    exact = [Fraction(v * cap, reference_cap) if reference_cap else Fraction(0) for v in (initiative, attack, defense)]
    base = [int(x) for x in exact]  # toward zero
    deficit = -sum(base)
    order = sorted(range(3), key=lambda k: -abs(exact[k] - base[k]))
    for k in order:
        if deficit == 0:
            break
        rest = exact[k] - base[k]
        if rest and (rest > 0) == (deficit > 0):
            step = 1 if deficit > 0 else -1
            base[k] += step
            deficit -= step
    return Tactic(initiative=base[0], attack=base[1], defense=base[2])


@dataclass(frozen=True, slots=True)
class Modifiers:
    """Occasional bonus/malus set by the game master (« bonus/malus occasionnels »)."""

    initiative: Annotated[int, Spec(label=_("Bonus/malus d'Initiative"), ge=-60, le=60)] = 0
    attack: Annotated[int, Spec(label=_("Bonus/malus d'Attaque"), ge=-60, le=60)] = 0
    defense: Annotated[int, Spec(label=_("Bonus/malus de Défense"), ge=-60, le=60)] = 0
    damage: Annotated[int, Spec(label=_("Bonus/malus de Dommages"), ge=-60, le=60)] = 0
    soak: Annotated[int, Spec(label=_("Bonus/malus d'Encaissement"), ge=-60, le=60)] = 0


@dataclass(frozen=True, slots=True)
class Mount:
    """A mount (« Le Combat Monté »); ``mounted`` off means on foot."""

    mounted: Annotated[bool, Spec(label=_("Monté"))] = False
    name: Annotated[str, Spec(label=_("Monture"), max_length=80)] = ""
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom de la monture"))] = field(default_factory=Grammar)
    taille: Annotated[int, Spec(label=_("Taille de la monture"), ge=-5, le=5)] = 1
    habilete: Annotated[int, Spec(label=_("Habileté de la monture"), ge=0, le=60)] = 10
    riding_affinity: Annotated[
        int | None, Spec(label=_("Affinité applicable à la monture (vide : pas de plafond)"), ge=0, le=30)
    ] = None


@dataclass(frozen=True, slots=True)
class Combatant:
    """A Féerique: Aspects, Taille, Essence, and the Attributs applied for this exchange.

    ``grammar`` says how the story names it (issue 15): « le Wichtln », « l'Ogre », « Sire Didimus »;
    without a name the story says « l'attaquant », « le défenseur »."""

    name: Annotated[str, Spec(label=_("Nom"), max_length=80)] = ""
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = field(default_factory=Grammar)
    vigilance: Annotated[int, Spec(label=_("Vigilance"), ge=0, le=60)] = 10
    habilete: Annotated[int, Spec(label=_("Habileté"), ge=0, le=60)] = 10
    puissance: Annotated[int, Spec(label=_("Puissance"), ge=0, le=60)] = 10
    resistance: Annotated[int, Spec(label=_("Résistance"), ge=0, le=60)] = 10
    taille: Annotated[int, Spec(label=_("Taille"), ge=-5, le=5)] = 0
    essence: Annotated[int, Spec(label=_("Essence (Glamour)"), ge=0, le=500)] = 20
    attributes: Annotated[tuple[Attribute, ...], Spec(label=_("Affinités, Pouvoirs et Accessoires"), max_items=16)] = ()
    tactic: Annotated[Tactic, Spec(label=_("Tactique"))] = field(default_factory=Tactic)
    modifiers: Annotated[Modifiers, Spec(label=_("Bonus/malus occasionnels"))] = field(default_factory=Modifiers)
    mount: Annotated[Mount, Spec(label=_("Monture"))] = field(default_factory=Mount)

    def tactic_cap(self) -> int:
        """Sum of the Affinités, maîtrises and Accessoires applied to a combat competence."""
        return sum(abs(a.value) for a in self.attributes if a.combat)

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        for i, a in enumerate(self.attributes):
            # its name as a label (« marteau »), or « Cet Attribut » without one (issue 15)
            label = quote(a.name) if a.name.strip() else _("Cet Attribut")
            if a.attack and a.damage:
                errors[f"attributes.{i}.damage"] = _(
                    "{name} porte déjà sur le jet d'Attaque : il ne peut s'appliquer aussi aux Dommages."
                ).format(name=label)
            if a.defense and a.soak:
                errors[f"attributes.{i}.soak"] = _(
                    "{name} modifie déjà la Défense : il ne peut s'appliquer aussi à l'Encaissement."
                ).format(name=label)
        names = [a.name.casefold() for a in self.attributes if a.name]
        for i, a in enumerate(self.attributes):
            if a.name and names.count(a.name.casefold()) > 1:
                errors[f"attributes.{i}.name"] = _("« {name} » est listé deux fois.").format(name=a.name)
        t = self.tactic
        total = t.initiative + t.attack + t.defense
        if total != 0:
            errors["tactic"] = _("La somme des modifications de tactique doit être nulle (reçu {total}).").format(
                total=signed(total)
            )
        cap = self.tactic_cap()
        for key, value, label in (
            ("initiative", t.initiative, _("Initiative")),
            ("attack", t.attack, _("Attaque")),
            ("defense", t.defense, _("Défense")),
        ):
            if abs(value) > cap:
                errors[f"tactic.{key}"] = _(
                    "{label} : une modification de tactique ne peut dépasser le total des Affinités et maîtrises "
                    "appliquées ({cap}), reçu {value}."
                ).format(label=label, cap=cap, value=signed(value))
        return errors


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """The dice term of a test: ``plus`` dice minus ``minus`` dice of ``sides`` faces (default 1d20 − 1d20)."""

    plus: Annotated[int, Spec(label=_("Dés ajoutés"), ge=1, le=3)] = 1
    minus: Annotated[int, Spec(label=_("Dés retranchés"), ge=0, le=3)] = 1
    sides: Annotated[int, Spec(label=_("Faces des dés"), ge=2, le=100)] = 20

    @property
    def low(self) -> int:
        return self.plus - self.minus * self.sides

    @property
    def high(self) -> int:
        return self.plus * self.sides - self.minus

    def describe(self) -> str:
        text = f"{self.plus}d{self.sides}"
        return text + (f" − {self.minus}d{self.sides}" if self.minus else "")


@dataclass(frozen=True, slots=True)
class SurfaceRow:
    """One row of the surface-by-Taille table (« Adversaires multiples »)."""

    taille_min: Annotated[int, Spec(label=_("Taille du défenseur (de)"), ge=-5, le=5)] = 0
    taille_max: Annotated[int, Spec(label=_("Taille du défenseur (à)"), ge=-5, le=5)] = 0
    surface: Annotated[int, Spec(label=_("Surface d'un angle d'attaque"), ge=1, le=1000)] = 4


SEED_SURFACES = (
    SurfaceRow(-5, -4, 1),
    SurfaceRow(-3, -2, 2),
    SurfaceRow(-1, 1, 4),
    SurfaceRow(2, 3, 8),
    SurfaceRow(4, 5, 16),
)


@dataclass(frozen=True, slots=True)
class PaceRule:
    """The numbers of one allure: coordination malus, charge bonus to Dommages, distance divisor."""

    malus: int
    charge_bonus: int
    divisor: int


# « Déplacement en combat »: « (Habileté + Taille)/4 Marche ; (Habileté + Taille)/3 Trot −4 ;
# (Habileté + Taille)/2 Course −8 ; Habileté + Taille Sprint −12 » and, for a charge, « Les Dommages ont
# un bonus de 2 si l'attaquant trotte, de 4 s'il court et de 6 s'il sprinte (aucun bonus s'il marche) ».
# Issue 14: the pace's name carries these numbers, whatever path chose it.
SEED_PACES: dict[Pace, PaceRule] = {
    Pace.NONE: PaceRule(0, 0, 0),
    Pace.WALK: PaceRule(0, 0, 4),
    Pace.TROT: PaceRule(-4, 2, 3),
    Pace.RUN: PaceRule(-8, 4, 2),
    Pace.SPRINT: PaceRule(-12, 6, 1),
}


@dataclass(frozen=True, slots=True)
class Movement:
    """An allure (« Déplacement en combat »); its numbers are the seed's for that allure
    (:data:`SEED_PACES`) unless one is typed, an explicit override."""

    pace: Annotated[Pace, Spec(label=_("Allure"))] = Pace.NONE
    malus: Annotated[int | None, Spec(label=_("Malus de coordination (vide : celui de l'allure)"), ge=-30, le=0)] = None
    charge_bonus: Annotated[
        int | None, Spec(label=_("Bonus de charge aux Dommages (vide : celui de l'allure)"), ge=0, le=20)
    ] = None
    divisor: Annotated[
        int | None,
        Spec(label=_("Diviseur de distance : (Habileté + Taille) ÷ n (vide : celui de l'allure)"), ge=0, le=10),
    ] = None

    @property
    def rule(self) -> PaceRule:
        """The seed's numbers for this allure."""
        return SEED_PACES[self.pace]

    @property
    def numbers(self) -> PaceRule:
        """The numbers applied: the seed's, or the typed override of each."""
        r = self.rule
        return PaceRule(
            r.malus if self.malus is None else self.malus,
            r.charge_bonus if self.charge_bonus is None else self.charge_bonus,
            r.divisor if self.divisor is None else self.divisor,
        )

    def overridden(self, key: str) -> bool:
        """A typed number that differs from the seed's for this allure (shown as such)."""
        typed = getattr(self, key)
        return typed is not None and typed != getattr(self.rule, key)


@dataclass(frozen=True, slots=True)
class Cover:
    """Couverture of the defender: hit the exposed part, or strike through the obstacle."""

    mode: Annotated[CoverMode, Spec(label=_("Couverture"))] = CoverMode.NONE
    material: Annotated[str, Spec(label=_("Matériau"), max_length=80)] = ""
    exposed_modifier: Annotated[
        int, Spec(label=_("Modificateur de Défense de taille apparente (parties exposées)"), ge=-8, le=40)
    ] = 0
    quarters: Annotated[int, Spec(label=_("Proportion de l'Encaissement du propriétaire (en quarts)"), ge=0, le=4)] = 0
    owner_encaissement: Annotated[int, Spec(label=_("Encaissement du propriétaire du Domaine"), ge=0, le=100)] = 0
    influence_bonus: Annotated[
        int | None, Spec(label=_("Bonus d'Encaissement d'une couverture créée par Influence"), ge=0, le=100)
    ] = None
    opacity_malus: Annotated[int, Spec(label=_("Malus au toucher (opaque −8, semi-transparente −4)"), ge=-20, le=0)] = 0


@dataclass(frozen=True, slots=True)
class BlowRule:
    """The numbers of one special blow: Attaque malus (and at range, ``None``: the same), Défense malus
    of the attacker, and the value of its effect (a malus inflicted, or Dommages points per unit)."""

    attack_malus: int
    ranged_attack_malus: int | None
    defense_malus: int
    effect_value: int


# « Exemples de coups spéciaux » (Nom, Malus, Effet): Désarmer −8; Faire tomber −6, « un malus de −4 à
# toutes ses activités »; Entraver −8, « A distance […] Le malus est alors de –12 »; Etourdir −4;
# Tenir en respect « −12 + (Taille de l'assaillant – Taille du défenseur) », then « un malus de −8 à son
# Attaque »; Handicaper −12; Acharnement « −8 en Défense »; Coup effrayant −4, « de 1 […] par 4 points de
# Dommages »; Vol plané −8, « une unité de distance par 4 points de Dommages »; Entrer dans la garde
# « −12 + (Taille du défenseur – Taille de l'assaillant) », then « un malus de −8 à son Attaque ».
# The Taille terms of the two guard blows are added by the engine. Issue 14: the blow's name carries
# these numbers, whatever path chose it.
SEED_BLOWS: dict[BlowKind, BlowRule] = {
    BlowKind.NONE: BlowRule(0, None, 0, 0),
    BlowKind.DISARM: BlowRule(-8, None, 0, 0),
    BlowKind.TRIP: BlowRule(-6, None, 0, 4),
    BlowKind.ENTANGLE: BlowRule(-8, -12, 0, 0),
    BlowKind.STUN: BlowRule(-4, None, 0, 0),
    BlowKind.HOLD_OFF: BlowRule(-12, None, 0, 8),
    BlowKind.CRIPPLE: BlowRule(-12, None, 0, 0),
    BlowKind.RELENTLESS: BlowRule(0, None, -8, 0),
    BlowKind.FRIGHTENING: BlowRule(-4, None, 0, 4),
    BlowKind.KNOCKBACK: BlowRule(-8, None, 0, 4),
    BlowKind.INSIDE_GUARD: BlowRule(-12, None, 0, 8),
}
# the blows whose effect reads ``effect_value`` (the others have none: a typed value is refused)
BLOWS_WITH_EFFECT_VALUE = frozenset(k for k, r in SEED_BLOWS.items() if r.effect_value)
BLOWS_PER_POINTS = frozenset({BlowKind.FRIGHTENING, BlowKind.KNOCKBACK})  # « par 4 points de Dommages »


@dataclass(frozen=True, slots=True)
class Blow:
    """A special blow (« Les coups spéciaux »); its numbers are the seed's for that blow
    (:data:`SEED_BLOWS`) unless one is typed, an explicit override."""

    kind: Annotated[BlowKind, Spec(label=_("Coup spécial"))] = BlowKind.NONE
    attack_malus: Annotated[int | None, Spec(label=_("Malus d'Attaque (vide : celui du coup)"), ge=-40, le=0)] = None
    ranged_attack_malus: Annotated[
        int | None, Spec(label=_("Malus d'Attaque à distance (vide : celui du coup)"), ge=-40, le=0)
    ] = None
    defense_malus: Annotated[
        int | None, Spec(label=_("Malus de Défense de l'attaquant (vide : celui du coup)"), ge=-40, le=0)
    ] = None
    effect_value: Annotated[
        int | None,
        Spec(label=_("Valeur de l'effet : malus infligé, points par unité (vide : celle du coup)"), ge=0, le=40),
    ] = None

    @property
    def rule(self) -> BlowRule:
        """The seed's numbers for this blow."""
        return SEED_BLOWS[self.kind]

    @property
    def numbers(self) -> BlowRule:
        """The numbers applied: the seed's, or the typed override of each. At range without a ranged
        malus of its own (typed or the seed's), the blow takes its Attaque malus."""
        r = self.rule
        attack = r.attack_malus if self.attack_malus is None else self.attack_malus
        ranged = r.ranged_attack_malus if self.ranged_attack_malus is None else self.ranged_attack_malus
        return BlowRule(
            attack,
            ranged,
            r.defense_malus if self.defense_malus is None else self.defense_malus,
            r.effect_value if self.effect_value is None else self.effect_value,
        )

    def attack_malus_for(self, ranged: bool) -> int:
        n = self.numbers
        return n.ranged_attack_malus if ranged and n.ranged_attack_malus is not None else n.attack_malus

    def overridden(self, key: str) -> bool:
        """A typed number that differs from the seed's for this blow (shown as such)."""
        typed = getattr(self, key)
        return typed is not None and typed != getattr(self.rule, key)


@dataclass(frozen=True, slots=True)
class CoAttacker:
    """Other melee assailants of the defender: how many, of which Taille."""

    count: Annotated[int, Spec(label=_("Nombre d'autres assaillants"), ge=0, le=40)] = 0
    taille: Annotated[int, Spec(label=_("Leur Taille"), ge=-5, le=5)] = 0
    name: Annotated[str, Spec(label=_("Qui"), max_length=80)] = ""


@dataclass(frozen=True, slots=True)
class Situation:
    """Diverses situations de combat."""

    surprised: Annotated[bool, Spec(label=_("Défenseur surpris"))] = False
    ambush_margin: Annotated[
        int, Spec(label=_("Marge de dissimulation de l'assaillant (défenseur sur ses gardes)"), ge=0, le=60)
    ] = 0
    open_angles: Annotated[
        int, Spec(label=_("Angles d'attaque ouverts (6 au plus, 2 dans un couloir)"), ge=1, le=6)
    ] = 4
    occupied_angles: Annotated[
        int | None,
        Spec(label=_("Angles occupés par les assaillants (vide : entassés dans le moins d'angles)"), ge=1, le=6),
    ] = None
    co_attackers: Annotated[tuple[CoAttacker, ...], Spec(label=_("Autres assaillants au contact"), max_items=10)] = ()
    surfaces: Annotated[
        tuple[SurfaceRow, ...], Spec(label=_("Table des surfaces par Taille"), min_items=1, max_items=11)
    ] = SEED_SURFACES
    movement: Annotated[Movement, Spec(label=_("Déplacement de l'attaquant"))] = field(default_factory=Movement)
    charge: Annotated[bool, Spec(label=_("Charge (déplacement en ligne droite)"))] = False
    target_movement: Annotated[Movement, Spec(label=_("Déplacement de la cible (à distance)"))] = field(
        default_factory=Movement
    )
    cover: Annotated[Cover, Spec(label=_("Couverture"))] = field(default_factory=Cover)
    lighting: Annotated[int, Spec(label=_("Malus d'éclairement (au contact)"), ge=-20, le=0)] = 0
    difficulty: Annotated[int, Spec(label=_("Difficulté du tir (modificateur de Défense)"), ge=-8, le=40)] = 0
    range_modifier: Annotated[int, Spec(label=_("Portée (modificateur de Défense)"), ge=-4, le=40)] = 0
    aim_ranks: Annotated[int, Spec(label=_("Rangs de visée"), ge=0, le=8)] = 0
    terrain: Annotated[int, Spec(label=_("Encombrement du terrain"), ge=-30, le=10)] = 0
    defender_helpless: Annotated[bool, Spec(label=_("Défenseur sans défense (endormi, paralysé…)"))] = False
    target_inanimate: Annotated[bool, Spec(label=_("Cible : objet inanimé"))] = False
    object_encaissement: Annotated[int, Spec(label=_("Encaissement de l'objet"), ge=0, le=200)] = 0
    defender_passive: Annotated[bool, Spec(label=_("Défenseur passif (n'agit pas pendant l'Action)"))] = False
    defender_rider_passive: Annotated[
        bool, Spec(label=_("Cavalier défenseur qui n'attaque pas (Défense = Habileté de la monture − sa Taille)"))
    ] = False


def _wichtln() -> Combatant:
    return Combatant(
        name="Wichtln",
        grammar=DEFINITE_M,
        vigilance=15,
        habilete=20,
        puissance=10,
        resistance=15,
        taille=-2,
        essence=20,
        attributes=(
            Attribute("marteau", AttributeKind.ACCESSOIRE, 3, attack=True, defense=True),
            Attribute("tablier de cuir", AttributeKind.ACCESSOIRE, 2, soak=True),
            Attribute("force surnaturelle", AttributeKind.POUVOIR, 4, damage=True),
        ),
    )


def _redcap() -> Combatant:
    return Combatant(
        name="Redcap",
        grammar=DEFINITE_M,
        vigilance=14,
        habilete=16,
        puissance=14,
        resistance=14,
        taille=-1,
        essence=25,
        attributes=(Attribute("hache", AttributeKind.AFFINITE, 3, attack=True, defense=True),),
    )


@dataclass(frozen=True, slots=True)
class Exchange:
    """One attack of a Féerique on another (or on an object), with every option of the seed."""

    attacker: Annotated[Combatant, Spec(label=_("Attaquant"))] = field(default_factory=_wichtln)
    defender: Annotated[Combatant, Spec(label=_("Défenseur"))] = field(default_factory=_redcap)
    mode: Annotated[Mode, Spec(label=_("Attaque"))] = Mode.MELEE
    physical: Annotated[bool, Spec(label=_("Conflit physique (la Taille compte)"))] = True
    blows: Annotated[tuple[Blow, ...], Spec(label=_("Coups spéciaux"), max_items=10)] = ()
    previous_loss: Annotated[
        int, Spec(label=_("Pertes d'Essence infligées à l'activité précédente (acharnement)"), ge=0, le=500)
    ] = 0
    situation: Annotated[Situation, Spec(label=_("Situation"))] = field(default_factory=Situation)
    roll: Annotated[DiceTerm, Spec(label=_("Terme de dés"))] = field(default_factory=DiceTerm)
    term: Annotated[int | None, Spec(label=_("Terme de dés saisi (vide : lire les dés)"), ge=-300, le=300)] = None
    incident_threshold: Annotated[
        int, Spec(label=_("Marge d'échec d'un incident (très mauvais échec)"), ge=-100, le=-1)
    ] = -10

    @property
    def ranged(self) -> bool:
        return self.mode is Mode.RANGED

    @property
    def active_blows(self) -> tuple[Blow, ...]:
        """The declared special blows (empty form rows left out)."""
        return tuple(b for b in self.blows if b.kind is not BlowKind.NONE)

    @property
    def co_attacker_tailles(self) -> tuple[int, ...]:
        return tuple(c.taille for c in self.situation.co_attackers for _i in range(c.count))

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        s = self.situation
        if self.term is not None and not self.roll.low <= self.term <= self.roll.high:
            errors["term"] = _("Le terme de dés {dice} va de {low} à {high} (reçu {value}).").format(
                dice=self.roll.describe(),
                low=signed(self.roll.low, plus=""),
                high=signed(self.roll.high, plus=""),
                value=signed(self.term, plus=""),
            )
        if s.defender_passive and self.defender.tactic.is_declared:
            errors["defender.tactic"] = _("On ne peut déclarer de tactique que si l'on agit : ce défenseur est passif.")
        if s.surprised and self.defender.tactic.is_declared:
            errors["defender.tactic"] = _("Un personnage surpris ne peut pas recourir à une tactique.")
        if self.defender.mount.mounted and s.open_angles > 5:
            # « Le cavalier et sa monture ont chacun un angle d'attaque protégé »
            errors["situation.open_angles"] = _(
                "Un cavalier a un angle d'attaque protégé (par en dessous) : 5 angles ouverts au plus."
            )
        kinds = [b.kind for b in self.blows]
        for i, b in enumerate(self.blows):
            if b.kind is BlowKind.NONE:
                continue
            if kinds.count(b.kind) > 1 and kinds.index(b.kind) != i:
                errors[f"blows.{i}.kind"] = _("Ce coup spécial est déjà déclaré.")
            if b.kind is BlowKind.HOLD_OFF and self.attacker.taille < self.defender.taille:
                errors[f"blows.{i}.kind"] = _(
                    "« Tenir en respect » ne fonctionne que sur un adversaire de Taille inférieure ou égale."
                )
            if b.kind is BlowKind.INSIDE_GUARD and self.attacker.taille > self.defender.taille:
                errors[f"blows.{i}.kind"] = _(
                    "« Entrer dans la garde » ne fonctionne que sur un adversaire de Taille supérieure ou égale."
                )
            if b.kind is BlowKind.RELENTLESS and self.previous_loss <= 0:
                errors["previous_loss"] = _(
                    "L'acharnement demande des pertes d'Essence infligées lors de l'activité précédente."
                )
            errors.update(_blow_value_errors(i, b))
        if self.active_blows and s.target_inanimate:
            errors["blows"] = _("Un objet inanimé ne subit pas de coup spécial : on effectue un jet de Dommages.")
        if not self.ranged:
            for key, value in (
                ("aim_ranks", s.aim_ranks),
                ("difficulty", s.difficulty),
                ("range_modifier", s.range_modifier),
                ("terrain", s.terrain),
            ):
                if value:
                    errors[f"situation.{key}"] = _("Ne s'applique qu'à une attaque à distance.")
            if s.target_movement.pace is not Pace.NONE:
                errors["situation.target_movement.pace"] = _("Ne s'applique qu'à une attaque à distance.")
        else:
            if s.charge:
                errors["situation.charge"] = _("Une charge est une attaque au corps à corps.")
            if self.co_attacker_tailles:
                errors["situation.co_attackers"] = _(
                    "Les limites en nombre d'adversaires ne concernent pas les attaques à distance."
                )
        if s.charge and s.movement.pace in (Pace.NONE,):
            errors["situation.charge"] = _("Une charge suppose un déplacement de l'attaquant.")
        for key, mv in (("movement", s.movement), ("target_movement", s.target_movement)):
            if mv.pace is Pace.NONE:
                for name in ("malus", "charge_bonus", "divisor"):
                    if getattr(mv, name):
                        errors[f"situation.{key}.{name}"] = _(
                            "Immobile : aucune valeur de déplacement (laisser vide ou 0)."
                        )
        if not self.ranged and self.co_attacker_tailles:
            errors.update(self._angle_errors())
        elif s.occupied_angles is not None:
            errors["situation.occupied_angles"] = (
                _("Les angles d'attaque ne comptent qu'au corps à corps : laisser vide.")
                if self.ranged
                else _("Sans autre assaillant au contact, aucun angle à répartir : laisser vide.")
            )
        if s.defender_rider_passive and not self.defender.mount.mounted:
            errors["situation.defender_rider_passive"] = _("Le défenseur n'a pas de monture.")
        if s.defender_helpless and s.target_inanimate:
            errors["situation.defender_helpless"] = _("Choisir : être vivant sans défense ou objet inanimé.")
        for i, row in enumerate(s.surfaces):
            if row.taille_min > row.taille_max:
                errors[f"situation.surfaces.{i}"] = _("La Taille « de » doit être au plus la Taille « à ».")
        cover = s.cover
        if cover.mode is CoverMode.THROUGH and cover.quarters == 0 and cover.influence_bonus is None:
            errors["situation.cover.quarters"] = _(
                "Indiquer la solidité de la couverture (en quarts de l'Encaissement du propriétaire) "
                "ou le bonus d'une couverture créée par Influence."
            )
        return errors

    def _angle_errors(self) -> dict[str, str]:
        """« Adversaires multiples »: an assailant who finds no room is refused on its field (never a
        story of a malus not applied), and the angles the game master sets must be possible."""
        from rulesets.feerie.angles import crowding  # angles reads this module's SurfaceRow
        from rulesets.feerie.speech import who

        s = self.situation
        d = who(self.defender.name, self.defender.grammar, _("défenseur"))
        crowd = crowding(
            self.defender.taille, (self.attacker.taille, *self.co_attacker_tailles), s.open_angles, s.surfaces
        )
        angles = count(s.open_angles, _("angle ouvert"), _("angles ouverts"))
        errors: dict[str, str] = {}
        if crowd.refused:
            rows: list[int | None] = [None] + [i for i, c in enumerate(s.co_attackers) for _k in range(c.count)]
            refused: dict[int | None, int] = {}
            for k in crowd.refused:
                refused[rows[k]] = refused.get(rows[k], 0) + 1
            giant = self.attacker.taille if crowd.admitted == (0,) else self.co_attacker_tailles[crowd.admitted[0] - 1]
            for row, n in refused.items():
                path = "situation.co_attackers" if row is None else f"situation.co_attackers.{row}.count"
                if crowd.sole_giant:
                    # « une seule créature occupe plus de la totalité des positions offertes […] elle est
                    # la seule à pouvoir attaquer »
                    errors[path] = _(
                        "Un assaillant de Taille {t} occupe à lui seul plus que les {angles} {d.de} "
                        "(surface {s} chacun) : il est le seul à pouvoir attaquer ; {n} de trop."
                    ).format(t=signed(giant), angles=angles, d=d, s=crowd.angle_surface, n=n)
                elif row is None:
                    errors[path] = _(
                        "Plus de place pour l'attaquant : les autres assaillants occupent les {angles} {d.de} "
                        "(surface {s} chacun)."
                    ).format(angles=angles, d=d, s=crowd.angle_surface)
                else:
                    errors[path] = _(
                        "Plus de place autour {d.de} ({angles}, surface {s} chacun) : {n} de trop."
                    ).format(d=d, angles=angles, s=crowd.angle_surface, n=n)
        elif s.occupied_angles is not None and not crowd.fewest <= s.occupied_angles <= crowd.most:
            errors["situation.occupied_angles"] = (
                _("Ces assaillants occupent {n} {d.de} (reçu {v}).").format(
                    n=count(crowd.fewest, _("angle"), _("angles")), d=d, v=s.occupied_angles
                )
                if crowd.fewest == crowd.most
                else _("Ces assaillants occupent de {low} à {high} angles {d.de} (reçu {v}).").format(
                    low=crowd.fewest, high=crowd.most, d=d, v=s.occupied_angles
                )
            )
        return errors


def _blow_value_errors(i: int, b: Blow) -> dict[str, str]:
    """A typed effect value the blow does not read, or a « per points » value of 0, is refused."""
    name = quote(b.kind.label)
    if b.kind not in BLOWS_WITH_EFFECT_VALUE and b.effect_value:
        return {f"blows.{i}.effect_value": _("{blow} n'a pas de valeur d'effet : laisser vide ou 0.").format(blow=name)}
    if b.kind in BLOWS_PER_POINTS and b.effect_value == 0:
        return {
            f"blows.{i}.effect_value": _(
                "{blow} compte par tranche de points de Dommages : une tranche de 0 n'a pas de sens (la règle : {n})."
            ).format(blow=name, n=b.rule.effect_value)
        }
    return {}
