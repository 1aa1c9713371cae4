"""Read functions over the Nephilim tables."""

from bestiary.nephilim.models import Ammunition, Approach, Creature, DefenceType, Effect, Protection, Weapon


def approach_list() -> list[Approach]:
    return list(Approach.objects.order_by("order", "name"))


def weapon_list() -> list[Weapon]:
    return list(Weapon.objects.order_by("category", "order", "name"))


def ammunition_list() -> list[Ammunition]:
    return list(Ammunition.objects.select_related("compatible").order_by("order", "name"))


def protection_list(*families: str) -> list[Protection]:
    return list(Protection.objects.filter(family__in=families).order_by("family", "order", "name"))


def defence_list() -> list[DefenceType]:
    return list(DefenceType.objects.order_by("context", "order", "name"))


def effect_list(side: str) -> list[Effect]:
    return list(Effect.objects.filter(side=side).order_by("kind", "order", "name"))


def creature_list() -> list[Creature]:
    return list(Creature.objects.select_related("weapon", "armour", "shield", "other").order_by("category", "name"))
