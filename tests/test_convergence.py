"""Observed order, Richardson extrapolation and GCI of a quantity over refinement levels
(fem2d.studies.convergence), on synthetic sequences with known limits."""

import numpy as np
import pytest

from fem2d.studies.convergence import FS_THREE, FS_TWO, convergence, fit_power_law

LEVELS = [0, 1, 2, 3]


def _h(levels):
    return 2.0 ** -np.asarray(levels, float)


@pytest.mark.parametrize(("f0", "a", "p"), [(1.0, 0.3, 2.0), (-5.0, 2.0, 1.0), (2.3e9, -4e8, 2.5), (1e-3, 1e-5, 0.7)])
def test_a_power_law_gives_its_order_its_limit_and_a_bar_of_1_25_times_the_true_error(f0, a, p):
    values = f0 + a * _h(LEVELS) ** p
    c = convergence(LEVELS, values)
    assert c.kind == "monotone" and c.fit_levels == (0, 1, 2, 3)
    assert c.order == pytest.approx(p, rel=1e-6) and c.extrapolated == pytest.approx(f0, rel=1e-9)
    assert c.asymptotic is True and c.indicator == pytest.approx(1.0, rel=1e-6)
    true_error = abs(values[-1] - f0)
    assert c.contains(f0) and c.band == pytest.approx(FS_THREE * true_error, rel=1e-6)
    assert c.gci == pytest.approx(c.band / abs(values[-1])) and c.safety_factor == FS_THREE


@pytest.mark.parametrize("b", [-3.0, -1.0, 0.5, 2.0, 6.0])
def test_the_exact_value_is_inside_a_bar_no_wider_than_3x_the_error_where_the_indicator_says_asymptotic(b):
    """f = 1 + h^2 + b h^3 over levels 1-5: where the indicator is near 1 the exact 1 lies
    inside the finest level's bar and the bar is at most 3x the true error; where it is not,
    the study says so (asymptotic False) rather than hand out a bar it cannot vouch for."""
    levels = [1, 2, 3, 4, 5]
    h = _h(levels)
    values = 1.0 + h**2 + b * h**3
    c = convergence(levels, values)
    assert c.kind == "monotone"
    if c.asymptotic:
        true_error = abs(values[-1] - 1.0)
        assert c.contains(1.0) and c.band <= 3 * true_error
    elif c.asymptotic is False:
        assert "not in the asymptotic range" in c.note
    else:  # the range is three levels: untested, and said
        assert "1 by construction" in c.note
    if b == 0.5:  # a mild higher-order term: asymptotic
        assert c.asymptotic is True and c.order == pytest.approx(2.0, abs=0.2)


def test_a_pre_asymptotic_coarse_level_is_left_out_of_the_fit_and_the_range_is_said():
    # level 0 moves the wrong way: the range is levels 1-4 (changes of one sign that shrink)
    values = [1.2, 1.0 + 0.25, 1.0 + 0.0625, 1.0 + 0.015625, 1.0 + 0.00390625]
    c = convergence([0, 1, 2, 3, 4], values)
    assert c.fit_levels == (1, 2, 3, 4) and c.order == pytest.approx(2.0) and c.extrapolated == pytest.approx(1.0)
    assert "order fitted over levels 1-4" in c.note


def test_three_levels_are_celiks_apparent_order_and_the_indicator_is_untested():
    values = [1.1, 1.04, 1.01]
    c = convergence([0, 1, 2], values)
    p = np.log((1.1 - 1.04) / (1.04 - 1.01)) / np.log(2.0)
    assert c.order == pytest.approx(p) and c.extrapolated == pytest.approx(1.01 - 0.03 / (2**p - 1))
    assert c.asymptotic is None and "1 by construction" in c.note


def test_an_oscillating_sequence_gets_no_order_and_a_bar_of_fs_times_its_range():
    c = convergence(LEVELS, [1.3, 0.9, 1.05, 0.98])
    assert c.kind == "oscillating" and c.order is None and c.extrapolated is None
    assert c.band == pytest.approx(FS_THREE * (1.05 - 0.9)) and "no order" in c.note
    assert c.contains(1.0)


def test_a_diverging_sequence_gets_no_error_bar():
    c = convergence(LEVELS, [1.0, 1.1, 1.3, 1.7])
    assert c.kind == "diverging" and c.band is None and c.gci is None and not c.contains(1.7)
    assert "grows from 0.2 (levels 1-2) to 0.4 (levels 2-3)" in c.note


def test_two_levels_take_the_formal_order_and_a_safety_factor_of_3():
    c = convergence([2, 3], [1.0 + 0.25**2, 1.0 + 0.125**2], formal_order=2.0)
    assert c.kind == "two levels" and c.order == 2.0 and c.safety_factor == FS_TWO
    assert c.extrapolated == pytest.approx(1.0) and c.band == pytest.approx(FS_TWO * 0.125**2)
    assert "formal order 2 of the element is assumed" in c.note
    assert convergence([2, 3], [2.0, 1.5], formal_order=1.0).extrapolated == pytest.approx(1.0)


def test_a_quantity_that_does_not_change_is_mesh_converged_and_a_missing_value_is_said():
    c = convergence(LEVELS, [2.0, 2.0 + 1e-9, 2.0 + 2e-9, 2.0 + 2.5e-9])
    assert c.kind == "mesh-converged" and c.band == pytest.approx(FS_THREE * 2.5e-9) and c.order is None
    grows = convergence(LEVELS, [2.0, 2.0 + 1e-9, 2.0 + 3e-9, 2.0 + 7e-9])
    assert "the changes do not shrink yet" in grows.note
    assert convergence(LEVELS, [1.0, None, 1.0, 1.0]).kind == "too few levels"
    assert convergence([0], [1.0]).note == "one level: no change to measure"


def test_levels_need_not_be_consecutive():
    levels = [0, 1, 3]
    values = 4.0 + 0.5 * _h(levels) ** 2
    c = convergence(levels, values)
    assert c.order == pytest.approx(2.0, rel=1e-6) and c.extrapolated == pytest.approx(4.0)
    p, f0 = fit_power_law(_h(levels), values)
    assert p == pytest.approx(2.0, rel=1e-6) and f0 == pytest.approx(4.0)
