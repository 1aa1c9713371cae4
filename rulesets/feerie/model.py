"""Contes de Fées (Féerie): the scenario of one exchange (one attack of one Féerique on another).

Seed ``004_6e592e6a2992f712.txt`` (« Règles de simulation (3) — Le combat ») and
``shared/rules/feerie.md``. Every table of the seed (surface by Taille, allures, couvertures,
éclairement, difficultés, portées, coups spéciaux) comes **in** the scenario as numbers; the
defaults of a field may be the seed's values, nothing else is a table literal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from rulesets.core.french import DEFINITE_M, Grammar, quote, signed
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
class Movement:
    """An allure and its row of the movement table (« Déplacement en combat »)."""

    pace: Annotated[Pace, Spec(label=_("Allure"))] = Pace.NONE
    malus: Annotated[int, Spec(label=_("Malus de coordination"), ge=-30, le=0)] = 0
    charge_bonus: Annotated[int, Spec(label=_("Bonus de charge aux Dommages"), ge=0, le=20)] = 0
    divisor: Annotated[
        int, Spec(label=_("Diviseur de distance : (Habileté + Taille) ÷ n, 0 si immobile"), ge=0, le=10)
    ] = 0


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
class Blow:
    """A special blow and its row of the table (« Les coups spéciaux »)."""

    kind: Annotated[BlowKind, Spec(label=_("Coup spécial"))] = BlowKind.NONE
    attack_malus: Annotated[int, Spec(label=_("Malus d'Attaque"), ge=-40, le=0)] = 0
    ranged_attack_malus: Annotated[
        int | None, Spec(label=_("Malus d'Attaque à distance (vide : le même)"), ge=-40, le=0)
    ] = None
    defense_malus: Annotated[int, Spec(label=_("Malus de Défense de l'attaquant"), ge=-40, le=0)] = 0
    effect_value: Annotated[int, Spec(label=_("Valeur de l'effet (malus infligé, points par unité)"), ge=0, le=40)] = 0


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
