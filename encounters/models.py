"""An encounter: a game master's fight, its combatants with their live state, and the log of every
change (which is also the undo/redo history)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Encounter(models.Model):
    """``version`` grows on every change: a form carries the version it was drawn from, and a change
    made from a stale version (another tab) is refused."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="encounters", verbose_name=_("MJ")
    )
    system = models.SlugField(_("système de règles"), max_length=40)
    name = models.CharField(_("nom"), max_length=120)
    clock = models.JSONField(_("tour ou manche"), default=dict)
    version = models.PositiveIntegerField(_("version"), default=1)
    # the game master's turn order (combatant keys) over the rules' (issue 16); empty: the rules'
    turn_order = models.JSONField(_("ordre du tour choisi"), default=list, blank=True)
    created_at = models.DateTimeField(_("créée le"), auto_now_add=True)
    updated_at = models.DateTimeField(_("modifiée le"), auto_now=True)

    class Meta:
        verbose_name = _("rencontre")
        verbose_name_plural = _("rencontres")
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return self.name


class Combatant(models.Model):
    """A combatant; ``state`` is its rule system's state dataclass as JSON. A removed combatant is
    kept (``present`` off) so that undoing the removal brings it back as it was."""

    class Visibility(models.TextChoices):
        """What the players' view shows of this combatant (issue 16); ``auto``: the kind's default
        (a player character's gauges exactly, anyone else's state in words)."""

        AUTO = "auto", _("selon la sorte")
        EXACT = "exact", _("jauges exactes")
        TIER = "tier", _("état en mots")
        NAME = "name", _("nom seul")
        HIDDEN = "hidden", _("caché")

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="combatants")
    kind = models.SlugField(_("sorte"), max_length=20)
    name = models.CharField(_("nom"), max_length=120)
    position = models.PositiveIntegerField(_("ordre"), default=0)
    state = models.JSONField(_("état"), default=dict)
    present = models.BooleanField(_("présent"), default=True)
    visibility = models.CharField(
        _("vue des joueurs"), max_length=10, choices=Visibility.choices, default=Visibility.AUTO
    )

    class Meta:
        verbose_name = _("combattant")
        verbose_name_plural = _("combattants")
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def key(self) -> str:
        return str(self.pk)


class LogEntry(models.Model):
    """One change of the encounter, told as a story and as technical lines.

    ``changes`` holds, for each combatant touched, its whole state and presence before and after:
    undo writes back ``before``, redo ``after``, so clamped values and absorbed damage come back
    exactly. Entries undone form the tail of the log until a new change drops them.
    """

    class Action(models.TextChoices):
        APPLY = "apply", _("Résultat appliqué")
        ADVANCE = "advance", _("Tour suivant")
        ADD = "add", _("Combattant ajouté")
        EDIT = "edit", _("Combattant modifié")
        ADJUST = "adjust", _("Ajustement")
        REMOVE = "remove", _("Combattant retiré")
        CONDITION = "condition", _("Effet en cours")

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="log")
    seq = models.PositiveIntegerField(_("n°"))
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    title = models.CharField(_("titre"), max_length=300)
    clock_label = models.CharField(_("moment"), max_length=120, blank=True)
    story = models.JSONField(_("récit"), default=list)
    lines = models.JSONField(_("lignes techniques"), default=list)
    changes = models.JSONField(_("changements"), default=list)
    clock_before = models.JSONField(default=dict)
    clock_after = models.JSONField(default=dict)
    detail = models.JSONField(_("détail"), default=dict, blank=True)
    undone = models.BooleanField(_("annulé"), default=False)
    created_at = models.DateTimeField(_("le"), auto_now_add=True)

    class Meta:
        verbose_name = _("entrée du journal")
        verbose_name_plural = _("journal")
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["encounter", "seq"], name="log_seq_unique")]

    def __str__(self) -> str:
        return f"{self.encounter_id}#{self.seq} {self.title}"

    @property
    def permalink(self) -> str:
        """The « Rejouer ce résultat » link, or "" when the stored one is not a link to this site's
        calculator (a row written before the import checked it: issue 16)."""
        from encounters.links import safe_replay_link

        value: Any = self.detail.get("permalink", "") if isinstance(self.detail, dict) else ""
        return value if safe_replay_link(value) else ""


class PlayerLink(models.Model):
    """The read-only link the players open on their phones (issue 16): an unguessable token; the
    game master revokes it by deleting the row (a new link gets a new token)."""

    encounter = models.OneToOneField(Encounter, on_delete=models.CASCADE, related_name="player_link")
    token = models.CharField(_("jeton"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)

    class Meta:
        verbose_name = _("lien des joueurs")
        verbose_name_plural = _("liens des joueurs")

    def __str__(self) -> str:
        return f"{self.encounter_id}: {self.token[:6]}…"
