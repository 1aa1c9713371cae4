"""The Nephilim page's bestiary selects show what is chosen: the entry whose name the fields hold."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from calculator.forms import ScenarioForm
from calculator.plugins import PresetGroup

register = template.Library()


def current_entry(form: ScenarioForm, group: PresetGroup, row: Any = "") -> str:
    """The key of the entry the fields under the group's prefix hold now (by its name), or ""."""
    prefix = group.prefix.replace("{row}", str(row))
    path = f"{prefix}.name" if prefix else "name"
    if path not in form.fields:
        return ""
    name = str(form.raw(path) or "").strip()
    return next((p.key for p in group.presets if str(p.values.get("name", "")).strip() == name), "") if name else ""


@register.simple_tag(takes_context=True)
def neph_select(context: template.Context, form: ScenarioForm, key: str, row: Any = "") -> SafeString:
    """``{% preset_select %}`` (the same markup: it loads at once with JavaScript, with « Charger »
    without) whose selected entry is the one the fields hold: the choice reads by its name."""
    group = (context.get("preset_groups") or {}).get(key)
    if group is None or not group.presets:
        return SafeString("")
    name = ".".join(str(p) for p in ("preset", key, row) if p != "")
    selected = current_entry(form, group, row)
    options = format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        ((p.key, " selected" if p.key == selected else "", p.label) for p in group.presets),
    )
    return format_html(
        '<div class="preset input-group input-group-sm mb-2">'
        '<label class="input-group-text" for="id_{name}">{label}</label>'
        '<select class="form-select" id="id_{name}" name="{name}" data-load="{name}">'
        '<option value="">{choose}</option>{options}</select>'
        '<button class="btn btn-outline-secondary" type="submit" name="_load" value="{name}" formnovalidate>{load}</button>'
        "</div>",
        name=name,
        label=group.label,
        choose=_("— choisir —"),
        options=options,
        load=_("Charger"),
    )


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
