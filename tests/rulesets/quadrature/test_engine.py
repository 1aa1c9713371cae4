"""Step-by-step tests of each rule of « 🐉 Adversaires », one special rule per test."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from rulesets.core.dice import fixed_roll
from rulesets.core.schema import ScenarioError, parse, to_data
from rulesets.quadrature.dice import adversary_steps, pc_score
from rulesets.quadrature.engine import dice_for, resolve
from rulesets.quadrature.model import (
    Adversary,
    Block,
    Capability,
    Card,
    Effect,
    GuardType,
    HordeMood,
    HordeRules,
    Kind,
    Mental,
    Mode,
    MoodDirection,
    Part,
    Pc,
    PcSource,
    PlayerFaces,
    Rung,
    Scenario,
    Settings,
    Traits,
)
from rulesets.quadrature.sheet import (
    armour_bonus,
    card_available,
    card_cost,
    horde_mood,
    shift_rungs,
    threat,
)

from .helpers import BASE, PRUDENT, attack, hit, kinds, sheet_after, with_ticks

D, M, N = Rung.DANGER, Rung.MENACE, Rung.NUISANCE


# --- dice and crans ------------------------------------------------------------------------------


def test_one_step_up_turns_the_lowest_ranked_die_one_rung_up():
    assert shift_rungs([M, M, N, N], 1) == [M, M, M, N]


def test_one_step_down_turns_the_highest_ranked_die_one_rung_down():
    assert shift_rungs([D, M, M, M], -1) == [M, M, M, M]


def test_panicked_two_steps_down_degrade_two_dice():
    assert shift_rungs([M, M, M, M], -2) == [M, M, N, N]


def test_a_die_already_at_the_top_or_bottom_rung_stays_there():
    assert shift_rungs([D, D, D, D], 1) == [D, D, D, D]
    assert shift_rungs([N, N, N, N], -1) == [N, N, N, N]


def test_steps_of_different_sources_add_up_before_they_are_applied():
    steps = adversary_steps(replace(BASE, mental=Mental.ENRAGE), BASE.deck[1], -1, Pc(), Settings())
    assert sum(s.steps for s in steps) == 0


def test_the_adversary_dice_slots_follow_the_shifted_rungs_highest_first():
    s = Scenario(adversary=BASE)  # Agressif ⬆ on 🟫⬜⬜⬜
    spec = dice_for(s)
    assert [sl.key for sl in spec.slots] == ["adv.1", "adv.2", "adv.3", "adv.4"]
    assert [sl.die.faces for sl in spec.slots] == [(2, 3, 3, 4, 4, 5)] * 2 + [(0, 1, 2, 3, 4, 5)] * 2


def test_a_typed_face_that_the_shifted_die_does_not_have_is_refused():
    from rulesets.core.registry import get
    from rulesets.core.request import resolve as request_resolve

    request = {"scenario": to_data(Scenario(adversary=BASE)), "dice": {"adv.1": "0"}}
    with pytest.raises(ScenarioError) as err:
        request_resolve(get("quadrature"), request)
    assert "n'est pas une face du dé" in err.value.errors["dice.adv.1"]


def test_a_tie_with_the_garde_is_a_success():
    result = attack(PRUDENT, 2, 10, [4, 3, 2, 1])
    assert result.numbers["total"] == 10
    assert result.outcome == "success"


def test_adversaries_never_have_a_defaut_even_with_zeros():
    result = attack(PRUDENT, 2, 20, [2, 0, 0, 0])
    assert result.outcome == "failure"
    assert "defaut" not in " ".join(kinds(result))
    assert result.numbers["pc_light"] == 1


def test_more_than_four_dice_keep_the_four_highest_and_count_fives_among_them():
    adv = replace(PRUDENT, danger=0, menace=6)
    result = attack(adv, 2, 30, [5, 5, 5, 5, 5, 0])
    assert result.numbers["total"] == 20
    assert result.numbers["fives"] == 4


def test_star_needs_as_many_fives_as_the_card_requires():
    card = Card("Double cinq", 1, 3, star_fives=2, star=Effect(bleed=1), success=Effect(light=1))
    adv = replace(PRUDENT, deck=(card,), parts=(Part("Corps"),), blocks=(Block(4),))
    one = attack(adv, 1, 5, [5, 4, 3, 2])
    two = attack(adv, 1, 5, [5, 5, 3, 2])
    assert (one.numbers["star"], one.numbers["pc_bleed"]) == (False, 0)
    assert (two.numbers["star"], two.numbers["pc_bleed"]) == (True, 1)
    assert "star_missed" in kinds(one)


def test_matchup_advantage_for_an_adversary_upgrades_a_die_instead_of_adding_one():
    s = Scenario(adversary=PRUDENT, matchup=1)
    assert [sl.die.name for sl in dice_for(s).slots] == ["Danger 🟫", "Danger 🟫", "Menace ⬜", "Menace ⬜"]


def test_each_mental_state_shifts_the_dice_as_the_table_says():
    counts = {}
    for mental in Mental:
        rungs = [sl.die.name for sl in dice_for(Scenario(adversary=replace(BASE, mental=mental))).slots]
        counts[mental] = rungs.count("Danger 🟫"), rungs.count("Nuisance 🟧")
    assert counts[Mental.ENRAGE] == (2, 0)
    assert counts[Mental.AGRESSIF] == (2, 0)
    assert counts[Mental.PRUDENT] == (1, 0)
    assert counts[Mental.PANIQUE] == (0, 1)


def test_playing_a_card_pays_its_fatigue_cost_from_endurance_first():
    card = Card("Cri", 1, 4, fatigue_cost=3, success=Effect(down=1))
    adv = replace(PRUDENT, deck=(card,), parts=(Part("Corps"),), blocks=(Block(4),), endurance_tokens=2)
    result = attack(adv, 1, 5, [4, 4, 4, 4])
    sheet = sheet_after(result)
    assert (sheet["endurance_tokens"], sheet["fatigue_ticked"]) == (0, 1)


def test_a_fresh_creature_pays_a_fatigue_cost_for_free():
    card = Card("Cri", 1, 4, fatigue_cost=2, success=Effect(down=1))
    adv = replace(PRUDENT, deck=(card,), parts=(Part("Corps"),), blocks=(Block(4),), endurance_tokens=2)
    sheet = sheet_after(attack(adv, 1, 5, [4, 4, 4, 4]))
    assert (sheet["endurance_tokens"], sheet["fatigue_ticked"]) == (0, 0)


def test_a_card_whose_cost_would_fill_the_fatigue_track_cannot_be_played():
    card = Card("Cri", 1, 4, fatigue_cost=3, success=Effect(down=1))
    adv = replace(
        PRUDENT,
        deck=(card,),
        parts=(Part("Corps"),),
        blocks=(Block(4),),
        endurance_tokens=0,
        fatigue_boxes=5,
        fatigue_ticked=2,
    )
    with pytest.raises(ScenarioError) as err:
        parse(Scenario, to_data(Scenario(adversary=adv, card=1)))
    assert "remplirait la piste de fatigue" in err.value.errors["card"]


def test_an_action_whose_block_is_destroyed_leaves_the_deck():
    adv = with_ticks(BASE, {3: 3})
    assert not card_available(adv, adv.deck[3])
    with pytest.raises(ScenarioError) as err:
        parse(Scenario, to_data(Scenario(adversary=adv, card=4)))
    assert "a quitté le deck" in err.value.errors["card"]


def test_a_destroyed_cost_block_raises_the_card_cost():
    card = Card("Bond", 1, 4, success=Effect(light=2))
    adv = replace(
        PRUDENT,
        deck=(card,),
        parts=(Part("Pattes"),),
        blocks=(Block(2, ticked=2, capability=Capability.ACTION_COST, value=1, label="Bond"), Block(3)),
    )
    assert card_cost(adv, card) == 2
    result = attack(adv, 1, 5, [4, 4, 4, 4])
    assert result.numbers["cost"] == 2
    assert "cost_up" in kinds(result)


def test_an_exhausted_creature_cannot_act():
    adv = replace(BASE, fatigue_ticked=5)
    with pytest.raises(ScenarioError) as err:
        parse(Scenario, to_data(Scenario(adversary=adv)))
    assert "Épuisé" in err.value.errors["adversary.fatigue_ticked"]


def test_exhausting_strike_adds_one_fatigue_on_success_only():
    adv = replace(PRUDENT, traits=Traits(exhausting_strike=True))
    assert attack(adv, 2, 8, [4, 3, 2, 1]).numbers["pc_fatigue"] == 1
    assert attack(adv, 2, 8, [4, 3, 2, 1]).numbers["pc_fatigue_min_boxes"] == 1
    assert attack(adv, 2, 20, [4, 3, 2, 1]).numbers["pc_fatigue"] == 0


def test_bloodthirsty_needs_a_bleeding_target_and_a_physical_action():
    adv = replace(PRUDENT, traits=Traits(bloodthirsty=True))
    gaze = Card("Hurlement", 1, 2, success=Effect(down=1))
    assert sum(s.steps for s in adversary_steps(adv, adv.deck[1], 0, Pc(bleeding=True), Settings())) == 1
    assert sum(s.steps for s in adversary_steps(adv, adv.deck[1], 0, Pc(bleeding=False), Settings())) == 0
    assert sum(s.steps for s in adversary_steps(adv, gaze, 0, Pc(bleeding=True), Settings())) == 0


def test_the_pc_garde_can_be_rolled_from_its_pool():
    s = Scenario(adversary=PRUDENT, card=2, pc=Pc(source=PcSource.ROLLED, characteristic=1, skill=2, advantage=-1))
    keys = [sl.key for sl in dice_for(s).slots]
    assert keys[4:] == ["pc.car.1", "pc.skill.1", "pc.skill.2", "pc.alea", "pc.edge.1"]
    dice = {
        "adv.1": 3,
        "adv.2": 3,
        "adv.3": 3,
        "adv.4": 3,
        "pc.car.1": 4,
        "pc.skill.1": 5,
        "pc.skill.2": 2,
        "pc.alea": 5,
        "pc.edge.1": 1,
    }
    result = resolve(s, fixed_roll(dice))
    assert result.numbers["garde"] == 4 + 5 + 2 + 1  # disadvantage keeps the lower of ⬜/🟥
    assert result.outcome == "success"


# --- the PC's pool ------------------------------------------------------------------------------------


def test_a_zero_characteristic_rolls_one_weak_die_and_skills_pad_with_weak_dice():
    s = Scenario(mode=Mode.PC_ATTACK, pc=Pc(source=PcSource.ROLLED, characteristic=0, skill=0))
    names = [sl.die.name for sl in dice_for(s).slots]
    assert names == ["🟪", "🟪", "🟪", "⬜"]


def test_skill_upgrades_turn_skill_dice_into_danger_dice():
    s = Scenario(mode=Mode.PC_ATTACK, pc=Pc(source=PcSource.ROLLED, characteristic=1, skill=3, skill_upgrades=2))
    names = [sl.die.name for sl in dice_for(s).slots]
    assert names == ["🟦", "🟫", "🟫", "🟨", "⬜"]


def test_the_pc_score_is_best_blue_plus_two_best_skill_dice_plus_alea():
    sc = pc_score((1, 4, 2), (3, 5, 0), (2, 4), 1, PlayerFaces())
    assert sc.score == 4 + 5 + 3 + 4
    assert sc.critique
    assert not sc.defaut


def test_a_kept_zero_on_a_skill_die_is_a_defaut():
    sc = pc_score((3,), (0, 4), (2,), 0, PlayerFaces())
    assert sc.defaut
    assert sc.score == 3 + 4 + 0 + 2


def test_upgrading_more_skill_dice_than_the_skill_is_refused_in_french():
    with pytest.raises(ScenarioError) as err:
        parse(Scenario, {"pc": {"source": "rolled", "skill": 1, "skill_upgrades": 2}})
    assert "compétence" in err.value.errors["pc.skill_upgrades"]


# --- the PC attacks: Garde -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mental", "garde"), [(Mental.ENRAGE, 9), (Mental.AGRESSIF, 11), (Mental.PRUDENT, 12), (Mental.PANIQUE, 12)]
)
def test_the_mental_state_modifies_the_fixed_garde(mental, garde):
    assert hit(replace(BASE, mental=mental), Effect(light=1)).numbers["garde"] == garde


def test_a_missed_attack_applies_the_failure_effect_only():
    s = Scenario(
        mode=Mode.PC_ATTACK, adversary=BASE, pc=Pc(score=3), pc_success=Effect(light=5), pc_failure=Effect(fatigue=1)
    )
    result = resolve(s, fixed_roll({}))
    assert result.outcome == "miss"
    assert result.numbers["boxes_ticked"] == 0
    assert result.numbers["fatigue_added"] == 1


# --- light wounds 💢 -----------------------------------------------------------------------------------------


def test_light_wounds_fill_blocks_top_to_bottom_and_overflow_into_the_next():
    result = hit(with_ticks(BASE, {1: 3}), Effect(light=5))  # 5 − 2 = 3
    sheet = sheet_after(result)
    assert [b["ticked"] for b in sheet["blocks"][1:3]] == [4, 2]
    assert result.numbers["blocks_destroyed"] == 1
    assert sheet["endurance_tokens"] == BASE.endurance_tokens  # tokens stay; regeneration drops next round


def test_wounds_beyond_the_last_block_of_a_part_are_lost():
    result = hit(BASE, Effect(light=10), part=4)  # Pattes: 3 boxes, no armour
    assert result.numbers["boxes_ticked"] == 3
    assert "overflow" in kinds(result)
    assert sheet_after(result)["blocks"][0]["ticked"] == 0


@pytest.mark.parametrize(("light", "passed"), [(1, 1), (2, 1), (3, 1), (4, 2)])
def test_armour_reduces_light_wounds_but_at_least_one_always_passes(light, passed):
    result = hit(BASE, Effect(light=light))  # Corps 🛡️ 2
    assert result.numbers["light_passed"] == passed
    assert result.numbers["boxes_ticked"] == passed


def test_a_heavy_wound_that_cracks_the_plate_lets_the_same_hits_light_wounds_through_unreduced():
    result = hit(BASE, Effect(heavy=1, light=2), part=3)  # Mâchoires 🛡️ 1: the 💔 takes the only plate
    assert sheet_after(result)["parts"][2]["armour_lost"] == 1
    assert result.numbers["light_passed"] == 2


def test_a_carapace_bonus_never_absorbs_a_heavy_wound():
    adv = replace(
        PRUDENT,
        parts=(Part("Carapace", armour=3), Part("Pattes")),
        blocks=(Block(2, capability=Capability.ARMOUR_OTHERS, value=2, part=1), Block(5, part=2), Block(3, part=2)),
    )
    result = hit(adv, Effect(heavy=1), part=2)  # Pattes: no armour of its own, +2 against 💢 only
    assert "armour_box" not in kinds(result)
    assert result.numbers["blocks_destroyed"] == 1
    assert [b["ticked"] for b in sheet_after(result)["blocks"][1:3]] == [5, 0]


def test_cracked_armour_protects_less_against_light_wounds():
    parts = list(BASE.parts)
    parts[1] = replace(parts[1], armour_lost=1)
    assert hit(replace(BASE, parts=tuple(parts)), Effect(light=3)).numbers["light_passed"] == 2


def test_carapace_armour_to_other_parts_stops_when_its_block_is_destroyed():
    adv = replace(
        PRUDENT,
        parts=(Part("Carapace", armour=3), Part("Pattes")),
        blocks=(Block(2, capability=Capability.ARMOUR_OTHERS, value=2, part=1), Block(5, part=2)),
    )
    assert armour_bonus(adv, 1) == 2
    assert armour_bonus(adv, 0) == 0
    assert hit(adv, Effect(light=4), part=2).numbers["light_passed"] == 2
    broken = with_ticks(adv, {0: 2})
    assert hit(broken, Effect(light=4), part=2).numbers["light_passed"] == 4


def test_natural_armour_ignores_small_attacks_but_keeps_minimum_one_above():
    parts = list(PRUDENT.parts)
    parts[1] = replace(parts[1], armour=3, natural_armour=True)
    adv = replace(PRUDENT, parts=tuple(parts))
    assert hit(adv, Effect(light=2)).numbers["boxes_ticked"] == 0
    assert hit(adv, Effect(light=3)).numbers["boxes_ticked"] == 1
    assert hit(adv, Effect(light=5)).numbers["boxes_ticked"] == 2


# --- heavy wounds 💔 -------------------------------------------------------------------------------------------


def test_the_heavy_wound_chain_goes_evasion_then_armour_then_block():
    blocks = (
        *PRUDENT.blocks[:3],
        Block(3, part=3),
        Block(2, capability=Capability.ACTION, label="Morsure", part=3),
        PRUDENT.blocks[4],
    )
    adv = replace(PRUDENT, blocks=blocks, evasion_tokens=1)  # Mâchoires 🛡️ 1
    result = hit(adv, Effect(heavy=3), part=3)
    chain = [k for k in kinds(result) if k in {"evasion", "armour_box", "block_destroyed"}]
    assert chain == ["evasion", "armour_box", "block_destroyed", "block_destroyed"]
    # The 3 💢 from Évasion meet the armour left after the plate cracked (0): they all pass, fill
    # the second block (2 boxes) and the last one is lost.
    assert result.numbers["light_passed"] == 3
    assert "overflow" in kinds(result)
    sheet = sheet_after(result)
    assert sheet["parts"][2]["armour_lost"] == 1
    assert [b["ticked"] for b in sheet["blocks"][3:5]] == [3, 2]


def test_a_heavy_wound_on_a_destroyed_part_has_no_effect():
    result = hit(with_ticks(BASE, {4: 3}), Effect(heavy=1), part=4)
    assert "heavy_lost" in kinds(result)
    assert result.numbers["blocks_destroyed"] == 0


def test_evasion_converted_wounds_can_be_reduced_separately_as_a_setting():
    adv = replace(PRUDENT, evasion_tokens=1)
    s = Scenario(
        mode=Mode.PC_ATTACK, adversary=adv, target_part=2, pc=Pc(score=20), pc_success=Effect(heavy=1, light=2)
    )
    pooled = resolve(s, fixed_roll({}))
    separate = resolve(replace(s, settings=Settings(evasion_pooled=False)), fixed_roll({}))
    assert pooled.numbers["boxes_ticked"] == 3  # (2 + 3) − 2
    assert separate.numbers["boxes_ticked"] == 2  # max(1, 2 − 2) + max(1, 3 − 2)


def test_a_stunned_creature_cannot_use_evasion():
    result = hit(replace(PRUDENT, evasion_tokens=2, stunned=True), Effect(heavy=1))
    assert result.numbers["evasion_spent"] == 0
    assert result.numbers["armour_destroyed"] == 1
    assert "evasion_off" in kinds(result)


def test_destroying_every_part_kills_the_creature():
    adv = replace(PRUDENT, parts=(Part("Corps"),), blocks=(Block(2, ticked=1),))
    result = hit(adv, Effect(light=1), part=1)
    assert result.outcome == "destroyed"
    assert result.numbers["destroyed"] is True


# --- fatigue 💧 ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tokens", "fatigue", "spent", "boxes"),
    [(2, 1, 0, 1), (2, 2, 1, 1), (2, 3, 2, 1), (2, 5, 2, 3), (0, 3, 0, 3)],
)
def test_endurance_absorbs_fatigue_but_one_box_is_always_ticked(tokens, fatigue, spent, boxes):
    result = hit(replace(BASE, endurance_tokens=tokens), Effect(fatigue=fatigue))
    assert (result.numbers["endurance_spent"], result.numbers["fatigue_added"]) == (spent, boxes)


def test_full_fatigue_means_exhausted_not_dead():
    result = hit(replace(BASE, endurance_tokens=0, fatigue_ticked=3), Effect(fatigue=4))
    assert result.outcome == "exhausted"
    assert result.numbers["fatigue_ticked"] == 5
    assert result.numbers["destroyed"] is False


# --- bleeding 🩸 and the round -------------------------------------------------------------------------------------


def _round(adv: Adversary, **settings: bool):
    return resolve(Scenario(mode=Mode.ROUND, adversary=adv, settings=Settings(**settings)), fixed_roll({}))


def test_bleeding_ticks_the_most_damaged_block_ignoring_armour_then_closes_one_notch():
    result = _round(replace(with_ticks(BASE, {3: 1, 2: 1}), bleeding=1))
    sheet = sheet_after(result)
    # Tie on ticked boxes (1): the block with fewest boxes left wins — Mâchoires (2 left) over Corps (3 left).
    assert sheet["blocks"][3]["ticked"] == 2
    assert sheet["blocks"][2]["ticked"] == 1
    assert result.numbers["bleeding"] == 0


def test_bleeding_on_a_fresh_sheet_falls_on_the_first_smallest_block():
    result = _round(replace(BASE, bleeding=1))
    assert sheet_after(result)["blocks"][0]["ticked"] == 1


def test_start_of_round_tokens_come_only_from_intact_blocks():
    result = _round(replace(with_ticks(BASE, {0: 3}), endurance_tokens=1, stability_tokens=1))  # Tête destroyed: no ◇
    assert result.numbers["endurance_tokens"] == 2
    assert result.numbers["stability_tokens"] == 0


def test_unused_tokens_can_accumulate_as_a_setting():
    result = _round(replace(BASE, endurance_tokens=1), tokens_accumulate=True)
    assert result.numbers["endurance_tokens"] == 3


def test_the_deck_after_a_round_lists_only_what_the_creature_still_has():
    result = _round(replace(with_ticks(BASE, {4: 2}), bleeding=1))
    deck = next(e for e in result.events if e.kind == "deck")
    assert deck.data["lost"] == ["Harcèlement"]
    assert result.numbers["cards_available"] == 3


def test_predator_reflexes_give_one_more_reaction_each_round():
    assert _round(replace(BASE, traits=Traits(predator_reflexes=True))).numbers["reactions"] == 1


def test_terror_aura_takes_a_stability_token_from_the_engaged_pc_or_pushes_it_to_fear():
    adv = replace(BASE, traits=Traits(terror_aura=True))
    calm = resolve(Scenario(mode=Mode.ROUND, adversary=adv, pc=Pc(stability_tokens=2)), fixed_roll({}))
    assert "terror" in kinds(calm)
    assert (calm.numbers["pc_stability_after"], calm.numbers["pc_down"]) == (1, 0)
    shaken = resolve(Scenario(mode=Mode.ROUND, adversary=adv, pc=Pc(stability_tokens=0)), fixed_roll({}))
    assert (shaken.numbers["pc_stability_after"], shaken.numbers["pc_down"]) == (0, 1)


# --- the mental track 🔺🔻 and Stabilité ◇ -------------------------------------------------------------------------------


def test_stability_tokens_absorb_each_push_before_the_track_moves():
    result = hit(replace(BASE, mental=Mental.PRUDENT, stability_tokens=1), Effect(down=2))
    assert result.numbers["stability_spent"] == 1
    assert result.numbers["mental_after"] == "panique"


def test_the_track_crosses_the_middle_and_stops_at_the_extremes():
    assert (
        hit(replace(BASE, mental=Mental.PRUDENT, stability_tokens=0), Effect(up=1)).numbers["mental_after"]
        == "agressif"
    )
    assert (
        hit(replace(BASE, mental=Mental.ENRAGE, stability_tokens=0), Effect(up=1)).numbers["mental_after"] == "enrage"
    )
    assert (
        hit(replace(BASE, mental=Mental.PANIQUE, stability_tokens=0), Effect(down=3)).numbers["mental_after"]
        == "panique"
    )


def test_hive_mind_spends_the_shared_pool_before_the_track_moves():
    adv = replace(BASE, stability_tokens=1, allied_stability=1, traits=Traits(hive_mind=True))
    result = hit(adv, Effect(down=3))
    assert result.numbers["stability_spent"] == 2
    assert result.numbers["mental_after"] == "prudent"
    without = hit(replace(adv, traits=Traits()), Effect(down=3))
    assert without.numbers["mental_after"] == "panique"


def test_states_sonne_and_entrave_are_written_on_the_sheet():
    sheet = sheet_after(hit(BASE, Effect(stunned=True, entangled=True)))
    assert sheet["stunned"]
    assert sheet["entangled"]


# --- hordes 🕷️ -------------------------------------------------------------------------------------------------------


HORDE = Adversary(
    name="Rats",
    kind=Kind.HORDE,
    danger=0,
    menace=2,
    nuisance=2,
    guard=9,
    parts=(Part("Meute"),),
    blocks=(Block(3), Block(3), Block(3)),
    fatigue_boxes=0,
    endurance_tokens=0,
    stability_tokens=1,
    deck=(
        Card("Bande III", 1, 3, success=Effect(light=2), failure=Effect(light=1)),
        Card("Bande II", 1, 1, attack=False),
    ),
    horde=HordeRules(high_members=7, low_members=3, stability_on_wound_dealt=1, stability_on_wound_taken=0),
)


@pytest.mark.parametrize(
    ("members", "mood"), [(9, HordeMood.ENRAGE), (7, HordeMood.ENRAGE), (5, HordeMood.NEUTRE), (3, HordeMood.PANIQUE)]
)
def test_a_horde_state_follows_its_member_count(members, mood):
    assert horde_mood(HORDE, members) is mood


def test_a_horde_can_start_panicked_and_tend_towards_rage():
    reversed_horde = replace(HORDE, horde=replace(HORDE.horde, direction=MoodDirection.PANIC_TO_RAGE))
    assert horde_mood(reversed_horde, 9) is HordeMood.PANIQUE
    assert horde_mood(reversed_horde, 2) is HordeMood.ENRAGE


def test_a_horde_loses_one_member_whatever_the_light_damage():
    result = hit(HORDE, Effect(light=6), part=1)
    assert result.numbers["members_after"] == 8


@pytest.mark.parametrize(
    ("effect", "after"),
    [(Effect(fatigue=1), 8), (Effect(fatigue=3), 8), (Effect(light=2, fatigue=2), 8), (Effect(), 9)],
    ids=["one-fatigue", "three-fatigue", "wounds-and-fatigue", "nothing"],
)
def test_a_horde_has_no_fatigue_its_fatigue_damage_becomes_one_wound(effect, after):
    result = hit(HORDE, effect, part=1)
    assert result.numbers["members_after"] == after
    assert sheet_after(result)["fatigue_ticked"] == 0


def test_a_horde_turns_heavy_wounds_into_a_wound_and_a_push_absorbed_by_stability():
    result = hit(HORDE, Effect(heavy=1), part=1)
    assert result.numbers["members_after"] == 8
    assert result.numbers["stability_spent"] == 1


def test_a_horde_without_stability_loses_a_member_per_push():
    result = hit(replace(HORDE, stability_tokens=0), Effect(up=1, down=1), part=1)
    assert result.numbers["members_after"] == 7


def test_a_horde_losing_members_changes_state_and_garde():
    adv = with_ticks(HORDE, {0: 3, 1: 1})  # 5 left: neutral
    assert hit(adv, Effect(light=1), part=1).numbers["garde"] == 9
    result = hit(adv, Effect(heavy=1, down=1), part=1, score=20)  # 💢 + 🔻 (◇) + 🔻 (no ◇ → 💢) → 3 left
    assert result.numbers["members_after"] == 3
    assert result.numbers["mental_after"] == "panique"


def test_a_horde_gains_stability_when_it_wounds():
    s = Scenario(adversary=HORDE, card=1, pc=Pc(score=5))
    dice = {f"adv.{i}": 3 for i in range(1, 5)}
    result = resolve(s, fixed_roll(dice))
    assert result.outcome == "success"
    assert sheet_after(result)["stability_tokens"] == 2


def test_an_enraged_horde_attacks_with_one_die_upgraded_or_plus_one_as_a_setting():
    s = Scenario(adversary=HORDE, card=1, pc=Pc(score=5))
    assert [sl.die.name for sl in dice_for(s).slots] == ["Menace ⬜", "Menace ⬜", "Menace ⬜", "Nuisance 🟧"]
    flat = replace(s, settings=Settings(horde_mood_steps=False))
    assert [sl.die.name for sl in dice_for(flat).slots] == ["Menace ⬜", "Menace ⬜", "Nuisance 🟧", "Nuisance 🟧"]
    result = resolve(flat, fixed_roll({f"adv.{i}": 1 for i in range(1, 5)}))
    assert result.numbers["total"] == 5


def test_a_horde_move_action_rolls_no_dice():
    s = Scenario(adversary=HORDE, card=2)
    assert dice_for(s).slots == ()
    assert resolve(s, fixed_roll({})).outcome == "action"


def test_a_horde_only_dodges():
    with pytest.raises(ScenarioError) as err:
        parse(Scenario, {"adversary": to_data(replace(HORDE, guard_type=GuardType.PARADE))})
    assert "esquive" in err.value.errors["adversary.guard_type"]


# --- threat level 💀 --------------------------------------------------------------------------------------------------------


def test_threat_level_of_the_default_sheet_shows_each_term():
    t = threat(BASE)
    assert (t.blocks, t.boxes, t.fatigue, t.endurance, t.evasion, t.armour, t.tenacity) == (5, 17, 5, 2, 0, 4, 2)
    assert t.survival == 25 + 17 + 10 + 4 + 0 + 12 + 4
    assert (t.best_card, t.best_effect) == ("Frappe vive", 15)
    assert t.lethality == 10 + 15
    assert t.value == Fraction(72 * 25 * 6, 5)
    assert sum(points for _c, _l, points in t.terms()[:7]) == t.survival


def test_threat_level_adds_two_per_nuisance_die_and_multiplies_per_danger_die():
    adv = replace(BASE, danger=2, menace=0, nuisance=2)
    t = threat(adv)
    assert t.value == t.survival * t.lethality * Fraction(36, 25) + 4


def test_current_threat_counts_only_what_the_creature_still_has():
    adv = with_ticks(BASE, {4: 3})
    assert threat(adv, current=True).blocks == 4
    assert threat(adv).blocks == 5


def test_every_result_carries_the_threat_level():
    assert hit(BASE, Effect(light=1)).numbers["threat"] == 2160
    assert hit(BASE, Effect(light=1)).numbers["threat_label"] == "2\u202f160,0"


# --- Regard hypnotique -----------------------------------------------------------------------------------------------------


def test_hypnotic_gaze_needs_the_trait():
    with pytest.raises(ScenarioError) as err:
        parse(Scenario, {"mode": "hypnotic_gaze"})
    assert "Regard hypnotique" in err.value.errors["mode"]


def test_hypnotic_gaze_drains_stability_and_entangles():
    s = Scenario(
        mode=Mode.HYPNOTIC_GAZE, adversary=replace(BASE, traits=Traits(hypnotic_gaze=True)), pc=Pc(stability_tokens=3)
    )
    result = resolve(s, fixed_roll({}))
    assert result.numbers["pc_stability_spent"] == 3
    assert result.numbers["pc_entangled"] is True


def test_the_sheet_event_round_trips_through_parse():
    sheet = sheet_after(hit(BASE, Effect(heavy=1, light=2, bleed=1), part=3))
    adv = parse(Adversary, sheet)
    assert adv.parts[2].armour_lost == 1
    assert adv.bleeding == 1
