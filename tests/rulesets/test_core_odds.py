from fractions import Fraction

import pytest

from rulesets.core.dice import D6, Die
from rulesets.core.odds import Distribution, add, brute_force, keep_highest_sum, product, success_count, sum_of


@pytest.mark.parametrize("count", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("face", [4, 5, 6])
def test_success_count_matches_brute_force(count, face):
    exact = success_count(count, D6, range(face, 7))
    brute = brute_force([D6] * count, lambda faces: sum(1 for f in faces if f >= face))
    assert exact.probabilities == brute.probabilities


@pytest.mark.parametrize("keep", [1, 2, 3])
def test_keep_highest_matches_brute_force(keep):
    dice = [Die("n", (0, 1, 1, 2, 2, 3)), Die("m", (0, 1, 2, 3, 4, 5)), Die("d", (2, 3, 3, 4, 4, 5)), D6]
    exact = keep_highest_sum(dice, keep)
    brute = brute_force(dice, lambda faces: sum(sorted(faces, reverse=True)[:keep]))
    assert exact.probabilities == brute.probabilities


def test_sum_of_two_d6_is_the_triangle():
    dist = sum_of([D6, D6])
    assert dist[7] == Fraction(6, 36)
    assert dist[2] == Fraction(1, 36)
    assert dist.total() == 1


def test_add_and_product_are_exact():
    d = Distribution.uniform([1, 2])
    assert add(d, d).probabilities == {2: Fraction(1, 4), 3: Fraction(1, 2), 4: Fraction(1, 4)}
    assert product(d, d)[(1, 2)] == Fraction(1, 4)


def test_bind_chains_a_dependent_step():
    d = Distribution.uniform([1, 2]).bind(lambda n: Distribution.uniform(range(n)))
    assert d.probabilities == {0: Fraction(3, 4), 1: Fraction(1, 4)}


def test_a_distribution_needs_weight():
    with pytest.raises(ValueError, match="positive total weight"):
        Distribution.of({1: 0})
