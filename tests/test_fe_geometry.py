"""Cell and edge geometry, degenerate cells, outward orientation of edges."""

import numpy as np
import pytest

from fem2d.errors import MeshError
from fem2d.fe import cell_geometry, edge_geometry, edge_orientation, gauss_rule, outward_normals
from fem2d.mesh import CellBlock, Mesh, rectangle, sliding_block


def _quad(points, kind="quad4"):
    pts = np.asarray(points, dtype=float)
    if kind == "quad8":  # straight edges: mid-side nodes at the edge midpoints
        pts = np.vstack([pts, 0.5 * (pts + np.roll(pts, -1, axis=0))])
    return pts, CellBlock(kind, np.arange(len(pts))[None])


@pytest.mark.parametrize("kind", ["quad4", "quad8"])
def test_area_and_gradients_of_a_distorted_quad(kind):
    pts, block = _quad([[0.0, 0.0], [2.0, 0.3], [1.7, 1.9], [-0.2, 1.1]], kind)
    geo = cell_geometry(pts, block)
    c = pts[:4]
    shoelace = 0.5 * np.sum(c[:, 0] * np.roll(c[:, 1], -1) - np.roll(c[:, 0], -1) * c[:, 1])
    assert abs(geo.dx.sum() - shoelace) < 1e-13 * shoelace
    # gradients of the coordinate fields are the identity: sum_j x_j dN_j/dx = I
    np.testing.assert_allclose(
        np.einsum("ja,cqjb->cqab", pts, geo.grad), np.broadcast_to(np.eye(2), (1, geo.dx.shape[1], 2, 2)), atol=1e-13
    )
    # the quadrature points are inside the quad and their mean weighted by dx is the centroid
    cx = np.einsum("cq,cqa->a", geo.dx, geo.x) / geo.dx.sum()
    x, y, xn, yn = c[:, 0], c[:, 1], np.roll(c[:, 0], -1), np.roll(c[:, 1], -1)
    cross = x * yn - xn * y
    centroid = np.array([np.sum((x + xn) * cross), np.sum((y + yn) * cross)]) / (6 * shoelace)
    np.testing.assert_allclose(cx, centroid, atol=1e-13)


def test_curved_quad8_area():
    # a quarter annulus between radii 1 and 2 with mid-side nodes on the arcs. The edges are
    # parabolic arcs: each arc adds (2/3) chord x sagitta = (2/3) R^2 (sqrt(2) - 1) to the
    # triangle R^2 / 2, so the area is (2^2 - 1^2) (1/2 + (2/3)(sqrt(2) - 1)) (exact with 3x3 Gauss)
    r = np.array([1.0, 2.0, 2.0, 1.0])
    t = np.array([0.0, 0.0, np.pi / 2, np.pi / 2])
    corners = np.column_stack([r * np.cos(t), r * np.sin(t)])
    mids = np.array(
        [[1.5, 0.0], [2 * np.cos(np.pi / 4), 2 * np.sin(np.pi / 4)], [0.0, 1.5], [np.cos(np.pi / 4), np.sin(np.pi / 4)]]
    )
    pts = np.vstack([corners, mids])
    area = cell_geometry(pts, CellBlock("quad8", np.arange(8)[None])).dx.sum()
    assert abs(area - 3 * (0.5 + (2 / 3) * (np.sqrt(2) - 1))) < 1e-13


@pytest.mark.parametrize(("kind", "flip"), [("quad4", [0, 3, 2, 1]), ("quad8", [0, 3, 2, 1, 7, 6, 5, 4])])
def test_flipped_cell_is_named(kind, flip):
    mesh = rectangle(3.0, 2.0, 3, 2, kind)
    nodes = mesh.group("BODY").nodes.copy()
    nodes[4] = nodes[4][flip]
    with pytest.raises(MeshError, match=r"group 'BODY': 1 inverted .* cell ids \[4\]"):
        cell_geometry(mesh.points, CellBlock(kind, nodes), group="BODY")


def test_crossed_cell_is_named_and_list_is_capped():
    # a bow-tie: swapping two corners crosses the edges, det J changes sign inside
    pts, block = _quad([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    with pytest.raises(MeshError, match=r"cell ids \[0\]"):
        cell_geometry(pts, block)
    many = CellBlock("quad4", np.tile(block.nodes, (12, 1)))
    with pytest.raises(MeshError, match=r"12 inverted .*\[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, \.\.\. \(12 in all\)\]"):
        cell_geometry(pts, many)


def test_zero_length_edge_is_named():
    pts = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 0.0]])
    block = CellBlock("seg2", [[0, 1], [1, 2]])
    with pytest.raises(MeshError, match=r"group 'LESC': 1 zero-length seg2 edge.*edge ids \[1\]"):
        edge_geometry(pts, block, group="LESC")


def test_edge_length_seg3():
    pts = np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 0.5]])  # a parabolic arc
    geo = edge_geometry(pts, CellBlock("seg3", [[0, 1, 2]]))
    # x = 1 + xi, y = (1 - xi^2)/2: ds = sqrt(1 + xi^2) dxi, length = sqrt(2) + asinh(1)
    assert abs(geo.ds.sum() - (np.sqrt(2) + np.arcsinh(1.0))) < 2e-3
    fine = edge_geometry(pts, CellBlock("seg3", [[0, 1, 2]]), rule=gauss_rule("seg3", 20))
    assert abs(fine.ds.sum() - (np.sqrt(2) + np.arcsinh(1.0))) < 1e-12


@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_outward_normals_of_the_sliding_block(element):
    mesh = sliding_block(element, 0)
    expected = {"FSUP": (0, 1), "FLAT": (-1, 0), "LESC": (0, -1), "LMAI": (0, 1)}
    for group, n in expected.items():
        s = edge_orientation(mesh, group)
        normals = outward_normals(mesh.points, mesh.group(group), s)
        np.testing.assert_allclose(normals, np.broadcast_to(n, normals.shape), atol=1e-15)


def test_orientation_ignores_edge_node_order_and_cell_orientation():
    mesh = sliding_block("quad8", 0)
    fsup = mesh.group("FSUP").nodes
    reversed_edges = fsup[:, [1, 0, 2]]
    patin = mesh.group("PATIN").nodes
    clockwise = patin[:, [0, 3, 2, 1, 7, 6, 5, 4]]
    groups = dict(
        mesh.groups, FSUP=CellBlock("seg3", np.vstack([fsup, reversed_edges])), PATIN=CellBlock("quad8", clockwise)
    )
    flipped = Mesh(mesh.points, groups, "flipped")
    s = edge_orientation(flipped, "FSUP", ["PATIN"])
    normals = outward_normals(flipped.points, flipped.group("FSUP"), s)
    np.testing.assert_allclose(normals, np.broadcast_to((0.0, 1.0), normals.shape), atol=1e-15)
    assert (s[:5] == -s[5:]).all()
    # a cell listed in two overlapping groups is still one neighbour
    overlapping = Mesh(mesh.points, dict(mesh.groups, ALL=mesh.group("PATIN")), "overlapping")
    np.testing.assert_array_equal(edge_orientation(overlapping, "FSUP"), edge_orientation(mesh, "FSUP"))


def test_edge_without_cell_or_interior_edge_is_an_error():
    mesh = rectangle(2.0, 1.0, 2, 1, "quad4")
    body = mesh.group("BODY").nodes
    shared = np.intersect1d(body[0], body[1])
    stray = CellBlock("seg2", [[mesh.node("SW"), mesh.node("NE")]])  # a diagonal: bounds no cell
    bad = Mesh(mesh.points, dict(mesh.groups, STRAY=stray, MID=CellBlock("seg2", [shared])), "bad")
    with pytest.raises(MeshError, match=r"group 'STRAY': 1 edge\(s\) bound no cell .*edge ids \[0\]"):
        edge_orientation(bad, "STRAY")
    with pytest.raises(MeshError, match=r"group 'MID': 1 edge\(s\) are shared by two cells"):
        edge_orientation(bad, "MID")
