"""Rows by key (issue 14): a request names a bestiary row by its key, the server fills its numbers.

Every rule system's plug-in lists its tables (:attr:`calculator.plugins.WebPlugin.tables`): each
:class:`~calculator.plugins.Table` has rows with a stable key (:func:`row_key`, a slug of the row's
name) and the scenario paths where such a row goes (``attacker.weapon``, ``defenders.*.armour``).
Before a request of the API or the CLI is parsed (:func:`calculator.services.with_table_settings`),
:func:`resolve_keys`:

* replaces a string at such a path by that row's data (``"weapon": "fusil-d-assaut-ak-47"``), or
  refuses an unknown key, naming the field (``scenario.attacker.weapon``) with a few valid keys;
* refuses an inline object that leaves out one of the table's ``required`` fields: an inline object
  is an explicit custom row, it gives its numbers (``{"name": "Bazooka"}`` is no 1-PHYS weapon).

Nothing here knows a rule system: a sixth one lists its tables in its own ``web.py``. The keys are
computed from the names (no stored slug, no migration): a name is unique in its table (the models
say so), two names that give the same slug (« Épée/hache », « Épée hache ») take ``-2``, ``-3`` in
the table's order (:func:`keyed_rows`). ``GET /api/rulesets/<slug>/tables`` lists them
(:func:`listing`), and the request schema offers them (:func:`schema_with_keys`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.text import slugify
from django.utils.translation import gettext as _

from calculator.plugins import Preset, PresetGroup, Table, TableRow, WebPlugin
from rulesets.core.french import typography
from rulesets.core.schema import ScenarioError, copy_data

# at most this many keys are quoted in a message (the others: GET /api/rulesets/<slug>/tables)
KEYS_QUOTED = 5
_APOSTROPHES = re.compile(r"['’/]")


def tables_url(slug: str) -> str:
    return f"/api/rulesets/{slug}/tables"


def row_key(name: str) -> str:
    """The key of a row named ``name``: « Fusil d'assaut AK-47 » → ``fusil-d-assaut-ak-47``
    (an apostrophe or a slash separates words, as a space does; accents dropped)."""
    return slugify(_APOSTROPHES.sub(" ", str(name))) or "ligne"


def unique_keys(names: Iterable[Any]) -> list[str]:
    """The keys of rows named ``names``, in the table's order, each unique in the table: a slug
    that an earlier row already has takes ``-2``, ``-3``…"""
    keys: list[str] = []
    seen: set[str] = set()
    for name in names:
        base = row_key(name)
        key, n = base, 1
        while key in seen:
            n += 1
            key = f"{base}-{n}"
        seen.add(key)
        keys.append(key)
    return keys


def keyed_rows(items: Iterable[tuple[str, str, dict[str, Any]]]) -> tuple[TableRow, ...]:
    """Rows from ``(name, label, data)`` in the table's order, each with its key (:func:`unique_keys`)."""
    items = list(items)
    keys = unique_keys(name for name, _label, _data in items)
    return tuple(TableRow(key=key, label=str(label), data=data) for key, (_name, label, data) in zip(keys, items))


def keys_by_pk(objects: Iterable[Any], name: Any = None) -> dict[Any, str]:
    """Each model row's key (by primary key) as its table keys it: ``objects`` in the table's order,
    the whole table (a subset would give another row the ``-2`` of a clash)."""
    name_of = name or (lambda row: row.name)
    rows = list(objects)
    return {row.pk: key for row, key in zip(rows, unique_keys(name_of(row) for row in rows))}


def bestiary_presets(
    objects: Iterable[Any],
    values: Any,
    *,
    keys: Mapping[Any, str] | None = None,
    label: Any = str,
    name: Any = None,
    origin: Any = None,
) -> list[Preset]:
    """The page's choices of bestiary rows: each row's key as the API takes it (``keys``, from
    :func:`keys_by_pk` over the whole table when ``objects`` is a part of it), ``label(row)`` shown,
    ``values(row)`` the fields it fills, ``origin(row)`` the id the admin's checks know it by
    (bestiary/validation.py; by default its primary key)."""
    rows = list(objects)
    keys = keys if keys is not None else keys_by_pk(rows, name)
    origin_of = origin or (lambda row: str(row.pk))
    return [
        Preset(key=keys[row.pk], label=str(label(row)), values=values(row), origin=str(origin_of(row))) for row in rows
    ]


def table_of(
    key: str,
    label: str,
    paths: tuple[str, ...],
    objects: Iterable[Any],
    data: Any,
    *,
    name: Any = None,
    label_of: Any = str,
    required: tuple[str, ...] = (),
) -> Table:
    """A :class:`Table` of model rows: ``data(row)`` the row's nested scenario data, ``name(row)``
    what its key is made from (the row's ``name``)."""
    name_of = name or (lambda row: row.name)

    def load() -> tuple[TableRow, ...]:  # read when a row is first looked for (Table.rows)
        return keyed_rows([(name_of(row), label_of(row), data(row)) for row in objects])

    return Table(key=key, label=label, paths=paths, load=load, required=required)


def tables_of(plugin: WebPlugin) -> list[Table]:
    """The plug-in's tables, kept until the bestiary changes (calculator/bestiary_cache.py)."""
    from calculator import bestiary_cache

    return list(bestiary_cache.cached("tables", plugin, plugin.tables))


# -- requests ----------------------------------------------------------------------------------


def _quoted_keys(table: Table) -> str:
    keys = [r.key for r in table.rows[:KEYS_QUOTED]]
    more = "…" if len(table.rows) > KEYS_QUOTED else ""
    return ", ".join(keys) + more if keys else _("aucune (table vide)")


def _unknown(table: Table, raw: str, slug: str) -> str:
    return _("{label} : clé inconnue « {key} » ; clés possibles : {keys} (toutes les lignes : GET {url}).").format(
        label=table.label, key=raw[:60], keys=_quoted_keys(table), url=tables_url(slug)
    )


def _incomplete(table: Table, missing: list[str], slug: str) -> str:
    return _(
        "{label} : une ligne personnalisée donne tous ses nombres ; il manque {missing}. "
        "Ou donnez la clé d'une ligne du bestiaire ({keys} ; toutes : GET {url})."
    ).format(label=table.label, missing=", ".join(missing), keys=_quoted_keys(table), url=tables_url(slug))


def _depth(path: str) -> int:
    return path.count(".")


def resolve_keys(plugin: WebPlugin, scenario: Mapping[str, Any]) -> dict[str, Any]:
    """``scenario`` (a request's, as sent) with every row key replaced by its row's data; raises
    :class:`ScenarioError` (``scenario.<path>`` → French message) for an unknown key or a custom
    row that leaves out a required field. The rows put in are not checked again (they come from
    the bestiary), nor looked into for keys."""
    tables = tables_of(plugin)
    out: dict[str, Any] = copy_data(dict(scenario))
    if not tables:
        return out
    errors: dict[str, str] = {}
    placed: set[int] = set()  # ids of the rows put in
    # outer paths first: a creature named at ``attacker`` brings its own weapon
    plan = sorted(((p, t) for t in tables for p in t.paths), key=lambda pt: _depth(pt[0]))
    for path, table in plan:
        _visit(out, path.split("."), "scenario", table, plugin.slug, errors, placed)
    if errors:
        raise ScenarioError(errors)
    return out


def _visit(
    node: Any,
    steps: list[str],
    where: str,
    table: Table,
    slug: str,
    errors: dict[str, str],
    placed: set[int],
) -> None:
    step, rest = steps[0], steps[1:]
    if step == "*":
        if not isinstance(node, list):
            return  # not a list: the parser says so
        slots: list[tuple[Any, Any]] = [(node, i) for i in range(len(node))]
    elif isinstance(node, dict) and step in node:
        slots = [(node, step)]
    else:
        return
    for container, slot in slots:
        value = container[slot]
        path = f"{where}.{slot}"
        if rest:
            if id(value) not in placed:
                _visit(value, rest, path, table, slug, errors, placed)
            continue
        if isinstance(value, str):
            row = table.find(value.strip())
            if row is None:
                errors[path] = _unknown(table, value, slug)
            else:
                data = copy_data(row.data)
                container[slot] = data
                placed.add(id(data))
        elif isinstance(value, Mapping) and table.required and id(value) not in placed:
            missing = [f for f in table.required if value.get(f) is None]
            if missing:
                errors[path] = _incomplete(table, missing, slug)


# -- the API's listing and schema ---------------------------------------------------------------


def listing(plugin: WebPlugin) -> list[dict[str, Any]]:
    """``GET /api/rulesets/<slug>/tables``: each table with its paths and its rows' keys and values."""
    return [
        {
            "key": t.key,
            "label": t.label,
            "paths": list(t.paths),
            "required": list(t.required),
            "rows": [{"key": r.key, "label": r.label, "values": copy_data(r.data)} for r in t.rows],
        }
        for t in tables_of(plugin)
    ]


def _branch(node: dict[str, Any], want: str) -> dict[str, Any] | None:
    """``node``, or its ``anyOf`` branch that has ``want`` (``properties``, ``items``)."""
    if want in node:
        return node
    for option in node.get("anyOf", ()):
        if isinstance(option, dict) and want in option:
            return option
    return None


def schema_with_keys(scenario_schema: dict[str, Any], tables: list[Table], slug: str) -> dict[str, Any]:
    """The scenario's JSON Schema where a row may go: ``anyOf: [{type: string, enum: [keys…]},
    {the object, its required fields}]`` (``scenario_schema`` is changed in place and returned)."""
    plan = sorted(((p, t) for t in tables for p in t.paths), key=lambda pt: _depth(pt[0]))
    for path, table in plan:
        parent: dict[str, Any] | None = None
        node: dict[str, Any] | None = scenario_schema
        name = ""
        for step in path.split("."):
            if node is None:
                break
            if step == "*":
                holder = _branch(node, "items")
                parent, name, node = (holder, "items", holder["items"]) if holder else (None, "", None)
            else:
                holder = _branch(node, "properties")
                child = holder["properties"].get(step) if holder else None
                parent, name, node = (holder["properties"], step, child) if holder and child else (None, "", None)
        if node is None or parent is None:
            continue
        obj = _branch(node, "properties") or _branch(node, "items")  # a row may be a list (a dice pool)
        if obj is None:
            continue
        obj = dict(obj)
        if table.required:
            obj["required"] = sorted(set(obj.get("required", [])) | set(table.required))
        wrapped: dict[str, Any] = {"title": obj.get("title", table.label)}
        if "default" in obj:
            wrapped["default"] = obj.pop("default")
        keys = [r.key for r in table.rows]
        options: list[dict[str, Any]] = []
        if keys:
            options.append(
                {
                    "type": "string",
                    "enum": keys,
                    "title": _("Clé d'une ligne du bestiaire ({label})").format(label=table.label),
                    "description": _("Toutes les lignes : GET {url}.").format(url=tables_url(slug)),
                }
            )
        options.append(obj)
        if "anyOf" in node and node is not obj:  # an optional field: null stays allowed
            options.extend(o for o in node["anyOf"] if o.get("type") == "null")
        wrapped["anyOf"] = options
        parent[name] = wrapped
    return scenario_schema


# -- the page ------------------------------------------------------------------------------------


def unknown_preset(data: Mapping[str, Any], groups: Mapping[str, PresetGroup]) -> dict[str, str]:
    """A page's ``_load=preset.<group>…`` whose chosen row (``preset.<group>…=<key>``) the group does
    not have: ``{field: French message}`` (``preset.weapon=9999`` is no row, not a silent no-op)."""
    load = str(data.get("_load", ""))
    if not load.startswith("preset."):
        return {}
    parts = load.split(".")
    group = groups.get(parts[1]) if len(parts) > 1 else None
    if group is None:
        return {"_load": typography(_("« {name} » : aucune table de ce nom sur cette page.").format(name=load[:60]))}
    chosen = str(data.get(load, ""))
    if group.find(chosen) is not None:
        return {}
    return {
        load: typography(
            _("{label} : aucune ligne « {id} » dans le bestiaire ; choisissez-en une dans la liste.").format(
                label=group.label, id=chosen[:40]
            )
        )
    }
