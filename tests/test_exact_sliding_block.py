"""The exact SDNV104 reference (rigid block, spring, Coulomb friction) against its analytic model's printed values."""

import numpy as np
import pytest

from fem2d.exact.sliding_block import SlidingBlock, instant_extrema, newmark_block, solve


@pytest.fixture(scope="module")
def ramped():
    return solve(SlidingBlock(), 20.0)


@pytest.fixture(scope="module")
def instant():
    return solve(SlidingBlock.with_ramp(0.0), 20.0)


def test_values_at_the_tested_instants(ramped):
    x = ramped.x(np.array([1.70, 3.40]))
    assert x[0] == pytest.approx(14.898649, abs=5e-7)
    assert x[1] == pytest.approx(3.513052, abs=5e-7)


def test_first_extrema_with_the_ramp(ramped):
    t, x = ramped.extrema()
    assert (t[0], x[0]) == (pytest.approx(1.731654, abs=5e-7), pytest.approx(14.911447, abs=5e-7))
    assert (t[1], x[1]) == (pytest.approx(3.428308, abs=5e-7), pytest.approx(3.505220, abs=5e-7))
    # the velocity vanishes there (events found to round-off)
    assert np.all(np.abs(ramped.v(t)) < 1e-9)


def test_instant_loads_match_the_textbook_closed_form(instant):
    t, x = instant.extrema()
    assert (t[0], x[0]) == (pytest.approx(1.696654, abs=5e-7), pytest.approx(14.916667, abs=5e-7))
    assert (t[1], x[1]) == (pytest.approx(3.393308, abs=5e-7), pytest.approx(3.5, abs=1e-12))
    t_ref, x_ref = instant_extrema(instant.block, len(t))
    np.testing.assert_allclose(t, t_ref, rtol=0, atol=1e-12)
    np.testing.assert_allclose(x, x_ref, rtol=0, atol=1e-10)
    # x(t) = (F - f)/k (1 - cos wt) on the first half period
    b = instant.block
    tt = np.linspace(0.0, np.pi / b.omega, 7)
    first = (b.ft - b.mu * b.fn) / b.stiffness * (1.0 - np.cos(b.omega * tt))
    np.testing.assert_allclose(instant.x(tt), first, rtol=0, atol=1e-12)


def test_rest_position_and_time(instant, ramped):
    b = instant.block
    f, big_f, k = b.mu * b.fn, b.ft, b.stiffness
    t_rest, x_rest = instant.rest()
    # x_5 = 2(F - 5 f)/k is the first extremum inside [(F - f)/k, (F + f)/k]
    assert x_rest == pytest.approx(2.0 * (big_f - 5.0 * f) / k, abs=1e-10)
    assert t_rest == pytest.approx(5.0 * np.pi / b.omega, abs=1e-12)
    assert (big_f - f) / k <= x_rest <= (big_f + f) / k
    t_r, x_r = ramped.rest()
    assert ramped.extrema()[1][-1] == x_r
    assert abs(ramped.block.ft - k * x_r) <= f
    assert ramped.x(np.array([t_r + 3.0]))[0] == x_r


def test_stick_slip_from_rest_when_the_push_is_small():
    # F_t < mu F_n: the block never moves
    sol = solve(SlidingBlock(ft=1e4), 5.0)
    assert sol.rest() == (0.0, 0.0)
    assert np.all(sol.x(np.linspace(0, 5, 11)) == 0.0)


def test_general_piecewise_linear_ramp():
    # loads up to full in 0.07 s, then halved at 2 s: a stick then slip phase
    block = SlidingBlock(ramp_t=(0.0, 0.07, 2.0, 2.1), ramp_r=(0.0, 1.0, 1.0, 0.5))
    sol = solve(block, 40.0)
    t = np.linspace(0.0, 40.0, 8001)
    x, v = sol.x(t), sol.v(t)
    assert np.all(np.isfinite(x)) and np.all(np.isfinite(v))
    # continuity of the trajectory across phases
    assert np.max(np.abs(np.diff(x))) < 0.2
    t_r, x_r = sol.rest()
    r = float(block.ramp(t_r))
    assert abs(block.ft * r - block.stiffness * x_r) <= block.mu * block.fn * r + 1e-9


def test_code_aster_hht_numbers_come_from_the_time_scheme():
    block = SlidingBlock()
    alpha = -0.3
    t, x = newmark_block(block, 0.01, 3.5, beta=(1 - alpha) ** 2 / 4, gamma=0.5 - alpha)
    assert x[170] == pytest.approx(14.836107, rel=2e-6)
    assert x[340] == pytest.approx(3.624710, rel=2e-6)


def test_average_acceleration_is_close_to_exact_at_dt_001():
    t, x = newmark_block(SlidingBlock(), 0.01, 3.5)
    assert t[170] == pytest.approx(1.70)
    assert round(x[170], 3) == 14.898
    assert round(x[340], 3) == 3.513
