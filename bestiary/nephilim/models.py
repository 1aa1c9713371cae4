"""Nephilim Légende tables (seed 002, §2–§13) and our creatures.

Every row becomes scenario data (``as_scenario()``) for the pure engine: the engine holds no table.
"""

from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from bestiary.grammar import NameGrammar
from bestiary.validation import clean_row
from rulesets.nephilim.model import (
    ELEMENT_FIELDS,
    ApproachKind,
    Behaviour,
    Condition,
    DefenceStyle,
    DefenderKind,
    Element,
    Mode,
    Scope,
    Sensitivity,
    WeaponType,
)


def _choices(enum: Any) -> list[tuple[str, str]]:
    return list(enum.labels().items())


def _degree(label: Any, low: int = -30, high: int = 30, default: int = 0) -> Any:
    return models.SmallIntegerField(
        label, default=default, validators=[MinValueValidator(low), MaxValueValidator(high)]
    )


class ElementsMixin(models.Model):
    """The five elements an approach or a defence type allows."""

    feu = models.BooleanField(_("Feu"), default=False)
    eau = models.BooleanField(_("Eau"), default=False)
    air = models.BooleanField(_("Air"), default=False)
    terre = models.BooleanField(_("Terre"), default=False)
    lune = models.BooleanField(_("Lune"), default=False)

    class Meta:
        abstract = True

    def elements_data(self) -> dict[str, bool]:
        return {name: bool(getattr(self, name)) for name in ELEMENT_FIELDS}

    @property
    def elements_label(self) -> str:
        return ", ".join(name.capitalize() for name in ELEMENT_FIELDS if getattr(self, name)) or "—"


class Approach(ElementsMixin):
    """§2 (mêlée) and §3 (distance) attack approaches."""

    order = models.PositiveSmallIntegerField(_("ordre"), default=0)
    name = models.CharField(_("nom"), max_length=80, unique=True)
    kind = models.CharField(_("genre"), max_length=20, choices=_choices(ApproachKind))
    attack_modifier = _degree(_("modificateur d'attaque (degrés)"))
    damage_bonus_phys = _degree(_("bonus de dommages physiques"), 0, 20)
    defence_malus_on_hit = _degree(_("malus à la défense adverse si réussie"), 0, 20)
    opponent_next_round_malus = _degree(_("malus adverse au round suivant"), 0, 20)
    attacker_cannot_defend = models.BooleanField(_("l'attaquant ne peut pas se défendre"), default=False)
    deals_damage = models.BooleanField(_("inflige des dommages"), default=True)
    aiming_rounds = _degree(_("rounds de visée"), 0, 10)
    description = models.TextField(_("description"), blank=True)

    class Meta:
        verbose_name = _("approche d'attaque")
        verbose_name_plural = _("approches d'attaque")
        ordering = ("order", "name")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)

    @property
    def mode(self) -> str:
        return ApproachKind(self.kind).mode.value

    def as_scenario(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "attack_modifier": self.attack_modifier,
            "damage_bonus_phys": self.damage_bonus_phys,
            "elements": self.elements_data(),
            "defence_malus_on_hit": self.defence_malus_on_hit,
            "opponent_next_round_malus": self.opponent_next_round_malus,
            "attacker_cannot_defend": self.attacker_cannot_defend,
            "deals_damage": self.deals_damage,
            "aiming_rounds": self.aiming_rounds,
        }


class Weapon(models.Model):
    """§4 melee, §5 ranged and §6 thrown weapons."""

    order = models.PositiveSmallIntegerField(_("ordre"), default=0)
    name = models.CharField(_("nom"), max_length=100, unique=True)
    category = models.CharField(_("catégorie"), max_length=10, choices=_choices(Mode))
    degree = _degree(_("degré"), 0, 20, 1)
    phys = _degree(_("dommages physiques (PHYS)"), 0, 30, 1)
    mag = _degree(_("dommages magiques (MAG)"), 0, 30)
    type = models.CharField(_("type"), max_length=3, choices=_choices(WeaponType), default=WeaponType.MADE.value)
    element = models.CharField(_("élément"), max_length=10, choices=_choices(Element), default=Element.NONE.value)
    magical = models.BooleanField(_("magique"), default=False)
    null_non_mag_prot = models.BooleanField(
        _("transperce les protections non magiques (nullNonMagProt)"), default=False
    )
    firearm = models.BooleanField(_("arme à feu"), default=False)
    range_m = models.PositiveIntegerField(_("portée (m)"), default=0)
    range_label = models.CharField(_("portée (texte)"), max_length=60, blank=True)
    ammunition = models.PositiveSmallIntegerField(_("munitions (0 : durée du sort)"), default=0)
    unique = models.BooleanField(_("tir unique"), default=True)
    cpc = models.BooleanField(_("coup par coup"), default=False)
    raf_ctrl = models.BooleanField(_("rafale contrôlée"), default=False)
    raf_cont = models.BooleanField(_("rafale continue"), default=False)

    class Meta:
        verbose_name = _("arme")
        verbose_name_plural = _("armes")
        ordering = ("category", "order", "name")

    def __str__(self) -> str:
        mag = f"/{self.mag} MAG" if self.mag else ""
        return f"{self.name} ({self.phys} PHYS{mag})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)

    def as_scenario(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "category": self.category,
            "degree": self.degree,
            "phys": self.phys,
            "mag": self.mag,
            "type": self.type,
            "element": self.element,
            "magical": self.magical,
            "null_non_mag_prot": self.null_non_mag_prot,
            "firearm": self.firearm,
            "range_m": self.range_m,
            "range_label": self.range_label,
            "ammunition": self.ammunition,
            "cadences": {"unique": self.unique, "cpc": self.cpc, "raf_ctrl": self.raf_ctrl, "raf_cont": self.raf_cont},
        }


class Ammunition(models.Model):
    """§7 ammunition for firearms."""

    order = models.PositiveSmallIntegerField(_("ordre"), default=0)
    name = models.CharField(_("nom"), max_length=100, unique=True)
    damage_bonus = _degree(_("bonus de dommages"), 0, 20)
    compatible = models.ForeignKey(
        Weapon,
        verbose_name=_("arme compatible"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ammunitions",
        help_text=_("Vide : toutes les armes à feu."),
    )

    class Meta:
        verbose_name = _("munition")
        verbose_name_plural = _("munitions")
        ordering = ("order", "name")

    def __str__(self) -> str:
        return f"{self.name} (+{self.damage_bonus})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)

    def as_scenario(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "damage_bonus": self.damage_bonus,
            "compatible": self.compatible.name if self.compatible else "",
        }


class Protection(models.Model):
    """§8 protections: mundane armour, Phalange, invocation armours, mantles, others, the shield."""

    class Family(models.TextChoices):
        MUNDANE = "ordinaire", _("Armure physique (non magique)")
        PHALANGE = "phalange", _("Armure de la Phalange d'airain")
        INVOCATION = "invocation", _("Armure d'invocation élémentaire")
        MANTLE = "manteau", _("Manteau élémentaire")
        OTHER = "autre", _("Autre protection")
        SHIELD = "bouclier", _("Bouclier")

    order = models.PositiveSmallIntegerField(_("ordre"), default=0)
    name = models.CharField(_("nom"), max_length=100, unique=True)
    family = models.CharField(_("famille"), max_length=12, choices=Family.choices)
    phys = _degree(_("protection physique"), 0, 30)
    mag = _degree(_("protection magique"), 0, 30)
    magical = models.BooleanField(_("d'origine magique"), default=False)
    element = models.CharField(_("élément (manteau)"), max_length=10, choices=_choices(Element), default="aucun")
    optional_bonus = _degree(_("bonus optionnel (PHYS et MAG)"), 0, 10)
    source = models.CharField(_("source"), max_length=120, blank=True, help_text=_("Invocation, sort…"))

    class Meta:
        verbose_name = _("protection")
        verbose_name_plural = _("protections")
        ordering = ("family", "order", "name")

    def __str__(self) -> str:
        return f"{self.name} ({self.phys}/{self.mag})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)

    @property
    def slot(self) -> str:
        """Where it is worn in a defender's column: armour, shield or other."""
        if self.family == self.Family.SHIELD:
            return "shield"
        if self.family in (self.Family.MANTLE, self.Family.OTHER):
            return "other"
        return "armour"

    def as_scenario(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "phys": self.phys,
            "mag": self.mag,
            "magical": self.magical,
            "element": self.element,
            "optional_bonus": self.optional_bonus,
        }


class DefenceType(ElementsMixin):
    """§9 (mêlée), §10 (tir) and §11 (lancer) defence types."""

    order = models.PositiveSmallIntegerField(_("ordre"), default=0)
    name = models.CharField(_("nom"), max_length=100)
    style = models.CharField(_("genre"), max_length=12, choices=_choices(DefenceStyle))
    context = models.CharField(_("contre"), max_length=10, choices=_choices(Mode))
    rolls = models.BooleanField(_("demande un jet"), default=True)
    modifier = _degree(_("modificateur (degrés)"))
    success_reduce_phys = _degree(_("réussie : PHYS retirés"), 0, 30)
    success_reduce_mag = _degree(_("réussie : MAG retirés"), 0, 30)
    success_cancel = models.BooleanField(_("réussie : dommages annulés"), default=False)
    success_no_minimum = models.BooleanField(_("réussie : pas de minimum de 1"), default=False)
    failure_add_phys = _degree(_("ratée : PHYS ajoutés"), 0, 30)
    failure_add_mag = _degree(_("ratée : MAG ajoutés"), 0, 30)
    no_extra_defence_malus = models.BooleanField(_("pas de malus de défenses supplémentaires"), default=False)
    needs_shield = models.BooleanField(_("nécessite un bouclier ou un objet"), default=False)
    escapes = models.BooleanField(_("réussie : s'échappe"), default=False)
    needs_attack_roll = models.BooleanField(_("réussie : jet d'attaque standard requis"), default=False)

    class Meta:
        verbose_name = _("type de défense")
        verbose_name_plural = _("types de défense")
        ordering = ("context", "order", "name")
        constraints = (models.UniqueConstraint(fields=["name", "context"], name="nephilim_defence_name_context"),)

    def __str__(self) -> str:
        return f"{self.name} ({Mode(self.context).label.lower()})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)

    def as_scenario(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "style": self.style,
            "context": self.context,
            "elements": self.elements_data(),
        }
        for f in (
            "rolls",
            "modifier",
            "success_reduce_phys",
            "success_reduce_mag",
            "success_cancel",
            "success_no_minimum",
            "failure_add_phys",
            "failure_add_mag",
            "no_extra_defence_malus",
            "needs_shield",
            "escapes",
            "needs_attack_roll",
        ):
            data[f] = getattr(self, f)
        return data


EFFECT_NUMBERS = (
    "attack",
    "defence",
    "damage",
    "damage_phys",
    "damage_mag",
    "protection_phys",
    "protection_mag",
    "opponent_defence",
    "opponent_next_round_attack",
    "initiative",
    "metamorphe",
)
EFFECT_FLAGS = (
    "cancel_phys",
    "cancel_mag",
    "cancel_all",
    "null_non_mag_prot",
    "no_extra_defence_malus",
    "weapon_magical",
    "armour_magical",
)


class Effect(models.Model):
    """§12 and §13: a spell, invocation or formula, made of typed components.

    A simple new spell needs no code: fill its components. The few rules that need code are named
    behaviours (Retenue du souffle, Eau-forte, Manteau élémentaire, Transmutation du fauve).
    """

    class Side(models.TextChoices):
        ATTACKER = "attaquant", _("Attaquant")
        DEFENDER = "defenseur", _("Défenseur")

    class Kind(models.TextChoices):
        SPELL = "sort", _("Sort")
        INVOCATION = "invocation", _("Invocation")
        FORMULA = "formule", _("Formule")

    order = models.PositiveSmallIntegerField(_("ordre"), default=0)
    side = models.CharField(_("côté"), max_length=10, choices=Side.choices)
    kind = models.CharField(_("genre"), max_length=10, choices=Kind.choices)
    name = models.CharField(_("nom"), max_length=100)
    scope = models.CharField(_("portée"), max_length=10, choices=_choices(Scope), default=Scope.BOTH.value)
    condition = models.CharField(
        _("condition des bonus"), max_length=30, choices=_choices(Condition), default=Condition.ALWAYS.value
    )
    attack = _degree(_("degrés d'attaque"))
    defence = _degree(_("degrés de défense"))
    damage = _degree(_("dommages (type de l'arme)"))
    damage_phys = _degree(_("dommages physiques"))
    damage_mag = _degree(_("dommages magiques"))
    protection_phys = _degree(_("protection physique"))
    protection_mag = _degree(_("protection magique"))
    opponent_defence = _degree(_("défense de l'adversaire (cet échange)"))
    opponent_defence_condition = models.CharField(
        _("condition (défense adverse)"), max_length=30, choices=_choices(Condition), default=Condition.ALWAYS.value
    )
    opponent_next_round_attack = _degree(_("attaque adverse au round suivant"))
    initiative = _degree(_("initiative et MV (vitesse)"))
    initiative_condition = models.CharField(
        _("condition (initiative)"), max_length=30, choices=_choices(Condition), default=Condition.ALWAYS.value
    )
    # issue 14: Régisseur de fureur « métamorphe à 10 » (0: the attacker's Métamorphe is unchanged)
    metamorphe = _degree(_("Métamorphe porté à"), 0, 10)
    cancel_phys = models.BooleanField(_("annule les dommages physiques"), default=False)
    cancel_mag = models.BooleanField(_("annule les dommages magiques"), default=False)
    cancel_all = models.BooleanField(_("annule tous les dommages"), default=False)
    null_non_mag_prot = models.BooleanField(_("annule la protection physique non magique"), default=False)
    no_extra_defence_malus = models.BooleanField(_("pas de malus de défenses supplémentaires"), default=False)
    weapon_magical = models.BooleanField(_("l'arme devient d'origine magique"), default=False)
    armour_magical = models.BooleanField(_("l'armure devient d'origine magique"), default=False)
    behaviour = models.CharField(
        _("comportement nommé"), max_length=30, choices=_choices(Behaviour), default=Behaviour.NONE.value
    )
    element = models.CharField(_("élément (manteau)"), max_length=10, choices=_choices(Element), default="aucun")
    threshold = _degree(_("seuil (Retenue du souffle)"), 0, 100, 10)
    note = models.CharField(_("note sans effet chiffré"), max_length=200, blank=True)
    description = models.TextField(_("texte de la règle"), blank=True)

    class Meta:
        verbose_name = _("sort, invocation ou formule")
        verbose_name_plural = _("sorts, invocations et formules")
        ordering = ("side", "kind", "order", "name")
        constraints = (models.UniqueConstraint(fields=["name", "side"], name="nephilim_effect_name_side"),)

    def __str__(self) -> str:
        return f"{self.name} ({self.get_kind_display()}, {self.get_scope_display()})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)

    def as_scenario(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "scope": self.scope,
            "condition": self.condition,
            "opponent_defence_condition": self.opponent_defence_condition,
            "initiative_condition": self.initiative_condition,
            "behaviour": self.behaviour,
            "element": self.element,
            "threshold": self.threshold,
            "note": self.note,
        }
        for f in EFFECT_NUMBERS + EFFECT_FLAGS:
            data[f] = getattr(self, f)
        return data


class Creature(NameGrammar):
    """A combatant of the bestiary: Nephilim, Selenim, initiés, ordinary humans, animals, creatures.

    Its name carries its grammar (issue 15, item 2): « Sœur Agathe » is a feminine proper name,
    « le Mercenaire » a common noun with its article; the presets fill the scenario's ``grammar``."""

    class Category(models.TextChoices):
        NEPHILIM = "nephilim", _("Nephilim")
        SELENIM = "selenim", _("Selenim")
        INITIE = "initie", _("Humain initié")
        HUMAIN = "humain", _("Humain ordinaire")
        ANIMAL = "animal", _("Animal")
        CREATURE = "creature_magique", _("Créature magique")

    name = models.CharField(_("nom"), max_length=100, unique=True)
    category = models.CharField(_("catégorie"), max_length=20, choices=Category.choices)
    degree = _degree(_("Vécu ou Menace (degré)"), 0, 30, 5)
    defence_degree = _degree(_("degré de défense"), 0, 30, 5)
    approach_element = models.CharField(
        _("élément de l'Approche"), max_length=10, choices=_choices(Element), default="aucun"
    )
    approach_value = _degree(_("Approche (valeur du Ka)"), 0, 30)
    ka_feu = _degree(_("Ka-Feu"), 0, 30)
    initiative_ka = _degree(_("Ka-Eau, Ka-Soleil ou Menace (initiative)"), 0, 30)
    metamorphe = _degree(_("Métamorphe"), 0, 10)
    sensitivity = models.CharField(
        _("sensibilité magique"), max_length=12, choices=_choices(Sensitivity), default=Sensitivity.AUTO.value
    )
    weapon = models.ForeignKey(Weapon, verbose_name=_("arme"), on_delete=models.PROTECT, related_name="creatures")
    armour = models.ForeignKey(
        Protection, verbose_name=_("armure"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    shield = models.ForeignKey(
        Protection, verbose_name=_("bouclier"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    other = models.ForeignKey(
        Protection,
        verbose_name=_("manteau ou autre protection"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        verbose_name = _("créature")
        verbose_name_plural = _("créatures")
        ordering = ("category", "name")

    def __str__(self) -> str:
        return f"{self.name} ({self.get_category_display()})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)

    @property
    def attacker_kind(self) -> str:
        return {"nephilim": "nephilim", "initie": "initie"}.get(self.category, "autre")

    @property
    def defender_kind(self) -> str:
        if self.category in (
            DefenderKind.NEPHILIM.value,
            DefenderKind.INITIE.value,
            DefenderKind.SELENIM.value,
            DefenderKind.CREATURE.value,
        ):
            return self.category
        return DefenderKind.AUTRE.value

    def as_attacker(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            **self.grammar_values(),
            "kind": self.attacker_kind,
            "degree": self.degree,
            "initiative_ka": self.initiative_ka,
            "metamorphe": self.metamorphe if self.attacker_kind == "nephilim" else 0,
            "ka_feu": self.ka_feu if self.attacker_kind == "nephilim" else 0,
            "approach_element": self.approach_element if self.attacker_kind != "autre" else "aucun",
            "approach_value": self.approach_value if self.attacker_kind != "autre" else 0,
        }
        data.update({f"weapon.{k}": v for k, v in _flat(self.weapon.as_scenario()).items()})
        return data

    def as_defender(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            **self.grammar_values(),
            "kind": self.defender_kind,
            "degree": self.defence_degree,
            "sensitivity": self.sensitivity,
            "approach_element": self.approach_element if self.defender_kind == "nephilim" else "aucun",
            "approach_value": self.approach_value if self.defender_kind == "nephilim" else 0,
            "metamorphe": self.metamorphe if self.defender_kind == "nephilim" else 0,
        }
        empty = {"name": "Aucune", "phys": 0, "mag": 0, "magical": False, "element": "aucun", "optional_bonus": 0}
        for slot in ("armour", "shield", "other"):
            row: Protection | None = getattr(self, slot)
            values = (
                row.as_scenario() if row is not None else dict(empty, name="Aucun" if slot == "shield" else "Aucune")
            )
            data.update({f"{slot}.{k}": v for k, v in values.items()})
        return data


def _flat(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out
