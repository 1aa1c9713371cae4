"""Contes de Fées tables (seed 004): settings, surfaces, allures, couvertures, éclairement,
difficultés et portées de tir, encombrement, coups spéciaux, tactiques, créatures et Attributs."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from bestiary.grammar import NameGrammar
from bestiary.validation import clean_row
from rulesets.feerie.model import AttributeKind, BlowKind, Pace

TAILLE = [MinValueValidator(-5), MaxValueValidator(5)]
ASPECT = [MinValueValidator(0), MaxValueValidator(60)]


class Settings(models.Model):
    """The table's settings (the first row is used)."""

    name = models.CharField(_("nom"), max_length=60, default="Réglages par défaut")
    dice_plus = models.PositiveSmallIntegerField(
        _("dés ajoutés"), default=1, validators=[MinValueValidator(1), MaxValueValidator(3)]
    )
    dice_minus = models.PositiveSmallIntegerField(_("dés retranchés"), default=1, validators=[MaxValueValidator(3)])
    dice_sides = models.PositiveSmallIntegerField(
        _("faces des dés"), default=20, validators=[MinValueValidator(2), MaxValueValidator(100)]
    )
    incident_threshold = models.SmallIntegerField(
        _("marge d'échec d'un incident"), default=-10, validators=[MinValueValidator(-100), MaxValueValidator(-1)]
    )

    class Meta:
        verbose_name = _("réglages Féerie")
        verbose_name_plural = _("réglages Féerie")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class SurfaceRow(models.Model):
    """Surface d'un angle d'attaque selon la Taille du défenseur (« Adversaires multiples »)."""

    taille_min = models.SmallIntegerField(_("Taille de"), validators=TAILLE)
    taille_max = models.SmallIntegerField(_("Taille à"), validators=TAILLE)
    surface = models.PositiveSmallIntegerField(_("surface"), validators=[MinValueValidator(1)])

    class Meta:
        verbose_name = _("surface par Taille")
        verbose_name_plural = _("surfaces par Taille")
        ordering = ("taille_min",)

    def __str__(self) -> str:
        return f"{self.taille_min:+d} à {self.taille_max:+d} : {self.surface}"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class Allure(models.Model):
    """Déplacement en combat: distance, coordination malus, charge bonus."""

    pace = models.CharField(_("allure"), max_length=10, choices=[(p.value, p.label) for p in Pace], unique=True)
    divisor = models.PositiveSmallIntegerField(
        _("diviseur de distance"),
        help_text=_("distance = (Habileté + Taille) / diviseur"),
        validators=[MaxValueValidator(10)],
    )
    malus = models.SmallIntegerField(_("malus"), validators=[MinValueValidator(-30), MaxValueValidator(0)])
    charge_bonus = models.PositiveSmallIntegerField(
        _("bonus de charge aux Dommages"), validators=[MaxValueValidator(20)]
    )

    class Meta:
        verbose_name = _("allure")
        verbose_name_plural = _("allures")
        ordering = ("-divisor",)

    def __str__(self) -> str:
        return f"{self.get_pace_display()} ({self.malus:+d})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class CoverMaterial(models.Model):
    """Couverture: solidity as a share of the Domain owner's Encaissement."""

    name = models.CharField(_("couverture"), max_length=80, unique=True)
    example = models.CharField(_("exemple"), max_length=80, blank=True)
    quarters = models.PositiveSmallIntegerField(
        _("proportion (en quarts)"), validators=[MinValueValidator(1), MaxValueValidator(4)]
    )

    class Meta:
        verbose_name = _("matériau de couverture")
        verbose_name_plural = _("matériaux de couverture")
        ordering = ("quarters", "name")

    def __str__(self) -> str:
        return f"{self.name} — {self.example} ({self.quarters}/4)"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class CoverOpacity(models.Model):
    name = models.CharField(_("opacité"), max_length=60, unique=True)
    malus = models.SmallIntegerField(_("malus au toucher"), validators=[MinValueValidator(-20), MaxValueValidator(0)])

    class Meta:
        verbose_name = _("opacité de couverture")
        verbose_name_plural = _("opacités de couverture")
        ordering = ("malus",)

    def __str__(self) -> str:
        return f"{self.name} ({self.malus:+d})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class Lighting(models.Model):
    """Éclairement: malus au contact, doublé à distance."""

    name = models.CharField(_("description"), max_length=60, unique=True)
    contact = models.SmallIntegerField(_("malus au contact"), validators=[MinValueValidator(-20), MaxValueValidator(0)])
    distance = models.SmallIntegerField(
        _("malus à distance"), validators=[MinValueValidator(-40), MaxValueValidator(0)]
    )

    class Meta:
        verbose_name = _("éclairement")
        verbose_name_plural = _("éclairements")
        ordering = ("-contact", "name")

    def __str__(self) -> str:
        return f"{self.name} ({self.contact:+d} / {self.distance:+d})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class RangedDifficulty(models.Model):
    modifier = models.SmallIntegerField(
        _("modificateur de Défense"), validators=[MinValueValidator(-8), MaxValueValidator(40)]
    )
    task = models.CharField(_("tâche"), max_length=40)
    example = models.CharField(_("exemple"), max_length=120, blank=True)

    class Meta:
        verbose_name = _("difficulté de tir")
        verbose_name_plural = _("difficultés de tir")
        ordering = ("modifier",)

    def __str__(self) -> str:
        return f"{self.task} ({self.modifier:+d})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class RangeBand(models.Model):
    """Portée de tir, and the apparent size used for a partly exposed defender."""

    distance = models.CharField(_("distance"), max_length=60, unique=True)
    apparent_size = models.CharField(_("taille apparente équivalente"), max_length=60)
    modifier = models.SmallIntegerField(_("modificateur"), validators=[MinValueValidator(-4), MaxValueValidator(40)])

    class Meta:
        verbose_name = _("portée de tir")
        verbose_name_plural = _("portées de tir")
        ordering = ("modifier",)

    def __str__(self) -> str:
        return f"{self.distance} ({self.modifier:+d})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class Terrain(models.Model):
    name = models.CharField(_("encombrement"), max_length=60, unique=True)
    modifier = models.SmallIntegerField(_("modificateur"), validators=[MinValueValidator(-30), MaxValueValidator(10)])

    class Meta:
        verbose_name = _("encombrement du terrain")
        verbose_name_plural = _("encombrements du terrain")
        ordering = ("modifier",)

    def __str__(self) -> str:
        return f"{self.name} ({self.modifier:+d})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class SpecialBlow(models.Model):
    kind = models.CharField(
        _("coup"), max_length=30, unique=True, choices=[(k.value, k.label) for k in BlowKind if k is not BlowKind.NONE]
    )
    attack_malus = models.SmallIntegerField(
        _("malus d'Attaque"), validators=[MinValueValidator(-40), MaxValueValidator(0)]
    )
    ranged_attack_malus = models.SmallIntegerField(
        _("malus à distance"), null=True, blank=True, validators=[MinValueValidator(-40), MaxValueValidator(0)]
    )
    defense_malus = models.SmallIntegerField(
        _("malus de Défense"), default=0, validators=[MinValueValidator(-40), MaxValueValidator(0)]
    )
    effect_value = models.PositiveSmallIntegerField(
        _("valeur de l'effet"), default=0, help_text=_("malus infligé, ou points de Dommages par unité")
    )
    effect = models.TextField(_("effet"), blank=True)

    class Meta:
        verbose_name = _("coup spécial")
        verbose_name_plural = _("coups spéciaux")
        ordering = ("pk",)

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.attack_malus:+d})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class TacticPreset(models.Model):
    """A named tactic of the seed, written for a reference cap (Sire Didimus: 4)."""

    key = models.SlugField(_("clé"), unique=True)
    name = models.CharField(_("nom"), max_length=60, unique=True)
    initiative = models.SmallIntegerField(_("Initiative"))
    attack = models.SmallIntegerField(_("Attaque"))
    defense = models.SmallIntegerField(_("Défense"))
    reference_cap = models.PositiveSmallIntegerField(
        _("plafond de référence"), default=4, validators=[MinValueValidator(1)]
    )
    description = models.TextField(_("description"), blank=True)

    class Meta:
        verbose_name = _("tactique")
        verbose_name_plural = _("tactiques")
        ordering = ("pk",)

    def __str__(self) -> str:
        return f"{self.name} (I {self.initiative:+d} / A {self.attack:+d} / D {self.defense:+d})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class Creature(NameGrammar):
    """A creature of the bestiary; its name carries its grammar (« le Lutin », « l'Ogre », issue 15),
    which the presets hand to the combatant, the mount and the encounter's Féerique."""

    name = models.CharField(_("nom"), max_length=80, unique=True)
    vigilance = models.PositiveSmallIntegerField(_("Vigilance"), validators=ASPECT)
    habilete = models.PositiveSmallIntegerField(_("Habileté"), validators=ASPECT)
    puissance = models.PositiveSmallIntegerField(_("Puissance"), validators=ASPECT)
    resistance = models.PositiveSmallIntegerField(_("Résistance"), validators=ASPECT)
    taille = models.SmallIntegerField(_("Taille"), validators=TAILLE)
    essence = models.PositiveSmallIntegerField(_("Essence (Glamour)"), validators=[MaxValueValidator(500)])
    mount = models.BooleanField(_("peut servir de monture"), default=False)
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        verbose_name = _("créature")
        verbose_name_plural = _("créatures")
        ordering = ("taille", "name")

    def __str__(self) -> str:
        return f"{self.name} (Taille {self.taille:+d})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class CreatureAttribute(models.Model):
    """An Affinité, Pouvoir (maîtrise) or Accessoire, and the activities it applies to."""

    class Mode(models.TextChoices):
        BOTH = "both", _("Contact et distance")
        MELEE = "melee", _("Au contact")
        RANGED = "ranged", _("À distance")

    creature = models.ForeignKey(Creature, on_delete=models.CASCADE, related_name="attributes")
    name = models.CharField(_("nom"), max_length=80)
    kind = models.CharField(_("nature"), max_length=12, choices=[(k.value, k.label) for k in AttributeKind])
    value = models.SmallIntegerField(_("valeur"), validators=[MinValueValidator(-20), MaxValueValidator(30)])
    mode = models.CharField(_("s'applique"), max_length=8, choices=Mode.choices, default=Mode.BOTH)
    initiative = models.BooleanField(_("Initiative"), default=False)
    attack = models.BooleanField(_("Attaque"), default=False)
    defense = models.BooleanField(_("Défense"), default=False)
    damage = models.BooleanField(_("Dommages"), default=False)
    soak = models.BooleanField(_("Encaissement"), default=False)

    class Meta:
        verbose_name = _("Attribut")
        verbose_name_plural = _("Attributs")
        ordering = ("creature", "pk")
        constraints = (
            models.UniqueConstraint(fields=["creature", "name"], name="feerie_attribute_unique_name"),
            models.CheckConstraint(
                condition=~(models.Q(attack=True) & models.Q(damage=True)), name="feerie_attribute_attack_or_damage"
            ),
            models.CheckConstraint(
                condition=~(models.Q(defense=True) & models.Q(soak=True)), name="feerie_attribute_defense_or_soak"
            ),
        )

    def __str__(self) -> str:
        return f"{self.name} {self.value:+d}"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)

    def applies(self, ranged: bool) -> bool:
        return self.mode == self.Mode.BOTH or (self.mode == self.Mode.RANGED) == ranged
