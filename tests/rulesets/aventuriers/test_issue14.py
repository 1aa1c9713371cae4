"""Issue 14, Aventuriers: typed totals must be a combination of the faces of the dice rolled
(seed ``001``, « Système de dés »: each die shows one face; Livret Aventure, p. 17 and 19)."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations_with_replacement, product

import pytest

from rulesets.aventuriers.engine import reachable, resolve
from rulesets.aventuriers.model import (
    BLACK,
    BLUE,
    Action,
    DiceGroup,
    DieType,
    Entry,
    Face,
    Rules,
    Scenario,
    Totals,
    Weapon,
)
from rulesets.core.dice import fixed_roll
from rulesets.core.schema import ScenarioError, parse
from tests.rulesets.aventuriers.helpers import hero, monster

NNBSP = "\u202f"

# a custom die with gaps: 💥 0 or 3, ⚡ 0, 1 or 3
STORM = DieType(key="orage", name="Dé d'orage", faces=(Face(3, 0, 0), Face(0, 0, 3), Face(1, 1, 1), Face(0, 2, 0)))
DICE = (BLACK, BLUE, STORM)


def errors_of(scenario: Scenario) -> dict[str, str]:
    return {k: v.replace(NNBSP, " ") for k, v in scenario.check().items()}


def totals_scenario(**changes) -> Scenario:
    base = Scenario(entry=Entry.TOTALS, attacker=hero(), defender=monster(), die_types=DICE)
    return replace(base, **changes)


def test_aventuriers_totals_three_damage_and_three_lightning_from_two_blue_dice_are_refused():
    """The issue's case: 2 blue dice can show 4 💥 or 4 ⚡, never 3 💥 and 3 ⚡ together. The old
    check compared each symbol with its own maximum and accepted it."""
    with pytest.raises(ScenarioError) as caught:
        parse(
            Scenario,
            {
                "entry": "totaux",
                "attacker": {"weapon": {"dice": [{"die": "bleu", "count": 2}]}},
                "attack_totals": {"damage": 3, "lightning": 3},
            },
        )
    errors = {k: v.replace(NNBSP, " ") for k, v in caught.value.errors.items()}
    assert errors == {
        "attack_totals.lightning": "Total ⚡ : avec 3 💥, ces dés ne peuvent montrer que 0 ou 1 ⚡ (reçu 3)."
    }


def test_aventuriers_totals_a_gap_in_a_custom_die_is_named():
    scenario = totals_scenario(
        attacker=hero(weapon=Weapon(dice=(DiceGroup("orage", 1),))), attack_totals=Totals(damage=2)
    )
    assert errors_of(scenario) == {"attack_totals.damage": "Total 💥 : ce dé ne peut montrer que 0, 1 ou 3 (reçu 2)."}


def _combos(dice: tuple[DieType, ...]) -> set[tuple[int, int, int]]:
    """Brute force: every face of every die, summed."""
    return {
        (sum(f.damage for f in faces), sum(f.shield for f in faces), sum(f.lightning for f in faces))
        for faces in product(*(d.faces for d in dice))
    }


def _pools(size: int):
    return [pool for n in range(1, size + 1) for pool in combinations_with_replacement(DICE, n)]


def _groups(pool: tuple[DieType, ...]) -> tuple[DiceGroup, ...]:
    return tuple(DiceGroup(d.key, 1) for d in pool)


def _read(combos, typed, read):
    """Accepted iff some combination of faces gives every symbol the roll reads, and every other
    symbol typed (a symbol the roll does not read may be left at 0)."""
    return any(all(c[i] == typed[i] for i in range(3) if i in read or typed[i]) for c in combos)


@pytest.mark.parametrize("pool", _pools(2), ids=lambda pool: "+".join(d.key for d in pool))
def test_aventuriers_totals_brute_force_attack_totals_accepted_iff_some_faces_give_them(pool):
    combos = _combos(pool)
    assert reachable(pool) == combos
    top = [max(c[i] for c in combos) + 1 for i in range(3)]
    for typed in product(*(range(t + 1) for t in top)):
        scenario = totals_scenario(
            attacker=hero(weapon=Weapon(dice=_groups(pool))), attack_totals=Totals(*typed), defender=monster()
        )
        refused = {k for k in errors_of(scenario) if k.startswith("attack_totals.")}
        # an Aventurier's attack reads 💥 and ⚡ (stamina); 🛡 is read only when typed
        assert (not refused) == _read(combos, typed, (0, 2)), (pool, typed, refused)


@pytest.mark.parametrize("pool", _pools(2), ids=lambda pool: "+".join(d.key for d in pool))
def test_aventuriers_totals_brute_force_defence_totals_accepted_iff_some_faces_give_them(pool):
    combos = _combos(pool)
    top = [max(c[i] for c in combos) + 1 for i in range(3)]
    for typed in product(*(range(t + 1) for t in top)):
        scenario = totals_scenario(
            attacker=monster(weapon=Weapon(dice=(DiceGroup("bleu", 1),))),
            defender=hero(defence=_groups(pool)),
            attack_totals=Totals(damage=1),
            defence_totals=Totals(*typed),
        )
        refused = {k for k in errors_of(scenario) if k.startswith("defence_totals.")}
        # an Aventurier's defence reads 🛡 and ⚡; 💥 is read only when typed
        assert (not refused) == _read(combos, typed, (1, 2)), (pool, typed, refused)


def test_aventuriers_totals_the_fixture_dice_are_the_models_defaults():
    """The brute force above runs on the model's faces; the bestiary fixture ships the same ones."""
    import json
    from pathlib import Path

    rows = json.loads(Path("fixtures/aventuriers.json").read_text())
    keys = {r["pk"]: r["fields"]["key"] for r in rows if r["model"] == "aventuriers.dietype"}
    faces: dict[str, list[tuple[int, int, int]]] = {}
    for r in sorted((r for r in rows if r["model"] == "aventuriers.dieface"), key=lambda r: r["fields"]["position"]):
        f = r["fields"]
        faces.setdefault(keys[f["die"]], []).append((f["damage"], f["shield"], f["lightning"]))
    for die in (BLACK, BLUE):
        assert sorted(faces[die.key]) == sorted((f.damage, f.shield, f.lightning) for f in die.faces)


def test_aventuriers_totals_a_flash_defence_reads_only_its_dice():
    """« autant de dés que de dégâts-éclairs subis, dans la limite de son jet de défense »: 1 flash
    damage, 1 die of 2, so at most 2 🛡 (the black protection die), not 3."""
    flash = Weapon(name="Éclair", dice=(DiceGroup("bleu", 1),), flash=True)
    scenario = totals_scenario(
        attacker=hero(weapon=flash),
        defender=monster(defence=(DiceGroup("noir", 1), DiceGroup("bleu", 1))),
        attack_totals=Totals(damage=1),
        defence_totals=Totals(shield=3),
    )
    assert errors_of(scenario) == {
        "defence_totals.shield": "Total 🛡 : le dé de la défense-éclair ne peut pas en montrer plus de 2 (reçu 3)."
    }


def test_aventuriers_totals_no_defence_roll_against_unblockable_damage():
    scenario = totals_scenario(
        attacker=hero(weapon=Weapon(dice=(DiceGroup("bleu", 1),), unblockable=True)),
        attack_totals=Totals(damage=1),
        defence_totals=Totals(shield=1),
    )
    assert errors_of(scenario) == {
        "defence_totals.shield": ("Total 🛡 : dégâts imparables, la cible ne lance pas de défense ; laissez 0 (reçu 1).")
    }


def test_aventuriers_totals_riposte_totals_without_a_riposte_are_refused():
    """The Riposte chains only when the target lost no PV: 3 💥 against 1 🛡, no Riposte."""
    scenario = totals_scenario(
        attacker=monster(weapon=Weapon(dice=(DiceGroup("noir", 1),))),
        defender=hero(riposte=True),
        attack_totals=Totals(damage=3),
        defence_totals=Totals(shield=1),
        riposte_totals=Totals(shield=1),
    )
    assert errors_of(scenario) == {
        "riposte_totals.shield": "Total 🛡 : pas de Riposte dans cet échange ; laissez 0 (reçu 1)."
    }


def test_aventuriers_totals_the_riposte_flash_defence_reads_its_dice():
    """1 🛡 rolled: 1 flash damage back, the Orc's flash defence rolls its first die (black)."""
    scenario = totals_scenario(
        attacker=monster(weapon=Weapon(dice=(DiceGroup("noir", 1),))),
        defender=hero(riposte=True),
        attack_totals=Totals(damage=1),
        defence_totals=Totals(shield=1),
        riposte_totals=Totals(shield=2),
    )
    assert errors_of(scenario) == {}
    result = resolve(scenario, fixed_roll({}))
    assert result.numbers["attacker_pv_lost"] == 0
    too_many = replace(scenario, riposte_totals=Totals(shield=3))
    assert errors_of(too_many) == {
        "riposte_totals.shield": "Total 🛡 : le dé de la défense-éclair ne peut pas en montrer plus de 2 (reçu 3)."
    }


def test_aventuriers_totals_success_test_lightning_no_face_shows_is_refused():
    """A custom test die showing 0, 1 or 3 ⚡ (it can give the three effects): 2 is no face of it."""
    scenario = Scenario(
        action=Action.SUCCESS_TEST,
        entry=Entry.TOTALS,
        die_types=(*Scenario().die_types, STORM),
        rules=Rules(success_die="orage"),
        test_lightning=2,
    )
    assert errors_of(scenario) == {
        "test_lightning": (
            "Test de réussite : aucune face de « Dé d'orage » ne montre 2\u00a0éclairs ; "
            "ses faces en montrent 0, 1 ou 3."
        )
    }
