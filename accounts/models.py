"""Invitations: a game master (or an admin) invites someone by e-mail; the link lets them choose a
login and a password. Accounts are otherwise made by an admin in the Django admin."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Invitation(models.Model):
    email = models.EmailField(_("e-mail"))
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="invitations_sent"
    )
    created_at = models.DateTimeField(_("envoyée le"), auto_now_add=True)
    accepted_at = models.DateTimeField(_("acceptée le"), null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.email

    @property
    def expires_at(self) -> datetime:
        return self.created_at + timedelta(days=settings.INVITATION_DAYS)

    def usable(self) -> bool:
        return self.accepted_at is None and timezone.now() < self.expires_at
