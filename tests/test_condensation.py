"""The boundary condensation C = S K_eff^-1 S^T and the factorise-once contract of the Newmark stepper."""

import dataclasses

import numpy as np
import pytest
import scipy.sparse as sp

import fem2d
from fem2d.case.build import build_system, contact_method, scheme_of
from fem2d.case.loading import load_case
from fem2d.dynamics.condensation import SchurCondensation, SolveCondensation, condensation
from fem2d.dynamics.coupling import ContactCoupling
from fem2d.dynamics.stepper import NewmarkStepper, march
from fem2d.linalg import get_solver, solver_names
from fem2d.linalg.base import SolverBackend

DT = 0.01


def dense_k_eff(case, system, dt):
    return (system.K_free + system.M_free * (scheme_of(case).mass_factor / dt**2)).toarray()


@pytest.fixture(scope="module")
def block():
    """SDNV104 A at level 0 (72 free dofs, 6 slave nodes on a fixed master) and its dense K_eff."""
    case = load_case("sdnv104a")
    system = build_system(case)
    return case, system, dense_k_eff(case, system, DT)


def boundary_index(system):
    zone = system.zones[0]
    dofs = (2 * zone.boundary_nodes[:, None] + np.arange(2)).ravel()
    return system.free_index[dofs]


def condensations(solver, k_eff, index):
    """The condensations a backend allows: by back-substitutions, and through its Schur complement."""
    backend = get_solver(solver)
    out = [SolveCondensation(backend.factorize(k_eff), index, len(k_eff))]
    if backend.schur:
        out.append(SchurCondensation(backend.factorize(k_eff, index[index >= 0]), index, len(k_eff)))
    return out


@pytest.mark.parametrize("dt", [1e-3, DT])
@pytest.mark.parametrize("solver", solver_names(installed_only=True))
def test_compliance_is_the_boundary_block_of_the_inverse(block, solver, dt):
    case, system, _ = block
    k_eff = dense_k_eff(case, system, dt)
    index = boundary_index(system)
    inverse = np.linalg.inv(k_eff)
    active = index >= 0
    expected = np.zeros((len(index), len(index)))
    expected[np.ix_(active, active)] = inverse[np.ix_(index[active], index[active])]
    assert (~active).any() and active.any()  # the fixed master's dofs are boundary dofs too
    # 1e-12 of the largest entry, or the round-off the conditioning allows (cond 1.4e5 at dt = 0.01)
    condition = np.linalg.cond(k_eff)
    assert dt == DT or condition < 1e4
    scale = np.abs(expected).max()
    for cond in condensations(solver, k_eff, index):
        np.testing.assert_allclose(cond.compliance, expected, rtol=0, atol=max(1e-12, 1e-16 * condition) * scale)
        np.testing.assert_array_equal(cond.compliance, cond.compliance.T)
        assert not cond.compliance[~active].any() and not cond.compliance[:, ~active].any()


@pytest.mark.parametrize("solver", solver_names(installed_only=True))
def test_condense_then_expand_solves_the_step_with_its_contact_forces(block, solver):
    """condense, contact, expand = the solution of K_eff du = rhs + S^T p, for any forces p,
    through the Schur complement (one forward and one backward sweep) or by back-substitutions."""
    _, system, k_eff = block
    index = boundary_index(system)
    rng = np.random.default_rng(0)
    rhs = rng.normal(0.0, 1e4, len(k_eff))
    ways = condensations(solver, k_eff, index)
    tol = 1e-15 * np.linalg.cond(k_eff)  # ten times the round-off the conditioning (3e4) allows one solve
    assert isinstance(ways[0], SolveCondensation) and isinstance(condensation(ways[0].factor, index, len(k_eff)),
                                                                 SolveCondensation)
    for p in (np.zeros(len(index)), rng.normal(0.0, 1e4, len(index))):
        expected = np.linalg.solve(k_eff, rhs + ways[0].force(p))
        for cond in ways:
            work, du_boundary = cond.condense(rhs.copy())
            free = np.linalg.solve(k_eff, rhs)[cond.rows]
            np.testing.assert_allclose(du_boundary, free, rtol=0, atol=tol * np.abs(free).max())
            du = cond.expand(work, du_boundary + cond.compliance[cond.active] @ p, p)
            np.testing.assert_allclose(du, expected, rtol=0, atol=tol * np.abs(expected).max())
    stored = ways[0]
    applied = np.linalg.solve(k_eff, stored.force(p))
    np.testing.assert_allclose(stored.apply(p), applied, rtol=0, atol=tol * np.abs(applied).max())
    # S^T p: boundary forces on their free dofs, those on prescribed dofs dropped
    force = stored.force(p)
    active = index >= 0
    np.testing.assert_array_equal(force[index[active]], p[active])
    assert np.count_nonzero(force) == np.count_nonzero(p[active])
    # boundary values read the free dofs and the prescribed values
    u = np.random.default_rng(1).normal(size=len(k_eff))
    prescribed = np.where(active, 0.0, 7.0)
    values = stored.boundary_values(u, prescribed)
    np.testing.assert_array_equal(values[active], u[index[active]])
    np.testing.assert_array_equal(values[~active], 7.0)


class Counting:
    """A solver backend that counts its factorisations (and delegates to SuperLU)."""

    def __init__(self):
        self.count = 0
        self.sizes = []

    def backend(self) -> SolverBackend:
        superlu = get_solver("superlu")

        def factorize(matrix):
            self.count += 1
            return superlu.factorize_fn(matrix)

        return dataclasses.replace(superlu, name="counting", factorize_fn=factorize)


class FailOnce:
    """A formulation that reports non-convergence the n-th time it is called (the step is then cut)."""

    def __init__(self, formulation, fail_at: int):
        self.inner, self.fail_at, self.calls = formulation, fail_at, 0
        self.name = formulation.name

    def initial_state(self, zone):
        return self.inner.initial_state(zone)

    def solve(self, problem, state):
        self.calls += 1
        sol = self.inner.solve(problem, state)
        return dataclasses.replace(sol, converged=False) if self.calls == self.fail_at else sol


def test_factorisation_happens_once_per_step_size_however_many_newton_iterations(block):
    case, system, _ = block
    counting = Counting()
    formulation = FailOnce(contact_method(case.settings["contact"]), fail_at=12)
    coupling = ContactCoupling(system, system.zones[0], formulation)
    stepper = NewmarkStepper(system, scheme_of(case), counting.backend(), coupling)
    state = stepper.initial_state()
    march(stepper, state, 0.3, DT, lambda previous, new: None, cut_factor=5)
    c = stepper.counters
    assert c.cuts == 1 and c.steps == 29 + 5
    # two step sizes (0.01 and the cut 0.002): two factorisations and two condensations, no more
    assert counting.count == c.factorizations == 2
    assert len(coupling._condensations) == 2
    assert c.newton_iterations > c.steps  # several contact iterations in some steps, on the same factors


def test_a_default_run_factorises_once():
    t = fem2d.run("sdnv104a", ["time.end=1.0", "time.extrapolate=false"]).timing
    assert t["factorizations"] == 1 and t["step_cuts"] == 0
    assert t["newton_iterations"] >= t["steps"]
    # the march (its factorisation inside) is part of the integration, the one-time work around it the rest
    assert t["factorization_s"] < t["march_s"] <= t["integration_s"]
    # extrapolated in time (the case's default): once per run, at dt and at dt/2
    assert fem2d.run("sdnv104a", ["time.end=1.0"]).timing["factorizations"] == 2


def test_per_step_size_caches_are_bounded(block):
    """Factorisations and condensations are kept for the last CAPACITY step sizes only: a run
    cutting its step at many different sizes does not keep one factorisation per size."""
    from fem2d.dynamics.stepsizes import CAPACITY

    case, system, _ = block
    coupling = ContactCoupling(system, system.zones[0], contact_method(case.settings["contact"]))
    stepper = NewmarkStepper(system, scheme_of(case), get_solver("superlu"), coupling)
    sizes = [DT / 5**k for k in range(CAPACITY + 2)]
    for dt in sizes:
        coupling.condensation(dt, stepper.factor(dt), len(system.free), stepper.counters)
    assert len(stepper._factors) == len(coupling._condensations) == CAPACITY
    assert stepper.step_sizes == len(sizes) == stepper.counters.factorizations
    assert stepper._factors.keys() == sizes[-CAPACITY:]
    # the most recent sizes stay: asking again makes nothing new
    stepper.factor(sizes[-1])
    assert stepper.counters.factorizations == len(sizes)
    # a dropped size that comes back is factorised again (and another one is dropped)
    stepper.factor(sizes[0])
    assert stepper.counters.factorizations == len(sizes) + 1 and len(stepper._factors) == CAPACITY


@pytest.mark.parametrize("upper", [False, True])
def test_the_effective_matrix_is_the_sparse_sum_bit_for_bit(block, upper):
    """K_eff = w_K K + w_M M + w_C C on the union pattern, values equal to the sparse sum's."""
    from fem2d.dynamics.effective import EffectiveMatrix

    _, system, _ = block
    k, m = system.K_free, system.M_free
    damping = (0.3 * k + 1e-3 * m).tocsr()
    # a term with entries outside K's pattern (as the modified mass T^T M T has): the union grows
    far = sp.random(k.shape[0], k.shape[0], density=3.0 / k.shape[0], random_state=7, format="csr")
    far = (far + far.T).tocsr()
    cases = [(None, (1.0, 4e4, 0.0)), (damping, (0.7, 123.4, 5.6)), (damping, (1.0, 0.0, 2.0)), (far, (1.0, 3.0, 0.5))]
    for c, weights in cases:
        effective = EffectiveMatrix([k, m, c], upper=upper)
        w_k, w_m, w_c = weights
        expected = k * w_k
        if w_m:
            expected = expected + m * w_m
        if c is not None and w_c:
            expected = expected + c * w_c
        expected = sp.triu(expected, format="csr") if upper else expected.tocsr()
        got = effective.combine(weights)
        assert np.shares_memory(got.indices, effective.indices)  # one pattern for every step size
        assert (got != expected).nnz == 0


def test_a_condensation_follows_a_factorisation_refactorised_in_place(block):
    """With a backend that refactorises in place (PARDISO) the stepper keeps one factorisation;
    coming back to a step size refactorises again and the coupling's condensation for it is made
    again from the new factors (not the cached one of factors given away)."""
    if "pardiso-cholesky" not in solver_names(installed_only=True):
        pytest.skip("MKL PARDISO not installed")
    case, system, _ = block
    coupling = ContactCoupling(system, system.zones[0], contact_method(case.settings["contact"]))
    stepper = NewmarkStepper(system, scheme_of(case), get_solver("pardiso-cholesky"), coupling)
    n = len(system.free)
    first = coupling.condensation(DT, stepper.factor(DT), n, stepper.counters)
    coupling.condensation(DT / 3, stepper.factor(DT / 3), n, stepper.counters)
    factor = stepper.factor(DT)
    again = coupling.condensation(DT, factor, n, stepper.counters)
    assert again is not first and again.factor is factor and len(stepper._factors) == 1
    assert stepper.counters.factorizations == 1 and stepper.counters.refactorizations == 2
    # the refactorisations' time on its own, and in the factorisations' total (result.json's timing)
    assert 0.0 < stepper.counters.refactorization_s < stepper.counters.factorization_s
    assert np.array_equal(again.compliance, first.compliance)
    assert DT / 3 not in coupling._condensations.keys()  # on factors given away: dropped
    rhs = np.random.default_rng(0).standard_normal(n)
    fresh = get_solver("pardiso-cholesky").factorize(dense_k_eff(case, system, DT))
    assert np.abs(factor.solve(rhs) - fresh.solve(rhs)).max() <= 1e-10 * np.abs(fresh.solve(rhs)).max()
