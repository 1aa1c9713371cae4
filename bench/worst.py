"""Worst-case suite (issue 18): the slowest requests each ruleset's schema accepts.

What is measured: the engine work of the two JSON API calls for one request body, as
``POST /api/rulesets/<slug>/resolve`` and ``/odds`` do it (``calculator/api.py``):
``rulesets.core.request.resolve`` (parse, dice, resolution, scene and story) with
``result_data`` encoded to JSON, then ``rulesets.core.request.odds`` (parse, exact odds) with
``odds_data`` encoded to JSON. Django, the middleware and the database's table settings are left
out: they cost the same whatever the scenario. A reported body leaves out the fields equal to the
engine's defaults; the HTTP API would fill those with the database's table settings instead, so
to replay one there exactly, send its full form: ``to_data(parse(scenario_type, scenario))``.

How the inputs are found:

1. *Corners*: for every ruleset, hand-written scenarios at the limits its schema allows (largest
   pools, custom dice with the most faces and symbols, most defenders, fighters, activities,
   effects…), read from each ``rulesets/<slug>/model.py``.
2. *Search*: a seeded random search around the slowest candidates. A mutation walks the scenario
   type's declarations (``rulesets.core.schema.fields_of``) and sets a number to a bound or a
   random value within its bounds, flips a box, picks another choice, or adds or removes a row;
   a candidate is kept only if the API's own parse accepts it.
3. *Report*: the five slowest candidates of each ruleset are timed again: ``cold_ms`` is the first
   call after every memoised engine cache has been cleared (``cache_clear`` on the ``rulesets.*``
   modules), ``warm_ms`` the median of the calls that follow (5 by default); ``*_cpu_ms`` are the
   same calls in CPU time of this process, which moves much less than the wall time when other
   jobs share the cores (the search ranks candidates by it; the verdict reads the wall time).

``run(budget_s)`` returns the report (``met``: every warm time within ``TARGET_MS``; ``met_cpu``:
the same on CPU time; ``load_average`` at the start and the end, to judge the wall times);
``python bench/worst.py [--budget S] [--seed N]`` prints it as JSON on stdout, progress on stderr.
Timings on a shared 2-core machine move by ±20 % from run to run: compare within one run.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import json
import os
import random
import statistics
import sys
import time
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulesets.core import request as core_request  # noqa: E402
from rulesets.core.registry import Ruleset, load_all  # noqa: E402
from rulesets.core.schema import ScenarioError, fields_of, to_data  # noqa: E402

TARGET_MS = 100.0
DEFAULT_BUDGET_S = 60.0
DEFAULT_SEED = 18
TOP = 5
WARM_RUNS = 5
SLOW_CALL_S = 1.0  # a call slower than this is timed once more only (the report says so)
SEED_BODY = 1  # the request's seed: the server rolls the same dice every time

Body = dict[str, Any]


# --------------------------------------------------------------------------- candidates


def _is_dataclass_type(tp: Any) -> typing.TypeGuard[type[Any]]:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


def _is_tuple_of(tp: Any) -> Any | None:
    """The item type of ``tuple[X, ...]`` (how a scenario declares its rows), else None."""
    args = typing.get_args(tp)
    if typing.get_origin(tp) is tuple and len(args) == 2 and args[1] is Ellipsis:
        return args[0]
    return None


@dataclass
class Candidate:
    """One request body of one ruleset, with what the search learnt of it."""

    slug: str
    origin: str  # the corner it comes from
    scenario: dict[str, Any]  # full plain data (``to_data`` of the parsed scenario)
    score_ms: float = 0.0  # the screening time (CPU ms of a warm call, the lesser of two)
    steps: tuple[str, ...] = ()  # mutations applied to the corner it came from

    def body(self) -> Body:
        return {"scenario": self.scenario, "seed": SEED_BODY}

    @property
    def description(self) -> str:
        """The corner, and the last mutations of the search that led here."""
        steps = self.steps
        if not steps:
            return self.origin
        shown = "; ".join(steps[-4:])
        return f"{self.origin} — recherche : {'…; ' if len(steps) > 4 else ''}{shown}"


def minimal(cls: type, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` without the fields equal to their declared default: parsing the result gives the
    same scenario (a nested object left out takes its parent's default; one given takes its own
    class's defaults for the fields it leaves out)."""
    out: dict[str, Any] = {}
    for f in fields_of(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.default is not dataclasses.MISSING and value == to_data(f.default):
            continue
        item = _is_tuple_of(f.type)
        if _is_dataclass_type(f.type) and isinstance(value, dict):
            out[f.name] = minimal(f.type, value)
        elif item is not None and _is_dataclass_type(item) and isinstance(value, list):
            out[f.name] = [minimal(item, v) if isinstance(v, dict) else v for v in value]
        else:
            out[f.name] = value
    return out


def accepted(ruleset: Ruleset, scenario: Any) -> dict[str, Any] | None:
    """The plain data of ``scenario`` (a dataclass or plain data) if the API's parse accepts it
    (what the rules refuse only when they resolve it is left out by :meth:`Pool.add`)."""
    data = to_data(scenario) if dataclasses.is_dataclass(scenario) else scenario
    try:
        parsed = core_request.parse_scenario(ruleset, data)
    except ScenarioError:
        return None
    out: dict[str, Any] = to_data(parsed)
    return out


# --------------------------------------------------------------------------- corners

Corner = tuple[str, Any]  # (description, scenario dataclass or plain data)


def _symbol_faces() -> list[dict[str, int]]:
    """Twelve faces of 0 to 4 symbols each (the schema's most), every total spread wide."""
    triples = [
        (0, 0, 0),
        (4, 4, 4),
        (1, 2, 3),
        (3, 1, 2),
        (2, 3, 1),
        (4, 0, 2),
        (0, 4, 1),
        (2, 1, 4),
        (1, 3, 0),
        (3, 4, 3),
        (4, 2, 0),
        (0, 1, 4),
    ]
    return [{"damage": d, "shield": s, "lightning": lt} for d, s, lt in triples]


def aventuriers_corners() -> list[Corner]:
    from bench.scenarios import aventuriers_largest

    faces = _symbol_faces()
    die = {"key": "x", "name": "Dé à 12 faces", "faces": faces}
    dice6 = [{"key": f"d{i}", "name": f"Dé {i}", "faces": faces[i:] + faces[:i]} for i in range(6)]

    def fighter(side: str, **extra: Any) -> dict[str, Any]:
        return {
            "side": side,
            "pv": 99,
            "weapon": {"dice": [{"die": "x", "count": 10}]},
            "defence": [{"die": "x", "count": 10}],
            **extra,
        }

    base = {"die_types": [die], "rules": {"success_die": "x"}}
    mixed = [{"die": f"d{i}", "count": c, "protection": i == 0} for i, c in ((0, 3), (1, 3), (2, 2), (3, 2))]
    return [
        ("plus grand cas raisonnable (bench/scenarios.py)", aventuriers_largest()),
        (
            "dés à 12 faces, 10 contre 10, Riposte et Contrecoup, deux Aventuriers à 99 PV",
            {
                **base,
                "attacker": fighter("aventurier"),
                "defender": fighter("aventurier", riposte=True, contrecoup=True),
            },
        ),
        (
            "dés à 12 faces, 10 contre 10, Riposte, monstres avec stamina",
            {
                **base,
                "rules": {"success_die": "x", "monster_stamina": True},
                "attacker": fighter("monstre"),
                "defender": fighter("monstre", riposte=True, contrecoup=True),
            },
        ),
        (
            "six types de dés à 12 faces, jets mêlés de 10 dés, Riposte",
            {
                "die_types": dice6,
                "rules": {"success_die": "d0"},
                "attacker": {"pv": 99, "weapon": {"dice": mixed}, "defence": mixed},
                "defender": {
                    "pv": 99,
                    "riposte": True,
                    "contrecoup": True,
                    "weapon": {"dice": mixed},
                    "defence": mixed,
                },
            },
        ),
        (
            "attaque éclair à 10 dés de 12 faces contre 10 dés",
            {
                **base,
                "action": "sortie_de_zone",
                "board": {"enforce": False},
                "attacker": fighter("aventurier", attaque_eclair=True),
                "defender": fighter("aventurier"),
            },
        ),
        (
            "Coup bas de dos, 10 dés de 12 faces contre 10",
            {
                **base,
                "rules": {"success_die": "x", "coup_bas_bonus": 6},
                "board": {"dx": 0, "dy": 1, "attacker_facing": "nord", "target_facing": "nord"},
                "attacker": fighter("aventurier", coup_bas=True),
                "defender": fighter("aventurier", riposte=True, contrecoup=True),
            },
        ),
        (
            "dégâts imparables, 10 dés de 12 faces",
            {
                **base,
                "attacker": fighter("aventurier", weapon={"dice": [{"die": "x", "count": 10}], "unblockable": True}),
                "defender": fighter("aventurier"),
            },
        ),
        (
            "dés par défaut, 10 contre 10, Riposte et Contrecoup",
            {
                "attacker": {
                    "pv": 99,
                    "weapon": {"dice": [{"die": "noir", "count": 5}, {"die": "bleu", "count": 5}]},
                    "defence": [{"die": "noir", "count": 5, "protection": True}, {"die": "bleu", "count": 5}],
                },
                "defender": {
                    "pv": 99,
                    "riposte": True,
                    "contrecoup": True,
                    "defence": [{"die": "noir", "count": 5, "protection": True}, {"die": "bleu", "count": 5}],
                },
            },
        ),
    ]


def encore_corners() -> list[Corner]:
    from bench.scenarios import encore_largest

    pc = {"attribute": 10, "speciality": True, "bonus_dice": 6, "weapon": 20, "weapon_area": True, "sante": 99}
    pc["sante_max"] = 99
    rules = {
        "speciality_dice": 5,
        "success_face": 2,
        "tiers": [{"name": f"Palier {i}", "numerator": i, "denominator": 8} for i in range(8)],
    }
    npc = {"menace": 3, "sante": 99, "weapon": 20, "protection": 0}
    strike = {"attacks": 3, "interpose": True, "interposer_sante": 99, "interposer_sante_max": 99}
    return [
        ("plus grand cas raisonnable (bench/scenarios.py)", encore_largest()),
        ("attaque, plus grande réserve, huit paliers", {"pc": pc, "npcs": [npc], "rules": rules, "strike": strike}),
        (
            "arme de zone contre huit PNJ",
            {"action": "zone", "pc": pc, "npcs": [npc] * 8, "rules": rules, "strike": strike},
        ),
        ("opposition, deux plus grandes réserves", {"action": "opposition", "pc": pc, "opponent": pc, "rules": rules}),
        ("manœuvre, plus grande réserve", {"action": "manoeuvre", "pc": pc, "npcs": [npc], "rules": rules}),
        ("embuscade d'un PNJ", {"action": "embuscade_pnj", "pc": pc, "npcs": [npc], "rules": rules}),
        ("hors conflit, difficulté 5", {"action": "hors_conflit", "pc": pc, "difficulty": 5, "rules": rules}),
    ]


def nephilim_corners() -> list[Corner]:
    from bench.scenarios import nephilim_largest
    from tests.rulesets.nephilim import seed_tables as t
    from tests.rulesets.nephilim.helpers import approach, attacker, defence, protection, weapon

    largest = to_data(nephilim_largest())

    def margins(data: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(json.dumps(data))
        out["attacker"].update(margin_damage=30, margin_malus=30)
        for d in out["defenders"]:
            d.update(margin_damage=30, margin_malus=30)
        return out

    att_fx = [dict(r) for r in t.ATTACKER_EFFECTS if r.get("scope") in ("tous", "distance")][:16]
    def_fx = [dict(r) for r in t.DEFENDER_EFFECTS if r.get("scope") in ("tous", "distance")]
    heavy = margins(largest)
    heavy["attacker"]["effects"] = att_fx
    heavy["defender_effects"] = [dict(def_fx[k % len(def_fx)], target=i + 1) for i in range(6) for k in range(16)]
    burst = margins(largest)
    burst["cadence"] = "raf_cont"
    burst["settings"] = {"burst_single_roll": False}
    burst_one = margins(largest)
    burst_one["cadence"] = "raf_ctrl"
    melee_fx = [dict(r) for r in t.ATTACKER_EFFECTS if r.get("scope") in ("tous", "melee")][:16]
    rapid = {
        "mode": "melee",
        "attacker": attacker(
            degree=30,
            margin_damage=30,
            margin_malus=30,
            approach=approach("Attaque rapide"),
            approach_element="eau",
            approach_value=30,
            weapon=weapon("Épée/hache"),
            effects=melee_fx,
        ),
        "defenders": [
            {
                "name": "Garde",
                "kind": "nephilim",
                "degree": 30,
                "defence": defence("Parer"),
                "margin_damage": 30,
                "margin_malus": 30,
                "armour": {k: v for k, v in protection("Gilet pare-balles lourd").items() if k != "slot"},
            }
        ],
        "defender_effects": [dict(r, target=1) for r in t.DEFENDER_EFFECTS if r.get("scope") in ("tous", "melee")][:16],
    }
    return [
        ("plus grand cas raisonnable (bench/scenarios.py)", largest),
        ("coup par coup, six défenseurs, choix de marge 30", margins(largest)),
        ("coup par coup, six défenseurs, 16 effets d'attaque, 96 effets de défense", heavy),
        ("rafale continue, un jet par cible, six défenseurs", burst),
        ("rafale contrôlée, un seul jet, six défenseurs", burst_one),
        ("attaque rapide, degrés 30, marges 30, 16 effets de chaque côté", rapid),
    ]


def feerie_corners() -> list[Corner]:
    from bench.scenarios import feerie_largest

    def combatant(prefix: str) -> dict[str, Any]:
        attrs = [
            {"name": f"{prefix} {i}", "value": 30, "initiative": True, "attack": i % 2 == 0, "defense": i % 2 == 1}
            for i in range(16)
        ]
        return {"vigilance": 60, "habilete": 60, "puissance": 60, "resistance": 60, "essence": 500, "attributes": attrs}

    big_roll = {"plus": 3, "minus": 3, "sides": 100}
    kinds = ["tenir_en_respect", "coup_effrayant", "vol_plane"]  # the blows that take an effect value
    blows = [{"kind": k, "effect_value": 40} for k in kinds]
    return [
        ("plus grand cas raisonnable (bench/scenarios.py)", feerie_largest()),
        (
            "3d100 − 3d100, 16 Attributs de chaque côté",
            {"roll": big_roll, "attacker": combatant("A"), "defender": combatant("D")},
        ),
        (
            "3d100 − 3d100, coups spéciaux, dix groupes d'assaillants",
            {
                "roll": big_roll,
                "attacker": {**combatant("A"), "taille": 5},
                # Taille 5: four angles of surface 16, the most room the seed gives; ten groups of the
                # smallest fill it (one more is refused since issue 14: no room, no silent packing)
                "defender": {**combatant("D"), "taille": 5},
                "blows": blows,
                "situation": {"co_attackers": [{"count": 4, "taille": -5}] * 10},
            },
        ),
        ("3d100 − 0d100", {"roll": {"plus": 3, "minus": 0, "sides": 100}}),
        ("3d2 − 3d2", {"roll": {"plus": 3, "minus": 3, "sides": 2}}),
    ]


def feerie_action_corners() -> list[Corner]:
    from bench.scenarios import feerie_action_largest

    fighters = [
        {"name": f"F{i}", "vigilance": 60 - i, "affinities": (7 * i) % 101, "initiative_bonus": 40 - (i % 5)}
        for i in range(24)
    ]
    attacks = [{"actor": j % 24, "kind": "attack", "targets": str((j + 1) % 24), "label": "frappe"} for j in range(60)]
    impersonal = [{"label": f"Événement {k}", "target": k, "essence_loss": 500} for k in range(10)]
    big_roll = {"plus": 3, "minus": 3, "sides": 100}
    return [
        ("plus grand cas raisonnable (bench/scenarios.py)", feerie_action_largest()),
        ("24 combattants, 3d100 − 3d100", {"fighters": fighters, "roll": big_roll}),
        (
            "24 combattants, 60 attaques, 10 événements, 3d100 − 3d100",
            {"fighters": fighters, "activities": attacks, "impersonal": impersonal, "roll": big_roll},
        ),
        ("24 combattants, 60 attaques, 1d20 − 1d20", {"fighters": fighters, "activities": attacks}),
    ]


def quadrature_corners() -> list[Corner]:
    from bench.scenarios import quadrature_largest

    twelve = [*range(10), 9, 9]
    faces = {"nuisance": twelve, "menace": twelve, "danger": twelve}
    pc_faces = dict.fromkeys(("blue", "yellow", "alea", "advantage", "disadvantage", "upgraded", "weak"), twelve)
    pc = {"source": "rolled", "characteristic": 6, "skill": 6, "skill_upgrades": 6, "advantage": 3}
    adversary = {"danger": 4, "menace": 2, "nuisance": 2}
    out: list[Corner] = [
        (f"plus grand cas raisonnable n°{i + 1} (bench/scenarios.py)", s) for i, s in enumerate(quadrature_largest())
    ]
    for mode in ("adversary_attack", "pc_attack"):
        for adv in (3, -3):
            out.append(
                (
                    f"{mode}, dés à 12 faces, 8 dés, PJ 6 🟦 6 🟨 6 ⬆, avantage {adv:+d}, matchup {adv:+d}",
                    {
                        "mode": mode,
                        "adversary": adversary,
                        "faces": faces,
                        "pc_faces": pc_faces,
                        "matchup": adv,
                        "pc": {**pc, "advantage": adv},
                    },
                )
            )
    out.append(("fin de manche, dés à 12 faces", {"mode": "round", "adversary": adversary, "faces": faces}))
    return out


CORNERS: dict[str, Callable[[], list[Corner]]] = {
    "aventuriers": aventuriers_corners,
    "encore": encore_corners,
    "feerie": feerie_corners,
    "feerie-action": feerie_action_corners,
    "nephilim": nephilim_corners,
    "quadrature": quadrature_corners,
}


# --------------------------------------------------------------------------- mutations


@dataclass
class Site:
    """A place in plain scenario data that a mutation may change."""

    path: str
    holder: Any  # the dict or list holding the value
    key: Any  # its key or index
    tp: Any
    spec: Any
    optional: bool = False
    rows: bool = False  # a list whose length may change


def sites(cls: type, data: dict[str, Any], prefix: str = "") -> Iterator[Site]:
    """Every number, box, choice and list of ``data`` (a ``cls``), with its declaration."""
    for f in fields_of(cls):
        if f.name not in data:
            continue
        value, path = data[f.name], f"{prefix}{f.name}"
        item = _is_tuple_of(f.type)
        if _is_dataclass_type(f.type) and isinstance(value, dict):
            yield from sites(f.type, value, path + ".")
        elif item is not None and isinstance(value, list):
            yield Site(path, data, f.name, item, f.spec, rows=True)
            for i, v in enumerate(value):
                if _is_dataclass_type(item) and isinstance(v, dict):
                    yield from sites(item, v, f"{path}.{i}.")
                elif item is int:
                    yield Site(f"{path}.{i}", value, i, int, f.spec)
        elif f.type is bool or f.type is int or (isinstance(f.type, type) and issubclass(f.type, enum.Enum)):
            yield Site(path, data, f.name, f.type, f.spec, optional=f.optional)


def _number(rng: random.Random, spec: Any, current: Any) -> int:
    low = spec.ge if spec.ge is not None else (current or 0) - 10
    high = spec.le if spec.le is not None else (current or 0) + 10
    roll = rng.random()
    if roll < 0.35:
        return int(high)
    if roll < 0.5:
        return int(low)
    if roll < 0.7 and isinstance(current, int):
        return max(low, min(high, current + rng.choice((-1, 1))))
    return rng.randint(low, high)


def mutate(cls: type, data: dict[str, Any], rng: random.Random) -> str:
    """Change one value of ``data`` in place (within its declared bounds); says what it did."""
    site = rng.choice(list(sites(cls, data)))
    value = site.holder[site.key]
    if site.rows:
        spec = site.spec
        grow = spec.max_items is None or len(value) < spec.max_items
        shrink = len(value) > (spec.min_items or 0)
        if grow and (not shrink or rng.random() < 0.75):
            if value:
                value.append(json.loads(json.dumps(rng.choice(value))))
            elif site.tp is int:
                value.append(_number(rng, spec, None))
            elif _is_dataclass_type(site.tp):
                try:
                    value.append(to_data(site.tp()))
                except TypeError:
                    return f"{site.path} (inchangé)"
            return f"{site.path} +1 ligne"
        if shrink:
            del value[rng.randrange(len(value))]
            return f"{site.path} −1 ligne"
        return f"{site.path} (inchangé)"
    if site.tp is bool:
        site.holder[site.key] = not value
    elif isinstance(site.tp, type) and issubclass(site.tp, enum.Enum):
        site.holder[site.key] = rng.choice([m.value for m in site.tp])
    elif site.optional and rng.random() < 0.15:
        site.holder[site.key] = None
    else:
        site.holder[site.key] = _number(rng, site.spec, value)
    return f"{site.path}={site.holder[site.key]}"


# --------------------------------------------------------------------------- timing


def clear_engine_caches() -> None:
    """Forget every memoised engine result (``functools`` caches of the ``rulesets.*`` modules)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("rulesets.") and module is not None:
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def api_work(ruleset: Ruleset, body: Body) -> None:
    """What the resolve and odds API calls compute for ``body``, JSON encoding included."""
    resolution = core_request.resolve(ruleset, body)
    json.dumps(core_request.result_data(resolution), ensure_ascii=False)
    _scenario, result = core_request.odds(ruleset, body)
    json.dumps(core_request.odds_data(ruleset, result), ensure_ascii=False)


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU) milliseconds of one call. The CPU time of this process moves much less than
    the wall time when other jobs share the cores: the search ranks candidates by it."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def screen(ruleset: Ruleset, candidate: Candidate) -> float:
    """One call to warm the caches, then two timed calls (none when the first is very slow): the
    candidate's score is the lesser CPU time, so that one pause of the collector or of the machine
    does not send a candidate to the top."""
    body = candidate.body()
    first = timed(lambda: api_work(ruleset, body))[1]
    if first > SLOW_CALL_S * 1000:
        candidate.score_ms = first
    else:
        candidate.score_ms = min(timed(lambda: api_work(ruleset, body))[1] for _i in range(2))
    return candidate.score_ms


def measure(ruleset: Ruleset, candidate: Candidate, warm_runs: int = WARM_RUNS) -> dict[str, Any]:
    """Cold (caches cleared) then the median of ``warm_runs`` warm calls, wall and CPU, in ms."""
    body = candidate.body()
    clear_engine_caches()
    cold, cold_cpu = timed(lambda: api_work(ruleset, body))
    runs = 1 if cold > SLOW_CALL_S * 1000 else warm_runs
    warm = [timed(lambda: api_work(ruleset, body)) for _i in range(runs)]
    return {
        "description": candidate.description,
        "warm_ms": round(statistics.median(w for w, _c in warm), 2),
        "cold_ms": round(cold, 2),
        "warm_cpu_ms": round(statistics.median(c for _w, c in warm), 2),
        "cold_cpu_ms": round(cold_cpu, 2),
        "warm_runs": runs,
        "body": {"scenario": minimal(ruleset.scenario_type, candidate.scenario), "seed": SEED_BODY},
    }


# --------------------------------------------------------------------------- the search


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class Pool:
    """The candidates of one ruleset seen so far (keyed by their data, so none is timed twice)."""

    ruleset: Ruleset
    seen: dict[str, Candidate] = field(default_factory=dict)
    rejected: int = 0

    def add(self, candidate: Candidate) -> bool:
        key = json.dumps(candidate.scenario, sort_keys=True)
        if key in self.seen:
            return False
        try:
            screen(self.ruleset, candidate)
        except ScenarioError:
            # parsed, then refused by the rules' own checks (a Féerie Action rank past the previous
            # activity…): the API answers it with a 400, it is not an accepted request
            self.rejected += 1
            return False
        self.seen[key] = candidate
        return True

    def best(self, n: int) -> list[Candidate]:
        return sorted(self.seen.values(), key=lambda c: c.score_ms, reverse=True)[:n]


def search(pool: Pool, rng: random.Random, deadline: float) -> None:
    """Hill-climb from the slowest candidates until ``deadline`` (``time.perf_counter``)."""
    cls = pool.ruleset.scenario_type
    while time.perf_counter() < deadline:
        parents = pool.best(3)
        if not parents:
            return
        parent = rng.choice(parents)
        data = json.loads(json.dumps(parent.scenario))
        steps = [mutate(cls, data, rng) for _i in range(rng.randint(1, 3))]
        scenario = accepted(pool.ruleset, data)
        if scenario is None:
            pool.rejected += 1
            continue
        pool.add(Candidate(pool.ruleset.slug, parent.origin, scenario, steps=(*parent.steps, *steps)))


def run(budget_s: float = DEFAULT_BUDGET_S, seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """The worst-case report: corners, then the search within ``budget_s`` seconds, then the five
    slowest inputs of every ruleset timed cold and warm."""
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    rng = random.Random(seed)
    rulesets = load_all()
    pools: dict[str, Pool] = {}
    for slug, corners in CORNERS.items():
        ruleset = rulesets[slug]
        pool = pools[slug] = Pool(ruleset)
        for description, scenario in corners():
            data = accepted(ruleset, scenario)
            if data is None:  # a corner the schema refuses is a bug of this file (tests/test_bench_worst.py)
                raise ValueError(f"{slug}: the schema refuses the corner « {description} »")
            refused = pool.rejected
            pool.add(Candidate(slug, description, data))
            if pool.rejected > refused:  # a corner the rules refuse: a bug of this file as well
                raise ValueError(f"{slug}: the rules refuse the corner « {description} »")
        log(f"{slug}: {len(pool.seen)} corners, slowest {pool.best(1)[0].score_ms:.1f} ms")
    # keep a fifth of the budget for the final timings
    search_until = started + budget_s * 0.8
    for i, (slug, pool) in enumerate(pools.items()):
        share = (search_until - time.perf_counter()) / (len(pools) - i)
        if share > 0:
            search(pool, rng, time.perf_counter() + share)
        log(f"{slug}: {len(pool.seen)} candidates ({pool.rejected} refused), slowest {pool.best(1)[0].score_ms:.1f} ms")
    report: dict[str, Any] = {"target_warm_ms": TARGET_MS, "budget_s": budget_s, "seed": seed, "rulesets": {}}
    overall: dict[str, Any] | None = None
    for slug, pool in pools.items():
        slowest = sorted((measure(pool.ruleset, c) for c in pool.best(TOP)), key=lambda m: m["warm_ms"], reverse=True)
        report["rulesets"][slug] = {
            "candidates": len(pool.seen),
            "refused": pool.rejected,  # by the schema, or by the rules when resolved
            "max_warm_ms": slowest[0]["warm_ms"],
            "max_cold_ms": max(m["cold_ms"] for m in slowest),
            "max_warm_cpu_ms": max(m["warm_cpu_ms"] for m in slowest),
            "slowest": slowest,
        }
        if overall is None or slowest[0]["warm_ms"] > overall["warm_ms"]:
            keys = ("description", "warm_ms", "cold_ms", "warm_cpu_ms", "cold_cpu_ms")
            overall = {"ruleset": slug, **{k: slowest[0][k] for k in keys}}
    assert overall is not None
    report["maximum"] = overall
    report["met"] = overall["warm_ms"] <= TARGET_MS
    report["met_cpu"] = max(part["max_warm_cpu_ms"] for part in report["rulesets"].values()) <= TARGET_MS
    # wall times grow with the other jobs on the machine: the load says how far to trust them
    report["load_average"] = {"start": round(load_before, 2), "end": round(os.getloadavg()[0], 2)}
    report["elapsed_s"] = round(time.perf_counter() - started, 1)
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET_S, help="seconds for the whole run")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the random search")
    args = parser.parse_args(argv)
    print(json.dumps(run(args.budget, args.seed), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
