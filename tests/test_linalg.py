"""Direct solvers: every registered backend gives the same answers."""

import numpy as np
import pytest
import scipy.sparse as sp

from fem2d.errors import InputError, SolverUnavailableError
from fem2d.linalg import get_solver, solver_names
from fem2d.linalg.base import SolverBackend


def _spd(n=300, seed=0):
    rng = np.random.default_rng(seed)
    a = sp.random(n, n, density=0.02, random_state=rng)
    return (a @ a.T + sp.eye(n) * n).tocsr()


def _stiffness():
    from fem2d.case.build import build_system
    from fem2d.case.loading import load_case

    system = build_system(load_case("sdnv104d"))
    return (system.K_free + system.M_free * (1 / (0.25 * 0.01**2))).tocsr()


@pytest.mark.parametrize("name", solver_names(installed_only=True))
@pytest.mark.parametrize("make", [_spd, _stiffness])
def test_backends_agree_to_1e10(name, make):
    A = make()
    rng = np.random.default_rng(1)
    b = rng.standard_normal((A.shape[0], 3))
    reference = get_solver("superlu").factorize(A).solve(b)
    factor = get_solver(name).factorize(A)
    x = factor.solve(b)
    assert x.shape == b.shape
    assert np.abs(x - reference).max() <= 1e-10 * np.abs(reference).max()
    x1 = factor.solve(b[:, 0])
    assert x1.shape == (A.shape[0],)
    assert np.abs(x1 - reference[:, 0]).max() <= 1e-10 * np.abs(reference).max()


def test_at_least_two_independent_backends_are_registered():
    assert {"superlu", "pardiso", "pardiso-ldlt"} <= set(solver_names())


def test_unknown_and_missing_backends_are_clear():
    with pytest.raises(InputError, match="unknown solver .mumps.*superlu"):
        get_solver("mumps")
    ghost = SolverBackend("ghost", "", lambda a: None, lambda: False, "install it with `pip install ghost`")
    with pytest.raises(SolverUnavailableError, match="ghost.*pip install ghost"):
        ghost.factorize(sp.eye(2))


def _factorise_and_solve(name):
    A = _spd(200)
    return float(np.abs(A @ get_solver(name).factorize(A).solve(np.ones(200)) - 1.0).max())


@pytest.mark.parametrize("name", [n for n in solver_names(installed_only=True) if n.startswith("pardiso")])
def test_a_process_forked_after_a_factorisation_can_factorise(name):
    """Worker pools fork the parent: MKL must not deadlock in the child after the parent
    used it (it did with MKL's GNU OpenMP threading layer)."""
    import multiprocessing

    assert _factorise_and_solve(name) < 1e-10
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply_async(_factorise_and_solve, (name,)).get(timeout=60) < 1e-10


@pytest.mark.parametrize("name", [n for n in solver_names(installed_only=True) if n == "pardiso-cholesky"])
def test_a_singular_matrix_is_a_numerical_error_naming_the_likely_cause(name):
    """A structure held by nothing has a singular stiffness: one NumericalError line (exit 1), not a RuntimeError."""
    import scipy.sparse as sp

    from fem2d.errors import NumericalError

    singular = sp.csr_matrix(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    with pytest.raises(NumericalError, match=r"error -4 \(a zero pivot.*likely cause: a body not held by supports"):
        get_solver(name).factorize(singular)


def _free_beam():
    """A static model held by no support: its stiffness is singular (three rigid-body modes)."""
    from fem2d.mesh import rectangle
    from fem2d.model import Body, Model, Traction

    return Model(rectangle(length=10.0, height=0.5, nx=20, ny=2),
                 bodies=[Body("BODY", E=2.1e11, nu=0.0, rho=7800.0, hypothesis="plane_stress")],
                 supports=[], loads=[Traction("RIGHT", (0.0, 2e4))])


@pytest.mark.parametrize("name", solver_names(installed_only=True))
def test_every_backend_refuses_a_singular_matrix_naming_the_likely_cause(name):
    """SuperLU, PARDISO LDL^T and LU pivot on round-off and returned answers of order 1e13 for a
    structure held by nothing; CHOLMOD raised a ValueError. Every backend now raises the same
    NumericalError line."""
    from fem2d.errors import NumericalError

    exact = sp.csr_matrix(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    stiffness = _free_beam().assemble().K_free.tocsr()
    for matrix in (exact, stiffness):
        with pytest.raises(NumericalError, match=rf"^linear solver '{name}': the matrix is singular \(.*\); "
                                                 "likely cause: a body not held by supports"):
            get_solver(name).factorize(matrix)


@pytest.mark.parametrize("name", solver_names(installed_only=True))
def test_a_static_analysis_held_by_nothing_fails_instead_of_answering(name):
    from fem2d.dynamics.schemes import StaticScheme
    from fem2d.errors import NumericalError
    from fem2d.model import Report, TimeStepping
    from fem2d.runs.direct import DirectAnalysis

    analysis = DirectAnalysis(_free_beam(), TimeStepping(dt=5e-4, end=2e-3), scheme=StaticScheme(), solver=name,
                              report=Report("EAST", "dy", at_times=[2e-3]))
    with pytest.raises(NumericalError, match="the matrix is singular.*likely cause: a body not held by supports"):
        analysis.run()


def test_the_probe_of_a_regular_stiffness_is_far_below_the_tolerance():
    """The singularity test must not refuse a regular matrix: SDNV104's K_eff recovers the probe
    to round-off, 1e8 times below the tolerance."""
    from fem2d.linalg.base import PROBE_TOLERANCE, probe_error

    A = _stiffness()
    assert probe_error(A, get_solver("superlu").factorize(A)) < 1e-8 * PROBE_TOLERANCE


@pytest.mark.parametrize("name", [n for n in solver_names(installed_only=True) if n.startswith("pardiso-")])
def test_a_refactorisation_in_place_equals_a_new_factorisation(name):
    """K + c M for another c (another step size) refactorised in the old factors' handle (PARDISO
    phase 22 on the kept analysis): the same solutions and Schur complement as a new
    factorisation; the old factorisation is consumed; another pattern is factorised anew."""
    backend = get_solver(name)
    stiffness = _stiffness()
    mass = sp.eye(stiffness.shape[0], format="csr")
    rows = np.arange(0, stiffness.shape[0], 7) if backend.schur else None
    b = np.random.default_rng(2).standard_normal(stiffness.shape[0])
    first = backend.factorize(stiffness, rows)
    second = (stiffness + 3e5 * mass).tocsr()
    refactorised = backend.refactorize(first, second, rows)
    fresh = backend.factorize(second, rows)
    assert backend.refactorizes and refactorised is not first
    assert np.abs(refactorised.solve(b) - fresh.solve(b)).max() <= 1e-15 * np.abs(fresh.solve(b)).max()
    if backend.schur:
        assert np.array_equal(refactorised.schur, fresh.schur)
    with pytest.raises(ValueError, match="gave its handle away"):
        first.solve(b)
    # a matrix of another pattern: factorised from scratch (the old factors freed first)
    other = _spd(stiffness.shape[0])
    again = backend.refactorize(refactorised, other, rows)
    assert not refactorised.alive and again.alive
    expected = get_solver("superlu").factorize(other).solve(b)
    assert np.abs(again.solve(b) - expected).max() <= 1e-10 * np.abs(expected).max()


@pytest.mark.parametrize("name", ["superlu", "pardiso"])
def test_a_backend_without_refactorisation_factorises_anew(name):
    """SuperLU, and PARDISO's LU, whose phase 22 would keep the first matrix's scaling and matching."""
    if name not in solver_names(installed_only=True):
        pytest.skip(f"{name} not installed")
    backend = get_solver(name)
    a = _spd()
    b = np.ones(a.shape[0])
    assert not backend.refactorizes
    x = backend.refactorize(backend.factorize(a), 2.0 * a).solve(b)
    assert np.abs(x - 0.5 * backend.factorize(a).solve(b)).max() <= 1e-12 * np.abs(x).max()


@pytest.mark.parametrize("name", [n for n in solver_names(installed_only=True) if n == "pardiso-cholesky"])
def test_a_refactorisation_of_a_singular_matrix_is_refused(name):
    """The refactorisation keeps the probe of a new factorisation: a singular matrix of the same
    pattern (the mass weight down to zero on a free-floating stiffness) is a NumericalError."""
    from fem2d.errors import NumericalError

    backend = get_solver(name)
    k = sp.csr_matrix(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    m = sp.csr_matrix(np.array([[2.0, 1.0], [1.0, 2.0]]))
    factor = backend.factorize(sp.triu(k + m, format="csr"))
    with pytest.raises(NumericalError, match="singular"):
        backend.refactorize(factor, sp.triu(k + 0.0 * m, format="csr"))


def test_mkl_is_found_where_the_wheel_lists_it_without_reading_its_file_list():
    """The ``mkl`` wheel's runtime is found in this environment's prefix, the file its own list
    names (the fast path spares a process importing ``importlib.metadata``); without the wheel,
    no MKL, and the default solver is SuperLU."""
    from fem2d.linalg import default

    listed = default._listed_by_the_wheel()
    assert default.mkl_runtime() == listed
    assert default.default_solver() == ("superlu" if listed is None else "pardiso-cholesky")
