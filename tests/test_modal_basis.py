"""Modal basis and projections (fem2d.modal.basis) against closed forms."""

import math

import numpy as np
import pytest
import scipy.sparse as sp

from fem2d.modal.basis import (
    ModalProblem,
    base_acceleration_load,
    modal_basis,
    modal_damping,
    node_modes,
    project_initial,
    project_load,
)


def chain(n: int, k: float = 1e4, m: float = 1.0):
    """Fixed-free chain of n masses m (kg) and n springs k (N/m): sparse K, M."""
    main = np.full(n, 2.0 * k)
    main[-1] = k
    K = sp.diags([main, -k * np.ones(n - 1), -k * np.ones(n - 1)], [0, 1, -1], format="csr")
    M = sp.identity(n, format="csr") * m
    return K, M


def chain_omegas(n: int, count: int, k: float = 1e4, m: float = 1.0):
    j = np.arange(1, count + 1)
    return 2.0 * math.sqrt(k / m) * np.sin((2 * j - 1) * math.pi / (2 * (2 * n + 1)))


@pytest.mark.parametrize("n", [20, 600])  # dense eigh, then sparse shift-invert eigsh
def test_chain_frequencies(n):
    K, M = chain(n)
    basis = modal_basis(K, M, 4)
    np.testing.assert_allclose(basis.omegas, chain_omegas(n, 4), rtol=1e-9)
    np.testing.assert_allclose(basis.frequencies, basis.omegas / (2 * math.pi))


def test_modes_scaled_to_unit_largest_component_with_generalised_mass_and_stiffness():
    K, M = chain(30)
    b = modal_basis(K, M, 3)
    assert np.all(np.max(np.abs(b.modes), axis=0) == pytest.approx(1.0, abs=1e-15))
    assert np.all(b.modes[np.argmax(np.abs(b.modes), axis=0), range(3)] == 1.0)
    np.testing.assert_allclose(b.masses, np.einsum("ij,ij->j", b.modes, M @ b.modes), rtol=1e-12)
    np.testing.assert_allclose(b.stiffnesses, b.omegas**2 * b.masses, rtol=1e-9)
    # M-orthogonality
    G = b.modes.T @ (M @ b.modes)
    assert np.max(np.abs(G - np.diag(np.diag(G)))) < 1e-10 * np.max(np.abs(G))


def test_one_dof_model_as_sdnd104():
    b = modal_basis(np.array([[3e-5]]), np.array([[1.0]]), 1)
    assert b.modes[0, 0] == 1.0 and b.masses[0] == 1.0 and b.stiffnesses[0] == pytest.approx(3e-5)
    assert base_acceleration_load(b, np.array([[1.0]]), np.array([1.0]))[0] == -1.0
    problem = ModalProblem.from_basis(b, 0.0)
    assert problem.omegas[0] == pytest.approx(math.sqrt(3e-5))


def test_projections_recover_modal_coordinates():
    K, M = chain(12, k=5.0, m=2.0)
    b = modal_basis(K, M, 12)
    q = np.linspace(-1.0, 1.0, 12)
    np.testing.assert_allclose(project_initial(b, M, b.modes @ q), q, atol=1e-12)
    f = np.zeros(12)
    f[-1] = 3.0
    np.testing.assert_allclose(project_load(b, f), 3.0 * b.modes[-1], rtol=1e-14)
    rows = node_modes(b, (11, -1))
    np.testing.assert_array_equal(rows[0], b.modes[11])
    assert np.all(rows[1] == 0.0)


def test_modal_damping():
    K, M = chain(5)
    b = modal_basis(K, M, 2)
    np.testing.assert_allclose(modal_damping(0.02, b), 2 * 0.02 * b.omegas * b.masses)
    np.testing.assert_allclose(modal_damping([0.01, 0.03], b), 2 * np.array([0.01, 0.03]) * b.omegas * b.masses)
    p = ModalProblem.from_basis(b, [0.01, 0.03])
    np.testing.assert_allclose(p.damping_ratios, [0.01, 0.03], rtol=1e-9)


def test_invalid_requests():
    K, M = chain(5)
    with pytest.raises(ValueError):
        modal_basis(K, M, 0)
    with pytest.raises(ValueError):
        ModalProblem(masses=[0.0], stiffnesses=[1.0])
