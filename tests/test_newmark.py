"""Newmark/HHT on linear systems: energy, period elongation, step control."""

import numpy as np
import pytest
import scipy.sparse as sp

from fem2d.dynamics.coupling import StepFailed
from fem2d.dynamics.schemes import NewmarkScheme
from fem2d.dynamics.stepper import NewmarkStepper, march
from fem2d.errors import ConvergenceError
from fem2d.linalg import get_solver
from fem2d.mesh import CellBlock, Mesh
from fem2d.model.system import System


def oscillator(m=2.0, k=50.0, v0=1.0) -> System:
    """One node, DY fixed: a mass-spring in x with initial velocity v0."""
    mesh = Mesh(np.zeros((1, 2)), {"NO1": CellBlock("point", [[0]])})
    K = sp.csr_matrix(np.diag([k, 0.0]))
    return System(
        mesh=mesh,
        K=K,
        M=sp.csr_matrix(np.diag([m, m])),
        K_springs=K,
        fixed=np.array([1]),
        fixed_values=np.zeros(1),
        initial_velocity=np.array([v0, 0.0]),
    )


def _run(system, scheme, dt, n_steps):
    stepper = NewmarkStepper(system, scheme, get_solver("superlu"))
    rows = []
    state = stepper.initial_state()
    rows.append((state.t, state.u[0], state.v[0]))
    march(stepper, state, n_steps * dt, dt, lambda prev, new: rows.append((new.t, new.u[0], new.v[0])))
    return np.array(rows), stepper


def test_average_acceleration_conserves_energy_over_1000_steps():
    m, k = 2.0, 50.0
    rows, _ = _run(oscillator(m, k), NewmarkScheme(0.25, 0.5), dt=0.07, n_steps=1000)
    energy = 0.5 * m * rows[:, 2] ** 2 + 0.5 * k * rows[:, 1] ** 2
    assert np.abs(energy / energy[0] - 1).max() < 1e-10


def test_energy_conservation_on_an_elastic_body():
    """The same on a finite-element model (the SDNV104 block on rollers, springs,
    no friction). The tolerance is looser than for one dof: the block slides
    8 m through K ~ 1e11 N/m, so even the accumulated internal force K u
    carries round-off (computed afresh, 1/2 u^T K u would carry ~1e-2 J)."""
    from fem2d.case.build import build_analysis
    from fem2d.case.loading import load_case
    from fem2d.dynamics.history import DirectHistory

    analysis = build_analysis(load_case("sdnv104a", {"contact.slave": "LESC"})).analysis
    system = analysis.model.assemble()
    system.zones.clear()
    system.fixed = np.union1d(system.fixed, 2 * system.mesh.group_nodes("LESC") + 1)
    system.fixed_values = np.zeros(len(system.fixed))
    for key in ("free", "free_index", "K_free", "M_free", "C_free", "_lift"):
        system.__dict__.pop(key, None)
    stepper = NewmarkStepper(system, NewmarkScheme(), get_solver("superlu"))
    history = DirectHistory(system, analysis.report.dof(system.mesh))
    state = stepper.initial_state()
    history.start(state)
    march(stepper, state, 1.0, 0.001, history.on_step)
    series = history.arrays()
    assert series["work_loads"][-1] > 1e6
    assert np.abs(series["energy_residual"]).max() < 1e-9 * series["work_loads"][-1]


@pytest.mark.parametrize("beta", [0.25, 0.3025, 0.4225])
def test_period_elongation_matches_newmark_formula(beta):
    """gamma = 1/2: cos(w_h dt) = 1 - (W^2/2) / (1 + beta W^2), W = w dt."""
    m, k, dt = 1.0, 1.0, 0.3
    rows, _ = _run(oscillator(m, k), NewmarkScheme(beta, 0.5), dt=dt, n_steps=3000)
    t, u = rows[:, 0], rows[:, 1]
    up = np.flatnonzero((u[:-1] < 0) & (u[1:] >= 0))  # upward zero crossings
    crossings = t[up] - u[up] * dt / (u[up + 1] - u[up])
    period = np.polyfit(np.arange(len(crossings)), crossings, 1)[0]
    W = np.sqrt(k / m) * dt
    expected = 2 * np.pi * dt / np.arccos(1 - 0.5 * W**2 / (1 + beta * W**2))
    assert period == pytest.approx(expected, rel=1e-6)
    assert period > 2 * np.pi  # it is an elongation


def test_hht_is_code_asters_modified_average_acceleration():
    s = NewmarkScheme.hht(-0.3)
    assert (s.beta, s.gamma) == pytest.approx((0.4225, 0.8))
    with pytest.raises(ValueError):
        NewmarkScheme.hht(-0.5)


def test_hht_damps_and_average_acceleration_does_not():
    rows_aa, _ = _run(oscillator(), NewmarkScheme(), dt=0.5, n_steps=200)
    rows_hht, _ = _run(oscillator(), NewmarkScheme.hht(-0.3), dt=0.5, n_steps=200)
    assert abs(rows_aa[-1, 2]) ** 2 + 25 * rows_aa[-1, 1] ** 2 == pytest.approx(1.0, rel=1e-10)
    assert abs(rows_hht[-1, 2]) ** 2 + 25 * rows_hht[-1, 1] ** 2 < 0.5


def test_factorisation_happens_once_per_step_size():
    _, stepper = _run(oscillator(), NewmarkScheme(), dt=0.01, n_steps=500)
    assert stepper.counters.factorizations == 1
    assert stepper.counters.steps == 500


class _FailingStepper(NewmarkStepper):
    """Fails every step longer than ``limit``."""

    limit = 0.002

    def step(self, state, dt, t_new=None):
        if dt > self.limit * (1 + 1e-9):
            raise StepFailed(1.0, 7)
        return super().step(state, dt, t_new)


def test_failed_steps_are_cut_and_the_grid_is_kept():
    stepper = _FailingStepper(oscillator(), NewmarkScheme(), get_solver("superlu"))
    times = []
    march(stepper, stepper.initial_state(), 0.1, 0.01, lambda p, n: times.append(n.t), cut_factor=5)
    assert stepper.counters.cuts == 10
    assert np.allclose(times, np.arange(1, 51) * 0.002)
    reference, _ = _run(oscillator(), NewmarkScheme(), dt=0.002, n_steps=50)
    state_times = reference[1:, 0]
    np.testing.assert_allclose(times, state_times, atol=1e-15)


def test_too_small_step_is_a_clear_error():
    stepper = _FailingStepper(oscillator(), NewmarkScheme(), get_solver("superlu"))
    stepper.limit = 1e-9
    with pytest.raises(ConvergenceError, match=r"t = 0 s .*min_dt.*residual 1.000e\+00 after 7 iterations"):
        march(stepper, stepper.initial_state(), 0.1, 0.01, lambda p, n: None, cut_factor=5, min_dt=1e-6)


def _error_at(scheme, dt, t_end=2.0):
    """|u(t_end) - exact| for the undamped oscillator (w = 5 rad/s, u = v0/w sin wt)."""
    rows, _ = _run(oscillator(2.0, 50.0), scheme, dt=dt, n_steps=int(round(t_end / dt)))
    return abs(rows[-1, 1] - np.sin(5.0 * t_end) / 5.0)


@pytest.mark.parametrize(
    "scheme, order",
    [
        (NewmarkScheme(), 2),
        (NewmarkScheme.generalized_alpha(0.7), 2),
        (NewmarkScheme.hht_alpha(-0.1), 2),
        (NewmarkScheme.hht(-0.3), 1),  # code_aster's form: gamma != 1/2
    ],
)
def test_observed_orders(scheme, order):
    dts = [0.02, 0.01, 0.005, 0.0025]
    errors = [_error_at(scheme, dt) for dt in dts]
    rate = np.polyfit(np.log(dts), np.log(errors), 1)[0]
    assert rate == pytest.approx(order, abs=0.1)


@pytest.mark.parametrize("rho_inf", [0.0, 0.5, 0.7, 1.0])
def test_generalized_alpha_spectral_radius_at_infinity(rho_inf):
    """A mode with w dt = 1e4 decays by rho_inf per step. The eigenvalue is
    triple there (amplitude ~ n^2 rho^n), so the ratio per step over steps
    20..40 lies between rho_inf and 2^(1/10) rho_inf (and the amplitude,
    0.5^40 ~ 1e-12 of the initial one at worst, stays above round-off)."""
    m, k, dt = 1.0, 1e8, 1.0  # w dt = 1e4
    rows, _ = _run(oscillator(m, k, v0=1.0), NewmarkScheme.generalized_alpha(rho_inf), dt=dt, n_steps=40)
    amplitude = np.sqrt(m * rows[:, 2] ** 2 + k * rows[:, 1] ** 2)
    if rho_inf == 0.0:
        assert amplitude[3] < 1e-6 * amplitude[0]
        return
    ratio = (amplitude[40] / amplitude[20]) ** (1 / 20)
    assert rho_inf * (1 - 1e-6) <= ratio <= rho_inf * 2 ** 0.1


def test_static_scheme_follows_the_load_level_by_level():
    """Weights (1, 0, 0): each instant is the equilibrium K u = f(t) of a
    spring under a ramped force, velocity and acceleration zero; the same
    system under average acceleration oscillates about it."""
    from fem2d.dynamics.schemes import StaticScheme
    from fem2d.model.system import Load
    from fem2d.model.timefunctions import PiecewiseLinear

    k, force = 50.0, 3.0
    system = oscillator(k=k, v0=0.0)
    system.loads.append(Load(np.array([force, 0.0]), PiecewiseLinear((0.0, 1.0), (0.0, 1.0))))
    assert StaticScheme().weights(0.1) == (1.0, 0.0, 0.0)
    rows, _ = _run(system, StaticScheme(), dt=0.1, n_steps=15)
    expected = force * np.minimum(rows[:, 0], 1.0) / k
    assert np.abs(rows[:, 1] - expected).max() < 1e-14
    assert not rows[:, 2].any()
    dynamic, _ = _run(system, NewmarkScheme(), dt=0.1, n_steps=15)
    assert np.abs(dynamic[:, 1] - expected).max() > 1e-3
