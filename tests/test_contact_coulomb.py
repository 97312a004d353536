"""Coulomb friction: return map and its consistent tangent, natural residual, Alart-Curnier statuses."""

import numpy as np
import pytest

from fem2d.contact.coulomb import alart_curnier_status, natural_residual, return_map
from fem2d.contact.problem import OPEN, SLIP, STICK


def test_return_map_stick_and_slip():
    rm = return_map(np.array([0.5, -0.5, 2.0, -3.0, 1.0]), np.array([1.0, 1.0, 1.0, 1.0, -1.0]))
    np.testing.assert_allclose(rm.force, [0.5, -0.5, 1.0, -1.0, 0.0])
    np.testing.assert_array_equal(rm.stick, [True, True, False, False, False])


def test_return_map_consistent_tangent_by_finite_differences():
    rng = np.random.default_rng(2)
    trial = rng.uniform(-3, 3, 50)
    tau = rng.uniform(0.1, 2, 50)
    rm = return_map(trial, tau)
    h = 1e-7
    d_trial = (return_map(trial + h, tau).force - return_map(trial - h, tau).force) / (2 * h)
    d_tau = (return_map(trial, tau + h).force - return_map(trial, tau - h).force) / (2 * h)
    np.testing.assert_allclose(rm.d_trial, d_trial, atol=1e-6)
    np.testing.assert_allclose(rm.d_threshold, d_tau, atol=1e-6)


def test_natural_residual_vanishes_exactly_on_the_law():
    mu = 0.3
    # open with a gap; stuck inside the cone; sliding +/- with the opposing force; touching, no force
    lam_n = np.array([0.0, 10.0, 10.0, 10.0, 0.0])
    lam_t = np.array([0.0, 2.0, -3.0, 3.0, 0.0])
    gap = np.array([0.5, 0.0, 0.0, 0.0, 0.0])
    slip = np.array([0.7, 0.0, 0.2, -0.4, 0.0])
    np.testing.assert_allclose(natural_residual(lam_n, lam_t, gap, slip, mu, 1.0), 0.0)
    # violations: penetration, tension, force outside the cone, force helping the slip
    bad = natural_residual(
        np.array([0.0, -1.0, 10.0, 10.0]),
        np.array([0.0, 0.0, 4.0, 3.0]),
        np.array([-0.1, 0.0, 0.0, 0.0]),
        np.array([0.0, 0.0, 0.0, 0.2]),
        mu,
        1.0,
    )
    assert np.all(bad > 0)


@pytest.mark.parametrize("rho", [1e-3, 1.0, 1e3])
def test_alart_curnier_statuses_at_a_solution_do_not_depend_on_rho(rho):
    mu = 0.3
    lam_n = np.array([0.0, 10.0, 10.0])
    lam_t = np.array([0.0, 2.0, -3.0])
    gap = np.array([0.5, 0.0, 0.0])
    slip = np.array([0.0, 0.0, 0.2])
    status, direction = alart_curnier_status(lam_n, lam_t, gap, slip, rho, rho, mu)
    np.testing.assert_array_equal(status, [OPEN, STICK, SLIP])
    np.testing.assert_array_equal(direction, [0.0, 0.0, 1.0])
