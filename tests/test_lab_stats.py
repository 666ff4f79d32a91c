"""The balance lab's statistics against known values."""

from __future__ import annotations

import math

import pytest

from rulebook.lab.stats import (
    betainc,
    normal_sf,
    one_proportion_z,
    student_t_sf,
    two_proportion_z,
    welch_t,
    wilson,
)


@pytest.mark.parametrize(
    ("x", "n", "low", "high"),
    [
        (5, 10, 0.2366, 0.7634),  # the textbook 5 of 10
        (0, 10, 0.0, 0.2775),  # the interval stays inside [0, 1] at the edges
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),  # 81 of 263 (Wallis 2013's worked example)
        (50, 100, 0.4038, 0.5962),
    ],
)
def test_wilson_interval_known_values(x: int, n: int, low: float, high: float) -> None:
    got = wilson(x, n)
    assert got[0] == pytest.approx(low, abs=5e-4)
    assert got[1] == pytest.approx(high, abs=5e-4)


def test_wilson_is_exactly_0_at_no_successes_and_1_at_all() -> None:
    """Issue 17: at 0 wins the lower bound is exactly 0 (it was a tiny positive number for
    many n, e.g. 3.5e-18 at 0 of 100, and the report's error bars crashed), at n exactly 1;
    every interval holds its proportion."""
    for n in range(1, 400):
        assert wilson(0, n)[0] == 0.0, n
        assert wilson(n, n)[1] == 1.0, n
        for x in (0, 1, n / 3, n / 2, n - 1, n):
            if 0 <= x <= n:
                low, high = wilson(x, n)
                assert 0.0 <= low <= x / n <= high <= 1.0, (x, n)


def test_wilson_takes_shared_wins_and_refuses_impossible_counts() -> None:
    low, high = wilson(2.5, 5)
    assert low < 0.5 < high
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(6, 5)


def test_normal_and_student_t_tails() -> None:
    assert normal_sf(1.959963984540054) == pytest.approx(0.025, abs=1e-9)
    assert normal_sf(0) == pytest.approx(0.5)
    assert student_t_sf(2.228138851986, 10) == pytest.approx(0.025, abs=1e-6)  # t(0.975, 10)
    assert student_t_sf(1.812461122811676, 10) == pytest.approx(0.05, abs=1e-6)
    assert student_t_sf(12.7062047361747, 1) == pytest.approx(0.025, abs=1e-6)
    assert student_t_sf(-2.228138851986, 10) == pytest.approx(0.975, abs=1e-6)
    assert student_t_sf(3.0, 1e6) == pytest.approx(normal_sf(3.0), rel=1e-3)
    assert betainc(2, 3, 0.4) == pytest.approx(0.5248, abs=1e-4)


def test_two_proportion_z_known_value() -> None:
    test = two_proportion_z(40, 100, 60, 100)
    assert test.difference == pytest.approx(0.2)
    assert test.statistic == pytest.approx(2.8284, abs=1e-4)
    assert test.p_value == pytest.approx(0.004678, abs=1e-5)
    assert test.significant
    assert two_proportion_z(5, 10, 5, 10).p_value == pytest.approx(1.0)


def test_one_proportion_z_against_an_even_share() -> None:
    test = one_proportion_z(30, 100, 0.25)
    assert test.statistic == pytest.approx(0.05 / math.sqrt(0.25 * 0.75 / 100))
    assert not test.significant


def test_welch_t_matches_the_textbook_example() -> None:
    # Welch's t-test, example 1 of the usual reference: t = -2.46, df = 24.99, p = 0.021
    a1 = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4]
    a2 = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4]
    test = welch_t(a2, a1)  # the statistic is mean(b) - mean(a)
    assert test.statistic == pytest.approx(-2.46, abs=0.01)
    assert test.p_value == pytest.approx(0.021, abs=0.001)
    assert welch_t([1, 1, 1], [1, 1, 1]).p_value == 1.0
    with pytest.raises(ValueError):
        welch_t([1], [1, 2])
