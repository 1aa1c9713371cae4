from django.contrib import admin

from bestiary.quadrature.models import ActionCard, Adversary, Block, BodyPart, CardEffect, DeckEntry, Die, PowerLevel
from bestiary.validation import CheckedAdmin, CheckedInlineFormSet


@admin.register(Die)
class DieAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["symbol", "name", "rung", "faces"]


@admin.register(PowerLevel)
class PowerLevelAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["order", "name", "pc_equivalent", "danger", "menace", "nuisance"]
    list_display_links = ["name"]


class CardEffectInline(admin.TabularInline):  # type: ignore[type-arg]
    formset = CheckedInlineFormSet  # issue 14: the calculator checks the rows with their parent
    model = CardEffect
    extra = 0
    max_num = 3


@admin.register(ActionCard)
class ActionCardAdmin(CheckedAdmin, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "icon", "cost", "initiative", "fatigue_cost", "attack", "star_fives", "reusable"]
    list_filter = ["reusable", "cost", "attack"]
    search_fields = ["name", "text"]
    inlines = [CardEffectInline]


class BodyPartInline(admin.TabularInline):  # type: ignore[type-arg]
    formset = CheckedInlineFormSet  # issue 14: the calculator checks the rows with their parent
    model = BodyPart
    extra = 0


class BlockInline(admin.TabularInline):  # type: ignore[type-arg]
    formset = CheckedInlineFormSet  # issue 14: the calculator checks the rows with their parent
    model = Block
    extra = 0
    autocomplete_fields = ["card"]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):  # type: ignore[no-untyped-def]
        # a block can only belong to a part of the adversary being edited
        if db_field.name == "part" and request.resolver_match and request.resolver_match.kwargs.get("object_id"):
            kwargs["queryset"] = BodyPart.objects.filter(adversary_id=request.resolver_match.kwargs["object_id"])
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class DeckEntryInline(admin.TabularInline):  # type: ignore[type-arg]
    formset = CheckedInlineFormSet  # issue 14: the calculator checks the rows with their parent
    model = DeckEntry
    extra = 0
    autocomplete_fields = ["card"]


@admin.register(Adversary)
class AdversaryAdmin(CheckedAdmin, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "kind", "power", "guard_type", "guard", "action_points", "fatigue_boxes"]
    list_filter = ["kind", "power", "guard_type", "disposition", "bloodthirsty", "predator_reflexes", "hive_mind"]
    search_fields = ["name", "notes", "parts__name", "deck__name"]
    list_select_related = ["power"]
    inlines = [BodyPartInline, BlockInline, DeckEntryInline]
    fieldsets = [
        (
            None,
            {"fields": ["name", "kind", "power", ("danger", "menace", "nuisance"), ("guard_type", "guard"), "notes"]},
        ),
        (
            # how the story says the name: « le Loup des cendres », « la Nuée de rats » (issue 15)
            "Grammaire du nom",
            {"fields": [("article", "gender", "elision")]},
        ),
        (
            "Ressources",
            {"fields": [("fatigue_boxes", "tenacity"), ("action_points", "reactions", "speed"), "disposition"]},
        ),
        (
            "Traits",
            {
                "fields": [
                    ("predator_reflexes", "bloodthirsty", "exhausting_strike"),
                    ("terror_aura", "hive_mind", "hypnotic_gaze"),
                ]
            },
        ),
        (
            "Horde",
            {
                "classes": ["collapse"],
                "fields": [
                    "horde_direction",
                    ("horde_high_members", "horde_low_members"),
                    ("horde_stability_dealt", "horde_stability_taken"),
                ],
            },
        ),
    ]
