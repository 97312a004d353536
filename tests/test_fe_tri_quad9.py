"""TRI3, TRI6 and QUAD9: shape functions, triangle Gauss rules, masses and areas."""

from math import factorial

import numpy as np
import pytest

from fem2d.errors import InputError
from fem2d.fe import lumped_masses, reference_element, scalar_mass_matrices
from fem2d.fe.quadrature import triangle_rule
from fem2d.mesh import rectangle

NEW = ["tri3", "tri6", "quad9"]


def _inside(kind, n=7, seed=1):
    u = np.random.default_rng(seed).uniform(0.02, 0.98, (n, 2))
    if kind.startswith("tri"):
        u[:, 1] *= 1.0 - u[:, 0]
        return u
    return 2.0 * u - 1.0


@pytest.mark.parametrize("kind", NEW)
def test_interpolation_partition_of_unity_and_linear_completeness(kind):
    element = reference_element(kind)
    np.testing.assert_allclose(element.shape(element.nodes), np.eye(element.n_nodes), atol=1e-15)
    xi = _inside(kind)
    N = element.shape(xi)
    np.testing.assert_allclose(N.sum(axis=1), 1.0, rtol=1e-14)
    np.testing.assert_allclose(N @ element.nodes, xi, atol=1e-14)  # x = sum N_i x_i reproduces x
    np.testing.assert_allclose(element.grad(xi).sum(axis=1), 0.0, atol=1e-13)


@pytest.mark.parametrize("kind", NEW)
def test_derivatives_against_central_differences(kind):
    element = reference_element(kind)
    xi, h = _inside(kind), 1e-6
    for b in range(2):
        step = np.zeros(2)
        step[b] = h
        fd = (element.shape(xi + step) - element.shape(xi - step)) / (2 * h)
        np.testing.assert_allclose(element.grad(xi)[:, :, b], fd, atol=1e-8)


@pytest.mark.parametrize("degree", range(1, 11))
def test_triangle_rules_integrate_their_degree_exactly(degree):
    """int_T xi^i eta^j = i! j! / (i + j + 2)! for every i + j <= degree; positive interior points."""
    rule = triangle_rule(degree)
    assert (rule.weights > 0).all() and (rule.points > 0).all() and (rule.points.sum(axis=1) < 1).all()
    for i in range(degree + 1):
        for j in range(degree + 1 - i):
            exact = factorial(i) * factorial(j) / factorial(i + j + 2)
            assert rule.weights @ (rule.points[:, 0] ** i * rule.points[:, 1] ** j) == pytest.approx(exact, 1e-13)
    if degree in (2, 4, 5):  # the symmetric rule is not exact one degree higher: the degree is what it says
        i = degree + 1
        assert abs(rule.weights @ rule.points[:, 0] ** i - factorial(i) / factorial(i + 2)) > 1e-8


@pytest.mark.parametrize("kind", NEW)
def test_consistent_and_lumped_masses_carry_the_area_times_density(kind):
    """On a distorted mesh of [0, 2] x [0, 1.5] (area 3) the consistent mass sums to
    rho t A per direction and integrates x^2 exactly (quadratic elements); every
    lumping keeps the total and gives positive nodal masses."""
    mesh = rectangle(2.0, 1.5, 4, 3, kind)
    body = mesh.group("BODY")
    pts = mesh.points.copy()
    rng = np.random.default_rng(5)
    interior = np.flatnonzero((pts[:, 0] > 0) & (pts[:, 0] < 2) & (pts[:, 1] > 0) & (pts[:, 1] < 1.5))
    corners = np.intersect1d(np.unique(body.corners), interior)
    pts[corners] += rng.uniform(-0.1, 0.1, (len(corners), 2))
    nc = body.corners.shape[1]
    if body.nodes.shape[1] > nc:  # straight edges: mid-side nodes at the midpoints
        for k in range(nc):
            pts[body.nodes[:, nc + k]] = 0.5 * (pts[body.nodes[:, k]] + pts[body.nodes[:, (k + 1) % nc]])
        if kind == "quad9":
            pts[body.nodes[:, 8]] = pts[body.nodes[:, :4]].mean(axis=1)
    rho, t = 7800.0, 0.02
    m = scalar_mass_matrices(pts, body, rho, t)
    assert m.sum() == pytest.approx(rho * t * 3.0, rel=1e-13)
    np.testing.assert_allclose(m, m.transpose(0, 2, 1), rtol=1e-14)
    if kind != "tri3":  # x and y are in the span: u^T M u = rho t int x^2 exactly
        xe = pts[body.nodes][:, :, 0]
        assert np.einsum("ci,cij,cj->", xe, m, xe) == pytest.approx(rho * t * 1.5 * 8.0 / 3.0, rel=1e-12)
    for lumping in ("lumped", "hrz") + (("row_sum",) if kind != "tri6" else ()):
        d = lumped_masses(pts, body, rho, t, lumping)
        assert (d > 0).all()
        np.testing.assert_allclose(d.sum(axis=1), m.sum(axis=(1, 2)), rtol=1e-13)


def test_tri6_lumping_fractions_and_row_sum_refused():
    """HRZ on a straight TRI6: 3/57 of the mass at a corner, 16/57 at a mid-side node;
    row-sum would give the corners nothing."""
    xy = np.array([[0.0, 0.0], [3.0, 0.5], [1.0, 2.0]])
    xy = np.vstack([xy, 0.5 * (xy + np.roll(xy, -1, axis=0))])
    from fem2d.mesh.mesh import CellBlock

    cell = CellBlock("tri6", np.arange(6)[None])
    (ax, ay), (bx, by) = xy[1] - xy[0], xy[2] - xy[0]
    mass = 2.0 * 0.5 * abs(ax * by - ay * bx)
    np.testing.assert_allclose(lumped_masses(xy, cell, 2.0)[0], mass * np.array([3, 3, 3, 16, 16, 16]) / 57)
    assert scalar_mass_matrices(xy, cell, 2.0).sum(axis=2)[0, :3] == pytest.approx(0.0, abs=1e-14)
    with pytest.raises(InputError, match="row-sum lumping gives zero corner masses for tri6"):
        lumped_masses(xy, cell, 2.0, lumping="row_sum")


def test_quad9_row_sum_is_simpson_on_a_rectangle():
    mesh = rectangle(2.0, 1.0, 1, 1, "quad9")
    d = lumped_masses(mesh.points, mesh.group("BODY"), 36.0)[0]  # mass 72
    np.testing.assert_allclose(d, 2.0 * np.array([1, 1, 1, 1, 4, 4, 4, 4, 16]), rtol=1e-10)  # Gmsh's 1e-12 nodes
    np.testing.assert_allclose(lumped_masses(mesh.points, mesh.group("BODY"), 36.0, lumping="hrz")[0], d, rtol=1e-10)
