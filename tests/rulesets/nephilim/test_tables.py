"""Every row of every table of the seed goes through the engine at least once."""

from __future__ import annotations

from typing import Any

import pytest

from rulesets.core.results import Result
from rulesets.core.schema import parse
from rulesets.nephilim.model import Scenario
from tests.rulesets.nephilim import seed_tables as t
from tests.rulesets.nephilim.helpers import approach, attacker, defence, defender, protection, run, scenario, weapon

HEAVY_MELEE = {"name": "Arme d'essai", "category": "melee", "degree": 5, "phys": 10, "mag": 10}
HEAVY_RANGED = dict(HEAVY_MELEE, category="tir")
HEAVY_THROWN = dict(HEAVY_MELEE, category="lancer")
ENCAISSER = {
    "melee": "Encaisser (déf. impossible)",
    "tir": "Encaisser les dommages",
    "lancer": "Encaisser les dommages",
}
APPROACH_FOR = {"melee": "Standard", "tir": "Tir (visée 1r)", "lancer": "Lancer"}


def ids(rows: list[dict[str, Any]]) -> list[str]:
    return [f"{r['name']}-{r.get('context', '')}" for r in rows]


def _numbers(result: Result) -> tuple[int, int]:
    return int(result.numbers["phys_taken"]), int(result.numbers["mag_taken"])  # type: ignore[arg-type]


@pytest.mark.parametrize("table", list(t.TABLES))
def test_every_row_of_every_table_parses_as_scenario_data(table: str) -> None:
    for row in t.TABLES[table]:
        kind = {
            "melee_approaches": "approach",
            "ranged_approaches": "approach",
            "melee_weapons": "weapon",
            "ranged_weapons": "weapon",
            "thrown_weapons": "weapon",
            "ammunitions": "ammunition",
            "attacker_effects": "effects",
        }.get(table)
        if kind is None:
            continue
        value = [row] if kind == "effects" else row
        mode = row.get("category", "melee")
        if kind == "approach":
            mode = {"tir": "tir", "lancer": "lancer"}.get(row["kind"], "melee")
        data = {"mode": mode, "attacker": {kind: value}, "defenders": [{"defence": {"context": mode}}]}
        if kind == "weapon":
            data["attacker"]["approach"] = approach(APPROACH_FOR[mode])
        if kind == "approach" and row["kind"] == "tir_instinctif":
            data["attacker"]["weapon"] = weapon("Arc")
        elif kind == "approach" and mode != "melee":
            data["attacker"]["weapon"] = dict(HEAVY_MELEE, category=mode)
        elif kind == "ammunition":
            data["attacker"]["weapon"] = weapon(row["compatible"] or "Pistolet 9mm")
            data["mode"] = "tir"
            data["attacker"]["approach"] = approach("Tir (visée 1r)")
            data["defenders"] = [{"defence": {"context": "tir"}}]
        parse(Scenario, data)


@pytest.mark.parametrize(
    "row",
    t.MELEE_WEAPONS + t.RANGED_WEAPONS + t.THROWN_WEAPONS,
    ids=[r["name"] for r in t.MELEE_WEAPONS + t.RANGED_WEAPONS + t.THROWN_WEAPONS],
)
def test_each_weapon_deals_its_phys_and_mag_to_an_unprotected_nephilim(row: dict[str, Any]) -> None:
    mode = row["category"]
    scn = scenario(
        attacker(weapon=row, approach=approach(APPROACH_FOR[mode])),
        defender(defence=defence(ENCAISSER[mode], mode)),
        mode=mode,
    )
    assert _numbers(run(scn, attaque_1=20)) == (row["phys"], row["mag"])


@pytest.mark.parametrize(
    "row", t.MELEE_APPROACHES + t.RANGED_APPROACHES, ids=[r["name"] for r in t.MELEE_APPROACHES + t.RANGED_APPROACHES]
)
def test_each_approach_moves_the_attack_degree_by_its_modifier(row: dict[str, Any]) -> None:
    mode = {"tir": "tir", "lancer": "lancer"}.get(row["kind"], "melee")
    heavy = {"melee": HEAVY_MELEE, "tir": HEAVY_RANGED, "lancer": HEAVY_THROWN}[mode]
    used = weapon("Arc") if row["kind"] == "tir_instinctif" else heavy
    scn = scenario(attacker(weapon=used, approach=row), defender(defence=defence(ENCAISSER[mode], mode)), mode=mode)
    result = run(scn, attaque_1=1, attaque_2=1) if row["kind"] == "rapide" else run(scn, attaque_1=1)
    key = "s1.attack_degree"
    assert result.numbers[key] == 6 + row["attack_modifier"]
    expected_phys = 0 if not row.get("deals_damage", True) else used["phys"] + row.get("damage_bonus_phys", 0)
    if row["kind"] == "frapper":  # issue 14: Frapper strikes with the simulacre's force (1 by default)
        expected_phys = 1
    assert result.numbers["s1.phys_taken"] == expected_phys


@pytest.mark.parametrize("row", t.AMMUNITIONS, ids=[r["name"] for r in t.AMMUNITIONS])
def test_each_ammunition_adds_its_bonus_to_a_compatible_firearm(row: dict[str, Any]) -> None:
    gun = weapon(row["compatible"] or "Carabine 22 long rifle")
    scn = scenario(
        attacker(kind="autre", weapon=gun, ammunition=row, approach=approach("Tir (visée 1r)")),
        defender(defence=defence("Encaisser les dommages", "tir")),
        mode="tir",
    )
    assert _numbers(run(scn, attaque_1=20)) == (gun["phys"] + row["damage_bonus"], 0)


@pytest.mark.parametrize("row", t.PROTECTIONS, ids=[r["name"] for r in t.PROTECTIONS])
def test_each_protection_subtracts_its_phys_and_mag(row: dict[str, Any]) -> None:
    scn = scenario(attacker(weapon=HEAVY_MELEE), defender(protections=[row]))
    assert _numbers(run(scn, attaque_1=20)) == (max(1, 10 - row["phys"]), max(0, 10 - row["mag"]))


@pytest.mark.parametrize("row", t.DEFENCES, ids=ids(t.DEFENCES))
def test_each_defence_type_applies_its_success_and_failure_effects(row: dict[str, Any]) -> None:
    mode = row["context"]
    heavy = {"melee": HEAVY_MELEE, "tir": HEAVY_RANGED, "lancer": HEAVY_THROWN}[mode]
    scn = scenario(
        attacker(weapon=heavy, approach=approach(APPROACH_FOR[mode])), defender(defence=row, degree=9), mode=mode
    )
    if not row.get("rolls", True):
        assert _numbers(run(scn, attaque_1=20)) == (10, 10)
        return
    success = run(scn, attaque_1=20, defense_1=1)
    failure = run(scn, attaque_1=20, defense_1=97)
    assert success.numbers["defence_success"] is True
    assert failure.numbers["defence_success"] is False
    if row.get("success_cancel"):
        assert _numbers(success) == (0, 0)
    else:
        assert _numbers(success) == (10 - row["success_reduce_phys"], 10 - row["success_reduce_mag"])
    assert _numbers(failure) == (10 + row.get("failure_add_phys", 0), 10 + row.get("failure_add_mag", 0))
    assert success.numbers["defence_degree"] == 9 + row.get("modifier", 0)


# attack degree delta, defence degree delta, PHYS delta, in the context below
ATTACKER_EXPECTED: dict[str, tuple[int, int, int]] = {
    "Furie pyrétique": (3, 0, 0),
    "Hallucination guerrière": (3, 0, 0),
    "Spasmes de furies": (3, -2, 0),
    "Sublimation élémentaire": (2, 0, 0),
    "Précognition": (4, 0, 0),
    "Point faible": (0, 0, 1),
    "Coordination aquatique": (2, 0, 0),
    "Les douze Portes de l'Amdouat": (5, 0, 0),
    "Améthyste revêtue de flammes": (6, 0, 0),
    "Anges guerriers, hérauts de la victoire": (3, 0, 0),
    "Consort rouge": (5, 0, 0),
    "Kerubim, esprits agiles de Tilfir": (4, 0, 0),
    "Phalange d'airain": (0, 0, 2),
    "Prince de la spirale": (3, 0, 3),
    "Régisseur de fureur": (10, 0, 0),
    "Parfum de concentration": (2, 0, 0),
    "Pierre d'affûtage lumineux": (0, 0, 1),
    "Poudre des brasiers": (0, 0, 0),  # (distance) only: nothing in melee
}


def _attacker_context(effects: list[dict[str, Any]]) -> Result:
    scn = scenario(
        attacker(
            approach=approach("Attaque en force"),
            approach_element="feu",
            approach_value=2,
            coordinated=True,
            effects=effects,
        ),
        defender(
            kind="autre",
            defence=defence("Parer"),
            failed_ka_dominant=True,
            protections=[protection("Armure de cuir légère")],
        ),
    )
    return run(scn, attaque_1=20, defense_1=97)


@pytest.mark.parametrize("row", t.ATTACKER_EFFECTS, ids=[r["name"] for r in t.ATTACKER_EFFECTS])
def test_each_attacker_effect_changes_what_it_says(row: dict[str, Any]) -> None:
    base, with_fx = _attacker_context([]), _attacker_context([row])
    delta = tuple(
        int(with_fx.numbers[k]) - int(base.numbers[k])  # type: ignore[arg-type]
        for k in ("attack_degree", "defence_degree", "phys_taken")
    )
    assert delta == ATTACKER_EXPECTED[row["name"]]


def test_poudre_des_brasiers_adds_one_phys_to_a_firearm_at_range() -> None:
    gun = weapon("Pistolet 9mm")
    fx = [t.row(t.ATTACKER_EFFECTS, "Poudre des brasiers")]
    scn = scenario(
        attacker(kind="autre", weapon=gun, approach=approach("Tir (visée 1r)"), effects=fx),
        defender(defence=defence("Encaisser les dommages", "tir")),
        mode="tir",
    )
    assert _numbers(run(scn, attaque_1=20)) == (3, 0)


# defence degree delta, PHYS delta, MAG delta (base: 9 PHYS / 10 MAG taken)
DEFENDER_EXPECTED: dict[str, tuple[int, int, int]] = {
    "Armure invincible": (0, -9, -10),
    "Corps brumeux": (0, -9, 0),
    "Hallucination guerrière": (3, -3, 0),
    "Les douze Portes de l'Amdouat": (5, 0, 0),
    "Précognition": (4, 0, 0),
    "Sublimation élémentaire": (2, 0, 0),
    "Améthyste revêtue de flammes": (0, -3, 0),
    "Colibris de brume": (0, 0, 0),  # only for a dodge; this is a parry
    "Consort rouge": (0, -5, -5),
    "Esprit de la 24e partie d'un instant": (5, 0, 0),
    "Kerubim, esprits agiles de Tilfir": (4, 0, 0),
    "Phalange d'airain": (0, -2, 0),
    "Porteuse des souffles de l'aube": (0, -3, -3),
    "Régisseur de fureur": (0, -9, 0),
    "Taliahad, gardien de la source": (0, -5, -5),
    "Coagulation métallique de l'être": (0, -5, -5),
    "Eau-de-vie du métal ensommeillé": (0, -4, 0),
    "Eau-forte des murailles d'Atlantis": (0, 0, 0),  # (distance) only
    "Réduction de la faille du bouclier": (0, -3, 0),
    "Liqueur du mouvant": (2, 0, 0),
    "Parfum de concentration": (2, 0, 0),
    "Retenue du souffle de la Chrysopée": (0, -9, -1),  # 19 > 10: −10 PHYS first, no minimum (issue 14)
    "Transmutation du fauve d'orfèvre": (0, -6, 0),
    "Vaisseau de l'androgyne sacré": (0, -8, 0),  # 9 − 10 → minimum 1
}


def _defender_context(effects: list[dict[str, Any]]) -> Result:
    scn = scenario(
        attacker(weapon=HEAVY_MELEE),
        defender(
            defence=defence("Parer"),
            approach_element="feu",
            approach_value=2,
            effects=effects,
            protections=[protection("Armure de cuir légère")],
        ),
    )
    return run(scn, attaque_1=20, defense_1=100)  # 100 always fails, whatever the defence degree


@pytest.mark.parametrize("row", t.DEFENDER_EFFECTS, ids=[r["name"] for r in t.DEFENDER_EFFECTS])
def test_each_defender_effect_changes_what_it_says(row: dict[str, Any]) -> None:
    base, with_fx = _defender_context([]), _defender_context([row])
    assert _numbers(base) == (9, 10)
    delta = tuple(
        int(with_fx.numbers[k]) - int(base.numbers[k])  # type: ignore[arg-type]
        for k in ("defence_degree", "phys_taken", "mag_taken")
    )
    assert delta == DEFENDER_EXPECTED[row["name"]]


def test_the_mantle_can_also_be_an_effect_with_a_named_behaviour() -> None:
    mantle = {
        "name": "Manteau élémentaire (sort)",
        "behaviour": "manteau_elementaire",
        "element": "feu",
        "protection_phys": 3,
        "protection_mag": 3,
    }
    same = scenario(attacker(weapon=weapon("Glaive élémentaire de Feu")), defender(effects=[mantle]))
    other = scenario(attacker(weapon=weapon("Glaive élémentaire d'Eau")), defender(effects=[mantle]))
    assert _numbers(run(same, attaque_1=22)) == (0, 0)
    assert _numbers(run(other, attaque_1=20)) == (1, 0)
