"""The Nephilim page's effect chips: the spells, invocations and formulas in play, by name."""

from __future__ import annotations

from django import template

from calculator.forms import ScenarioForm

register = template.Library()


def _effects(form: ScenarioForm, path: str) -> list[tuple[str, int]]:
    """(name, target) of the named effect rows of a list (a blank name is an empty row)."""
    out = []
    for j in range(int(form.rows.get(path, 0))):
        name = str(form.raw(f"{path}.{j}.name") or "").strip() if f"{path}.{j}.name" in form.fields else ""
        if not name:
            continue
        try:
            target = int(str(form.raw(f"{path}.{j}.target") or 0))
        except ValueError:
            target = 0
        out.append((name, target))
    return out


@register.simple_tag
def attacker_effects(form: ScenarioForm) -> list[str]:
    """The names of the attacker's spells, invocations and formulas."""
    return [name for name, _target in _effects(form, "attacker.effects")]


@register.simple_tag
def defender_effects_on(form: ScenarioForm, number: int) -> list[str]:
    """The names of the effects aimed at defender n° ``number``."""
    return [name for name, target in _effects(form, "defender_effects") if target == int(number)]


@register.simple_tag
def defender_effects_all(form: ScenarioForm) -> list[str]:
    """The names of the effects on every defender (or waiting for their target)."""
    count = int(form.rows.get("defenders", 1))
    return [name for name, target in _effects(form, "defender_effects") if not target or target > count]
