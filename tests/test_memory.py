"""Memory at level 6: a backend that reads the upper triangle is given only that."""

import numpy as np
import pytest
import scipy.sparse as sp

from fem2d.linalg import get_solver
from fem2d.linalg.base import is_upper_triangular


@pytest.mark.parametrize("name", ["pardiso-cholesky", "pardiso-ldlt"])
def test_upper_triangle_alone_factorises_the_symmetric_matrix(name):
    backend = get_solver(name)
    if not backend.available():
        pytest.skip(f"{name} is not installed")
    assert backend.upper_triangle
    n = 50
    A = sp.diags([-1.0, 2.5, -1.0], [-1, 0, 1], shape=(n, n), format="csr")
    b = np.random.default_rng(1).standard_normal(n)
    upper = sp.triu(A, format="csr")
    assert is_upper_triangular(upper) and not is_upper_triangular(A)
    x_upper = backend.factorize(upper).solve(b)
    np.testing.assert_allclose(A @ x_upper, b, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(x_upper, backend.factorize(A).solve(b))  # the same factorisation


def test_is_upper_triangular_reads_first_entries_of_sorted_rows_and_every_entry_otherwise():
    A = sp.csr_matrix(np.array([[1.0, 2.0, 0.0], [0.0, 0.0, 0.0], [0.0, 3.0, 4.0]]))  # a row empty
    assert A.has_sorted_indices and not is_upper_triangular(A)
    assert is_upper_triangular(sp.triu(A, format="csr"))
    # unsorted rows: the first stored entry of a row need not be its leftmost
    unsorted = sp.csr_matrix((np.array([1.0, 5.0, 2.0]), np.array([1, 0, 1]), np.array([0, 1, 3])), shape=(2, 2))
    unsorted.has_sorted_indices = False
    assert not is_upper_triangular(unsorted)
    ok = sp.csr_matrix((np.array([1.0, 5.0, 2.0]), np.array([1, 0, 1]), np.array([0, 2, 3])), shape=(2, 2))
    ok.has_sorted_indices = False
    assert is_upper_triangular(ok)


def test_pardiso_reads_the_matrixs_own_index_arrays():
    backend = get_solver("pardiso-cholesky")
    if not backend.available():
        pytest.skip("pardiso-cholesky is not installed")
    n = 40
    upper = sp.triu(sp.diags([-1.0, 2.5, -1.0], [-1, 0, 1], shape=(n, n)), format="csr")
    upper.indptr, upper.indices = upper.indptr.astype(np.int32), upper.indices.astype(np.int32)
    factor = backend.factorize(upper)
    # zero-based, not copied
    assert np.shares_memory(factor._indices, upper.indices) and np.shares_memory(factor._indptr, upper.indptr)
    b, A = np.arange(n, dtype=float), symmetric(upper)
    again = backend.refactorize(factor, upper * 2.0)  # the same pattern in other arrays: kept analysis
    np.testing.assert_allclose(A @ again.solve(b), b / 2.0, rtol=1e-12, atol=1e-12)


def symmetric(upper):
    return upper + sp.triu(upper, 1).T


def test_a_direct_run_frees_its_factorisations_before_the_post_processing():
    """A run's factors (330 MB at level 6) are freed when its march ends, not when the garbage
    collector finds the march's reference cycles."""
    import gc

    import fem2d
    from fem2d.linalg.pardiso import PardisoFactorization

    if not get_solver("pardiso-cholesky").available():
        pytest.skip("pardiso-cholesky is not installed")
    def alive() -> list:  # (other tests' results may keep factors of their own)
        # type(), not isinstance(): gc lists the weak proxies other tests' libraries left, and isinstance
        # on a dead one raises ReferenceError (the default run failed here after the earlier tests)
        return [o for o in gc.get_objects() if type(o) is PardisoFactorization and o.alive]

    gc.collect()
    before = alive()
    gc.disable()
    try:
        fem2d.run("sdnv104a", {"time.end": 0.05, "time.extrapolate": False, "solver.linear": "pardiso-cholesky"})
        left = [o for o in alive() if not any(o is b for b in before)]
    finally:
        gc.enable()
    assert left == []


def _held_matrices(system) -> list:
    """The sparse matrices a System holds (its attributes and its kept matrices on all dofs)."""
    values = list(system.__dict__.values()) + list(system.__dict__["_full"].values())
    return [v for v in values if sp.issparse(v)]


def test_a_system_keeps_its_full_matrices_as_their_free_blocks_and_makes_them_again_entry_for_entry(monkeypatch):
    """Once K_free and M_free exist, K and M on all dofs are not held twice (137 MB at level 6,
    where 68 MB do), and asking for them gives the same CSR arrays, bit for bit, also after
    ``fixed`` has changed and the cached blocks were dropped."""
    from fem2d.case.build import build_system
    from fem2d.case.loading import load_case
    from fem2d.model import system as system_module

    case = load_case("sdnv104a", ["mesh.refine=2"])
    with monkeypatch.context() as m:  # the matrices as assembled: blocks made without the split
        m.setattr(system_module.System, "_free_block",
                  lambda self, name: self.restrict(system_module._full_matrix(self, name)))
        reference = build_system(case)
        K, M = reference.K, reference.M
        assert reference.M_free is not None and reference.__dict__["_full"]["M"] is M
    system = build_system(case)
    K_free, M_free = system.K_free, system.M_free
    # no matrix on all dofs with K's or M's entries is held besides the free-free blocks
    assert not [m for m in _held_matrices(system) if m.shape == K.shape and m.nnz in (K.nnz, M.nnz)]
    assert any(m is K_free for m in _held_matrices(system)) and any(m is M_free for m in _held_matrices(system))

    def same(a, b):
        return all(np.array_equal(getattr(a, x), getattr(b, x)) for x in ("data", "indices", "indptr"))

    assert same(system.K, K) and same(system.M, M) and system.n_dofs == K.shape[0]
    system.fixed = np.union1d(system.fixed, [0, 1])  # a caller constrains two more dofs, as tests do
    system.fixed_values = np.zeros(len(system.fixed))
    for key in ("free", "free_index", "K_free", "M_free", "C_free", "_lift"):
        system.__dict__.pop(key, None)
    assert system.K_free.shape[0] == K_free.shape[0] - 2
    assert same(system.K_free, system.restrict(K)) and same(system.K, K) and same(system.M, M)


def test_a_damped_systems_c_is_kept_as_its_free_block_too_and_made_again_entry_for_entry(monkeypatch):
    """The same for the damping matrix of Rayleigh damping (C on all dofs and C_free)."""
    from fem2d.case.build import build_system
    from fem2d.case.loading import load_case
    from fem2d.model import system as system_module

    case = load_case("sdnv104a", ["mesh.refine=1", "materials.0.rayleigh=[2.0, 1e-5]"])
    with monkeypatch.context() as m:
        m.setattr(system_module.System, "_free_block",
                  lambda self, name: self.restrict(system_module._full_matrix(self, name)))
        C = build_system(case).C
    system = build_system(case)
    assert C is not None and C.nnz and system.C_free is not None
    assert not [m for m in _held_matrices(system) if m.shape == C.shape and m.nnz == C.nnz]
    assert all(np.array_equal(getattr(system.C, x), getattr(C, x)) for x in ("data", "indices", "indptr"))
