"""enCORE: the seed's worked examples step by step, and each rule of shared/rules/encore.md."""

import pytest

from rulesets.core.dice import fixed_roll
from rulesets.core.registry import get
from rulesets.core.request import resolve as resolve_request
from rulesets.core.schema import ScenarioError, parse
from rulesets.encore.engine import dice_for, resolve, tier_of
from rulesets.encore.model import NPC, PC, Action, Rules, Scenario, Strike, Tier

ALDRIC = PC(name="Aldric", attribute=3, speciality=True, weapon=3, armour=1, cover=2, sante=8, sante_max=8)
ARBALETRIER = NPC(name="Arbalétrier", menace=2, sante=4, weapon=3, protection=0)


def roll(*faces, prefix="pc"):
    return fixed_roll({f"{prefix}.{i}": f for i, f in enumerate(faces, 1)})


def kinds(result):
    return [e.kind for e in result.events]


def test_aldric_rolls_five_dice_strength_three_plus_the_speciality():
    assert len(dice_for(Scenario(pc=ALDRIC, npcs=(ARBALETRIER,))).slots) == 5


def test_aldric_first_round_partial_hits_for_weapon_damage_and_opens_the_breach():
    result = resolve(Scenario(pc=ALDRIC, npcs=(ARBALETRIER,)), roll(5, 2, 3, 1, 4))
    n = result.numbers
    assert result.outcome == "partielle"
    assert n["successes"] == 1
    assert n["damage_dealt"] == 3
    assert n["npc_sante_after"] == 1
    assert n["breach"] is True


def test_aldric_first_round_the_crossbowman_strikes_three_minus_protection_two():
    result = resolve(Scenario(pc=ALDRIC, npcs=(ARBALETRIER,)), roll(5, 2, 3, 1, 4))
    n = result.numbers
    assert n["strike_damage"] == 1
    assert n["pc_sante_after"] == 7
    assert n["pc_tier_after"] == "Valide"
    assert n["pc_tier_crossed"] is False
    assert n["pc_stress_after"] == 1
    assert kinds(result).index("breach") < kinds(result).index("strike") < kinds(result).index("sante")


def test_aldric_keeps_the_highest_protection_not_the_sum():
    result = resolve(Scenario(pc=ALDRIC, npcs=(ARBALETRIER,)), roll(5, 2, 3, 1, 4))
    protection = next(e for e in result.events if e.kind == "strike_protection")
    assert protection.value == "\u22122"
    assert "protection_choice" in kinds(result)


def test_aldric_second_round_three_successes_deal_four_and_the_crossbowman_falls():
    scenario = Scenario(pc=PC(**{**ALDRIC.__dict__} if False else {}), npcs=(ARBALETRIER,))
    scenario = Scenario(
        pc=PC(name="Aldric", attribute=3, speciality=True, weapon=3, armour=1, cover=2, sante=7, sante_max=8, stress=1),
        npcs=(NPC(name="Arbalétrier", menace=2, sante=1, weapon=3),),
    )
    result = resolve(scenario, roll(6, 5, 5, 2, 1))
    assert result.outcome == "reussite"
    assert result.numbers["damage_dealt"] == 4
    assert result.numbers["npc_sante_after"] == 0
    assert result.numbers["breach"] is False
    assert "npc_out" in kinds(result)
    assert "strike" not in kinds(result)


@pytest.mark.parametrize("example", get("encore").examples(), ids=lambda e: e.key)
def test_every_published_example_reproduces_through_the_request_path(example):
    resolution = resolve_request(get("encore"), example.request)
    assert resolution.result.outcome == example.expected["outcome"]
    for key, value in example.expected["numbers"].items():
        assert resolution.result.numbers[key] == value, key


def test_a_failure_deals_nothing_and_opens_the_breach():
    result = resolve(Scenario(pc=ALDRIC, npcs=(ARBALETRIER,)), roll(1, 2, 3, 4, 1))
    assert result.outcome == "echec"
    assert result.numbers["damage_dealt"] == 0
    assert result.numbers["breach"] is True


def test_with_menace_one_there_is_no_partial():
    npc = NPC(menace=1, sante=3, weapon=2)
    assert resolve(Scenario(pc=PC(attribute=2), npcs=(npc,)), roll(5, 1)).outcome == "reussite"
    assert resolve(Scenario(pc=PC(attribute=2), npcs=(npc,)), roll(1, 1)).outcome == "echec"


def test_protection_can_absorb_everything_without_minimum():
    npc = NPC(menace=1, sante=3, weapon=2, protection=5)
    result = resolve(Scenario(pc=PC(attribute=1, weapon=3), npcs=(npc,)), roll(6))
    assert result.numbers["damage_dealt"] == 0
    assert result.numbers["npc_sante_after"] == 3


def test_unarmed_is_worth_one():
    assert PC().weapon == 1


def test_npc_cover_removes_dice_from_the_pool():
    npc = NPC(menace=2, cover=2)
    assert len(dice_for(Scenario(pc=PC(attribute=3), npcs=(npc,))).slots) == 1


def test_a_pool_of_zero_rolls_nothing_and_fails():
    npc = NPC(menace=1, cover=3)
    scenario = Scenario(pc=PC(attribute=2), npcs=(npc,))
    assert dice_for(scenario).slots == ()
    result = resolve(scenario, fixed_roll({}))
    assert result.outcome == "echec"
    assert result.numbers["pool"] == 0


def test_the_success_face_is_a_table_setting():
    npc = NPC(menace=1)
    result = resolve(Scenario(pc=PC(attribute=1), npcs=(npc,), rules=Rules(success_face=4)), roll(4))
    assert result.outcome == "reussite"
    result = resolve(Scenario(pc=PC(attribute=1), npcs=(npc,)), roll(4))
    assert result.outcome == "echec"


def test_speciality_dice_are_a_table_setting():
    scenario = Scenario(pc=PC(attribute=2, speciality=True), rules=Rules(speciality_dice=1))
    assert len(dice_for(scenario).slots) == 3


def test_ally_advantage_adds_one_die_each():
    assert len(dice_for(Scenario(pc=PC(attribute=2, bonus_dice=2))).slots) == 4


def test_focusing_three_attacks_of_a_menace_three_weapon_four_deals_six():
    npc = NPC(name="Capitaine", menace=3, sante=6, weapon=4)
    scenario = Scenario(pc=PC(attribute=1, sante=10, sante_max=10), npcs=(npc,), strike=Strike(attacks=3))
    result = resolve(scenario, roll(1))
    assert result.numbers["strike_damage"] == 6
    assert result.numbers["npc_attacks_left"] == 0


def test_focusing_more_attacks_than_the_menace_is_refused():
    with pytest.raises(ScenarioError) as caught:
        parse(Scenario, {"npcs": [{"menace": 2}], "strike": {"attacks": 3}})
    assert "au plus la Menace" in caught.value.errors["strike.attacks"]


def test_an_npc_without_attacks_left_does_not_strike():
    npc = NPC(menace=2, attacks_left=0)
    result = resolve(Scenario(pc=PC(attribute=1), npcs=(npc,)), roll(1))
    assert result.numbers["breach"] is True
    assert "no_attacks" in kinds(result)
    assert "strike_damage" not in result.numbers


def test_weapon_three_does_not_wound_protection_three_without_focusing():
    npc = NPC(menace=2, weapon=3)
    result = resolve(Scenario(pc=PC(attribute=1, cover=3), npcs=(npc,)), roll(1))
    assert result.numbers["strike_damage"] == 0
    assert result.numbers["pc_stress_after"] == 0


def test_an_ally_who_interposes_takes_the_whole_focused_strike_with_its_own_protection():
    npc = NPC(menace=2, weapon=3)
    strike = Strike(
        attacks=2,
        interpose=True,
        interposer_name="Brunehilde",
        interposer_protection=1,
        interposer_sante=6,
        interposer_sante_max=6,
    )
    result = resolve(Scenario(pc=PC(attribute=1), npcs=(npc,), strike=strike), roll(1))
    assert result.numbers["strike_damage"] == 3
    assert result.numbers["ally_sante_after"] == 3
    assert result.numbers["ally_tier_after"] == "Blessé"
    assert "pc_sante_after" not in result.numbers


def test_nobody_interposes_before_a_boss():
    with pytest.raises(ScenarioError) as caught:
        parse(Scenario, {"npcs": [{"boss": True}], "strike": {"interpose": True}})
    assert "boss" in caught.value.errors["strike.interpose"]


def test_an_npc_taken_out_by_the_hit_does_not_strike_and_the_breach_stays_open():
    npc = NPC(name="Bandit", menace=2, sante=2, weapon=3)
    result = resolve(Scenario(pc=PC(attribute=2, weapon=3), npcs=(npc,)), roll(5, 1))
    assert result.outcome == "partielle"
    assert result.numbers["npc_sante_after"] == 0
    assert "striker_out" in kinds(result)
    assert "strike" not in kinds(result)


def test_the_gm_may_advance_the_adversity_instead_of_striking():
    result = resolve(Scenario(pc=PC(attribute=1), strike=Strike(enabled=False)), roll(1))
    assert result.numbers["breach"] is True
    assert "no_strike" in kinds(result)


def test_pc_ambush_failures_open_no_breach():
    result = resolve(Scenario(pc=PC(attribute=1), ambush=True), roll(1))
    assert result.outcome == "echec"
    assert result.numbers["breach"] is False
    assert "no_breach_ambush" in kinds(result)


def test_acting_without_fighting_uses_the_difficulty_and_opens_no_breach():
    scenario = Scenario(action=Action.NON_COMBAT, pc=PC(attribute=3), difficulty=2, npcs=(NPC(menace=3),))
    result = resolve(scenario, roll(5, 6, 1))
    assert result.outcome == "reussite"
    assert result.numbers["breach"] is False
    assert result.numbers["needed"] == 2


def test_a_manoeuvre_replaces_damage_and_extra_successes_add_nothing():
    scenario = Scenario(
        action=Action.MANOEUVRE,
        pc=PC(attribute=3),
        npcs=(NPC(menace=1, sante=1),),
        effect="désarmer",
        effect_helps_allies=True,
    )
    result = resolve(scenario, roll(6, 6, 6))
    assert result.numbers["effect"] is True
    assert "damage_dealt" not in result.numbers
    assert "extra_ignored" in kinds(result)
    assert "advantage" in kinds(result)


def test_a_partial_manoeuvre_gets_the_effect_and_opens_the_breach():
    scenario = Scenario(action=Action.MANOEUVRE, pc=PC(attribute=2), npcs=(NPC(menace=2),))
    result = resolve(scenario, roll(6, 1))
    assert result.outcome == "partielle"
    assert result.numbers["effect"] is True
    assert result.numbers["breach"] is True


def test_an_area_weapon_rolls_against_the_highest_menace_and_hits_one_more_target_per_extra_success():
    npcs = (NPC(name="A", menace=1, sante=2), NPC(name="B", menace=2, sante=2), NPC(name="C", menace=1, sante=2))
    scenario = Scenario(action=Action.AREA, pc=PC(attribute=4, weapon=3, weapon_area=True), npcs=npcs)
    result = resolve(scenario, roll(6, 6, 5, 1))
    assert result.numbers["needed"] == 2
    assert result.numbers["targets_hit"] == 2
    assert result.numbers["damage_dealt_1"] == 3
    assert result.numbers["damage_dealt_2"] == 3
    assert "damage_dealt_3" not in result.numbers


def test_an_area_weapon_limit_caps_the_targets():
    npcs = tuple(NPC(name=n, menace=1) for n in "ABCD")
    scenario = Scenario(action=Action.AREA, pc=PC(attribute=4, weapon=2, weapon_area=True, weapon_limit=2), npcs=npcs)
    result = resolve(scenario, roll(6, 6, 6, 6))
    assert result.numbers["targets_hit"] == 2
    assert "area_limit" in kinds(result)


def test_an_area_attack_needs_an_area_weapon():
    with pytest.raises(ScenarioError) as caught:
        parse(Scenario, {"action": "zone", "npcs": [{}, {}]})
    assert "pc.weapon_area" in caught.value.errors


def test_npc_ambush_is_avoided_by_per_against_the_menace():
    npc = NPC(name="Embusqué", menace=2, weapon=3)
    scenario = Scenario(action=Action.NPC_AMBUSH, pc=PC(attribute=2, armour=1), npcs=(npc,))
    assert resolve(scenario, roll(5, 6)).outcome == "evite"
    assert resolve(scenario, roll(5, 1)).outcome == "evite_complication"
    hit = resolve(scenario, roll(1, 1))
    assert hit.outcome == "touche"
    assert hit.numbers["strike_damage"] == 2
    assert hit.numbers["breach"] is False


def test_opposition_most_successes_wins_and_hits_weapon_minus_protection():
    scenario = Scenario(
        action=Action.OPPOSITION,
        pc=PC(name="Tavish", attribute=2, weapon=3),
        opponent=PC(name="Mara", attribute=2, armour=1, sante=8),
    )
    result = resolve(scenario, fixed_roll({"pc.1": 6, "pc.2": 5, "opp.1": 5, "opp.2": 1}))
    assert result.outcome == "victoire"
    assert result.numbers["damage_dealt"] == 2
    assert result.numbers["opponent_sante_after"] == 6


def test_opposition_tie_wins_nothing_and_worsens_the_situation():
    scenario = Scenario(action=Action.OPPOSITION, pc=PC(attribute=1), opponent=PC(attribute=1))
    result = resolve(scenario, fixed_roll({"pc.1": 6, "opp.1": 6}))
    assert result.outcome == "egalite"
    assert "worse" in kinds(result)


@pytest.mark.parametrize(
    ("sante", "tier"),
    [(8, "Valide"), (5, "Valide"), (4, "Blessé"), (3, "Blessé"), (2, "Grave"), (1, "Grave"), (0, "Hors de combat")],
)
def test_default_health_tiers_for_a_santé_of_eight(sante, tier):
    assert tier_of(sante, 8, Rules()) == tier


def test_health_tiers_are_a_table_setting():
    rules = Rules(healthy_tier="Frais", tiers=(Tier("KO", 0, 1), Tier("Sonné", 3, 4)))
    assert tier_of(6, 8, rules) == "Sonné"
    assert tier_of(7, 8, rules) == "Frais"


def test_crossing_a_tier_is_reported_for_the_narration():
    npc = NPC(menace=1, weapon=5)
    result = resolve(Scenario(pc=PC(attribute=1, sante=8, sante_max=8), npcs=(npc,)), roll(1))
    assert result.numbers["pc_tier_after"] == "Blessé"
    assert result.numbers["pc_tier_crossed"] is True


def test_santé_never_goes_below_zero_and_the_excess_is_recorded():
    npc = NPC(menace=3, weapon=9)
    result = resolve(Scenario(pc=PC(attribute=1, sante=2, sante_max=8), npcs=(npc,), strike=Strike(attacks=1)), roll(1))
    assert result.numbers["pc_sante_after"] == 0
    sante = next(e for e in result.events if e.kind == "sante")
    assert sante.data["absorbed"] == 7


def test_stress_rises_once_per_wounding_strike_not_per_point():
    npc = NPC(menace=3, weapon=4)
    result = resolve(Scenario(pc=PC(attribute=1), npcs=(npc,), strike=Strike(attacks=3)), roll(1))
    assert result.numbers["strike_damage"] == 6
    assert result.numbers["pc_stress_after"] == 1


def test_bad_input_gets_french_messages_per_field():
    with pytest.raises(ScenarioError) as caught:
        parse(
            Scenario, {"action": "fuir", "pc": {"attribute": -1, "sante": 9, "sante_max": 8}, "npcs": [{"menace": 4}]}
        )
    errors = caught.value.errors
    # French typography (issue 15): narrow no-break spaces before « : » and inside « », U+2212 minus
    assert "choix inconnu «\u202ffuir\u202f»" in errors["action"]
    assert errors["pc.attribute"] == "Attribut (dés)\u202f: doit être entre 0 et 10 (reçu \u22121)."
    assert errors["npcs.0.menace"] == "Menace\u202f: doit être entre 1 et 3 (reçu 4)."


def test_a_single_target_action_refuses_several_npcs():
    with pytest.raises(ScenarioError) as caught:
        parse(Scenario, {"npcs": [{}, {}]})
    assert "npcs" in caught.value.errors
