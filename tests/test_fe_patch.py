"""Patch tests: TRI3, TRI6, QUAD4, QUAD8 and QUAD9 reproduce a linear displacement field exactly.

Displacement (Dirichlet) patch test on distorted meshes, with straight and with
curved quadratic edges, in plane strain and plane stress; and a traction (Neumann)
patch test in which the boundary loads come from the exact constant stress.
"""

import numpy as np
import pytest
import scipy.sparse.linalg as spla

from fem2d.fe import (
    assemble_matrix,
    elasticity_matrix,
    gauss_stresses,
    nodal_stresses,
    node_dofs,
    stiffness_matrices,
    traction_load,
)
from fem2d.mesh import Mesh, rectangle
from fem2d.mesh.mesh import CORNERS_PER_CELL

A = np.array([[1e-3, 2e-3, -1.5e-3], [-0.5e-3, 0.7e-3, 3e-3]])  # u_a = A[a,0] + A[a,1] x + A[a,2] y


def linear_field(points):
    return (A[:, :1] + A[:, 1:] @ points.T).T  # (n, 2)


def exact_stress(D):
    return D @ np.array([A[0, 1], A[1, 2], A[0, 2] + A[1, 1]])


def boundary_nodes(mesh):
    return np.unique(np.concatenate([mesh.group_nodes(g) for g in ("BOTTOM", "RIGHT", "TOP", "LEFT")]))


def distorted(element, curved=False, seed=3):
    """A 4 x 3 mesh of [0, 2] x [0, 1.5] with its interior corner nodes moved by up to 0.3 h."""
    mesh = rectangle(2.0, 1.5, 4, 3, element)
    pts = mesh.points.copy()
    cells = mesh.group("BODY").nodes
    interior = np.setdiff1d(np.unique(cells[:, :4]), boundary_nodes(mesh))
    pts[interior] += np.random.default_rng(seed).uniform(-0.15, 0.15, (len(interior), 2))
    nc = CORNERS_PER_CELL[element]
    if cells.shape[1] > nc:  # quadratic: mid-side nodes nc + k on the corner edges (k, k + 1)
        for k in range(nc):  # straight edges: mid-side nodes back at the midpoints of their corners
            pts[cells[:, nc + k]] = 0.5 * (pts[cells[:, k]] + pts[cells[:, (k + 1) % nc]])
        if curved:  # bend every interior edge: move its mid node across it by 10 % (triangles 5 %) of its length
            bend = 0.05 if element.startswith("tri") else 0.1
            mids = np.setdiff1d(np.unique(cells[:, nc : 2 * nc]), boundary_nodes(mesh))
            for k in range(nc):
                a, b, m = pts[cells[:, k]], pts[cells[:, (k + 1) % nc]], cells[:, nc + k]
                inner = np.isin(m, mids)
                normal = (b - a)[:, ::-1] * [1.0, -1.0]
                pts[m[inner]] = 0.5 * (a + b)[inner] + bend * normal[inner]
        if element == "quad9":  # the centre off the cell's middle, by 5 % of h
            pts[cells[:, 8]] = pts[cells[:, :4]].mean(axis=1) + 0.05 * np.array([0.5, 0.375])
    return Mesh(pts, mesh.groups, f"distorted {element}")


CASES = [
    ("quad4", False, "plane_strain"),
    ("quad4", False, "plane_stress"),
    ("quad8", False, "plane_strain"),
    ("quad8", False, "plane_stress"),
    ("quad8", True, "plane_strain"),
    ("quad8", True, "plane_stress"),
    ("quad9", False, "plane_strain"),
    ("quad9", True, "plane_stress"),
    ("tri3", False, "plane_strain"),
    ("tri3", False, "plane_stress"),
    ("tri6", False, "plane_strain"),
    ("tri6", True, "plane_stress"),
]


@pytest.mark.parametrize(("element", "curved", "hypothesis"), CASES)
def test_displacement_patch_test(element, curved, hypothesis):
    mesh = distorted(element, curved)
    body = mesh.group("BODY")
    D = elasticity_matrix(2.1e11, 0.3, hypothesis)
    n = 2 * mesh.n_nodes
    K = assemble_matrix(stiffness_matrices(mesh.points, body, D, group="BODY"), node_dofs(body.nodes), n)
    exact = linear_field(mesh.points).ravel()
    fixed = node_dofs(boundary_nodes(mesh)[:, None]).ravel()
    free = np.setdiff1d(np.arange(n), fixed)
    assert len(free) >= 12  # there really are interior dofs to solve for
    u = exact.copy()
    u[free] = spla.spsolve(K[free][:, free].tocsc(), -K[free][:, fixed] @ exact[fixed])
    assert np.abs(u[free] - exact[free]).max() < 1e-10 * np.abs(exact).max()
    sigma = exact_stress(D)
    scale = np.abs(sigma).max()
    assert np.abs(gauss_stresses(mesh.points, body, u, D) - sigma).max() < 1e-9 * scale
    nodal = nodal_stresses(mesh.points, body, u, D)
    assert np.abs(nodal[np.unique(body.nodes)] - sigma).max() < 1e-9 * scale


@pytest.mark.parametrize("element", ["quad4", "quad8", "quad9", "tri3", "tri6"])
def test_traction_patch_test(element):
    """Loads from sigma . n on the four sides; three dofs fixed against rigid motion."""
    mesh = distorted(element, curved=(element in ("quad8", "quad9", "tri6")))
    body = mesh.group("BODY")
    D = elasticity_matrix(1e9, 0.25, "plane_stress")
    sxx, syy, sxy = exact_stress(D)
    stress = np.array([[sxx, sxy], [sxy, syy]])
    n = 2 * mesh.n_nodes
    f = sum(
        traction_load(mesh, side, stress @ normal)
        for side, normal in (("BOTTOM", (0, -1)), ("RIGHT", (1, 0)), ("TOP", (0, 1)), ("LEFT", (-1, 0)))
    )
    np.testing.assert_allclose(f.reshape(-1, 2).sum(axis=0), 0.0, atol=1e-9 * np.abs(f).max())
    K = assemble_matrix(stiffness_matrices(mesh.points, body, D), node_dofs(body.nodes), n)
    exact = linear_field(mesh.points).ravel()
    fixed = np.array([2 * mesh.node("SW"), 2 * mesh.node("SW") + 1, 2 * mesh.node("SE") + 1])
    free = np.setdiff1d(np.arange(n), fixed)
    u = exact.copy()
    u[free] = spla.spsolve(K[free][:, free].tocsc(), f[free] - K[free][:, fixed] @ exact[fixed])
    assert np.abs(u - exact).max() < 1e-9 * np.abs(exact).max()
