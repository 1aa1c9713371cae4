"""Template helpers of the calculator pages."""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from django import forms, template
from django.forms import BoundField
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from calculator import bestiary_cache
from calculator.forms import ScenarioForm
from calculator.html import esc, fmt, fmt_join
from rulesets.core.french import typography
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
    return render_field(form[name])


def _attrs(attrs: dict[str, Any]) -> SafeString:
    return fmt_join("", ' {}="{}"', ((k, v) for k, v in attrs.items() if v is not None and v is not False))


# What a field's markup holds that does not change from one request to the next (its label, name,
# id, attributes, help, options), escaped once: key → pieces (see render_field)
_STATIC: dict[tuple[Any, ...], tuple[Any, ...]] = {}
_STATIC_MAX = 20_000


def _static(key: tuple[Any, ...], build: Any) -> tuple[Any, ...]:
    pieces = _STATIC.get(key)
    if pieces is None:
        pieces = build()
        if len(_STATIC) >= _STATIC_MAX:
            _STATIC.clear()
        _STATIC[key] = pieces
    return pieces


def render_field(bf: BoundField) -> SafeString:
    """One Bootstrap 5 field (label, input, French error, help), built directly in Python.

    The same markup crispy-bootstrap5 produces, without a template per field: the calculator
    form has some fifty fields, and rendering them through templates cost most of the response
    time (see docs/performance.md). What does not change between requests (label, attributes,
    options) is escaped once and kept; the value, the errors and the choice are written each time.
    """
    widget = bf.field.widget
    errors = bf.errors
    field_id = bf.id_for_label
    name = bf.html_name
    label = bf.label
    help_text = bf.help_text
    invalid = " is-invalid" if errors else ""
    feedback = "".join(f'<div class="invalid-feedback d-block">{esc(e)}</div>' for e in errors)
    value = bf.value()
    if isinstance(widget, forms.CheckboxInput):
        pieces = _static(
            ("checkbox", name, field_id, str(label), str(help_text)),
            lambda: (
                f'<div class="mb-3"><div class="form-check"><input type="checkbox" name="{esc(name)}" '
                'class="form-check-input',
                # _attrs({"id": …, "checked": …}): a true box is written checked="True"
                f'"{_attrs({"id": field_id})}',
                f'><label class="form-check-label" for="{esc(field_id)}">{esc(label)}</label>',
                f'<div class="form-text">{esc(help_text)}</div>' if help_text else "",
            ),
        )
        checked = ' checked="True"' if value else ""
        return SafeString(f"{pieces[0]}{invalid}{pieces[1]}{checked}{pieces[2]}{feedback}{pieces[3]}</div></div>")
    if isinstance(widget, forms.Select):
        choices = bf.field.choices  # type: ignore[attr-defined]
        pieces = _static(
            ("select", name, field_id, str(label), str(help_text), repr(choices)),
            lambda: _select_pieces(name, field_id, label, help_text, choices),
        )
        current = "" if value is None else str(value)
        options = "".join(f"{head}{' selected' if key == current else ''}{rest}" for key, head, rest in pieces[2])
        return SafeString(
            f'{pieces[0]}<select name="{esc(name)}" class="form-select{invalid}" id="{esc(field_id)}">'
            f"{options}</select>{feedback}{pieces[1]}</div>"
        )
    attrs = {**widget.attrs, "id": field_id}
    css = attrs.pop("class", "")
    if isinstance(widget, forms.PasswordInput) and not widget.render_value:
        value = None  # a password is never written back into the page
    input_type = getattr(widget, "input_type", "text")
    pieces = _static(
        ("input", name, str(label), str(help_text), input_type, css, tuple(attrs.items())),
        lambda: (
            f'<div class="mb-3"><label class="form-label" for="{esc(field_id)}">{esc(label)}</label>'
            f'<input type="{esc(input_type)}" name="{esc(name)}" value="',
            f'" class="form-control {esc(css)}',
            f'"{_attrs(attrs)}>',
            f'<div class="form-text">{esc(help_text)}</div>' if help_text else "",
        ),
    )
    shown = "" if value is None else esc(value)
    return SafeString(f"{pieces[0]}{shown}{pieces[1]}{invalid}{pieces[2]}{feedback}{pieces[3]}</div>")


def _select_pieces(name: str, field_id: str, label: Any, help_text: Any, choices: Any) -> tuple[Any, ...]:
    """A select's static pieces: the label, the help, and its options in order as (the value a
    choice is compared with, the markup before « selected », the markup after); an optgroup's
    opening and closing tags as pieces whose value is None, never selected."""
    head = f'<div class="mb-3"><label class="form-label" for="{esc(field_id)}">{esc(label)}</label>'
    help_html = f'<div class="form-text">{esc(help_text)}</div>' if help_text else ""

    def option(key: Any, text: Any) -> tuple[str, str, str]:
        return (str(key), f'<option value="{esc(key)}"', f">{esc(text)}</option>")

    options: list[tuple[str | None, str, str]] = []
    for key, text in choices:
        if isinstance(text, list | tuple):
            options.append((None, f'<optgroup label="{esc(key)}">', ""))
            options.extend(option(k, v) for k, v in text)
            options.append((None, "", "</optgroup>"))
        else:
            options.append(option(key, text))
    return head, help_html, tuple(options)


@register.simple_tag(takes_context=True)
def fields_block(context: template.Context) -> SafeString:
    """The plug-in's fields (``WebPlugin.fields_template``), rendered in the page's context.

    A first visit (the form unbound: no value posted, no result, no encounter) draws the same fields
    for everyone until the bestiary changes: that drawing is kept per version of the bestiary
    (:func:`calculator.bestiary_cache.cached`). So is a permalink's: a result shared with the table
    is opened by each player; the view's ``permalink_key`` (the link's values) names the drawing, the
    last links asked are kept (:func:`calculator.bestiary_cache.cached_by`). The fields templates
    read nothing of the visitor (no user, no session, no CSRF token, no nonce;
    ``tests/test_fields_block.py`` checks it)."""
    plugin = context["plugin"]
    form = context["form"]
    fields = context.template.engine.get_template(plugin.fields_template)  # type: ignore[union-attr]
    if context.get("in_encounter") is None:
        if not form.is_bound and context.get("resolution") is None:
            return SafeString(bestiary_cache.cached("first_visit_fields", plugin, lambda: fields.render(context)))
        link = context.get("permalink_key")
        if link is not None:
            return SafeString(
                bestiary_cache.cached_by("permalink_fields", plugin, link, lambda: fields.render(context))
            )
    return SafeString(fields.render(context))


@register.simple_tag
def widget(bf: BoundField) -> SafeString:
    """``{{ bf }}`` for a text input (a die), written in Python: the same markup as Django's widget
    template (``django/forms/widgets/input.html`` and ``attrs.html``), without a template render per
    die on every live change. Other widgets are rendered by Django."""
    field_widget = bf.field.widget
    if type(field_widget) is not forms.TextInput or bf.field.localize:
        return SafeString(str(bf))
    attrs = bf.build_widget_attrs({}, field_widget)
    if bf.auto_id and "id" not in field_widget.attrs:
        attrs.setdefault("id", bf.auto_id)
    context = field_widget.get_context(bf.html_name, bf.value(), attrs)["widget"]
    out = [f'<input type="{esc(context["type"])}" name="{esc(context["name"])}"']
    if context["value"] is not None:
        out.append(f' value="{esc(context["value"])}"')
    for key, value in context["attrs"].items():
        if value is True:
            out.append(f" {esc(key)}")
        elif value is not False:
            out.append(f' {esc(key)}="{esc(value)}"')
    out.append(">")
    return SafeString("".join(out))


def shown_value(bf: BoundField) -> str:
    """A field's value as the page says it: a choice by its label, a box by its label when ticked."""
    value = bf.value()
    widget = bf.field.widget
    if isinstance(widget, forms.CheckboxInput):
        return str(bf.label) if value else ""
    if isinstance(widget, forms.Select):
        labels = dict(bf.field.choices)  # type: ignore[attr-defined]
        return str(labels.get(value, value or ""))
    return "" if value is None else str(value).strip()


def adjust_parts(form: ScenarioForm, key: str, row: Any = "") -> tuple[Any, list[BoundField], str] | None:
    """The table values ``key`` (row ``row``) of ``form``: the declaration, its bound fields, its line."""
    table = form.plugin.table(key)
    if table is None:
        raise template.TemplateSyntaxError(f"{form.plugin.slug}: no table values named {key!r}")
    pairs = [
        (declared, name) for declared, name in zip(table.fields, table.paths(row), strict=True) if name in form.fields
    ]
    if not pairs:
        return None
    bound = [form[name] for _declared, name in pairs]
    if table.describe is not None:
        line = table.describe({declared: form[name].value() for declared, name in pairs})
    else:
        line = " · ".join(
            f"{bf.label} {v}" if not isinstance(bf.field.widget, forms.CheckboxInput) else v
            for bf in bound
            if (v := shown_value(bf))
        )
    return table, bound, line


def adjust_line(form: ScenarioForm, key: str, row: Any = "", oob: bool = False, line: str | None = None) -> SafeString:
    """The read-only line of a table values block. Its id and data attributes let a live change
    redraw it out of band (estoc.js names the lines the page shows, views.live_extras draws them)."""
    if line is None:
        parts = adjust_parts(form, key, row)
        if parts is None:
            return SafeString("")
        line = parts[2]
    return fmt(
        '<span class="adjust-line" id="adjust-{}" data-key="{}" data-row="{}"{}>{}</span>',
        _path(key, row).replace(".", "-"),
        key,
        row,
        SafeString(' hx-swap-oob="true"') if oob else "",
        line,
    )


def _adjust_details(form: ScenarioForm, key: str, row: Any, body: str, errors: bool, line: str) -> SafeString:
    table = form.plugin.table(key)
    assert table is not None
    return fmt(
        '<details class="adjust" data-adjust="{key}"{open}><summary>'
        '<span class="adjust-label">{label}</span> {line} '
        '<span class="adjust-toggle">{toggle}</span></summary>{body}</details>',
        key=_path(key, row),
        open=SafeString(" open") if errors else "",
        label=table.label,
        line=adjust_line(form, key, row, line=line),
        toggle=_("Ajuster"),
        body=SafeString(body),
    )


@register.simple_tag
def adjust(form: ScenarioForm, key: str, row: Any = "") -> SafeString:
    """A plug-in's table values (``WebPlugin.table_values``): one read-only line with an
    « Ajuster » disclosure holding their fields, open when one of them is in error."""
    parts = adjust_parts(form, key, row)
    if parts is None:
        return SafeString("")
    _table, bound, line = parts
    body = fmt('<div class="fields">{}</div>', SafeString("".join(render_field(bf) for bf in bound)))
    return _adjust_details(form, key, row, body, any(bf.errors for bf in bound), line)


@register.simple_block_tag
def adjust_block(content: str, form: ScenarioForm, key: str, row: Any = "") -> SafeString:
    """``{% adjust %}`` whose body the template writes (rows with their own buttons, say): the same
    line and disclosure, open when a field of the table values, or one in the body, is in error."""
    parts = adjust_parts(form, key, row)
    errors = parts is not None and any(bf.errors for bf in parts[1])
    if parts is None:
        if form.plugin.table(key) is None:
            raise template.TemplateSyntaxError(f"{form.plugin.slug}: no table values named {key!r}")
        return SafeString(content)
    return _adjust_details(form, key, row, content, errors or "is-invalid" in content, parts[2])


@register.simple_tag
def has_field(form: ScenarioForm, *parts: Any) -> bool:
    return _path(*parts) in form.fields


@register.simple_tag
def value(form: ScenarioForm, *parts: Any) -> Any:
    name = _path(*parts)
    return form.raw(name) if name in form.fields else None


def select_html(
    name: str,
    label: str,
    options: Iterable[tuple[str, str, str]],
    selected: str,
    placeholder: str | None = None,
    error: str = "",
) -> SafeString:
    """A bestiary select (it loads its entry at once with JavaScript, with « Charger » without):
    ``options`` are (key, label, reason); an entry with a reason is impossible here, shown disabled
    with it. ``error``: why the choice posted was refused (an unknown key), under the select."""
    # the bestiary's names and the reasons in French typography (issue 15)
    items = [
        fmt('<option value="{}" disabled>{} — {}</option>', key, typography(text), typography(reason))
        if reason
        else fmt('<option value="{}"{}>{}</option>', key, " selected" if key == selected else "", typography(text))
        for key, text, reason in options
    ]
    first = fmt('<option value=""{}>{}</option>', " selected" if not selected else "", placeholder or _("— choisir —"))
    return fmt(
        '<div class="preset input-group input-group-sm mb-2{invalid}">'
        '<label class="input-group-text" for="id_{name}">{label}</label>'
        '<select class="form-select{invalid}" id="id_{name}" name="{name}" data-load="{name}">{first}{options}</select>'
        '<button class="btn btn-outline-secondary" type="submit" name="_load" value="{name}" formnovalidate>'
        "{load}</button>{feedback}</div>",
        name=name,
        label=typography(str(label)),
        first=first,
        options=SafeString("".join(items)),
        load=_("Charger"),
        invalid=" is-invalid" if error else "",
        feedback=fmt('<div class="invalid-feedback d-block">{}</div>', error) if error else "",
    )


def preset_error(form: Any, name: str) -> str:
    """The refusal of the choice posted in the select ``name`` (``preset.weapon=9999``), if any."""
    return str(getattr(form, "preset_errors", {}).get(name, ""))


def _holds(form: ScenarioForm, prefix: str, preset: Any) -> bool:
    """Whether the fields under ``prefix`` hold the entry's values (as the page shows them)."""
    for key, value in preset.values.items():
        name = f"{prefix}.{key}" if prefix else key
        if name not in form.fields:
            continue
        shown = form[name].value()
        if isinstance(value, bool) or isinstance(form.fields[name].widget, forms.CheckboxInput):
            if bool(shown) != bool(value):
                return False
        elif str("" if shown is None else shown).strip() != str("" if value is None else value).strip():
            return False
    return True


def current_preset(form: ScenarioForm, group: Any, row: Any = "") -> str:
    """The entry the page shows as chosen: the one picked last while the fields still hold its values,
    else the first whose values they hold, else the one whose name they hold (an entry adjusted
    behind « Ajuster » is still that creature), else none."""
    prefix = group.prefix.replace("{row}", str(row))
    posted = str(form.data.get(_path("preset", group.key, row), "")) if form.is_bound else ""
    candidates = [p for p in group.presets if p.key == posted] + list(group.presets)
    held = next((p.key for p in candidates if _holds(form, prefix, p)), "")
    if held:
        return held
    name_path = f"{prefix}.name" if prefix else "name"
    name = str(form.raw(name_path) or "").strip() if name_path in form.fields else ""
    return next((p.key for p in group.presets if name and str(p.values.get("name", "")).strip() == name), "")


@register.simple_tag(takes_context=True)
def preset_select(context: template.Context, form: ScenarioForm, key: str, row: Any = "") -> SafeString:
    """A bestiary select that fills a group of fields, showing the entry the fields hold."""
    groups = context.get("preset_groups") or {}
    group = groups.get(key)
    if group is None or not group.presets:
        return SafeString("")
    options = ((p.key, p.label, "") for p in group.presets)
    name = _path("preset", key, row)
    return select_html(name, group.label, options, current_preset(form, group, row), error=preset_error(form, name))


@register.filter
def french(text: Any) -> str:
    """``text`` in French typography (issue 15): a narrow no-break space before « ; : ! ? » and
    inside « », the minus sign for « -2 ». For a text the template did not write (a ruleset's name,
    a label from the engine or the bestiary)."""
    return typography(str(text)) if text is not None else ""


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


_BADGE = re.compile(r"\b(PHYS|MAG)\b")


@register.filter
def badges(text: Any) -> SafeString:
    """Escape ``text`` and show the PHYS and MAG tokens as coloured badges (Nephilim's frames)."""
    escaped = esc(str(text))
    return SafeString(
        _BADGE.sub(lambda m: f'<span class="badge badge-{m.group(1).lower()}">{m.group(1)}</span>', escaped)
    )


_SHORT_VALUE = 24


def _nobr(value: Any) -> str:
    """A short technical value never wraps (« 1 / 8 », « −2 », a name); a long one wraps between words."""
    return " nobr" if len(str(value)) <= _SHORT_VALUE else ""


@register.simple_tag
def technical_groups(result: Any) -> SafeString:
    """The technical panel's tables, one per group of events (label, value, rule).

    Written in Python rather than with two nested template loops: it is the largest part of a
    result fragment and is rendered on every resolve (docs/performance.md)."""
    tables = []
    for group, events in result.groups():
        rows = fmt_join(
            "",
            '<tr class="ev-{}"><td>{}</td><td class="text-end value{}">{}</td><td class="rule">{}</td></tr>',
            ((e.kind, badges(e.label), _nobr(e.value), badges(e.value), typography(e.rule)) for e in events),
        )
        tables.append(
            fmt(
                '<h3 class="h6 mt-2">{}</h3>\n<table class="table table-sm tech-table"><tbody>{}</tbody></table>',
                group,
                rows,
            )
        )
    return SafeString("\n".join(tables))


@register.filter
def duration_fr(value: Any) -> str:
    """A timedelta the French way: « 1 h 30 min », « 45 min »."""
    seconds = int(value.total_seconds()) if hasattr(value, "total_seconds") else int(value or 0)
    hours, minutes = divmod(seconds // 60, 60)
    if hours and minutes:
        return f"{hours}\u00a0h\u00a0{minutes:02d}\u00a0min"
    if hours:
        return f"{hours}\u00a0h"
    return f"{max(1, minutes)}\u00a0min"


@register.simple_tag
def odds_body(odds: Any, charts: list[Any]) -> SafeString:
    """The odds panel's table and charts (SVG bars), written in Python: a live change redraws them
    on every field typed, and a chart's bars through template loops cost more than the odds of a
    warm scenario. Numbers are written unlocalised (SVG coordinates)."""
    rows = [
        fmt(
            '<tr class="tone-{}"><th scope="row">{}</th><td class="text-end" title="{}">{}</td></tr>',
            code,
            typography(label),
            fraction(p),
            percent(p),
        )
        for code, label, p in odds.outcomes
    ]
    rows += [
        fmt(
            '<tr><th scope="row">{}</th><td class="text-end" title="{}">{}</td></tr>',
            typography(label),
            fraction(v),
            percent(v) if "Probabilité" in label else decimal(v),
        )
        for _code, label, v in odds.expectations
    ]
    out = [f'<table class="table table-sm odds-table"><tbody>{"".join(rows)}</tbody></table>']
    for c in charts:
        bars = []
        for b in c.bars:
            bar = fmt(
                '<g><title>{}</title><rect x="{}" y="{}" width="{}" height="{}" class="bar" />',
                typography(b.title),
                b.x,
                b.y,
                b.width,
                b.height,
            )
            if b.show_label:
                bar += fmt('<text x="{}" y="{}" class="tick">{}</text>', b.label_x, c.height - 6, b.label)
            if b.show_percent:
                # the template's « b.y|add:'-3' »: Django's add filter takes the integer part first
                bar += fmt('<text x="{}" y="{}" class="pct">{}</text>', b.label_x, int(b.y) - 3, b.percent)
            bars.append(bar + "</g>")
        out.append(
            fmt(
                '<figure class="chart"><figcaption>{title}</figcaption>'
                '<svg viewBox="0 0 {w} {h}" role="img" aria-label="{title}">'
                '<line x1="0" y1="{base}" x2="{w}" y2="{base}" class="axis" />{bars}</svg></figure>',
                title=typography(c.chart.title),
                w=c.width,
                h=c.height,
                base=c.baseline,
                bars=SafeString("".join(bars)),
            )
        )
    return SafeString("\n".join(out))


# --- the result fragment's lists, written in Python (drawn on every « Résoudre ») ---------------------


@register.simple_tag
def story_paragraphs(resolution: Any) -> SafeString:
    """The story, a paragraph per line."""
    return SafeString("".join(f"<p>{esc(line)}</p>" for line in resolution.narrative.story))


@register.simple_tag
def dice_faces(resolution: Any) -> SafeString:
    """The dice of the resolution, each with its label and how it was got (typed, or rolled)."""
    typed, rolled = _("tapé"), _("lancé par le serveur")
    dice = resolution.dice
    out = []
    for slot in resolution.spec.slots:
        was_typed = dice.was_typed(slot.key)
        out.append(
            f'<span class="die-face{"" if was_typed else " rolled"}" '
            f'title="{esc(typography(slot.label))} — {esc(typed if was_typed else rolled)}">{esc(dice.values.get(slot.key))}</span>'
        )
    return SafeString("\n".join(out))


@register.simple_tag
def variation_links(variations: list[tuple[str, str, bool]]) -> SafeString:
    """The result's variations: a link each (the current one disabled), redrawn by htmx."""
    return SafeString(
        "\n".join(
            f'<a class="btn btn-sm {"btn-secondary disabled" if current else "btn-outline-secondary"}" '
            f'href="{esc(url)}" hx-get="{esc(url)}" hx-target="#calculator" hx-swap="outerHTML" '
            f'hx-push-url="true">{esc(label)}</a>'
            for label, url, current in variations
        )
    )


@register.simple_tag
def final_numbers_list(numbers: list[tuple[str, str, str]]) -> SafeString:
    """The final numbers: a term and its value each."""
    return SafeString(
        "".join(
            f'<div><dt>{esc(label)}</dt><dd data-key="{esc(key)}">{esc(value)}</dd></div>'
            for key, label, value in numbers
        )
    )
