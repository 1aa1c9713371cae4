"""The Féerie pages' choices: bestiary selects that show what is chosen and offer only what the current
character may take (an impossible option is disabled with the engine's reason), combatants and targets
chosen by name, and the « Ajuster » lines of hand-made disclosures."""

from __future__ import annotations

from typing import Any

from django import template
from django.forms import BoundField
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from bestiary.feerie import lines
from bestiary.feerie.settle import NAME_MARKER, NO_TACTIC_RULE, ROW_MARKER, TARGETS_MARKER
from bestiary.feerie.state import ATTRIBUTE_FLAGS, Scene
from bestiary.feerie.web import NO_TACTIC, TacticGroup, creature_label_of
from calculator.forms import ScenarioForm
from calculator.html import fmt, fmt_join
from calculator.plugins import Preset, PresetGroup
from calculator.templatetags.estoc import adjust_parts, preset_error, render_field, select_html
from rulesets.core.french import typography
from rulesets.feerie.model import Mode

register = template.Library()

Option = tuple[str, str, str]  # key, label, reason it may not be taken ("" : it may)


def scene_of(form: ScenarioForm) -> Scene:
    """The form's scene, read once per page."""
    scene = getattr(form, "_feerie_scene", None)
    if scene is None:
        scene = Scene(form.ruleset.scenario_type, form.scenario_data())
        form._feerie_scene = scene  # type: ignore[attr-defined]
    return scene


def _path(*parts: Any) -> str:
    return ".".join(str(p) for p in parts if p != "")


def _groups(context: template.Context) -> dict[str, PresetGroup]:
    return context.get("preset_groups") or {}


def _posted(form: ScenarioForm, name: str) -> str:
    return str(form.data.get(name, "")) if form.is_bound else ""


def _chosen(form: ScenarioForm, name: str, presets: list[Preset], fits: Any) -> str:
    """The entry the scene is: the one picked last if the values are still its own, else the first that fits."""
    posted = _posted(form, name)
    candidates = [p for p in presets if p.key == posted] + presets
    return next((p.key for p in candidates if fits(p)), "")


@register.simple_tag(takes_context=True)
def preset_choice(
    context: template.Context, form: ScenarioForm, key: str, row: Any = "", label: str = ""
) -> SafeString:
    """A bestiary select showing the entry whose values the scene holds."""
    group = _groups(context).get(key)
    if group is None or not group.presets:
        return SafeString("")
    scene = scene_of(form)
    prefix = group.prefix.replace("{row}", str(row))
    name = _path("preset", key, row)
    selected = _chosen(form, name, group.presets, lambda p: scene.matches(prefix, p.values))
    options = ((p.key, typography(p.label), "") for p in group.presets)
    return select_html(name, label or group.label, options, selected, error=preset_error(form, name))


@register.simple_tag(takes_context=True)
def creature_select(context: template.Context, form: ScenarioForm, side: str) -> SafeString:
    """The bestiary's creatures with the Attributs that apply in the mode of the attack."""
    group = _groups(context).get(side)
    if group is None:
        return SafeString("")
    scene = scene_of(form)
    suffix = ".r" if scene.get("mode") == Mode.RANGED.value else ".m"
    presets = [p for p in group.presets if p.key.endswith(suffix)]
    name = _path("preset", side)
    selected = _chosen(form, name, presets, lambda p: scene.is_creature(side, p.values))
    options = ((p.key, creature_label_of(p.values), "") for p in presets)
    return select_html(name, _("Bestiaire"), options, selected, error=preset_error(form, name))


def _tactic_options(scene: Scene, group: TacticGroup, prefix: str, cap: int | None) -> tuple[list[Option], str]:
    """The named tactics at the character's cap, each disabled when the engine refuses it here; one line
    instead of the list when none may be taken for the same reason."""
    current = {k: lines.integer(scene.get(f"{prefix}.{k}")) or 0 for k in ("initiative", "attack", "defense")}
    none: Option = (NO_TACTIC, _("Aucune tactique"), "")
    selected = NO_TACTIC if not any(current.values()) else ""
    if cap is None:
        return [none, ("", _("Tactiques nommées"), _("indiquer d'abord le plafond de tactique (Ajuster)"))], selected
    if cap <= 0:
        return [none, ("", _("Tactiques nommées"), NO_TACTIC_RULE.rstrip("."))], selected
    options: list[Option] = []
    for preset in group.at_cap(cap):
        refused = scene.new_errors(prefix, preset.values)
        options.append((preset.key, typography(preset.label), next(iter(refused.values()), "").rstrip(".")))
        if not selected and preset.values == current:
            selected = preset.key
    reasons = {reason for _k, _l, reason in options}
    if len(reasons) == 1 and "" not in reasons:
        return [none, ("", _("Tactiques nommées"), reasons.pop())], selected
    return [none, *options], selected


@register.simple_tag(takes_context=True)
def tactic_select(context: template.Context, form: ScenarioForm, side: str) -> SafeString:
    """The exchange: the seed's tactics scaled to the combatant's cap (its Attributs applied to combat)."""
    group = _groups(context).get(f"{side}_tactic")
    if not isinstance(group, TacticGroup):
        return SafeString("")
    scene = scene_of(form)
    options, selected = _tactic_options(scene, group, f"{side}.tactic", scene.tactic_cap(side))
    placeholder = _("— sur mesure —") if not selected else None
    name = _path("preset", group.key)
    return select_html(name, group.label, options, selected, placeholder, error=preset_error(form, name))


@register.simple_tag(takes_context=True)
def fighter_tactic_select(context: template.Context, form: ScenarioForm, row: int) -> SafeString:
    """The Action: the seed's tactics scaled to the fighter's « Plafond de tactique »."""
    group = _groups(context).get("fighter_tactic")
    if not isinstance(group, TacticGroup):
        return SafeString("")
    scene = scene_of(form)
    cap = lines.integer(scene.get(f"fighters.{row}.tactic_cap"))
    options, selected = _tactic_options(scene, group, f"fighters.{row}.tactic", cap)
    placeholder = _("— sur mesure —") if not selected else None
    name = _path("preset", group.key, row)
    return select_html(name, group.label, options, selected, placeholder, error=preset_error(form, name))


@register.simple_tag(takes_context=True)
def blow_select(context: template.Context, form: ScenarioForm, row: int) -> SafeString:
    """The special blows: one the engine refuses here (Taille, the same blow twice, no previous loss for
    « Acharnement », an object for a target) is disabled with its reason."""
    group = _groups(context).get("blow")
    if group is None:
        return SafeString("")
    scene = scene_of(form)
    prefix = f"blows.{row}"
    options = []
    for p in group.presets:
        refused = scene.new_errors(prefix, p.values) if p.values.get("kind") != "aucun" else {}
        options.append((p.key, typography(p.label), next(iter(refused.values()), "").rstrip(".")))
    name = _path("preset", "blow", row)
    selected = _chosen(form, name, group.presets, lambda p: scene.matches(prefix, p.values))
    return select_html(name, group.label, options, selected, error=preset_error(form, name))


# --- the Action: combatants by name ----------------------------------------------------------------------


def fighter_names(form: ScenarioForm) -> list[str]:
    """Each combatant as the page names it: its name, its number (from 1) when it has none or shares it."""
    scene = scene_of(form)
    names = [lines.text(scene.get(f"fighters.{i}.name")) for i in range(form.rows.get("fighters", 0))]
    out = []
    for i, name in enumerate(names):
        if not name:
            out.append(_("Combattant n°{n}").format(n=i + 1))
        elif names.count(name) > 1:
            out.append(_("{name} (n°{n})").format(name=name, n=i + 1))
        else:
            out.append(name)
    return out


@register.simple_tag
def fighter_field(form: ScenarioForm, *parts: Any, label: str = "", blank: str = "") -> SafeString:
    """A scenario field holding a combatant's number, as a select of the combatants by name."""
    name = _path(*parts)
    if name not in form.fields:
        return SafeString("")
    bf = form[name]
    raw = bf.value()
    current = "" if raw is None else str(raw).strip()
    choices = [(str(i), n) for i, n in enumerate(fighter_names(form))]
    if blank:
        choices.insert(0, ("", blank))
    elif current not in {k for k, _n in choices}:
        choices.insert(0, (current, _("— combattant absent —")))
    options = fmt_join(
        "", '<option value="{}"{}>{}</option>', ((k, " selected" if k == current else "", n) for k, n in choices)
    )
    errors = bf.errors
    return fmt(
        '<div class="mb-3"><label class="form-label" for="{id}">{label}</label>'
        '<select name="{name}" class="form-select{invalid}" id="{id}">{options}</select>{feedback}</div>',
        id=bf.id_for_label,
        label=label or bf.label,
        name=bf.html_name,
        invalid=" is-invalid" if errors else "",
        options=options,
        feedback=fmt_join("", '<div class="invalid-feedback d-block">{}</div>', ((e,) for e in errors)),
    )


@register.simple_tag
def target_choices(form: ScenarioForm, row: int) -> SafeString:
    """An activity's targets as boxes by name (the actor is not its own target); the boxes become the
    ``targets`` field (``bestiary.feerie.settle.follow_fighters``), whose messages are shown here."""
    path = f"activities.{row}.targets"
    if path not in form.fields:
        return SafeString("")
    scene = scene_of(form)
    chosen = set(lines.text(scene.get(path)).replace(";", ",").replace(" ", ",").split(","))
    actor = lines.text(scene.get(f"activities.{row}.actor")) or "0"
    marker = f"activities.{row}.{TARGETS_MARKER}"
    boxes = fmt_join(
        "",
        '<div class="form-check form-check-inline"><input type="checkbox" class="form-check-input" name="{name}" '
        'id="id_{name}"{checked}><label class="form-check-label" for="id_{name}">{label}</label></div>',
        (
            {"name": f"{marker}.{i}", "checked": " checked" if str(i) in chosen else "", "label": name}
            for i, name in enumerate(fighter_names(form))
            if str(i) != actor
        ),
    )
    errors = form[path].errors
    return fmt(
        '<fieldset class="feerie-targets mb-3{invalid}"><legend class="form-label">{legend}</legend>'
        '<input type="hidden" name="{marker}" value="1">{boxes}{feedback}</fieldset>',
        invalid=" is-invalid" if errors else "",
        legend=_("Cibles"),
        marker=marker,
        boxes=boxes or fmt('<span class="form-text">{}</span>', _("Aucun autre combattant.")),
        feedback=fmt_join("", '<div class="invalid-feedback d-block">{}</div>', ((e,) for e in errors)),
    )


@register.simple_tag
def hidden_field(form: ScenarioForm, *parts: Any) -> SafeString:
    """A scenario field the page fills from other controls (the targets' boxes)."""
    name = _path(*parts)
    if name not in form.fields:
        return SafeString("")
    value = form[name].value()
    return fmt('<input type="hidden" name="{}" value="{}">', name, "" if value is None else value)


@register.simple_tag
def row_markers(form: ScenarioForm, row: int) -> SafeString:
    """A combatant's number and name as drawn: settle tells from them a row removed and a new name."""
    name = lines.text(scene_of(form).get(f"fighters.{row}.name"))
    return fmt(
        '<input type="hidden" name="fighters.{row}.{r}" value="{row}">'
        '<input type="hidden" name="fighters.{row}.{n}" value="{name}">',
        row=row,
        r=ROW_MARKER,
        n=NAME_MARKER,
        name=name,
    )


@register.simple_tag
def fighter_legend(form: ScenarioForm, row: int) -> str:
    return _("Combattant n°{n}").format(n=row + 1)


# --- « Ajuster » disclosures written in the templates -------------------------------------------------------


def _parts(form: ScenarioForm, key: str, row: Any) -> list[BoundField]:
    parts = adjust_parts(form, key, row)
    return parts[1] if parts is not None else []


@register.simple_tag
def table_line(form: ScenarioForm, key: str, row: Any = "") -> str:
    """The summary line of a plug-in's table values (as ``{% adjust %}`` writes it), for a disclosure
    that gathers several of them."""
    parts = adjust_parts(form, key, row)
    return parts[2] if parts is not None else ""


@register.simple_tag
def adjusts_open(form: ScenarioForm, row: Any, *keys: str) -> str:
    """`` open`` when a field of any of these table values is in error (the disclosure shows it)."""
    return " open" if any(bf.errors for key in keys for bf in _parts(form, key, row)) else ""


@register.simple_tag
def table_fields(form: ScenarioForm, key: str, row: Any = "") -> SafeString:
    return fmt('<div class="fields">{}</div>', SafeString("".join(render_field(bf) for bf in _parts(form, key, row))))


FLAG_LABELS = {
    "initiative": _l("Initiative"),
    "attack": _l("Attaque"),
    "defense": _l("Défense"),
    "damage": _l("Dommages"),
    "soak": _l("Encaissement"),
}


@register.simple_tag
def attributes_line(form: ScenarioForm, side: str) -> str:
    """« marteau +3 (Attaque, Défense) · tablier de cuir +2 (Encaissement) »: what each applies to (its
    nature, in the fields, matters only for the priority of Affinités)."""
    scene = scene_of(form)
    parts = []
    for i in range(form.rows.get(f"{side}.attributes", 0)):
        p = f"{side}.attributes.{i}"
        name = lines.text(scene.get(f"{p}.name"))
        value = lines.integer(scene.get(f"{p}.value"))
        if not name and not value:
            continue
        where = [str(FLAG_LABELS[f]) for f in ATTRIBUTE_FLAGS if scene.get(f"{p}.{f}")]
        what = ", ".join(where) if where else _("sans effet ici")
        parts.append(f"{name or _('sans nom')} {lines.sign(scene.get(f'{p}.value'))} ({what})")
    return typography(lines.SEP.join(parts)) or _("aucun")


@register.simple_tag
def attributes_open(form: ScenarioForm, side: str) -> str:
    prefix = f"{side}.attributes."
    return " open" if any(form[n].errors for n in form.fields if n.startswith(prefix)) else ""
