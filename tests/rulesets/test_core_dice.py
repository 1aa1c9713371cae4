import random

import pytest

from rulesets.core.dice import D6, D100, DiceError, DiceSpec, Die, Symbols, fixed_roll, is_double, pool, roll_dice


def test_a_typed_face_is_kept_and_marked_typed():
    roll = roll_dice(DiceSpec(pool("pc", D6, 3, "d6")), {"pc.2": "6"}, seed=4)
    assert roll["pc.2"] == 6
    assert roll.was_typed("pc.2")
    assert not roll.was_typed("pc.1")


def test_blank_dice_are_rolled_from_the_seed_and_replay_identically():
    spec = DiceSpec(pool("pc", D6, 5, "d6"))
    first = roll_dice(spec, {}, seed=123)
    again = roll_dice(spec, {"pc.3": ""}, seed=123)
    assert first.values == again.values
    assert first.seed == 123


def test_typing_one_die_does_not_shift_the_others():
    spec = DiceSpec(pool("pc", D6, 4, "d6"))
    free = roll_dice(spec, {}, seed=9)
    typed = roll_dice(spec, {"pc.1": "1"}, seed=9)
    assert [typed[f"pc.{i}"] for i in (2, 3, 4)] == [free[f"pc.{i}"] for i in (2, 3, 4)]


def test_a_value_that_is_not_a_face_is_refused_with_the_die_and_its_faces():
    with pytest.raises(DiceError) as caught:
        roll_dice(DiceSpec(pool("pc", D6, 2, "d6 d'Aldric")), {"pc.2": "7"}, seed=1)
    message = caught.value.errors["pc.2"]
    assert "d6 d'Aldric n°2" in message
    assert "« 7 »" in message
    assert "1, 2, 3, 4, 5, 6" in message


def test_text_is_refused_like_a_wrong_face():
    with pytest.raises(DiceError) as caught:
        roll_dice(DiceSpec(pool("pc", D6, 1, "d6")), {"pc.1": "six"}, seed=1)
    assert "n'est pas une face" in caught.value.errors["pc.1"]


def test_a_die_the_rules_do_not_read_is_refused():
    with pytest.raises(DiceError) as caught:
        roll_dice(DiceSpec(pool("pc", D6, 1, "d6")), {"pc.9": "3"}, seed=1)
    assert "pc.9" in caught.value.errors


def test_d100_reads_00_as_100_and_knows_its_doubles():
    assert D100.parse("00") == 100
    assert D100.parse("7") == 7
    assert [v for v in range(1, 101) if is_double(v)] == [11, 22, 33, 44, 55, 66, 77, 88, 99, 100]


def test_a_die_with_repeated_faces_accepts_each_value_once_listed():
    nuisance = Die("🟧 Nuisance", (0, 1, 1, 2, 2, 3))
    assert nuisance.parse("2") == 2
    assert nuisance.describe_faces() == "0, 1, 2, 3"
    with pytest.raises(ValueError, match="4"):
        nuisance.parse("4")


def test_symbol_faces_count_their_symbols():
    face = Symbols.of(degats=2, eclair=1)
    assert face.get("degats") == 2
    assert face.get("bouclier") == 0


def test_server_rolls_stay_on_the_faces():
    rng = random.Random(5)
    assert {D6.roll(rng) for _ in range(200)} == {1, 2, 3, 4, 5, 6}


def test_fixed_roll_reads_a_pool_in_order():
    roll = fixed_roll({"pc.1": 5, "pc.2": 2, "pc.3": 6})
    assert roll.of("pc") == (5, 2, 6)


def test_a_seed_out_of_range_is_refused():
    with pytest.raises(DiceError):
        roll_dice(DiceSpec(pool("pc", D6, 1, "d6")), {}, seed=-1)
