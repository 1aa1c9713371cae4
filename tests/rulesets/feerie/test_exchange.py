"""The exchange engine, rule by rule (seed 004, « Le combat »)."""

from __future__ import annotations

import dataclasses

import pytest

from rulesets.core.dice import fixed_roll
from rulesets.core.results import Result
from rulesets.feerie.engine import derive, dice_for, resolve
from rulesets.feerie.examples import lutin, wichtln
from rulesets.feerie.model import (
    Attribute,
    AttributeKind,
    Blow,
    BlowKind,
    CoAttacker,
    Combatant,
    Cover,
    CoverMode,
    DiceTerm,
    Exchange,
    Mode,
    Modifiers,
    Mount,
    Movement,
    Pace,
    Situation,
    Tactic,
    scale_tactic,
)

PLAIN = Combatant(name="A", vigilance=15, habilete=20, puissance=10, resistance=10, taille=0, essence=30)
TARGET = Combatant(name="B", vigilance=12, habilete=14, puissance=12, resistance=10, taille=0, essence=30)


def run(s: Exchange, plus: int = 10, minus: int = 10) -> Result:
    return resolve(s, fixed_roll({"plus.1": plus, "moins.1": minus}))


def ex(**kwargs: object) -> Exchange:
    base: dict[str, object] = {"attacker": PLAIN, "defender": TARGET}
    base.update(kwargs)
    return Exchange(**base)  # type: ignore[arg-type]


def sit(**kwargs: object) -> Situation:
    return Situation(**kwargs)  # type: ignore[arg-type]


# --- the Wichtln, step by step -------------------------------------------------------------------


def test_the_wichtln_initiative_is_his_vigilance_alone() -> None:
    assert derive(Exchange(attacker=wichtln(), defender=lutin())).attacker_initiative.total == 15


def test_the_wichtln_melee_attack_is_habilete_plus_hammer() -> None:
    dv = derive(Exchange(attacker=wichtln(), defender=lutin()))
    assert dv.attack.total == 23
    assert [(t.label, t.value) for t in dv.attack.terms] == [
        ("Habileté (au contact)", 20),
        ("Accessoire «\u202fmarteau\u202f»", 3),  # the Attribut's name as a label (issue 15)
    ]


def test_the_wichtln_ranged_attack_is_vigilance_alone() -> None:
    assert derive(Exchange(attacker=wichtln(ranged=True), defender=lutin(), mode=Mode.RANGED)).attack.total == 15


def test_the_wichtln_defense_is_habilete_minus_taille_plus_hammer() -> None:
    dv = derive(Exchange(attacker=lutin(), defender=wichtln()))
    assert dv.defense.total == 25
    assert [t.value for t in dv.defense.terms] == [20, 2, 3]


def test_the_wichtln_melee_damage_is_puissance_plus_taille_plus_strength() -> None:
    assert derive(Exchange(attacker=wichtln(), defender=lutin())).damage.total == 12


def test_the_wichtln_ranged_damage_is_puissance_plus_taille_plus_voice_minus_four() -> None:
    dv = derive(Exchange(attacker=wichtln(ranged=True), defender=lutin(), mode=Mode.RANGED))
    assert dv.damage.total == 7
    assert [t.value for t in dv.damage.terms] == [10, -2, 3, -4]


def test_the_wichtln_soak_is_resistance_plus_taille_plus_apron() -> None:
    assert derive(Exchange(attacker=lutin(), defender=wichtln())).soak.total == 15


# --- the attack and its effects ------------------------------------------------------------------


def test_essence_lost_is_half_the_margin_plus_damage_minus_soak() -> None:
    r = run(ex(), plus=15, minus=2)  # 20 + 13 = 33 vs 14: margin 19 → 9 + 10 − 10 = 9
    assert (r.numbers["margin"], r.numbers["raw_damage"], r.numbers["essence_lost"]) == (19, 19, 9)
    assert r.numbers["essence_after"] == 21
    assert r.outcome == "hit"


def test_a_margin_of_zero_hits() -> None:
    r = run(ex(), plus=4, minus=10)  # 20 − 6 = 14 vs 14
    assert r.numbers["margin"] == 0
    assert r.outcome == "hit_no_loss"


def test_a_loss_below_zero_is_no_loss_and_no_gain() -> None:
    tough = dataclasses.replace(TARGET, resistance=40)
    r = run(ex(defender=tough), plus=20, minus=1)
    assert r.numbers["essence_lost"] == 0
    assert r.outcome == "hit_no_loss"


def test_a_failure_is_a_miss() -> None:
    r = run(ex(), plus=1, minus=8)  # 13 vs 14
    assert (r.outcome, r.numbers["margin"], r.numbers["essence_lost"]) == ("miss", -1, 0)


def test_a_very_bad_failure_is_an_incident_with_the_self_inflicted_loss() -> None:
    r = run(ex(), plus=1, minus=20)  # 20 − 19 = 1 vs 14: margin −13 → 6 + 10 − 10 = 6
    assert r.outcome == "incident"
    assert r.numbers["self_loss"] == 6


def test_the_incident_threshold_is_a_setting() -> None:
    assert run(ex(incident_threshold=-14), plus=1, minus=20).outcome == "miss"


def test_a_typed_dice_term_replaces_the_dice() -> None:
    s = ex(term=5)
    assert dice_for(s).slots == ()
    r = resolve(s, fixed_roll({}))
    assert (r.numbers["dice_term"], r.numbers["total"]) == (5, 25)


def test_the_dice_term_is_one_d20_minus_one_d20_by_default() -> None:
    keys = dice_for(ex()).keys()
    assert keys == ("plus.1", "moins.1")
    assert [s.die.faces for s in dice_for(ex()).slots] == [tuple(range(1, 21))] * 2


def test_the_dice_term_is_a_setting() -> None:
    s = ex(roll=DiceTerm(plus=2, minus=0, sides=10))
    assert dice_for(s).keys() == ("plus.1", "plus.2")
    r = resolve(s, fixed_roll({"plus.1": 3, "plus.2": 4}))
    assert r.numbers["dice_term"] == 7


# --- attributes, tactics ----------------------------------------------------------------------------


def test_a_non_physical_conflict_ignores_taille() -> None:
    dv = derive(Exchange(attacker=wichtln(), defender=wichtln(), physical=False))
    assert (dv.defense.total, dv.damage.total, dv.soak.total) == (23, 14, 17)


def test_the_attacker_tactic_changes_initiative_and_attack() -> None:
    didimus = dataclasses.replace(
        PLAIN, attributes=(Attribute("duel", AttributeKind.AFFINITE, 4, attack=True),), tactic=Tactic(4, -2, -2)
    )
    dv = derive(ex(attacker=didimus))
    assert (dv.attacker_initiative.total, dv.attack.total, dv.attacker_defense.total) == (19, 22, 18)


def test_the_defender_tactic_changes_his_defense() -> None:
    d = dataclasses.replace(
        TARGET, attributes=(Attribute("couardise", AttributeKind.AFFINITE, 3, defense=True),), tactic=Tactic(0, -3, 3)
    )
    assert derive(ex(defender=d)).defense.total == 20


def test_scaling_a_named_tactic_keeps_it_zero_sum_and_within_the_cap() -> None:
    for cap in range(0, 12):
        for preset in ((4, -2, -2), (-4, 1, 3), (1, -4, 3), (2, 2, -4), (3, -4, 1)):
            t = scale_tactic(*preset, reference_cap=4, cap=cap)
            assert t.initiative + t.attack + t.defense == 0
            assert max(abs(t.initiative), abs(t.attack), abs(t.defense)) <= cap
    assert scale_tactic(-2, 4, -2, reference_cap=4, cap=4) == Tactic(-2, 4, -2)
    assert scale_tactic(-2, 4, -2, reference_cap=4, cap=8) == Tactic(-4, 8, -4)


def test_occasional_modifiers_add_to_every_quantity() -> None:
    a = dataclasses.replace(PLAIN, modifiers=Modifiers(initiative=1, attack=2, damage=3))
    d = dataclasses.replace(TARGET, modifiers=Modifiers(defense=-1, soak=4))
    dv = derive(ex(attacker=a, defender=d))
    assert (dv.attacker_initiative.total, dv.attack.total, dv.damage.total, dv.defense.total, dv.soak.total) == (
        16,
        22,
        13,
        13,
        14,
    )


# --- situations ------------------------------------------------------------------------------------------


def test_a_surprised_defender_loses_eight_initiative_and_four_defense() -> None:
    dv = derive(ex(situation=sit(surprised=True)))
    assert (dv.defender_initiative.total, dv.defense.total) == (4, 10)


def test_an_ambush_gives_the_attacker_half_his_stealth_margin_in_initiative() -> None:
    assert derive(ex(situation=sit(ambush_margin=7))).attacker_initiative.total == 18


def test_each_occupied_angle_beyond_the_first_costs_two_defense() -> None:
    dv = derive(ex(situation=sit(co_attackers=(CoAttacker(2, 0),))))
    assert dv.crowd is not None
    assert dv.crowd.occupied_angles == 3
    assert dv.defense.total == 10


def test_an_attacker_who_finds_no_free_angle_is_refused_on_its_field() -> None:
    # issue 14: an overflow is a field error, no longer an event beside a malus not applied
    s = ex(situation=sit(open_angles=2, co_attackers=(CoAttacker(2, 2),)))
    assert "Plus de place" in s.check()["situation.co_attackers.0.count"]


def test_moving_costs_the_coordination_malus_and_a_charge_adds_damage() -> None:
    trot = Movement(Pace.TROT, malus=-4, charge_bonus=2, divisor=3)
    dv = derive(ex(situation=sit(movement=trot, charge=True)))
    assert (dv.attack.total, dv.damage.total) == (16, 12)
    assert dv.notes[0].data["distance"] == 6  # (20 + 0) // 3


def test_moving_without_charging_adds_no_damage() -> None:
    run_ = Movement(Pace.RUN, malus=-8, charge_bonus=4, divisor=2)
    dv = derive(ex(situation=sit(movement=run_)))
    assert (dv.attack.total, dv.damage.total) == (12, 10)


def test_lighting_is_doubled_at_range() -> None:
    assert derive(ex(situation=sit(lighting=-4))).attack.total == 16
    assert derive(ex(mode=Mode.RANGED, situation=sit(lighting=-4))).attack.total == 7


def test_ranged_difficulty_and_range_modify_the_target_defense() -> None:
    dv = derive(ex(mode=Mode.RANGED, situation=sit(difficulty=8, range_modifier=4)))
    assert dv.defense.total == 26


def test_aiming_gives_one_per_rank_and_terrain_and_target_movement_count() -> None:
    trot = Movement(Pace.TROT, malus=-4)
    dv = derive(ex(mode=Mode.RANGED, situation=sit(aim_ranks=8, terrain=-12, target_movement=trot)))
    assert dv.attack.total == 15 + 8 - 12 - 2


def test_cover_exposed_parts_raise_the_defense_like_an_apparent_size() -> None:
    assert derive(ex(situation=sit(cover=Cover(CoverMode.EXPOSED, exposed_modifier=4)))).defense.total == 18


def test_striking_through_cover_adds_a_share_of_the_owner_soak_and_the_opacity_malus() -> None:
    cover = Cover(CoverMode.THROUGH, material="Cloison de bois", quarters=3, owner_encaissement=18, opacity_malus=-8)
    dv = derive(ex(situation=sit(cover=cover)))
    assert (dv.soak.total, dv.attack.total) == (10 + 13, 12)


def test_a_cover_created_by_influence_adds_its_own_bonus() -> None:
    cover = Cover(CoverMode.THROUGH, influence_bonus=6, opacity_malus=-4)
    assert derive(ex(situation=sit(cover=cover))).soak.total == 16


def test_a_helpless_defender_has_zero_defense_and_the_whole_attack_is_margin() -> None:
    r = run(ex(situation=sit(defender_helpless=True)))
    assert (r.numbers["defense"], r.numbers["margin"], r.numbers["essence_lost"]) == (0, 20, 10)


def test_an_inanimate_object_takes_a_damage_roll_without_attack() -> None:
    s = ex(situation=sit(target_inanimate=True, object_encaissement=8))
    r = run(s, plus=6, minus=2)  # 10 + 4 − 8 = 6
    assert (r.outcome, r.numbers["essence_lost"]) == ("object_damaged", 6)
    assert run(s, plus=1, minus=20).outcome == "incident"
    assert run(s, plus=1, minus=4).outcome == "object_unharmed"


# --- mounted combat ------------------------------------------------------------------------------------------


def test_a_footman_attacking_a_rider_has_four_plus_mount_minus_his_taille_malus() -> None:
    rider = dataclasses.replace(TARGET, mount=Mount(True, "Hippogriffe", taille=2, habilete=16))
    assert derive(ex(defender=rider)).attack.total == 20 - 6


def test_the_footman_malus_never_becomes_a_bonus() -> None:
    giant = dataclasses.replace(PLAIN, taille=5)
    rider = dataclasses.replace(TARGET, mount=Mount(True, "Poney", taille=-1, habilete=10))
    assert derive(ex(attacker=giant, defender=rider)).attack.total == 20


def test_a_rider_who_does_not_attack_defends_with_the_mount_habilete_minus_his_taille() -> None:
    rider = dataclasses.replace(TARGET, taille=-2, mount=Mount(True, "Hippogriffe", taille=2, habilete=22))
    assert derive(ex(defender=rider, situation=sit(defender_rider_passive=True))).defense.total == 24


def test_a_mounted_charge_adds_the_mount_taille_and_the_mount_pace_bonus() -> None:
    rider = dataclasses.replace(PLAIN, taille=-2, mount=Mount(True, "Hippogriffe", taille=2, habilete=16))
    gallop = Movement(Pace.RUN, malus=-8, charge_bonus=4, divisor=2)
    assert derive(ex(attacker=rider, situation=sit(movement=gallop, charge=True))).damage.total == 10 - 2 + 2 + 4


def test_a_mounted_charge_on_a_small_mount_uses_the_larger_taille() -> None:
    rider = dataclasses.replace(PLAIN, taille=-3, mount=Mount(True, "Lièvre", taille=-2, habilete=16))
    trot = Movement(Pace.TROT, malus=-4, charge_bonus=2, divisor=3)
    assert derive(ex(attacker=rider, situation=sit(movement=trot, charge=True))).damage.total == 10 - 2 + 2


def test_mounted_combat_affinities_are_capped_by_the_riding_affinity() -> None:
    rider = dataclasses.replace(
        PLAIN,
        attributes=(Attribute("épée", AttributeKind.AFFINITE, 5, attack=True),),
        mount=Mount(True, "Cheval", taille=1, habilete=12, riding_affinity=2),
    )
    assert derive(ex(attacker=rider)).attack.total == 22


# --- the ten special blows ------------------------------------------------------------------------------------


def blow(kind: BlowKind, malus: int = 0, **kw: int) -> Blow:
    return Blow(kind, attack_malus=malus, **kw)  # type: ignore[arg-type]


def test_disarm_uses_the_defender_puissance_and_takes_no_essence() -> None:
    r = run(ex(blows=(blow(BlowKind.DISARM, -8),)), plus=20, minus=1)
    assert r.numbers["defense"] == 12  # Puissance 12
    assert r.numbers["attack"] == 12
    assert (r.outcome, r.numbers["essence_lost"], r.numbers["effect_desarmer"]) == ("blow", 0, 1)


def test_trip_puts_the_defender_down_at_minus_four() -> None:
    r = run(ex(blows=(blow(BlowKind.TRIP, -6, effect_value=4),)), plus=20, minus=1)
    assert r.numbers["attack"] == 14
    assert r.numbers["effect_faire_tomber"] == -4


def test_entangle_inflicts_a_malus_equal_to_the_margin() -> None:
    r = run(ex(blows=(blow(BlowKind.ENTANGLE, -8, ranged_attack_malus=-12),)), plus=20, minus=1)
    assert r.numbers["margin"] == 17
    assert r.numbers["effect_entraver"] == -17


def test_entangle_at_range_has_its_own_malus_and_damage_based_difficulty() -> None:
    r = run(ex(mode=Mode.RANGED, blows=(blow(BlowKind.ENTANGLE, -8, ranged_attack_malus=-12),)), plus=1, minus=1)
    assert r.numbers["attack"] == 3
    assert r.outcome == "incident"  # 3 vs 14: margin −11
    r = run(ex(mode=Mode.RANGED, blows=(blow(BlowKind.ENTANGLE, -8, ranged_attack_malus=-12),), term=15))
    # 3 + 15 = 18 vs 14: margin 4; difficulty to break free = 6 + 2 = 8
    assert r.numbers["raw_damage"] == 8
    assert "contre 8" in r.events_of("blow")[0].label


def test_stun_turns_the_would_be_loss_into_a_malus() -> None:
    r = run(ex(blows=(blow(BlowKind.STUN, -4),)), plus=20, minus=1)  # 16 + 19 − 14 = 21 → 10 + 10 − 10 = 10
    assert (r.numbers["essence_lost"], r.numbers["effect_etourdir"]) == (0, -10)


def test_hold_off_malus_shrinks_with_a_bigger_attacker_and_needs_no_bigger_defender() -> None:
    big = dataclasses.replace(PLAIN, taille=3)
    r = run(ex(attacker=big, blows=(blow(BlowKind.HOLD_OFF, -12, effect_value=8),)), plus=20, minus=1)
    assert r.numbers["attack"] == 20 - 12 + 3
    assert r.numbers.get("effect_tenir_en_respect") == -8


def test_entering_the_guard_malus_shrinks_with_a_bigger_defender() -> None:
    big = dataclasses.replace(TARGET, taille=2)
    r = run(ex(defender=big, blows=(blow(BlowKind.INSIDE_GUARD, -12, effect_value=8),)), plus=20, minus=1)
    assert r.numbers["attack"] == 20 - 12 + 2


def test_cripple_needs_one_point_of_essence_and_lasts_the_damage_in_ranks() -> None:
    r = run(ex(blows=(blow(BlowKind.CRIPPLE, -12),)), plus=20, minus=1)  # 27 vs 14: 13 → 6 + 10 = 16 raw, 6 lost
    assert (r.numbers["raw_damage"], r.numbers["effect_handicaper"], r.numbers["essence_lost"]) == (16, 16, 0)
    tough = dataclasses.replace(TARGET, resistance=40)
    assert (
        run(ex(defender=tough, blows=(blow(BlowKind.CRIPPLE, -12),)), plus=20, minus=1).numbers["effect_handicaper"]
        == 0
    )


def test_relentless_adds_a_quarter_of_the_previous_loss_and_costs_eight_defense() -> None:
    r = run(ex(previous_loss=9, blows=(blow(BlowKind.RELENTLESS, 0, defense_malus=-8),)), plus=15, minus=2)
    assert r.numbers["damage"] == 12
    assert r.outcome == "hit"
    assert r.numbers["essence_lost"] == 9 + 12 - 10
    assert any(e.data.get("quantity") == "attacker_defense" and e.kind == "total" and e.value == "12" for e in r.events)


def test_frightening_and_knockback_count_one_per_four_points_of_damage() -> None:
    r = run(
        ex(blows=(blow(BlowKind.FRIGHTENING, -4, effect_value=4), blow(BlowKind.KNOCKBACK, -8, effect_value=4))),
        plus=20,
        minus=1,
    )
    # 20 − 12 + 19 = 27 vs 14: margin 13 → 6 + 10 = 16 → 4
    assert (r.numbers["effect_coup_effrayant"], r.numbers["effect_vol_plane"]) == (-4, 4)


def test_several_special_blows_add_their_malus() -> None:
    r = run(ex(blows=(blow(BlowKind.TRIP, -6), blow(BlowKind.STUN, -4))))
    assert r.numbers["attack"] == 10


# --- events ---------------------------------------------------------------------------------------------------


def test_every_event_cites_the_seed_and_names_a_panel_section() -> None:
    r = run(Exchange())
    assert r.events
    for e in r.events:
        assert e.rule
        assert e.group
        assert e.label


@pytest.mark.parametrize(("plus", "minus", "tone"), [(20, 1, "success"), (2, 10, "failure")])
def test_the_tone_follows_the_outcome(plus: int, minus: int, tone: str) -> None:
    assert run(ex(), plus, minus).tone == tone


def test_the_redcap_may_shift_his_competences_by_seven_and_chooses_plus_seven_minus_two_minus_five() -> None:
    redcap = dataclasses.replace(
        PLAIN,
        name="Redcap",
        attributes=(
            Attribute("hache", AttributeKind.AFFINITE, 3, attack=True),
            Attribute("massacre", AttributeKind.AFFINITE, 4, attack=True),
        ),
        tactic=Tactic(initiative=-2, attack=7, defense=-5),
    )
    assert redcap.tactic_cap() == 7
    assert redcap.check() == {}
    dv = derive(ex(attacker=redcap))
    assert (dv.attacker_initiative.total, dv.attack.total, dv.attacker_defense.total) == (13, 34, 15)
    too_far = dataclasses.replace(redcap, tactic=Tactic(initiative=-3, attack=8, defense=-5))
    assert set(too_far.check()) == {"tactic.attack"}


def test_sire_didimus_named_tactics_fit_his_cap_of_four() -> None:
    from rulesets.feerie.examples import SEED_TACTICS

    didimus = dataclasses.replace(
        PLAIN, attributes=(Attribute("duel", AttributeKind.AFFINITE, 4, attack=True, defense=True),)
    )
    for _key, _name, i, a, d in SEED_TACTICS:
        assert dataclasses.replace(didimus, tactic=Tactic(i, a, d)).check() == {}, _name
