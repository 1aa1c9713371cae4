"""Read functions over the Aventuriers tables."""

from typing import Any

from django.db.models import Prefetch

from bestiary.aventuriers.models import DieType, Monster, MonsterDie, Protection, TableSettings, Weapon


def die_type_list() -> list[DieType]:
    return list(DieType.objects.prefetch_related("faces").order_by("position", "key"))


def die_types_data() -> list[dict[str, Any]]:
    """The dice of the table as scenario data (``die_types``), in flash-defence order."""
    out: list[dict[str, Any]] = []
    for die in die_type_list():
        faces = [{"damage": f.damage, "shield": f.shield, "lightning": f.lightning} for f in die.faces.all()]
        if len(faces) >= 2:
            out.append({"key": die.key, "name": die.name, "faces": faces})
    return out


def settings_data() -> dict[str, Any]:
    """The table's dice and settings as scenario data; the engine's defaults when none exist."""
    data: dict[str, Any] = {}
    dice = die_types_data()
    if dice:
        data["die_types"] = dice
    settings = TableSettings.objects.select_related("success_die").order_by("pk").first()
    if settings is not None:
        rules: dict[str, Any] = {
            "zone_shape": settings.zone_shape,
            "coup_bas_bonus": settings.coup_bas_bonus,
            "contrecoup_without_shield": settings.contrecoup_without_shield,
            "monster_stamina": settings.monster_stamina,
        }
        if settings.success_die is not None:
            rules["success_die"] = settings.success_die.key
        data["rules"] = rules
    return data


def weapon_list() -> list[Weapon]:
    return list(Weapon.objects.prefetch_related("dice__die").order_by("spell", "name"))


def protection_list() -> list[Protection]:
    return list(Protection.objects.prefetch_related("dice__die").order_by("name"))


def monster_list() -> list[Monster]:
    dice = Prefetch("dice", queryset=MonsterDie.objects.select_related("die").order_by("position", "pk"))
    return list(Monster.objects.prefetch_related(dice).order_by("px", "name"))
