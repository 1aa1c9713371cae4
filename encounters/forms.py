"""Forms of the encounter pages. A combatant's sheet and the clock are generated from their rule
system's dataclasses, like the calculator form: the messages are the dataclass's own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from calculator.forms import Leaf, form_field, leaf_default, leaves, list_paths, row_refused
from calculator.plugins import PresetGroup
from encounters.services import ERROR_NUL
from rulesets.core import encounter as core
from rulesets.core.conditions import Chip, Lasting
from rulesets.core.french import join, signed, typography
from rulesets.core.schema import ScenarioError, Spec, ascii_number, flatten, parse_index, unflatten

MAX_COPIES = 12


DELETE = "_del"


class DataclassForm(forms.Form):
    """One input per leaf of a state (or clock) dataclass; a list shows exactly its rows, each with
    a « supprimer » box, and ``add`` (a list path) shows one more row to fill.

    The values are only carried: :func:`rulesets.core.schema.parse` validates them, and
    :meth:`set_errors` puts its French messages back on the fields.
    """

    def __init__(
        self, cls: type, initial: Mapping[str, Any], data: QueryDict | None = None, prefix: str = "", add: str = ""
    ) -> None:
        self.cls = cls
        self.lists = list_paths(cls)
        flat_initial = flatten(dict(initial))
        raw: dict[str, Any] = flat_initial
        if data is not None:
            start = len(prefix) + 1 if prefix else 0
            raw = {k[start:]: v for k, v in data.items() if not prefix or k.startswith(prefix + "-")}
        # a row index that is no index of the list (past its last row, '²', 5,000 digits) is refused,
        # with a message on the form, never counted (issue 17, finding 4)
        self.refused: dict[str, str] = {}
        self.rows = {path: _rows_in(raw, path, self.lists[path], self.refused) for path in self.lists}
        if add in self.rows and self.rows[add] < (self.lists[add].max_items or 20):
            self.rows[add] += 1
        self.leaves: list[Leaf] = leaves(cls, self.rows)
        super().__init__(data=data, prefix=prefix or None)
        for leaf in self.leaves:
            self.fields[leaf.path] = form_field(leaf, flat_initial.get(leaf.path, leaf_default(leaf)))
        for path, count in self.rows.items():
            for i in range(count):
                self.fields[f"{path}.{i}.{DELETE}"] = forms.BooleanField(
                    label=_("supprimer cette ligne"), required=False
                )

    def raw(self, name: str) -> Any:
        field = self.fields[name]
        if self.is_bound:
            return field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
        return field.initial

    def layout(self) -> list[dict[str, Any]]:
        """The fields in order, grouped: plain fields, then each list's rows (with their box to
        delete the row) and its « ajouter une ligne » button."""
        out: list[dict[str, Any]] = []
        for leaf in self.leaves:
            owner = next((p for p in self.lists if leaf.path.startswith(p + ".")), None)
            if owner is None:
                if not out or out[-1]["kind"] != "fields":
                    out.append({"kind": "fields", "names": []})
                out[-1]["names"].append(leaf.path)
                continue
            index = int(leaf.path[len(owner) + 1 :].split(".", 1)[0])
            row = f"{owner}.{index}"
            if not out or out[-1].get("row") != row:
                label = self.lists[owner].label
                out.append({"kind": "row", "row": row, "list": owner, "title": f"{label} n° {index + 1}", "names": []})
            out[-1]["names"].append(leaf.path)
        for path, spec in self.lists.items():
            if self.rows[path] < (spec.max_items or 20):
                at = max((n for n, b in enumerate(out) if b.get("list") == path), default=len(out) - 1) + 1
                out.insert(at, {"kind": "add", "list": path, "title": spec.label})
        return out

    def values(self) -> dict[str, Any]:
        """The typed values, nested; the rows ticked « supprimer », or emptied, are left out.

        Raises :class:`ScenarioError` with the :attr:`refused` row indices, if any."""
        if self.refused:
            raise ScenarioError(self.refused)
        deleted = {
            name[: -len(DELETE) - 1] + "." for name in self.fields if name.endswith("." + DELETE) and self.raw(name)
        }
        flat: dict[str, Any] = {}
        for leaf in self.leaves:
            if any(leaf.path.startswith(row) for row in deleted):
                continue
            value = self.raw(leaf.path)
            if isinstance(value, str) and value.strip() == "" and leaf.info.type is not str:
                continue
            flat[leaf.path] = value
        for path in self.lists:  # a row whose every cell was emptied goes too
            for i in range(self.rows.get(path, 0)):
                cells = {k: v for k, v in flat.items() if k.startswith(f"{path}.{i}.")}
                if all(v in ("", False, None) for v in cells.values()):
                    for k in cells:
                        del flat[k]
        data = unflatten(flat)
        for path in self.lists:
            _compact(data, path.split("."))
        return data

    def set_errors(self, errors: Mapping[str, str]) -> None:
        self.is_valid()
        for key, message in errors.items():
            name = key if key in self.fields else next((f for f in self.fields if f.startswith(key + ".")), "")
            if name and name in self.errors:
                continue
            self.add_error(name or None, message)


def _rows_in(flat: Mapping[str, Any], path: str, spec: Spec, refused: dict[str, str]) -> int:
    """How many rows of the list ``path`` the flat data has (0 for an empty list). A key whose row
    is digits but no row the list may have goes to ``refused`` (key → French message)."""
    prefix = path + "."
    limit = spec.max_items or 20
    numbers = []
    for key in flat:
        if not key.startswith(prefix):
            continue
        part = key[len(prefix) :].partition(".")[0]
        index = parse_index(part)
        if index is not None and index < limit:
            numbers.append(index)
        elif part.isdigit():
            refused[key] = row_refused(key, part, spec.label, limit)
    return max(numbers) + 1 if numbers else 0


def _compact(data: Any, parts: list[str]) -> None:
    """Rows left out from the middle of a list leave holes in ``unflatten``'s output: close them;
    a list with no row left is an empty list, not a missing field."""
    node = data
    for part in parts[:-1]:
        if not isinstance(node, dict) or part not in node:
            return
        node = node[part]
    if not isinstance(node, dict):
        return
    last = parts[-1]
    value = node.get(last)
    if isinstance(value, list):
        node[last] = [row for row in value if row not in ({}, [], None)]
    elif value is None:
        node[last] = []


class EncounterCreateForm(forms.Form):
    system = forms.ChoiceField(label=_("Système de règles"))
    name = forms.CharField(label=_("Nom de la rencontre"), max_length=None, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from rulesets.core.registry import load_all

        rulesets = load_all()
        choices = [(slug, rulesets[slug].name) for slug in core.all_rules()]
        self.fields["system"].choices = choices  # type: ignore[attr-defined]


class ImportForm(forms.Form):
    file = forms.FileField(label=_("Fichier JSON exporté"), required=False)
    text = forms.CharField(
        label=_("… ou son contenu collé ici"), widget=forms.Textarea(attrs={"rows": 3}), required=False
    )


def add_form(
    rules: core.EncounterRules, groups: Mapping[str, PresetGroup], data: QueryDict | None = None
) -> forms.Form:
    """Add a combatant: a bestiary entry (each listed once, under its group) or only a name, its
    kind (left to the bestiary, or chosen: a Nephilim creature as a PJ), and how many copies."""
    form = forms.Form(data=data)
    defaults = []
    preset_choices: list[tuple[str, Any]] = [("", _("— à la main —"))]
    for key in dict.fromkeys(k.preset_group for k in rules.kinds if k.preset_group):
        group = groups.get(key)
        if group is None or not group.presets:
            continue
        preset_choices.append((str(group.label), [(f"{group.key}:{p.key}", p.label) for p in group.presets]))
        default = rules.bestiary_kind(key)
        if default is not None:
            defaults.append(str(default.label))
    kind_choices: list[tuple[str, Any]] = [(k.key, k.label) for k in rules.kinds]
    kind_help = ""
    if len(preset_choices) > 1:
        kind_choices.insert(0, ("", _("— selon le bestiaire —")))
        kind_help = _("«\u202fSelon le bestiaire\u202f»\u202f: {kinds}\u202f; à la main, choisissez la sorte.").format(
            kinds=join(defaults, "ou")
        )
    form.fields["preset"] = forms.ChoiceField(label=_("Du bestiaire"), choices=preset_choices, required=False)
    form.fields["kind"] = forms.ChoiceField(label=_("Sorte"), choices=kind_choices, required=False, help_text=kind_help)
    form.fields["name"] = forms.CharField(
        label=_("Nom"), required=False, max_length=None, help_text=_("Vide\u202f: le nom du bestiaire.")
    )
    form.fields["count"] = forms.CharField(
        label=_("Combien"),
        required=False,
        initial="1",
        widget=forms.TextInput(attrs={"inputmode": "numeric", "class": "num"}),
        help_text=_("Plusieurs\u202f: numérotés («\u202fGobelin 1\u202f», «\u202fGobelin 2\u202f»…)."),
    )
    return form


# --- lasting conditions (issue 16) -------------------------------------------------------------------

ERROR_VALUE = "Valeur\u202f: un nombre entier (−4, 3…), ou rien pour la valeur habituelle."
ERROR_NOTE_TOO_LONG = "Texte\u202f: 80\u00a0caractères au plus."
NOTE_MAX = 80


def condition_prefix(cid: int, path: str = "") -> str:
    """The form of a combatant's new condition (``k12``), or of its chip at ``path`` (``k12-conditions_2``)."""
    return f"k{cid}" + (f"-{''.join(ch if ch.isalnum() else '_' for ch in path)}" if path else "")


def condition_form(
    lasting: Sequence[Lasting],
    data: QueryDict | None = None,
    *,
    prefix: str,
    chip: Chip | None = None,
) -> forms.Form:
    """Put a condition on a combatant (``chip`` None: a choice among ``lasting``), or change the
    one ``chip`` shows (its condition fixed, its number and text prefilled)."""
    form = forms.Form(data=data, prefix=prefix)
    asked = [item for item in lasting if chip is None or item.key == chip.lasting]
    if chip is None:
        form.fields["lasting"] = forms.ChoiceField(
            label=_("Effet"), choices=[(item.key, typography(item.label)) for item in asked], required=False
        )
    else:
        form.fields["lasting"] = forms.CharField(widget=forms.HiddenInput, initial=chip.lasting, required=False)
    valued = [item for item in asked if item.value]
    if valued:
        one = chip is not None or len(valued) == 1
        if one:
            item = valued[0]
            usual = (
                _("Vide\u202f: {v}.").format(v=signed(item.default))
                if item.default is not None and chip is None
                else ""
            )
            value_help = " ".join(h for h in (item.value_help, usual) if h)
        else:
            value_help = str(_("Selon l'effet\u202f; vide\u202f: sa valeur habituelle."))
        form.fields["value"] = forms.CharField(
            label=typography(valued[0].value) if one else _("Valeur"),
            required=False,
            initial="" if chip is None or chip.value is None else str(chip.value),
            widget=forms.TextInput(attrs={"inputmode": "numeric", "class": "num"}),
            help_text=typography(value_help),
        )
    noted = [item for item in asked if item.note]
    if noted:
        form.fields["note"] = forms.CharField(
            label=typography(noted[0].note) if chip is not None or len(noted) == 1 else _("Précision (nom, effet)"),
            required=False,
            max_length=None,
            initial=chip.note if chip is not None else "",
        )
    return form


def condition_values(form: forms.Form) -> tuple[str, int | None, str]:
    """(lasting key, number or None, text) as typed; a number that is no integer, or a text
    too long, is refused on its field, never read as « no value »."""

    def raw(name: str) -> str:
        if name not in form.fields:
            return str(form.data.get(form.add_prefix(name), "") or "")
        return str(form.fields[name].widget.value_from_datadict(form.data, form.files, form.add_prefix(name)) or "")

    errors: dict[str, str] = {}
    text = raw("value").strip().replace("\u2212", "-")
    value: int | None = None
    if text:
        sign = -1 if text.startswith("-") else 1
        digits = text.lstrip("+-")
        number = ascii_number(digits, 4) if len(text) - len(digits) <= 1 else None
        if number is None:
            errors["value"] = ERROR_VALUE
        else:
            value = sign * number
    note = raw("note")
    if "\x00" in note:
        errors["note"] = ERROR_NUL
    elif len(note.strip()) > NOTE_MAX:
        errors["note"] = ERROR_NOTE_TOO_LONG
    if errors:
        raise ScenarioError(errors)
    return raw("lasting"), value, note.strip()


def set_form_errors(form: forms.Form, errors: Mapping[str, str]) -> None:
    """Messages on the fields they are about (the others above the form)."""
    form.is_valid()
    for key, message in errors.items():
        form.add_error(key if key in form.fields else None, message)
