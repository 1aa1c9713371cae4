"""Quadrature adversaries tables: dice, power levels, action cards and their effects, adversary
sheets (body parts, blocks of boxes, deck) and hordes (a sheet of kind « horde »)."""

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from bestiary.grammar import NameGrammar
from bestiary.validation import clean_row
from rulesets.core.schema import int_text
from rulesets.core.typography import typography
from rulesets.quadrature.model import Capability as EngineCapability
from rulesets.quadrature.model import GuardType as EngineGuardType
from rulesets.quadrature.model import Kind as EngineKind
from rulesets.quadrature.model import Mental as EngineMental
from rulesets.quadrature.model import MoodDirection as EngineMoodDirection
from rulesets.quadrature.model import Rung as EngineRung


def _choices(enum: type) -> list[tuple[str, str]]:
    return [(value, str(label)) for value, label in enum.labels().items()]  # type: ignore[attr-defined]


class Die(models.Model):
    """An adversary die (🟧 Nuisance, ⬜ Menace, 🟫 Danger): its faces are data."""

    rung = models.CharField(_("rang"), max_length=10, choices=_choices(EngineRung), unique=True)
    name = models.CharField(_("nom"), max_length=40)
    symbol = models.CharField(_("symbole"), max_length=4)
    faces = models.CharField(_("faces"), max_length=60, help_text=_("Séparées par des virgules : 0,1,1,2,2,3"))
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        verbose_name = _("dé d'adversaire")
        verbose_name_plural = _("dés d'adversaires")
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.symbol} {self.name} ({self.faces})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``);
        the faces are whole numbers separated by commas, said in French before the calculator reads them."""
        super().clean()
        bad = [f.strip() for f in self.faces.split(",") if f.strip() and int_text(f) is None]
        if bad:
            raise ValidationError(
                {
                    "faces": typography(
                        _("Faces : des nombres entiers séparés par des virgules (« {bad} » n'en est pas un).").format(
                            bad=bad[0][:20]
                        )
                    )
                }
            )
        clean_row(self)

    def face_list(self) -> list[int]:
        return [int(f) for f in self.faces.replace("\u2212", "-").split(",") if f.strip()]


class PowerLevel(models.Model):
    """A row of the power table: name, PC equivalent and the four dice."""

    order = models.PositiveSmallIntegerField(_("ordre"), unique=True)
    name = models.CharField(_("puissance"), max_length=40, unique=True)
    pc_equivalent = models.CharField(_("équivalent PJ"), max_length=10)
    danger = models.PositiveSmallIntegerField(_("dés de Danger 🟫"), validators=[MaxValueValidator(8)])
    menace = models.PositiveSmallIntegerField(_("dés de Menace ⬜"), validators=[MaxValueValidator(8)])
    nuisance = models.PositiveSmallIntegerField(_("dés de Nuisance 🟧"), validators=[MaxValueValidator(8)])

    class Meta:
        verbose_name = _("niveau de puissance")
        verbose_name_plural = _("niveaux de puissance")
        ordering = ["order"]

    def __str__(self) -> str:
        return f"{self.name} ({self.pc_equivalent})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)

    @property
    def dice_symbols(self) -> str:
        return "🟫" * self.danger + "⬜" * self.menace + "🟧" * self.nuisance


class ActionCard(models.Model):
    """An adversary action card: ⚫ cost, initiative, 💧 cost, ⭐ / ✅ / ❌ effects (no ⚠️)."""

    name = models.CharField(_("nom"), max_length=80, unique=True)
    icon = models.CharField(_("icône"), max_length=4, blank=True)
    cost = models.PositiveSmallIntegerField(_("coût ⚫"), default=1, validators=[MaxValueValidator(5)])
    initiative = models.PositiveSmallIntegerField(_("initiative"), default=3, validators=[MaxValueValidator(10)])
    fatigue_cost = models.PositiveSmallIntegerField(
        _("coût de fatigue 💧"), default=0, validators=[MaxValueValidator(10)]
    )
    attack = models.BooleanField(
        _("jet contre la Garde"), default=True, help_text=_("Décocher pour un déplacement sans jet.")
    )
    star_fives = models.PositiveSmallIntegerField(
        _("⭐ Repérez X 5 : X"), default=1, validators=[MinValueValidator(1), MaxValueValidator(4)]
    )
    reusable = models.BooleanField(_("brique réutilisable du livre"), default=False)
    text = models.TextField(_("texte"), blank=True)

    class Meta:
        verbose_name = _("carte d'action")
        verbose_name_plural = _("cartes d'action")
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.icon} {self.name}".strip()

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class CardEffect(models.Model):
    """One effect line of a card (⭐, ✅ or ❌) as structured symbols and states."""

    class Slot(models.TextChoices):
        STAR = "star", _("⭐ Repérez X 5")
        SUCCESS = "success", _("✅ Réussite")
        FAILURE = "failure", _("❌ Échec")

    card = models.ForeignKey(ActionCard, on_delete=models.CASCADE, related_name="effects")
    slot = models.CharField(_("effet"), max_length=10, choices=Slot.choices)
    fatigue = models.PositiveSmallIntegerField(_("💧"), default=0, validators=[MaxValueValidator(20)])
    light = models.PositiveSmallIntegerField(_("💢"), default=0, validators=[MaxValueValidator(20)])
    heavy = models.PositiveSmallIntegerField(_("💔"), default=0, validators=[MaxValueValidator(10)])
    up = models.PositiveSmallIntegerField(_("🔺"), default=0, validators=[MaxValueValidator(10)])
    down = models.PositiveSmallIntegerField(_("🔻"), default=0, validators=[MaxValueValidator(10)])
    bleed = models.PositiveSmallIntegerField(_("🩸"), default=0, validators=[MaxValueValidator(10)])
    stunned = models.BooleanField(_("Sonné 🫨"), default=False)
    entangled = models.BooleanField(_("Entravé 🕸️"), default=False)

    class Meta:
        verbose_name = _("effet de carte")
        verbose_name_plural = _("effets de carte")
        constraints = [models.UniqueConstraint(fields=["card", "slot"], name="quadrature_one_effect_per_slot")]

    def __str__(self) -> str:
        return f"{self.card.name} — {self.get_slot_display()}"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)

    def data(self) -> dict[str, object]:
        return {
            k: getattr(self, k) for k in ("fatigue", "light", "heavy", "up", "down", "bleed", "stunned", "entangled")
        }


class Adversary(NameGrammar):
    """An adversary sheet (A5 landscape), or a horde (``kind = horde``); its name carries its
    grammar (``article``, ``gender``, ``elision``: « le Loup des cendres », « la Nuée de rats »,
    « les Fanatiques du culte »; issue 15, item 2)."""

    name = models.CharField(_("nom"), max_length=80, unique=True)
    kind = models.CharField(
        _("type de fiche"), max_length=10, choices=_choices(EngineKind), default=EngineKind.CREATURE.value
    )
    power = models.ForeignKey(
        PowerLevel,
        verbose_name=_("puissance"),
        on_delete=models.PROTECT,
        related_name="adversaries",
        null=True,
        blank=True,
    )
    danger = models.PositiveSmallIntegerField(_("dés de Danger 🟫"), default=0, validators=[MaxValueValidator(8)])
    menace = models.PositiveSmallIntegerField(_("dés de Menace ⬜"), default=4, validators=[MaxValueValidator(8)])
    nuisance = models.PositiveSmallIntegerField(_("dés de Nuisance 🟧"), default=0, validators=[MaxValueValidator(8)])
    guard_type = models.CharField(
        _("type de Garde"), max_length=10, choices=_choices(EngineGuardType), default="esquive"
    )
    guard = models.PositiveSmallIntegerField(_("Garde"), default=10, validators=[MaxValueValidator(30)])
    fatigue_boxes = models.PositiveSmallIntegerField(
        _("cases de fatigue 💧"), default=4, validators=[MaxValueValidator(20)]
    )
    tenacity = models.PositiveSmallIntegerField(_("Ténacité 🧠"), default=2, validators=[MaxValueValidator(10)])
    action_points = models.PositiveSmallIntegerField(
        _("points d'action ⚫"), default=2, validators=[MaxValueValidator(6)]
    )
    reactions = models.PositiveSmallIntegerField(_("réactions ⚡"), default=0, validators=[MaxValueValidator(4)])
    speed = models.PositiveSmallIntegerField(_("vitesse 🚶"), default=6, validators=[MaxValueValidator(30)])
    disposition = models.CharField(
        _("disposition de départ"),
        max_length=10,
        choices=[(EngineMental.AGRESSIF.value, _("😠 Agressive")), (EngineMental.PRUDENT.value, _("😟 Prudente"))],
        default=EngineMental.AGRESSIF.value,
    )
    predator_reflexes = models.BooleanField(_("Réflexes de prédateur"), default=False)
    bloodthirsty = models.BooleanField(_("Sanguinaire"), default=False)
    exhausting_strike = models.BooleanField(_("Frappe épuisante"), default=False)
    terror_aura = models.BooleanField(_("Aura de terreur"), default=False)
    hive_mind = models.BooleanField(_("Esprit de ruche"), default=False)
    hypnotic_gaze = models.BooleanField(_("Regard hypnotique"), default=False)
    horde_direction = models.CharField(
        _("horde : évolution de l'état"), max_length=16, choices=_choices(EngineMoodDirection), default="rage_to_panic"
    )
    horde_high_members = models.PositiveSmallIntegerField(_("horde : membres pour l'état de départ"), default=7)
    horde_low_members = models.PositiveSmallIntegerField(_("horde : membres pour l'état final"), default=3)
    horde_stability_dealt = models.PositiveSmallIntegerField(_("horde : ◇ en infligeant une blessure"), default=1)
    horde_stability_taken = models.PositiveSmallIntegerField(_("horde : ◇ en subissant une blessure"), default=0)
    deck = models.ManyToManyField(ActionCard, through="DeckEntry", related_name="adversaries", verbose_name=_("deck"))
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        verbose_name = _("adversaire")
        verbose_name_plural = _("adversaires")
        ordering = ["kind", "danger", "menace", "name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class BodyPart(models.Model):
    adversary = models.ForeignKey(Adversary, on_delete=models.CASCADE, related_name="parts")
    order = models.PositiveSmallIntegerField(_("ordre"), default=1)
    name = models.CharField(_("partie du corps"), max_length=60)
    armour = models.PositiveSmallIntegerField(_("Armure 🛡️"), default=0, validators=[MaxValueValidator(10)])
    natural_armour = models.BooleanField(_("Cuirasse naturelle"), default=False)

    class Meta:
        verbose_name = _("partie du corps")
        verbose_name_plural = _("parties du corps")
        ordering = ["adversary", "order"]
        constraints = [models.UniqueConstraint(fields=["adversary", "order"], name="quadrature_part_order")]

    def __str__(self) -> str:
        return f"{self.adversary.name} — {self.name}"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class Block(models.Model):
    """A block of boxes ▢ of a part, and the capability it grants while intact."""

    adversary = models.ForeignKey(Adversary, on_delete=models.CASCADE, related_name="blocks")
    part = models.ForeignKey(BodyPart, verbose_name=_("partie"), on_delete=models.CASCADE, related_name="blocks")
    order = models.PositiveSmallIntegerField(_("ordre (du haut vers le bas)"), default=1)
    boxes = models.PositiveSmallIntegerField(_("cases ▢"), validators=[MinValueValidator(1), MaxValueValidator(20)])
    capability = models.CharField(_("capacité"), max_length=16, choices=_choices(EngineCapability), default="other")
    value = models.PositiveSmallIntegerField(_("valeur"), default=0, validators=[MaxValueValidator(10)])
    card = models.ForeignKey(
        ActionCard,
        verbose_name=_("action conférée"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="blocks",
    )
    label = models.CharField(_("libellé"), max_length=80, blank=True)

    class Meta:
        verbose_name = _("bloc de cases")
        verbose_name_plural = _("blocs de cases")
        ordering = ["adversary", "part__order", "order"]

    def __str__(self) -> str:
        return f"{self.part} — {self.boxes} ▢ ({self.get_capability_display()})"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)


class DeckEntry(models.Model):
    adversary = models.ForeignKey(Adversary, on_delete=models.CASCADE, related_name="deck_entries")
    card = models.ForeignKey(ActionCard, verbose_name=_("carte"), on_delete=models.PROTECT, related_name="deck_entries")
    order = models.PositiveSmallIntegerField(_("ordre"), default=1)

    class Meta:
        verbose_name = _("carte du deck")
        verbose_name_plural = _("cartes du deck")
        ordering = ["adversary", "order"]
        constraints = [models.UniqueConstraint(fields=["adversary", "card"], name="quadrature_card_once_per_deck")]

    def __str__(self) -> str:
        return f"{self.adversary.name} — {self.card.name}"

    def clean(self) -> None:
        """Issue 14, item 5: refuse a row the calculator could not use (``bestiary.validation``)."""
        super().clean()
        clean_row(self)
