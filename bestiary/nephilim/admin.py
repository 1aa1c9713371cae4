from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from bestiary.nephilim.models import Ammunition, Approach, Creature, DefenceType, Effect, Protection, Weapon

ELEMENTS = ("feu", "eau", "air", "terre", "lune")

if TYPE_CHECKING:
    ModelAdmin = admin.ModelAdmin[Any]
else:
    ModelAdmin = admin.ModelAdmin


@admin.register(Approach)
class ApproachAdmin(ModelAdmin):
    list_display = ("name", "kind", "attack_modifier", "damage_bonus_phys", "elements_label", "order")
    list_filter = ("kind", *ELEMENTS)
    search_fields = ("name", "description")
    list_editable = ("order",)


@admin.register(Weapon)
class WeaponAdmin(ModelAdmin):
    list_display = ("name", "category", "degree", "phys", "mag", "type", "element", "magical", "null_non_mag_prot")
    list_filter = ("category", "type", "element", "magical", "firearm", "null_non_mag_prot")
    search_fields = ("name",)
    fieldsets = (
        (None, {"fields": ["name", "category", "order", "degree", "phys", "mag", "type", "element"]}),
        ("Magie", {"fields": ["magical", "null_non_mag_prot"]}),
        (
            "Tir",
            {"fields": ["firearm", "range_m", "range_label", "ammunition", "unique", "cpc", "raf_ctrl", "raf_cont"]},
        ),
    )


@admin.register(Ammunition)
class AmmunitionAdmin(ModelAdmin):
    list_display = ("name", "damage_bonus", "compatible")
    list_filter = ("compatible",)
    search_fields = ("name",)


@admin.register(Protection)
class ProtectionAdmin(ModelAdmin):
    list_display = ("name", "family", "phys", "mag", "magical", "element", "optional_bonus")
    list_filter = ("family", "magical", "element")
    search_fields = ("name", "source")


@admin.register(DefenceType)
class DefenceTypeAdmin(ModelAdmin):
    list_display = (
        "name",
        "context",
        "style",
        "modifier",
        "success_reduce_phys",
        "success_reduce_mag",
        "success_cancel",
        "elements_label",
    )
    list_filter = ("context", "style", "success_cancel", "rolls", *ELEMENTS)
    search_fields = ("name",)


@admin.register(Effect)
class EffectAdmin(ModelAdmin):
    list_display = ("name", "side", "kind", "scope", "condition", "behaviour")
    list_filter = ("side", "kind", "scope", "condition", "behaviour")
    search_fields = ("name", "note", "description")
    fieldsets = (
        (None, {"fields": ["name", "side", "kind", "scope", "order", "description", "note"]}),
        (
            "Degrés",
            {
                "fields": [
                    "condition",
                    "attack",
                    "defence",
                    "opponent_defence",
                    "opponent_defence_condition",
                    "opponent_next_round_attack",
                    "initiative",
                    "initiative_condition",
                    "metamorphe",
                ]
            },
        ),
        (
            "Dommages et protections",
            {"fields": ["damage", "damage_phys", "damage_mag", "protection_phys", "protection_mag"]},
        ),
        (
            "Annulations et drapeaux",
            {
                "fields": [
                    "cancel_phys",
                    "cancel_mag",
                    "cancel_all",
                    "null_non_mag_prot",
                    "no_extra_defence_malus",
                    "weapon_magical",
                    "armour_magical",
                ]
            },
        ),
        ("Comportement nommé", {"fields": ["behaviour", "element", "threshold"]}),
    )


@admin.register(Creature)
class CreatureAdmin(ModelAdmin):
    list_display = (
        "name",
        "category",
        "degree",
        "defence_degree",
        "ka_feu",
        "sensitivity",
        "weapon",
        "armour",
        "article",
        "gender",
    )
    list_filter = ("category", "sensitivity", "approach_element", "article", "gender")
    search_fields = ("name", "notes", "weapon__name")
    list_select_related = ("weapon", "armour")
    autocomplete_fields = ("weapon", "armour", "shield", "other")
    fieldsets = (
        (None, {"fields": ["name", "category", "notes"]}),
        # issue 15: how the story says the name (« Sœur Agathe », « le Mercenaire »)
        (_("Grammaire du nom"), {"fields": ["article", "gender", "elision"]}),
        (
            _("Profil"),
            {
                "fields": [
                    "degree",
                    "defence_degree",
                    "approach_element",
                    "approach_value",
                    "ka_feu",
                    "initiative_ka",
                    "metamorphe",
                    "sensitivity",
                ]
            },
        ),
        (_("Arme et protections"), {"fields": ["weapon", "armour", "shield", "other"]}),
    )
