"""Féerie's lasting effects in an encounter (issue 16; seed ``004`` « Les coups spéciaux »): for each,
its start (the blow that inflicts it), its effect on the calculator the encounter fills, how it wears
off, and its end. Pure: the engine resolves the exchange, the encounter rules write it back."""

import pytest

from rulesets.core import encounter as core
from rulesets.core.schema import ScenarioError, parse, to_data
from rulesets.feerie import encounter as enc
from rulesets.feerie import engine
from rulesets.feerie.conditions import CONDITIONS, Condition, Lasts, with_condition
from rulesets.feerie.model import Blow, BlowKind, Exchange
from tests.rulesets.feerie.test_encounter import fighter, no_dice, state

NNBSP = "\u202f"


def exchange(attacker: core.Fighter, defender: core.Fighter, *blows: Blow, term: int = 19, **extra: object) -> Exchange:
    return parse(
        Exchange,
        {
            **to_data(Exchange(attacker=attacker.state.combatant(), defender=defender.state.combatant(), term=term)),
            "blows": [to_data(b) for b in blows],
            **extra,
        },
    )


def strike(
    attacker: core.Fighter, defender: core.Fighter, *blows: Blow, term: int = 19, **extra: object
) -> core.Applied:
    x = exchange(attacker, defender, *blows, term=term, **extra)
    return enc.apply_exchange(
        x, engine.resolve(x, no_dice()), {"attacker": (attacker,), "defender": (defender,)}, enc.Clock()
    )


def fill(attacker: core.Fighter, defender: core.Fighter, *everyone: core.Fighter) -> dict:
    return enc.fill_exchange({"attacker": (attacker,), "defender": (defender,)}, enc.Clock(), everyone=everyone)


REDCAP = fighter("r", state("Redcap", habilete=20, puissance=14, initiative=17))
LUTIN = fighter("l", state("Lutin", habilete=14, taille=-2, essence=15, initiative=9))


def test_a_stun_counts_from_the_attackers_rank_and_falls_by_one_per_rank():
    # 20 − 4 + 19 = 35 against 16: the simple attack would have cost 15, counted as a malus
    applied = strike(REDCAP, LUTIN, Blow(BlowKind.STUN, attack_malus=-4))
    (stun,) = applied.states["l"].conditions
    assert (stun.kind, stun.malus, stun.rank, stun.by) == (Lasts.STUN, -15, 17, "Redcap")
    lutin = fighter("l", applied.states["l"])
    # the Lutin acts at rank 9: 8 ranks have gone by since rank 17, −15 + 8 = −7 on his Attaque
    assert fill(lutin, REDCAP, lutin, REDCAP)["attacker.modifiers.attack"] == -7
    # the end of the Action: 17 ranks gone, nothing left
    after = enc.advance((lutin, REDCAP), enc.Clock(), None)
    assert after.states["l"].conditions == ()
    assert f"Lutin : «{NNBSP}Étourdi −15{NNBSP}» prend fin." in after.story  # typography: at commit


def test_a_stun_left_at_the_end_of_an_action_starts_the_next_from_its_top():
    lutin = fighter(
        "l",
        state("Lutin", initiative=4, conditions=[to_data(Condition("étourdi", malus=-20, kind=Lasts.STUN, rank=10))]),
    )
    # inflicted at rank 10: −20 + 10 = −10 at rank 0, the value the next Action starts with
    after = enc.advance((lutin, REDCAP), enc.Clock(), None)
    (left,) = after.states["l"].conditions
    assert (left.malus, left.rank) == (-10, None)
    # next Action: the countdown starts at the highest Initiative (12); at the Lutin's rank 5, −10 + 7
    lutin = fighter("l", replace_init(after.states["l"], 5))
    ogre = fighter("o", state("Ogre", initiative=12))
    assert fill(lutin, ogre, lutin, ogre)["attacker.modifiers.attack"] == -3
    gone = enc.advance((lutin, ogre), enc.Clock(action=2), None)
    assert gone.states["l"].conditions == ()


def replace_init(s: enc.FeeriqueState, initiative: int) -> enc.FeeriqueState:
    from dataclasses import replace

    return replace(s, initiative=initiative)


def test_a_new_stun_adds_to_what_is_left_and_starts_the_count_again():
    s = state("Lutin", conditions=[to_data(Condition("étourdi", malus=-3, kind=Lasts.STUN))])
    notes: list[str] = []
    new = with_condition(s, Condition("encore", malus=-5, kind=Lasts.STUN, rank=10), notes)
    assert [(c.malus, c.rank) for c in new.conditions] == [(-8, 10)]
    assert notes == []


def test_a_crippled_organ_lasts_its_ranks_across_actions():
    applied = strike(REDCAP, LUTIN, Blow(BlowKind.CRIPPLE, attack_malus=-12))
    (organ,) = applied.states["l"].conditions
    assert (organ.kind, organ.rank, organ.malus) == (Lasts.CRIPPLE, 17, None)
    assert organ.ranks
    lutin = fighter("l", state("Lutin", conditions=[to_data(Condition("œil", ranks=20, kind=Lasts.CRIPPLE, rank=5))]))
    after = enc.advance((lutin, REDCAP), enc.Clock(), None)
    assert after.states["l"].conditions[0].ranks == 15  # ranks 5 to 1 gone by
    lutin = fighter("l", after.states["l"])
    top = fighter("t", state("Troll", initiative=18))
    assert enc.advance((lutin, top), enc.Clock(action=2), None).states["l"].conditions == ()


def test_holding_off_costs_eight_until_the_victim_enters_the_guard_which_only_neutralises_it():
    applied = strike(REDCAP, LUTIN, Blow(BlowKind.HOLD_OFF, attack_malus=-12, effect_value=8))
    (held,) = applied.states["l"].conditions
    assert (held.kind, held.malus, held.by) == (Lasts.HOLD_OFF, -8, "Redcap")
    lutin = fighter("l", applied.states["l"])
    assert fill(lutin, REDCAP)["attacker.modifiers.attack"] == -8
    # the Lutin enters the Redcap's guard: his malus goes, the Redcap suffers nothing
    back = strike(lutin, REDCAP, Blow(BlowKind.INSIDE_GUARD, attack_malus=-12, effect_value=8))
    assert back.states["l"].conditions == ()
    assert "r" not in back.states or back.states["r"].conditions == ()
    assert any("n'est plus tenu en respect" in line for line in back.story)


def test_entering_the_guard_costs_eight_until_the_victim_holds_off_the_one_inside():
    small = fighter("s", state("Lutin", habilete=14, taille=-2, initiative=12))
    big = fighter("b", state("Troll", habilete=20, taille=2))
    applied = strike(small, big, Blow(BlowKind.INSIDE_GUARD, attack_malus=-12, effect_value=8))
    (inside,) = applied.states["b"].conditions
    assert (inside.kind, inside.malus, inside.by) == (Lasts.INSIDE_GUARD, -8, "Lutin")
    big = fighter("b", applied.states["b"])
    back = strike(big, small, Blow(BlowKind.HOLD_OFF, attack_malus=-12, effect_value=8))
    assert back.states["b"].conditions == ()
    assert "s" not in back.states or back.states["s"].conditions == ()


def test_a_weapon_left_in_the_wound_costs_eight_in_defence_until_the_first_failed_attack():
    redcap = fighter("r", state("Redcap", habilete=20, puissance=14, last_loss=8, last_victim="Lutin"))
    applied = strike(redcap, LUTIN, Blow(BlowKind.RELENTLESS, defense_malus=-8), previous_loss=8)
    (stuck,) = applied.states["r"].conditions
    assert (stuck.kind, stuck.defense, stuck.by) == (Lasts.RELENTLESS, -8, "Lutin")
    redcap = fighter("r", applied.states["r"])
    assert fill(LUTIN, redcap)["defender.modifiers.defense"] == -8
    assert enc.fill_action({"fighters": (redcap, LUTIN)}, enc.Clock())["fighters.0.defense"] == (
        enc.derived(redcap.state).defense - 8
    )
    # a hit keeps it there; a missed Attack dislodges it
    missed = strike(redcap, LUTIN, term=-19)
    assert missed.states["r"].conditions == ()
    assert "L'Attaque a échoué : l'arme de Redcap est délogée de la plaie." in missed.story


def test_standing_up_and_freeing_oneself_end_by_hand_and_say_it_is_an_activity():
    lutin = fighter(
        "l",
        state(
            "Lutin",
            conditions=[
                to_data(Condition("tombe", malus=-4, kind=Lasts.TRIP)),
                to_data(Condition("entravé", malus=-6, kind=Lasts.ENTANGLE)),
            ],
        ),
    )
    chips = CONDITIONS.chips(lutin, enc.Clock())
    assert [(c.label, c.remaining, c.lift) for c in chips] == [
        ("À terre −4", "jusqu'à ce qu'il se relève (une activité)", "Se relève"),
        ("Entravé −6", "jusqu'à ce qu'il se dégage (Puissance contre Puissance)", "Se dégage"),
    ]
    assert CONDITIONS.lift is not None
    up = CONDITIONS.lift(lutin, "conditions.0", enc.Clock())
    assert [c.kind for c in up.states["l"].conditions] == [Lasts.ENTANGLE]
    assert up.story == ("Lutin se relève : c'est une activité à part entière, sans jet de dés.",)


def test_each_effect_by_hand_is_put_with_its_usual_value_or_refused_in_french():
    by_key = {item.key: item for item in CONDITIONS.lasting}
    s = state("Lutin")
    s = by_key["etourdir"].put(s, -4, "Redcap")
    s = by_key["faire_tomber"].put(s, None, "")
    s = by_key["handicaper"].put(s, 6, "Redcap")
    s = by_key["acharnement"].put(s, None, "Ogre")
    assert [(c.kind, c.malus, c.defense, c.ranks) for c in s.conditions] == [
        (Lasts.STUN, -4, None, None),
        (Lasts.TRIP, -4, None, None),
        (Lasts.CRIPPLE, None, None, 6),
        (Lasts.RELENTLESS, None, -8, None),
    ]
    for key, value, note, field in (
        ("etourdir", 3, "", "value"),
        ("etourdir", None, "", "value"),
        ("handicaper", 0, "", "value"),
        ("autre", None, "", "note"),
    ):
        with pytest.raises(ScenarioError) as refused:
            by_key[key].put(state("Lutin"), value, note)
        assert refused.value.errors.get(field), (key, value)
