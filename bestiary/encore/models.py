"""enCORE tables: settings, health tiers, weapons, protections and NPCs."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from bestiary.grammar import NameGrammar
from bestiary.validation import clean_row


class Settings(models.Model):
    """The table's enCORE settings (one row is used: the first)."""

    name = models.CharField(_("nom"), max_length=60, default="Réglages par défaut")
    success_face = models.PositiveSmallIntegerField(
        _("face minimale d'un succès"), default=5, validators=[MinValueValidator(2), MaxValueValidator(6)]
    )
    speciality_dice = models.PositiveSmallIntegerField(
        _("dés apportés par une spécialité"), default=2, validators=[MaxValueValidator(5)]
    )
    healthy_tier = models.CharField(_("palier au-dessus de tous les seuils"), max_length=40, default="Valide")

    class Meta:
        verbose_name = _("réglages enCORE")
        verbose_name_plural = _("réglages enCORE")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class HealthTier(models.Model):
    settings = models.ForeignKey(Settings, on_delete=models.CASCADE, related_name="tiers")
    name = models.CharField(_("nom"), max_length=40)
    numerator = models.PositiveSmallIntegerField(_("seuil : numérateur"))
    denominator = models.PositiveSmallIntegerField(_("seuil : dénominateur"), validators=[MinValueValidator(1)])

    class Meta:
        verbose_name = _("palier de Santé")
        verbose_name_plural = _("paliers de Santé")
        ordering = ["numerator", "denominator"]

    def __str__(self) -> str:
        return f"{self.name} (≤ {self.numerator}/{self.denominator})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class Weapon(models.Model):
    name = models.CharField(_("nom"), max_length=80, unique=True)
    category = models.CharField(_("catégorie"), max_length=40, blank=True, help_text=_("Légère, Lourde…"))
    damage = models.PositiveSmallIntegerField(_("dégâts"), validators=[MaxValueValidator(20)])
    area = models.BooleanField(_("arme de zone"), default=False)
    target_limit = models.PositiveSmallIntegerField(
        _("cibles au plus"), default=0, help_text=_("0 : sans limite (arme de zone seulement)")
    )
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        verbose_name = _("arme")
        verbose_name_plural = _("armes")
        ordering = ["damage", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.damage})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class Protection(models.Model):
    class Kind(models.TextChoices):
        ARMOUR = "armure", _("Armure")
        COVER = "couvert", _("Couvert")

    name = models.CharField(_("nom"), max_length=80, unique=True)
    kind = models.CharField(_("type"), max_length=10, choices=Kind.choices)
    value = models.PositiveSmallIntegerField(_("Protection"), validators=[MaxValueValidator(10)])

    class Meta:
        verbose_name = _("protection")
        verbose_name_plural = _("protections")
        ordering = ["kind", "value", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.value})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class NPC(NameGrammar):
    """An NPC of the bestiary; its name's grammar (``NameGrammar``) tells the story « l'Arbalétrier »,
    « la Sorcière des marais » (issue 15, item 2)."""

    name = models.CharField(_("nom"), max_length=80, unique=True)
    menace = models.PositiveSmallIntegerField(_("Menace"), validators=[MinValueValidator(1), MaxValueValidator(3)])
    sante = models.PositiveSmallIntegerField(_("Santé"), validators=[MaxValueValidator(99)])
    weapon = models.ForeignKey(Weapon, verbose_name=_("arme"), on_delete=models.PROTECT, related_name="npcs")
    protection = models.PositiveSmallIntegerField(_("Protection"), default=0, validators=[MaxValueValidator(10)])
    boss = models.BooleanField(_("boss ou calamité"), default=False)
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        verbose_name = _("PNJ")
        verbose_name_plural = _("PNJ")
        ordering = ["menace", "name"]

    def __str__(self) -> str:
        return f"{self.name} (Menace {self.menace})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)
