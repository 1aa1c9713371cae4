"""Nephilim Légende in an encounter, pure: a state fills the attacker block and a defender column,
a resolution is written back (damage, defences, next-round modifiers, holds, ripostes, aim), and
the end of the round resets and shifts what it must. Exchanges go through the real engine."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rulesets.core.dice import fixed_roll
from rulesets.core.encounter import Entry, Fighter, Table, get
from rulesets.core.french import typography as fr
from rulesets.core.schema import ScenarioError, flatten, parse, to_data, unflatten
from rulesets.nephilim.conditions import CONDITIONS
from rulesets.nephilim.encounter import (
    PJ,
    PNJ,
    Clock,
    CombatantState,
    Modifier,
    advance,
    aimed_shot,
    apply,
    badges,
    bars,
    blank,
    fill,
    from_preset,
    is_out,
    status,
    suggest,
)
from rulesets.nephilim.engine import resolve
from rulesets.nephilim.model import Scenario
from tests.rulesets.nephilim import seed_tables
from tests.rulesets.nephilim.helpers import approach, defence, protection, weapon

ROUND_1 = Clock(round=1)
TABLE = Scenario()
# the table's bestiary rows the encounter reads (§3 approaches, §9–11 defence types), from the seed
ROWS = Table(
    scenario=TABLE,
    entries={
        "approach": tuple(
            Entry(str(i), r["name"], flatten(r))
            for i, r in enumerate(seed_tables.MELEE_APPROACHES + seed_tables.RANGED_APPROACHES)
        ),
        "defence": tuple(Entry(str(i), r["name"], flatten(r)) for i, r in enumerate(seed_tables.DEFENCES)),
    },
)


def worn(name: str) -> dict[str, Any]:
    row = protection(name)
    row.pop("slot", None)
    return row


def state(**fields: Any) -> CombatantState:
    data: dict[str, Any] = {"name": "Sahar", "type": "nephilim", "attack_degree": 6, "defence_degree": 6}
    data["weapon"] = weapon("Épée/hache")
    data.update(fields)
    result: CombatantState = parse(CombatantState, data)
    return result


def f(key: str, kind: str = PJ, **fields: Any) -> Fighter:
    s = state(**fields)
    return Fighter(key, s.name, kind, s)


def page(bindings: dict[str, tuple[Fighter, ...]], clock: Clock = ROUND_1, **changes: Any) -> Scenario:
    """The calculator's scenario as the encounter opens it: defaults, ``fill``, then the game
    master's changes (flat field → value; a whole row under a prefix when the value is a dict)."""
    flat = flatten(to_data(Scenario()))
    filled = fill(bindings, clock, ROWS)
    if any(k.startswith("defenders.") for k in filled):
        flat = {k: v for k, v in flat.items() if not k.startswith("defenders.")}
    flat.update(filled)
    for key, value in changes.items():
        if isinstance(value, dict):
            flat = {k: v for k, v in flat.items() if not k.startswith(key + ".")}
            flat.update({f"{key}.{k}": v for k, v in flatten(value).items()})
        else:
            flat[key] = value
    result: Scenario = parse(Scenario, unflatten(flat))
    return result


def exchange(bindings: dict[str, tuple[Fighter, ...]], dice: dict[str, int], clock: Clock = ROUND_1, **changes: Any):
    scn = page(bindings, clock, **changes)
    result = resolve(scn, fixed_roll(dice))
    return scn, result, apply(scn, result, bindings, clock)


# --- the sheet ------------------------------------------------------------------------------------


def test_one_state_fills_the_attacker_block_and_a_defender_column() -> None:
    agathe = f("a", PNJ, name="Sœur Agathe", type="selenim", attack_degree=6, defence_degree=5, initiative_ka=3)
    sahar = f("s", name="Sahar", armour=worn("Armure de cuir renforcée"), ka_feu=7, initiative_ka=3)
    out = fill({"attacker": (agathe,), "defenders": (sahar,)}, ROUND_1, ROWS)
    assert out["attacker.kind"] == "autre"  # §1: a Selenim attacks as an « autre PNJ »
    assert out["attacker.degree"] == 6
    assert out["attacker.initiative_ka"] == 3
    assert out["defenders.0.kind"] == "nephilim"
    assert out["defenders.0.degree"] == 6
    assert out["defenders.0.armour.phys"] == 2
    out = fill({"attacker": (sahar,), "defenders": (agathe,)}, ROUND_1, ROWS)
    assert (out["attacker.kind"], out["attacker.ka_feu"]) == ("nephilim", 7)
    assert (out["defenders.0.kind"], out["defenders.0.degree"]) == ("selenim", 5)
    assert page({"attacker": (sahar,), "defenders": (agathe,)}).defenders[0].magic_sensitive


def test_the_approche_is_filled_only_where_the_approach_allows_its_element() -> None:
    sahar = f("s", approach_element="feu", approach_value=4)
    rival = f("r", PNJ, name="Rival")
    out = fill({"attacker": (sahar,), "defenders": (rival,)}, ROUND_1, ROWS)
    assert (out["attacker.approach_element"], out["attacker.approach_value"]) == ("feu", 0)  # Standard: none
    strong = f("s", approach_element="feu", approach_value=4, approach=approach("Attaque puissante"))
    out = fill({"attacker": (strong,), "defenders": (rival,)}, ROUND_1, ROWS)
    assert out["attacker.approach_value"] == 4
    assert out["attacker.approach.name"] == "Attaque puissante"
    # an initié's Ka-Soleil counts whatever the approach (docs/rules/nephilim.md decision 11)
    anselme = f("i", name="Frère Anselme", type="initie", approach_element="soleil", approach_value=3)
    assert fill({"attacker": (anselme,), "defenders": (rival,)}, ROUND_1, ROWS)["attacker.approach_value"] == 3
    # in defence only a Nephilim adds it, and only with a defence of its element
    ondine = f("o", name="Ondine", approach_element="eau", approach_value=5)
    assert fill({"defenders": (ondine,)}, ROUND_1, ROWS)["defenders.0.approach_value"] == 0
    dodging = replace(ondine.state, defence=parse(type(ondine.state.defence), defence("Esquiver")))
    out = fill({"defenders": (Fighter("o", "Ondine", PJ, dodging),)}, ROUND_1, ROWS)
    assert (out["defenders.0.defence.name"], out["defenders.0.approach_value"]) == ("Esquiver", 5)
    assert fill({"defenders": (anselme,)}, ROUND_1, ROWS)["defenders.0.approach_value"] == 0


def test_the_next_defence_number_follows_the_defences_made_this_round() -> None:
    rival = f("r", PNJ, name="Rival", defences=2)
    out = fill({"attacker": (f("s"),), "defenders": (rival,)}, ROUND_1, ROWS)
    assert (out["defenders.0.defence_number"], out["defenders.0.defence_number_2"]) == (3, 4)
    worn_out = f("r", PNJ, name="Rival", defences=10)
    out = fill({"defenders": (worn_out,)}, ROUND_1, ROWS)
    assert (out["defenders.0.defence_number"], out["defenders.0.defence_number_2"]) == (10, 10)


def test_one_who_cannot_defend_is_filled_with_encaisser_and_rolls_no_defence_die() -> None:
    sahar = f("s", cannot_defend=True)
    rival = f("r", PNJ, name="Rival")
    scn = page({"attacker": (rival,), "defenders": (sahar,)})
    assert scn.defenders[0].defence.name == "Encaisser (déf. impossible)"
    assert not scn.defenders[0].defence.rolls
    result = resolve(scn, fixed_roll({"attaque.1": 20}))
    assert result.numbers["defence_roll"] is None


def test_a_shot_or_a_throw_starts_from_encaisser_les_dommages_in_its_own_context() -> None:
    vigile = f("v", PNJ, name="Vigile", type="autre", weapon=weapon("Pistolet 9mm"))
    thrower = f("t", PNJ, name="Chasseur", type="autre", weapon=weapon("Javelot"))
    sahar = f("s", defence=defence("Parer"))
    shot = page({"attacker": (vigile,), "defenders": (sahar,)})
    assert (shot.mode.value, shot.defenders[0].defence.name, shot.defenders[0].defence.context.value) == (
        "tir",
        "Encaisser les dommages",
        "tir",
    )
    throw = page({"attacker": (thrower,), "defenders": (sahar,)})
    assert (throw.mode.value, throw.attacker.approach.name, throw.defenders[0].defence.context.value) == (
        "lancer",
        "Lancer",
        "lancer",
    )
    assert page({"attacker": (sahar,), "defenders": (vigile,)}).defenders[0].defence.name == "Standard"


@pytest.mark.parametrize(
    ("rounds", "name", "modifier"),
    [
        (0, "Tir (sans visée)", -4),
        (1, "Tir (visée 1r)", 0),
        (2, "Tir (+2, 2r)", 2),
        (3, "Tir (+4, 3r)", 4),
        (4, "Tir (+6, 4+r)", 6),
    ],
)
def test_the_shot_is_the_seeds_tir_row_for_the_rounds_of_aim(rounds: int, name: str, modifier: int) -> None:
    # §3 Approches d'attaque — distance
    shot = aimed_shot(rounds, ROWS)
    assert (shot.name, shot.attack_modifier, shot.aiming_rounds) == (name, modifier, rounds)
    chasseur = f("c", PNJ, name="Chasseur", type="autre", weapon=weapon("Fusil de chasse cal.12"), aiming=rounds)
    loup = f("l", PNJ, name="Loup gris", type="autre")
    assert page({"attacker": (chasseur,), "defenders": (loup,)}).attacker.approach.attack_modifier == modifier
    assert len([e for e in ROWS.group("approach") if e.values["kind"] == "tir"]) == 5


def test_without_a_tir_row_the_shot_is_neutral_and_named_plainly() -> None:
    shot = aimed_shot(2, Table(scenario=TABLE))
    assert (shot.name, shot.attack_modifier, shot.aiming_rounds) == ("Tir", 0, 2)


def test_an_aim_on_someone_else_does_not_help_the_shot() -> None:
    chasseur = f("c", PNJ, name="Chasseur", type="autre", weapon=weapon("Fusil de chasse cal.12"))
    chasseur = Fighter("c", "Chasseur", PNJ, replace(chasseur.state, aiming=3, aiming_at="Loup gris"))
    assert page({"attacker": (chasseur,), "defenders": (f("l", name="Loup gris"),)}).attacker.approach.name == (
        "Tir (+4, 3r)"
    )
    assert page({"attacker": (chasseur,), "defenders": (f("s"),)}).attacker.approach.name == "Tir (sans visée)"


def test_several_defenders_take_the_first_cadence_of_the_weapon_that_reaches_them() -> None:
    targets = (f("a", name="A"), f("b", name="B"))
    ak = f("m", PNJ, name="Mercenaire", type="autre", weapon=weapon("Fusil d'assaut AK-47"))
    assert fill({"attacker": (ak,), "defenders": targets}, ROUND_1, ROWS)["cadence"] == "cpc"
    bow = f("m", PNJ, name="Archer", type="autre", weapon=weapon("Arc"))
    assert "cadence" not in fill({"attacker": (bow,), "defenders": targets}, ROUND_1, ROWS)
    with pytest.raises(ScenarioError) as err:  # the page says why, on its field
        page({"attacker": (bow,), "defenders": targets})
    assert err.value.errors["defenders"] == fr("Plusieurs défenseurs : seulement en coup par coup ou en rafale.")


def test_this_rounds_modifiers_are_filled_as_the_report_and_next_rounds_are_not() -> None:
    now = (Modifier("Attaque étrange", "Oriel", -2, -2), Modifier("Marge > 10", "Rival", 0, -1))
    sahar = f("s", modifiers_now=[to_data(m) for m in now], modifiers_next=[to_data(Modifier("Prince", "R", -3, 0))])
    rival = f("r", PNJ, name="Rival")
    out = fill({"attacker": (sahar,), "defenders": (rival,)}, ROUND_1, ROWS)
    assert out["attacker.carried_over"] == -2
    out = fill({"attacker": (rival,), "defenders": (sahar,)}, ROUND_1, ROWS)
    assert out["defenders.0.carried_over"] == -3


# --- Appliquer ------------------------------------------------------------------------------------


def test_the_seeds_margin_example_is_written_as_next_round_modifiers_both_ways() -> None:
    # §14 Marge > 10 (examples « marge_superieure_10 »).
    sahar = f("s", attack_degree=15)
    rival = f("r", PNJ, name="Rival", defence_degree=14)
    _scn, result, applied = exchange(
        {"attacker": (sahar,), "defenders": (rival,)},
        {"attaque.1": 5, "defense.1": 12},
        **{
            "attacker.margin_damage": 2,
            "attacker.margin_malus": 2,
            "defenders.0.margin_damage": 1,
            "defenders.0.margin_malus": 1,
        },
    )
    assert (result.numbers["next.defender_defence"], result.numbers["next.attacker_attack"]) == (-2, -1)
    r, s = applied.states["r"], applied.states["s"]
    assert (r.phys_taken, r.mag_taken, r.defences) == (2, 0, 1)
    assert r.modifiers_next == (Modifier("Marge > 10 : −1 défense adverse", "Sahar", 0, -2),)
    assert s.modifiers_next == (Modifier("Marge > 10 : −1 attaque adverse", "Rival", -1, 0),)
    assert s.attacked
    assert not s.cannot_defend
    assert applied.story == (
        "Rival encaisse 2\u00a0PHYS ; en tout, 2\u00a0PHYS et 0\u00a0MAG.",
        "Prochaine défense de Rival ce round : la n°2 (−2).",
        "Au round suivant, Rival subira −2 en défense (Marge > 10 : −1 défense adverse, par Sahar).",
        "Au round suivant, Sahar subira −1 en attaque (Marge > 10 : −1 attaque adverse, par Rival).",
    )


def test_attaque_rapide_counts_two_defences_and_the_seeds_numbers() -> None:
    # §14 Attaque rapide (examples « attaque_rapide »): 1 + 2 PHYS, Défense n°2 at 30.
    sahar = f("s")
    sbire = f("b", PNJ, name="Sbire", defence_degree=5, defence=defence("Parer"))
    _scn, result, applied = exchange(
        {"attacker": (sahar,), "defenders": (sbire,)},
        {"attaque.1": 25, "defense.1": 45, "attaque.2": 38, "defense.2": 45},
        **{"attacker.approach": approach("Attaque rapide")},
    )
    assert (result.numbers["s1.phys_taken"], result.numbers["s2.phys_taken"]) == (1, 2)
    assert result.numbers["s2.defence_threshold"] == 30
    b, s = applied.states["b"], applied.states["s"]
    assert (b.phys_taken, b.defences) == (3, 2)
    assert s.cannot_defend
    assert s.approach.name == "Attaque rapide"


def test_attaque_en_force_leaves_the_attacker_without_defence_this_round() -> None:
    sahar = f("s")
    rival = f("r", PNJ, name="Rival")
    _scn, _result, applied = exchange(
        {"attacker": (sahar,), "defenders": (rival,)},
        {"attaque.1": 95, "defense.1": 95},
        **{"attacker.approach": approach("Attaque en force")},
    )
    assert applied.states["s"].cannot_defend
    assert not applied.states["r"].cannot_defend


def test_a_defence_number_raised_on_the_page_carries_on() -> None:
    rival = f("r", PNJ, name="Rival")
    _scn, _result, applied = exchange(
        {"attacker": (f("s"),), "defenders": (rival,)},
        {"attaque.1": 90, "defense.1": 90},
        **{"defenders.0.defence_number": 3},
    )
    assert applied.states["r"].defences == 3


def test_encaisser_is_no_defence_and_is_not_remembered() -> None:
    rival = f("r", PNJ, name="Rival", defence=defence("Parer"), cannot_defend=True)
    _scn, _result, applied = exchange({"attacker": (f("s"),), "defenders": (rival,)}, {"attaque.1": 20})
    r = applied.states["r"]
    assert (r.defences, r.defence.name, r.phys_taken) == (0, "Parer", 2)


def test_a_role_left_unbound_gets_nothing_written() -> None:
    rival = f("r", PNJ, name="Rival")
    _scn, _result, applied = exchange({"defenders": (rival,)}, {"attaque.1": 20, "defense.1": 90})
    assert set(applied.states) == {"r"}
    assert applied.states["r"].phys_taken == 1
    _scn, _result, applied = exchange({"attacker": (f("s"),)}, {"attaque.1": 20, "defense.1": 90})
    assert set(applied.states) == {"s"}
    assert applied.states["s"].attacked


def test_faire_tomber_throws_down_unless_the_defence_holds() -> None:
    golem = f("g", PNJ, name="Golem", type="creature_magique")
    down = {"attacker.approach": approach("Faire tomber")}
    _s, _r, applied = exchange(
        {"attacker": (golem,), "defenders": (f("s"),)}, {"attaque.1": 20, "defense.1": 90}, **down
    )
    assert applied.states["s"].down
    assert applied.states["s"].phys_taken == 0
    _s, _r, applied = exchange(
        {"attacker": (golem,), "defenders": (f("s"),)}, {"attaque.1": 20, "defense.1": 10}, **down
    )
    assert not applied.states["s"].down


def test_a_burst_gives_the_margin_malus_only_to_the_defenders_it_hits() -> None:
    # coup par coup: one attack die per target; margin 19 → 9 choices, 2 taken as −1 défense
    mercenary = f("m", PNJ, name="Mercenaire", type="autre", attack_degree=20, weapon=weapon("Fusil d'assaut AK-47"))
    a, b = f("a", name="A"), f("b", name="B")
    _scn, result, applied = exchange(
        {"attacker": (mercenary,), "defenders": (a, b)},
        {"attaque.1": 5, "attaque.2": 100},
        **{"attacker.margin_malus": 2},
    )
    assert result.numbers["s1.hit"]
    assert not result.numbers["s2.hit"]
    assert applied.states["a"].modifiers_next == (Modifier("Marge > 10 : −1 défense adverse", "Mercenaire", 0, -2),)
    assert applied.states["b"].modifiers_next == ()
    assert (applied.states["a"].phys_taken, applied.states["b"].phys_taken) == (4, 0)


def test_a_full_list_of_next_round_modifiers_is_noted_not_overflowed() -> None:
    full = [to_data(Modifier("x", "y", -1, 0))] * 12
    rival = f("r", PNJ, name="Rival", defence_degree=14, modifiers_next=full)
    _scn, _result, applied = exchange(
        {"attacker": (f("s", attack_degree=15),), "defenders": (rival,)},
        {"attaque.1": 5, "defense.1": 95},
        **{"attacker.margin_malus": 1},
    )
    assert len(applied.states["r"].modifiers_next) == 12
    assert applied.notes == (
        "Rival : déjà 12\u00a0modificateurs au round suivant, « −1 en défense (Marge > 10 : −1 défense adverse, "
        "par Sahar) » n'est pas noté.",
    )


def test_a_counter_attack_leaves_a_riposte_and_taking_it_spends_no_attack() -> None:
    rival = f("r", PNJ, name="Rival", defence=defence("Contre-attaquer"))
    _scn, _result, applied = exchange(
        {"attacker": (f("s"),), "defenders": (rival,)}, {"attaque.1": 20, "defense.1": 30}
    )
    r = applied.states["r"]
    assert (r.riposte, r.riposte_round, r.phys_taken) == ("Sahar", 1, 0)
    rival = Fighter("r", "Rival", PNJ, r)
    _scn, _result, applied = exchange(
        {"attacker": (rival,), "defenders": (f("s"),)}, {"attaque.1": 90, "defense.1": 90}
    )
    r = applied.states["r"]
    assert (r.riposte, r.riposte_round, r.attacked) == ("", None, False)


def test_any_attack_ends_an_aim() -> None:
    chasseur = f("c", PNJ, name="Chasseur", type="autre", aiming=2, aiming_at="Sahar")
    _scn, _result, applied = exchange(
        {"attacker": (chasseur,), "defenders": (f("s"),)}, {"attaque.1": 90, "defense.1": 90}
    )
    assert (applied.states["c"].aiming, applied.states["c"].aiming_at) == (0, "")


# --- the end of the round ---------------------------------------------------------------------------


def test_the_end_of_the_round_resets_the_round_and_shifts_the_modifiers() -> None:
    sahar = f(
        "s",
        attacked=True,
        defences=3,
        cannot_defend=True,
        modifiers_now=[to_data(Modifier("Attaque étrange", "Oriel", -2, -2))],
        modifiers_next=[to_data(Modifier("Prince de la spirale", "Rival", -3, 0))],
    )
    idle = f("i", name="Ondine")
    applied = advance((sahar, idle), ROUND_1, TABLE)
    assert applied.clock == Clock(round=2)
    s = applied.states["s"]
    assert (s.attacked, s.defences, s.cannot_defend) == (False, 0, False)
    assert s.modifiers_now == (Modifier("Prince de la spirale", "Rival", -3, 0),)
    assert s.modifiers_next == ()
    assert "i" not in applied.states  # nothing to change
    assert applied.story == (
        "Fin du round 1 : le round 2 commence.",
        "Sahar ne subit plus −2 en attaque et −2 en défense (Attaque étrange, par Oriel).",
        "Sahar subit ce round −3 en attaque (Prince de la spirale, par Rival).",
    )


def test_an_aim_counts_a_round_unless_the_shooter_attacked_and_stops_at_four() -> None:
    aiming = f("a", name="Chasseur", type="autre", aiming_at="Loup gris", aiming=3)
    attacked = f("b", name="Vigile", type="autre", aiming_at="Loup gris", attacked=True)
    out = f("c", name="Tireur", type="autre", aiming_at="Loup gris", out=True)
    applied = advance((aiming, attacked, out), ROUND_1, TABLE)
    assert applied.states["a"].aiming == 4
    assert applied.states["b"].aiming == 0
    assert "c" not in applied.states
    applied = advance((Fighter("a", "Chasseur", PJ, applied.states["a"]),), Clock(round=2), TABLE)
    assert "a" not in applied.states  # « 4+ rounds »: it stays at 4


def test_a_riposte_is_lost_at_the_end_of_the_round_after_it_was_won() -> None:
    rival = f("r", PNJ, name="Rival", riposte="Sahar", riposte_round=1)
    assert "r" not in advance((rival,), ROUND_1, TABLE).states
    applied = advance((rival,), Clock(round=2), TABLE)
    assert (applied.states["r"].riposte, applied.states["r"].riposte_round) == ("", None)
    assert "Rival n'a pas riposté contre Sahar : l'occasion est passée." in applied.story


# --- who acts, what the page shows ---------------------------------------------------------------------


def test_the_attacker_proposed_is_a_riposte_due_then_the_quickest_who_has_not_attacked() -> None:
    slow = f("slow", name="Lent", initiative_ka=2)  # Nephilim: Ka-Eau × 2 = 4
    quick = f("quick", PNJ, name="Vif", type="autre", initiative_ka=5)
    done = f("done", PNJ, name="Fait", type="autre", initiative_ka=9, attacked=True)
    everyone = (slow, quick, done)
    assert suggest("attacker", everyone, ROUND_1) == ("quick",)
    assert suggest("defenders", everyone, ROUND_1) == ("slow",)  # the other side
    riposting = f("slow", name="Lent", riposte="Fait", riposte_round=1)
    assert suggest("attacker", (riposting, quick, done), ROUND_1) == ("slow",)
    assert suggest("defenders", (riposting, quick, done), ROUND_1) == ("done",)
    aiming = f("quick", PNJ, name="Vif", type="autre", initiative_ka=5, aiming_at="Fait")
    assert suggest("defenders", (slow, aiming, done), ROUND_1) == ("done",)
    assert suggest("attacker", (f("x", out=True),), ROUND_1) == ()


def test_the_badges_say_the_type_the_defences_and_the_modifiers() -> None:
    s = f(
        "s",
        defences=2,
        attacked=True,
        modifiers_now=[to_data(Modifier("Attaque étrange", "Oriel", -2, -2))],
        modifiers_next=[to_data(Modifier("Prince", "Rival", -3, 0))],
        aiming_at="Rival",
        aiming=1,
        held_by="Golem",
        wounds=-2,
    )
    assert badges(s, ROUND_1, TABLE) == (
        "Nephilim",
        "a attaqué",
        "2\u00a0défenses, prochaine n°3",
        "blessures −2",
    )
    # what lasts is a chip (issue 16): the modifiers, the aim, the hold
    assert [(c.label, c.remaining) for c in CONDITIONS.chips(s, ROUND_1)] == [
        ("−2 en attaque et −2 en défense (Attaque étrange, par Oriel)", "ce round, jusqu'à la fin du round 1"),
        ("−3 en attaque (Prince, par Rival)", "au round suivant (round 2)"),
        ("Immobilisé par Golem", "jusqu'à ce qu'il se libère"),
        ("Vise Rival (1\u00a0round)", "tant qu'il ne tire pas"),
    ]
    vigile = f("v", PNJ, name="Vigile", type="autre", cannot_defend=True, defences=1)
    assert badges(vigile, ROUND_1, TABLE) == (
        "Humain ordinaire ou animal",
        "insensible à la magie",
    )
    assert [c.label for c in CONDITIONS.chips(vigile, ROUND_1)] == ["Ne peut plus se défendre"]
    assert [(b.field, b.value) for b in bars(s)] == [
        ("phys_taken", 0),
        ("mag_taken", 0),
        ("defences", 2),
        ("aiming", 1),
    ]
    assert [b.field for b in bars(vigile)] == ["phys_taken", "mag_taken", "defences"]  # a sword: no aim
    shooter = f("m", PNJ, name="Mercenaire", type="autre", weapon=weapon("Fusil d'assaut AK-47"))
    assert [b.field for b in bars(shooter)][-1] == "aiming"


def test_the_fight_ends_when_a_whole_side_is_out_or_has_fled() -> None:
    pc = f("p")
    fled = f("n", PNJ, name="Vigile", escaped=True)
    down = f("m", PNJ, name="Molosse", out=True)
    assert is_out(fled)
    assert is_out(down)
    assert status((pc, fled, down), ROUND_1) == ("Plus aucun PNJ ne tient tête : le combat est fini.",)
    assert status((pc, fled, f("o", PNJ, name="Loup")), ROUND_1) == ()


# --- the state itself ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "key", "message"),
    [
        (
            {"type": "autre", "approach_element": "feu", "approach_value": 3},
            "approach_value",
            "Seuls un Nephilim et un humain initié ont une Approche.",
        ),
        (
            {"type": "selenim", "approach_element": "lune"},
            "approach_value",
            "Seuls un Nephilim et un humain initié ont une Approche.",
        ),
        (
            {"type": "initie", "approach_element": "feu", "approach_value": 3},
            "approach_element",
            "Un humain initié a l'Approche Ka-Soleil.",
        ),
        (
            {"approach_element": "soleil", "approach_value": 3},
            "approach_element",
            "L'Approche d'un Nephilim est un Ka-élément : Feu, Eau, Air, Terre ou Lune.",
        ),
        ({"type": "initie", "ka_feu": 5}, "ka_feu", "Seul un Nephilim ajoute son Ka-Feu aux dommages."),
        (
            {"approach": {"kind": "tir", "name": "Tir (visée 1r)"}},
            "approach.kind",
            "L'approche mémorisée est une approche de mêlée (pas de tir, pas de lancer).",
        ),
        (
            {"defence": {"name": "Encaisser les dommages", "context": "tir"}},
            "defence.context",
            "Le type de défense mémorisé répond à la mêlée.",
        ),
        ({"riposte": "Sahar"}, "riposte_round", "Indiquez le round où la riposte a été gagnée."),
        (
            {"modifiers_now": [{"source": "x"}]},
            "modifiers_now.0.attack",
            "Un modificateur change l'attaque, la défense ou les deux.",
        ),
        ({"defences": 11}, "defences", "Défenses faites ce round : doit être entre 0 et 10 (reçu 11)."),
        ({"aiming": 5}, "aiming", "Rounds de visée accomplis : doit être entre 0 et 4 (reçu 5)."),
    ],
)
def test_a_state_that_breaks_a_rule_is_refused_in_french_on_its_field(
    fields: dict[str, Any], key: str, message: str
) -> None:
    with pytest.raises(ScenarioError) as err:
        parse(CombatantState, {"name": "X", **fields})
    assert err.value.errors[key] == fr(message)


def test_a_bestiary_preset_gives_both_halves_and_an_entry_without_a_defence_half_falls_back() -> None:
    agathe = parse(
        CombatantState,
        from_preset(
            {
                "attacker.name": "Sœur Agathe",
                "attacker.kind": "autre",
                "attacker.degree": 6,
                "defender.kind": "selenim",
                "defender.degree": 6,
                "defender.sensitivity": "auto",
            }
        ),
    )
    assert (agathe.type.value, agathe.defence_degree, agathe.magic_sensitive) == ("selenim", 6, True)
    vest = {
        "name": "Gilet pare-balles lourd",
        "phys": 3,
        "mag": 0,
        "magical": False,
        "element": "aucun",
        "optional_bonus": 0,
    }
    mercenary = from_preset(
        {
            "attacker.name": "Mercenaire",
            "attacker.kind": "autre",
            "attacker.degree": 6,
            **{f"attacker.weapon.{k}": v for k, v in flatten(weapon("Arc")).items()},
            "defender.kind": "autre",
            "defender.degree": 5,
            **{f"defender.armour.{k}": v for k, v in vest.items()},
        }
    )
    m = parse(CombatantState, mercenary)
    assert (m.weapon.name, m.armour.name, m.armour.phys, m.defence_degree) == ("Arc", "Gilet pare-balles lourd", 3, 5)
    stranger = parse(
        CombatantState, from_preset({"attacker.name": "Inconnu", "attacker.kind": "initie", "attacker.degree": 4})
    )
    assert (stranger.type.value, stranger.defence_degree, stranger.armour.name) == ("initie", 4, "Aucune")


def test_a_combatant_typed_by_hand_is_a_nephilim_pc_or_an_ordinary_npc() -> None:
    assert parse(CombatantState, blank(PJ, "Ishtar")).type.value == "nephilim"
    assert parse(CombatantState, blank(PNJ, "Passant")).type.value == "autre"


def test_the_encounter_rules_are_registered_with_one_page_and_its_roles() -> None:
    rules = get("nephilim")
    assert [k.key for k in rules.kinds] == [PJ, PNJ]
    page_ = rules.page("nephilim")
    assert [(r.key, r.many, r.required) for r in page_.roles] == [("attacker", 1, True), ("defenders", 6, False)]
    assert rules.clock_label(Clock(round=3)) == "Round 3"
    assert rules.advance_label(Clock(round=3)) == "Fin du round 3"
