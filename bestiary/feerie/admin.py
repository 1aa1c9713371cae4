from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from bestiary.feerie import models as m
from bestiary.validation import CheckedAdmin, CheckedInlineFormSet


@admin.register(m.Settings)
class SettingsAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "dice_plus", "dice_minus", "dice_sides", "incident_threshold")


@admin.register(m.SurfaceRow)
class SurfaceRowAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("taille_min", "taille_max", "surface")


@admin.register(m.Allure)
class AllureAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("pace", "divisor", "malus", "charge_bonus")


@admin.register(m.CoverMaterial)
class CoverMaterialAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "example", "quarters")
    list_filter = ("quarters",)
    search_fields = ("name", "example")


@admin.register(m.CoverOpacity)
class CoverOpacityAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "malus")


@admin.register(m.Lighting)
class LightingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "contact", "distance")
    list_filter = ("contact",)
    search_fields = ("name",)


@admin.register(m.RangedDifficulty)
class RangedDifficultyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("task", "modifier", "example")
    search_fields = ("task", "example")


@admin.register(m.RangeBand)
class RangeBandAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("distance", "apparent_size", "modifier")
    search_fields = ("distance",)


@admin.register(m.Terrain)
class TerrainAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "modifier")
    search_fields = ("name",)


@admin.register(m.SpecialBlow)
class SpecialBlowAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("kind", "attack_malus", "ranged_attack_malus", "defense_malus", "effect_value")
    search_fields = ("kind", "effect")


@admin.register(m.TacticPreset)
class TacticPresetAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "initiative", "attack", "defense", "reference_cap")
    search_fields = ("name", "description")


class CreatureAttributeInline(admin.TabularInline):  # type: ignore[type-arg]
    formset = CheckedInlineFormSet  # issue 14: the calculator checks the rows with their parent
    model = m.CreatureAttribute
    extra = 0


@admin.register(m.Creature)
class CreatureAdmin(CheckedAdmin, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = (
        "name",
        "article",
        "gender",
        "vigilance",
        "habilete",
        "puissance",
        "resistance",
        "taille",
        "essence",
        "mount",
    )
    list_filter = ("taille", "mount", "article", "gender")
    search_fields = ("name", "notes", "attributes__name")
    fieldsets = (
        (None, {"fields": ("name", "vigilance", "habilete", "puissance", "resistance", "taille", "essence", "mount")}),
        # how the story says the name (issue 15): « le Lutin », « l'Ogre », « Rübezahl »
        (_("Grammaire du nom"), {"fields": ("article", "gender", "elision")}),
        (None, {"fields": ("notes",)}),
    )
    inlines = (CreatureAttributeInline,)
