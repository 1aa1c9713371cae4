"""Read functions over the Féerie tables."""

from typing import Any

from bestiary.feerie import models as m


def settings_data() -> dict[str, Any]:
    """Table settings and the surface table as scenario data (the engine's defaults when empty)."""
    out: dict[str, Any] = {}
    settings = m.Settings.objects.order_by("pk").first()
    if settings is not None:
        out["roll"] = {"plus": settings.dice_plus, "minus": settings.dice_minus, "sides": settings.dice_sides}
        out["incident_threshold"] = settings.incident_threshold
    surfaces = surface_rows()
    if surfaces:
        out["surfaces"] = surfaces
    return out


def surface_rows() -> list[dict[str, int]]:
    return [
        {"taille_min": r.taille_min, "taille_max": r.taille_max, "surface": r.surface}
        for r in m.SurfaceRow.objects.order_by("taille_min")
    ]


def creature_list() -> list[m.Creature]:
    return list(m.Creature.objects.prefetch_related("attributes").order_by("taille", "name"))


def mount_list() -> list[m.Creature]:
    return list(m.Creature.objects.filter(mount=True).order_by("taille", "name"))


def tactic_list() -> list[m.TacticPreset]:
    return list(m.TacticPreset.objects.order_by("pk"))


def allure_list() -> list[m.Allure]:
    return list(m.Allure.objects.order_by("-divisor"))


def cover_material_list() -> list[m.CoverMaterial]:
    return list(m.CoverMaterial.objects.order_by("quarters", "name"))


def cover_opacity_list() -> list[m.CoverOpacity]:
    return list(m.CoverOpacity.objects.order_by("malus"))


def lighting_list() -> list[m.Lighting]:
    return list(m.Lighting.objects.order_by("-contact", "name"))


def difficulty_list() -> list[m.RangedDifficulty]:
    return list(m.RangedDifficulty.objects.order_by("modifier"))


def range_list() -> list[m.RangeBand]:
    return list(m.RangeBand.objects.order_by("modifier"))


def terrain_list() -> list[m.Terrain]:
    return list(m.Terrain.objects.order_by("modifier"))


def blow_list() -> list[m.SpecialBlow]:
    return list(m.SpecialBlow.objects.order_by("pk"))
