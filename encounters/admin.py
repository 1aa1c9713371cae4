from django.contrib import admin

from encounters.models import Combatant, Encounter, LogEntry


class CombatantInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Combatant
    extra = 0
    fields = ("position", "kind", "name", "present", "state")


@admin.register(Encounter)
class EncounterAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "system", "owner", "version", "updated_at")
    list_filter = ("system",)
    search_fields = ("name", "owner__username")
    inlines = [CombatantInline]
    readonly_fields = ("version",)


@admin.register(LogEntry)
class LogEntryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("encounter", "seq", "title", "action", "undone", "created_at")
    list_filter = ("action", "undone")
    readonly_fields = ("changes", "clock_before", "clock_after", "detail")
