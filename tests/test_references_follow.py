"""The references of the bar, incline and long sliding-block cases are computed
for each run's own settings (case/exact_models.py): an override of a physical
setting moves the reference with it, to the value fem2d.exact gives for the
new settings, instead of voiding a stored number."""

import numpy as np
import pytest

from fem2d.case.loading import load_case
from fem2d.case.references import resolve
from fem2d.exact.bars import BouncingBar, bar_on_wall, two_bars, wave_speed
from fem2d.exact.incline import incline_displacement
from fem2d.exact.sliding_block import SlidingBlock, solve


def references(name, overrides=(), missing=()):
    """The case's reference values for the overrides; only ``missing`` may go unchecked."""
    refs, unchecked = resolve(load_case(name, dict(overrides)))
    assert {u["quantity"] for u in unchecked} == set(missing), unchecked
    return {r["quantity"]: r["value"] for r in refs}


@pytest.mark.parametrize("overrides, young, v0, gap", [
    ({}, 2.0e11, 1.0, 0.0),
    ({"materials.0.E": 1.0e11}, 1.0e11, 1.0, 0.0),
    ({"initial.0.velocity": [2.5, 0.0]}, 2.0e11, 2.5, 0.0),
    ({"mesh.params.wall_gap": 1.0e-4, "materials.0.rho": 2000.0}, 2.0e11, 1.0, 1.0e-4),
])
def test_bar_on_wall_follows_E_v0_and_the_gap(overrides, young, v0, gap):
    rho = overrides.get("materials.0.rho", 8000.0)
    exact = bar_on_wall(1.0, young, rho, 0.05, v0, gap)
    refs = references("bar_wall", overrides)
    assert refs["impact_1_duration"] == pytest.approx(2.0 / wave_speed(young, rho), rel=1e-15)
    assert refs["impact_1_f_max"] == pytest.approx(exact.force, rel=1e-15)
    assert refs["impact_1_impulse"] == pytest.approx(2.0 * rho * 0.05 * v0, rel=1e-12)  # 2 m v0
    assert refs["energy_drift"] == 0.0 and refs["n_reopenings"] == 0.0


@pytest.mark.parametrize("overrides, young, v0", [
    ({}, 2.0e11, 1.0),
    ({"materials.0.E": 5.0e10, "initial.0.velocity": [3.0, 0.0]}, 5.0e10, 3.0),
])
def test_two_bars_follow_E_and_v0(overrides, young, v0):
    exact = two_bars(1.0, young, 8000.0, 0.05, v0)
    refs = references("two_bars", overrides)
    assert refs["impact_1_f_max"] == pytest.approx(exact.force, rel=1e-15)
    assert refs["impact_1_duration"] == pytest.approx(exact.duration, rel=1e-15)
    assert refs["impact_1_impulse"] == pytest.approx(8000.0 * 0.05 * v0, rel=1e-12)  # m v0


def test_bouncing_bar_follows_E_and_the_drop():
    refs = references("bar_bounce", {"materials.0.E": 3.6e8, "mesh.params.wall_gap": 0.45})
    bar = BouncingBar(1.0, 3.6e8, 1000.0, 0.05, 9.81, 0.45)
    assert refs["impact_1_duration"] == pytest.approx(2.0 / 600.0, rel=1e-15)  # c = 600 m/s
    m = 1000.0 * 0.05
    assert refs["impact_1_impulse"] == pytest.approx(2 * m * bar.velocity + 2 * m * 9.81 / 600.0, rel=1e-12)
    # too slow to leave after 2L/c: no exact solution, said, not a failure
    _, unchecked = resolve(load_case("bar_bounce", {"mesh.params.wall_gap": 1e-5}))
    assert unchecked and "must exceed 2 g L / c" in unchecked[0]["reason"]


def test_a_bar_with_a_poisson_ratio_has_no_exact_reference():
    _, unchecked = resolve(load_case("bar_wall", {"materials.0.nu": 0.3}))
    assert {u["quantity"] for u in unchecked} >= {"impact_1_duration", "impact_1_f_max"}
    assert all("nu != 0" in u["reason"] for u in unchecked)


@pytest.mark.parametrize("degrees, mu", [(30.0, 0.3), (25.0, 0.3), (30.0, 0.1), (40.0, 0.5), (10.0, 0.3)])
def test_incline_follows_the_slope_angle_and_mu(degrees, mu):
    theta = np.radians(degrees)
    vector = [7000.0 * 9.81 * np.sin(theta), -7000.0 * 9.81 * np.cos(theta)]
    refs = references("incline", {"loads.0.vector": vector, "contact.mu": mu})
    for t in (1.0, 2.0):
        expected = float(incline_displacement(t, 9.81, theta, mu, 0.07))
        assert refs[f"x_at_{t:.2f}"] == pytest.approx(expected, rel=1e-12, abs=1e-15)
    assert (refs["x_at_2.00"] == 0.0) == (np.tan(theta) <= mu)


@pytest.mark.parametrize("overrides", [{}, {"contact.mu": 0.45}, {"loads.1.value": 2.5e5},
                                       {"materials.0.rho": 8000.0}])
def test_long_sliding_block_follows_mu_the_push_and_the_mass(overrides):
    mu = overrides.get("contact.mu", 0.5)
    ft = overrides.get("loads.1.value", 3.0e5) * 1.0  # the block's left face is 1 m high
    mass = overrides.get("materials.0.rho", 7000.0) * 1.0
    block = SlidingBlock(mass, 24.0e3, mu, ft, 7.0e4, (0.0, 0.07), (0.0, 1.0))
    exact = solve(block, 8.0)
    ext_t, ext_x = exact.extrema()
    missing = {f"{xt}_ext_{k}" for k in range(len(ext_x) + 1, 5) for xt in "xt"} | (
        {"x_rest", "t_rest"} if exact.rest() is None else set())
    refs = references("sdnv104_long", overrides, missing)
    assert refs["x_ext_1"] == pytest.approx(ext_x[0], rel=1e-12)
    assert refs["t_ext_1"] == pytest.approx(ext_t[0], rel=1e-12)
    if exact.rest() is not None:
        assert refs["x_rest"] == pytest.approx(exact.rest()[1], rel=1e-12)
        assert refs["t_rest"] == pytest.approx(exact.rest()[0], rel=1e-12)
    assert len({k for k in refs if k.startswith("x_ext_")}) == min(4, len(ext_x))
