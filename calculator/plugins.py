"""Page plug-ins: what a rule system adds to the generic calculator page.

A plug-in (registered by ``bestiary/<slug>/web.py``) names the template of the form's fields, the defaults read
from the database (table settings) and the bestiary presets that fill groups of fields.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Preset:
    """A choice of a preset select: ``key`` is what the page sends (for a bestiary row, the row's
    key, the one the API and the CLI take: calculator/tables.py), ``values`` the fields it fills.
    ``origin`` is the bestiary row it was made from (``str(pk)``; Féerie's ``"12.r"`` for a
    creature's ranged side), which the admin's checks find it by (bestiary/validation.py); it never
    reaches the page."""

    key: str
    label: str
    values: dict[str, Any]
    origin: str = field(default="", compare=False)


@dataclass(frozen=True)
class PresetGroup:
    """A select that fills the fields under ``prefix`` (``{row}`` for a repeated group)."""

    key: str
    prefix: str
    label: str
    presets: list[Preset]
    # the API table (:class:`Table` key) whose row keys these presets carry: the page sends the
    # key the API takes, and loading it fills what the API puts at that key (tests/test_page_keys.py)
    table: str = ""

    def find(self, key: str) -> Preset | None:
        return next((p for p in self.presets if p.key == key), None)

    def find_origin(self, origin: str) -> Preset | None:
        """The preset made from the bestiary row ``origin`` (``str(pk)``)."""
        return next((p for p in self.presets if p.origin == origin), None)


@dataclass(frozen=True)
class TableValues:
    """The numbers a choice fills (a weapon's degree and PHYS, a creature's Ka…): table values.

    The page shows them as one read-only line (« Épée/hache : degré 2, 2 PHYS ») with an
    « Ajuster » disclosure that holds their fields, so that the page leads with the decisions.
    ``fields`` are scenario paths; ``{row}`` stands for the row of a repeated group. ``describe``
    turns the fields' raw values (keyed by the paths as declared, ``{row}`` unformatted) into that
    line; without it the line lists each field's label and value.
    """

    key: str
    label: str
    fields: tuple[str, ...]
    describe: Callable[[Mapping[str, Any]], str] | None = None

    def paths(self, row: Any = "") -> list[str]:
        return [f.replace("{row}", str(row)) for f in self.fields]


@dataclass(frozen=True)
class Settled:
    """What :attr:`WebPlugin.settle` changes so the scene stays valid: field values (``None``
    removes the value: an unticked box) and a French note for each change, shown on the page."""

    changes: dict[str, str | None] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class TableRow:
    """A row of a bestiary table as the API names it: ``key`` (a slug of its name, stable),
    ``label`` and ``data``, the row's nested scenario data (what the server puts in its place)."""

    key: str
    label: str
    data: dict[str, Any]


@dataclass(frozen=True)
class Table:
    """A bestiary table whose rows a request may name by key (issue 14, « Rows by key »).

    ``paths`` are the scenario paths where a row goes (``attacker.weapon``; ``*`` stands for any
    row of a list: ``defenders.*.armour``); ``required`` the fields an inline object at those paths
    must give (an explicit custom row: no default inside a custom row). See calculator/tables.py.
    """

    key: str
    label: str
    paths: tuple[str, ...]
    # the rows, or how to read them: read on first use, so that a request naming no row by its key
    # reads no table (the paths and the required fields are enough to check it)
    load: Callable[[], tuple[TableRow, ...]] | tuple[TableRow, ...]
    required: tuple[str, ...] = ()

    @functools.cached_property
    def rows(self) -> tuple[TableRow, ...]:
        return self.load if isinstance(self.load, tuple) else self.load()

    def find(self, key: str) -> TableRow | None:
        return next((r for r in self.rows if r.key == key), None)


@dataclass(frozen=True)
class WebPlugin:
    slug: str
    fields_template: str
    defaults: Callable[[], dict[str, Any]] = dict
    presets: Callable[[], list[PresetGroup]] = list
    hidden: tuple[str, ...] = field(default=())
    # headline numbers of a resolution for the "Résultat final" panel: (key, label, value)
    summary: Callable[[Any], list[tuple[str, str, str]]] | None = None
    # the same dice with other choices (focus, interposition…): (label, flat changes, is current)
    variations: Callable[[Any], list[tuple[str, dict[str, Any], bool]]] | None = None
    # table values shown as a summary line with an « Ajuster » disclosure ({% adjust form key row %})
    table_values: tuple[TableValues, ...] = ()
    # dependent fields that follow their cause (a ranged attack selects a ranged defence…): given the
    # form's flat raw values, the changes that keep the scene valid. Run on every page request but a
    # permalink replay, after the buttons (_load, _add…), before the form is built.
    settle: Callable[[Mapping[str, str]], Settled] | None = None
    # templates sent out of band with an htmx result (each carries its own hx-swap-oob), for parts of
    # the form that a resolution changes (Quadrature's living sheet)
    result_oob: tuple[str, ...] = ()
    # the bestiary tables whose rows the API and the CLI name by key (calculator/tables.py)
    tables: Callable[[], list[Table]] = list

    def table(self, key: str) -> TableValues | None:
        return next((t for t in self.table_values if t.key == key), None)


_PLUGINS: dict[str, WebPlugin] = {}


def register(plugin: WebPlugin) -> WebPlugin:
    _PLUGINS[plugin.slug] = plugin
    return plugin


def get(slug: str) -> WebPlugin:
    return _PLUGINS.get(slug) or WebPlugin(slug=slug, fields_template="calculator/_generic_fields.html")
