"""The form's raw values read as the form reads them, and the changes a ``settle`` makes to them.

A page plug-in's :attr:`~calculator.plugins.WebPlugin.settle` is given the flat raw values the browser sent
(``Mapping[str, str]``) and returns the changes that keep the scene valid (docs/architecture.md, « Always a
valid state »). :class:`RawForm` reads those values exactly as :class:`calculator.forms.ScenarioForm` hands
them to the engine (:meth:`~calculator.forms.ScenarioForm.scenario_data`, then ``parse``):

* a field left out of the data shows its page default (the form fills it in; the row item's default for a
  row just added);
* a blank field is handed over blank: ``parse`` (``Source.FORM``) refuses it when it is not text and not
  optional, reads it as None when it is optional (issue 14: a blank field is no default); a blank text
  field is "";
* a box is ticked when it is present and not "false" nor "" (Django's ``CheckboxInput``: "off" and "0" tick
  it, a box is only ever sent as "on"); a missing box is unticked (the form is bound);
* a hidden field (``WebPlugin.hidden``) is its page default, whatever the data says.

It records the changes (path → new raw value, ``None`` removes it: an unticked box) and the French notes
that go with them, and gives them back as a :class:`~calculator.plugins.Settled`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from functools import cache
from typing import Any

from calculator.forms import _ROW, Leaf, hidden_defaults, leaf_default, leaves, row_counts, under_hidden
from calculator.plugins import Settled
from rulesets.core.schema import flatten, to_data

__all__ = ["RawForm", "checked", "type_defaults"]


@cache
def type_defaults(scenario_type: type) -> dict[str, Any]:
    """The flat defaults of a scenario type (``flatten(to_data(scenario_type()))``), built once per type.

    Shared between requests: never mutate it."""
    return flatten(to_data(scenario_type()))


def checked(raw: Any) -> bool:
    """A box's raw value as Django's ``CheckboxInput`` reads it (what the form gives the engine): absent
    (``None``), "" and "false" (any case) are unticked, any other text ticks it ("on", but also "off", "0")."""
    if raw is None:
        return False
    if isinstance(raw, str):
        return {"true": True, "false": False}.get(raw.lower(), bool(raw))
    return bool(raw)


def _under(path: str, hidden: tuple[str, ...]) -> bool:
    return under_hidden(path, hidden)


class RawForm:
    """A bound calculator form's raw values, read as the form reads them, and the changes made to them.

    ``data`` is the flat raw values (copied: :attr:`data` holds them as changed so far); ``defaults`` the
    flat defaults of the page (by default the scenario type's own, :func:`type_defaults`); ``hidden`` the
    plug-in's hidden paths (their page default stands). Row counts and fields follow
    :func:`calculator.forms.row_counts` and :func:`~calculator.forms.leaves`, as the form computes them;
    they are computed again after a change that adds or removes a row's value.
    """

    def __init__(
        self,
        scenario_type: type,
        data: Mapping[str, str],
        defaults: Mapping[str, Any] | None = None,
        hidden: tuple[str, ...] = (),
    ) -> None:
        self.scenario_type = scenario_type
        self.data: dict[str, str] = dict(data)
        if defaults is None:
            defaults = type_defaults(scenario_type)
        self.page_defaults: dict[str, Any] = defaults if isinstance(defaults, dict) else dict(defaults)
        self.hidden = hidden
        self.changes: dict[str, str | None] = {}
        self.notes: list[str] = []
        self._counts: dict[str, int] | None = None
        self._leaves: dict[str, Leaf] = {}

    # --- the form's layout ---------------------------------------------------------------------------------

    @property
    def counts(self) -> dict[str, int]:
        """The rows of each list of the scenario (``{"npcs": 2}``), as the form counts them."""
        if self._counts is None:
            self._counts = row_counts(self.scenario_type, self.data, self.page_defaults)
            self._leaves = {leaf.path: leaf for leaf in leaves(self.scenario_type, self._counts)}
        return self._counts

    @property
    def leaves(self) -> dict[str, Leaf]:
        """The form's fields by path (a row just added has its fields)."""
        _ = self.counts
        return self._leaves

    def leaf(self, path: str) -> Leaf | None:
        """The scenario field at ``path``, or None (a marker input, a path the form does not have)."""
        return self.leaves.get(path)

    def is_box(self, path: str) -> bool:
        """``path`` is a checkbox of the form (a ``bool`` field)."""
        leaf = self.leaf(path)
        return leaf is not None and leaf.info.type is bool

    def is_hidden(self, path: str) -> bool:
        return _under(path, self.hidden)

    def rows(self, list_path: str) -> range:
        """The row indices of the list ``list_path`` (``range(0)`` for a path that is not a list)."""
        return range(self.counts.get(list_path, 0))

    # --- reading -------------------------------------------------------------------------------------------

    def default(self, path: str) -> Any:
        """What a field left out of the data shows: the page's default, else its row item's default."""
        if path in self.page_defaults:
            return self.page_defaults[path]
        leaf = self.leaf(path)
        return None if leaf is None else leaf_default(leaf)

    def shown(self, path: str) -> str:
        """The text the form's input holds: the raw value, or the default the form fills in for a field left
        out ("" for none). A box shows "on" or ""."""
        if self.is_box(path):
            return "on" if self.flag(path) else ""
        if path in self.data and not self.is_hidden(path):
            return str(self.data[path])
        default = self.default(path)
        return "" if default is None else str(default)

    def value(self, path: str) -> Any:
        """The value the engine is given for ``path``: a box's state; the raw text; for a blank field that is
        not text, the default the engine takes (its dataclass field's); a hidden field's page default.
        A path that is no field of the form (a marker input) is its raw value, or None."""
        leaf = self.leaf(path)
        if leaf is None:
            return self.data.get(path)
        if self.is_hidden(path):
            return self.page_defaults.get(path, leaf_default(leaf))
        if leaf.info.type is bool:
            return self.flag(path)
        raw = self.shown(path)
        if raw.strip() == "" and leaf.info.type is not str:
            return leaf_default(leaf)  # left out of the scenario: the engine takes the field's default
        return raw

    def get(self, path: str) -> str:
        """The value as stripped text ("" for none; a box reads "True" or "False": use :meth:`flag`)."""
        v = self.value(path)
        return "" if v is None else str(v).strip()

    def flag(self, path: str) -> bool:
        """A box as the form reads it (:func:`checked`; missing: unticked, the form is bound)."""
        if self.is_hidden(path):
            return bool(self.page_defaults.get(path))
        return checked(self.data.get(path))

    def number(self, path: str) -> int | None:
        """The value as an integer; None when it is not one (the field says why) or there is none."""
        try:
            return int(self.get(path))
        except ValueError:
            return None

    def choice[C: enum.Enum](self, path: str, kind: type[C]) -> C:
        """A choice; a value the form refuses (its field says why) reads as the field's default."""
        try:
            return kind(self.get(path))
        except ValueError:
            return kind(self.default(path))

    def scenario_data(self) -> dict[str, Any]:
        """The flat scenario the form gives the engine (:meth:`calculator.forms.ScenarioForm.scenario_data`):
        hidden fields' defaults, boxes as booleans, raw texts (a blank one too: ``parse`` with ``Source.FORM``
        refuses a blank field that is not text, or reads it as None when the field is optional)."""
        flat: dict[str, Any] = dict(hidden_defaults(self.page_defaults, self.hidden))
        for path, leaf in self.leaves.items():
            if self.is_hidden(path):
                continue
            if leaf.info.type is bool:
                flat[path] = self.flag(path)
                continue
            flat[path] = self.shown(path)
        return flat

    # --- writing -------------------------------------------------------------------------------------------

    def set(self, path: str, value: Any, note: str | None = None, *, force: bool = False) -> bool:
        """Set a field unless the form already shows ``value``; True (and ``note`` noted) if it changed.

        A bool ticks or unticks (a box's other values are read as the form reads them); ``None`` removes the
        value (the field shows its default); an enum member is its value; anything else its text. A field
        left out already shows its default: setting that default changes nothing. ``force`` records the
        change even so (values that go together, such as a square's two coordinates)."""
        new: str | None
        if self.is_box(path) or isinstance(value, bool):
            tick = value if isinstance(value, bool) else checked(None if value is None else _text(value))
            if self.flag(path) == tick and not force:
                return False
            new = "on" if tick else None
        elif value is None:
            if path not in self.data and not force:
                return False
            new = None
        else:
            new = _text(value)
            if self.shown(path).strip() == new.strip() and not force:
                return False
        self._write(path, new)
        if note:
            self.note(note)
        return True

    def load(self, prefix: str, values: Mapping[str, Any]) -> bool:
        """Set the fields under ``prefix`` (a preset's values, keyed without it); True if one changed."""
        changed = False
        for key, value in values.items():
            changed |= self.set(f"{prefix}.{key}" if prefix else key, value)
        return changed

    def mark(self, path: str, value: str | None) -> bool:
        """Set a hidden input of the page that is no scenario field (a marker); ``None`` removes it."""
        if self.data.get(path) == value:
            return False
        self._write(path, value)
        return True

    def note(self, text: str) -> None:
        """A French note for the game master, once."""
        if text not in self.notes:
            self.notes.append(text)

    def settled(self) -> Settled:
        """The changes and the notes, for the view."""
        return Settled(changes=dict(self.changes), notes=list(self.notes))

    def _write(self, path: str, value: str | None) -> None:
        """The one place the raw values change (a subclass that caches a reading clears it here)."""
        adds_or_removes = value is None or path not in self.data
        self.changes[path] = value
        if value is None:
            self.data.pop(path, None)
        else:
            self.data[path] = value
        if adds_or_removes and _ROW.match(path):
            self._counts = None  # a row's value came or went: the rows are counted again


def _text(value: Any) -> str:
    return str(value.value) if isinstance(value, enum.Enum) else str(value)
