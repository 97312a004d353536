"""The three contact formulations on condensed problems of an elastic block on a rigid line.

The block is assembled here with plain numpy (QUAD4, plane strain, lumped
mass), independently of fem2d.fe; the Newmark effective stiffness is inverted
densely and condensed on the contact boundary exactly as problem.py describes.
"""

from dataclasses import dataclass

import numpy as np
import pytest

from fem2d.contact import OPEN, SLIP, STICK, CondensedProblem, make_formulation, make_zone
from fem2d.contact.kinematics import slave_weights
from fem2d.errors import InputError
from fem2d.exact.sliding_block import SlidingBlock, newmark_block, solve
from fem2d.mesh.mesh import CellBlock

E, NU, RHO, MU = 2.1e11, 0.0, 7000.0, 0.3
FN = 7e4

FORMULATIONS = [
    ("lagrange", {}),
    ("lagrange", {"strategy": "single"}),
    ("penalty", {"young_modulus": E}),
    ("continuous", {}),
    ("continuous", {"integration": "gauss"}),
]
IDS = ["lagrange", "lagrange-single", "penalty", "continuous-nodal", "continuous-gauss"]


def quad4_stiffness(xy: np.ndarray) -> np.ndarray:
    """Plane-strain QUAD4 stiffness of cells xy (n, 4, 2), 2x2 Gauss."""
    d = E / ((1 + NU) * (1 - 2 * NU)) * np.array([[1 - NU, NU, 0], [NU, 1 - NU, 0], [0, 0, (1 - 2 * NU) / 2]])
    g = 1 / np.sqrt(3)
    k = np.zeros((len(xy), 8, 8))
    for xi, eta in [(-g, -g), (g, -g), (g, g), (-g, g)]:
        dn = 0.25 * np.array([[-(1 - eta), 1 - eta, 1 + eta, -(1 + eta)], [-(1 - xi), -(1 + xi), 1 + xi, 1 - xi]])
        jac = np.einsum("ka,caj->ckj", dn, xy)
        dx = np.linalg.solve(jac, np.broadcast_to(dn, (len(xy), 2, 4)))
        b = np.zeros((len(xy), 3, 8))
        b[:, 0, 0::2], b[:, 1, 1::2] = dx[:, 0], dx[:, 1]
        b[:, 2, 0::2], b[:, 2, 1::2] = dx[:, 1], dx[:, 0]
        k += np.einsum("cik,ij,cjl->ckl", b, d, b) * np.linalg.det(jac)[:, None, None]
    return k


@dataclass
class Block:
    """A unit block of n x n QUAD4 on a rigid master line y = 0, with Newmark data."""

    zone: object
    kinv: np.ndarray
    mass: np.ndarray
    compliance: np.ndarray
    dofs: np.ndarray  # global dof of each boundary dof (-1 for the rigid master)
    n: int
    f_top: np.ndarray
    f_left: np.ndarray
    node_a: int
    beta: float
    dt: float

    def condense(self, u: np.ndarray) -> np.ndarray:
        out = np.zeros(len(self.dofs))
        free = self.dofs >= 0
        out[free] = u[self.dofs[free]]
        return out.reshape(-1, 2)

    def problem(self, u_start: np.ndarray, u_free: np.ndarray) -> CondensedProblem:
        return CondensedProblem(self.zone, self.condense(u_start), self.condense(u_free), self.compliance, self.dt)

    def apply(self, u_free: np.ndarray, forces: np.ndarray) -> np.ndarray:
        free = self.dofs >= 0
        return u_free + self.kinv[:, self.dofs[free]] @ forces.ravel()[free]


def make_block(n=5, dt=0.01, beta=0.25, spring=0.0, master=(-0.1, 20.0), segments=1, kind="seg2", x0=0.0) -> Block:
    xs = np.linspace(x0, x0 + 1.0, n + 1)
    gx, gy = np.meshgrid(xs, np.linspace(0.0, 1.0, n + 1))
    points = np.stack([gx.ravel(), gy.ravel()], axis=1)
    node = np.arange(len(points)).reshape(n + 1, n + 1)  # [row j, column i]
    cells = np.stack([node[:-1, :-1], node[:-1, 1:], node[1:, 1:], node[1:, :-1]], axis=-1).reshape(-1, 4)
    n_nodes = len(points)
    k = np.zeros((2 * n_nodes, 2 * n_nodes))
    cell_dofs = (2 * cells[:, :, None] + np.arange(2)).reshape(-1, 8)
    for c, kc in zip(cell_dofs, quad4_stiffness(points[cells])):
        k[np.ix_(c, c)] += kc
    mass = np.full(2 * n_nodes, 0.0)
    np.add.at(mass, cell_dofs.ravel(), RHO / n**2 / 4)
    for corner in (node[0, -1], node[-1, -1]):  # SDNV104's springs at (1, 0) and (1, 1)
        k[2 * corner, 2 * corner] += spring / 2
    kinv = np.linalg.inv(k + np.diag(mass) / (beta * dt * dt))
    # rigid master: nodes along y = 0 after the block's nodes, edges counter-clockwise around a body below
    per = 2 if kind == "seg3" else 1
    mx = np.linspace(master[0], master[1], per * segments + 1)
    m_ids = n_nodes + np.arange(len(mx))
    if kind == "seg2":
        m_edges = np.stack([m_ids[1:], m_ids[:-1]], axis=1)
    else:
        m_edges = np.stack([m_ids[2::2], m_ids[:-2:2], m_ids[1::2]], axis=1)
    all_points = np.vstack([points, np.stack([mx, np.zeros_like(mx)], axis=1)])
    s_edges = np.stack([node[0, :-1], node[0, 1:]], axis=1)
    zone = make_zone(all_points, CellBlock("seg2", s_edges), CellBlock(kind, m_edges), MU)
    dofs = (2 * zone.boundary_nodes[:, None] + np.arange(2)).ravel()
    dofs = np.where(dofs < 2 * n_nodes, dofs, -1)
    free = dofs >= 0
    compliance = np.zeros((len(dofs), len(dofs)))
    compliance[np.ix_(free, free)] = kinv[np.ix_(dofs[free], dofs[free])]
    weights = np.full(n + 1, 1.0 / n)
    weights[[0, -1]] /= 2
    f_top = np.zeros(2 * n_nodes)
    f_top[2 * node[-1, :] + 1] = -weights  # unit total, downward
    f_left = np.zeros(2 * n_nodes)
    f_left[2 * node[:, 0]] = weights  # unit total, in +x
    return Block(zone, kinv, mass, compliance, dofs, n_nodes, f_top, f_left, int(node[0, 0]), beta, dt)


def newmark_steps(block: Block, tangential: list[float], formulation) -> list[float]:
    """Average-acceleration steps under FN and the given tangential loads; DX of node A after each."""
    beta, gamma, dt = block.beta, 0.5, block.dt
    u = np.zeros(2 * block.n)
    v, a = np.zeros_like(u), np.zeros_like(u)
    state = formulation.initial_state(block.zone)
    xs = []
    for ft in tangential:
        u_pred = u + dt * v + dt * dt * (0.5 - beta) * a
        rhs = FN * block.f_top + ft * block.f_left + block.mass * u_pred / (beta * dt * dt)
        u_free = block.kinv @ rhs
        sol = formulation.solve(block.problem(u, u_free), state)
        assert sol.converged
        state = sol.state
        u_new = block.apply(u_free, sol.forces)
        a_new = (u_new - u_pred) / (beta * dt * dt)
        v = v + dt * ((1 - gamma) * a + gamma * a_new)
        u, a = u_new, a_new
        xs.append(float(u[2 * block.node_a]))
    return xs


def default_penalty(zone) -> np.ndarray:
    """The default penalty coefficients: 100 E t, shared out by the nodes' weights (mean 1)."""
    w = slave_weights(zone)
    return 100 * E * w / w.mean()


def static_step(block: Block, fn: float, ft: float, formulation, state=None):
    """One step from rest; with a long step (dt = 1 s) inertia is negligible: quasi-static contact."""
    u_free = block.kinv @ (fn * block.f_top + ft * block.f_left)
    state = formulation.initial_state(block.zone) if state is None else state
    return formulation.solve(block.problem(np.zeros(2 * block.n), u_free), state), u_free


@pytest.fixture(scope="module")
def quasi_static():
    return make_block(dt=1.0)


@pytest.fixture(scope="module")
def held():
    """Quasi-static block held in x by a spring, so that it can slide to equilibrium."""
    return make_block(dt=1.0, spring=1e6)


@pytest.mark.parametrize(("name", "options"), FORMULATIONS, ids=IDS)
def test_stick_below_the_friction_limit(quasi_static, name, options):
    # the push on the left face tilts the pressure: the loaded corner is the first to slip
    partial, _ = static_step(quasi_static, FN, 0.5 * MU * FN, make_formulation(name, **options))
    assert partial.status[0] == SLIP and np.all(partial.status[2:] == STICK)
    assert partial.tangential_force[0] == pytest.approx(-MU * partial.normal_force[0], rel=1e-6)
    ft = 0.2 * MU * FN
    sol, _ = static_step(quasi_static, FN, ft, make_formulation(name, **options))
    assert sol.converged
    assert sol.normal_force.sum() == pytest.approx(FN, rel=1e-6)
    assert sol.tangential_force.sum() == pytest.approx(-ft, rel=1e-6)
    assert np.all(sol.status == STICK)
    assert np.all(np.abs(sol.tangential_force) <= MU * sol.normal_force * (1 + 1e-9))
    e_n = default_penalty(quasi_static.zone)
    stick_slip = MU * FN / e_n.min() if name == "penalty" else 1e-12
    assert np.max(np.abs(sol.slip)) < stick_slip
    penetration = np.max(-sol.gap)
    if name == "penalty":  # default e_n: 100 E (unit thickness), shared by the nodes' weights
        np.testing.assert_allclose(-sol.gap, sol.normal_force / e_n, rtol=1e-5)
        assert penetration < 1e-8
    else:
        assert penetration < 1e-12


@pytest.mark.parametrize(("name", "options"), FORMULATIONS, ids=IDS)
def test_slip_above_the_friction_limit(held, name, options):
    ft = 2.0 * MU * FN
    sol, u_free = static_step(held, FN, ft, make_formulation(name, **options))
    assert sol.converged
    assert sol.normal_force.sum() == pytest.approx(FN, rel=1e-6)
    assert np.all(sol.status == SLIP)
    assert np.all(sol.slip > 1e-3)  # slid in +x ...
    # ... and the friction force opposes it at every node, at the Coulomb limit
    np.testing.assert_allclose(sol.tangential_force, -MU * sol.normal_force, rtol=5e-6 if name == "penalty" else 1e-9)
    # the block slides to where the spring (and the step's small inertia, 7000 kg / (dt^2 / 4)) balance
    u = held.apply(u_free, sol.forces)
    assert u[2 * held.node_a] == pytest.approx((ft - MU * FN) / (1e6 + 7000 / 0.25), rel=1e-4)


def test_the_formulations_agree(quasi_static):
    ft = 0.8 * MU * FN  # four nodes slide, two stick: a non-trivial pattern
    sols = {
        label: static_step(quasi_static, FN, ft, make_formulation(n, **o))[0]
        for label, (n, o) in zip(IDS, FORMULATIONS)
    }
    ref = sols["lagrange"]
    scale = np.max(ref.normal_force)
    for label in ("lagrange-single", "continuous-nodal"):
        np.testing.assert_allclose(sols[label].forces, ref.forces, rtol=0, atol=1e-8 * scale)
        np.testing.assert_array_equal(sols[label].status, ref.status)
    # penalty: within its penetration (default E_N = 100 E: nodal forces within about 0.2 %)
    np.testing.assert_allclose(sols["penalty"].normal_force, ref.normal_force, rtol=0, atol=5e-3 * scale)
    np.testing.assert_allclose(sols["penalty"].tangential_force, ref.tangential_force, rtol=0, atol=5e-3 * scale)
    # gauss integration is another discretisation: same resultants
    gauss = sols["continuous-gauss"]
    assert gauss.normal_force.sum() == pytest.approx(ref.normal_force.sum(), rel=1e-7)
    assert gauss.tangential_force.sum() == pytest.approx(ref.tangential_force.sum(), rel=1e-7)


@pytest.mark.parametrize("integration", ["nodal", "gauss"])
def test_continuous_does_not_depend_on_rho(held, integration):
    results = []
    for rho in (1e-2, 1.0, 100.0, 1e4):
        for ft in (0.5 * MU * FN, 2.0 * MU * FN):
            f = make_formulation("continuous", integration=integration, rho_n=rho, rho_t=rho)
            sol, _ = static_step(held, FN, ft, f)
            assert sol.converged
            results.append((ft, sol.forces))
    for ft, forces in results:
        ref = next(f for t, f in results if t == ft)
        np.testing.assert_allclose(forces, ref, rtol=0, atol=1e-9 * FN)


def test_continuous_reports_pressures(quasi_static):
    f = make_formulation("continuous")
    sol, _ = static_step(quasi_static, FN, 0.0, f)
    # multipliers are pressures (Pa): their integral is the load
    weights = np.array([0.1, 0.2, 0.2, 0.2, 0.2, 0.1])
    assert weights @ sol.state.pressure == pytest.approx(FN, rel=1e-6)
    np.testing.assert_allclose(weights * sol.state.pressure, sol.normal_force, rtol=1e-9)
    # the discrete methods report nodal force / tributary length
    lag, _ = static_step(quasi_static, FN, 0.0, make_formulation("lagrange"))
    np.testing.assert_allclose(lag.state.pressure, sol.state.pressure, rtol=1e-6)


@pytest.mark.parametrize(("name", "options"), FORMULATIONS, ids=IDS)
def test_iteration_counts_are_small(held, name, options):
    f = make_formulation(name, **options)
    first, _ = static_step(held, FN, 2.0 * MU * FN, f)
    # from an all-open state and a free prediction 2.5 m deep: a few status corrections
    assert 1 <= first.iterations <= 6
    # warm start from the converged state: the statuses are right, one solve
    again, _ = static_step(held, FN, 2.0 * MU * FN, f, first.state)
    assert again.converged and again.iterations <= 1


@pytest.mark.parametrize(("name", "options"), FORMULATIONS, ids=IDS)
def test_non_convergence_is_reported_not_raised(quasi_static, name, options):
    f = make_formulation(name, max_iter=1, **options)
    sol, _ = static_step(quasi_static, FN, 0.8 * MU * FN, f)
    assert not sol.converged
    assert sol.iterations == 1 and sol.residual > 1e-10


def test_penalty_default_stiffness_and_anchor_memory(quasi_static):
    ft = 0.5 * MU * FN
    f = make_formulation("penalty", young_modulus=E)
    one, _ = static_step(quasi_static, FN, ft, f)
    e_n = default_penalty(quasi_static.zone)
    np.testing.assert_allclose(one.state.e_n, e_n, rtol=1e-15)
    np.testing.assert_allclose(one.state.e_t, e_n, rtol=1e-15)
    assert one.state.penetration == pytest.approx(np.max(one.normal_force / e_n), rel=1e-6)
    # without the material, the default comes from the boundary's local compliance: nearly the same
    alone, _ = static_step(quasi_static, FN, ft, make_formulation("penalty"))
    np.testing.assert_allclose(alone.state.e_n, e_n, rtol=0.15)
    # the same final load in two increments, or at once then held: with the stick anchors
    # carried between steps both end at the same place (forgetting them would slip further)
    x_two = newmark_steps(quasi_static, [0.5 * ft, ft], f)
    x_one = newmark_steps(quasi_static, [ft, ft], f)
    assert x_two[-1] == pytest.approx(x_one[-1], rel=1e-3)
    assert abs(x_two[-1]) < 1e-7
    # code_aster's case B coefficients are taken as given
    soft = make_formulation("penalty", e_n=2.1e8, e_t=2.1e11)
    sol, _ = static_step(quasi_static, FN, ft, soft)
    np.testing.assert_allclose(-sol.gap, sol.normal_force / 2.1e8, rtol=1e-9)


def test_nodes_beyond_the_master_are_flagged():
    block = make_block(dt=0.01, master=(0.45, 20.0))
    for name, options in FORMULATIONS:
        sol, _ = static_step(block, FN, 0.0, make_formulation(name, **options))
        assert sol.converged
        # with Gauss integration node 2 (x = 0.4) still has Gauss points over the master (x > 0.45)
        off = 2 if options.get("integration") == "gauss" else 3
        np.testing.assert_array_equal(sol.left_master, np.arange(6) < off)
        assert np.all(sol.normal_force[:off] == 0.0) and np.all(sol.status[:off] == OPEN)
        assert np.all(np.isinf(sol.gap[:off])) and sol.normal_force[off:].sum() > 0.0
        # the step is dynamic (dt = 0.01): the block starts tipping over the master's end
        assert sol.normal_force.sum() == pytest.approx(sol.forces[:6, 1].sum())
        # action and reaction: the master nodes carry the opposite forces
        np.testing.assert_allclose(sol.forces.sum(axis=0), 0.0, atol=1e-9 * FN)


def test_unknown_methods_and_options_are_input_errors():
    with pytest.raises(InputError, match="unknown contact method 'mortar'"):
        make_formulation("mortar")
    with pytest.raises(InputError, match="no option 'rho_n'"):
        make_formulation("lagrange", rho_n=100.0)
    with pytest.raises(InputError, match="integration"):
        make_formulation("continuous", integration="simpson")
    with pytest.raises(InputError, match="positive"):
        make_formulation("penalty", e_n=0.0)


def run_sdnv104(name, options, t_end, beta=0.25, gamma=0.5, **mesh):
    """SDNV104 on the synthetic 5 x 5 block: Newmark with the condensed contact step."""
    dt = 0.01
    b = make_block(dt=dt, beta=beta, spring=24e3, **mesh)
    k_eff_inv, m = b.kinv, b.mass
    f_load = FN * b.f_top + 2e5 * b.f_left
    f = make_formulation(name, **options)
    state = f.initial_state(b.zone)
    u = np.zeros(2 * b.n)
    v = np.zeros_like(u)
    a = np.zeros_like(u)
    xs, iterations = [0.0], []
    for step in range(1, int(round(t_end / dt)) + 1):
        t = step * dt
        u_pred = u + dt * v + dt * dt * (0.5 - beta) * a
        v_pred = v + dt * (1 - gamma) * a
        u_free = k_eff_inv @ (min(t / 0.07, 1.0) * f_load + m * u_pred / (beta * dt * dt))
        sol = f.solve(b.problem(u, u_free), state)
        assert sol.converged, (t, sol.residual)
        state = sol.state
        u_new = b.apply(u_free, sol.forces)
        a = (u_new - u_pred) / (beta * dt * dt)
        v = v_pred + gamma * dt * a
        u = u_new
        xs.append(u[2 * b.node_a])
        iterations.append(sol.iterations)
    return np.array(xs), np.array(iterations)


@pytest.fixture(scope="module")
def exact():
    return solve(SlidingBlock(), 5.0)


@pytest.mark.parametrize(("name", "options"), [FORMULATIONS[i] for i in (0, 2, 3)], ids=[IDS[i] for i in (0, 2, 3)])
def test_sdnv104_dynamics_match_the_rigid_reference(exact, name, options):
    xs, iterations = run_sdnv104(name, options, 1.70)
    x_exact = float(exact.x(1.70))
    assert xs[170] == pytest.approx(x_exact, rel=3e-5)
    # the elastic block behaves as the rigid block under the same time scheme
    _, x_rigid = newmark_block(SlidingBlock(), 0.01, 1.70)
    assert xs[170] == pytest.approx(x_rigid[170], rel=2e-6)
    assert np.mean(iterations) < 1.3 and iterations.max() <= 8


def test_sdnv104_first_minimum_and_large_sliding_repairing(exact):
    # a SEG3 master of 7 segments: the slave nodes cross segment ends while sliding 15 m
    xs, _ = run_sdnv104("lagrange", {}, 3.40, segments=7, kind="seg3")
    assert xs[340] == pytest.approx(float(exact.x(3.40)), rel=2e-4)
    single, _ = run_sdnv104("lagrange", {}, 3.40)
    np.testing.assert_allclose(xs, single, rtol=0, atol=1e-9)


@pytest.mark.parametrize(
    ("name", "options"),
    [("lagrange", {}), ("penalty", {"e_n": 2.1e8, "e_t": 2.1e11}), ("continuous", {})],
    ids=["lagrange", "penalty-case-B", "continuous"],
)
def test_sdnv104_hht_reproduces_code_aster(name, options):
    alpha = -0.3
    xs, iterations = run_sdnv104(name, options, 1.70, beta=(1 - alpha) ** 2 / 4, gamma=0.5 - alpha)
    assert xs[170] == pytest.approx(14.836107, rel=2e-5)
    assert iterations.max() <= 8
