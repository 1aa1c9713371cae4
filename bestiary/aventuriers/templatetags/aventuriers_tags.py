"""Template helpers of the Aventuriers page: dice rows, the facing grid, the table's dice."""

from __future__ import annotations

from typing import Any

from django import forms, template
from django.forms import BoundField
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from bestiary.aventuriers import selectors, table_mode, web
from calculator import bestiary_cache, plugins
from calculator.forms import ScenarioForm
from calculator.html import fmt, fmt_join
from calculator.templatetags.estoc import render_field
from rulesets.aventuriers.engine import plan
from rulesets.aventuriers.model import DEFAULT_DICE, Action, Facing, Scenario
from rulesets.aventuriers.zones import grid, report
from rulesets.core.french import count, join, quote, typography
from rulesets.core.request import Resolution

register = template.Library()

ARROWS = {Facing.NORTH: "↑", Facing.EAST: "→", Facing.SOUTH: "↓", Facing.WEST: "←"}
CELL_TITLES = {
    "z": _("zone d'attaque de l'attaquant"),
    "d": _("zone de dos de la cible"),
    ".": "",
}


@register.filter
def row_count(rows: dict[str, int] | None, path: str) -> int:
    """Rows of the list at ``path`` (``{{ rows|row_count:"attacker.defence"|times }}``)."""
    return int((rows or {}).get(path, 1))


def _verdict(ok: bool, yes: str, no: str, reasons: tuple[str, ...] = ()) -> SafeString:
    text = yes if ok else no + (" : " + ", ".join(reasons) if reasons else "")
    return fmt('<li class="{}">{}</li>', "ok" if ok else "no", typography(text))


def _facing_buttons(group: str, label: str, current: Facing) -> SafeString:
    buttons = fmt_join(
        "",
        '<input type="hidden" name="preset.{0}.{1}" value="{1}">'
        '<button type="submit" class="btn btn-sm {2}" name="_load" value="preset.{0}.{1}" formnovalidate '
        'title="{3}">{4}</button>',
        (
            (
                group,
                f.value,
                "btn-secondary" if f is current else "btn-outline-secondary",
                f.label,
                ARROWS[f],
            )
            for f in Facing
        ),
    )
    return fmt("{} {}", typography(label), buttons)


@register.simple_tag
def board_grid(scenario: Scenario | None) -> SafeString:
    """The helper grid around the target, with the verdicts of the zones."""
    if scenario is None:
        return SafeString("")
    board = scenario.board
    diagonals = scenario.attacker.weapon.diagonals
    z = report(board, scenario.rules.zone_shape, diagonals)
    radius = max(2, min(4, z.distance))
    rows = grid(board, scenario.rules.zone_shape, diagonals, radius)
    cells: list[SafeString] = []
    for y, row in zip(range(-radius, radius + 1), rows, strict=True):
        tds: list[SafeString] = []
        for x, code in zip(range(-radius, radius + 1), row, strict=True):
            if code == "T":
                tds.append(
                    fmt(
                        '<td class="cell-T" title="{}">{}<span class="arrow">{}</span></td>',
                        _("la cible"),
                        _("C"),
                        ARROWS[board.target_facing],
                    )
                )
            elif code == "A":
                tds.append(
                    fmt(
                        '<td class="cell-A" title="{}">{}<span class="arrow">{}</span></td>',
                        _("l'attaquant"),
                        _("A"),
                        ARROWS[board.attacker_facing],
                    )
                )
            else:
                key = web.position_key(x, y)
                tds.append(
                    fmt(
                        '<td class="cell-{code}"><input type="hidden" name="preset.pos.{key}" value="{key}">'
                        '<button type="submit" name="_load" value="preset.pos.{key}" formnovalidate '
                        'title="{title}" aria-label="{title}"></button></td>',
                        code=code,
                        key=key,
                        title=" — ".join(t for t in (_("placer l'attaquant ici"), CELL_TITLES.get(code, "")) if t),
                    )
                )
        cells.append(fmt("<tr>{}</tr>", SafeString("".join(tds))))
    turns = fmt(
        '<p class="avt-turns small mb-1">{}</p><p class="avt-turns small mb-1">{}</p>',
        _facing_buttons("afacing", _("Tourner l'attaquant :"), board.attacker_facing),
        _facing_buttons("tfacing", _("Tourner la cible :"), board.target_facing),
    )
    far = (
        ""
        if z.distance <= radius
        else _("(l'attaquant est à {n}, hors du dessin)").format(n=count(z.distance, _("case")))
    )
    verdicts = SafeString(
        "".join(
            [
                _verdict(z.melee_possible, _("Attaque de mêlée possible"), _("Pas de mêlée"), z.melee_reasons),
                _verdict(z.ranged_allowed, _("Attaque à distance permise"), _("Pas de tir"), z.ranged_reasons),
                _verdict(not z.back_attack, _("Attaque de face"), _("Attaque de dos")),
                _verdict(not z.engaged, _("Attaquant non engagé"), _("Attaquant engagé")),
            ]
        )
    )
    return fmt(
        '<figure class="avt-board"><table class="avt-grid" aria-label="{label}"><tbody>{cells}</tbody></table>'
        '<figcaption>{turns}<p class="small mb-1">{legend} {far}</p><ul class="avt-verdicts">{verdicts}</ul></figcaption></figure>',
        label=typography(_("Grille : la cible au centre")),
        cells=SafeString("".join(cells)),
        legend=typography(
            _(
                "C : la cible, A : l'attaquant (flèche : orientation). Jaune : zone d'attaque de l'attaquant ; "
                "gris : zone de dos de la cible."
            )
        ),
        far=far,
        turns=turns,
        verdicts=verdicts,
    )


def _faces_text(faces: list[tuple[int, int, int]]) -> str:
    return " · ".join(f"{i} {('💥' * d + '🛡' * s + '⚡' * lt) or '—'}" for i, (d, s, lt) in enumerate(faces, start=1))


@register.simple_tag
def die_table() -> SafeString:
    """The table's combat dice and their faces, flagged when not yet checked against real dice
    (drawn once per version of the bestiary: it reads only the die table)."""
    return SafeString(bestiary_cache.cached("die_table_html", plugins.get("aventuriers"), _die_table_html))


def _die_table_html() -> str:
    rows: list[tuple[str, str, str, bool]] = []
    dice = selectors.die_type_list()
    if dice:
        for die in dice:
            faces = [(f.damage, f.shield, f.lightning) for f in die.faces.all()]
            rows.append((die.name, die.key, _faces_text(faces), die.verified))
    else:
        for default in DEFAULT_DICE:
            faces = [(f.damage, f.shield, f.lightning) for f in default.faces]
            rows.append((default.name, default.key, _faces_text(faces), False))
    body = fmt_join(
        "",
        '<tr><th scope="row">{}</th><td><code>{}</code></td><td>{}</td><td>{}</td></tr>',
        (
            (name, key, faces, "" if verified else _("faces par défaut — à vérifier sur vos dés"))
            for name, key, faces, verified in rows
        ),
    )
    return fmt(
        '<table class="table table-sm avt-dice"><caption>{}</caption><tbody>{}</tbody></table>',
        typography(
            _("Faces des dés de combat : le numéro de face à taper pour chaque dé (modifiables dans l'administration)")
        ),
        body,
    )


@register.simple_tag
def next_exchanges(resolution: Resolution | None) -> SafeString:
    """The encounter goes on: PV, stamina and engagement carried to the next exchange.

    Shown with a page rendered with its result (permalink, no-JavaScript flow); the labels name
    the PV they carry, so a box left from an earlier result cannot be mistaken for the new one.
    """
    links = web.next_exchanges(resolution)
    if not links:
        return SafeString("")
    items = fmt_join(
        "",
        '<a class="btn btn-sm btn-outline-primary me-2 mb-1 avt-next" href="{}">{}</a>',
        ((url, label) for label, url in links),
    )
    return fmt(
        '<div class="avt-next-box alert alert-light"><p class="mb-1">{}</p>{}</div>',
        typography(_("Échange suivant (PV, stamina et engagement conservés, nouveaux dés) :")),
        items,
    )


def _name(*parts: Any) -> str:
    return ".".join(str(p) for p in parts if p != "")


@register.simple_tag
def die_field(form: ScenarioForm, *parts: Any) -> SafeString:
    """A die colour chosen among the table's dice, by their French names (the scenario keeps the
    code: « noir », « bleu »). An unknown code (an old link, a hand-made URL) stays selected, named
    as unknown, with the engine's French message on the field."""
    name = _name(*parts)
    if name not in form.fields:
        return SafeString("")
    bound = form[name]
    current = "" if bound.value() is None else str(bound.value())
    choices = table_mode.die_types()
    if current not in {key for key, _label in choices}:
        choices.append((current, typography(_("{key} : dé inconnu").format(key=quote(current)))))
    field = forms.ChoiceField(choices=choices, label=bound.label, required=False, initial=bound.initial)
    return render_field(BoundField(form, field, name))


@register.simple_tag
def hidden_field(form: ScenarioForm, *parts: Any) -> SafeString:
    """A field the rules ignore here (the protection flag of an attack die), kept as it is."""
    name = _name(*parts)
    if name not in form.fields:
        return SafeString("")
    value = form[name].value()
    if isinstance(form.fields[name].widget, forms.CheckboxInput):
        value = "on" if value else ""
    return fmt('<input type="hidden" name="{}" value="{}">', name, "" if value is None else value)


@register.simple_tag
def board_verdict(scenario: Scenario | None) -> str:
    """What the grid allows, for the folded section's title: « de face, au contact », « impossible : … »."""
    if scenario is None or scenario.action is Action.SUCCESS_TEST:
        return ""
    p = plan(scenario)
    if p.reasons:
        head = _("impossible") if scenario.board.enforce else _("avis")
        return typography(_("{head} : {reasons}").format(head=head, reasons=join(list(p.reasons))))
    where = _("de dos") if p.back_attack else _("de face")
    far = _("au contact") if p.zones.adjacent else _("à\u00a0{n}").format(n=count(p.zones.distance, _("case")))
    return f"{where}, {far}"


@register.simple_tag
def board_open(scenario: Scenario | None) -> bool:
    """The grid opens by itself when the zones forbid the exchange."""
    return bool(scenario is not None and scenario.action is not Action.SUCCESS_TEST and plan(scenario).reasons)
