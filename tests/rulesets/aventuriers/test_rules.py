"""Each rule of the seed (and each decision of the rules files), one exact test each."""

from __future__ import annotations

from dataclasses import replace

from rulesets.aventuriers.engine import dice_for, plan
from rulesets.aventuriers.model import (
    BLUE,
    Action,
    Board,
    DiceGroup,
    DieType,
    Entry,
    Face,
    Facing,
    Mode,
    Reach,
    Rules,
    Scenario,
    Totals,
    Weapon,
)
from tests.rulesets.aventuriers.helpers import hero, monster, play

# Default faces — noir: 1 💥 · 2 💥💥 · 3 💥💥💥 · 4 🛡 · 5 🛡🛡 · 6 💥🛡⚡
#                 bleu: 1 💥 · 2 💥⚡ · 3 💥💥 · 4 🛡 · 5 🛡⚡ · 6 ⚡⚡

BEHIND = Board(dx=0, dy=1, attacker_facing=Facing.NORTH, target_facing=Facing.NORTH)
FAR = Board(dx=0, dy=-3, attacker_facing=Facing.SOUTH, target_facing=Facing.NORTH)


def test_each_lightning_on_an_aventurier_attack_roll_gives_one_stamina() -> None:
    scenario = Scenario(attacker=hero(stamina=2), defender=monster())
    result = play(scenario, {"attaque.1": 6, "attaque.2": 2})  # ⚡⚡ + 💥⚡
    assert result.numbers["attacker_stamina_gained"] == 3
    assert result.numbers["attacker_stamina_after"] == 5


def test_stamina_never_exceeds_the_maximum_typed_for_the_aventurier() -> None:
    scenario = Scenario(attacker=hero(stamina=4, stamina_max=5), defender=monster())
    result = play(scenario, {"attaque.1": 6, "attaque.2": 6})
    assert result.numbers["attacker_stamina_gained"] == 4
    assert result.numbers["attacker_stamina_after"] == 5


def test_a_monster_gains_no_stamina_unless_the_setting_says_so() -> None:
    scenario = Scenario(attacker=monster(weapon=Weapon(dice=(DiceGroup("bleu", 1),))), defender=hero())
    plain = play(scenario, {"attaque.1": 6})
    assert plain.numbers["attacker_stamina_gained"] == 0
    counted = play(replace(scenario, rules=Rules(monster_stamina=True)), {"attaque.1": 6})
    assert counted.numbers["attacker_stamina_gained"] == 2


def test_the_target_defends_even_when_no_damage_was_rolled_and_gains_stamina() -> None:
    scenario = Scenario(attacker=monster(weapon=Weapon(dice=(DiceGroup("bleu", 1),))), defender=hero())
    result = play(scenario, {"attaque.1": 6, "defense.1": 6, "defense.2": 6})
    assert result.numbers["damage"] == 0
    assert result.events_of("defence_roll")[0].label == "Jet de défense d'Elwen (2\u00a0dés, même sans dégât)"
    assert result.numbers["defender_stamina_gained"] == 1 + 2  # noir 6 = 💥🛡⚡, bleu 6 = ⚡⚡


def test_each_shield_blocks_one_damage_and_each_unblocked_damage_costs_one_pv() -> None:
    scenario = Scenario(attacker=hero(weapon=Weapon(dice=(DiceGroup("noir", 2),))), defender=monster())
    result = play(scenario, {"attaque.1": 3, "attaque.2": 2, "defense.1": 5, "defense.2": 4})
    assert result.numbers["damage"] == 5
    assert result.numbers["shields"] == 3
    assert result.numbers["pv_lost"] == 2
    assert result.outcome == "blesse"


def test_unblockable_damage_skips_the_defence_roll_and_the_riposte() -> None:
    weapon = Weapon(name="Lame spectrale", dice=(DiceGroup("noir", 1),), unblockable=True)
    scenario = Scenario(attacker=monster(weapon=weapon), defender=hero(riposte=True))
    assert [s.key for s in dice_for(scenario).slots] == ["attaque.1"]
    result = play(scenario, {"attaque.1": 2})
    assert result.numbers["pv_lost"] == 2
    assert result.events_of("unblockable")
    assert not result.events_of("defence_roll")
    assert result.numbers["riposte"] is False


def test_a_flash_attack_counts_damage_only_and_gives_no_stamina() -> None:
    scenario = Scenario(action=Action.LEAVE_ZONE, attacker=hero(attaque_eclair=True), defender=monster())
    result = play(scenario, {"attaque.1": 2, "attaque.2": 5, "defense.1": 2})  # 💥⚡ and 🛡⚡
    assert result.numbers["damage"] == 1
    assert result.numbers["attacker_stamina_gained"] == 0
    assert result.events_of("flash_ignored")


def test_the_flash_defence_rolls_one_die_per_flash_damage() -> None:
    scenario = Scenario(action=Action.LEAVE_ZONE, attacker=hero(attaque_eclair=True), defender=monster(pv=9))
    one = play(scenario, {"attaque.1": 1, "attaque.2": 4})
    assert one.numbers["defence_dice"] == 1
    none = play(scenario, {"attaque.1": 4, "attaque.2": 4})
    assert none.numbers["defence_dice"] == 0
    assert none.numbers["pv_lost"] == 0


def test_the_flash_defence_is_capped_at_the_defence_dice() -> None:
    weapon = Weapon(dice=(DiceGroup("noir", 2),))
    scenario = Scenario(
        action=Action.LEAVE_ZONE, attacker=hero(attaque_eclair=True, weapon=weapon), defender=monster(pv=9)
    )
    result = play(scenario, {"attaque.1": 3, "attaque.2": 3, "defense.1": 5, "defense.2": 4})
    assert result.numbers["damage"] == 6
    assert result.numbers["defence_dice"] == 2
    assert result.numbers["pv_lost"] == 6 - 3


def test_the_flash_defence_takes_protections_then_black_then_blue() -> None:
    defence = (DiceGroup("bleu", 1), DiceGroup("noir", 1), DiceGroup("bleu", 1, protection=True))
    scenario = Scenario(
        action=Action.PHASE_START, attacker=hero(attaque_opportunite=True), defender=monster(defence=defence)
    )
    p = plan(scenario)
    assert [d.key for d in p.defence_dice] == ["bleu", "noir", "bleu"]
    slots = [s for s in dice_for(scenario).slots if s.key.startswith("defense")]
    assert [s.die.name for s in slots] == ["Dé bleu", "Dé noir", "Dé bleu"]
    result = play(scenario, {"attaque.1": 3, "attaque.2": 4, "defense.1": 4, "defense.2": 4, "defense.3": 4})
    assert result.events_of("flash_defence")[0].data["order"] == "Dé bleu · Dé noir"


def test_flash_defence_lightning_gives_stamina_to_an_aventurier() -> None:
    weapon = Weapon(dice=(DiceGroup("bleu", 2),))
    scenario = Scenario(
        action=Action.LEAVE_ZONE, attacker=monster(attaque_eclair=True, weapon=weapon), defender=hero(stamina=0)
    )
    result = play(
        scenario, {"attaque.1": 1, "attaque.2": 1, "defense.1": 6, "defense.2": 6}
    )  # noir 6 💥🛡⚡, bleu 6 ⚡⚡
    assert result.numbers["defender_stamina_gained"] == 3
    assert result.numbers["pv_lost"] == 1


def test_a_flash_spell_used_as_combat_action_deals_flash_damage() -> None:
    spell = Weapon(name="Étincelle", reach=Reach.RANGED, spell=True, flash=True, dice=(DiceGroup("bleu", 2),))
    scenario = Scenario(mode=Mode.RANGED, attacker=hero(weapon=spell), defender=monster(), board=FAR)
    result = play(scenario, {"attaque.1": 3, "attaque.2": 6, "defense.1": 4, "defense.2": 1})
    assert result.numbers["flash"] is True
    assert result.numbers["defence_dice"] == 2
    assert result.numbers["pv_lost"] == 1
    assert result.numbers["attacker_stamina_gained"] == 0
    assert result.numbers["engaged_after"] is False


def test_riposte_turns_each_shield_into_one_flash_damage_when_no_pv_is_lost() -> None:
    scenario = Scenario(attacker=monster(), defender=hero(riposte=True))
    result = play(scenario, {"attaque.1": 1, "defense.1": 5, "defense.2": 4, "riposte.1": 1, "riposte.2": 1})
    assert result.numbers["riposte"] is True
    assert result.numbers["riposte_damage"] == 3
    assert result.numbers["riposte_dice"] == 2
    assert result.numbers["attacker_pv_lost"] == 3
    assert not result.events_of("contrecoup")


def test_contrecoup_adds_one_flash_damage_to_the_riposte() -> None:
    scenario = Scenario(attacker=monster(), defender=hero(riposte=True, contrecoup=True))
    result = play(scenario, {"attaque.1": 4, "defense.1": 4, "defense.2": 1})
    assert result.numbers["riposte_damage"] == 2
    assert result.events_of("contrecoup")


def test_contrecoup_without_any_shield_follows_the_visible_setting() -> None:
    scenario = Scenario(attacker=monster(), defender=hero(riposte=True, contrecoup=True))
    dice = {"attaque.1": 4, "defense.1": 1, "defense.2": 1, "riposte.1": 1}
    assert play(scenario, dice).numbers["riposte_damage"] == 1
    strict = replace(scenario, rules=Rules(contrecoup_without_shield=False))
    result = play(strict, dice)
    assert result.numbers["riposte"] is True
    assert result.numbers["riposte_damage"] == 0
    assert result.events_of("riposte_empty")


def test_no_riposte_after_a_ranged_attack() -> None:
    bow = Weapon(name="Arc", reach=Reach.RANGED, dice=(DiceGroup("bleu", 1),))
    scenario = Scenario(mode=Mode.RANGED, attacker=monster(weapon=bow), defender=hero(riposte=True), board=FAR)
    assert not [s for s in dice_for(scenario).slots if s.key.startswith("riposte")]
    result = play(scenario, {"attaque.1": 4, "defense.1": 5, "defense.2": 5})
    assert result.numbers["riposte"] is False


def test_no_riposte_when_the_defender_lost_a_pv() -> None:
    scenario = Scenario(attacker=monster(), defender=hero(riposte=True, contrecoup=True))
    result = play(scenario, {"attaque.1": 3, "defense.1": 4, "defense.2": 4})
    assert result.numbers["pv_lost"] == 1
    assert result.numbers["riposte"] is False
    assert result.events_of("no_riposte")


def test_a_riposte_never_chains_a_second_riposte() -> None:
    scenario = Scenario(attacker=monster(riposte=True), defender=hero(riposte=True))
    result = play(scenario, {"attaque.1": 4, "defense.1": 5, "riposte.1": 5, "riposte.2": 5})
    assert len(result.events_of("riposte")) == 1
    assert result.numbers["attacker_pv_lost"] == 0


def test_attaque_eclair_needs_the_talent() -> None:
    scenario = Scenario(action=Action.LEAVE_ZONE, attacker=hero(), defender=monster())
    result = play(scenario, {})
    assert result.outcome == "impossible"
    assert "Attaque éclair" in result.events_of("not_allowed")[0].label
    assert dice_for(scenario).slots == ()


def test_attaque_eclair_is_refused_to_an_engaged_character() -> None:
    scenario = Scenario(
        action=Action.LEAVE_ZONE,
        attacker=hero(attaque_eclair=True),
        defender=monster(),
        board=Board(attacker_engaged_other=True),
    )
    assert play(scenario, {}).outcome == "impossible"


def test_attaque_d_opportunite_needs_the_enemy_in_the_attack_zone() -> None:
    aside = Board(dx=0, dy=-1, attacker_facing=Facing.EAST, target_facing=Facing.NORTH)  # target on its right
    scenario = Scenario(
        action=Action.PHASE_START, attacker=hero(attaque_opportunite=True), defender=monster(), board=aside
    )
    result = play(scenario, {})
    assert result.outcome == "impossible"
    assert "zone d'attaque" in result.events_of("not_allowed")[0].label


def test_the_game_master_may_override_the_zones() -> None:
    aside = Board(dx=0, dy=-1, attacker_facing=Facing.EAST, target_facing=Facing.NORTH, enforce=False)
    scenario = Scenario(attacker=hero(), defender=monster(), board=aside)
    result = play(scenario, {"attaque.1": 3, "attaque.2": 3, "defense.1": 1, "defense.2": 1})
    assert result.outcome == "blesse"
    assert result.events_of("not_allowed")[0].label.startswith("Avis des zones ignoré par le MJ\u202f: ")


def test_a_killed_monster_gives_its_px_to_the_aventurier() -> None:
    scenario = Scenario(attacker=hero(weapon=Weapon(dice=(DiceGroup("noir", 2),))), defender=monster(pv=5, px=7))
    result = play(scenario, {"attaque.1": 3, "attaque.2": 3, "defense.1": 1, "defense.2": 4})
    assert result.outcome == "tue"
    assert result.numbers["pv_lost"] == 5
    assert result.numbers["px_gained"] == 7
    assert result.numbers["engaged_after"] is False


def test_a_monster_killing_an_aventurier_gains_no_px() -> None:
    scenario = Scenario(attacker=monster(px=9), defender=hero(pv=2))
    result = play(scenario, {"attaque.1": 3, "defense.1": 1, "defense.2": 1})
    assert result.outcome == "tue"
    assert result.numbers["px_gained"] == 0


def test_a_melee_attack_engages_both_characters() -> None:
    result = play(Scenario(attacker=hero(), defender=monster(pv=9)), {})
    assert result.numbers["engaged_after"] is True


def test_a_back_attack_does_not_engage() -> None:
    result = play(Scenario(attacker=hero(), defender=monster(pv=9), board=BEHIND), {})
    assert result.numbers["back_attack"] is True
    assert result.numbers["engaged_after"] is False


def test_a_ranged_attack_ends_the_attackers_other_engagements() -> None:
    bow = Weapon(name="Arc", reach=Reach.RANGED, dice=(DiceGroup("bleu", 1),))
    board = replace(FAR, attacker_engaged_other=True)
    result = play(Scenario(mode=Mode.RANGED, attacker=hero(weapon=bow), defender=monster(pv=9), board=board), {})
    assert result.numbers["attacker_engaged_other_after"] is False
    assert result.numbers["engaged_after"] is False


def test_leaving_the_attack_zone_ends_the_engagement() -> None:
    board = Board(engaged_together=True, enforce=False)
    scenario = Scenario(
        action=Action.LEAVE_ZONE, attacker=hero(attaque_eclair=True), defender=monster(pv=9), board=board
    )
    assert play(scenario, {}).numbers["engaged_after"] is False


def test_coup_bas_adds_its_damage_to_a_back_attack_only() -> None:
    dice = {"attaque.1": 1, "attaque.2": 1, "defense.1": 1, "defense.2": 1}
    back = play(Scenario(attacker=hero(coup_bas=True), defender=monster(), board=BEHIND), dice)
    assert back.numbers["damage"] == 3
    front = play(Scenario(attacker=hero(coup_bas=True), defender=monster()), dice)
    assert front.numbers["damage"] == 2
    no_talent = play(Scenario(attacker=hero(), defender=monster(), board=BEHIND), dice)
    assert no_talent.numbers["damage"] == 2
    bigger = play(
        Scenario(attacker=hero(coup_bas=True), defender=monster(pv=9), board=BEHIND, rules=Rules(coup_bas_bonus=2)),
        dice,
    )
    assert bigger.numbers["damage"] == 4


def test_success_test_reads_zero_one_or_two_lightning_without_stamina() -> None:
    scenario = Scenario(action=Action.SUCCESS_TEST, attacker=hero())
    assert [play(scenario, {"test": face}).outcome for face in (1, 2, 6)] == [
        "aucun_eclair",
        "un_eclair",
        "deux_eclairs",
    ]
    assert play(scenario, {"test": 6}).numbers["attacker_stamina_gained"] == 0
    assert play(scenario, {"test": 6}).events_of("test_roll")[0].label == "Elwen lance le dé bleu"


def test_success_test_reads_more_than_two_lightning_as_two() -> None:
    storm = DieType(key="orage", name="Dé d'orage", faces=(Face(lightning=3), Face(lightning=1), Face()))
    scenario = Scenario(
        action=Action.SUCCESS_TEST, die_types=(*Scenario().die_types, storm), rules=Rules(success_die="orage")
    )
    result = play(scenario, {"test": 1})
    assert result.outcome == "deux_eclairs"
    assert result.numbers["lightning"] == 3


def test_entry_by_totals_reads_no_die_and_uses_the_typed_symbols() -> None:
    scenario = Scenario(
        entry=Entry.TOTALS,
        attacker=monster(),
        defender=hero(riposte=True),
        attack_totals=Totals(damage=1),
        defence_totals=Totals(shield=2, lightning=1),
        riposte_totals=Totals(shield=1),
    )
    assert dice_for(scenario).slots == ()
    result = play(scenario, {})
    assert result.numbers["riposte_damage"] == 2
    assert result.numbers["attacker_pv_lost"] == 1
    assert result.numbers["defender_stamina_gained"] == 1


def test_the_riposte_slots_beyond_the_flash_damage_are_not_read() -> None:
    scenario = Scenario(attacker=monster(), defender=hero(riposte=True))
    result = play(scenario, {"attaque.1": 1, "defense.1": 4, "defense.2": 1, "riposte.1": 1, "riposte.2": 5})
    assert result.numbers["riposte_dice"] == 1
    assert result.numbers["attacker_pv_lost"] == 1


def test_default_blue_die_can_show_zero_one_and_two_lightning() -> None:
    assert {f.lightning for f in BLUE.faces} == {0, 1, 2}


def test_a_monster_certain_to_be_killed_still_defends() -> None:
    scenario = Scenario(attacker=hero(weapon=Weapon(dice=(DiceGroup("noir", 3),))), defender=monster(pv=2))
    result = play(scenario, {"attaque.1": 3, "attaque.2": 3, "attaque.3": 3, "defense.1": 5, "defense.2": 4})
    # 9 💥 against at most 2 + 1 🛡 and 2 PV: the Orc is sure to die and rolls its defence anyway
    assert result.events_of("defence_roll")[0].label == "Jet de défense de l'Orc (2\u00a0dés, même certain d'être tué)"
    assert result.numbers["defence_dice"] == 2
    assert result.numbers["shields"] == 3
    assert result.outcome == "tue"
    assert result.numbers["px_gained"] == 4


def test_a_flash_spell_on_another_target_also_ends_the_casters_other_engagements() -> None:
    spell = Weapon(name="Étincelle", reach=Reach.RANGED, spell=True, flash=True, dice=(DiceGroup("bleu", 1),))
    board = replace(FAR, attacker_engaged_other=True)
    scenario = Scenario(mode=Mode.RANGED, attacker=hero(weapon=spell), defender=monster(), board=board)
    result = play(scenario, {"attaque.1": 1, "defense.1": 1})
    assert result.numbers["flash"] is True
    assert result.numbers["attacker_engaged_other_after"] is False  # Livret Aventure p. 19: a spell on another target
    assert result.numbers["engaged_after"] is False  # flash damage never engages


def test_a_ranged_kill_still_ends_the_shooters_other_engagements() -> None:
    bow = Weapon(name="Arc", reach=Reach.RANGED, dice=(DiceGroup("noir", 2),))
    board = replace(FAR, attacker_engaged_other=True)
    scenario = Scenario(mode=Mode.RANGED, attacker=hero(weapon=bow), defender=monster(pv=2), board=board)
    result = play(scenario, {"attaque.1": 3, "attaque.2": 3, "defense.1": 1, "defense.2": 1})
    assert result.outcome == "tue"
    assert result.numbers["attacker_engaged_other_after"] is False
    assert result.numbers["engaged_after"] is False


def test_a_hybrid_weapon_strikes_in_melee_at_contact_and_shoots_from_afar() -> None:
    spear = Weapon(name="Lance de jet", reach=Reach.HYBRID, dice=(DiceGroup("bleu", 1),))
    melee = Scenario(mode=Mode.MELEE, attacker=hero(weapon=spear), defender=monster())
    ranged = replace(melee, mode=Mode.RANGED, board=FAR)
    assert melee.check() == {}
    assert ranged.check() == {}
    assert plan(melee).allowed
    assert plan(ranged).allowed
    assert not plan(replace(melee, mode=Mode.RANGED)).allowed  # never a shot at an adjacent enemy
    assert play(melee, {"attaque.1": 3, "defense.1": 1, "defense.2": 1}).numbers["engaged_after"] is True
    assert play(ranged, {"attaque.1": 3, "defense.1": 1, "defense.2": 1}).numbers["engaged_after"] is False
