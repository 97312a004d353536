"""SDNV104, the sliding block: the five modelisations against the exact rigid
solution, code_aster's HHT numbers, solver independence, and the physics of
the contact forces (momentum and moment balance, Coulomb, pressure, energy)."""

from functools import cache

import numpy as np
import pytest

import fem2d
from fem2d.contact.kinematics import slave_weights
from fem2d.contact.problem import SLIP
from fem2d.exact.sliding_block import SlidingBlock, solve
from fem2d.linalg import solver_names

CASES = ["sdnv104a", "sdnv104b", "sdnv104c", "sdnv104d", "sdnv104e"]
MU, FN = 0.3, 7.0e4


@cache
def run(case: str, **overrides):
    return fem2d.run(case, {k.replace("__", "."): v for k, v in overrides.items()})


@cache
def exact():
    return solve(SlidingBlock(), 3.5)


@pytest.mark.parametrize("case", CASES)
def test_default_settings_match_the_exact_ramped_solution(case):
    q = run(case).quantities
    assert q["x_at_1.70"] == pytest.approx(14.898649, rel=1e-3)
    assert q["x_at_3.40"] == pytest.approx(3.513052, rel=1e-3)
    assert q["x_ext_1"] == pytest.approx(14.911447, rel=1e-3)
    assert q["x_ext_2"] == pytest.approx(3.505220, rel=1e-3)
    assert abs(q["t_ext_1"] - 1.731654) <= 0.01  # within one step
    assert abs(q["t_ext_2"] - 3.428308) <= 0.01
    # what we actually reach at dt = 0.01 (the aim is 1e-4)
    assert q["x_at_1.70"] == pytest.approx(14.898649, rel=3e-5)
    assert q["x_at_3.40"] == pytest.approx(3.513052, rel=1.5e-4)
    assert run(case).passed
    # Richardson extrapolation in time (time.extrapolate, on in these cases) reaches
    # 1e-5 m of the exact rigid block (measured: A +4.4e-6, +1.7e-6; C +4.4e-6, +1.7e-6;
    # D +6.0e-6, +2.1e-6); the penalty cases reach what their soft springs allow, the penalty
    # model's own distance to the rigid block, up to 1.2e-4 m run to convergence (measured:
    # B -4.8e-5, +4.8e-5; E -2.6e-5, +3.4e-5); one run at dt = 0.01: -3.1e-4, +3.4e-4
    sol = exact()
    bound = 1.5e-4 if case in ("sdnv104b", "sdnv104e") else 1e-5
    assert abs(q["x_at_1.70"] - sol.x(1.70)) <= bound
    assert abs(q["x_at_3.40"] - sol.x(3.40)) <= bound
    assert any(note.startswith("Richardson extrapolation of order 2") for note in run(case).notes)
    assert not run(case).warnings


def test_the_exact_reference_is_the_specs():
    sol = exact()
    assert sol.x(1.70) == pytest.approx(14.898649, abs=5e-7)
    assert sol.x(3.40) == pytest.approx(3.513052, abs=5e-7)


@pytest.mark.parametrize("case", ["sdnv104a", "sdnv104b"])
def test_code_asters_hht_is_reproduced(case):
    """code_aster's algorithm (HHT alpha = -0.3, no event located inside a step) gives
    code_aster's printed numbers (measured: 4e-8 and 1e-7 on A, 3.5e-6 and 1.4e-5 on B)."""
    q = run(case, time__scheme="hht", time__alpha=-0.3, time__stick_slip=False, time__extrapolate=False).quantities
    assert q["x_at_1.70"] == pytest.approx(14.836107, rel=1e-5)
    assert q["x_at_3.40"] == pytest.approx(3.624710, rel=3e-5)


@pytest.mark.parametrize("case", ["sdnv104a", "sdnv104b", "sdnv104c"])
def test_every_direct_solver_gives_the_same_quantities(case):
    """Every installed backend (PARDISO Cholesky through its Schur complement, PARDISO LDL^T
    and LU, SuperLU, CHOLMOD) agrees to 5e-9 up to the first maximum and to 2e-8 after it
    (measured over five backends: 2.1e-9 and 9.8e-9; over the three of before: 1.5e-9 and 3e-9,
    partly luck: the same solver with the contact forces applied by a second solve instead of
    a stored product moved x(3.40) by 2.3e-9, and a tighter contact tolerance moves nothing).
    That is the conditioning of the discrete problem, not of the solvers: the stiff block's contact forces are
    resolved to ~1e-9 of their value (cond of the normal Delassus block ~5e3
    times the solvers' 1e-12 on the compliance), and moving the lateral load
    by 1e-13 of its value moves x(3.40) by ~5e-10 and x(1.70) by ~9e-10."""
    names = solver_names(installed_only=True)
    assert len(names) >= 2
    base = run(case).quantities
    for name in names:
        q = run(case, solver__linear=name).quantities
        for key in ("x_at_1.70", "x_ext_1", "t_ext_1"):
            assert q[key] == pytest.approx(base[key], rel=5e-9), (name, key)
        for key in ("x_at_3.40", "x_ext_2", "t_ext_2"):
            assert q[key] == pytest.approx(base[key], rel=2e-8), (name, key)


@pytest.mark.parametrize("method", ["lagrange", "penalty", "continuous"])
def test_normal_forces_balance_the_weight(method):
    """Vertical momentum: the contact impulse equals the weight's over any
    quiet window (1e-6); pointwise within 1e-3 after the ramp (the elastic
    block's vertical vibrations, excited at the ramp's end and at reversals), at dt = 0.01 in one
    run (the default's extrapolated histories carry the dt/2 run's contact forces, whose
    vibration, damped less by generalized-alpha at dt = 0.005, reaches 3.4e-3)."""
    h = run("sdnv104a", contact__method=method, time__extrapolate=False).histories
    t, n = h["time"], h["normal_force"]
    after = t > 0.07 + 1e-9
    assert np.abs(n[after] / FN - 1).max() < 1e-3
    for a, b in [(0.5, 1.6), (2.2, 3.3)]:
        window = (t >= a) & (t <= b)
        assert np.trapezoid(n[window], t[window]) / (FN * (t[window][-1] - t[window][0])) == pytest.approx(1, abs=1e-6)


@pytest.mark.parametrize("method", ["lagrange", "penalty", "continuous"])
def test_coulomb_while_sliding(method):
    h = run("sdnv104a", contact__method=method).histories
    status, normal, tangential = h["slave_status"][1:], h["slave_normal_force"][1:], h["slave_tangential_force"][1:]
    sliding = status == SLIP
    assert sliding.any()
    np.testing.assert_allclose(np.abs(tangential[sliding]), MU * normal[sliding], rtol=1e-8, atol=1e-6)
    # and it opposes the step's slip (the displacement increment of node A:
    # in the step that holds a reversal, the end velocity has already turned)
    du = np.diff(h["u"])
    moving = np.abs(du) > 1e-6
    assert np.all(np.sign(h["tangential_force"][1:][moving]) == -np.sign(du[moving]))


def test_contact_moment_balances_the_friction_moment():
    """Rigid-body moment balance about the bottom centre: the loads, springs and
    inertia leave the contact forces the moment -T/2 (T the total friction
    force), whatever the position. Checked at quiet instants."""
    r = run("sdnv104a")
    zone = r.fields.system.zones[0]
    x = zone.reference[: zone.n_slave, 0]
    h = r.histories
    for t_check in (0.5, 1.0, 1.5, 2.5, 3.0):
        i = int(np.argmin(np.abs(h["time"] - t_check)))
        moment = float(np.sum((x - 0.5) * h["slave_normal_force"][i]))
        assert moment == pytest.approx(-0.5 * h["tangential_force"][i], rel=1e-3)


@pytest.mark.parametrize("case", ["sdnv104a", "sdnv104d"])
@pytest.mark.parametrize("method", ["lagrange", "penalty", "continuous"])
def test_pressure_under_the_block_at_rest_is_uniform(case, method):
    """Without the lateral push the block rests on the support under its
    weight: the contact pressure (nodal force / integral of the nodal shape
    function) is 7e4 Pa everywhere (nu = 0). While it slides it cannot be
    uniform: friction tilts it (see the moment test)."""
    r = run(case, loads__1__value=0.0, contact__method=method, time__end=0.3)
    system = r.fields.system
    zone = system.zones[0]
    forces, w = r.histories["slave_normal_force"][-1], slave_weights(zone)
    mean = forces.sum() / w.sum()
    assert mean == pytest.approx(FN, rel=1e-5)  # what is left of the vertical vibration at t = 0.3 s
    tolerance = 1e-6 if method != "penalty" else 1e-2
    np.testing.assert_allclose(forces / w / mean, 1.0, rtol=tolerance)


def test_penalty_default_coefficients_keep_penetration_below_a_micron():
    r = run("sdnv104a", contact__method="penalty")
    assert 0 < r.quantities["max_penetration"] < 1e-6


def test_code_asters_penalty_coefficients_penetrate_as_expected():
    """E_N = 2.1e8 N/m per node: the weight alone gives 7e4/6/2.1e8 = 5.6e-5 m."""
    r = run("sdnv104b")
    assert 5e-5 < r.quantities["max_penetration"] < 3e-4


def test_a_penalty_coefficient_far_above_the_body_stiffness_is_warned_of():
    """e_n = 1e20 N/m is 4.8e8 times E x thickness: round-off moves x(t) by 1e-4 of it."""
    sets = {"contact.method": "penalty", "time.end": 0.1, "time.extrapolate": False, "references": []}
    warned = fem2d.run("sdnv104a", {**sets, "contact.e_n": 1e20}).warnings
    assert any(w.startswith("contact.e_n: 1e+20 N/m is 4.8e+08 times the slave body's E x thickness") for w in warned)
    assert not any("contact.e_n" in w for w in fem2d.run("sdnv104a", {**sets, "contact.e_n": 1e17}).warnings)


def test_energy_balance_closes_for_average_acceleration():
    q = run("sdnv104a", time__scheme="newmark").quantities
    assert abs(q["energy_drift"]) < 1e-3  # energy_drift: the balance's residual / max(E(0), max |W|)
    assert q["friction_dissipation"] > 0.5 * q["work_loads"]


def test_factorisation_once_few_newton_iterations_and_fast():
    # on the fixed grid (the stick/slip events not located): one step size, one factorisation
    t = run("sdnv104a", time__stick_slip=False, time__extrapolate=False).timing
    assert t["factorizations"] == 1 and t["steps"] == 350
    assert t["newton_iterations"] <= 1.5 * t["steps"]
    # by default each event adds its few step sizes (the trial steps that locate it, the step
    # after it), each factorised once, and the nominal one again when the cache dropped it
    t = run("sdnv104a", time__extrapolate=False).timing
    events = t["events_reversals"] + t["events_stops"]
    assert events == 2 and t["steps"] <= 350 + events
    assert t["factorizations"] <= t["step_sizes"] + events
    # PARDISO refactorises in place on its kept analysis: one factorisation, and each new step size
    # (and the nominal one after each event) a refactorisation
    if t["refactorizations"]:
        assert t["factorizations"] == 1
        assert t["refactorizations"] <= t["step_sizes"] - 1 + events
    assert t["newton_iterations"] <= 1.5 * (t["steps"] + t["events_trial_steps"] + 2 * events)
    assert t["wall_s"] < 2.0  # about 0.25 s once imported, 0.47 s in a fresh process
    # the default, extrapolated in time: both runs' steps, the events met once (the same in both)
    both = run("sdnv104a").timing
    assert both["steps"] == both["steps_dt"] + both["steps_dt2"] == t["steps"] + both["steps_dt2"]
    assert both["steps_dt2"] <= 700 + 2 * events
    assert both["events_reversals"] == t["events_reversals"] and both["events_stops"] == t["events_stops"]


@pytest.mark.slow
@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_refinement_leaves_the_quantities_converged(element):
    """mesh.refine 0..3. The block is nearly rigid (E = 2.1e11 Pa, strains
    ~1e-6): the reported displacements are mesh-converged at level 0 already.
    Between levels they move by 1e-6 m at most (1e-7 relative), the size of
    the block's local elastic deformation at its corners, and not
    monotonically; the distance to the exact rigid solution (2e-5 .. 1e-4,
    the time step's error) does not change with the mesh."""
    values = [run("sdnv104a", mesh__element=element, mesh__refine=level).quantities for level in range(4)]
    for key, exact_value in (("x_at_1.70", 14.898649), ("x_at_3.40", 3.513052), ("x_ext_1", 14.911447)):
        series = np.array([v[key] for v in values])
        assert np.ptp(series) < 1e-6 * abs(series[0]), (key, series)
        assert np.all(np.abs(series / exact_value - 1) < 1.5e-4)
