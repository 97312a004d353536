"""The exact event-driven integrator against code_aster SDND104 / SDND101 references and the closed forms."""

import math

import numpy as np
import pytest

from fem2d.exact.modal_references import sdnd101_impact, sdnd104_stick_slip_power
from fem2d.modal.basis import Excitation, ModalProblem
from fem2d.modal.events import event_driven
from fem2d.modal.run import run_modal
from fem2d.modal.shocks import Obstacle
from fem2d.model.timefunctions import Constant, PiecewiseLinear, Sine

WITH_SPRING = {15.0: 15.2667649153756, 1.5: 0.409062758890373, 1.01: 2.26164125885919e-4}
WITHOUT_SPRING = {15.0: 15.2670995893716, 1.5: 0.409062451015709, 1.01: 2.26164121279785e-4}


def sdnd104(a0: float, spring: float = 3e-5) -> ModalProblem:
    plane = Obstacle(node_modes=np.array([[1.0], [0.0]]), kind="plan_z", normal=[0.0, 1.0], origin=[0.0, 1.0],
                     gap=0.5, kn=20.0, kt=9e6, mu_static=0.1)
    accel = Excitation(np.array([-1.0]), Sine(a0, 2.0 * math.pi))
    return ModalProblem(masses=[1.0], stiffnesses=[spring], excitations=(accel,), obstacles=(plane,))


@pytest.mark.parametrize("a0", [15.0, 1.5, 1.01])
def test_sdnd104_exact_wear_with_the_spring(a0):
    p = event_driven(sdnd104(a0), 12.0).wear_power(0, (4.0, 12.0))
    assert p == pytest.approx(WITH_SPRING[a0], rel=1e-9)


@pytest.mark.parametrize("a0", [15.0, 1.5, 1.01])
def test_sdnd104_exact_wear_without_the_spring_matches_spec(a0):
    p = event_driven(sdnd104(a0, spring=0.0), 12.0).wear_power(0, (4.0, 12.0))
    assert p == pytest.approx(WITHOUT_SPRING[a0], rel=1e-9)


@pytest.mark.parametrize("a0", [1.5, 1.01])
def test_stick_slip_is_periodic_from_the_start_and_matches_the_closed_form(a0):
    sol = event_driven(sdnd104(a0, spring=0.0), 3.0)
    closed = sdnd104_stick_slip_power(a0)
    assert sol.wear_power(0, (1.0, 3.0)) == pytest.approx(closed, rel=1e-10)
    # any one-period window that starts and ends in stick holds one full cycle from the very first slip
    t1 = math.asin(1.0 / a0) / (2.0 * math.pi)
    assert sol.wear_power(0, (0.9 * t1, 1.0 + 0.9 * t1)) == pytest.approx(closed, rel=1e-10)


def test_sdnd104_stick_regime_gives_exactly_zero():
    sol = event_driven(sdnd104(0.99), 12.0)
    assert sol.wear_power(0, (4.0, 12.0)) == 0.0
    assert len(sol.phases) == 1 and sol.phases[0].stick == 0


def test_sdnd104_slip_phases_alternate_direction_in_slip_slip():
    sol = event_driven(sdnd104(15.0), 4.0)
    dirs = [ph.slip[0] for ph in sol.phases if 0 in ph.slip]
    assert all(a == -b for a, b in zip(dirs, dirs[1:], strict=False))
    assert sol.phases[0].stick == 0  # starts stuck to the plane


def test_sdnd101_exact_impacts():
    ref = sdnd101_impact()
    stop = Obstacle(node_modes=np.array([[1.0], [0.0]]), kind="plan_z", normal=[1.0, 0.0], origin=[-1.0, 0.0],
                    gap=1.0, kn=1e6)
    q = run_modal(ModalProblem([100.0], [1e4], obstacles=(stop,), v0=[1.0]), "exact", 5e-4, 0.5,
                  window=(0.0, 0.495)).quantities
    assert q["n_impacts"] == 2
    assert q["impact_1_f_max"] == pytest.approx(9950.3719021, rel=1e-8)
    assert q["impact_1_t_peak"] == pytest.approx(0.0156300076, rel=1e-8)
    assert q["impact_1_duration"] == pytest.approx(0.0312600153, rel=1e-8)
    assert q["impact_2_t_peak"] == pytest.approx(0.3610492883, rel=1e-8)
    assert q["impact_2_t_peak"] == pytest.approx(ref["t_peak_2"], rel=1e-12)
    assert q["impact_2_impulse"] == pytest.approx(ref["impulse"], rel=1e-12)
    assert q["impact_2_v_impact"] == pytest.approx(-1.0, rel=1e-12)
    assert q["impact_1_n_elementary"] == 1


def test_free_forced_oscillation_matches_the_closed_form():
    m, k, F, W = 2.0, 50.0, 3.0, 7.0
    w0 = math.sqrt(k / m)
    problem = ModalProblem([m], [k], excitations=(Excitation([1.0], Sine(F, W, 0.3)),
                                                    Excitation([1.0], Constant(1.5))), q0=[0.1])
    t = np.linspace(0.0, 3.0, 301)
    q = event_driven(problem, 3.0).sample(t)["q"]
    # particular: F sin(Wt + 0.3)/(k - m W^2) + 1.5/k; homogeneous fitted to q0 = 0.1, v0 = 0
    a = F / (k - m * W**2)
    c0 = 0.1 - a * math.sin(0.3) - 1.5 / k
    s0 = -a * W * math.cos(0.3) / w0
    q_ex = a * np.sin(W * t + 0.3) + 1.5 / k + c0 * np.cos(w0 * t) + s0 * np.sin(w0 * t)
    assert np.max(np.abs(q - q_ex)) < 1e-12


def test_events_are_located_to_1e_13():
    sol = event_driven(sdnd104(1.5, spring=0.0), 1.0)
    t_unstick = sol.events[0][0]
    assert sol.events[0][1] == "unstick"
    assert t_unstick == pytest.approx(math.asin(1.0 / 1.5) / (2.0 * math.pi), abs=1e-13)


def test_unsupported_inputs_are_rejected():
    with pytest.raises(NotImplementedError):
        event_driven(ModalProblem([1.0, 1.0], [1.0, 2.0]), 1.0)
    table = Excitation([1.0], PiecewiseLinear([0.0, 1.0], [0.0, 1.0]))
    with pytest.raises(NotImplementedError):
        event_driven(ModalProblem([1.0], [1.0], excitations=(table,)), 1.0)
