"""One resolve request, the same for the API, the CLI and the web pages.

A request is ``{"scenario": {...}, "dice": {slot: face}, "seed": int}``: dice left out or blank
are rolled by the server from the seed (a new one when none is given).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.core.dice import SEED_MAX, DiceError, DiceRoll, DiceSpec, roll_dice
from rulesets.core.i18n import _
from rulesets.core.odds import Odds
from rulesets.core.registry import Ruleset
from rulesets.core.results import Narrative, Result
from rulesets.core.schema import ScenarioError, Source, parse, to_data


@dataclass(frozen=True, slots=True)
class Resolution:
    ruleset: Ruleset
    scenario: Any
    spec: DiceSpec
    dice: DiceRoll
    result: Result
    narrative: Narrative


def parse_seed(raw: Any) -> int | None:
    """The seed of a request: an integer (a JSON number without fraction, or ASCII digits with an
    optional sign), else a French message. Never truncated (1.5 is refused), never ``inf`` or ``nan``
    (``int`` raises on them), never a digit run ``int`` refuses (issue 17, finding 4)."""
    if raw is None or raw == "":
        return None
    not_integer = ScenarioError({"seed": _("La graine doit être un entier.")})
    out_of_range = ScenarioError({"seed": _("La graine doit être entre 0 et {max}.").format(max=SEED_MAX)})
    if isinstance(raw, bool):
        raise not_integer
    if isinstance(raw, int):
        seed = raw
    elif isinstance(raw, float):
        if not raw.is_integer():  # a fraction, inf, nan
            raise not_integer
        seed = int(raw)
    elif isinstance(raw, str):
        text = raw.strip()
        digits = text[1:] if text[:1] in "+-" else text
        if not (digits.isascii() and digits.isdigit()):
            raise not_integer
        if len(digits.lstrip("0")) > len(str(SEED_MAX)):
            raise out_of_range
        seed = int(text)
    else:
        raise not_integer
    if not 0 <= seed <= SEED_MAX:
        raise out_of_range
    return seed


def parse_scenario(ruleset: Ruleset, data: Any, source: Source = Source.STORED) -> Any:
    """The request's scenario. From the API or the CLI (``Source.JSON``) it is required: a request
    without one is refused, never read as the default scenario (issue 14)."""
    if data is None:
        if source is Source.JSON:
            raise ScenarioError(
                {"scenario": _("Scénario : champ obligatoire (un objet JSON, {} pour les valeurs par défaut).")}
            )
        data = {}
    try:
        return parse(ruleset.scenario_type, data, source)
    except ScenarioError as exc:
        raise ScenarioError({f"scenario.{k}" if k != "scenario" else k: v for k, v in exc.errors.items()}) from None


def resolve(
    ruleset: Ruleset, payload: Mapping[str, Any], parsed: Any = None, source: Source = Source.STORED
) -> Resolution:
    """Validate a request and resolve it, or raise :class:`ScenarioError` (all field errors).

    ``parsed`` is the payload's scenario already parsed by the caller (a page parses its form
    once for the live panels): it is not parsed a second time. ``source`` says where the request
    comes from (:class:`~rulesets.core.schema.Source`)."""
    if not isinstance(payload, Mapping):
        raise ScenarioError({"__all__": _("La requête doit être un objet JSON.")})
    errors: dict[str, str] = {}
    for key in payload:
        if key not in {"scenario", "dice", "seed"}:
            errors[str(key)] = _("Champ inconnu.")
    scenario = parsed
    if scenario is None:
        try:
            scenario = parse_scenario(ruleset, payload.get("scenario"), source)
        except ScenarioError as exc:
            errors.update(exc.errors)
    seed = None
    try:
        seed = parse_seed(payload.get("seed"))
    except ScenarioError as exc:
        errors.update(exc.errors)
    typed_raw = payload.get("dice")
    if typed_raw is None and not (source is Source.JSON and "dice" in payload):
        typed_raw = {}  # no dice typed: the server rolls them all (``"dice": null`` is refused)
    if not isinstance(typed_raw, Mapping):
        errors["dice"] = _("Les dés doivent être un objet {emplacement: face}.")
        typed_raw = {}
    if errors or scenario is None:
        raise ScenarioError(errors)
    spec = ruleset.dice_for(scenario)
    typed = {str(k): "" if v is None else str(v) for k, v in typed_raw.items()}
    try:
        dice = roll_dice(spec, typed, seed)
    except DiceError as exc:
        raise ScenarioError({f"dice.{k}" if k != "seed" else k: v for k, v in exc.errors.items()}) from None
    result = ruleset.resolve(scenario, dice)
    narrative = Narrative(scene=ruleset.scene(scenario), story=ruleset.story(scenario, result))
    return Resolution(ruleset, scenario, spec, dice, result, narrative)


def odds(
    ruleset: Ruleset,
    payload: Mapping[str, Any],
    source: Source = Source.STORED,
    odds_of: Callable[[Ruleset, Any], Odds] | None = None,
) -> tuple[Any, Odds]:
    """The scenario of a request and its exact odds (``odds_of(ruleset, scenario)`` when given: the
    web layer's memo)."""
    if not isinstance(payload, Mapping):
        raise ScenarioError({"__all__": _("La requête doit être un objet JSON.")})
    errors = {str(k): _("Champ inconnu.") for k in payload if k not in {"scenario", "dice", "seed"}}
    scenario = None
    try:
        scenario = parse_scenario(ruleset, payload.get("scenario"), source)
    except ScenarioError as exc:
        errors.update(exc.errors)
    if errors:
        raise ScenarioError(errors)
    return scenario, (odds_of(ruleset, scenario) if odds_of is not None else ruleset.odds(scenario))


def result_data(res: Resolution) -> dict[str, Any]:
    """The JSON form of a resolution (the API's and the CLI's output)."""
    r = res.result
    return {
        "ruleset": res.ruleset.slug,
        "engine_version": res.ruleset.engine_version,
        "scenario": to_data(res.scenario),
        "seed": res.dice.seed,
        "dice": [
            {
                "key": s.key,
                "label": s.label,
                "die": s.die.name,
                "value": res.dice[s.key],
                "typed": res.dice.was_typed(s.key),
            }
            for s in res.spec.slots
        ],
        "outcome": r.outcome,
        "outcome_label": r.outcome_label,
        "numbers": dict(r.numbers),
        "events": [
            {"kind": e.kind, "label": e.label, "value": e.value, "rule": e.rule, "group": e.group, "data": dict(e.data)}
            for e in r.events
        ],
        "narrative": {"scene": res.narrative.scene, "story": list(res.narrative.story)},
    }


def odds_data(ruleset: Ruleset, result: Odds) -> dict[str, Any]:
    def fr(p: Any) -> dict[str, Any]:
        return {"fraction": f"{p.numerator}/{p.denominator}", "value": float(p)}

    return {
        "ruleset": ruleset.slug,
        "outcomes": [{"code": c, "label": lbl, "probability": fr(p)} for c, lbl, p in result.outcomes],
        "charts": [
            {
                "key": ch.key,
                "title": ch.title,
                "unit": ch.unit,
                "mean": fr(ch.mean) if ch.mean is not None else None,
                "bars": [{"label": lbl, "probability": fr(p)} for lbl, p in ch.bars],
            }
            for ch in result.charts
        ],
        "expectations": [{"code": c, "label": lbl, "value": fr(v)} for c, lbl, v in result.expectations],
    }
