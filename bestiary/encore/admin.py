from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from bestiary.encore.models import NPC, HealthTier, Protection, Settings, Weapon
from bestiary.validation import CheckedAdmin, CheckedInlineFormSet


class HealthTierInline(admin.TabularInline):  # type: ignore[type-arg]
    formset = CheckedInlineFormSet  # issue 14: the calculator checks the rows with their parent
    model = HealthTier
    extra = 0


@admin.register(Settings)
class SettingsAdmin(CheckedAdmin, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "success_face", "speciality_dice", "healthy_tier"]
    inlines = [HealthTierInline]


@admin.register(Weapon)
class WeaponAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "category", "damage", "area", "target_limit"]
    list_filter = ["area", "category", "damage"]
    search_fields = ["name", "category", "notes"]


@admin.register(Protection)
class ProtectionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "kind", "value"]
    list_filter = ["kind", "value"]
    search_fields = ["name"]


@admin.register(NPC)
class NPCAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "article", "gender", "menace", "sante", "weapon", "protection", "boss"]
    list_filter = ["menace", "boss", "weapon", "gender"]
    search_fields = ["name", "notes", "weapon__name"]
    list_select_related = ["weapon"]
    fieldsets = [
        (None, {"fields": ["name", "menace", "sante", "weapon", "protection", "boss", "notes"]}),
        # how the story says the name (issue 15): « l'Arbalétrier », « la Sorcière des marais »
        (_("Grammaire du nom"), {"fields": ["article", "gender", "elision"]}),
    ]
