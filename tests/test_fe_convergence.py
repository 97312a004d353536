"""Convergence of TRI3, TRI6, QUAD4, QUAD8 and QUAD9 on a manufactured plane-strain solution.

Exact field on the unit square (smooth, not polynomial)::

    u_x = sin(pi x) sin(pi y),      u_y = exp(x) sin(pi y)

with the body force ``b = -div sigma = -(lambda + mu) grad(div u) - mu lap(u)``
worked out by hand below, and the exact displacement imposed on the whole
boundary. The log-log slope of the error against h over four meshes must be
the theoretical rate: L2 ~ h^(p+1), H1 seminorm ~ h^p for degree p.
"""

import numpy as np
import pytest
import scipy.sparse.linalg as spla

from fem2d.fe import (
    assemble_matrix,
    assemble_vector,
    body_force_vectors,
    elasticity_matrix,
    error_norms,
    node_dofs,
    stiffness_matrices,
)
from fem2d.mesh import rectangle

E, NU = 1.0, 0.3
LAM = E * NU / ((1 + NU) * (1 - 2 * NU))
MU = E / (2 * (1 + NU))
PI = np.pi


def exact(x, y):
    return np.sin(PI * x) * np.sin(PI * y), np.exp(x) * np.sin(PI * y)


def exact_gradient(x, y):
    sx, cx, sy, cy, ex = np.sin(PI * x), np.cos(PI * x), np.sin(PI * y), np.cos(PI * y), np.exp(x)
    return (PI * cx * sy, PI * sx * cy), (ex * sy, PI * ex * cy)


def body_force(x, y):
    sx, cx, sy, cy, ex = np.sin(PI * x), np.cos(PI * x), np.sin(PI * y), np.cos(PI * y), np.exp(x)
    grad_div = (-(PI**2) * sx * sy + PI * ex * cy, PI**2 * cx * cy - PI**2 * ex * sy)
    laplacian = (-2 * PI**2 * sx * sy, (1 - PI**2) * ex * sy)
    return tuple(-(LAM + MU) * g - MU * lap for g, lap in zip(grad_div, laplacian, strict=True))


def solve(element, n):
    return solve_on(rectangle(1.0, 1.0, n, n, element))


def solve_on(mesh):
    """(L2, H1) errors on a mesh of the unit square with groups BODY, BOTTOM, RIGHT, TOP, LEFT."""
    body = mesh.group("BODY")
    D = elasticity_matrix(E, NU, "plane_strain")
    dofs, n_dofs = node_dofs(body.nodes), 2 * mesh.n_nodes
    K = assemble_matrix(stiffness_matrices(mesh.points, body, D), dofs, n_dofs)
    f = assemble_vector(body_force_vectors(mesh.points, body, body_force), dofs, n_dofs)
    boundary = np.unique(np.concatenate([mesh.group_nodes(g) for g in ("BOTTOM", "RIGHT", "TOP", "LEFT")]))
    fixed = node_dofs(boundary[:, None]).ravel()
    free = np.setdiff1d(np.arange(n_dofs), fixed)
    u = np.zeros(n_dofs)
    u[fixed] = np.column_stack(exact(*mesh.points[boundary].T)).ravel()
    u[free] = spla.spsolve(K[free][:, free].tocsc(), f[free] - K[free][:, fixed] @ u[fixed])
    return error_norms(mesh.points, body, u, exact, exact_gradient)


def test_body_force_is_minus_div_sigma():
    """The hand-derived body force against central differences of the exact stress."""
    D = elasticity_matrix(E, NU, "plane_strain")

    def stress(x, y):
        (uxx, uxy), (uyx, uyy) = exact_gradient(x, y)
        return D @ np.array([uxx, uyy, uxy + uyx])

    h = 1e-5
    for x, y in [(0.3, 0.7), (0.81, 0.12)]:
        dsx = (stress(x + h, y) - stress(x - h, y)) / (2 * h)
        dsy = (stress(x, y + h) - stress(x, y - h)) / (2 * h)
        div = np.array([dsx[0] + dsy[2], dsx[2] + dsy[1]])
        np.testing.assert_allclose(body_force(x, y), -div, rtol=1e-7)


@pytest.mark.parametrize(
    ("element", "sizes", "l2_rate", "h1_rate"),
    [
        ("quad4", (4, 8, 16, 32), 2, 1),
        ("quad8", (4, 8, 16, 32), 3, 2),
        ("quad9", (4, 8, 16, 32), 3, 2),
        ("tri3", (4, 8, 16, 32), 2, 1),
        ("tri6", (4, 8, 16, 32), 3, 2),
    ],
)
def test_convergence_rates(element, sizes, l2_rate, h1_rate):
    errors = np.array([solve(element, n) for n in sizes])
    h = 1.0 / np.array(sizes)
    l2_slope = np.polyfit(np.log(h), np.log(errors[:, 0]), 1)[0]
    h1_slope = np.polyfit(np.log(h), np.log(errors[:, 1]), 1)[0]
    assert abs(l2_slope - l2_rate) < 0.1, (l2_slope, errors)
    assert abs(h1_slope - h1_rate) < 0.1, (h1_slope, errors)
    assert (np.diff(errors, axis=0) < 0).all()  # every refinement helps
