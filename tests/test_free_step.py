"""A step without contact forces: the short path gives the loop's result."""

import numpy as np
import pytest
from test_contact_pairing import line_zone

from fem2d.contact import kinematics, lagrange
from fem2d.contact.lagrange import LagrangeFormulation
from fem2d.contact.problem import OPEN, CondensedProblem, make_zone
from fem2d.contact.workspace import ContactWorkspace
from fem2d.mesh.mesh import CellBlock


def solutions(monkeypatch, short: bool, seed: int, steps: int = 120, master_moves: bool = False,
              curve: float = 0.0, velocity_level: bool = False):
    """The Lagrange solutions of a sequence of steps of two slave nodes above a master chain
    (the slaves 0.1 mm to 0.5 m above it, moving by 1 mm to 0.3 m along it and 0.01 mm to 0.1 m
    across it per step, so that some steps penetrate, a little or much), each step starting where
    the last ended; with ``short`` False, every step by the loop; also how many steps the short
    path solved."""
    taken = []
    original = lagrange.free_step

    def counted(*args):
        result = original(*args) if short else None
        taken.append(result is not None)
        return result

    monkeypatch.setattr(lagrange, "free_step", counted)
    zone = line_zone(np.linspace(-1.0, 2.0, 7), curve=curve)
    rng = np.random.default_rng(seed)
    n_s, n_b = zone.n_slave, zone.n_boundary
    compliance = np.zeros((2 * n_b, 2 * n_b))
    moving = 2 * n_b if master_moves else 2 * n_s
    a = rng.standard_normal((moving, moving))
    compliance[:moving, :moving] = 1e-3 * (a @ a.T + moving * np.eye(moving))
    formulation = LagrangeFormulation()
    state = formulation.initial_state(zone)
    workspace = ContactWorkspace()
    def above() -> np.ndarray:  # the slave nodes open, 0.1 mm to 0.5 m above the master
        d = np.zeros((n_b, 2))
        d[:n_s, 1] = curve * np.sin(zone.reference[:n_s, 0]) + 10.0 ** rng.uniform(-4.0, np.log10(0.5), n_s) - 0.5
        return d

    d = above()
    out = []
    for _ in range(steps):
        # along the master (onto other segments of a curved one) and across it; some steps do not move
        scale = 10.0 ** rng.uniform([-3.0, -5.0], [-0.5, -1.0]) * (rng.random() < 0.8)
        d_free = d + scale * rng.standard_normal((n_b, 2))
        if not master_moves:
            d_free[n_s:] = 0.0
        problem = CondensedProblem(zone, d, d_free, compliance, 1e-3, workspace, velocity_level)
        sol = formulation.solve(problem, state)
        out.append(sol)
        state = sol.state
        d = problem.displacement(sol.forces)
        if rng.random() < 0.5:  # back above the master, all open: the next steps start afresh
            d = above()
            state = formulation.initial_state(zone)
    return out, sum(taken)


@pytest.mark.parametrize(("seed", "master_moves", "curve", "velocity_level"),
                         [(1, False, 0.0, False), (2, False, 0.4, False), (3, True, 0.4, False), (4, False, 0.4, True)])
def test_the_short_path_gives_the_loops_solution(monkeypatch, seed, master_moves, curve, velocity_level):
    short, n_short = solutions(monkeypatch, True, seed, master_moves=master_moves, curve=curve,
                               velocity_level=velocity_level)
    loop, _ = solutions(monkeypatch, False, seed, master_moves=master_moves, curve=curve,
                        velocity_level=velocity_level)
    assert n_short >= 30  # the short path was taken, and handed some steps back
    assert any((s.status != OPEN).any() for s in short)
    for a, b in zip(short, loop):
        for name in ("forces", "normal_force", "tangential_force", "gap", "status", "slip", "left_master"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
        assert (a.iterations, a.converged, a.residual) == (b.iterations, b.converged, b.residual)
        for name in ("status", "direction", "normal_force", "tangential_force", "pressure"):
            np.testing.assert_array_equal(getattr(a.state, name), getattr(b.state, name), err_msg=name)


def valley_zone():
    """Two slave nodes (x = 0 and 3) above a master valley: y = 0 at x = -2 and 0.5, 0.5 at x = -1 and 2."""
    points = np.array([[0.0, 0.4], [3.0, 2.0], [-1.0, 0.5], [0.5, 0.0], [2.0, 0.5], [-2.0, 0.0]])
    edges = CellBlock("seg2", np.array([[3, 2], [4, 3], [2, 5]]))
    return make_zone(points, CellBlock("seg2", np.array([[0, 1]])), edges, mu=0.0)


@pytest.mark.parametrize(("move", "start_gap_positive", "end_gap_positive"), [
    ([1.9, 0.0], True, False),  # down the valley's near side, then up its far side: the linear model misses it
    ([-1.5, 0.0], False, True),  # up the near side past its top (the model's plane): the master falls away there
    ([0.05, 0.0], True, True),
])
def test_the_short_path_hands_back_a_step_the_linear_model_misjudges(move, start_gap_positive, end_gap_positive):
    zone = valley_zone()
    d_start = np.zeros((zone.n_boundary, 2))
    d_free = d_start.copy()
    d_free[0] = move
    compliance = np.zeros((2 * zone.n_boundary, 2 * zone.n_boundary))
    compliance[:4, :4] = 1e-3 * np.eye(4)
    problem = CondensedProblem(zone, d_start, d_free, compliance, 1e-3, ContactWorkspace())
    state = LagrangeFormulation().initial_state(zone)
    kin0 = kinematics.node_kinematics(problem, state.surface, d_start)
    model_gap = (kin0.values() + kin0.B.dot((d_free - d_start).ravel()))[0]
    end_gap = kinematics.node_kinematics(problem, state.surface, d_free).gap[0]
    assert (model_gap > 0.0, end_gap > 0.0) == (start_gap_positive, end_gap_positive)
    short = lagrange.free_step(problem, state.surface, state.status, state.direction, 1e-10)
    assert (short is not None) == (start_gap_positive and end_gap_positive)
