"""Builders for Nephilim scenarios in tests, from the seed's rows."""

from __future__ import annotations

from typing import Any

from rulesets.core.dice import fixed_roll
from rulesets.core.results import Result
from rulesets.core.schema import parse
from rulesets.nephilim.engine import resolve
from rulesets.nephilim.model import Scenario
from tests.rulesets.nephilim import seed_tables as t


def weapon(name: str) -> dict[str, Any]:
    for table in (t.MELEE_WEAPONS, t.RANGED_WEAPONS, t.THROWN_WEAPONS):
        for r in table:
            if r["name"] == name:
                return dict(r)
    raise KeyError(name)


def protection(name: str, **extra: Any) -> dict[str, Any]:
    row = t.row(t.PROTECTIONS, name)
    row.update(extra)
    return row


SLOTS = {"armure": "armour", "bouclier": "shield", "manteau": "other", "autre": "other"}


def _worn(defender_row: dict[str, Any]) -> dict[str, Any]:
    """``protections=[rows]`` (test shorthand) → the armour / shield / other slots."""
    row = dict(defender_row)
    for p in row.pop("protections", []):
        p = dict(p)
        row[SLOTS[p.pop("slot", "armure")]] = p
    return row


def defence(name: str, context: str = "melee") -> dict[str, Any]:
    for r in t.DEFENCES:
        if r["name"] == name and r["context"] == context:
            return dict(r)
    raise KeyError(name)


def approach(name: str) -> dict[str, Any]:
    return t.row(t.MELEE_APPROACHES + t.RANGED_APPROACHES, name)


def att_fx(name: str) -> dict[str, Any]:
    return t.row(t.ATTACKER_EFFECTS, name)


def def_fx(name: str) -> dict[str, Any]:
    return t.row(t.DEFENDER_EFFECTS, name)


def attacker(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": "Sahar",
        "kind": "nephilim",
        "degree": 6,
        "approach": approach("Standard"),
        "weapon": weapon("Épée/hache"),
    }
    base.update(fields)
    return base


def defender(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": "Garde",
        "kind": "nephilim",
        "degree": 5,
        "defence": defence("Encaisser (déf. impossible)"),
    }
    base.update(fields)
    return base


def scenario(att: dict[str, Any] | None = None, *defenders: dict[str, Any], **extra: Any) -> Scenario:
    rows = [_worn(d) for d in (list(defenders) or [defender()])]
    effects = list(extra.pop("defender_effects", []))
    for i, d in enumerate(rows):
        effects.extend(dict(e, target=i + 1) for e in d.pop("effects", []))
    data: dict[str, Any] = {
        "mode": "melee",
        "attacker": att or attacker(),
        "defenders": rows,
        "defender_effects": effects,
    }
    data.update(extra)
    result: Scenario = parse(Scenario, data)
    return result


def ranged(att: dict[str, Any], *defenders: dict[str, Any], **extra: Any) -> Scenario:
    return scenario(att, *defenders, mode="tir", **extra)


def run(scn: Scenario, **dice: int) -> Result:
    """Resolve with typed dice; keyword ``attaque_1=33`` is slot ``attaque.1``."""
    return resolve(scn, fixed_roll({k.replace("_", "."): v for k, v in dice.items()}))
