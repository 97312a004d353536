"""code_aster's shock law (fem2d.modal.shocks): normal force, stick anchor, slip, default CT."""

import math

import numpy as np
import pytest

from fem2d.modal.shocks import (
    N_REC,
    REC_CONTACT,
    REC_D,
    REC_FN,
    REC_FT,
    REC_STUCK,
    REC_VN,
    REC_VT,
    REC_XT,
    Obstacle,
    default_tangential_damping,
    pack_obstacles,
    shock_forces,
)


def _one(ob: Obstacle, ct: float | None = None):
    arrays = pack_obstacles([ob], 1)
    if ct is not None:
        arrays.par[0, 3] = ct
    iadh, state = arrays.initial_state(np.zeros(1))
    rec = np.zeros((1, N_REC))

    def call(q: float, v: float):
        f = np.zeros(1)
        shock_forces(np.array([q]), np.array([v]), arrays.kind, arrays.phi, arrays.geo, arrays.par, iadh, state, f, rec)
        return f[0], rec[0].copy()

    return call, iadh, state


def sdnd104_obstacle(**kw) -> Obstacle:
    base = dict(node_modes=np.array([[1.0], [0.0]]), kind="plan_z", normal=[0.0, 1.0], origin=[0.0, 1.0],
                gap=0.5, kn=20.0, kt=1000.0, ct=0.0, mu_static=0.1)
    base.update(kw)
    return Obstacle(**base)


def test_plan_z_overlap_gives_the_normal_force_and_no_generalised_force_along_a_tangential_mode():
    call, _, _ = _one(sdnd104_obstacle(mu_static=0.0))
    f, rec = call(0.3, 0.0)
    assert rec[REC_D] == pytest.approx(-0.5, abs=1e-15)
    assert rec[REC_FN] == pytest.approx(10.0, rel=1e-15)
    assert rec[REC_CONTACT] == 1.0
    assert rec[REC_XT] == pytest.approx(-0.3, abs=1e-15)  # t = (-n_y, n_x) = (-1, 0)
    assert f == 0.0  # the mode moves along x, the normal is y


def test_normal_force_is_penalty_plus_damping_clamped_at_zero():
    ob = Obstacle(node_modes=np.array([[1.0], [0.0]]), kind="plane", normal=[-1.0, 0.0], origin=[0.0, 0.0],
                  gap=0.0, kn=1e6, cn=100.0)
    call, _, _ = _one(ob)
    f, rec = call(1e-3, 2.0)  # penetration 1 mm, approaching at 2 m/s: v_n = -2
    assert rec[REC_VN] == pytest.approx(-2.0)
    assert rec[REC_FN] == pytest.approx(1e6 * 1e-3 + 100.0 * 2.0)
    assert f == pytest.approx(-1200.0)  # pushes the node back along -x
    f, rec = call(1e-3, -20.0)  # separating fast: -KN d - CN v_n < 0 -> 0
    assert rec[REC_FN] == 0.0 and rec[REC_CONTACT] == 1.0 and f == 0.0
    f, rec = call(-1e-3, 1.0)  # open
    assert rec[REC_CONTACT] == 0.0 and rec[REC_FN] == 0.0


def test_plan_z_acts_on_both_sides():
    ob = Obstacle(node_modes=np.array([[0.0], [1.0]]), kind="plan_z", normal=[0.0, 1.0], origin=[0.0, 0.0],
                  gap=0.1, kn=100.0)
    call, _, _ = _one(ob)
    f_up, rec = call(0.15, 0.0)
    assert rec[REC_D] == pytest.approx(-0.05) and f_up == pytest.approx(-5.0)
    f_down, rec = call(-0.12, 0.0)
    assert rec[REC_D] == pytest.approx(-0.02) and f_down == pytest.approx(2.0)


def test_stick_anchor_then_slip_then_stick_again():
    call, iadh, state = _one(sdnd104_obstacle(), ct=0.0)
    # first call at rest: stuck, zero force
    _, rec = call(0.0, 0.0)
    assert rec[REC_STUCK] == 1.0 and rec[REC_FT] == 0.0
    # elastic stick: F_t = -KT (x_t - x_a) with x_t = -q
    _, rec = call(2e-4, 1e-7)
    assert rec[REC_STUCK] == 1.0 and rec[REC_FT] == pytest.approx(-1000.0 * (-2e-4))
    # beyond mu F_n = 1 N: slides, F_t = -mu F_n sign(v_t), anchor reset to (x_t, F_t)
    _, rec = call(2e-3, 0.5)
    assert rec[REC_STUCK] == 0.0
    assert rec[REC_VT] == pytest.approx(-0.5)
    assert rec[REC_FT] == pytest.approx(1.0)
    assert state[0, 1] == pytest.approx(1.0) and state[0, 2] == pytest.approx(-2e-3)
    # still sliding the same way
    _, rec = call(3e-3, 0.4)
    assert rec[REC_STUCK] == 0.0 and rec[REC_FT] == pytest.approx(1.0)
    # velocity reverses: stick branch from the anchor, F = 1 - KT (x_t - x_a)
    _, rec = call(2.9999e-3, -1e-3)
    assert rec[REC_STUCK] == 1.0
    assert rec[REC_FT] == pytest.approx(1.0 - 1000.0 * (-2.9999e-3 + 3e-3), rel=1e-9)
    assert iadh[0] == 1


def test_slow_sliding_below_the_velocity_threshold_sticks():
    call, _, _ = _one(sdnd104_obstacle(), ct=0.0)
    call(0.0, 0.0)
    call(5e-3, 1.0)  # slides
    _, rec = call(4.9999e-3, 5e-7)  # |v_t| < 1e-6: stick branch, F_t = 1 - KT * 1e-7 < mu F_n
    assert rec[REC_STUCK] == 1.0


def test_leaving_contact_resets_the_anchor():
    ob = Obstacle(node_modes=np.array([[1.0], [1.0]]), kind="plane", normal=[0.0, 1.0], origin=[0.0, 0.0],
                  gap=0.0, kn=1e3, kt=1e4, ct=0.0, mu_static=0.5)
    call, iadh, state = _one(ob)
    call(-1e-3, 0.0)  # in contact (d = q), stuck
    call(1e-3, 0.0)  # out of contact
    assert iadh[0] == 0 and state[0, 1] == 0.0 and state[0, 2] == pytest.approx(-1e-3)


def test_default_tangential_damping_is_code_asters_rule():
    masses, stiff, xi = np.array([2.0, 5.0, 1.0]), np.array([10.0, 20.0, 30.0]), np.array([0.0, 0.02, 0.0])
    expected = 2.0 * math.sqrt(5.0 * (20.0 + 9e6)) - 2.0 * 0.02 * math.sqrt(20.0 * 5.0)
    assert default_tangential_damping(9e6, masses, stiff, xi) == pytest.approx(expected, rel=1e-15)
    assert default_tangential_damping(0.0, masses, stiff, xi) == 0.0
    packed = pack_obstacles([sdnd104_obstacle(ct=None, kt=9e6)], 1, np.array([1.0]), np.array([3e-5]))
    assert packed.par[0, 3] == pytest.approx(2.0 * math.sqrt(9e6 + 3e-5), rel=1e-15)


def test_invalid_obstacles_are_rejected():
    with pytest.raises(ValueError, match="kind"):
        Obstacle(node_modes=np.zeros((2, 1)), kind="sphere")
    with pytest.raises(ValueError, match="normal"):
        Obstacle(node_modes=np.zeros((2, 1)), normal=[0.0, 0.0])
    with pytest.raises(ValueError, match="2 rows"):
        Obstacle(node_modes=np.zeros((3, 1)))
