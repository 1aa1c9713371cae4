"""Read functions over the enCORE tables."""

from typing import Any

from bestiary.encore.models import NPC, Protection, Settings, Weapon


def settings_data() -> dict[str, Any]:
    """The table's settings as scenario data (``rules``); the engine's defaults when none exist."""
    settings = Settings.objects.prefetch_related("tiers").order_by("pk").first()
    if settings is None:
        return {}
    rules: dict[str, Any] = {
        "success_face": settings.success_face,
        "speciality_dice": settings.speciality_dice,
        "healthy_tier": settings.healthy_tier,
    }
    tiers = [{"name": t.name, "numerator": t.numerator, "denominator": t.denominator} for t in settings.tiers.all()]
    if tiers:
        rules["tiers"] = tiers
    return {"rules": rules}


def npc_list() -> list[NPC]:
    return list(NPC.objects.select_related("weapon").order_by("menace", "name"))


def weapon_list() -> list[Weapon]:
    return list(Weapon.objects.order_by("damage", "name"))


def protection_list(kind: str) -> list[Protection]:
    return list(Protection.objects.filter(kind=kind).order_by("value", "name"))
