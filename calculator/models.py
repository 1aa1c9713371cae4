"""Shared results: a resolution frozen as it was shown, behind a short permanent link; short links
of permalinks too long to be copied (calculator/short_links.py)."""

from __future__ import annotations

import hashlib
import json
import secrets
import string
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

ALPHABET = string.ascii_letters + string.digits
ID_LENGTH = 8


def new_share_id() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(ID_LENGTH))


def stored_json(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON: what a share's size is counted in (SHARE_MAX_BYTES)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")


def request_digest(ruleset: str, engine_version: str, request: Any) -> str:
    """The SHA-256 (hex) of a share's ruleset, engine version and resolve request: the same request
    shared again by the same creator finds its share (issue 17, finding 2)."""
    return hashlib.sha256(stored_json([ruleset, engine_version, request])).hexdigest()


class SharedResult(models.Model):
    """Everything needed to show a result again without recomputing it.

    ``request`` is the exact resolve request (full scenario, every die as read, seed); ``result``
    is the engine's JSON output at the time (outcome, numbers, events, narrative);
    ``summary`` the "Résultat final" rows. The page shows these, frozen, whatever the rules or
    the bestiary become, and says when a re-resolution would now differ.

    Its creator (issue 17, finding 2): the GM's account, or for an anonymous visitor a keyed hash
    of the session's key (``creator_session``: the key itself would let whoever reads the table
    take the session over). A GM's account deleted deletes its shares (CASCADE, as its
    encounters): what a person published goes with the account, nothing is left that no one can
    claim. ``size``: bytes of the stored JSON (``request``, ``result``, ``summary``), at most
    ``SHARE_MAX_BYTES``; ``request_hash``: :func:`request_digest`, for the creator's duplicates.
    Anonymous shares are purged after a while (``manage.py purge_shares``).
    """

    id = models.CharField(primary_key=True, max_length=16, default=new_share_id, editable=False)
    ruleset = models.SlugField(_("système de règles"), max_length=40)
    engine_version = models.CharField(_("version du moteur"), max_length=20)
    request = models.JSONField(_("requête"))
    result = models.JSONField(_("résultat"))
    summary = models.JSONField(_("résultat final"), default=list)
    permalink = models.TextField(_("lien de la page de calcul"), blank=True)
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True, db_index=True)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="shared_results",
        verbose_name=_("MJ"),
    )
    creator_session = models.CharField(_("session anonyme (empreinte)"), max_length=64, blank=True, db_index=True)
    request_hash = models.CharField(_("empreinte de la requête"), max_length=64, blank=True, db_index=True)
    size = models.PositiveIntegerField(_("taille (octets)"), default=0)

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


class ShortLink(models.Model):
    """A permalink too long even in its compact form (issue 17, finding 9), behind ``/p/<id>``.

    ``id``: 96 bits of the SHA-256 of ``url`` (calculator.short_links.short_id), so the same result
    always gets the same short link; ``url``: the calculator page's path and query, rendered as it
    is by ``/p/<id>`` (no redirect to the long URL)."""

    id = models.CharField(primary_key=True, max_length=43, editable=False)
    url = models.TextField(_("lien complet"))
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)

    class Meta:
        verbose_name = _("lien court")
        verbose_name_plural = _("liens courts")

    def __str__(self) -> str:
        return f"/p/{self.id}"
