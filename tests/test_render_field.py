"""render_field keeps what does not change between requests (escaped once): its markup is still exactly
what the straightforward version (Django's format_html, below) writes, for every field of every page,
unbound, bound to each worked example, and in error."""

from typing import Any

import pytest
from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from calculator import plugins, services
from calculator.forms import MARKER, ScenarioForm, permalink_query
from calculator.templatetags.estoc import render_field
from rulesets.core.registry import load_all
from rulesets.core.schema import ScenarioError, parse, to_data

pytestmark = pytest.mark.django_db


def _attrs(attrs: dict[str, Any]) -> SafeString:
    return format_html_join("", ' {}="{}"', ((k, v) for k, v in attrs.items() if v is not None and v is not False))


def reference(bf: Any) -> SafeString:
    """render_field as it was written before its pieces were kept (2026-12-01)."""
    widget = bf.field.widget
    errors = bf.errors
    field_id = bf.id_for_label
    invalid = " is-invalid" if errors else ""
    feedback = format_html_join("", '<div class="invalid-feedback d-block">{}</div>', ((e,) for e in errors))
    help_text = format_html('<div class="form-text">{}</div>', bf.help_text) if bf.help_text else ""
    value = bf.value()
    if isinstance(widget, forms.CheckboxInput):
        control = format_html(
            '<div class="form-check"><input type="checkbox" name="{}" class="form-check-input{}"{}>'
            '<label class="form-check-label" for="{}">{}</label>{}{}</div>',
            bf.html_name,
            invalid,
            _attrs({"id": field_id, "checked": bool(value)}),
            field_id,
            bf.label,
            feedback,
            help_text,
        )
        return format_html('<div class="mb-3">{}</div>', control)
    if isinstance(widget, forms.Select):
        current = "" if value is None else str(value)

        def option_tags(choices: Any) -> SafeString:
            return format_html_join(
                "",
                '<option value="{}"{}>{}</option>',
                ((k, " selected" if str(k) == current else "", v) for k, v in choices),
            )

        options = format_html_join(
            "",
            "{}",
            (
                (format_html('<optgroup label="{}">{}</optgroup>', k, option_tags(v)),)
                if isinstance(v, list | tuple)
                else (option_tags([(k, v)]),)
                for k, v in bf.field.choices
            ),
        )
        control = format_html(
            '<select name="{}" class="form-select{}" id="{}">{}</select>', bf.html_name, invalid, field_id, options
        )
    else:
        attrs = {**widget.attrs, "id": field_id}
        css = attrs.pop("class", "")
        control = format_html(
            '<input type="{}" name="{}" value="{}" class="form-control {}{}"{}>',
            getattr(widget, "input_type", "text"),
            bf.html_name,
            "" if value is None else value,
            css,
            invalid,
            _attrs(attrs),
        )
    return format_html(
        '<div class="mb-3"><label class="form-label" for="{}">{}</label>{}{}{}</div>',
        field_id,
        bf.label,
        control,
        feedback,
        help_text,
    )


def forms_of(slug: str) -> list[ScenarioForm]:
    ruleset = load_all()[slug]
    plugin = plugins.get(slug)
    defaults, flat = services.flat_defaults(ruleset=ruleset)
    out = [ScenarioForm(ruleset, plugin, defaults, None, flat_defaults=flat)]
    for example in ruleset.examples()[:4]:
        whole = to_data(parse(ruleset.scenario_type, example.request["scenario"]))
        data = permalink_query({"scenario": whole, "dice": example.request.get("dice", {})}, 7)
        out.append(ScenarioForm(ruleset, plugin, defaults, data, flat_defaults=flat))
    # every number « abc », every choice unknown, every text with markup: each field in error
    wrong = permalink_query({"scenario": to_data(ruleset.scenario_type()), "dice": {}}, 7)
    for key in list(wrong):
        if key != MARKER:
            wrong[key] = '<b>"x" & «y»</b>' if not wrong[key].isdigit() else "abc"
    form = ScenarioForm(ruleset, plugin, defaults, wrong, flat_defaults=flat)
    try:
        services.resolution_resolve(ruleset=ruleset, payload=form.payload())
    except ScenarioError as exc:
        form.set_errors(exc.errors)
    out.append(form)
    return out


@pytest.mark.parametrize("slug", sorted(load_all()))
def test_every_field_is_written_as_before(slug):
    compared, kinds, in_error = 0, set(), 0
    for form in forms_of(slug):
        for name in form.fields:
            bf = form[name]
            assert render_field(bf) == reference(bf), name
            assert render_field(bf) == reference(bf), name  # the second time, from the kept pieces
            compared += 1
            kinds.add(type(bf.field.widget).__name__)
            in_error += bool(bf.errors)
    assert compared > 20
    assert in_error > 0
    assert {"TextInput", "CheckboxInput", "Select"} <= kinds


@pytest.mark.parametrize("slug", sorted(load_all()))
def test_every_die_input_is_django_s_own_markup(slug):
    from calculator.templatetags.estoc import widget

    ruleset = load_all()[slug]
    checked = 0
    for form in forms_of(slug)[1:-1]:  # bound to the worked examples
        try:
            scenario = parse(ruleset.scenario_type, form.payload()["scenario"])
        except ScenarioError:
            continue
        form.set_dice(ruleset.dice_for(scenario))
        dice = [name for name in form.fields if name.startswith("dice.")]
        for i, name in enumerate(dice):
            form.data = form.data.copy()
            form.data[name] = ["4", "", '<b>"9"</b>'][i % 3]
        form.is_valid()
        if dice:
            form.add_error(dice[0], "Face inconnue.")  # Django adds aria-invalid and aria-describedby
        for bf in form.dice_fields:
            assert widget(bf) == str(bf), bf.name
            checked += 1
    assert checked > 0 or slug == "feerie-action"


class Grouped(forms.Form):
    kind = forms.ChoiceField(
        required=False,
        choices=[("", "— aucun —"), ("Mêlée", [("epee", "Épée"), ("hache", "Hache")]), ("tir", "Arc")],
    )


@pytest.mark.parametrize("value", ["", "hache", "tir", "inconnu"])
def test_a_select_with_option_groups_is_written_as_before(value):
    """An optgroup's tags are never « selected », even when the value is blank."""
    bf = Grouped(data={"kind": value})["kind"]
    assert render_field(bf) == reference(bf)
    assert render_field(bf) == reference(bf)
