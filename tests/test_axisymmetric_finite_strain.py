"""Finite-strain axisymmetric cells (fem2d/fe/axisymmetric_hyperelastic.py): exact derivatives
(central finite differences), a rigid slide along the axis, the small-strain limit, homogeneous
deformations against the closed-form nominal stresses of each law, and the plane-strain law."""

from __future__ import annotations

import numpy as np
import pytest

from fem2d.fe.axisymmetric import axisymmetric_elasticity_matrix, axisymmetric_stiffness_matrices
from fem2d.fe.axisymmetric_hyperelastic import (
    axisymmetric_cauchy_cell_nodal_stresses,
    axisymmetric_hyperelastic_cells,
    axisymmetric_material_response,
)
from fem2d.fe.elements import reference_element
from fem2d.fe.hyperelastic import LAWS, lame, material_response
from fem2d.fe.response import InvertedCells
from fem2d.mesh import rectangle
from fem2d.mesh.mesh import CellBlock

E, NU = 3.0, 0.3  # mu = 1.1538..., lam = 1.7307...
KINDS = ["quad4", "quad8", "quad9", "tri3", "tri6"]


def one_cell(kind: str, r0: float = 0.3) -> tuple[np.ndarray, CellBlock]:
    """A single distorted cell of ``kind`` about 1 m across, its smallest radius ``r0``."""
    ref = reference_element(kind).nodes
    X = 0.5 * (ref + 1.0) if kind.startswith("quad") else ref.copy()
    X = X @ np.array([[1.1, 0.15], [-0.1, 0.9]])
    X = X + 0.03 * np.sin(3.0 * X[:, ::-1] + 1.0)
    X[:, 0] += r0 - X[:, 0].min()
    return X, CellBlock(kind, [np.arange(len(X))])


def deformation(X: np.ndarray) -> np.ndarray:
    """30 % axial compression, 20 % radial swelling, a shear and a ripple; u_r = 0 where R = 0."""
    R, Z = X[:, 0], X[:, 1]
    ur = 0.2 * R + 0.1 * R * Z + 0.02 * R * np.cos(2.0 * Z)
    uz = -0.3 * Z + 0.15 * R + 0.01 * np.sin(2.0 * R) + 0.4
    return np.column_stack([ur, uz]).ravel()


def central_gradient(fun, u: np.ndarray, h: float) -> np.ndarray:
    cols = []
    for i in range(u.size):
        e = np.zeros_like(u)
        e[i] = h
        cols.append((fun(u + e) - fun(u - e)) / (2 * h))
    return np.stack(cols, axis=-1)


def rel(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).max() / np.abs(b).max())


@pytest.mark.parametrize("law", LAWS)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("r0", [0.3, 0.0])
def test_force_and_tangent_are_the_exact_derivatives_of_the_energy(kind, law, r0):
    """Central differences (h = 1e-5) of the energy and of the force, on a cell off the axis and
    on one with an edge on it: within 1e-7 (measured 4e-9 at worst)."""
    X, block = one_cell(kind, r0)
    u = deformation(X)
    out = axisymmetric_hyperelastic_cells(X, block, u, law, E, NU)
    energy = central_gradient(lambda v: axisymmetric_hyperelastic_cells(X, block, v, law, E, NU,
                                                                        tangent=False).energy, u, 1e-5)
    tangent = central_gradient(lambda v: axisymmetric_hyperelastic_cells(X, block, v, law, E, NU,
                                                                         tangent=False).force, u, 1e-5)
    assert rel(out.force, energy) < 1e-7
    assert rel(out.tangent, tangent) < 1e-7
    assert rel(out.tangent, np.swapaxes(out.tangent, -1, -2)) < 1e-13


@pytest.mark.parametrize("law", LAWS)
def test_a_slide_along_the_axis_is_free_of_force_and_energy(law):
    X, block = one_cell("quad8")
    u = np.column_stack([np.zeros(len(X)), np.full(len(X), 7.5)]).ravel()
    out = axisymmetric_hyperelastic_cells(X, block, u, law, E, NU)
    scale = np.abs(axisymmetric_hyperelastic_cells(X, block, deformation(X), law, E, NU).force).max()
    assert np.abs(out.force).max() < 1e-14 * scale
    assert abs(out.energy[0]) < 1e-28


@pytest.mark.parametrize("law", LAWS)
@pytest.mark.parametrize("kind", KINDS)
def test_the_tangent_at_rest_is_the_small_strain_axisymmetric_stiffness(kind, law):
    mesh = rectangle(0.5, 1.0, nx=2, ny=2, element=kind)
    block = mesh.group("BODY")
    u = np.zeros(2 * len(mesh.points))
    K = axisymmetric_hyperelastic_cells(mesh.points, block, u, law, E, NU).tangent
    K0 = axisymmetric_stiffness_matrices(mesh.points, block, axisymmetric_elasticity_matrix(E, NU))
    assert rel(K, K0) < 1e-14


def nominal_stress(F: np.ndarray, law: str) -> np.ndarray:
    """Closed forms: P = F (lam tr E I + 2 mu E) and P = mu (F - F^-T) + lam ln J F^-T."""
    mu, lam = lame(E, NU)
    if law == "saint_venant_kirchhoff":
        Eg = 0.5 * (F.T @ F - np.eye(3))
        return F @ (lam * np.trace(Eg) * np.eye(3) + 2.0 * mu * Eg)
    Fit = np.linalg.inv(F).T
    return mu * (F - Fit) + lam * np.log(np.linalg.det(F)) * Fit


@pytest.mark.parametrize("law", LAWS)
def test_the_laws_give_the_closed_form_nominal_stress_and_reduce_to_plane_strain(law):
    mu, lam = lame(E, NU)
    H = np.array([[0.2, 0.3, 0.0], [-0.1, -0.35, 0.0], [0.0, 0.0, 0.15]])
    _, S, _ = axisymmetric_material_response(H, law, mu, lam)
    F = np.eye(3) + H
    assert rel(F @ S, nominal_stress(F, law)) < 1e-14
    H[2, 2] = 0.0
    W, S, CC = axisymmetric_material_response(H, law, mu, lam)
    W2, S2, S33, CC2 = material_response(np.eye(2) + H[:2, :2], law, mu, lam, H=H[:2, :2])
    assert abs(W - W2) < 1e-15 * abs(W2)
    assert rel(S[:2, :2], S2) < 1e-14 and abs(S[2, 2] - S33) < 1e-14 * abs(S33)
    assert rel(CC[:2, :2, :2, :2], CC2) < 1e-14


@pytest.mark.parametrize("law", LAWS)
@pytest.mark.parametrize("kind", ["quad4", "quad8"])
def test_a_homogeneous_deformation_carries_the_closed_form_nominal_stresses(kind, law):
    """u_r = (a - 1) R, u_z = (b - 1) Z on the cylinder R < 0.5, Z < 1 (the axis a side): the
    inner nodes are in equilibrium (P_rr = P_tt), the top carries P_zz pi R^2 along z and the
    lateral surface P_rr 2 pi R H along r (whole ring); the Cauchy stress is P F^T / J."""
    a, b = 1.12, 0.7
    mesh = rectangle(0.5, 1.0, nx=3, ny=4, element=kind)
    X = mesh.points[:, :2]
    u = (X * [a - 1.0, b - 1.0]).ravel()
    block = mesh.group("BODY")
    out = axisymmetric_hyperelastic_cells(X, block, u, law, E, NU)
    f = np.bincount((2 * block.nodes[..., None] + np.arange(2)).ravel(), out.force.ravel(),
                    minlength=u.size).reshape(-1, 2)
    F = np.diag([a, b, a])
    P = nominal_stress(F, law)
    top, right = mesh.group_nodes("TOP"), mesh.group_nodes("RIGHT")
    scale = abs(P[1, 1]) * np.pi * 0.25
    assert abs(f[top, 1].sum() - P[1, 1] * np.pi * 0.25) < 1e-13 * scale
    assert abs(f[right, 0].sum() - P[0, 0] * 2.0 * np.pi * 0.5 * 1.0) < 1e-13 * scale
    inner = np.setdiff1d(np.arange(len(X)), np.concatenate([top, right, mesh.group_nodes("BOTTOM"),
                                                            mesh.group_nodes("LEFT")]))
    assert np.abs(f[inner]).max() < 1e-13 * scale
    sigma = axisymmetric_cauchy_cell_nodal_stresses(X, block, u, law, E, NU)
    exact = P @ F.T / np.linalg.det(F)
    assert np.abs(sigma - [exact[0, 0], exact[1, 1], 0.0, exact[2, 2]]).max() < 1e-13 * np.abs(exact).max()


def test_a_hoop_stretch_through_zero_turns_the_cell_inside_out():
    X, block = one_cell("quad4")
    u = (X * [-1.2, 0.0]).ravel()  # r = -0.2 R: det of the in-plane block > 0, the hoop stretch < 0
    with pytest.raises(InvertedCells, match="turned inside out"):
        axisymmetric_hyperelastic_cells(X, block, u, "neo_hookean", E, NU)


def test_a_systems_remainder_of_a_ring_is_of_second_order_in_a_radial_shift():
    """The system keeps the small-strain stiffness K and adds g(u) = f(u) - K u: a uniform radial
    shift of a ring strains its hoop (it is no rigid motion), so g of a shift of 1e-6 m is of the
    order of the strain times the force K u (measured 1.3e-6), not of order 1 (as it would be if
    the shift were dropped)."""
    from fem2d.model import Body
    from fem2d.model.internal import NonlinearBodies

    mesh = rectangle(0.5, 1.0, nx=2, ny=2, element="quad8", origin=(0.5, 0.0))
    body = Body("BODY", E=E, nu=NU, rho=1.0, hypothesis="axisymmetric", kinematics="finite", law="neo_hookean")
    bodies = NonlinearBodies(mesh, [body], 2 * len(mesh.points))
    u = np.zeros(2 * len(mesh.points))
    u[0::2] = 1e-6
    g = bodies.evaluate(u).remainder
    assert np.abs(g).max() < 1e-5 * np.abs(bodies.linear @ u).max()
