"""euler / devogelaere / adapt against code_aster's printed numbers and the exact references.

References: code_aster SDND104 and SDND101 (code_aster's Euler values for its own
inputs; exact values of the event-driven model, cross-checked in test_events.py
against the closed forms of fem2d.exact.modal_references).
"""

import math

import numpy as np
import pytest

from fem2d.exact.modal_references import sdnd101_impact
from fem2d.modal.basis import Excitation, ModalProblem
from fem2d.modal.integrators import integrate_modal
from fem2d.modal.run import run_modal
from fem2d.modal.shocks import Obstacle
from fem2d.model.timefunctions import PiecewiseLinear, Sine

# exact wear power over [4, 12] with the case's 3e-5 N/m spring (event-driven)
EXACT_P = {15.0: 15.2667649153756, 1.5: 0.409062758890373, 1.01: 2.26164125885919e-4, 0.99: 0.0}
# code_aster's explicit Euler, dt = 1e-4 (SDND104's printed wear power)
ASTER_EULER_P = {15.0: 15.2667964799, 1.5: 0.409077335988, 1.01: 2.26326449113e-4, 0.99: 0.0}
# code_aster's tolerances against the exact value (relative; 0.99 must be exactly 0)
TOL = {15.0: 8e-5, 1.5: 5e-5, 1.01: 8e-4}


def sdnd104(a0: float) -> ModalProblem:
    plane = Obstacle(node_modes=np.array([[1.0], [0.0]]), kind="plan_z", normal=[0.0, 1.0], origin=[0.0, 1.0],
                     gap=0.5, kn=20.0, kt=9e6, mu_static=0.1, name="plane")
    accel = Excitation(np.array([-1.0]), Sine(a0, 2.0 * math.pi))  # -m a(t), m = 1
    return ModalProblem(masses=[1.0], stiffnesses=[3e-5], excitations=(accel,), obstacles=(plane,))


def sdnd101() -> ModalProblem:
    stop = Obstacle(node_modes=np.array([[1.0], [0.0]]), kind="plan_z", normal=[1.0, 0.0], origin=[-1.0, 0.0],
                    gap=1.0, kn=1e6, name="stop")
    return ModalProblem(masses=[100.0], stiffnesses=[1e4], obstacles=(stop,), v0=[1.0])


@pytest.mark.parametrize("a0", [15.0, 1.5, 1.01, 0.99])
def test_euler_reproduces_code_aster_sdnd104(a0):
    p = run_modal(sdnd104(a0), "euler", 1e-4, 12.0, window=(4.0, 12.0)).quantities["wear_power"]
    if a0 == 0.99:
        assert p == 0.0
    else:
        assert p == pytest.approx(ASTER_EULER_P[a0], rel=1e-6)
        assert abs(p / EXACT_P[a0] - 1.0) < TOL[a0]


@pytest.mark.parametrize("scheme", ["devogelaere", "adapt"])
@pytest.mark.parametrize("a0", [pytest.param(15.0, marks=pytest.mark.slow), 1.5, 1.01, 0.99])  # 15: 16 s each
def test_devogelaere_and_adapt_within_code_aster_tolerances(scheme, a0):
    p = run_modal(sdnd104(a0), scheme, 1e-4, 12.0, window=(4.0, 12.0)).quantities["wear_power"]
    if a0 == 0.99:
        assert p == 0.0
    else:
        assert abs(p / EXACT_P[a0] - 1.0) < TOL[a0]


def test_euler_sdnd101_impacts():
    ref = sdnd101_impact()
    q = run_modal(sdnd101(), "euler", 5e-4, 0.5, window=(0.0, 0.495)).quantities
    assert q["n_impacts"] == 2
    assert abs(q["impact_1_f_max"] / 9950.3719 - 1.0) < 1e-3
    assert abs(q["impact_2_impulse"] / 198.0198 - 1.0) < 1e-3
    assert abs(q["impact_2_v_impact"] + 1.0) < 1e-3
    assert abs(q["impact_2_duration"] / ref["duration"] - 1.0) < 0.02
    # code_aster's own printed Euler values (SDND101, EULER, dt = 5e-4)
    assert q["impact_1_t_peak"] == pytest.approx(1.55e-2, rel=1e-9)
    assert q["impact_1_f_max"] == pytest.approx(9952.685590457, rel=1e-10)
    assert q["impact_2_t_peak"] == pytest.approx(0.361, rel=1e-9)
    assert q["impact_2_f_max"] == pytest.approx(9954.7807740037, rel=1e-10)
    assert q["impact_2_duration"] == pytest.approx(0.0315, rel=1e-9)
    assert q["impact_2_impulse"] == pytest.approx(198.09273674733, rel=1e-10)
    assert q["impact_2_v_impact"] == pytest.approx(-1.0003141755606, rel=1e-10)
    assert q["f_max_abs"] == pytest.approx(9954.7807740037, rel=1e-10)
    assert q["impact_1_n_elementary"] == q["impact_2_n_elementary"] == 1


def _forced_oscillator():
    m, k, F, W = 1.0, (2.0 * math.pi) ** 2, 1.0, 3.0
    w0 = math.sqrt(k / m)
    amp = F / (m * (w0**2 - W**2))

    def exact_q(t):
        return amp * (math.sin(W * t) - W / w0 * math.sin(w0 * t))

    return ModalProblem([m], [k], excitations=(Excitation([1.0], Sine(F, W)),)), exact_q


def test_observed_orders_euler_2_devogelaere_4():
    problem, exact_q = _forced_oscillator()
    dts = np.array([1e-2, 5e-3, 2.5e-3, 1.25e-3])
    orders = {}
    for scheme in ("euler", "devogelaere"):
        errs = [abs(integrate_modal(problem, scheme, dt, 1.0).q[-1, 0] - exact_q(1.0)) for dt in dts]
        orders[scheme] = np.polyfit(np.log(dts), np.log(errs), 1)[0]
    assert orders["euler"] == pytest.approx(2.0, abs=0.1)
    assert orders["devogelaere"] == pytest.approx(4.0, abs=0.15)


def test_damped_free_vibration_decays_at_the_modal_rate():
    xi, w = 0.05, 2.0 * math.pi
    problem = ModalProblem([2.0], [2.0 * w**2], damping=[2.0 * xi * w * 2.0], q0=[1.0])
    h = integrate_modal(problem, "devogelaere", 1e-3, 2.0)
    wd = w * math.sqrt(1 - xi**2)
    t = h.t
    q_ex = np.exp(-xi * w * t) * (np.cos(wd * t) + xi * w / wd * np.sin(wd * t))
    assert np.max(np.abs(h.q[:, 0] - q_ex)) < 1e-8


def test_adapt_refines_in_stick_and_archives_on_the_grid():
    h = integrate_modal(sdnd104(1.5), "adapt", 1e-4, 2.0)
    assert h.rejected > 0  # the stick stiffness forces smaller steps
    assert h.steps > 20000
    np.testing.assert_allclose(h.t, 1e-4 * np.arange(h.t.size), atol=0.6e-4)
    assert h.t[-1] == pytest.approx(2.0, abs=1e-12)


def test_archive_stride_keeps_first_and_last_samples():
    h = integrate_modal(sdnd101(), "euler", 5e-4, 0.5, archive_stride=7)
    assert h.t[0] == 0.0 and h.t[-1] == pytest.approx(0.5)
    np.testing.assert_allclose(np.diff(h.t[:-1]), 7 * 5e-4)
    full = integrate_modal(sdnd101(), "euler", 5e-4, 0.5)
    np.testing.assert_array_equal(h.q[:-1, 0], full.q[::7, 0])


def test_tabulated_excitation_is_interpolated_linearly():
    times = np.array([0.0, 0.5, 1.0])
    values = np.array([0.0, 2.0, 2.0])
    fun = PiecewiseLinear(times, values)
    assert fun(0.25) == pytest.approx(1.0) and fun(3.0) == 2.0
    # a free unit mass under this force: q'' = 4 t up to 0.5 s, then 2
    problem = ModalProblem([1.0], [0.0], excitations=(Excitation([1.0], fun),))
    h = integrate_modal(problem, "devogelaere", 1e-3, 1.0)
    # exact: q(0.5) = (2/3) 0.5^3 = 1/12, v(1) = 2 * 0.5^2 + 2 * 0.5 = 1.5
    assert h.v[-1, 0] == pytest.approx(1.5, rel=1e-6)
    assert h.q[500, 0] == pytest.approx(0.5**3 * 2.0 / (6 * 0.5), rel=1e-6)


def test_unknown_scheme_is_rejected():
    with pytest.raises(ValueError, match="unknown modal integrator"):
        integrate_modal(sdnd101(), "rk4", 1e-3, 0.1)
