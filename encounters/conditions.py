"""Lasting conditions by hand (issue 16): put one on a combatant, change it, lift it. Each is a
logged change like any other (:func:`encounters.services.commit`), so undo and redo cover it, and
the players' view redraws. The rule system says what its conditions are and how they end
(rulesets/core/conditions.py); what a condition does in the calculator is its ``fill``'s."""

from __future__ import annotations

from typing import Any

from encounters import services
from encounters.models import Combatant, Encounter, LogEntry
from rulesets.core import encounter as core
from rulesets.core.conditions import Chip, Conditions, Lasting, cleared, lifted
from rulesets.core.french import quote
from rulesets.core.schema import ScenarioError, to_data

ERROR_NO_CONDITIONS = "Ce système de règles ne suit pas d'effets en cours."
ERROR_UNKNOWN_LASTING = "Effet\u202f: choisissez-en un de la liste."
ERROR_GONE = "Cet effet n'est plus sur la fiche (il a pris fin, ou la page n'est plus à jour)."
ERROR_NO_VALUE = "Cet effet n'a pas de valeur à saisir\u202f: laissez ce champ vide."
ERROR_NO_NOTE = "Cet effet n'a pas de texte à saisir\u202f: laissez ce champ vide."


def rules_conditions(rules: core.EncounterRules) -> Conditions:
    if rules.conditions is None:
        raise ScenarioError({"lasting": ERROR_NO_CONDITIONS})
    return rules.conditions


def chips(rules: core.EncounterRules, f: core.Fighter, clock: Any) -> tuple[Chip, ...]:
    return rules.conditions.chips(f, clock) if rules.conditions is not None else ()


def chip_found(rules: core.EncounterRules, f: core.Fighter, clock: Any, path: str) -> Chip | None:
    """The chip at ``path`` on this combatant now, if there is one."""
    return next((c for c in chips(rules, f, clock) if c.path == path), None)


def chip_at(rules: core.EncounterRules, f: core.Fighter, clock: Any, path: str) -> Chip:
    """The chip at ``path`` on this combatant now, or a refusal (a stale page, a made-up path)."""
    found = chip_found(rules, f, clock, path)
    if found is None:
        raise ScenarioError({"path": ERROR_GONE})
    return found


def lasting_of(conditions: Conditions, kind: str, key: str) -> Lasting:
    found = next((item for item in conditions.lasting_for(kind) if item.key == key), None)
    if found is None:
        raise ScenarioError({"lasting": ERROR_UNKNOWN_LASTING})
    return found


def _checked(item: Lasting, value: int | None, note: str) -> None:
    """What the form sent fits what this condition asks: never a number or a text dropped."""
    errors: dict[str, str] = {}
    if value is not None and not item.value:
        errors["value"] = ERROR_NO_VALUE
    if note.strip() and not item.note:
        errors["note"] = ERROR_NO_NOTE
    if errors:
        raise ScenarioError(errors)


def _on_form(errors: dict[str, str]) -> dict[str, str]:
    """The state's own messages (``conditions.3.malus``) on the form's number field."""
    out: dict[str, str] = {}
    for key, message in errors.items():
        target = key if key in ("lasting", "value", "note", "path") else "value"
        out[target] = f"{out[target]} {message}" if target in out else message
    return out


def condition_put(
    *,
    encounter: Encounter,
    version: Any,
    combatant: Combatant,
    lasting: str,
    value: int | None,
    note: str,
    path: str = "",
) -> None:
    """Put the condition ``lasting`` on the combatant, or, with ``path``, change the one there."""
    rules = services.rules_for(encounter)
    conditions = rules_conditions(rules)
    item = lasting_of(conditions, combatant.kind, lasting)
    _checked(item, value, note)
    current = services.fighter(combatant, rules)
    state = current.state
    clock = services.clock_of(encounter)
    old: Chip | None = None
    if path:
        old = chip_at(rules, current, clock, path)
        if old.lasting != lasting:
            raise ScenarioError({"lasting": ERROR_UNKNOWN_LASTING})
        state = cleared(state, path)
    try:
        new = item.put(state, value, note)
        data = services.state_parse(rules, combatant.kind, to_data(new))
    except ScenarioError as exc:
        raise ScenarioError(_on_form(exc.errors)) from None
    before = {c.label for c in chips(rules, core.Fighter(current.key, current.name, current.kind, state), clock)}
    after = chips(rules, core.Fighter(current.key, current.name, current.kind, new), clock)
    label = next((c.label for c in after if c.label not in before), item.label)
    name = current.name
    if old is None:
        title = f"{name}\u202f: effet ajouté à la main, {quote(label)}"
    else:
        title = f"{name}\u202f: effet modifié à la main, {quote(old.label)} → {quote(label)}"
    services.commit(
        encounter=encounter,
        version=version,
        action=LogEntry.Action.CONDITION,
        title=title,
        updates=[services.Update(combatant, data)],
    )


def condition_lift(*, encounter: Encounter, version: Any, combatant: Combatant, path: str) -> None:
    """End the condition at ``path`` by hand (its chip's « Retirer », « Se relève »…)."""
    rules = services.rules_for(encounter)
    conditions = rules_conditions(rules)
    current = services.fighter(combatant, rules)
    clock = services.clock_of(encounter)
    chip = chip_at(rules, current, clock, path)
    applied = core.call(conditions.lift or lifted, current, path, clock, everyone=services.fighters(encounter))
    present = {c.key: c for c in encounter.combatants.filter(present=True)}  # fighter keys
    updates = []
    for key, state in applied.states.items():
        target = present.get(key)
        if target is None:
            raise ScenarioError({"path": services.ERROR_UNKNOWN_COMBATANT})
        updates.append(services.Update(target, services.state_parse(rules, target.kind, to_data(state))))
    services.commit(
        encounter=encounter,
        version=version,
        action=LogEntry.Action.CONDITION,
        title=f"{current.name}\u202f: fin de l'effet {quote(chip.label)}",
        updates=updates,
        story=applied.story,
        notes=applied.notes,
    )
