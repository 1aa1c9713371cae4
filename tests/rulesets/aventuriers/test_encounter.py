"""Aventuriers inside an encounter, pure: the states, the page filled from them, a result written
back (PV, stamina, PX, kills, engagement, the combat action, the board), the two phases of a turn."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rulesets.aventuriers import encounter as enc
from rulesets.aventuriers.encounter import AventurierState, Clock, MonsterState, Phase
from rulesets.aventuriers.examples import examples
from rulesets.aventuriers.model import DiceGroup, Scenario
from rulesets.aventuriers.model import Fighter as PageFighter
from rulesets.core import request
from rulesets.core.encounter import Applied, Fighter, Table, get
from rulesets.core.registry import get as get_ruleset
from rulesets.core.results import Result
from rulesets.core.schema import ScenarioError, flatten, parse, to_data, unflatten
from tests.rulesets.aventuriers.helpers import play

RULES = get("aventuriers")
TABLE = Scenario()
TURN_1 = Clock(turn=1, phase=Phase.AVENTURIERS, opening=False)
SHADOWS_1 = Clock(turn=1, phase=Phase.OMBRES, opening=False)

# The examples' figures (rulesets/aventuriers/examples.py), as encounter states.
ELWEN: dict[str, Any] = {
    "name": "Elwen",
    "pv": 8,
    "pv_max": 8,
    "stamina": 1,
    "weapon": {"name": "Épée longue", "reach": "melee", "dice": [{"die": "bleu", "count": 2}]},
    "defence": [{"die": "noir", "count": 1, "protection": True}, {"die": "bleu", "count": 1}],
}
GOBLIN: dict[str, Any] = {
    "name": "Gobelin",
    "pv": 3,
    "pv_max": 3,
    "px": 2,
    "weapon": {"name": "Coutelas", "dice": [{"die": "bleu", "count": 1}]},
    "defence": [{"die": "bleu", "count": 1}],
}
ORC: dict[str, Any] = {
    "name": "Orc",
    "pv": 5,
    "pv_max": 5,
    "px": 4,
    "weapon": {"name": "Hache", "dice": [{"die": "noir", "count": 1}]},
    "defence": [{"die": "noir", "count": 1}, {"die": "bleu", "count": 1}],
}


def hero(**changes: Any) -> Fighter:
    data = {**ELWEN, **changes}
    return Fighter(data["name"], data["name"], "aventurier", parse(AventurierState, data))


def monster(base: dict[str, Any] = GOBLIN, **changes: Any) -> Fighter:
    data = {**base, **changes}
    return Fighter(data["name"], data["name"], "monstre", parse(MonsterState, data))


def page(bindings: dict[str, tuple[Fighter, ...]], clock: Clock, **changes: Any) -> Scenario:
    """The calculator page as « Ouvrir le calculateur » fills it, with the game master's changes."""
    flat = flatten(to_data(Scenario()))
    flat.update(enc.fill(bindings, clock))
    flat.update({k.replace("__", "."): v for k, v in changes.items()})
    return parse(Scenario, unflatten(flat))


def exchange(
    clock: Clock, attacker: Fighter, defender: Fighter | None, dice: dict[str, int], **changes: Any
) -> tuple[Result, Applied]:
    bindings = {"attacker": (attacker,)} | ({"defender": (defender,)} if defender else {})
    scenario = page(bindings, clock, **changes)
    result = play(scenario, dice)
    return result, enc.apply(scenario, result, bindings, clock)


def after(applied: Applied, fighter: Fighter) -> Any:
    return applied.states[fighter.key]


def moved(fighter: Fighter, state: Any) -> Fighter:
    return replace(fighter, state=state)


# --- states ---------------------------------------------------------------------------------------


def test_a_bestiary_card_becomes_a_monster_state_with_its_pv_px_dice_and_talents() -> None:
    # the values the page's « Monstre du bestiaire » preset fills (bestiary/aventuriers/web.py)
    values = {
        "name": "Araignée géante",
        "side": "monstre",
        "pv": 5,
        "px": 4,
        "stamina": 0,
        "stamina_max": 0,
        "weapon.name": "Morsure venimeuse",
        "weapon.reach": "melee",
        "weapon.spell": False,
        "weapon.diagonals": True,
        "weapon.unblockable": False,
        "weapon.flash": False,
        **{
            f"weapon.dice.{i}.{k}": v
            for i, row in enumerate([("noir", 1), ("bleu", 1), ("noir", 0), ("noir", 0)])
            for k, v in (("die", row[0]), ("count", row[1]), ("protection", False))
        },
        **{
            f"defence.{i}.{k}": v
            for i, row in enumerate([("noir", 1), ("noir", 0), ("noir", 0), ("noir", 0)])
            for k, v in (("die", row[0]), ("count", row[1]), ("protection", False))
        },
        "riposte": False,
        "contrecoup": False,
        "attaque_eclair": False,
        "attaque_opportunite": True,
        "coup_bas": False,
    }
    state = parse(MonsterState, enc.monster_from_preset(values))
    assert (state.name, state.pv, state.pv_max, state.px) == ("Araignée géante", 5, 5, 4)
    assert state.weapon.diagonals is True
    assert [(g.die, g.count) for g in state.weapon.dice if g.count] == [("noir", 1), ("bleu", 1)]
    assert [(g.die, g.count) for g in state.defence if g.count] == [("noir", 1)]
    assert state.attaque_opportunite is True
    assert state.opportunity is True  # not engaged when it enters the fight
    assert state.x is None
    assert state.engaged_with == ""


def test_a_typed_aventurier_starts_with_a_sword_and_protections_and_room_for_four_kinds_of_dice() -> None:
    state = parse(AventurierState, RULES.blank("aventurier", "Brenna"))
    assert state.name == "Brenna"
    assert len(state.weapon.dice) == len(state.defence) == 4
    assert [(g.die, g.count, g.protection) for g in state.defence if g.count] == [("noir", 1, True), ("bleu", 1, False)]


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"pv": 9, "pv_max": 8}, "pv", "PV actuels\u202f: ne peuvent dépasser les PV maximum (8)."),
        ({"stamina": 4, "stamina_max": 3}, "stamina", "Stamina\u202f: dépasse la stamina maximale (3)."),
        (
            {"contrecoup": True},
            "contrecoup",
            "Talent\u202f: Contrecoup\u202f: il s'ajoute à la Riposte, cochez aussi Riposte.",
        ),
        ({"x": 3}, "y", "Case\u202f: donnez la colonne et la ligne, ou laissez les deux vides."),
        (
            {"name": "Elwen, la rousse"},
            "name",
            "Nom\u202f: pas de virgule (elle sépare les noms dans «\u202fEngagé avec\u202f»).",
        ),
        ({"engaged_with": "Orc, Elwen"}, "engaged_with", "Engagé avec\u202f: pas avec soi-même."),
        ({"engaged_with": "Orc, Orc"}, "engaged_with", "Engagé avec\u202f: un nom en double."),
        ({"weapon": {"dice": [{"die": "bleu", "count": 0}]}}, "weapon.dice", "Jet d'attaque\u202f: au moins un dé."),
        ({"x": 100, "y": 1}, "x", "Case\u202f: colonne (vers l'est)\u202f: doit être entre 0 et 99 (reçu 100)."),
    ],
)
def test_a_state_refuses_what_the_rules_cannot_hold_with_a_french_message(
    data: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(ScenarioError) as exc:
        parse(AventurierState, {**ELWEN, **data})
    assert exc.value.errors[field] == message


def test_the_start_of_a_phase_belongs_to_the_aventuriers_phase_only() -> None:
    with pytest.raises(ScenarioError) as exc:
        parse(Clock, {"turn": 2, "phase": "maitre_des_ombres", "opening": True})
    assert exc.value.errors["opening"] == "Début de phase\u202f: seulement pendant la phase des Aventuriers."


# --- filling the page -------------------------------------------------------------------------------


def test_the_page_gets_both_sheets_and_every_row_of_their_dice_pools() -> None:
    out = enc.fill({"attacker": (hero(),), "defender": (monster(),)}, TURN_1)
    assert out["attacker.name"] == "Elwen"
    assert out["attacker.side"] == "aventurier"
    assert out["attacker.px"] == 0  # the page's PX are a Monster card's
    assert out["defender.side"] == "monstre"
    assert out["defender.px"] == 2
    assert (out["attacker.weapon.dice.0.die"], out["attacker.weapon.dice.0.count"]) == ("bleu", 2)
    # the page's default rows must not survive: rows 1 to 3 are written empty
    assert [out[f"attacker.weapon.dice.{i}.count"] for i in range(4)] == [2, 0, 0, 0]
    assert [out[f"defender.defence.{i}.count"] for i in range(4)] == [1, 0, 0, 0]
    assert out["attacker.defence.0.protection"] is True
    scenario = page({"attacker": (hero(),), "defender": (monster(),)}, TURN_1)
    assert scenario.defender.defence[0] == DiceGroup("bleu", 1)
    assert sum(g.count for g in scenario.attacker.defence) == 2


def test_the_squares_and_facings_fill_the_grid_so_that_the_zones_read_the_board() -> None:
    elwen = hero(x=3, y=3, facing="sud")
    goblin = monster(x=3, y=4, facing="nord")
    out = enc.fill({"attacker": (elwen,), "defender": (goblin,)}, TURN_1)
    assert (out["board.dx"], out["board.dy"]) == (0, -1)
    assert (out["board.attacker_facing"], out["board.target_facing"]) == ("sud", "nord")
    # the Goblin behind Elwen's back: a back attack (and no engagement, see below)
    behind = hero(x=3, y=3, facing="nord")
    result, _applied = exchange(TURN_1, monster(x=3, y=4, facing="nord"), behind, {"attaque.1": 1, "defense.1": 4})
    assert result.numbers["back_attack"] is True


def test_a_far_target_is_brought_back_within_the_grid_in_the_same_direction() -> None:
    archer = hero(x=30, y=15, weapon={"name": "Arc long", "reach": "distance", "dice": [{"die": "bleu", "count": 2}]})
    out = enc.fill({"attacker": (archer,), "defender": (monster(x=0, y=0),)}, TURN_1)
    assert (out["board.dx"], out["board.dy"]) == (12, 6)
    assert out["mode"] == "distance"


def test_unplaced_figures_or_one_square_leave_the_pages_grid_as_it_is() -> None:
    for a, d in ((hero(), monster(x=2, y=2)), (hero(x=2, y=2), monster(x=2, y=2))):
        out = enc.fill({"attacker": (a,), "defender": (d,)}, TURN_1)
        assert "board.dx" not in out
        assert "board.attacker_facing" not in out


def test_a_hybrid_weapon_strikes_when_adjacent_and_throws_when_apart() -> None:
    javelin = {
        "name": "Javelot",
        "reach": "hybride",
        "dice": [{"die": "noir", "count": 1}, {"die": "bleu", "count": 1}],
    }
    near = enc.fill({"attacker": (hero(x=1, y=1, weapon=javelin),), "defender": (monster(x=2, y=2),)}, TURN_1)
    far = enc.fill({"attacker": (hero(x=1, y=1, weapon=javelin),), "defender": (monster(x=4, y=1),)}, TURN_1)
    assert (near["mode"], far["mode"]) == ("melee", "distance")


def test_the_engagement_is_filled_when_both_name_each_other_and_still_stand_side_by_side() -> None:
    elwen = hero(x=1, y=1, engaged_with="Gobelin, Orc")
    goblin = monster(x=1, y=2, engaged_with="Elwen")
    out = enc.fill({"attacker": (elwen,), "defender": (goblin,)}, TURN_1)
    assert out["board.engaged_together"] is True
    assert out["board.attacker_engaged_other"] is True  # the Orc
    one_sided = enc.fill({"attacker": (elwen,), "defender": (monster(x=1, y=2),)}, TURN_1)
    assert one_sided["board.engaged_together"] is False
    walked_off = enc.fill(
        {"attacker": (hero(x=1, y=1, engaged_with="Gobelin"),), "defender": (monster(x=1, y=5, engaged_with="Elwen"),)},
        TURN_1,
    )
    assert walked_off["board.engaged_together"] is False


def test_with_the_tables_zone_shape_two_figures_side_by_side_but_turned_away_are_no_longer_engaged() -> None:
    # side by side, both facing away: neither stands in the other's attack zone (Livret p. 19)
    elwen = hero(x=1, y=1, facing="nord", engaged_with="Gobelin")
    goblin = monster(x=1, y=2, facing="sud", engaged_with="Elwen")
    bindings = {"attacker": (elwen,), "defender": (goblin,)}
    assert enc.fill(bindings, TURN_1)["board.engaged_together"] is True  # without the table: side by side
    table = Table(scenario=TABLE)
    assert enc.fill(bindings, TURN_1, table)["board.engaged_together"] is False
    facing = {"attacker": (hero(x=1, y=1, facing="sud", engaged_with="Gobelin"),), "defender": (goblin,)}
    assert enc.fill(facing, TURN_1, table)["board.engaged_together"] is True


# --- every worked example, written back ------------------------------------------------------------


def _state_of(fighter: PageFighter) -> Fighter:
    kind = fighter.side.value
    cls = AventurierState if kind == "aventurier" else MonsterState
    data = {
        "name": fighter.name,
        "pv": fighter.pv,
        "pv_max": fighter.pv,
        "stamina": fighter.stamina,
        "stamina_max": fighter.stamina_max,
        "px": fighter.px if kind == "monstre" else 0,
        "weapon": to_data(fighter.weapon),
        "defence": to_data(fighter.defence),
        **{
            k: getattr(fighter, k)
            for k in ("riposte", "contrecoup", "attaque_eclair", "attaque_opportunite", "coup_bas")
        },
    }
    return Fighter(fighter.name, fighter.name, kind, parse(cls, data))


FIGHTS = [e for e in examples() if e.expected["outcome"] in ("tue", "blesse", "indemne")]


@pytest.mark.parametrize("example", FIGHTS, ids=[e.key for e in FIGHTS])
def test_every_worked_exchange_of_the_seed_is_written_back_as_it_was_resolved(example: Any) -> None:
    resolution = request.resolve(get_ruleset("aventuriers"), example.request)
    s, n = resolution.scenario, resolution.result.numbers
    a, d = _state_of(s.attacker), _state_of(s.defender)
    applied = enc.apply(s, resolution.result, {"attacker": (a,), "defender": (d,)}, TURN_1)
    a2, d2 = after(applied, a), after(applied, d)
    expected = example.expected["numbers"]
    assert d2.pv == n["defender_pv_after"] == expected.get("defender_pv_after", n["defender_pv_after"])
    assert a2.pv == n["attacker_pv_after"] == expected.get("attacker_pv_after", n["attacker_pv_after"])
    assert a2.stamina == n["attacker_stamina_after"]
    assert d2.stamina == n["defender_stamina_after"]
    assert a2.px == (n["px_gained"] if a.kind == "aventurier" else a.state.px)
    assert d2.px == (n["defender_px_gained"] if d.kind == "aventurier" else d.state.px)
    engaged = bool(n["engaged_after"])
    assert ("Elwen" in a2.engaged or "Elwen" in d2.engaged) is engaged
    assert a2.acted is (s.action.value == "attaque")
    for fighter, state, dead in ((d, d2, n["defender_killed"]), (a, a2, n["attacker_killed"])):
        assert RULES.is_out(moved(fighter, state)) is bool(dead)
        if dead:
            assert state.engaged_with == ""


# --- the rules of a fight, exchange by exchange ------------------------------------------------------


def test_a_melee_blow_costs_pv_gives_stamina_engages_both_and_spends_the_combat_action() -> None:
    elwen, goblin = hero(x=3, y=3, facing="sud"), monster(x=3, y=4, facing="nord")
    opening = Clock(turn=1, phase=Phase.AVENTURIERS, opening=True)
    # bleu 3 = 💥💥, bleu 2 = 💥⚡ against the Goblin's bleu 4 = 🛡: 3 − 1 = 2 PV, 1 stamina
    _result, applied = exchange(opening, elwen, goblin, {"attaque.1": 3, "attaque.2": 2, "defense.1": 4})
    e, g = after(applied, elwen), after(applied, goblin)
    assert (g.pv, e.stamina) == (1, 2)
    assert (e.engaged, g.engaged) == (("Gobelin",), ("Elwen",))
    assert e.acted is True
    assert g.acted is False
    assert applied.story == ("Elwen et le Gobelin sont engagés au combat.",)
    assert applied.clock == Clock(turn=1, phase=Phase.AVENTURIERS, opening=False)  # the start of the phase is over


def test_a_monster_killed_is_removed_from_the_board_and_its_px_go_to_the_aventurier() -> None:
    elwen = hero(x=3, y=3, facing="sud", engaged_with="Gobelin", px=3)
    goblin = monster(x=3, y=4, facing="nord", pv=1, engaged_with="Elwen")
    # bleu 1 = 💥 and bleu 1 = 💥 against bleu 6 = ⚡⚡: 2 damage on 1 PV
    _result, applied = exchange(TURN_1, elwen, goblin, {"attaque.1": 1, "attaque.2": 1, "defense.1": 6})
    e, g = after(applied, elwen), after(applied, goblin)
    assert g.pv == 0
    assert (g.x, g.y) == (None, None)
    assert RULES.is_out(moved(goblin, g))
    assert e.px == 5
    assert e.engaged_with == ""
    assert g.engaged_with == ""
    assert applied.story == ("Le Gobelin est tué et retiré du plateau\u202f: Elwen gagne 2\u00a0PX (5 en tout).",)
    assert RULES.badges(moved(goblin, g), TURN_1, TABLE) == ("mort — retiré du plateau",)


def test_a_riposte_hits_the_attacking_monster_and_a_riposte_kill_credits_the_defender() -> None:
    elwen = hero(riposte=True, contrecoup=True)
    orc = monster(ORC)
    # the Orc's noir 2 = 💥💥; Elwen's noir 5 = 🛡🛡 and bleu 4 = 🛡: no PV lost, 3 🛡 + Contrecoup = 4
    # flash damage, the Orc's flash defence takes 2 dice: noir 4 = 🛡, bleu 1 = 💥 → 3 PV lost
    dice = {"attaque.1": 2, "defense.1": 5, "defense.2": 4, "riposte.1": 4, "riposte.2": 1}
    _result, applied = exchange(SHADOWS_1, orc, elwen, dice)
    assert after(applied, orc).pv == 2
    assert after(applied, elwen).pv == 8
    assert after(applied, orc).acted is True
    goblin = monster()
    # the Goblin's bleu 1 = 💥; Elwen 🛡🛡 + 🛡; 3 flash damage, 1 die of flash defence: noir 1 = 💥
    dice = {"attaque.1": 1, "defense.1": 5, "defense.2": 4, "riposte.1": 1}
    _result, applied = exchange(SHADOWS_1, goblin, hero(riposte=True), dice)
    assert after(applied, goblin).pv == 0
    assert after(applied, goblin).engaged_with == ""
    assert after(applied, hero()).px == 2
    assert applied.story == ("Le Gobelin est tué et retiré du plateau\u202f: Elwen gagne 2\u00a0PX (2 en tout).",)


def test_a_back_attack_wounds_without_engaging() -> None:
    rogue = hero(coup_bas=True, x=3, y=5, facing="nord")
    orc = monster(ORC, x=3, y=4, facing="nord")
    # bleu 1 + bleu 1 = 2 💥, Coup bas +1; the Orc's noir 4 = 🛡, bleu 1 = 💥: 3 − 1 = 2 PV
    result, applied = exchange(TURN_1, rogue, orc, {"attaque.1": 1, "attaque.2": 1, "defense.1": 4, "defense.2": 1})
    assert result.numbers["back_attack"] is True
    assert after(applied, orc).pv == 3
    assert after(applied, rogue).engaged == ()
    assert after(applied, orc).engaged == ()
    assert after(applied, rogue).acted is True


def test_an_attaque_eclair_is_a_reaction_flash_damage_that_neither_engages_nor_spends_the_action() -> None:
    elwen = hero(attaque_eclair=True)
    skeleton = monster(
        {
            "name": "Squelette",
            "pv": 4,
            "pv_max": 4,
            "px": 3,
            "weapon": {"dice": [{"die": "bleu", "count": 2}]},
            "defence": [{"die": "bleu", "count": 2}, {"die": "noir", "count": 1}],
        }
    )
    # bleu 3 = 💥💥, bleu 5 = 🛡⚡ ignored: 2 flash damage; flash defence noir first: noir 4 = 🛡, bleu 6
    dice = {"attaque.1": 3, "attaque.2": 5, "defense.1": 4, "defense.2": 6}
    result, applied = exchange(SHADOWS_1, elwen, skeleton, dice, action="sortie_de_zone")
    assert result.numbers["flash"] is True
    assert after(applied, skeleton).pv == 3
    assert after(applied, elwen).acted is False
    assert after(applied, elwen).stamina == 1
    assert after(applied, elwen).engaged == ()


def test_a_ranged_spell_on_another_target_ends_the_casters_other_engagements() -> None:
    fire = {
        "name": "Trait de feu",
        "reach": "distance",
        "spell": True,
        "unblockable": True,
        "dice": [{"die": "noir", "count": 1}],
    }
    mage = hero(weapon=fire, x=3, y=0, facing="sud", engaged_with="Gobelin")
    orc = monster(ORC, x=3, y=3, facing="nord")
    _result, applied = exchange(TURN_1, mage, orc, {"attaque.1": 3})
    assert after(applied, orc).pv == 2  # 3 unblockable damage
    assert after(applied, mage).engaged == ()
    assert applied.story == (
        # no « everyone » here: the Goblin's grammar is unknown, its name is said as typed
        "En attaquant une autre cible à distance ou par un sort, Elwen rompt son engagement avec Gobelin.",
    )


def test_a_shot_at_another_target_frees_the_figure_the_shooter_was_engaged_with() -> None:
    fire = {
        "name": "Trait de feu",
        "reach": "distance",
        "spell": True,
        "unblockable": True,
        "dice": [{"die": "noir", "count": 1}],
    }
    mage = hero(weapon=fire, x=3, y=0, facing="sud", engaged_with="Gobelin")
    goblin = monster(x=2, y=0, engaged_with="Elwen")
    orc = monster(ORC, x=3, y=3, facing="nord")
    bindings = {"attacker": (mage,), "defender": (orc,)}
    scenario = page(bindings, TURN_1)
    result = play(scenario, {"attaque.1": 3})
    applied = enc.apply(scenario, result, bindings, TURN_1, everyone=(mage, goblin, orc))
    assert after(applied, goblin).engaged == ()
    assert "Le Gobelin n'est plus engagé avec Elwen." in applied.story


def test_a_death_frees_the_third_figure_the_dead_was_engaged_with() -> None:
    elwen = hero(x=1, y=1, facing="sud", engaged_with="Gobelin")
    goblin = monster(x=1, y=2, facing="nord", pv=1, engaged_with="Elwen, Orc")
    orc = monster(ORC, x=2, y=2, engaged_with="Gobelin")
    bindings = {"attacker": (elwen,), "defender": (goblin,)}
    scenario = page(bindings, TURN_1)
    result = play(scenario, {"attaque.1": 2, "attaque.2": 2, "defense.1": 0})
    assert result.numbers["defender_killed"] is True
    applied = enc.apply(scenario, result, bindings, TURN_1, everyone=(elwen, goblin, orc))
    assert after(applied, orc).engaged == ()
    assert "L'Orc n'est plus engagé avec le Gobelin." in applied.story


def test_an_impossible_exchange_and_a_success_test_write_nothing() -> None:
    bow = {"name": "Arc court", "reach": "distance", "dice": [{"die": "bleu", "count": 2}]}
    archer, goblin = hero(weapon=bow, x=1, y=1), monster(x=1, y=2)
    result, applied = exchange(TURN_1, archer, goblin, {})
    assert result.outcome == "impossible"
    assert applied.states == {}
    assert applied.clock is None
    assert applied.notes == ("Échange impossible\u202f: rien n'est écrit aux fiches.",)
    result, applied = exchange(TURN_1, hero(), None, {"test": 6}, action="test_de_reussite")
    assert result.outcome == "deux_eclairs"
    assert applied.states == {}


def test_a_target_left_unbound_gets_nothing_written_and_nothing_breaks() -> None:
    elwen = hero()
    _result, applied = exchange(TURN_1, elwen, None, {"attaque.1": 3, "attaque.2": 2, "defense.1": 4})
    assert set(applied.states) == {"Elwen"}
    assert after(applied, elwen).stamina == 2
    assert after(applied, elwen).engaged == ()  # the page's default Goblin is nobody in the encounter


def test_an_aventurier_changes_weapon_in_his_phase_and_keeps_his_gear_in_the_shadows_phase() -> None:
    elwen, goblin = hero(), monster()
    bow = {
        "attacker__weapon__name": "Hache de bataille",
        "attacker__weapon__dice__0__die": "noir",
        "attacker__weapon__dice__0__count": 2,
        "attacker__weapon__dice__1__count": 1,
    }
    _result, applied = exchange(
        TURN_1, elwen, goblin, {"attaque.1": 4, "attaque.2": 4, "attaque.3": 4, "defense.1": 4}, **bow
    )
    weapon = after(applied, elwen).weapon
    assert weapon.name == "Hache de bataille"
    assert [(g.die, g.count) for g in weapon.dice if g.count] == [("noir", 2), ("bleu", 1)]
    # the Goblin strikes in the Maître des Ombres' phase; the page says Elwen wears a « Harnois »
    harness = {"defender__defence__0__count": 2}
    _result, applied = exchange(
        SHADOWS_1, goblin, elwen, {"attaque.1": 4, "defense.1": 4, "defense.2": 4, "defense.3": 4}, **harness
    )
    assert after(applied, elwen).defence == elwen.state.defence
    assert (
        "Elwen garde l'équipement de sa fiche pendant la phase du Maître des Ombres\u202f: celui du calculateur "
        "n'y est pas écrit."
    ) in applied.notes


def test_a_square_chosen_on_the_grid_moves_the_attacker_and_the_arrows_turn_both() -> None:
    elwen, goblin = hero(x=3, y=3, facing="sud"), monster(x=3, y=4, facing="nord")
    # on the page, Elwen steps east of the Goblin and looks west; the Goblin turns to her
    changes = {"board__dx": 1, "board__dy": 0, "board__attacker_facing": "ouest", "board__target_facing": "est"}
    _result, applied = exchange(TURN_1, elwen, goblin, {"attaque.1": 4, "attaque.2": 4, "defense.1": 4}, **changes)
    e, g = after(applied, elwen), after(applied, goblin)
    assert (e.x, e.y, e.facing.value) == (4, 4, "ouest")
    assert (g.x, g.y, g.facing.value) == (3, 4, "est")


def test_pv_typed_on_the_page_above_the_sheets_maximum_raise_it_rather_than_break_the_state() -> None:
    elwen, goblin = hero(pv=8), monster()
    _result, applied = exchange(
        TURN_1, goblin, elwen, {"attaque.1": 4, "defense.1": 4, "defense.2": 4}, defender__pv=10
    )
    assert (after(applied, elwen).pv, after(applied, elwen).pv_max) == (10, 10)
    assert "PV maximum d'Elwen relevés à 10 (le calculateur en donnait plus que la fiche)." in applied.notes


def test_a_second_combat_action_in_a_turn_or_outside_ones_phase_is_noted_not_refused() -> None:
    elwen, goblin = hero(acted=True), monster()
    _result, applied = exchange(SHADOWS_1, elwen, goblin, {"attaque.1": 4, "attaque.2": 4, "defense.1": 4})
    assert "Elwen avait déjà fait son action de combat ce tour." in applied.notes
    assert "Elwen agit hors de sa phase\u202f: c'est la phase du Maître des Ombres." in applied.notes


# --- the turn --------------------------------------------------------------------------------------


def test_the_aventuriers_phase_gives_way_to_the_shadows_and_the_shadows_to_the_next_turn() -> None:
    elwen, goblin = hero(acted=True), monster(acted=True)
    brenna = Fighter("Brenna", "Brenna", "aventurier", parse(AventurierState, {"name": "Brenna"}))
    first = RULES.advance((elwen, brenna, goblin), TURN_1, TABLE)
    assert first.clock == SHADOWS_1
    assert first.story == (
        "Fin de la phase des Aventuriers\u202f: place au Maître des Ombres (tour 1).",
        "Sans action de combat ce tour\u202f: Brenna.",
    )
    assert first.states == {}  # nobody's combat action comes back in the middle of a turn
    second = RULES.advance((elwen, brenna, goblin), SHADOWS_1, TABLE)
    assert second.clock == Clock(turn=2, phase=Phase.AVENTURIERS, opening=False)
    assert second.story[0] == "Fin du tour 1\u202f: le tour 2 commence par la phase des Aventuriers."
    assert after(second, elwen).acted is False
    assert after(second, goblin).acted is False
    assert RULES.advance_label(TURN_1) == "Fin de la phase des Aventuriers"
    assert RULES.advance_label(SHADOWS_1) == "Fin du tour 1"
    assert RULES.clock_label(Clock(turn=2)) == "Tour 2 — début de la phase des Aventuriers"
    assert RULES.clock_label(SHADOWS_1) == "Tour 1 — phase du Maître des Ombres"


def test_a_figure_not_engaged_at_the_start_of_the_aventuriers_phase_may_make_an_attaque_d_opportunite() -> None:
    spider = monster(
        {
            "name": "Araignée",
            "pv": 5,
            "pv_max": 5,
            "px": 4,
            "attaque_opportunite": True,
            "weapon": {"diagonals": True, "dice": [{"die": "noir", "count": 1}, {"die": "bleu", "count": 1}]},
        },
        x=3,
        y=2,
        facing="sud",
    )
    elwen = hero(x=3, y=3, facing="nord")
    applied = RULES.advance((spider, elwen), SHADOWS_1, TABLE)
    assert applied.clock == Clock(turn=2, phase=Phase.AVENTURIERS, opening=True)
    assert after(applied, spider).opportunity is True
    assert (
        "L'Araignée, libre de tout engagement, peut porter une Attaque d'opportunité (Elwen dans sa zone d'attaque)."
        in applied.story
    )
    spider = moved(spider, after(applied, spider))
    opening = applied.clock
    assert RULES.status((spider, elwen), opening) == (
        "Début de la phase des Aventuriers\u202f: Attaque d'opportunité possible pour l'Araignée.",
    )
    assert "Attaque d'opportunité possible" in RULES.badges(spider, opening, TABLE)
    page_ = RULES.page("aventuriers")
    assert page_.suggest is not None
    assert page_.suggest("attacker", (elwen, spider), opening) == ("Araignée",)
    assert enc.fill({"attacker": (spider,), "defender": (elwen,)}, opening)["action"] == "debut_de_phase"
    # noir 3 = 💥💥💥, bleu 3 = 💥💥: 5 flash damage; Elwen's flash defence, 2 dice: noir 4 = 🛡, bleu 1 = 💥
    result, struck = exchange(opening, spider, elwen, {"attaque.1": 3, "attaque.2": 3, "defense.1": 4, "defense.2": 1})
    assert result.numbers["flash"] is True
    assert after(struck, elwen).pv == 4
    assert after(struck, spider).opportunity is False
    assert after(struck, spider).acted is False  # a reaction, not its combat action
    assert struck.clock is None  # other figures may still strike at the start of the phase
    assert after(struck, elwen).engaged == ()  # flash damage does not engage
    # engaged, or no enemy in its attack zone: no Attaque d'opportunité
    engaged = RULES.advance(
        (moved(spider, replace(spider.state, engaged_with="Elwen")), hero(x=3, y=3, engaged_with="Araignée")),
        SHADOWS_1,
        TABLE,
    )
    assert engaged.clock == Clock(turn=2, phase=Phase.AVENTURIERS, opening=False)
    alone = RULES.advance((spider, hero(x=8, y=8)), SHADOWS_1, TABLE)
    assert alone.clock is not None
    assert alone.clock.opening is False


def test_the_end_of_a_phase_ends_the_engagements_the_board_or_a_death_has_ended() -> None:
    elwen = hero(x=1, y=1, facing="sud", engaged_with="Gobelin, Orc, Rat, Squelette")
    goblin = monster(x=1, y=2, facing="nord", engaged_with="Elwen")  # still face to face
    orc = monster(ORC, x=5, y=5, engaged_with="Elwen")  # walked away
    rat = monster({**GOBLIN, "name": "Rat"}, pv=0, engaged_with="Elwen")  # dead
    skeleton = monster({**GOBLIN, "name": "Squelette"}, x=2, y=1)  # does not name Elwen
    applied = RULES.advance((elwen, goblin, orc, rat, skeleton), TURN_1, TABLE)
    assert after(applied, elwen).engaged == ("Gobelin",)
    assert after(applied, orc).engaged == ()
    assert after(applied, rat).engaged == ()
    assert "Gobelin" not in applied.states
    story = set(applied.story)
    assert (
        "L'engagement entre Elwen et l'Orc prend fin\u202f: aucun des deux n'est plus dans la zone d'attaque de l'autre."
        in story
    )
    assert "L'engagement entre Elwen et le Rat prend fin\u202f: le Rat n'est plus en jeu." in story
    assert (
        "L'engagement entre Elwen et le Squelette prend fin\u202f: le Squelette ne se dit plus engagé avec Elwen."
        in story
    )
    # side by side but both turned away: neither stands in the other's attack zone
    back_to_back = RULES.advance(
        (hero(x=1, y=1, facing="nord", engaged_with="Gobelin"), monster(x=1, y=2, facing="sud", engaged_with="Elwen")),
        TURN_1,
        TABLE,
    )
    assert back_to_back.states["Elwen"].engaged == ()


def test_the_shadows_phase_suggests_a_monster_that_has_not_acted_and_the_aventurier_it_is_engaged_with() -> None:
    goblin = monster(acted=True)
    orc = monster(ORC, x=4, y=4, engaged_with="Brenna")
    elwen = hero(x=4, y=6)
    brenna = Fighter(
        "Brenna",
        "Brenna",
        "aventurier",
        parse(AventurierState, {"name": "Brenna", "x": 4, "y": 5, "engaged_with": "Orc"}),
    )
    page_ = RULES.page("aventuriers")
    assert page_.suggest is not None
    everyone = (elwen, brenna, goblin, orc)
    assert page_.suggest("attacker", everyone, SHADOWS_1) == ("Orc",)
    assert page_.suggest("defender", everyone, SHADOWS_1) == ("Brenna",)
    assert page_.suggest("attacker", everyone, TURN_1) == ("Elwen",)
    assert page_.suggest("defender", everyone, TURN_1) == ("Orc",)  # the nearest Monster standing


def test_gauges_badges_and_notices_read_the_states() -> None:
    elwen = hero(px=7, acted=True, x=2, y=3, facing="est", engaged_with="Orc", riposte=True)
    assert [(b.field, b.value, b.maximum) for b in RULES.bars(elwen)] == [("pv", 8, 8), ("stamina", 1, 0), ("px", 7, 0)]
    assert [b.field for b in RULES.bars(monster())] == ["pv"]
    assert RULES.badges(elwen, TURN_1, TABLE) == ("a agi", "case 2, 3 · Est →", "Riposte")
    assert RULES.conditions is not None
    # the engagement is a chip (issue 16), ended by hand on both figures
    assert [(c.path, c.label, c.lift) for c in RULES.conditions.chips(elwen, TURN_1)] == [
        ("engaged_with=Orc", "Engagé avec Orc", "Désengager")
    ]
    assert RULES.badges(monster(), TURN_1, TABLE) == ("2\u00a0PX",)
    fallen = hero(pv=0)
    assert RULES.badges(fallen, TURN_1, TABLE) == ("0 PV — hors de combat",)
    assert RULES.status((elwen, monster(pv=0)), TURN_1) == (
        "Tous les monstres sont retirés du plateau\u202f: le combat est gagné.",
        "Elwen se dit engagé avec Orc, qui n'est plus en jeu\u202f: ce sera réglé à la fin de la phase.",
    )
    assert RULES.status((fallen, monster()), TURN_1) == (
        "Plus aucun aventurier debout\u202f: le Maître des Ombres l'emporte.",
    )


# --- a fight over two turns --------------------------------------------------------------------------


def test_elwen_against_a_goblin_and_an_orc_over_two_turns() -> None:
    """The examples' dice, chained: each exchange starts from the states the previous one wrote."""
    clock = Clock(turn=1, phase=Phase.AVENTURIERS, opening=True)
    elwen = hero(x=3, y=3, facing="sud", riposte=True)
    goblin = monster(x=3, y=4, facing="nord")
    orc = monster(ORC, x=4, y=4, facing="nord")
    everyone = lambda: (elwen, goblin, orc)  # noqa: E731 - read after each exchange

    def write(applied: Applied) -> None:
        nonlocal elwen, goblin, orc, clock
        elwen, goblin, orc = (moved(f, applied.states.get(f.key, f.state)) for f in everyone())
        clock = applied.clock or clock

    # Turn 1, Aventuriers: Elwen strikes the Goblin, 3 − 1 = 2 PV, +1 stamina, both engaged
    write(exchange(clock, elwen, goblin, {"attaque.1": 3, "attaque.2": 2, "defense.1": 4})[1])
    assert (goblin.state.pv, elwen.state.stamina, elwen.state.engaged) == (1, 2, ("Gobelin",))
    write(RULES.advance(everyone(), clock, TABLE))
    assert clock == SHADOWS_1
    # Maître des Ombres: the Orc (front-left of Elwen: she is in its zone) strikes; 💥💥 against 🛡🛡 + 🛡,
    # Elwen loses nothing, her Riposte: 3 flash damage, the Orc's 2 dice: noir 4 = 🛡, bleu 1 = 💥 → 2 PV
    dice = {"attaque.1": 2, "defense.1": 5, "defense.2": 4, "riposte.1": 4, "riposte.2": 1}
    write(exchange(clock, orc, elwen, dice)[1])
    assert (orc.state.pv, elwen.state.pv) == (3, 8)
    assert set(elwen.state.engaged) == {"Gobelin", "Orc"}
    assert orc.state.acted
    # the Goblin: bleu 3 = 💥💥 against noir 4 = 🛡 and bleu 6 = ⚡⚡: 1 PV, +2 stamina; no Riposte (a PV lost)
    write(exchange(clock, goblin, elwen, {"attaque.1": 3, "defense.1": 4, "defense.2": 6})[1])
    assert (elwen.state.pv, elwen.state.stamina) == (7, 4)
    write(RULES.advance(everyone(), clock, TABLE))
    assert clock == Clock(turn=2, phase=Phase.AVENTURIERS, opening=False)
    assert not (elwen.state.acted)
    assert not (goblin.state.acted)
    assert not (orc.state.acted)
    # Turn 2: Elwen finishes the Goblin (💥 + 💥 on 1 PV): 2 PX; still engaged with the Orc
    write(exchange(clock, elwen, goblin, {"attaque.1": 1, "attaque.2": 1, "defense.1": 6})[1])
    assert goblin.state.pv == 0
    assert RULES.is_out(goblin)
    assert (elwen.state.px, elwen.state.engaged) == (2, ("Orc",))
    assert orc.state.engaged == ("Elwen",)
    assert RULES.status(everyone(), clock) == ()
