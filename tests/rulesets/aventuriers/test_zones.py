"""The facing-zone helper: attack, defence and back zones, melee, back attack, ranged."""

from __future__ import annotations

import pytest

from rulesets.aventuriers.model import Board, Facing, Mode, ZoneShape
from rulesets.aventuriers.zones import grid, in_attack_zone, local, report, through_back_zone

FRONT = ZoneShape.FRONT
CROSS = ZoneShape.CROSS


@pytest.mark.parametrize(
    ("facing", "vector", "expected"),
    [
        (Facing.NORTH, (0, -1), (1, 0)),
        (Facing.NORTH, (1, 0), (0, 1)),
        (Facing.EAST, (1, 0), (1, 0)),
        (Facing.EAST, (0, 1), (0, 1)),
        (Facing.SOUTH, (0, 1), (1, 0)),
        (Facing.SOUTH, (-1, 0), (0, 1)),
        (Facing.WEST, (-1, 0), (1, 0)),
        (Facing.WEST, (0, -1), (0, 1)),
        (Facing.NORTH, (0, 1), (-1, 0)),
    ],
)
def test_a_vector_is_read_in_the_figures_frame_ahead_and_to_its_right(
    facing: Facing, vector: tuple[int, int], expected: tuple[int, int]
) -> None:
    assert local(facing, *vector) == expected


def _squares(shape: ZoneShape, diagonals: bool) -> set[tuple[int, int]]:
    ring = [(a, r) for a in (-1, 0, 1) for r in (-1, 0, 1) if (a, r) != (0, 0)]
    return {sq for sq in ring if in_attack_zone(*sq, shape, diagonals)}


def test_the_attack_zone_is_front_left_front_and_front_right_by_default() -> None:
    assert _squares(FRONT, False) == {(1, -1), (1, 0), (1, 1)}


def test_the_literal_reading_gives_front_left_side_and_right_side() -> None:
    assert _squares(CROSS, False) == {(1, 0), (0, -1), (0, 1)}


@pytest.mark.parametrize("shape", [FRONT, CROSS])
def test_a_weapon_with_diagonals_reaches_the_five_squares_not_behind(shape: ZoneShape) -> None:
    assert _squares(shape, True) == {(1, -1), (1, 0), (1, 1), (0, -1), (0, 1)}


def test_the_back_zone_is_the_three_squares_behind() -> None:
    ring = [(a, r) for a in (-1, 0, 1) for r in (-1, 0, 1) if (a, r) != (0, 0)]
    assert {sq for sq in ring if through_back_zone(*sq)} == {(-1, -1), (-1, 0), (-1, 1)}


@pytest.mark.parametrize(
    ("square", "expected"),
    [
        ((-3, 0), True),
        ((-1, 2), True),
        ((-1, 3), False),
        ((-2, 5), True),
        ((-2, 6), False),
        ((0, 4), False),
        ((2, 0), False),
    ],
)
def test_a_line_traverses_the_back_zone_unless_it_only_grazes_a_corner(square: tuple[int, int], expected: bool) -> None:
    assert through_back_zone(*square) is expected


def test_facing_each_other_at_contact_melee_is_possible_and_not_a_back_attack() -> None:
    z = report(Board(), FRONT, False)
    assert z.adjacent
    assert z.in_attack_zone
    assert z.melee_possible
    assert not z.back_attack
    assert z.attacker_in_target_zone
    assert not z.ranged_allowed
    assert z.ranged_reasons == ("jamais contre un ennemi adjacent",)


def test_striking_from_behind_is_a_back_attack() -> None:
    z = report(Board(dx=1, dy=1, attacker_facing=Facing.NORTH, target_facing=Facing.NORTH), FRONT, False)
    assert z.melee_possible  # the target is front-left of the attacker
    assert z.back_attack
    assert z.attacker_square == "arrière-droite"


def test_a_target_on_the_attackers_side_is_out_of_reach_without_diagonals() -> None:
    board = Board(dx=-1, dy=0, attacker_facing=Facing.NORTH, target_facing=Facing.WEST)
    assert not report(board, FRONT, False).melee_possible
    assert report(board, FRONT, True).melee_possible
    assert report(board, CROSS, False).melee_possible


def test_a_wall_or_closed_door_blocks_the_attack_zone() -> None:
    z = report(Board(obstacle=True), FRONT, False)
    assert not z.melee_possible
    assert "mur" in z.melee_reasons[0]


def test_ranged_needs_distance_sight_and_no_engagement_with_the_target() -> None:
    far = Board(dx=0, dy=-3)
    assert report(far, FRONT, False).ranged_allowed
    assert not report(Board(dx=0, dy=-3, line_of_sight=False), FRONT, False).ranged_allowed
    assert not report(Board(dx=0, dy=-3, engaged_together=True), FRONT, False).ranged_allowed


def test_a_target_in_the_shooters_back_is_out_of_its_sight() -> None:
    z = report(Board(dx=0, dy=-3, attacker_facing=Facing.NORTH), FRONT, False)
    assert z.behind_shooter
    assert not z.possible(Mode.RANGED)
    assert z.reasons(Mode.RANGED) == ("la cible est dans le dos du tireur, hors de sa vue",)


def test_a_shot_from_far_behind_is_a_back_attack() -> None:
    z = report(Board(dx=1, dy=4, attacker_facing=Facing.NORTH, target_facing=Facing.NORTH), FRONT, False)
    assert z.ranged_allowed
    assert z.back_attack


def test_the_grid_picture_marks_target_attacker_zone_and_back() -> None:
    rows = grid(Board(), FRONT, False, radius=1)
    assert rows == (
        (".", "A", "."),  # the attacker north of the target, looking south
        ("z", "T", "z"),  # its attack zone: the row in front of it
        ("d", "d", "d"),
    )
