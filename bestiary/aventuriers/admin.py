from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from bestiary.aventuriers.models import (
    DieFace,
    DieType,
    Monster,
    MonsterDie,
    Protection,
    ProtectionDie,
    TableSettings,
    Weapon,
    WeaponDie,
)
from bestiary.validation import CheckedAdmin, CheckedInlineFormSet


class DieFaceInline(admin.TabularInline):  # type: ignore[type-arg]
    formset = CheckedInlineFormSet  # issue 14: the calculator checks the rows with their parent
    model = DieFace
    extra = 0


@admin.register(DieType)
class DieTypeAdmin(CheckedAdmin, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "key", "position", "faces_text", "verified"]
    list_filter = ["verified"]
    search_fields = ["name", "key", "notes"]
    inlines = [DieFaceInline]

    @admin.display(description=_("faces"))
    def faces_text(self, obj: DieType) -> str:
        text = " · ".join(("💥" * f.damage + "🛡" * f.shield + "⚡" * f.lightning) or "—" for f in obj.faces.all())
        return text if obj.verified else f"{text} ({_('faces par défaut — à vérifier sur vos dés')})"


@admin.register(TableSettings)
class TableSettingsAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = [
        "name",
        "zone_shape",
        "coup_bas_bonus",
        "contrecoup_without_shield",
        "monster_stamina",
        "success_die",
    ]


class WeaponDieInline(admin.TabularInline):  # type: ignore[type-arg]
    formset = CheckedInlineFormSet  # issue 14: the calculator checks the rows with their parent
    model = WeaponDie
    extra = 0


@admin.register(Weapon)
class WeaponAdmin(CheckedAdmin, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "reach", "spell", "diagonals", "unblockable", "flash"]
    list_filter = ["reach", "spell", "diagonals", "unblockable", "flash"]
    search_fields = ["name", "notes"]
    inlines = [WeaponDieInline]


class ProtectionDieInline(admin.TabularInline):  # type: ignore[type-arg]
    formset = CheckedInlineFormSet  # issue 14: the calculator checks the rows with their parent
    model = ProtectionDie
    extra = 0


@admin.register(Protection)
class ProtectionAdmin(CheckedAdmin, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name"]
    list_filter = ["dice__die"]
    search_fields = ["name", "notes"]
    inlines = [ProtectionDieInline]


class MonsterDieInline(admin.TabularInline):  # type: ignore[type-arg]
    formset = CheckedInlineFormSet  # issue 14: the calculator checks the rows with their parent
    model = MonsterDie
    extra = 0


@admin.register(Monster)
class MonsterAdmin(CheckedAdmin, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "pv", "px", "attack_name", "reach", "riposte", "attaque_eclair"]
    list_filter = ["reach", "unblockable", "flash", "riposte", "contrecoup", "attaque_eclair", "attaque_opportunite"]
    search_fields = ["name", "attack_name", "notes"]
    inlines = [MonsterDieInline]
    fieldsets = [
        (None, {"fields": ["name", "pv", "px"]}),
        # how the récit says the name (issue 15): « le Gobelin », « l'Araignée géante »
        (_("Grammaire du nom"), {"fields": ["article", "gender", "elision"]}),
        (_("Attaque"), {"fields": ["attack_name", "reach", "diagonals", "unblockable", "flash"]}),
        (_("Talents"), {"fields": ["riposte", "contrecoup", "attaque_eclair", "attaque_opportunite", "coup_bas"]}),
        (None, {"fields": ["notes"]}),
    ]
