"""Contact search: node-to-segment projection, orientation, outside flag, large sliding, linearisation."""

import numpy as np
import pytest

from fem2d.contact.kinematics import gauss_kinematics, node_kinematics, slave_weights
from fem2d.contact.problem import CondensedProblem, make_zone
from fem2d.contact.search import project
from fem2d.contact.surface import master_surface, orient_edges, orient_on_mesh
from fem2d.fe.elements import line_shape
from fem2d.mesh.mesh import CellBlock, Mesh


def zone_on_line(slave_x, slave_y, master_x, kind="seg2", reverse=False, slave_kind="seg2"):
    """Slave nodes (a chain of SEG2/SEG3 edges) above a master chain along y = 0.

    Master edges run right to left (counter-clockwise around a body below)
    unless ``reverse``.
    """
    slave = np.stack([slave_x, np.broadcast_to(slave_y, np.shape(slave_x))], axis=1)
    step = 2 if slave_kind == "seg3" else 1
    n_s = len(slave)
    s_edges = [[i, i + step, i + 1] if step == 2 else [i, i + 1] for i in range(0, n_s - 1, step)]
    mx = np.asarray(master_x, dtype=float)
    master = np.stack([mx, np.zeros_like(mx)], axis=1)
    n_m = len(master)
    if kind == "seg2":
        m_edges = [[n_s + i + 1, n_s + i] for i in range(n_m - 1)]
    else:
        m_edges = [[n_s + i + 2, n_s + i, n_s + i + 1] for i in range(0, n_m - 1, 2)]
    if reverse:
        m_edges = [[e[1], e[0], *e[2:]] for e in m_edges]
    points = np.vstack([slave, master])
    return make_zone(points, CellBlock(slave_kind, np.array(s_edges)), CellBlock(kind, np.array(m_edges)), mu=0.3)


def test_seg2_projection_gap_normal_weights():
    zone = zone_on_line(np.array([0.25, 1.5]), 0.1, [0.0, 1.0, 2.0])
    surface = master_surface(zone)
    proj = project(surface, zone.reference, zone.reference[:2])
    np.testing.assert_allclose(proj.gap, [0.1, 0.1])
    np.testing.assert_allclose(proj.normal, [[0, 1], [0, 1]], atol=1e-15)
    np.testing.assert_allclose(proj.tangent, [[1, 0], [1, 0]], atol=1e-15)
    assert not proj.outside.any()
    # weights interpolate the foot of the perpendicular
    foot = np.einsum("pa,paj->pj", proj.weights, zone.reference[proj.master_nodes])
    np.testing.assert_allclose(foot, [[0.25, 0.0], [1.5, 0.0]], atol=1e-15)
    # penetration is negative
    below = project(surface, zone.reference, np.array([[0.5, -0.02]]))
    assert below.gap[0] == pytest.approx(-0.02)


@pytest.mark.parametrize("reverse", [False, True])
def test_orientation_from_the_side_the_slave_starts_on(reverse):
    # slave nodes 0.3 above the master: whatever the edge direction, n points to them
    zone = zone_on_line(np.array([0.2, 0.4]), 0.3, [0.0, 1.0], reverse=reverse)
    proj = project(master_surface(zone), zone.reference, zone.reference[:2])
    np.testing.assert_allclose(proj.normal, [[0, 1], [0, 1]], atol=1e-15)
    assert np.all(proj.gap > 0)


def test_orientation_from_the_master_body():
    # a unit square body below y = 0; its top edge given left-to-right (clockwise)
    points = np.array([[0.0, -1.0], [1.0, -1.0], [1.0, 0.0], [0.0, 0.0]])
    body = CellBlock("quad4", np.array([[0, 1, 2, 3]]))
    top = CellBlock("seg2", np.array([[3, 2]]))
    oriented = orient_edges(points, top, body)
    np.testing.assert_array_equal(oriented.nodes, [[2, 3]])
    # a body above the line: the same edge is kept reversed the other way
    above = CellBlock("quad4", np.array([[3, 2, 1, 0]]))
    np.testing.assert_array_equal(orient_edges(points * [1, -1], top, above).nodes, [[3, 2]])


def test_orientation_found_in_the_mesh():
    # two quads below y = 0 (QUAD8 corners first), their top edges given in both directions
    points = np.array([[0, -1], [1, -1], [2, -1], [2, 0], [1, 0], [0, 0]], dtype=float)
    cells = CellBlock("quad4", np.array([[0, 1, 4, 5], [1, 2, 3, 4]]))
    top = CellBlock("seg2", np.array([[5, 4], [3, 4]]))
    mesh = Mesh(points, {"BODY": cells, "TOP": top})
    oriented = orient_on_mesh(mesh, top)
    np.testing.assert_array_equal(oriented.nodes, [[4, 5], [3, 4]])  # right to left: body on the left


def test_inconsistent_chain_is_made_consistent():
    zone = zone_on_line(np.array([0.5, 1.5, 2.5]), 0.0, [0.0, 1.0, 2.0, 3.0])
    # flip the middle master edge: the chain keeps the majority direction
    nodes = zone.master_edges.nodes.copy()
    nodes[1] = nodes[1][::-1]
    zone2 = make_zone(np.vstack([zone.reference]), zone.slave_edges, CellBlock("seg2", nodes), mu=0.3)
    proj = project(master_surface(zone2), zone2.reference, zone2.reference[:3] + [0, 0.1])
    np.testing.assert_allclose(proj.normal[:, 1], 1.0)
    np.testing.assert_allclose(proj.gap, 0.1)


def test_outside_points_are_flagged_not_projected():
    zone = zone_on_line(np.array([-0.5, 0.5, 2.5]), 0.1, [0.0, 1.0, 2.0])
    proj = project(master_surface(zone), zone.reference, zone.reference[:3])
    np.testing.assert_array_equal(proj.outside, [True, False, True])
    assert np.isinf(proj.gap[0]) and np.isinf(proj.gap[2])
    assert np.all(proj.weights[proj.outside] == 0.0)
    assert np.all(proj.segment[proj.outside] == -1)


def test_large_sliding_pairs_across_segments_like_brute_force():
    rng = np.random.default_rng(0)
    # a master of very unequal segments: one long one among short ones
    mx = np.concatenate([np.linspace(0.0, 1.0, 41), [9.0], np.linspace(9.05, 10.0, 20)])
    zone = zone_on_line(np.array([0.0, 1.0]), 0.0, mx)
    surface = master_surface(zone)
    pts = np.stack([rng.uniform(-0.5, 10.5, 400), rng.uniform(-0.2, 0.5, 400)], axis=1)
    proj = project(surface, zone.reference, pts)
    # brute force: every segment, closest inside point
    a = zone.reference[surface.nodes[:, 0]]
    b = zone.reference[surface.nodes[:, 1]]
    ab = b - a
    u = np.einsum("qsj,sj->qs", pts[:, None, :] - a[None], ab) / np.einsum("sj,sj->s", ab, ab)
    inside = (u >= 0) & (u <= 1)
    foot = a[None] + u[..., None] * ab[None]
    dist = np.where(inside, np.linalg.norm(pts[:, None, :] - foot, axis=2), np.inf)
    expect_out = ~np.isfinite(dist.min(axis=1))
    np.testing.assert_array_equal(proj.outside, expect_out)
    ok = ~expect_out
    np.testing.assert_allclose(np.abs(proj.gap[ok]), dist.min(axis=1)[ok], atol=1e-14)
    np.testing.assert_allclose(proj.gap[ok], pts[ok, 1], atol=1e-14)


def test_seg3_curved_master_closest_point():
    # a quadratic arc y = 0.2 (1 - x^2) on x in [-1, 1] through nodes (1,0), (-1,0), (0,0.2)
    points = np.array([[0.3, 0.5], [0.6, 0.5], [1.0, 0.0], [-1.0, 0.0], [0.0, 0.2]])
    zone = make_zone(points, CellBlock("seg2", np.array([[0, 1]])), CellBlock("seg3", np.array([[2, 3, 4]])), 0.3)
    surface = master_surface(zone, orientation="left")
    q = np.array([[0.3, 0.5], [-0.7, 0.2], [0.2, 0.1]])
    proj = project(surface, zone.reference, q)
    xs = zone.reference[surface.nodes[0]]
    xi_fine = np.linspace(-1, 1, 200001)
    curve = line_shape("seg3", xi_fine) @ xs
    d = np.linalg.norm(q[:, None, :] - curve[None], axis=2)
    np.testing.assert_allclose(np.abs(proj.gap), d.min(axis=1), atol=1e-9)
    # the body is below the arc: points above have a positive gap, the one under it a negative one
    assert proj.gap[0] > 0 and proj.gap[1] > 0 and proj.gap[2] < 0
    # the normal is orthogonal to the curve at the foot and along q - foot
    foot = np.einsum("pa,aj->pj", proj.weights, xs)
    np.testing.assert_allclose(foot + proj.gap[:, None] * proj.normal, q, atol=1e-12)


@pytest.mark.parametrize("kind", ["seg2", "seg3"])
def test_gap_and_slip_rows_are_the_derivatives(kind):
    rng = np.random.default_rng(1)
    mx = np.linspace(-1.0, 3.0, 5 if kind == "seg2" else 9)
    zone = zone_on_line(np.array([0.1, 0.7, 1.3]), 0.0, mx, kind=kind)
    n_b = zone.n_boundary
    d_start = 1e-3 * rng.standard_normal((n_b, 2))
    d = d_start + 1e-3 * rng.standard_normal((n_b, 2))
    problem = CondensedProblem(zone, d_start, d, np.zeros((2 * n_b, 2 * n_b)), 0.01)
    surface = master_surface(zone)
    kin = node_kinematics(problem, surface, d)
    B = kin.B.toarray()
    eps = 1e-7
    for k in range(2 * n_b):
        dd = d.copy().ravel()
        dd[k] += eps
        kin2 = node_kinematics(problem, surface, dd.reshape(-1, 2))
        fd = (np.concatenate([kin2.gap, kin2.slip]) - np.concatenate([kin.gap, kin.slip])) / eps
        # the normal row is exact at the closest point; the slip row up to the rotation of t (second order here)
        np.testing.assert_allclose(fd[:3], B[:3, k], atol=1e-5)
        np.testing.assert_allclose(fd[3:], B[3:, k], atol=1e-2)


def test_nodal_weights_seg2_and_seg3():
    zone = zone_on_line(np.array([0.0, 0.2, 0.6, 1.0]), 0.0, [-1.0, 2.0])
    np.testing.assert_allclose(slave_weights(zone), [0.1, 0.3, 0.4, 0.2])
    zone3 = zone_on_line(np.array([0.0, 0.3, 0.6]), 0.0, [-1.0, 2.0], slave_kind="seg3")
    # SEG3 edge (0, 0.6, middle 0.3): L/6 at the ends, 2L/3 in the middle
    np.testing.assert_allclose(slave_weights(zone3), [0.1, 0.4, 0.1])


def test_gauss_rows_hold_the_consistent_surface_matrix():
    zone = zone_on_line(np.array([0.0, 0.2, 0.6, 1.0]), 0.0, [-1.0, 2.0])
    n_b = zone.n_boundary
    zero = np.zeros((n_b, 2))
    problem = CondensedProblem(zone, zero, zero, np.zeros((2 * n_b, 2 * n_b)), 0.01)
    kin = gauss_kinematics(problem, master_surface(zone), zero, 2)
    B = kin.B.toarray()
    lengths = np.array([0.2, 0.4, 0.4])
    mass = np.zeros((4, 4))
    for e, h in enumerate(lengths):
        mass[e : e + 2, e : e + 2] += h / 6.0 * np.array([[2.0, 1.0], [1.0, 2.0]])
    # normal rows, y dofs of the slave nodes: M_jk n_y with n = +y
    np.testing.assert_allclose(B[:4, 1 : 2 * 4 : 2], mass, atol=1e-15)
    np.testing.assert_allclose(kin.weight, mass.sum(axis=1))
