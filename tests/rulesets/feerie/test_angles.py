"""Attack angles and surfaces by Taille (« Adversaires multiples »), with the seed's examples."""

from __future__ import annotations

import pytest

from rulesets.feerie.angles import crowding, surface_for, sweep
from rulesets.feerie.model import SEED_SURFACES


@pytest.mark.parametrize(
    ("taille", "surface"),
    [(-5, 1), (-4, 1), (-3, 2), (-2, 2), (-1, 4), (0, 4), (1, 4), (2, 8), (3, 8), (4, 16), (5, 16)],
)
def test_the_surface_table_by_taille(taille: int, surface: int) -> None:
    assert surface_for(taille, SEED_SURFACES) == surface


def test_sixteen_sylphes_fill_the_four_angles_of_the_ogre_for_a_defense_malus_of_six() -> None:
    c = crowding(2, [-2] * 16, 4, SEED_SURFACES)
    assert (c.angle_surface, len(c.admitted), c.refused, c.occupied_angles, c.defense_malus) == (8, 16, (), 4, -6)


def test_a_seventeenth_sylphe_finds_no_room() -> None:
    assert len(crowding(2, [-2] * 17, 4, SEED_SURFACES).refused) == 1


def test_only_one_of_two_giants_can_attack_the_will_o_the_wisp() -> None:
    c = crowding(-4, [4, 4], 6, SEED_SURFACES)
    assert c.sole_giant
    assert c.admitted == (0,)
    assert c.refused == (1,)
    assert c.defense_malus == 0


def test_between_equal_tailles_four_can_attack_one_on_the_ground() -> None:
    c = crowding(0, [0] * 5, 4, SEED_SURFACES)
    assert (len(c.admitted), c.occupied_angles, c.defense_malus) == (4, 4, -6)


def test_a_corridor_leaves_two_angles() -> None:
    c = crowding(0, [0, 0, 0], 2, SEED_SURFACES)
    assert (len(c.admitted), c.defense_malus) == (2, -2)


def test_a_giant_fills_four_angles_of_a_human_sized_defender() -> None:
    c = crowding(0, [4, 0, 0], 6, SEED_SURFACES)
    assert c.admitted == (0, 1, 2)
    assert c.occupied_angles == 6


@pytest.mark.parametrize(
    ("targets", "fits"),
    [((-4,) * 8, True), ((-2,) * 4, True), ((-2, -2, -4, -4, -4, -4), True), ((-4,) * 9, False), ((-2,) * 5, False)],
)
def test_the_hungry_ogre_swallows_a_surface_of_eight(targets: tuple[int, ...], fits: bool) -> None:
    s = sweep(2, targets, SEED_SURFACES)
    assert s.capacity == 8
    assert s.fits is fits
