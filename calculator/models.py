"""Shared results: a resolution frozen as it was shown, behind a short permanent link."""

from __future__ import annotations

import secrets
import string
from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

ALPHABET = string.ascii_letters + string.digits
ID_LENGTH = 8


def new_share_id() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(ID_LENGTH))


class SharedResult(models.Model):
    """Everything needed to show a result again without recomputing it.

    ``request`` is the exact resolve request (full scenario, every die as read, seed); ``result``
    is the engine's JSON output at the time (outcome, numbers, events, narrative);
    ``summary`` the "Résultat final" rows. The page shows these, frozen, whatever the rules or
    the bestiary become, and says when a re-resolution would now differ.
    """

    id = models.CharField(primary_key=True, max_length=16, default=new_share_id, editable=False)
    ruleset = models.SlugField(_("système de règles"), max_length=40)
    engine_version = models.CharField(_("version du moteur"), max_length=20)
    request = models.JSONField(_("requête"))
    result = models.JSONField(_("résultat"))
    summary = models.JSONField(_("résultat final"), default=list)
    permalink = models.TextField(_("lien de la page de calcul"), blank=True)
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)

    class Meta:
        verbose_name = _("résultat partagé")
        verbose_name_plural = _("résultats partagés")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.ruleset}/{self.id}"

    @property
    def story(self) -> list[str]:
        return list(self.result.get("narrative", {}).get("story", []))

    @property
    def scene(self) -> str:
        return str(self.result.get("narrative", {}).get("scene", ""))

    def event_groups(self) -> list[tuple[str, list[dict[str, Any]]]]:
        groups: dict[str, list[dict[str, Any]]] = {}
        for event in self.result.get("events", []):
            groups.setdefault(event.get("group", ""), []).append(event)
        return list(groups.items())
