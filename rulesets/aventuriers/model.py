"""Aventuriers — the scenario of one exchange (seed ``001_98d48faccdd02c66``).

Everything the rules read comes in here as data: the die types and their faces (💥 dégâts,
🛡 boucliers, ⚡ éclairs per face), the attack dice of the weapon, spell or monster card, the
defence dice of the protections worn or of the card, PV, stamina and PX, the reaction talents,
and the small board situation (relative squares and facings, engagement). The engine holds no
table literal; the defaults below are only the *default* values of fields (faces marked
"à vérifier sur vos dés").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated

from rulesets.core.french import DEFINITE_M, Grammar, count, join
from rulesets.core.i18n import _
from rulesets.core.schema import Choice, Spec

MAX_POOL = 10  # dice in one roll: far above any card, keeps odds instant
MAX_SYMBOLS = 4  # symbols of one kind on one face
MAX_RANGE = 12  # squares between the attacker and the target on the helper grid


class Side(Choice):
    """Aventurier (a player) or Monstre (the Maître des Ombres)."""

    AVENTURIER = "aventurier"
    MONSTRE = "monstre"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"aventurier": _("Aventurier"), "monstre": _("Monstre")}


class Reach(Choice):
    """The four combat actions of Livret Aventure p. 17: a spell is a weapon with ``spell``."""

    MELEE = "melee"
    RANGED = "distance"
    HYBRID = "hybride"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"melee": _("Mêlée"), "distance": _("À distance"), "hybride": _("Hybride (mêlée ou distance)")}


class Mode(Choice):
    """How this attack is made (a hybrid weapon chooses)."""

    MELEE = "melee"
    RANGED = "distance"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"melee": _("Attaque de mêlée"), "distance": _("Attaque à distance")}


class Action(Choice):
    """What happens in this exchange."""

    ATTACK = "attaque"
    LEAVE_ZONE = "sortie_de_zone"
    PHASE_START = "debut_de_phase"
    SUCCESS_TEST = "test_de_reussite"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "attaque": _("Action de combat (attaque ou sort)"),
            "sortie_de_zone": _("La cible sort de la zone d'attaque (Attaque éclair)"),
            "debut_de_phase": _("Début de la phase des Aventuriers (Attaque d'opportunité)"),
            "test_de_reussite": _("Test de réussite (dé bleu)"),
        }


class Facing(Choice):
    """Direction of a figure's gaze on the grid (north is the top of the picker)."""

    NORTH = "nord"
    EAST = "est"
    SOUTH = "sud"
    WEST = "ouest"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"nord": _("Nord ↑"), "est": _("Est →"), "sud": _("Sud ↓"), "ouest": _("Ouest ←")}


class Entry(Choice):
    """How the game master gives the rolls read at the table."""

    DICE = "des"
    TOTALS = "totaux"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"des": _("Dé par dé (ou lancés par le serveur)"), "totaux": _("Totaux de symboles lus sur les dés")}


class ZoneShape(Choice):
    """Which three squares form the attack zone (see docs/rules/aventuriers.md)."""

    FRONT = "avant"
    CROSS = "croix"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "avant": _("Avant-gauche, avant, avant-droite (décision du projet)"),
            "croix": _("Avant, gauche, droite (lecture littérale)"),
        }


Count = Annotated[int, Spec(label=_("Nombre"), ge=0, le=MAX_SYMBOLS)]


@dataclass(frozen=True, slots=True)
class Face:
    """One face of a combat die: how many 💥, 🛡 and ⚡ it shows."""

    damage: Annotated[int, Spec(label=_("Dégâts 💥"), ge=0, le=MAX_SYMBOLS)] = 0
    shield: Annotated[int, Spec(label=_("Boucliers 🛡"), ge=0, le=MAX_SYMBOLS)] = 0
    lightning: Annotated[int, Spec(label=_("Éclairs ⚡"), ge=0, le=MAX_SYMBOLS)] = 0

    def describe(self) -> str:
        parts = [("💥", self.damage), ("🛡", self.shield), ("⚡", self.lightning)]
        text = " ".join(sym * n for sym, n in parts if n)
        return text or _("vierge")


@dataclass(frozen=True, slots=True)
class DieType:
    """A combat die: its code (``bleu``), its name and its faces (equally likely)."""

    key: Annotated[str, Spec(label=_("Code du dé"), max_length=20)]
    name: Annotated[str, Spec(label=_("Nom du dé"), max_length=40)]
    faces: Annotated[tuple[Face, ...], Spec(label=_("Faces"), min_items=2, max_items=12)]


def _f(damage: int = 0, shield: int = 0, lightning: int = 0) -> Face:
    return Face(damage=damage, shield=shield, lightning=lightning)


# Default faces, "à vérifier sur vos dés": the seed names the dice, not their faces.
BLACK = DieType(
    key="noir",
    name=_("Dé noir"),
    faces=(_f(1), _f(2), _f(3), _f(shield=1), _f(shield=2), _f(1, 1, 1)),
)
BLUE = DieType(
    key="bleu",
    name=_("Dé bleu"),
    faces=(_f(1), _f(1, lightning=1), _f(2), _f(shield=1), _f(shield=1, lightning=1), _f(lightning=2)),
)
DEFAULT_DICE = (BLACK, BLUE)


@dataclass(frozen=True, slots=True)
class DiceGroup:
    """``count`` dice of one type in a roll; ``protection`` marks the dice of an equipped
    protection (they come first in a flash defence)."""

    die: Annotated[str, Spec(label=_("Dé"), max_length=20)] = "bleu"
    count: Annotated[int, Spec(label=_("Nombre de dés"), ge=0, le=MAX_POOL)] = 1
    protection: Annotated[bool, Spec(label=_("Dés de protection équipée"))] = False


@dataclass(frozen=True, slots=True)
class Weapon:
    """The weapon or spell of an Aventurier, or the attack of a monster card."""

    name: Annotated[str, Spec(label=_("Arme ou sort"), max_length=60)] = _("Épée")
    reach: Annotated[Reach, Spec(label=_("Type d'attaque"))] = Reach.MELEE
    spell: Annotated[bool, Spec(label=_("C'est un sort (Magie)"))] = False
    dice: Annotated[tuple[DiceGroup, ...], Spec(label=_("Jet d'attaque"), max_items=4)] = (DiceGroup("bleu", 2),)
    diagonals: Annotated[bool, Spec(label=_("Ajoute les diagonales à la zone d'attaque"))] = False
    unblockable: Annotated[bool, Spec(label=_("Dégâts imparables"))] = False
    flash: Annotated[bool, Spec(label=_("Inflige des dégâts-éclairs"))] = False


@dataclass(frozen=True, slots=True)
class Fighter:
    """An Aventurier (feuille de personnage) or a Monstre (carte Monstre).

    ``grammar`` says how the texts say ``name`` (issue 15): a proper name by default (« Elwen »),
    a common noun with its article for a bestiary monster (« le Gobelin », « l'Araignée géante »).
    The default name « Aventurier » is a role, said « l'aventurier » whatever its grammar
    (:func:`rulesets.aventuriers.speech.figure_noun`, over :func:`rulesets.core.french.named`)."""

    name: Annotated[str, Spec(label=_("Nom"), max_length=60)] = _("Aventurier")
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = field(default_factory=Grammar)
    side: Annotated[Side, Spec(label=_("Camp"))] = Side.AVENTURIER
    pv: Annotated[int, Spec(label=_("PV actuels"), ge=1, le=99)] = 10
    stamina: Annotated[int, Spec(label=_("Stamina actuelle"), ge=0, le=99)] = 0
    stamina_max: Annotated[int, Spec(label=_("Stamina maximale (0 = sans limite)"), ge=0, le=99)] = 0
    px: Annotated[int, Spec(label=_("PX de la carte du monstre"), ge=0, le=999)] = 0
    weapon: Annotated[Weapon, Spec(label=_("Arme, sort ou attaque"))] = field(default_factory=Weapon)
    defence: Annotated[tuple[DiceGroup, ...], Spec(label=_("Jet de défense"), max_items=4)] = (
        DiceGroup("noir", 1, protection=True),
        DiceGroup("bleu", 1),
    )
    riposte: Annotated[bool, Spec(label=_("Talent : Riposte"))] = False
    contrecoup: Annotated[bool, Spec(label=_("Talent : Contrecoup"))] = False
    attaque_eclair: Annotated[bool, Spec(label=_("Talent : Attaque éclair"))] = False
    attaque_opportunite: Annotated[bool, Spec(label=_("Talent : Attaque d'opportunité"))] = False
    coup_bas: Annotated[bool, Spec(label=_("Talent : Coup bas"))] = False

    @property
    def is_aventurier(self) -> bool:
        return self.side is Side.AVENTURIER

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        if self.stamina_max and self.stamina > self.stamina_max:
            errors["stamina"] = _("Stamina actuelle : dépasse la stamina maximale ({max}).").format(
                max=self.stamina_max
            )
        if self.contrecoup and not self.riposte:
            errors["contrecoup"] = _("Talent : Contrecoup : il s'ajoute à la Riposte, cochez aussi Riposte.")
        return errors


@dataclass(frozen=True, slots=True)
class Board:
    """The helper grid: the target on the centre square, the attacker ``dx`` squares east and
    ``dy`` squares south of it (negative: west, north), both facings, and the engagement kept
    between exchanges."""

    dx: Annotated[int, Spec(label=_("Attaquant : colonnes vers l'est"), ge=-MAX_RANGE, le=MAX_RANGE)] = 0
    dy: Annotated[int, Spec(label=_("Attaquant : lignes vers le sud"), ge=-MAX_RANGE, le=MAX_RANGE)] = -1
    attacker_facing: Annotated[Facing, Spec(label=_("Orientation de l'attaquant"))] = Facing.SOUTH
    target_facing: Annotated[Facing, Spec(label=_("Orientation de la cible"))] = Facing.NORTH
    obstacle: Annotated[bool, Spec(label=_("Mur ou porte fermée entre les deux cases"))] = False
    line_of_sight: Annotated[bool, Spec(label=_("Ligne de vue dégagée (appréciation du MJ)"))] = True
    engaged_together: Annotated[bool, Spec(label=_("Attaquant et cible engagés ensemble"))] = False
    attacker_engaged_other: Annotated[bool, Spec(label=_("Attaquant engagé avec un autre ennemi"))] = False
    enforce: Annotated[bool, Spec(label=_("Appliquer les zones (sinon simple avis)"))] = True

    def check(self) -> dict[str, str]:
        if self.dx == 0 and self.dy == 0:
            return {"dx": _("Attaquant : il ne peut pas occuper la case de la cible.")}
        return {}


@dataclass(frozen=True, slots=True)
class Totals:
    """Symbols read on a roll at the table (entry by totals)."""

    damage: Annotated[int, Spec(label=_("Total 💥"), ge=0, le=MAX_POOL * MAX_SYMBOLS)] = 0
    shield: Annotated[int, Spec(label=_("Total 🛡"), ge=0, le=MAX_POOL * MAX_SYMBOLS)] = 0
    lightning: Annotated[int, Spec(label=_("Total ⚡"), ge=0, le=MAX_POOL * MAX_SYMBOLS)] = 0


@dataclass(frozen=True, slots=True)
class Rules:
    """Settings where the seed is silent (docs/rules/aventuriers.md): visible, never hidden."""

    zone_shape: Annotated[ZoneShape, Spec(label=_("Forme de la zone d'attaque"))] = ZoneShape.FRONT
    coup_bas_bonus: Annotated[int, Spec(label=_("Coup bas : dégâts ajoutés à une attaque de dos"), ge=0, le=6)] = 1
    contrecoup_without_shield: Annotated[
        bool, Spec(label=_("Contrecoup même si la Riposte n'a obtenu aucun bouclier"))
    ] = True
    monster_stamina: Annotated[bool, Spec(label=_("Les monstres comptent aussi leur stamina"))] = False
    success_die: Annotated[str, Spec(label=_("Dé du test de réussite"), max_length=20)] = "bleu"


@dataclass(frozen=True, slots=True)
class Scenario:
    """One exchange of Aventuriers: an attack and its reactions, a reaction talent, or a success
    test."""

    action: Annotated[Action, Spec(label=_("Situation"))] = Action.ATTACK
    mode: Annotated[Mode, Spec(label=_("Attaque de mêlée ou à distance"))] = Mode.MELEE
    attacker: Annotated[Fighter, Spec(label=_("Attaquant"))] = field(default_factory=Fighter)
    defender: Annotated[Fighter, Spec(label=_("Cible"))] = field(
        default_factory=lambda: Fighter(
            name=_("Gobelin"),
            grammar=DEFINITE_M,
            side=Side.MONSTRE,
            pv=3,
            px=2,
            weapon=Weapon(name=_("Coutelas"), dice=(DiceGroup("bleu", 1),)),
            defence=(DiceGroup("bleu", 1),),
        )
    )
    board: Annotated[Board, Spec(label=_("Situation sur le plateau"))] = field(default_factory=Board)
    die_types: Annotated[tuple[DieType, ...], Spec(label=_("Types de dés"), min_items=1, max_items=6)] = DEFAULT_DICE
    rules: Annotated[Rules, Spec(label=_("Réglages"))] = field(default_factory=Rules)
    entry: Annotated[Entry, Spec(label=_("Saisie des jets"))] = Entry.DICE
    attack_totals: Annotated[Totals, Spec(label=_("Jet d'attaque (totaux)"))] = field(default_factory=Totals)
    defence_totals: Annotated[Totals, Spec(label=_("Jet de défense (totaux)"))] = field(default_factory=Totals)
    riposte_totals: Annotated[Totals, Spec(label=_("Défense-éclair contre la Riposte (totaux)"))] = field(
        default_factory=Totals
    )
    test_lightning: Annotated[int, Spec(label=_("Test de réussite : éclairs lus"), ge=0, le=MAX_SYMBOLS)] = 0
    effect_none: Annotated[str, Spec(label=_("Effet avec aucun éclair"), max_length=200)] = _("Échec.")
    effect_one: Annotated[str, Spec(label=_("Effet avec 1 éclair"), max_length=200)] = _("Réussite.")
    effect_two: Annotated[str, Spec(label=_("Effet avec 2 éclairs"), max_length=200)] = _("Réussite éclatante.")

    def die(self, key: str) -> DieType | None:
        return next((d for d in self.die_types if d.key == key), None)

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        keys = [d.key for d in self.die_types]
        for i, key in enumerate(keys):
            if not key:
                errors[f"die_types.{i}.key"] = _("Code du dé : champ obligatoire.")
            elif keys.index(key) != i:
                errors[f"die_types.{i}.key"] = _("Code du dé : « {key} » est déjà utilisé.").format(key=key)
        known = ", ".join(keys)
        pools = {
            "attacker.weapon.dice": self.attacker.weapon.dice,
            "attacker.defence": self.attacker.defence,
            "defender.weapon.dice": self.defender.weapon.dice,
            "defender.defence": self.defender.defence,
        }
        for path, groups in pools.items():
            for i, group in enumerate(groups):
                if group.die not in keys:
                    errors[f"{path}.{i}.die"] = _("Dé : « {key} » inconnu (dés définis : {known}).").format(
                        key=group.die, known=known
                    )
            if sum(g.count for g in groups) > MAX_POOL:
                errors[path] = _("{n} au plus dans un jet.").format(n=count(MAX_POOL, _("dé")))
        if self.rules.success_die not in keys:
            errors["rules.success_die"] = _(
                "Dé du test de réussite : « {key} » inconnu (dés définis : {known})."
            ).format(key=self.rules.success_die, known=known)
        test_die = self.die(self.rules.success_die)
        if self.action is Action.SUCCESS_TEST and test_die is not None:
            shown = {min(f.lightning, 2) for f in test_die.faces}
            if shown != {0, 1, 2}:
                errors["rules.success_die"] = _(
                    "Dé du test de réussite : « {die} » doit pouvoir montrer 0, 1 et 2 éclairs."
                ).format(die=test_die.name)
        weapon = self.attacker.weapon
        if self.action is not Action.SUCCESS_TEST and not any(g.count for g in weapon.dice):
            errors["attacker.weapon.dice"] = _("Jet d'attaque : au moins un dé.")
        if self.action is Action.ATTACK:
            if weapon.reach is Reach.MELEE and self.mode is Mode.RANGED:
                errors["mode"] = _("« {name} » ne permet que l'attaque de mêlée.").format(name=weapon.name)
            if weapon.reach is Reach.RANGED and self.mode is Mode.MELEE:
                errors["mode"] = _("« {name} » ne permet que l'attaque à distance.").format(name=weapon.name)
        if self.entry is Entry.TOTALS and not errors:
            errors.update(self._check_totals())
        return errors

    def _check_totals(self) -> dict[str, str]:
        """Typed totals: each roll's totals must be a combination of the faces of the dice it
        rolls (issue 14), the success test's ⚡ a face of its die."""
        from rulesets.aventuriers.engine import totals_errors  # the engine reads this module

        errors = totals_errors(self)
        test_die = self.die(self.rules.success_die)
        if test_die is not None:
            most = max(f.lightning for f in test_die.faces)
            shown = sorted({f.lightning for f in test_die.faces})
            if self.test_lightning > most:
                errors["test_lightning"] = _("Test de réussite : « {die} » montre au plus {most}.").format(
                    die=test_die.name, most=count(most, _("éclair"))
                )
            elif self.test_lightning not in shown:
                # a custom die with a gap (0, 1, 3 ⚡): no face shows the number typed (issue 14)
                errors["test_lightning"] = _(
                    "Test de réussite : aucune face de « {die} » ne montre {n} ; ses faces en montrent {shown}."
                ).format(
                    die=test_die.name,
                    n=count(self.test_lightning, _("éclair")),
                    shown=join([str(v) for v in shown], _("ou")),
                )
        return errors
