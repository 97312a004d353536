"""Large-rotation and finite-strain element kernels: exact derivatives (central
finite differences), rigid motions, the small-displacement limit and closed forms."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import brentq

from fem2d.errors import InputError
from fem2d.fe.corotational import corotational_cells
from fem2d.fe.elasticity import elasticity_matrix, stiffness_matrices
from fem2d.fe.elements import reference_element
from fem2d.fe.hyperelastic import LAWS, cauchy_cell_nodal_stresses, hyperelastic_cells, lame
from fem2d.fe.response import InvertedCells
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


# ---------------------------------------------------------------- hyperelastic


@pytest.mark.parametrize("law", LAWS)
@pytest.mark.parametrize("kind", ["quad4", "quad8", "tri6"])
def test_hyperelastic_tangent_at_rest_is_the_small_strain_stiffness(kind, law):
    X, block = one_cell(kind)
    out = hyperelastic_cells(X, block, np.zeros(X.size), law, E, NU, thickness=0.3)
    K = stiffness_matrices(X, block, elasticity_matrix(E, NU, "plane_strain"), thickness=0.3)
    assert rel(out.tangent, K) < 1e-10
    assert np.abs(out.force).max() == 0.0 and out.energy[0] == 0.0


@pytest.mark.parametrize("law", LAWS)
@pytest.mark.parametrize("kind", ["quad4", "quad8", "tri3", "tri6", "quad9"])
def test_hyperelastic_force_and_tangent_are_exact_derivatives(kind, law):
    X, block = one_cell(kind)
    u = deformation(X, 1.0, stretch=(0.95, 0.7))  # 30 % compression, 1 rad rotation
    out = hyperelastic_cells(X, block, u, law, E, NU)
    h = 1e-6
    fd_force = central_gradient(lambda v: hyperelastic_cells(X, block, v, law, E, NU, tangent=False).energy, u, h)
    fd_tangent = central_gradient(lambda v: hyperelastic_cells(X, block, v, law, E, NU, tangent=False).force[0], u, h)
    assert rel(out.force, fd_force) < 1e-6
    assert rel(out.tangent[0], fd_tangent) < 1e-6
    assert np.abs(out.tangent[0] - out.tangent[0].T).max() < 1e-12 * np.abs(out.tangent).max()


@pytest.mark.parametrize("law", LAWS)
def test_hyperelastic_energy_is_frame_indifferent(law):
    X, block = one_cell("quad8")
    u = deformation(X, 0.4, stretch=(1.2, 0.8))
    x = X + u.reshape(-1, 2)
    W = hyperelastic_cells(X, block, u, law, E, NU, tangent=False).energy[0]
    for angle in (0.7, 2.9, -1.6):
        c, s = np.cos(angle), np.sin(angle)
        turned = x @ np.array([[c, s], [-s, c]]) + [5.0, -3.0]
        W2 = hyperelastic_cells(X, block, (turned - X).ravel(), law, E, NU, tangent=False).energy[0]
        assert abs(W2 - W) < 1e-12 * W


def nominal_stresses(law: str, lx: float, ly: float) -> tuple[float, float]:
    """``(P_xx, P_yy)`` of the homogeneous plane-strain stretch ``F = diag(lx, ly)``, in closed form."""
    mu, lam = lame(E, NU)
    if law == "saint_venant_kirchhoff":
        ex, ey = 0.5 * (lx**2 - 1), 0.5 * (ly**2 - 1)
        return lx * (lam * (ex + ey) + 2 * mu * ex), ly * (lam * (ex + ey) + 2 * mu * ey)
    lnJ = np.log(lx * ly)
    return (mu * (lx - 1 / lx) + lam * lnJ / lx, mu * (ly - 1 / ly) + lam * lnJ / ly)


@pytest.mark.parametrize("law", LAWS)
def test_hyperelastic_uniaxial_compression_resultants(law):
    ly = 0.7
    lx = brentq(lambda s: nominal_stresses(law, s, ly)[0], 0.8, 1.6)
    Pxx, Pyy = nominal_stresses(law, lx, ly)
    assert abs(Pxx) < 1e-6 * abs(Pyy)
    x, y = np.meshgrid(np.linspace(0.0, 1.0, 3), np.linspace(0.0, 1.0, 3))
    points = np.column_stack([x.ravel(), y.ravel()])
    ids = np.arange(9).reshape(3, 3)
    block = CellBlock(
        "quad4",
        np.column_stack([ids[:-1, :-1].ravel(), ids[:-1, 1:].ravel(), ids[1:, 1:].ravel(), ids[1:, :-1].ravel()]),
    )
    u = (points * [lx - 1.0, ly - 1.0]).ravel()
    out = hyperelastic_cells(points, block, u, law, E, NU, thickness=0.5)
    f = np.zeros(18)
    np.add.at(f, (2 * block.nodes[:, :, None] + np.arange(2)).reshape(len(block), -1), out.force)
    f = f.reshape(9, 2)
    top, right, interior = ids[-1], ids[:, -1], ids[1, 1]
    assert abs(f[top, 1].sum() - 0.5 * Pyy * 1.0) < 1e-10 * abs(Pyy)
    assert abs(f[right, 0].sum()) < 1e-10 * abs(Pyy)
    assert np.abs(f[interior]).max() < 1e-10 * abs(Pyy)
    # the Cauchy stress of the same state: sigma_yy = P_yy / lx (the current width carries it), sigma_xx = 0
    sigma = cauchy_cell_nodal_stresses(points, block, u, law, E, NU)
    np.testing.assert_allclose(sigma[..., 1], Pyy / lx, rtol=1e-12)
    assert np.abs(sigma[..., [0, 2]]).max() < 1e-9 * abs(Pyy)
    mu, lam = lame(E, NU)
    J = lx * ly
    szz = lam * 0.5 * (lx**2 + ly**2 - 2) / J if law == "saint_venant_kirchhoff" else lam * np.log(J) / J
    np.testing.assert_allclose(sigma[..., 3], szz, rtol=1e-12)


@pytest.mark.parametrize("law", LAWS)
def test_hyperelastic_inverted_cells_are_reported(law):
    X, block = one_cell("quad4")
    points = np.vstack([X, X + [3.0, 0.0]])
    two = CellBlock("quad4", [[0, 1, 2, 3], [4, 5, 6, 7]])
    u = np.zeros(16)
    u[8:] = ((X - X.mean(axis=0)) * [-2.0, 0.0]).ravel()  # mirrored in x: det F = -1
    with pytest.raises(InvertedCells, match="1 cell"):
        hyperelastic_cells(points, two, u, law, E, NU)
    with pytest.raises(InvertedCells, match="1 cell"):
        cauchy_cell_nodal_stresses(points, two, u, law, E, NU)


def test_hyperelastic_vectorised_over_cells_and_unknown_law():
    X, block = one_cell("tri6")
    points = np.vstack([X, X + [3.0, 0.0]])
    two = CellBlock("tri6", [np.arange(6), np.arange(6, 12)])
    u = np.concatenate([deformation(X, 1.0, stretch=(0.95, 0.7)), deformation(X, -0.3)])
    out = hyperelastic_cells(points, two, u, "neo_hookean", E, NU)
    for c in range(2):
        single = hyperelastic_cells(X, block, u[12 * c : 12 * c + 12], "neo_hookean", E, NU)
        np.testing.assert_allclose(out.force[c], single.force[0], rtol=1e-13, atol=1e-3)
        np.testing.assert_allclose(out.tangent[c], single.tangent[0], rtol=1e-13, atol=1e-1)
    with pytest.raises(InputError, match="law must be one of"):
        hyperelastic_cells(X, block, np.zeros(12), "mooney", E, NU)


def test_corotational_inverted_cell_is_reported():
    X, block = one_cell("tri3")
    K = stiffness_matrices(X, block, elasticity_matrix(E, NU))
    u = ((X - X.mean(axis=0)) * [-2.0, 0.0]).ravel()  # mirrored in x: det F = -1
    with pytest.raises(InvertedCells, match="1 cell"):
        corotational_cells(X, block, u, K)


@pytest.mark.parametrize("model", ["corotational", "neo_hookean"])
def test_newton_converges_quadratically_to_a_large_rotation(model):
    """Two corners of a QUAD8 carried 1.2 rad round: Newton on the other nodes finds the rigid
    rotation (the exact solution), the residual squaring at each of its last iterations."""
    X, block = one_cell("quad8")
    K = stiffness_matrices(X, block, elasticity_matrix(E, NU))
    c, s = np.cos(1.2), np.sin(1.2)
    exact = (X @ np.array([[c, s], [-s, c]]) - X).ravel()
    fixed = np.array([0, 1, 2, 3])  # nodes 0 and 1
    free = np.setdiff1d(np.arange(X.size), fixed)

    def response(v):
        if model == "corotational":
            return corotational_cells(X, block, v, K)
        return hyperelastic_cells(X, block, v, model, E, NU)

    c0, s0 = np.cos(1.15), np.sin(1.15)
    u = (X @ np.array([[c0, s0], [-s0, c0]]) - X).ravel()  # start from a rotation by 1.15 rad
    u[fixed] = exact[fixed]
    residuals = []
    for _ in range(8):
        out = response(u)
        residuals.append(np.abs(out.force[0, free]).max())
        if residuals[-1] < 1e-12 * np.abs(K).max():
            break
        u[free] -= np.linalg.solve(out.tangent[0][np.ix_(free, free)], out.force[0, free])
    np.testing.assert_allclose(u, exact, atol=1e-10)
    assert len(residuals) <= 7
    r = np.array(residuals[-4:-1]) / residuals[0]
    assert r[2] < 10 * r[1] ** 2  # quadratic: r_{k+1} ~ r_k^2


@pytest.mark.parametrize("kind", ["tri3", "tri6", "quad4", "quad8", "quad9"])
@pytest.mark.parametrize("interpreted", [False, True])
def test_the_compiled_corotational_kernel_gives_the_formulation_s_numbers(kind, interpreted):
    """One pass per cell (compiled, or its source interpreted) against the vectorised
    formulation: energy, remainder f_int - K u_e (u_e about the cell's mean node) and tangent,
    to round-off, over cells turned by angles of every quadrant and slid far away."""
    from fem2d.fe.corotational import corotational_frame
    from fem2d.fe.corotational_kernel import corotational_remainder

    X, _ = one_cell(kind)
    nn = len(X)
    angles = [-3.0, -1.9, -0.4, 0.0, 1e-7, 0.7, 2.2, 3.1]
    points = np.vstack([X + 2.0 * k for k in range(len(angles))])
    block = CellBlock(kind, np.arange(len(points)).reshape(len(angles), nn))
    u = np.concatenate([deformation(X, a, shift=(15.0, -4.0)) for a in angles])
    K = stiffness_matrices(points, block, elasticity_matrix(E, NU))
    frame = corotational_frame(points, block)
    ref = corotational_cells(points, block, u, K, frame=frame)
    ue = u[frame[2]].reshape(len(angles), nn, 2)
    ue = (ue - ue.mean(axis=1, keepdims=True)).reshape(len(angles), -1)
    remainder = ref.force - (K @ ue[..., None])[..., 0]
    out = corotational_remainder(u, frame[2], frame, K, tangent=True, interpreted=interpreted)
    assert out.inverted == 0
    assert rel(out.energy, ref.energy) < 1e-12
    assert np.abs(out.remainder - remainder).max() < 1e-12 * np.abs(ref.force).max()
    assert rel(out.tangent, ref.tangent) < 1e-13
    assert rel(out.linear, 0.5 * np.einsum("ci,cij,cj->c", ue, K, ue)) < 1e-13
    alone = corotational_remainder(u, frame[2], frame, K)
    assert alone.tangent is None and np.array_equal(alone.energy, out.energy)
    assert np.array_equal(alone.remainder, out.remainder)
    # the same cells reading their matrices through an index: the same numbers
    shared = corotational_remainder(u, frame[2], frame, np.concatenate([K[::-1], K]), tangent=True,
                                    index=np.arange(len(angles), 2 * len(angles)))
    assert np.array_equal(shared.remainder, out.remainder) and np.array_equal(shared.tangent, out.tangent)


def test_the_compiled_corotational_kernel_counts_inverted_cells():
    from fem2d.fe.corotational import corotational_frame
    from fem2d.fe.corotational_kernel import corotational_remainder

    X, block = one_cell("quad4")
    K = stiffness_matrices(X, block, elasticity_matrix(E, NU))
    mirrored = (X * [-1.0, 1.0] - X).ravel()  # det F = -1
    frame = corotational_frame(X, block)
    assert corotational_remainder(mirrored, frame[2], frame, K).inverted == 1
    assert corotational_remainder(np.zeros(X.size), frame[2], frame, K).inverted == 0


def test_translated_cells_share_their_stiffness_and_others_do_not():
    """A structured grid's cells are translates: one matrix for all (their computed matrices
    differ by round-off only); a distorted cell keeps its own."""
    from fem2d.fe.corotational_kernel import shared_stiffness

    n = 6
    x = np.linspace(0.3, 1.7, n + 1)
    X, Y = np.meshgrid(x, 0.9 * x)
    points = np.c_[X.ravel(), Y.ravel()]
    i, j = np.meshgrid(np.arange(n), np.arange(n))
    a = (j * (n + 1) + i).ravel()
    block = CellBlock("quad4", np.c_[a, a + 1, a + n + 2, a + n + 1])
    K = stiffness_matrices(points, block, elasticity_matrix(E, NU))
    distinct, index = shared_stiffness(K)
    assert len(distinct) == 1 and np.abs(distinct[index] - K).max() < 1e-12 * np.abs(K).max()
    points[0] += [0.01, 0.0]  # the first cell distorted
    K = stiffness_matrices(points, block, elasticity_matrix(E, NU))
    distinct, index = shared_stiffness(K)
    assert len(distinct) == 2 and np.array_equal(distinct[index[0]], K[0])
