"""Large-rotation and finite-strain element kernels: exact derivatives (central
finite differences), rigid motions, the small-displacement limit and closed forms."""

from __future__ import annotations

import numpy as np
import pytest

from fem2d.fe.corotational import corotational_cells
from fem2d.fe.elasticity import elasticity_matrix, stiffness_matrices
from fem2d.fe.elements import reference_element
from fem2d.mesh.mesh import CellBlock

E, NU = 2.0e9, 0.3


def one_cell(kind: str) -> tuple[np.ndarray, CellBlock]:
    """A single distorted cell of ``kind`` (about 1 m across), nodes 0..nn-1."""
    ref = reference_element(kind).nodes
    if kind.startswith("quad"):
        X = 0.5 * (ref + 1.0)
    else:
        X = ref.copy()
    X = X @ np.array([[1.1, 0.15], [-0.1, 0.9]]) + [0.3, -0.2]
    X = X + 0.03 * np.sin(3.0 * X[:, ::-1] + 1.0)  # curve the edges a little
    return X, CellBlock(kind, [np.arange(len(X))])


def deformation(X: np.ndarray, angle: float, stretch: tuple[float, float] = (1.02, 0.99), shift=(0.1, -0.3)):
    """Displacement of a rotation by ``angle`` after a stretch, plus a small non-homogeneous part."""
    c, s = np.cos(angle), np.sin(angle)
    R = np.array([[c, -s], [s, c]])
    x = (X * stretch + 0.01 * np.cos(2.0 * X)) @ R.T + shift
    return (x - X).ravel()


def central_gradient(fun, u: np.ndarray, h: float) -> np.ndarray:
    cols = []
    for i in range(u.size):
        e = np.zeros_like(u)
        e[i] = h
        cols.append((fun(u + e) - fun(u - e)) / (2 * h))
    return np.stack(cols, axis=-1)


def rel(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).max() / np.abs(b).max())


# ---------------------------------------------------------------- corotational


@pytest.mark.parametrize("kind", ["quad4", "quad8", "tri3", "tri6", "quad9"])
def test_corotational_force_and_tangent_are_exact_derivatives(kind):
    X, block = one_cell(kind)
    K = stiffness_matrices(X, block, elasticity_matrix(E, NU))
    u = deformation(X, 1.3)
    out = corotational_cells(X, block, u, K)
    h = 1e-5
    fd_force = central_gradient(lambda v: corotational_cells(X, block, v, K, tangent=False).energy, u, h)
    fd_tangent = central_gradient(lambda v: corotational_cells(X, block, v, K, tangent=False).force[0], u, h)
    assert rel(out.force, fd_force) < 1e-6
    assert rel(out.tangent[0], fd_tangent) < 1e-6
    assert np.abs(out.tangent[0] - out.tangent[0].T).max() < 1e-12 * np.abs(out.tangent).max()


@pytest.mark.parametrize("angle", [0.1, 2.0, 3.1, -2.5])
@pytest.mark.parametrize("kind", ["quad4", "quad8", "tri3"])
def test_corotational_rigid_motion_is_free(kind, angle):
    X, block = one_cell(kind)
    K = stiffness_matrices(X, block, elasticity_matrix(E, NU))
    c, s = np.cos(angle), np.sin(angle)
    u = ((X @ np.array([[c, s], [-s, c]]) + [0.7, -2.0]) - X).ravel()
    out = corotational_cells(X, block, u, K)
    scale = np.abs(K @ u).max()
    assert abs(out.energy[0]) < 1e-9 * scale * np.abs(u).max()
    assert np.abs(out.force).max() < 1e-9 * scale


def test_corotational_small_displacement_limit_is_linear():
    X, block = one_cell("quad8")
    K = stiffness_matrices(X, block, elasticity_matrix(E, NU))
    rng = np.random.default_rng(3)
    d = rng.standard_normal(2 * len(X))
    errors = []
    for eps in (1e-3, 1e-4):
        out = corotational_cells(X, block, eps * d, K)
        linear = K[0] @ (eps * d)
        errors.append(np.abs(out.force[0] - linear).max() / np.abs(linear).max())
        assert abs(out.energy[0] - 0.5 * eps * d @ linear) < 2 * eps * abs(0.5 * eps * d @ linear)
    # |f - K u| = O(eps^2): relative to |K u| it falls tenfold when eps does
    assert 0.09 < errors[1] / errors[0] < 0.11
    assert errors[1] < 1e-3


def test_corotational_vectorised_over_cells():
    X, block = one_cell("quad4")
    points = np.vstack([X, X + [3.0, 0.0]])
    two = CellBlock("quad4", [[0, 1, 2, 3], [4, 5, 6, 7]])
    K = stiffness_matrices(points, two, elasticity_matrix(E, NU))
    u = np.concatenate([deformation(X, 1.3), deformation(X, -0.4)])
    out = corotational_cells(points, two, u, K)
    for c in range(2):
        single = corotational_cells(X, block, u[8 * c : 8 * c + 8], K[c : c + 1])
        np.testing.assert_allclose(out.force[c], single.force[0], rtol=1e-13, atol=1e-6)
        np.testing.assert_allclose(out.tangent[c], single.tangent[0], rtol=1e-13, atol=1e-3)
