"""The admin of shared results and short links (issue 17, finding 2: nobody could clean them up), and
the admin site's French titles (issue 15, item 4)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from calculator.models import SharedResult, ShortLink

# Issue 15, item 4: the admin in French, never « Administration de Django » (every app's name is
# French too: the apps' ``verbose_name``, django-axes renamed by ``accounts.apps.AxesConfig``).
admin.site.site_header = _("Administration d'Estoc")
admin.site.site_title = _("Administration d'Estoc")
admin.site.index_title = _("Bestiaire, comptes et partages")


class CreatorFilter(admin.SimpleListFilter):
    """Anonymous shares (a visitor's session) or a GM's."""

    title = _("créateur")
    parameter_name = "creator_kind"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("anonymous", _("anonyme (session)")), ("account", _("compte de MJ"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "anonymous":
            return queryset.filter(creator__isnull=True)
        if self.value() == "account":
            return queryset.filter(creator__isnull=False)
        return queryset


@admin.register(SharedResult)
class SharedResultAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """List, filter, search and delete shares; a share is frozen: nothing in it is edited here."""

    list_display = ("id", "ruleset", "creator_label", "size", "created_at")
    list_filter = ("ruleset", CreatorFilter, "created_at")
    search_fields = ("id",)
    date_hierarchy = "created_at"
    list_select_related = ("creator",)
    ordering = ("-created_at",)
    fields = (
        "id",
        "ruleset",
        "engine_version",
        "creator",
        "creator_session",
        "size",
        "created_at",
        "permalink",
        "request",
        "result",
        "summary",
    )
    readonly_fields = fields
    actions = ["delete_selected"]

    @admin.display(description=_("créateur"), ordering="creator__username")
    def creator_label(self, obj: SharedResult) -> str:
        if obj.creator is not None:
            return str(obj.creator)
        return str(_("anonyme")) if obj.creator_session else str(_("inconnu"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a share is made by « Partager », from a resolved result

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ShortLink)
class ShortLinkAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "created_at")
    search_fields = ("id",)
    date_hierarchy = "created_at"
    readonly_fields = ("id", "url", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
