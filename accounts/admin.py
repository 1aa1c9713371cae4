from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse

from accounts import services
from accounts.models import Invitation


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """An admin invites a game master: saving a new invitation e-mails its link."""

    list_display = ("email", "invited_by", "created_at", "accepted_at")
    readonly_fields = ("token", "created_at", "accepted_at", "user", "invited_by")
    search_fields = ("email",)

    def save_model(self, request: HttpRequest, obj: Invitation, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        url = request.build_absolute_uri(reverse("accept_invitation", args=["TOKEN"]))
        sent = services.invitation_send(email=obj.email, invited_by=request.user, accept_url=url)
        obj.pk, obj.token, obj.created_at = sent.pk, sent.token, sent.created_at
