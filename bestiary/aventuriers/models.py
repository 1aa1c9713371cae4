"""Aventuriers tables: combat dice and their faces, weapons and spells, protections, monsters and
the table's settings. Dice pools (attack, defence) are rows "n dés de tel type"."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from bestiary.grammar import NameGrammar
from bestiary.validation import clean_row

MAX_SYMBOLS = 4
MAX_POOL = 10


class DieType(models.Model):
    """A combat die (bleu, noir…). Its position orders the flash defence after the protections."""

    key = models.SlugField(_("code"), max_length=20, unique=True, help_text=_("bleu, noir… (utilisé dans les jets)"))
    name = models.CharField(_("nom"), max_length=40)
    position = models.PositiveSmallIntegerField(
        _("ordre"), default=1, help_text=_("Ordre de la défense-éclair après les protections : noir avant bleu.")
    )
    verified = models.BooleanField(
        _("faces vérifiées"),
        default=False,
        help_text=_("Faces par défaut — à vérifier sur vos dés. Cochez une fois les faces comparées à vos dés."),
    )
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        verbose_name = _("type de dé")
        verbose_name_plural = _("types de dés")
        ordering = ["position", "key"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class DieFace(models.Model):
    die = models.ForeignKey(DieType, verbose_name=_("dé"), on_delete=models.CASCADE, related_name="faces")
    position = models.PositiveSmallIntegerField(
        _("n° de face"), validators=[MinValueValidator(1), MaxValueValidator(12)]
    )
    damage = models.PositiveSmallIntegerField(_("dégâts 💥"), default=0, validators=[MaxValueValidator(MAX_SYMBOLS)])
    shield = models.PositiveSmallIntegerField(_("boucliers 🛡"), default=0, validators=[MaxValueValidator(MAX_SYMBOLS)])
    lightning = models.PositiveSmallIntegerField(
        _("éclairs ⚡"), default=0, validators=[MaxValueValidator(MAX_SYMBOLS)]
    )

    class Meta:
        verbose_name = _("face")
        verbose_name_plural = _("faces")
        ordering = ["die", "position"]
        constraints = [models.UniqueConstraint(fields=["die", "position"], name="aventuriers_face_unique_position")]

    def __str__(self) -> str:
        symbols = "💥" * self.damage + "🛡" * self.shield + "⚡" * self.lightning
        return f"{self.die} n°{self.position} : {symbols or '—'}"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class Reach(models.TextChoices):
    MELEE = "melee", _("Mêlée")
    RANGED = "distance", _("À distance")
    HYBRID = "hybride", _("Hybride")


class ZoneShape(models.TextChoices):
    FRONT = "avant", _("Avant-gauche, avant, avant-droite")
    CROSS = "croix", _("Avant, gauche, droite")


class TableSettings(models.Model):
    """The table's choices where the rules are silent (the first row is used)."""

    name = models.CharField(_("nom"), max_length=60, default="Réglages par défaut")
    zone_shape = models.CharField(_("forme de la zone d'attaque"), max_length=10, choices=ZoneShape, default="avant")
    coup_bas_bonus = models.PositiveSmallIntegerField(
        _("Coup bas : dégâts ajoutés"), default=1, validators=[MaxValueValidator(6)]
    )
    contrecoup_without_shield = models.BooleanField(_("Contrecoup même sans bouclier"), default=True)
    monster_stamina = models.BooleanField(_("les monstres comptent leur stamina"), default=False)
    success_die = models.ForeignKey(
        DieType,
        verbose_name=_("dé du test de réussite"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("réglages Aventuriers")
        verbose_name_plural = _("réglages Aventuriers")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class PoolRow(models.Model):
    """``count`` dice of one type in a roll."""

    die = models.ForeignKey(DieType, verbose_name=_("dé"), on_delete=models.PROTECT, related_name="+")
    count = models.PositiveSmallIntegerField(
        _("nombre"), default=1, validators=[MinValueValidator(1), MaxValueValidator(MAX_POOL)]
    )
    position = models.PositiveSmallIntegerField(_("ordre"), default=1)

    class Meta:
        abstract = True
        ordering = ["position", "pk"]

    def __str__(self) -> str:
        return f"{self.count} × {self.die}"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class Weapon(models.Model):
    """A weapon or a spell (Magie) of the Aventuriers."""

    name = models.CharField(_("nom"), max_length=60, unique=True)
    reach = models.CharField(_("type d'attaque"), max_length=10, choices=Reach, default="melee")
    spell = models.BooleanField(_("sort (Magie)"), default=False)
    diagonals = models.BooleanField(_("ajoute les diagonales"), default=False)
    unblockable = models.BooleanField(_("dégâts imparables"), default=False)
    flash = models.BooleanField(_("inflige des dégâts-éclairs"), default=False)
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        verbose_name = _("arme ou sort")
        verbose_name_plural = _("armes et sorts")
        ordering = ["spell", "name"]

    def __str__(self) -> str:
        dice = " + ".join(str(r) for r in self.dice.all())
        return f"{self.name} ({dice})" if dice else self.name

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class WeaponDie(PoolRow):
    weapon = models.ForeignKey(Weapon, verbose_name=_("arme"), on_delete=models.CASCADE, related_name="dice")

    class Meta(PoolRow.Meta):
        verbose_name = _("dés d'attaque")
        verbose_name_plural = _("dés d'attaque")


class Protection(models.Model):
    """A protection worn by an Aventurier: its defence dice."""

    name = models.CharField(_("nom"), max_length=60, unique=True)
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        verbose_name = _("protection")
        verbose_name_plural = _("protections")
        ordering = ["name"]

    def __str__(self) -> str:
        dice = " + ".join(str(r) for r in self.dice.all())
        return f"{self.name} ({dice})" if dice else self.name

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class ProtectionDie(PoolRow):
    protection = models.ForeignKey(
        Protection, verbose_name=_("protection"), on_delete=models.CASCADE, related_name="dice"
    )

    class Meta(PoolRow.Meta):
        verbose_name = _("dés de défense")
        verbose_name_plural = _("dés de défense")


class Monster(NameGrammar):
    """A carte Monstre: attack and defence dice, PV, PX, and its reactions if any; its name's
    grammar (``NameGrammar``: « le Gobelin », « l'Araignée géante », issue 15)."""

    name = models.CharField(_("nom"), max_length=60, unique=True)
    pv = models.PositiveSmallIntegerField(_("PV"), validators=[MinValueValidator(1), MaxValueValidator(99)])
    px = models.PositiveSmallIntegerField(_("PX"), default=0, validators=[MaxValueValidator(999)])
    attack_name = models.CharField(_("nom de l'attaque"), max_length=60, default="Attaque")
    reach = models.CharField(_("type d'attaque"), max_length=10, choices=Reach, default="melee")
    diagonals = models.BooleanField(_("ajoute les diagonales"), default=False)
    unblockable = models.BooleanField(_("dégâts imparables"), default=False)
    flash = models.BooleanField(_("inflige des dégâts-éclairs"), default=False)
    riposte = models.BooleanField(_("Riposte"), default=False)
    contrecoup = models.BooleanField(_("Contrecoup"), default=False)
    attaque_eclair = models.BooleanField(_("Attaque éclair"), default=False)
    attaque_opportunite = models.BooleanField(_("Attaque d'opportunité"), default=False)
    coup_bas = models.BooleanField(_("Coup bas"), default=False)
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        verbose_name = _("monstre")
        verbose_name_plural = _("monstres")
        ordering = ["px", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.pv} PV, {self.px} PX)"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class MonsterDie(PoolRow):
    class Roll(models.TextChoices):
        ATTACK = "attaque", _("Jet d'attaque")
        DEFENCE = "defense", _("Jet de défense")

    monster = models.ForeignKey(Monster, verbose_name=_("monstre"), on_delete=models.CASCADE, related_name="dice")
    roll = models.CharField(_("jet"), max_length=10, choices=Roll)

    class Meta(PoolRow.Meta):
        verbose_name = _("dés du monstre")
        verbose_name_plural = _("dés du monstre")
