from django.contrib import admin

from accounts.models import Invitation


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("email", "invited_by", "created_at", "accepted_at")
    readonly_fields = ("token", "created_at", "accepted_at", "user")
    search_fields = ("email",)
