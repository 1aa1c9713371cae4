"""The Action sequence, rule by rule (seed 004, « La séquence d'une Action », « Options de combat »)."""

from __future__ import annotations

import pytest

from rulesets.core.dice import fixed_roll
from rulesets.core.results import Result
from rulesets.core.schema import ScenarioError
from rulesets.feerie.action import (
    ActionScenario,
    Activity,
    ActivityKind,
    Change,
    Fighter,
    Impersonal,
    dice_for,
    next_action,
    resolve,
)
from rulesets.feerie.model import Tactic

ATTACK = ActivityKind.ATTACK
OTHER = ActivityKind.OTHER


def run(
    *fighters: Fighter,
    activities: tuple[Activity, ...] = (),
    impersonal: tuple[Impersonal, ...] = (),
    dice: dict[str, int] | None = None,
) -> Result:
    s = ActionScenario(fighters=fighters, activities=activities, impersonal=impersonal)
    return resolve(s, fixed_roll(dice or {}))


def f(name: str, init: int | None, **kw: object) -> Fighter:
    return Fighter(name, initiative=init, **kw)  # type: ignore[arg-type]


# --- Rübezahl and the Serpent, step by step --------------------------------------------------------------

RUBEZAHL = f("Rübezahl", 15, vigilance=20, attack=22, defense=20, damage=14, soak=14, essence=40)
SERPENT = f("Serpent", 17, vigilance=17, attack=21, defense=15, damage=6, soak=8, essence=20)


def test_rubezahl_anticipates_two_ranks_and_acts_first_at_rank_17_by_vigilance() -> None:
    r = run(
        RUBEZAHL,
        SERPENT,
        activities=(Activity(0, ATTACK, targets="1", rank=17, term=0), Activity(1, ATTACK, targets="0", term=0)),
    )
    acts = r.events_of("activity")
    assert [e.data["fighter"] for e in acts] == [0, 1]
    assert [e.data["rank"] for e in acts] == [17, 17]
    assert acts[0].data["anticipation"] == 2
    assert acts[0].data["modifier"] == -2


def test_rubezahl_resists_the_serpent_with_his_defense_at_minus_two() -> None:
    r = run(
        RUBEZAHL,
        SERPENT,
        activities=(Activity(0, ATTACK, targets="1", rank=17, term=0), Activity(1, ATTACK, targets="0", term=0)),
    )
    serpent_attack = next(e for e in r.events_of("hit") if e.data["target"] == 0)
    assert serpent_attack.data["defense"] == 18


def test_anticipating_has_no_consequence_on_the_next_action() -> None:
    r = run(RUBEZAHL, SERPENT, activities=(Activity(0, ATTACK, targets="1", rank=17, term=0),))
    assert r.numbers["next_malus_0"] == 0


# --- ranks and priorities -----------------------------------------------------------------------------------------


def test_nobody_can_act_above_the_highest_initiative() -> None:
    # issue 14: a field error, no longer an activity dropped with a note
    with pytest.raises(ScenarioError) as info:
        run(RUBEZAHL, SERPENT, activities=(Activity(0, ATTACK, targets="1", rank=18, term=0),))
    assert "plus haut jet d'Initiative (17)" in info.value.errors["scenario.activities.0.rank"]


def test_an_initiative_of_zero_or_less_cannot_act() -> None:
    r = run(f("Lent", 0), SERPENT, activities=(Activity(0, OTHER),))
    assert "ne peut agir" in r.events_of("refused")[0].label


def test_waiting_costs_nothing() -> None:
    r = run(SERPENT, RUBEZAHL, activities=(Activity(0, ATTACK, targets="1", rank=5, term=0),))
    act = r.events_of("activity")[0]
    assert act.data["modifier"] == 0
    assert "attendu" in act.label


def test_priority_goes_to_vigilance_then_affinities_then_tactic_then_dice() -> None:
    def order(a: Fighter, b: Fighter, dice: dict[str, int] | None = None) -> str:
        r = run(a, b, activities=(Activity(0, OTHER), Activity(1, OTHER)), dice=dice)
        return str(r.numbers["order"])

    assert order(f("A", 12, vigilance=10), f("B", 12, vigilance=11)) == "1,0"
    assert order(f("A", 12, affinities=5), f("B", 12, affinities=4)) == "0,1"
    assert order(f("A", 12, tactic=Tactic(-1, 1, 0)), f("B", 12, tactic=Tactic(1, -1, 0))) == "1,0"
    # same Initiative 12, same everything but the dice: 10 + (5 − 3) vs 10 + (4 − 2)... equal → the first dice term
    a, b = f("A", None, initiative_bonus=0), f("B", None, initiative_bonus=1)
    assert order(a, b, {"init.0.plus.1": 6, "init.0.moins.1": 4, "init.1.plus.1": 5, "init.1.moins.1": 4}) == "0,1"


def test_a_perfect_tie_is_marked_simultaneous() -> None:
    r = run(f("A", 12), f("B", 12), activities=(Activity(0, OTHER), Activity(1, OTHER)))
    assert "simultanément" in r.events_of("activity")[1].label


def test_rolled_initiative_is_vigilance_attributes_tactic_and_dice() -> None:
    a = Fighter("A", vigilance=14, initiative_bonus=3, tactic=Tactic(2, -2, 0))
    r = run(a, dice={"init.0.plus.1": 12, "init.0.moins.1": 5})
    assert r.numbers["initiative_0"] == 14 + 3 + 2 + 7


def test_initiative_dice_are_read_only_for_untyped_initiatives() -> None:
    s = ActionScenario(
        fighters=(Fighter("A"), f("B", 12)),
        activities=(Activity(0, ATTACK, targets="1"), Activity(1, ATTACK, targets="0", term=3)),
    )
    assert dice_for(s).keys() == ("init.0.plus.1", "init.0.moins.1", "act.0.plus.1", "act.0.moins.1")


# --- extra activities ------------------------------------------------------------------------------------------------


ME = f("Moi", 17, vigilance=15, attack=18, defense=16)
FOE = f("Adversaire", 10, vigilance=12, attack=14, defense=14)


def test_an_extra_activity_comes_eight_ranks_later_at_minus_four() -> None:
    r = run(ME, FOE, activities=(Activity(0, ATTACK, targets="1", term=0), Activity(0, ATTACK, targets="1", term=0)))
    assert (r.numbers["activity_1_rank"], r.numbers["activity_1_modifier"]) == (9, -4)


def test_after_an_extra_activity_defense_drops_by_four_from_its_rank() -> None:
    foe = f("Adversaire", 10, vigilance=12, attack=14, defense=14)
    r = run(
        ME,
        foe,
        activities=(
            Activity(0, ATTACK, targets="1", term=0),
            Activity(0, ATTACK, targets="1", term=0),
            Activity(1, ATTACK, targets="0", rank=10, term=0),
            Activity(1, ATTACK, targets="0", rank=8, term=0),
        ),
    )
    defenses = [e.data["defense"] for e in r.events_of("miss") + r.events_of("hit") if e.data["target"] == 0]
    assert sorted(defenses) == [12, 16]


def test_the_third_activity_is_at_minus_eight() -> None:
    r = run(
        ME,
        FOE,
        activities=(Activity(0, OTHER), Activity(0, OTHER), Activity(0, OTHER)),
    )
    assert (r.numbers["activity_2_rank"], r.numbers["activity_2_modifier"]) == (1, -8)
    assert r.numbers["next_malus_0"] == -8
    assert r.numbers["defense_0"] == 16 - 8


def test_an_extra_activity_anticipated_to_rank_12_is_at_minus_seven() -> None:
    r = run(ME, FOE, activities=(Activity(0, OTHER), Activity(0, OTHER, rank=12)))
    assert (r.numbers["activity_1_modifier"], r.numbers["defense_0"], r.numbers["next_malus_0"]) == (-7, 9, -4)


def test_an_extra_activity_cannot_be_simultaneous_with_the_previous_one() -> None:
    # issue 14: a field error, no longer an activity dropped with a note
    with pytest.raises(ScenarioError) as info:
        run(ME, FOE, activities=(Activity(0, OTHER), Activity(0, OTHER, rank=17)))
    assert "au plus tôt" in info.value.errors["scenario.activities.1.rank"]


def test_an_extra_activity_below_rank_one_must_be_anticipated() -> None:
    r = run(f("Moi", 6), FOE, activities=(Activity(0, OTHER), Activity(0, OTHER)))
    assert "rang 1" in r.events_of("refused")[0].label
    r = run(f("Moi", 6), FOE, activities=(Activity(0, OTHER), Activity(0, OTHER, rank=1)))
    assert r.numbers["activity_1_modifier"] == -4 - 3  # natural rank −2, anticipated 3 ranks


def test_the_anticipation_malus_stays_on_later_activities_of_the_action() -> None:
    r = run(RUBEZAHL, SERPENT, activities=(Activity(0, OTHER, rank=17), Activity(0, OTHER)))
    assert r.numbers["activity_1_modifier"] == -2 - 4


def test_the_carried_malus_hits_initiative_activities_and_defense() -> None:
    a = Fighter("A", vigilance=14, carried_malus=-4, defense=16)
    r = run(a, f("B", 12), activities=(Activity(0, OTHER),), dice={"init.0.plus.1": 10, "init.0.moins.1": 10})
    assert (r.numbers["initiative_0"], r.numbers["activity_0_modifier"], r.numbers["defense_0"]) == (10, -4, 12)


# --- change of intention ------------------------------------------------------------------------------------------------

PIXIE = f("Pixie", 17, vigilance=14, tactic=Tactic(-5, 5, 0), tactic_cap=5, defense=16)
LUTIN = f("Lutin", 19, vigilance=16)


def test_the_pixie_re_ranks_to_22_but_no_earlier_than_the_change_at_19() -> None:
    change = Change(19, Tactic(0, -5, 5), new_tactic=True)
    r = run(PIXIE, LUTIN, activities=(Activity(1, OTHER), Activity(0, OTHER, change=change, bonus=3)))
    assert r.numbers["activity_1_rank"] == 19
    assert r.numbers["activity_1_modifier"] == -5 - 4 + 3


def test_the_pixie_defense_is_plus_one_from_rank_19() -> None:
    change = Change(19, Tactic(0, -5, 5), new_tactic=True)
    r = run(PIXIE, LUTIN, activities=(Activity(1, OTHER), Activity(0, OTHER, change=change, bonus=3)))
    ch = r.events_of("change")[0]
    assert (ch.data["rank"], ch.data["defense_change"], ch.data["defense"]) == (19, 1, 17)
    rows = {e.data["rank"]: e.data for e in r.events_of("rank")}
    assert rows[19]["defense"]["Pixie"] == 17


def test_the_crystal_dagger_change_acts_at_rank_11_at_minus_two_with_defense_minus_six() -> None:
    me = f("Moi", 13, vigilance=14, tactic=Tactic(2, -2, 0), tactic_cap=2, defense=16)
    change = Change(15, Tactic(0, 2, -2), new_tactic=True)
    r = run(me, f("Loin", 15), activities=(Activity(0, ATTACK, targets="1", change=change, term=0),))
    assert (r.numbers["activity_0_rank"], r.numbers["activity_0_modifier"], r.numbers["defense_0"]) == (11, -2, 10)
    rows = {e.data["rank"]: e.data for e in r.events_of("rank")}
    assert rows[15]["defense"]["Moi"] == 10
    assert rows[15]["malus"]["Moi"] == 0


def test_breathing_at_rank_15_costs_minus_six_and_defense_minus_ten() -> None:
    me = f("Moi", 13, vigilance=14, tactic=Tactic(2, -2, 0), tactic_cap=2, defense=16)
    change = Change(15, Tactic(0, 2, -2), new_tactic=True)
    r = run(me, f("Loin", 15), activities=(Activity(0, ATTACK, targets="1", rank=15, change=change, term=0),))
    assert (r.numbers["activity_0_modifier"], r.numbers["defense_0"], r.numbers["next_malus_0"]) == (-6, 6, -4)


def test_an_extra_activity_that_also_changes_intention_is_at_minus_eight() -> None:
    change = Change(9, note="autre chose")
    r = run(ME, FOE, activities=(Activity(0, OTHER), Activity(0, OTHER, change=change)))
    assert (r.numbers["activity_1_rank"], r.numbers["activity_1_modifier"]) == (9, -8)
    assert (r.numbers["defense_0"], r.numbers["next_malus_0"]) == (16 - 8, -8)


def test_a_change_cannot_act_before_it_is_declared() -> None:
    # issue 14: a field error, no longer an activity dropped with a note
    with pytest.raises(ScenarioError) as info:
        run(ME, FOE, activities=(Activity(0, OTHER, rank=17, change=Change(12)),))
    assert "avant d'avoir choisi" in info.value.errors["scenario.activities.0.rank"]


def test_a_re_ranked_initiative_at_zero_or_less_must_be_anticipated() -> None:
    slow = f("Lent", 3, tactic=Tactic(4, -4, 0), tactic_cap=4)
    r = run(slow, FOE, activities=(Activity(0, OTHER, change=Change(3, Tactic(-4, 4, 0), new_tactic=True)),))
    assert r.events_of("refused")
    r = run(slow, FOE, activities=(Activity(0, OTHER, rank=2, change=Change(3, Tactic(-4, 4, 0), new_tactic=True)),))
    assert r.numbers["activity_0_modifier"] == 4 - 4 - 7


# --- surprise, effects, impersonal events -------------------------------------------------------------------------------


def test_a_surprised_fighter_has_minus_eight_initiative_and_minus_four_defense() -> None:
    a = Fighter("A", vigilance=14, surprised=True, defense=16)
    r = run(a, dice={"init.0.plus.1": 10, "init.0.moins.1": 10})
    assert (r.numbers["initiative_0"], r.numbers["defense_0"]) == (6, 12)


def test_an_attack_applies_its_essence_loss_immediately_and_a_fallen_fighter_does_not_act() -> None:
    killer = f("Ogre", 20, attack=30, damage=30)
    victim = f("Lutin", 10, defense=10, soak=5, essence=10)
    r = run(
        killer,
        victim,
        activities=(Activity(0, ATTACK, targets="1", term=0), Activity(1, ATTACK, targets="0", term=0)),
    )
    assert r.numbers["essence_1"] == 0
    assert r.events_of("down")
    assert r.events_of("cancelled")


def test_one_bite_of_the_ogre_strikes_every_small_target_with_one_roll() -> None:
    ogre = f("Ogre", 14, attack=16, damage=22, taille=2)
    small = tuple(f(f"F{k}", 10, defense=16, soak=4, taille=-4) for k in range(8))
    r = run(ogre, *small, activities=(Activity(0, ATTACK, targets="1,2,3,4,5,6,7,8", term=0),))
    assert len(r.events_of("attack_roll")) == 1
    assert len(r.events_of("hit")) == 8


def test_impersonal_events_happen_at_rank_zero_after_every_activity() -> None:
    r = run(ME, FOE, activities=(Activity(0, OTHER),), impersonal=(Impersonal("Le feu", 1, 3),))
    kinds = [e.kind for e in r.events]
    assert kinds.index("impersonal") > kinds.index("activity")
    assert r.numbers["essence_1"] == 17


def test_several_melee_attackers_crowd_the_defender_angles() -> None:
    ogre = f("Ogre", 5, defense=12, taille=2)
    sylphes = tuple(f(f"S{k}", 12, taille=-2) for k in range(5))
    r = run(ogre, *sylphes, activities=tuple(Activity(k, ATTACK, targets="0", term=0) for k in range(1, 6)))
    angles = r.events_of("angles")[0]
    assert angles.data["occupied"] == 2  # five Sylphes of surface 2 in angles of 8
    assert r.numbers["defense_0"] == 10


def test_ranged_attackers_take_no_attack_angle() -> None:
    # « les limitations en nombre d'adversaires sur une même victime ne concernent pas les attaques à distance »
    ogre = f("Ogre", 5, defense=12, taille=2)
    archers = tuple(f(f"A{k}", 12, taille=-2) for k in range(20))
    acts = tuple(Activity(k, ATTACK, targets="0", ranged=True, term=0) for k in range(1, 21))
    r = run(ogre, *archers, activities=acts)
    assert r.events_of("angles") == ()
    assert r.numbers["defense_0"] == 12
    assert not r.events_of("refused")


def test_a_surprised_fighter_may_recover_by_a_change_of_intention_with_its_malus() -> None:
    # « la règle de changement d'intention s'applique toutefois : le personnage peut reprendre ses esprits »
    me = f("Surpris", 12, vigilance=14, tactic_cap=4, defense=16, surprised=True)
    change = Change(10, Tactic(0, 4, -4), new_tactic=True)
    r = run(me, FOE, activities=(Activity(0, ATTACK, targets="1", change=change, term=0),))
    assert not r.events_of("refused")
    assert r.numbers["activity_0_modifier"] == 4 - 4  # the new tactic, −4 for the change
    assert r.numbers["defense_0"] == 16 - 4 - 4 - 4  # surprise, tactic, change
    assert r.numbers["next_malus_0"] == -4


def test_the_countdown_shows_who_may_act_at_each_rank() -> None:
    r = run(ME, FOE, activities=(Activity(0, OTHER), Activity(1, OTHER)))
    rows = {rank: e.data for e in r.events_of("rank") for rank in e.data["ranks"]}
    assert sorted(rows) == list(range(1, 18))
    assert rows[17]["may_act"] == ["Moi"]
    assert rows[10]["may_act"] == ["Adversaire"]


def test_quiet_ranks_alike_share_one_countdown_row() -> None:
    r = run(ME, FOE, activities=(Activity(0, OTHER), Activity(1, OTHER)))
    rows = r.events_of("rank")
    # 17: Moi acts; 16…11 nothing; 10: the Adversaire acts; 9…1 nothing
    assert [(e.data["rank"], e.data["last_rank"]) for e in rows] == [(17, 17), (16, 11), (10, 10), (9, 1)]
    assert rows[1].label.startswith("Rangs 16 à 11 (rien ne se passe) — Défense")
    assert rows[3].data["ranks"] == list(range(9, 0, -1))


def test_the_next_action_carries_the_malus_and_the_essence() -> None:
    s = ActionScenario(
        fighters=(ME, FOE),
        activities=(Activity(0, ATTACK, targets="1", term=10), Activity(0, ATTACK, targets="1", term=10)),
    )
    r = resolve(s, fixed_roll({}))
    nxt = next_action(s, r)
    assert nxt.fighters[0].carried_malus == -4
    assert nxt.fighters[1].essence == r.numbers["essence_1"]
    assert nxt.fighters[0].initiative is None
    r2 = resolve(
        nxt,
        fixed_roll(
            {
                "init.0.plus.1": 10,
                "init.0.moins.1": 8,
                "init.1.plus.1": 1,
                "init.1.moins.1": 1,
                **dict.fromkeys(("act.0.plus.1", "act.0.moins.1", "act.1.plus.1", "act.1.moins.1"), 10),
            }
        ),
    )
    assert r2.numbers["initiative_0"] == 15 - 4 + 2
    assert r2.numbers["activity_0_modifier"] == -4
    assert r2.numbers["defense_0"] == 16 - 4 - 4


def test_the_countdown_label_shows_every_defense_and_malus() -> None:
    r = run(RUBEZAHL, SERPENT, activities=(Activity(0, OTHER, rank=17),))
    label = r.events_of("rank")[0].label
    assert "Rübezahl 18 (−2)" in label
    assert "Serpent 15" in label


def test_a_shooter_who_waits_to_aim_gains_one_per_rank_up_to_eight() -> None:
    r = run(ME, FOE, activities=(Activity(0, ATTACK, targets="1", ranged=True, aim=True, rank=12, term=0),))
    assert r.numbers["activity_0_modifier"] == 5
    r = run(ME, FOE, activities=(Activity(0, ATTACK, targets="1", ranged=True, aim=True, rank=2, term=0),))
    assert r.numbers["activity_0_modifier"] == 8


def test_a_blunt_projectile_may_strike_several_targets_of_its_user_surface() -> None:
    small = tuple(f(f"F{k}", 10, defense=10, taille=-4) for k in range(4))
    r = run(
        f("Lutin", 14, attack=16, taille=-1),
        *small,
        activities=(Activity(0, ATTACK, targets="1,2,3,4", ranged=True, blunt=True, term=0),),
    )
    assert len(r.events_of("hit")) == 4


def test_the_activities_after_a_refused_one_are_refused_too() -> None:
    # an Initiative of 0 (the dice's doing, not a typed rank): the Action goes on without them
    r = run(f("Lent", 0), FOE, activities=(Activity(0, OTHER), Activity(0, OTHER)))
    refused = r.events_of("refused")
    assert len(refused) == 2
    assert "n'a pas lieu" in refused[1].label
