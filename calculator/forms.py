"""The calculator form, generated from the ruleset's scenario dataclass.

Validation is the scenario's own (``rulesets.core.schema.parse`` and ``check``), so the page, the
API and the CLI give the same French message for the same mistake; this form lays the fields out
(crispy) and carries those messages back to the field that caused them.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
import zlib
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote_plus

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _

from calculator.plugins import WebPlugin
from calculator.tables import unknown_preset
from rulesets.core.dice import DiceSpec
from rulesets.core.french import typography
from rulesets.core.registry import Ruleset
from rulesets.core.schema import FieldInfo, Spec, fields_of, flatten, parse_index, to_data

MARKER = "_f"
# a row's field (``npcs.2.menace``): ASCII digits only (``\d`` takes '٣', which ``int`` reads as 3);
# an index is then bounded by :func:`rulesets.core.schema.parse_index` and the list's size
_ROW = re.compile(r"^(?P<list>.+?)\.(?P<index>[0-9]+)\.")
ERROR_ROW = (
    "«\u202f{key}\u202f» désigne la ligne «\u202f{index}\u202f» de «\u202f{label}\u202f», qui en compte {limit} au plus "
    "(numéros 0 à {last})."
)


def _is_dataclass_type(tp: Any) -> bool:
    return dataclasses.is_dataclass(tp) and isinstance(tp, type)


def list_item(tp: Any) -> Any | None:
    args: tuple[Any, ...] = tuple(getattr(tp, "__args__", ()))
    if getattr(tp, "__origin__", None) is tuple and len(args) == 2 and args[1] is Ellipsis:
        return args[0]
    return None


@dataclasses.dataclass(frozen=True)
class Leaf:
    path: str
    info: FieldInfo


def leaves(cls: type, rows: dict[str, int], prefix: str = "") -> list[Leaf]:
    """Every editable field path of a scenario, with ``rows[path]`` rows for each list.

    Computed once per scenario type and row counts (the form and the plug-in's settle both ask for
    them on every page request); the list returned is the caller's own."""
    return list(_leaves(cls, tuple(sorted(rows.items())), prefix))


@functools.lru_cache(maxsize=512)
def _leaves(cls: type, rows: tuple[tuple[str, int], ...], prefix: str) -> tuple[Leaf, ...]:
    return tuple(_walk(cls, dict(rows), prefix))


def _walk(cls: type, rows: dict[str, int], prefix: str = "") -> list[Leaf]:
    out: list[Leaf] = []
    for info in fields_of(cls):
        path = prefix + info.name
        item = list_item(info.type)
        if _is_dataclass_type(info.type):
            out.extend(_walk(info.type, rows, path + "."))
        elif item is not None and _is_dataclass_type(item):
            for i in range(rows.get(path, 1)):
                out.extend(_walk(item, rows, f"{path}.{i}."))
        else:
            out.append(Leaf(path, info))
    return out


def list_paths(cls: type, prefix: str = "") -> dict[str, Spec]:
    out: dict[str, Spec] = {}
    for info in fields_of(cls):
        item = list_item(info.type)
        if _is_dataclass_type(info.type):
            out.update(list_paths(info.type, prefix + info.name + "."))
        elif item is not None and _is_dataclass_type(item):
            out[prefix + info.name] = info.spec
    return out


@functools.cache
def _list_paths(cls: type) -> tuple[tuple[str, Spec], ...]:
    return tuple(list_paths(cls).items())


def row_limit(spec: Spec) -> int:
    """How many rows a list may have (the form never builds more)."""
    return spec.max_items or 20


@functools.cache
def _row_limits(cls: type) -> dict[str, int]:
    return {path: row_limit(spec) for path, spec in _list_paths(cls)}


def _row_indices(keys: Any, limits: Mapping[str, int]) -> dict[str, set[int]]:
    """The row indices each list of ``limits`` has among ``keys`` (``npcs.2.menace`` → npcs: {2}),
    in one pass over the keys (a Quadrature sheet has some 260). An index past the list's limit is
    no row (:func:`refused_input` says so on the page)."""
    found: dict[str, set[int]] = {}
    match = _ROW.match
    for key in keys:
        m = match(key)
        if m is not None and (limit := limits.get(path := m.group("list"))) is not None:
            index = parse_index(m.group("index"))
            if index is not None and index < limit:
                found.setdefault(path, set()).add(index)
    return found


def row_counts(cls: type, data: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    paths = _list_paths(cls)
    limits = _row_limits(cls)
    in_data = _row_indices(data, limits)
    in_defaults: dict[str, set[int]] | None = None
    for path, spec in paths:
        indices = in_data.get(path)
        if not indices:
            if in_defaults is None:
                in_defaults = _row_indices(defaults, limits)
            indices = in_defaults.get(path)
        n = max(indices) + 1 if indices else 1
        counts[path] = min(max(n, spec.min_items or 0, 1), limits[path])
    return counts


def _shown(text: str, width: int = 40) -> str:
    """A piece of a made-up key, short enough to quote in a message."""
    return text if len(text) <= width else text[:width] + "…"


def row_refused(key: str, index: str, label: str, limit: int) -> str:
    """The French message for a key naming a row its list cannot have."""
    return ERROR_ROW.format(key=_shown(key), index=_shown(index, 12), label=label, limit=limit, last=limit - 1)


def _bad_index(part: str, limit: int) -> bool:
    """``part`` reads as a row number (``str.isdigit``: '²' too) that is no row of a list of ``limit``."""
    if not part.isdigit():
        return False  # a word: an unknown key, ignored like any other
    index = parse_index(part)
    return index is None or index >= limit


def refused_input(cls: type, data: Mapping[str, Any], groups: Mapping[str, Any]) -> dict[str, str]:
    """The keys and buttons of ``data`` that name a row no list of ``cls`` may have (key → French
    message): a field ``npcs.999999.menace`` or ``npcs.².menace``, ``_del=npcs.<5,000 digits>``,
    ``_load=preset.npc.40``. The page answers 400 with these messages, the form filled with the rest
    (issue 17, finding 4: such keys raised in ``int`` or asked for a million rows)."""
    lists = dict(_list_paths(cls))
    limits = _row_limits(cls)
    prefixes = tuple(path + "." for path in lists)
    # a bestiary row chosen by an id the table does not have (``preset.weapon=9999``) is no silent
    # no-op (issue 14); a blank choice (« — ») loads nothing
    load_key = str(data.get("_load", ""))
    refused: dict[str, str] = unknown_preset(data, groups) if str(data.get(load_key, "")).strip() else {}
    if not prefixes:
        return refused
    for key in data:
        if not key.startswith(prefixes):
            continue
        for path, limit in limits.items():
            if key.startswith(path + "."):
                part = key[len(path) + 1 :].partition(".")[0]
                if _bad_index(part, limit):
                    refused[key] = row_refused(key, part, lists[path].label, limit)
    add = str(data.get("_add", ""))
    spec = lists.get(add)
    if spec is not None and spec.max_items is not None and row_counts(cls, data, {})[add] >= spec.max_items:
        # « Ajouter » on a full list is said, not a silent no-op (issue 14)
        refused["_add"] = typography(
            _("« {label} » : {n} lignes au plus ; retirez-en une avant d'en ajouter.").format(
                label=spec.label, n=spec.max_items
            )
        )
    delete = str(data.get("_del", ""))
    path, _dot, part = delete.rpartition(".")
    if path in limits and _bad_index(part, limits[path]):
        refused["_del"] = row_refused(delete, part, lists[path].label, limits[path])
    load = str(data.get("_load", ""))
    parts = load.split(".", 3)
    group = groups.get(parts[1]) if load.startswith("preset.") and len(parts) > 2 else None
    if group is not None and ".{row}" in group.prefix:
        path = group.prefix.split(".{row}", 1)[0]
        row = parse_index(parts[2])
        if path in limits and (row is None or row >= limits[path]):
            refused["_load"] = row_refused(load, parts[2], lists[path].label, limits[path])
    return refused


def form_field(leaf: Leaf, initial: Any) -> forms.Field:
    info = leaf.info
    spec = info.spec
    tp = info.type
    # the ruleset's labels, help texts and choices in French typography, as the engine's texts are (issue 15)
    common: dict[str, Any] = {
        "label": typography(str(spec.label)),
        "required": False,
        "help_text": typography(str(spec.help)) if spec.help else spec.help,
        "initial": initial,
    }
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        labels = tp.labels() if hasattr(tp, "labels") else {m.value: m.value for m in tp}
        return forms.ChoiceField(choices=[(k, typography(str(v))) for k, v in labels.items()], **common)
    if tp is bool:
        return forms.BooleanField(**common)
    if tp is int:
        # iPhone's numeric keypad has no minus key: a field that may be negative keeps the full
        # keyboard (its numbers row has « - »); a field that cannot gets the keypad
        signed = spec.ge is None or spec.ge < 0
        attrs: dict[str, Any] = {"inputmode": "text" if signed else "numeric"}
        if spec.ge is not None:
            attrs["min"] = spec.ge
        if spec.le is not None:
            attrs["max"] = spec.le
        # A text input keeps whatever was typed (even "abc") so the form comes back as entered.
        return forms.CharField(widget=forms.TextInput(attrs={**attrs, "class": "num"}), **common)
    return forms.CharField(max_length=None, **common)


_FIELDS: dict[tuple[type, str], forms.Field] = {}


def cached_field(cls: type, leaf: Leaf, initial: Any) -> forms.Field:
    """The form field of ``leaf``, built once per scenario type and path, then copied.

    Building a Django field deep-copies its widget; a calculator form has some fifty fields and
    is built on every request. The copy shares the widget, which nothing here mutates (fields are
    rendered by ``templatetags.estoc.render_field`` from the widget's attributes)."""
    key = (cls, leaf.path)
    prototype = _FIELDS.get(key)
    if prototype is None:
        prototype = _FIELDS[key] = form_field(leaf, None)
    # a shallow copy (what copy.copy gives, without its protocol lookups): it shares the widget
    field = object.__new__(type(prototype))
    field.__dict__.update(prototype.__dict__)
    field.initial = initial
    return field


class ScenarioForm(forms.Form):
    """Fields named by their scenario path (``pc.attribute``, ``npcs.0.menace``), dice, seed."""

    def __init__(
        self,
        ruleset: Ruleset,
        plugin: WebPlugin,
        defaults: dict[str, Any],
        data: QueryDict | None = None,
        flat_defaults: dict[str, Any] | None = None,
    ) -> None:
        bound = data is not None and MARKER in data
        self.ruleset = ruleset
        self.plugin = plugin
        self.preset_errors: dict[str, str] = {}  # preset.<group>… → why the choice was refused
        # ``defaults`` flattened: the caller may have it already (services.flat_defaults)
        self.flat_defaults = flat_defaults if flat_defaults is not None else flatten(defaults)
        self.rows = row_counts(ruleset.scenario_type, data if data is not None else {}, self.flat_defaults)
        self.leaves = [
            leaf for leaf in leaves(ruleset.scenario_type, self.rows) if not under_hidden(leaf.path, plugin.hidden)
        ]
        if bound and data is not None:
            # a value left out of the URL is the default: show it (a missing checkbox is unticked)
            data = copy_query(data)
            for leaf in self.leaves:
                if leaf.path not in data and leaf.info.type is not bool:
                    default = self.flat_defaults.get(leaf.path, leaf_default(leaf))
                    data[leaf.path] = "" if default is None else str(default)
        super().__init__(data=data if bound else None)
        for leaf in self.leaves:
            self.fields[leaf.path] = cached_field(
                ruleset.scenario_type, leaf, self.flat_defaults.get(leaf.path, leaf_default(leaf))
            )
        self.spec = DiceSpec()
        self.fields["seed"] = forms.CharField(
            label=_("Graine"),
            required=False,
            help_text=_("Vide\u202f: une nouvelle graine. La même graine rejoue les mêmes dés."),
            widget=forms.TextInput(attrs={"inputmode": "numeric"}),
        )

    def set_dice(self, spec: DiceSpec, keep_typed: bool = False) -> None:
        """One input per die the rules read (in order); blanks are rolled by the server."""
        self.spec = spec
        for slot in spec.slots:
            faces = slot.die.describe_faces()
            self.fields[f"dice.{slot.key}"] = forms.CharField(
                label=typography(slot.label),
                required=False,
                widget=forms.TextInput(
                    attrs={
                        "class": "die",
                        # the die's faces are part of its id: a live redraw keeps (hx-preserve) what was
                        # typed in the same die, and replaces a box whose die changed (its faces, its title)
                        "id": f"die-{slot.key.replace('.', '-')}-{zlib.crc32(faces.encode()):08x}",
                        # the dice sit in the action bar, outside the <form> element
                        "form": "scenario-form",
                        "inputmode": "numeric",
                        "autocomplete": "off",
                        # a live redraw of the scene keeps what was already typed in this die
                        "hx-preserve": "true",
                        "placeholder": "?",
                        "data-width": str(max(len(str(f)) for f in slot.die.faces)),
                        "title": _("Faces\u202f: {faces}. Vide\u202f: lancé par le serveur.").format(faces=faces),
                    }
                ),
            )
        if self.is_bound and keep_typed:
            # the scenario is invalid: keep the dice typed so far, unlabelled, until it is fixed
            for key in self.data:
                if key.startswith("dice.") and key not in self.fields and str(self.data.get(key, "")).strip():
                    self.fields[key] = forms.CharField(
                        label=key[len("dice.") :],
                        required=False,
                        widget=forms.TextInput(attrs={"class": "die", "form": "scenario-form", "inputmode": "numeric"}),
                    )

    @property
    def scenario_field_names(self) -> list[str]:
        return [leaf.path for leaf in self.leaves]

    @property
    def dice_fields(self) -> list[Any]:
        return [self[name] for name in self.fields if name.startswith("dice.")]

    # -- reading ------------------------------------------------------------------------------

    def raw(self, name: str) -> Any:
        if self.is_bound:
            field = self.fields[name]
            return field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
        return self.fields[name].initial

    def scenario_data(self) -> dict[str, Any]:
        """Flat scenario values as typed, blanks included (``parse`` with ``Source.FORM`` refuses a
        blank field that is not text, issue 14), and the defaults of the hidden fields."""
        flat: dict[str, Any] = dict(hidden_defaults(self.flat_defaults, self.plugin.hidden))
        for leaf in self.leaves:
            flat[leaf.path] = self.raw(leaf.path)
        return flat

    def payload(self) -> dict[str, Any]:
        from rulesets.core.schema import unflatten

        return request_payload(unflatten(self.scenario_data()), self.data if self.is_bound else None)

    # -- errors -------------------------------------------------------------------------------

    def _clean_fields(self) -> None:
        """Django's field validation, on the fields that can fail it: a choice (an unknown one) and
        any value holding a null character. The other fields (text, numbers typed as text, boxes;
        never required) take any value; the engine checks them (``parse``), with its own messages.
        Cleaning some 300 fields to find none in error cost more than rendering them."""
        for name, field in self.fields.items():
            raw = self.data.get(name) if name in self.data else None
            if isinstance(field, forms.ChoiceField) or (isinstance(raw, str) and "\x00" in raw):
                bf = self[name]
                try:
                    self.cleaned_data[name] = field.clean(bf.initial if field.disabled else bf.data)
                except forms.ValidationError as exc:
                    self.add_error(name, exc)

    def set_errors(self, errors: dict[str, str]) -> None:
        """Attach the engine's French messages (``scenario.pc.attribute`` …) to their fields."""
        self.is_valid()  # runs full_clean so that add_error has somewhere to write
        for key, message in errors.items():
            name = key[len("scenario.") :] if key.startswith("scenario.") else key
            if name.startswith("preset.") and name not in self.fields:
                # a bestiary select's refused choice: under that select (templatetags.estoc), and on
                # top as well, where it is seen whether or not this page draws that select
                self.preset_errors[name] = message
            if name not in self.fields:
                # a list-level message ("npcs") goes to the first field of that group, else on top
                name = next((f for f in self.fields if f.startswith(name + ".")), "")
            if name and name in self.errors:
                continue  # Django already refused this value (an unknown choice)
            self.add_error(name or None, message)


def request_payload(scenario: dict[str, Any], data: Mapping[str, Any] | None) -> dict[str, Any]:
    """The resolve request of a page: its scenario (unflattened), the dice typed in ``data`` (the
    blank ones left to the server) and its seed when one is typed."""
    if data is None:
        return {"scenario": scenario, "dice": {}}
    payload: dict[str, Any] = {
        "scenario": scenario,
        "dice": {k[len("dice.") :]: str(v) for k, v in data.items() if k.startswith("dice.") and str(v).strip()},
    }
    seed = str(data.get("seed") or "").strip()
    if seed:
        payload["seed"] = seed
    return payload


def leaf_default(leaf: Leaf) -> Any:
    if leaf.info.default is dataclasses.MISSING:
        return None
    return to_data(leaf.info.default)


@functools.lru_cache(maxsize=16_384)
def under_hidden(path: str, hidden: tuple[str, ...]) -> bool:
    """``path`` is one of the ``hidden`` paths or under one (kept: the same paths on every request)."""
    return any(path == h or path.startswith(h + ".") for h in hidden)


# hidden_defaults' answers: (id of the defaults, hidden paths) → (the defaults themselves, so that
# their id is not reused while kept, the answer)
_HIDDEN_DEFAULTS: dict[tuple[int, tuple[str, ...]], tuple[Mapping[str, Any], dict[str, Any]]] = {}


def hidden_defaults(flat_defaults: Mapping[str, Any], hidden: tuple[str, ...]) -> dict[str, Any]:
    """The page defaults of the hidden fields (they stand whatever the data says): computed once per
    defaults object (``services.flat_defaults`` keeps one per version of the bestiary). Shared:
    never mutate it."""
    if not hidden:
        return {}
    key = (id(flat_defaults), hidden)
    kept = _HIDDEN_DEFAULTS.get(key)
    if kept is not None and kept[0] is flat_defaults:
        return kept[1]
    answer = {k: v for k, v in flat_defaults.items() if under_hidden(k, hidden)}
    if len(_HIDDEN_DEFAULTS) >= 64:
        _HIDDEN_DEFAULTS.clear()
    _HIDDEN_DEFAULTS[key] = (flat_defaults, answer)
    return answer


def copy_query(data: QueryDict) -> QueryDict:
    """A mutable copy of a QueryDict: its value lists copied, its strings shared (``.copy()``
    deep-copies every string, on every request). The keys and values are already text, so they
    go in as they are (``setlist`` decodes each one again; a Quadrature sheet has some 260)."""
    out = QueryDict(mutable=True)
    dict.update(out, {key: list(values) for key, values in dict.items(data)})
    return out


def permalink_pairs(flat: Mapping[str, Any], dice: Mapping[str, Any], seed: int | None) -> list[tuple[str, str]]:
    """The GET parameters that reproduce a resolution, as pairs: the marker, every field of the
    flat scenario (a true box is "on", a false one absent), the typed dice, the seed."""
    pairs = [(MARKER, "1")]
    for key, value in flat.items():
        if isinstance(value, bool):
            if value:
                pairs.append((key, "on"))
        elif value is not None:
            pairs.append((key, str(value)))
    pairs += [(f"dice.{key}", str(value)) for key, value in dice.items()]
    if seed is not None:
        pairs.append(("seed", str(seed)))
    return pairs


_PLAIN = re.compile(r"[A-Za-z0-9_.\-~]*")
_QUOTED_KEYS: dict[str, str] = {}


def encoded_pair(key: str, value: str) -> str:
    """``key=value`` as ``urlencode`` writes it: field paths are quoted once and kept, and a plain
    value (digits, a bare word) needs no quoting."""
    quoted = _QUOTED_KEYS.get(key)
    if quoted is None:
        quoted = quote_plus(key)
        if len(_QUOTED_KEYS) < 10_000:
            _QUOTED_KEYS[key] = quoted
    return f"{quoted}={value if _PLAIN.fullmatch(value) else quote_plus(value)}"


def encoded_field(key: str, value: Any) -> str | None:
    """A scenario field as :func:`permalink_pairs` puts it in a permalink, encoded: None when it is
    left out (a false box, no value)."""
    if isinstance(value, bool):
        return encoded_pair(key, "on") if value else None
    return None if value is None else encoded_pair(key, str(value))


def query_string(pairs: list[tuple[str, str]]) -> str:
    """``urllib.parse.urlencode(pairs)``, the same bytes, faster (:func:`encoded_pair`). A permalink
    has some fifty pairs and a result page builds several (see docs/performance.md)."""
    return "&".join(encoded_pair(key, value) for key, value in pairs)


def permalink_query(payload: dict[str, Any], seed: int | None) -> QueryDict:
    """The GET parameters that reproduce a resolution: every field, the typed dice, the seed."""
    q = QueryDict(mutable=True)
    for key, value in permalink_pairs(flatten(payload["scenario"]), payload.get("dice", {}), seed):
        q[key] = value
    return q


def apply_form_actions(data: QueryDict, cls: type, groups: dict[str, Any]) -> tuple[QueryDict, bool]:
    """Apply the buttons that edit the form instead of resolving it.

    ``_add=npcs`` adds a row, ``_del=npcs.1`` removes one, ``_load=preset.npc.0`` copies a bestiary
    entry into its fields, ``_refresh`` redraws the scene and the dice (what htmx does live). Returns the new data and whether such a button was pressed.
    """
    out = copy_query(data)
    acted = False
    lists = list_paths(cls)
    add = data.get("_add", "")
    if add in lists:
        spec = lists[add]
        raw = dict(data.items())
        n = row_counts(cls, raw, {})[add]
        if spec.max_items is None or n < spec.max_items:
            first = _first_leaf_name(cls, add)
            out[f"{add}.{n}.{first}"] = ""
        acted = True
    delete = data.get("_del", "")
    m = re.match(r"^(?P<list>.+)\.(?P<index>[0-9]+)$", delete)
    index = parse_index(m.group("index")) if m else None
    if m and index is not None and m.group("list") in lists:  # a made-up index: refused_input says so
        path = m.group("list")
        moved = QueryDict(mutable=True)
        for key, values in out.lists():
            row = _ROW.match(key)
            if row is not None and row.group("list") == path and (i := parse_index(row.group("index"))) is not None:
                if i == index:
                    continue
                if i > index:
                    key = f"{path}.{i - 1}." + key[row.end() :]
            moved.setlist(key, values)
        out = moved
        acted = True
    load = data.get("_load", "")
    if load.startswith("preset."):
        parts = load.split(".")
        group = groups.get(parts[1]) if len(parts) > 1 else None
        preset = group.find(data.get(load, "")) if group is not None else None
        if group is not None and preset is not None:
            prefix = group.prefix.replace("{row}", parts[2] if len(parts) > 2 else "0")
            for key, value in preset.values.items():
                name = f"{prefix}.{key}"
                if isinstance(value, bool):
                    if value:
                        out[name] = "on"
                    elif name in out:
                        del out[name]
                else:
                    out[name] = str(value)
        acted = True
    if "_refresh" in data:
        acted = True
    for key in ("_add", "_del", "_load", "_refresh"):
        if key in out:
            del out[key]
    return out, acted


def _first_leaf_name(cls: type, list_path: str) -> str:
    node: Any = cls
    for part in list_path.split("."):
        info = next(i for i in fields_of(node) if i.name == part)
        node = list_item(info.type) or info.type
    return fields_of(node)[0].name
