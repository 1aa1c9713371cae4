"""Glue between the web/API layer, the database and the pure engines."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from calculator import bestiary_cache, plugins, tables
from rulesets.core import request as core_request
from rulesets.core.dice import DiceSpec
from rulesets.core.odds import Odds
from rulesets.core.registry import Ruleset
from rulesets.core.registry import get as get_ruleset
from rulesets.core.schema import ScenarioError, Source, copy_data, flatten, parse, to_data

ERROR_NOT_JSON = "Le corps de la requête doit être un objet JSON valide."
ERROR_NOTHING_RESOLVED = "Aucun résultat\u202f: résolvez d'abord l'échange."


def deep_merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``override`` wins; nested objects merge; lists are replaced whole."""
    out: dict[str, Any] = copy_data(dict(base))
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def ruleset_defaults(*, ruleset: Ruleset) -> dict[str, Any]:
    """The scenario a page starts from: the engine's defaults with the table's settings (kept
    until the bestiary changes: shared, callers must not change it)."""
    return flat_defaults(ruleset=ruleset)[0]


def flat_defaults(*, ruleset: Ruleset) -> tuple[dict[str, Any], dict[str, Any]]:
    """:func:`ruleset_defaults` and the same flattened (``pc.attribute``), computed once per
    version of the bestiary (shared: callers must not change them)."""
    plugin = plugins.get(ruleset.slug)

    def compute() -> tuple[dict[str, Any], dict[str, Any]]:
        merged = deep_merge(to_data(ruleset.scenario_type()), plugin.defaults())
        return merged, flatten(merged)

    return bestiary_cache.cached("page_defaults", plugin, compute)  # type: ignore[no-any-return]


def with_table_settings(
    *, ruleset: Ruleset, payload: Mapping[str, Any], source: Source = Source.JSON
) -> dict[str, Any]:
    """A request whose scenario leaves out the table settings gets those of the database. From the
    API or the CLI (``Source.JSON``), a row named by its key (``"weapon": "fusil-d-assaut-ak-47"``)
    gets the bestiary's numbers and an inline custom row must give them
    (:func:`calculator.tables.resolve_keys`, issue 14); a page's form and what Estoc stored hold
    rows as their fields, never as keys, and skip that step (it reads every table)."""
    if not isinstance(payload, Mapping):
        raise ScenarioError({"__all__": ERROR_NOT_JSON})
    scenario = payload.get("scenario")
    if scenario is None or not isinstance(scenario, Mapping):
        return dict(payload)
    plugin = plugins.get(ruleset.slug)
    if source is Source.JSON:
        scenario = tables.resolve_keys(plugin, scenario)
    settings = bestiary_cache.cached("defaults", plugin, plugin.defaults)  # deep_merge copies it
    return {**payload, "scenario": deep_merge(settings, scenario)}


def resolution_resolve(
    *, ruleset: Ruleset, payload: Mapping[str, Any], parsed: Any = None, source: Source = Source.STORED
) -> core_request.Resolution:
    """Resolve a request; ``parsed``: its scenario, already parsed from a page's form (whose
    defaults hold the table settings), is not parsed again. ``source``: where the request comes
    from (``Source.JSON`` for the API and the CLI, ``Source.FORM`` for a page)."""
    if parsed is not None:
        return core_request.resolve(ruleset, payload, parsed, source)
    return core_request.resolve(
        ruleset, with_table_settings(ruleset=ruleset, payload=payload, source=source), source=source
    )


def odds_compute(*, ruleset: Ruleset, payload: Mapping[str, Any], source: Source = Source.STORED) -> tuple[Any, Odds]:
    scenario, _odds = core_request.odds(
        ruleset, with_table_settings(ruleset=ruleset, payload=payload, source=source), source, odds_of=scenario_odds
    )
    return scenario, _odds


def scenario_odds(ruleset: Ruleset, scenario: Any) -> Odds:
    """The exact odds of a parsed scenario, kept per process for the last scenarios asked (issue
    18): a page's first visit, a shared permalink opened by the table and the API ask the same
    scenes again and again. The engines are pure and a parsed scenario holds every number they read
    (the table settings included), so the scenario is the whole key; ``Odds`` is frozen."""
    try:
        hash(scenario)
    except TypeError:  # a scenario holding a list or a dict cannot be a key: computed every time
        return ruleset.odds(scenario)
    return _odds_memo(ruleset.slug, scenario)


@functools.lru_cache(maxsize=256)
def _odds_memo(slug: str, scenario: Any) -> Odds:
    return get_ruleset(slug).odds(scenario)


def scenario_try_parse(*, ruleset: Ruleset, nested: Mapping[str, Any]) -> Any | None:
    """The scenario a form describes (its values unflattened), or None while it is invalid (the
    live panels wait)."""
    try:
        return parse(ruleset.scenario_type, nested, Source.FORM)
    except ScenarioError:
        return None


def dice_spec(*, ruleset: Ruleset, scenario: Any | None) -> DiceSpec:
    return ruleset.dice_for(scenario) if scenario is not None else DiceSpec()


def resolution_from_query(*, ruleset: Ruleset, query: str) -> core_request.Resolution:
    """Resolve a result's permalink query again: same fields, same typed dice, same seed. A compact
    permalink's ``z`` is expanded first (calculator/short_links.py).

    Raises :class:`ScenarioError` when the query does not describe a resolved result (a
    ``short_links.LinkError`` when its ``z`` cannot be expanded).
    """
    from calculator.forms import ScenarioForm
    from calculator.short_links import expanded_query_dict

    data = expanded_query_dict(query)
    if "seed" not in data:
        raise ScenarioError({"__all__": ERROR_NOTHING_RESOLVED})
    defaults, flat = flat_defaults(ruleset=ruleset)
    form = ScenarioForm(ruleset, plugins.get(ruleset.slug), defaults, data, flat_defaults=flat)
    return resolution_resolve(ruleset=ruleset, payload=form.payload(), source=Source.FORM)
