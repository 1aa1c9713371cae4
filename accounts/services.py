"""Inviting a game master and accepting the invitation."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import Invitation

SUBJECT = "Invitation à Estoc, le calculateur de combat"


def invitation_send(*, email: str, invited_by: Any, accept_url: str) -> Invitation:
    """Create an invitation and e-mail its link (``accept_url`` gets the token appended)."""
    invitation = Invitation.objects.create(email=email, invited_by=invited_by)
    link = accept_url.replace("TOKEN", invitation.token)
    body = render_to_string("accounts/invitation_email.txt", {"invitation": invitation, "link": link})
    send_mail(SUBJECT, body, None, [email])
    return invitation


def invitation_accept(*, invitation: Invitation, username: str, password: str) -> Any:
    with transaction.atomic():
        user = get_user_model().objects.create_user(username=username, email=invitation.email, password=password)
        invitation.accepted_at = timezone.now()
        invitation.user = user
        invitation.save(update_fields=["accepted_at", "user"])
    return user
