"""Glue between the web/API layer, the database and the pure engines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculator import bestiary_cache, plugins
from rulesets.core import request as core_request
from rulesets.core.dice import DiceSpec
from rulesets.core.odds import Odds
from rulesets.core.registry import Ruleset
from rulesets.core.schema import ScenarioError, copy_data, parse, to_data, unflatten

ERROR_NOT_JSON = "Le corps de la requête doit être un objet JSON valide."
ERROR_NOTHING_RESOLVED = "Aucun résultat : résolvez d'abord l'échange."


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
    """The scenario a page starts from: the engine's defaults with the table's settings."""
    base = to_data(ruleset.scenario_type())
    return deep_merge(base, bestiary_cache.defaults(plugins.get(ruleset.slug)))


def with_table_settings(*, ruleset: Ruleset, payload: Mapping[str, Any]) -> dict[str, Any]:
    """A request whose scenario leaves out the table settings gets those of the database."""
    if not isinstance(payload, Mapping):
        raise ScenarioError({"__all__": ERROR_NOT_JSON})
    scenario = payload.get("scenario")
    if scenario is None or not isinstance(scenario, Mapping):
        return dict(payload)
    settings = bestiary_cache.defaults(plugins.get(ruleset.slug))
    return {**payload, "scenario": deep_merge(settings, scenario)}


def resolution_resolve(*, ruleset: Ruleset, payload: Mapping[str, Any]) -> core_request.Resolution:
    return core_request.resolve(ruleset, with_table_settings(ruleset=ruleset, payload=payload))


def odds_compute(*, ruleset: Ruleset, payload: Mapping[str, Any]) -> tuple[Any, Odds]:
    return core_request.odds(ruleset, with_table_settings(ruleset=ruleset, payload=payload))


def scenario_try_parse(*, ruleset: Ruleset, flat: Mapping[str, Any]) -> Any | None:
    """The scenario a form describes, or None while it is invalid (the live panels wait)."""
    try:
        return parse(ruleset.scenario_type, unflatten(dict(flat)))
    except ScenarioError:
        return None


def dice_spec(*, ruleset: Ruleset, scenario: Any | None) -> DiceSpec:
    return ruleset.dice_for(scenario) if scenario is not None else DiceSpec()


def resolution_from_query(*, ruleset: Ruleset, query: str) -> core_request.Resolution:
    """Resolve a result's permalink query again: same fields, same typed dice, same seed.

    Raises :class:`ScenarioError` when the query does not describe a resolved result.
    """
    from django.http import QueryDict

    from calculator.forms import ScenarioForm

    data = QueryDict(query)
    if "seed" not in data:
        raise ScenarioError({"__all__": ERROR_NOTHING_RESOLVED})
    form = ScenarioForm(ruleset, plugins.get(ruleset.slug), ruleset_defaults(ruleset=ruleset), data)
    return resolution_resolve(ruleset=ruleset, payload=form.payload())
