"""Model validation of the bestiary (issue 14, item 5): the admin refuses a row that would break a
calculator (« Jet d'attaque : au moins un dé » after a weapon was saved with no dice).

A row is checked along the page's own path, not against bounds stated a second time: inside a
savepoint, the row (and the inline rows of its admin form) is saved; the page plug-in builds its
presets and its defaults from the database, as the page does; the row's preset is loaded over the
page's defaults as the « Charger » button does (``apply_form_actions``); the plug-in settles the scene
(``WebPlugin.settle``); the page's form turns it into a request, and the engine parses and resolves
it (``rulesets.core.request.resolve``, seed 1). Then the savepoint is rolled back: nothing is
written. Each engine message (a ``ScenarioError``, French, on a field path) becomes a
``ValidationError`` on the model field it comes from (``attacker.weapon.phys`` → ``phys``), or, when
it comes from inline rows (a weapon's dice), on the inline formset of the admin.

Each model names how its row reaches a calculator in :data:`USES` (the preset group that loads it,
on which page, with which scene); a row that no preset loads (a table setting) is checked through
the page's defaults, which read it.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import DatabaseError, models, transaction
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

# the flag an admin form with inlines sets on its instance: the row's own fields are checked by its
# clean(), the rest (its dice, its Attributs…) by the inline formsets, which hold the new rows
DEFERRED = "_bestiary_related_checked_by_inlines"
INLINE = "inline"  # DEFERRED's value on a row of an inline formset


@dataclass(frozen=True)
class Load:
    """One « Charger » of the page: the preset of group ``group`` made from the bestiary row ``key``
    (its ``Preset.origin``: ``str(pk)``), in row ``row`` (−1: a row added after the page's rows, so
    that the rows the scene relies on stay)."""

    group: str
    key: str
    row: int = 0


@dataclass(frozen=True)
class Use:
    """A way a row reaches a calculator: the page ``slug``, the presets loaded in turn (the last one
    is the row's), the fields set before (``scene``: the mode a ranged weapon needs) and the engine
    paths, relative to the last preset's prefix, whose model field has another name (``fields``)."""

    slug: str
    loads: tuple[Load, ...] = ()
    scene: Mapping[str, str] = field(default_factory=dict)
    fields: Mapping[str, str] = field(default_factory=dict)


class _Rollback(Exception):
    """Leaves the savepoint of a check (nothing it saved is kept)."""


def _model_fields(model: type[models.Model]) -> set[str]:
    """The fields of ``model`` a message may be attached to (those a ModelForm shows)."""
    return {
        f.name
        for f in model._meta.get_fields()
        if getattr(f, "concrete", False) and getattr(f, "editable", False) and not f.many_to_many and not f.auto_created
    }


def _target(path: str, prefix: str, use: Use, names: set[str]) -> str | None:
    """The model field of an engine message's ``path``, None when none matches (inline rows, the scene)."""
    relative = path[len(prefix) + 1 :] if prefix and path.startswith(prefix + ".") else ("" if path == prefix else None)
    if relative is None:
        relative = path
    if relative in use.fields:
        return use.fields[relative]
    parts = [p for p in relative.split(".") if p and not p.isdigit()]
    for part in parts:
        if part in use.fields:
            return use.fields[part]
    for part in parts:
        if part in names:
            return part
    return None


def _form_data(flat: Mapping[str, Any]) -> Any:
    from django.http import QueryDict

    from calculator.forms import MARKER

    data = QueryDict(mutable=True)
    data[MARKER] = "1"
    for key, value in flat.items():
        if isinstance(value, bool):
            if value:
                data[key] = "on"
        else:
            data[key] = "" if value is None else str(value)
    return data


def _new_row(data: Any, path: str) -> int:
    """The index of a row added after the rows of list ``path`` (``adversary.deck``)."""
    from rulesets.core.schema import parse_index

    rows = {parse_index(key[len(path) + 1 :].partition(".")[0]) for key in data if key.startswith(path + ".")}
    return max((r for r in rows if r is not None), default=-1) + 1


def page_errors(use: Use) -> tuple[dict[str, str], str]:
    """The engine's messages (path → French message) on the page ``use.slug`` after ``use``'s loads,
    and the prefix of the last preset loaded. An unknown preset is a message too."""
    from calculator import plugins
    from calculator.forms import ScenarioForm, apply_form_actions
    from calculator.services import deep_merge
    from calculator.views import settle
    from rulesets.core import request as core_request
    from rulesets.core.registry import get
    from rulesets.core.schema import ScenarioError, Source, flatten, to_data

    ruleset = get(use.slug)
    plugin = plugins.get(use.slug)
    defaults = deep_merge(to_data(ruleset.scenario_type()), plugin.defaults())
    flat = flatten(defaults)
    data = _form_data(flat)
    for key, value in use.scene.items():
        data[key] = value
    groups = {g.key: g for g in plugin.presets()}
    prefix = ""
    for load in use.loads:
        group = groups.get(load.group)
        # the page sends the row's key; the check knows the row by its id (Preset.origin)
        preset = group.find_origin(load.key) if group is not None else None
        if group is None or preset is None:
            return {"": _("Cette ligne n'apparaît pas dans le calculateur (« {group} »).").format(group=load.group)}, ""
        row = load.row if load.row >= 0 else _new_row(data, group.prefix.split(".{row}", 1)[0])
        prefix = group.prefix.replace("{row}", str(row))
        name = f"preset.{load.group}.{row}"
        data["_load"] = name
        data[name] = preset.key
        data, _acted = apply_form_actions(data, ruleset.scenario_type, groups)
        data.pop(name, None)
        if plugin.settle is not None:
            settle(plugin, data)  # as the page settles the scene after « Charger »
    form = ScenarioForm(ruleset, plugin, defaults, data, flat_defaults=flat)
    payload = form.payload()
    try:
        core_request.resolve(ruleset, {"scenario": payload["scenario"], "seed": 1}, source=Source.FORM)
    except ScenarioError as exc:
        return {k.removeprefix("scenario."): v for k, v in exc.errors.items()}, prefix
    return {}, prefix


def _errors_of(model: type[models.Model], uses: list[Use]) -> dict[str, list[str]]:
    """Model field (or NON_FIELD_ERRORS) → French messages, for every use of the saved row."""
    names = _model_fields(model)
    out: dict[str, list[str]] = {}
    for use in uses:
        try:
            errors, prefix = page_errors(use)
        except Exception as exc:  # the calculator itself fails on this row: refused, and logged
            logger.exception("bestiary row breaks the %s calculator", use.slug)
            errors, prefix = {"": _("Le calculateur ne peut pas utiliser cette ligne ({error}).").format(error=exc)}, ""
        for path, message in errors.items():
            target = _target(path, prefix, use, names) or NON_FIELD_ERRORS
            if message not in out.setdefault(target, []):
                out[target].append(message)
    return out


def _saved_copy(instance: models.Model) -> models.Model:
    """``instance`` saved as it stands (a copy: the form's instance keeps its state)."""
    row = copy.copy(instance)
    row._state = copy.copy(instance._state)
    row.save()
    return row


def check(instance: models.Model, stage: Callable[[models.Model], None] | None = None) -> dict[str, list[str]] | None:
    """The messages of ``instance``'s uses, checked in a rolled-back savepoint; ``stage(saved)``
    saves the inline rows of a form. None when the row cannot be saved yet (another of its fields is
    refused, a unique name taken): its form says why."""
    uses_of = USES.get(instance._meta.label)
    if uses_of is None:
        return {}
    result: dict[str, list[str]] | None = None
    try:
        with transaction.atomic():
            saved = _saved_copy(instance)
            if stage is not None:
                stage(saved)
            result = _errors_of(type(instance), uses_of(saved))
            raise _Rollback
    except _Rollback:
        pass
    except (DatabaseError, ValueError, TypeError, ValidationError):
        return None
    return result


def clean_row(instance: models.Model) -> None:
    """What a bestiary model's ``clean()`` calls: raise the engine's messages on their fields (those
    that come from inline rows are left to the admin's inline formsets when they check them)."""
    deferred = getattr(instance, DEFERRED, False)
    if deferred == INLINE:
        return  # a row of an inline formset: the formset checks it with its parent and its siblings
    errors = check(instance)
    if not errors:
        return
    if deferred:
        errors.pop(NON_FIELD_ERRORS, None)
    if errors:
        raise ValidationError(errors)


class CheckedInlineFormSet(BaseInlineFormSet):  # type: ignore[type-arg]
    """An inline formset that checks its parent with its new rows through the calculator: a weapon
    saved with no dice is refused here, on its dice, with the engine's own message."""

    def _construct_form(self, i: int, **kwargs: Any) -> Any:
        form = super()._construct_form(i, **kwargs)  # type: ignore[misc]
        setattr(form.instance, DEFERRED, INLINE)
        return form

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        parent = self.instance
        fk = self.fk.name

        def stage(saved: models.Model) -> None:
            for form in self.forms:
                existing = form.instance.pk is not None
                if self.can_delete and self._should_delete_form(form):  # type: ignore[attr-defined]
                    if existing:
                        type(form.instance).objects.filter(pk=form.instance.pk).delete()
                    continue
                if not existing and not form.has_changed():
                    continue
                row = copy.copy(form.instance)
                row._state = copy.copy(form.instance._state)
                setattr(row, fk, saved)
                row.save()

        errors = check(parent, stage)
        if not errors:
            return
        # the parent's own fields are refused by its form; the rest is on these rows
        messages = errors.get(NON_FIELD_ERRORS, [])
        if messages:
            raise ValidationError(messages)


class CheckedForm:
    """A ModelAdmin form mixin: its instance leaves to the inline formsets what comes from them."""

    def _post_clean(self) -> None:
        setattr(self.instance, DEFERRED, True)  # type: ignore[attr-defined]
        super()._post_clean()  # type: ignore[misc]


class CheckedAdmin:
    """A ModelAdmin mixin for a model with inlines: see :class:`CheckedForm`."""

    def get_form(self, request: Any, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change, **kwargs)  # type: ignore[misc]
        return type(form.__name__, (CheckedForm, form), {})


# -- how each model's row reaches a calculator ---------------------------------------------------


def _pk(row: Any) -> str:
    return str(row.pk)


def _nephilim_approach(row: Any) -> list[Use]:
    from rulesets.nephilim.model import ApproachKind

    mode = ApproachKind(row.kind).mode.value
    return [Use("nephilim", (*_nephilim_weapon_of(mode), Load("approach", _pk(row))))]


def _nephilim_weapon_of(mode: str) -> tuple[Load, ...]:
    """A weapon of this attack type, loaded first (the approaches and defences follow it)."""
    from bestiary.nephilim.models import Weapon

    weapon = Weapon.objects.filter(category=mode).order_by("order", "pk").first()
    return (Load("weapon", _pk(weapon)),) if weapon is not None else ()


def _nephilim_weapon(row: Any) -> list[Use]:
    return [Use("nephilim", (Load("weapon", _pk(row)),))]


def _nephilim_ammunition(row: Any) -> list[Use]:
    from bestiary.nephilim.models import Weapon

    weapon = row.compatible or Weapon.objects.filter(firearm=True).order_by("order", "pk").first()
    loads = (Load("weapon", _pk(weapon)),) if weapon is not None else ()
    return [Use("nephilim", (*loads, Load("ammunition", _pk(row))))]


def _nephilim_protection(row: Any) -> list[Use]:
    group = {"armour": "armour", "shield": "shield", "other": "other"}[row.slot]
    return [Use("nephilim", (Load(group, _pk(row)),))]


def _nephilim_defence(row: Any) -> list[Use]:
    return [Use("nephilim", (*_nephilim_weapon_of(row.context), Load("defence", _pk(row))))]


def _nephilim_effect(row: Any) -> list[Use]:
    group = "attacker_effect" if row.side == "attaquant" else "defender_effect"
    return [Use("nephilim", (Load(group, _pk(row)),))]


def _nephilim_creature(row: Any) -> list[Use]:
    return [
        Use("nephilim", (Load("attacker", _pk(row)),)),
        Use("nephilim", (Load("defender", _pk(row)),), fields={"degree": "defence_degree"}),
    ]


def _encore_weapon(row: Any) -> list[Use]:
    fields = {"weapon": "damage", "weapon_area": "area", "weapon_limit": "target_limit"}
    return [
        Use("encore", (Load("weapon", _pk(row)),), fields=fields),
        Use("encore", (Load("opp_weapon", _pk(row)),), fields=fields),
    ]


def _encore_protection(row: Any) -> list[Use]:
    if row.kind == "couvert":
        return [Use("encore", (Load("cover", _pk(row)),), fields={"cover": "value"})]
    return [
        Use("encore", (Load("armour", _pk(row)),), fields={"armour": "value"}),
        Use("encore", (Load("opp_armour", _pk(row)),), fields={"armour": "value"}),
    ]


def _encore_npc(row: Any) -> list[Use]:
    return [Use("encore", (Load("npc", _pk(row)),))]


def _page(slug: str) -> Callable[[Any], list[Use]]:
    """A table setting: the page's defaults read it."""
    return lambda _row: [Use(slug)]


def _aventuriers_mode(reach: str) -> dict[str, str]:
    return {"mode": "distance" if reach == "distance" else "melee"}


def _aventuriers_weapon(row: Any) -> list[Use]:
    return [Use("aventuriers", (Load("atk_weapon", _pk(row)),), scene=_aventuriers_mode(row.reach))]


def _aventuriers_protection(row: Any) -> list[Use]:
    return [
        Use("aventuriers", (Load("atk_protection", _pk(row)),)),
        Use("aventuriers", (Load("def_protection", _pk(row)),)),
    ]


def _aventuriers_monster(row: Any) -> list[Use]:
    return [
        Use("aventuriers", (Load("atk_monster", _pk(row)),), scene=_aventuriers_mode(row.reach)),
        Use("aventuriers", (Load("def_monster", _pk(row)),)),
    ]


def _aventuriers_die(row: Any) -> list[Use]:
    """The table's dice (the page's defaults), and a weapon and a monster that roll this die (the
    page leaves out a die of fewer than 2 faces: what rolls it would name an unknown die)."""
    from bestiary.aventuriers.models import Monster, Weapon

    uses = [Use("aventuriers")]
    weapon = Weapon.objects.filter(dice__die=row).order_by("pk").first()
    monster = Monster.objects.filter(dice__die=row).order_by("pk").first()
    if weapon is not None:
        uses += _aventuriers_weapon(weapon)
    if monster is not None:
        uses += _aventuriers_monster(monster)[:1]
    return uses


def _feerie_creature(row: Any) -> list[Use]:
    uses = [Use("feerie", (Load("attacker", f"{row.pk}.m"),)), Use("feerie", (Load("defender", f"{row.pk}.r"),))]
    if row.mount:
        uses.append(Use("feerie", (Load("attacker_mount", _pk(row)),)))
    uses.append(Use("feerie-action", (Load("fighter", _pk(row)),)))
    return uses


def _feerie(group: str, key: Callable[[Any], str] = _pk, **fields: str) -> Callable[[Any], list[Use]]:
    return lambda row: [Use("feerie", (Load(group, key(row)),), fields=fields)]


def _feerie_range(row: Any) -> list[Use]:
    return [
        Use("feerie", (Load("range", _pk(row)),), fields={"range_modifier": "modifier"}),
        Use("feerie", (Load("cover_exposed", _pk(row)),), fields={"exposed_modifier": "modifier"}),
    ]


def _feerie_tactic(row: Any) -> list[Use]:
    return [Use("feerie", (Load("attacker_tactic", f"{row.pk}.{row.reference_cap}"),))]


def _quadrature_adversary(row: Any) -> list[Use]:
    return [Use("quadrature", (Load("creature", _pk(row)),))]


def _quadrature_card(row: Any) -> list[Use]:
    return [Use("quadrature", (Load("card", _pk(row), -1),))]


def _quadrature_power(row: Any) -> list[Use]:
    return [Use("quadrature"), *(u for a in row.adversaries.all() for u in _quadrature_adversary(a))]


USES: dict[str, Callable[[Any], list[Use]]] = {
    "nephilim.Approach": _nephilim_approach,
    "nephilim.Weapon": _nephilim_weapon,
    "nephilim.Ammunition": _nephilim_ammunition,
    "nephilim.Protection": _nephilim_protection,
    "nephilim.DefenceType": _nephilim_defence,
    "nephilim.Effect": _nephilim_effect,
    "nephilim.Creature": _nephilim_creature,
    "encore.Settings": _page("encore"),
    "encore.HealthTier": _page("encore"),
    "encore.Weapon": _encore_weapon,
    "encore.Protection": _encore_protection,
    "encore.NPC": _encore_npc,
    "aventuriers.DieType": _aventuriers_die,
    "aventuriers.DieFace": lambda row: _aventuriers_die(row.die),
    "aventuriers.TableSettings": _page("aventuriers"),
    "aventuriers.Weapon": _aventuriers_weapon,
    "aventuriers.WeaponDie": lambda row: _aventuriers_weapon(row.weapon),
    "aventuriers.Protection": _aventuriers_protection,
    "aventuriers.ProtectionDie": lambda row: _aventuriers_protection(row.protection),
    "aventuriers.Monster": _aventuriers_monster,
    "aventuriers.MonsterDie": lambda row: _aventuriers_monster(row.monster),
    "feerie.Settings": _page("feerie"),
    "feerie.SurfaceRow": _page("feerie"),
    "feerie.Allure": _feerie("movement", lambda row: str(row.pace)),
    "feerie.CoverMaterial": _feerie("cover_material"),
    "feerie.CoverOpacity": _feerie("cover_opacity", opacity_malus="malus"),
    "feerie.Lighting": _feerie("lighting", lighting="contact"),
    "feerie.RangedDifficulty": _feerie("difficulty", difficulty="modifier"),
    "feerie.RangeBand": _feerie_range,
    "feerie.Terrain": _feerie("terrain", terrain="modifier"),
    "feerie.SpecialBlow": _feerie("blow", lambda row: str(row.kind)),
    "feerie.TacticPreset": _feerie_tactic,
    "feerie.Creature": _feerie_creature,
    "feerie.CreatureAttribute": lambda row: _feerie_creature(row.creature),
    "quadrature.Die": _page("quadrature"),
    "quadrature.PowerLevel": _quadrature_power,
    "quadrature.ActionCard": _quadrature_card,
    "quadrature.CardEffect": lambda row: _quadrature_card(row.card),
    "quadrature.Adversary": _quadrature_adversary,
    "quadrature.BodyPart": lambda row: _quadrature_adversary(row.adversary),
    "quadrature.Block": lambda row: _quadrature_adversary(row.adversary),
    "quadrature.DeckEntry": lambda row: _quadrature_adversary(row.adversary),
}
