"""Template helpers of the calculator pages."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from crispy_forms.templatetags.crispy_forms_filters import as_crispy_field
from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from calculator.forms import ScenarioForm
from rulesets.core.i18n import fr_percent

register = template.Library()


def _path(*parts: Any) -> str:
    return ".".join(str(p) for p in parts if p != "")


@register.simple_tag
def field(form: ScenarioForm, *parts: Any) -> SafeString:
    """Render the field at ``parts`` joined by dots (``{% field form "npcs" i "menace" %}``)."""
    name = _path(*parts)
    if name not in form.fields:
        return SafeString("")
    return SafeString(as_crispy_field(form[name]))


@register.simple_tag
def has_field(form: ScenarioForm, *parts: Any) -> bool:
    return _path(*parts) in form.fields


@register.simple_tag
def value(form: ScenarioForm, *parts: Any) -> Any:
    name = _path(*parts)
    return form.raw(name) if name in form.fields else None


@register.simple_tag(takes_context=True)
def preset_select(context: template.Context, form: ScenarioForm, key: str, row: Any = "") -> SafeString:
    """A bestiary select that fills a group of fields, with a no-JavaScript "Charger" button."""
    groups = context.get("preset_groups") or {}
    group = groups.get(key)
    if group is None or not group.presets:
        return SafeString("")
    name = _path("preset", key, row)
    selected = str(form.data.get(name, "")) if form.is_bound else ""
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


@register.filter
def percent(value: Fraction | float | None) -> str:
    if value is None:
        return ""
    return fr_percent(float(value))


@register.filter
def decimal(value: Fraction | float | None) -> str:
    if value is None:
        return ""
    return f"{float(value):.2f}".replace(".", ",")


@register.filter
def fraction(value: Fraction | None) -> str:
    if value is None:
        return ""
    return f"{value.numerator}/{value.denominator}"


@register.filter
def typed(dice: Any, key: str) -> bool:
    return bool(dice.was_typed(key))


@register.filter
def get(mapping: Any, key: str) -> Any:
    return mapping.get(key) if mapping is not None else None


@register.filter
def times(count: int) -> range:
    return range(int(count or 0))
