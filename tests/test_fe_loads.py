"""Edge pressure and traction, body force, point forces."""

import numpy as np
import pytest

from fem2d.errors import InputError
from fem2d.fe import (
    body_force_load,
    point_force_load,
    pressure_load,
    pressure_vectors,
    traction_load,
    traction_vectors,
)
from fem2d.mesh import CellBlock, Mesh, sliding_block


@pytest.mark.parametrize("element", ["quad4", "quad8"])
@pytest.mark.parametrize("refine", [0, 1])
def test_sliding_block_pressure_totals(element, refine):
    mesh = sliding_block(element, refine)
    fsup = pressure_load(mesh, "FSUP", 7e4).reshape(-1, 2)
    flat = pressure_load(mesh, "FLAT", 2e5).reshape(-1, 2)
    np.testing.assert_allclose(fsup.sum(axis=0), [0.0, -7e4], rtol=0, atol=1e-12 * 7e4)
    np.testing.assert_allclose(flat.sum(axis=0), [2e5, 0.0], rtol=0, atol=1e-12 * 2e5)
    # only the loaded nodes carry force
    others = np.setdiff1d(np.arange(mesh.n_nodes), mesh.group_nodes("FSUP"))
    assert np.abs(fsup[others]).max() == 0.0


def test_seg3_consistent_distribution_is_one_sixth_two_thirds():
    # one SEG3 edge of length 2 at the top of a QUAD8, nodes listed clockwise (reversed) on purpose
    pts = np.array([[0, 0], [2, 0], [2, 1], [0, 1], [1, 0], [2, 0.5], [1, 1], [0, 0.5]], dtype=float)
    mesh = Mesh(pts, {"B": CellBlock("quad8", np.arange(8)[None]), "TOP": CellBlock("seg3", [[3, 2, 6]])})
    f = pressure_load(mesh, "TOP", 3.0).reshape(-1, 2)
    np.testing.assert_allclose(f[[3, 2, 6], 1], -3.0 * 2.0 * np.array([1 / 6, 1 / 6, 2 / 3]), rtol=1e-14)
    np.testing.assert_allclose(f[:, 0], 0.0, atol=1e-15)


def test_seg2_halves_and_linear_pressure():
    pts = np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 1.0], [0.0, 1.0]])
    mesh = Mesh(pts, {"B": CellBlock("quad4", [[0, 1, 2, 3]]), "BOT": CellBlock("seg2", [[0, 1]])})
    f = pressure_load(mesh, "BOT", 5.0).reshape(-1, 2)
    np.testing.assert_allclose(f[[0, 1], 1], [10.0, 10.0], rtol=1e-14)  # pushes up, into the body
    # p = x on [0, 4]: nodal forces int x N_i = (L^2/6, L^2/3) = (8/3, 16/3)
    f = pressure_load(mesh, "BOT", lambda x, y: x).reshape(-1, 2)
    np.testing.assert_allclose(f[[0, 1], 1], [8 / 3, 16 / 3], rtol=1e-14)


def test_pressure_on_a_curved_seg3_edge_integrates_the_normal():
    # a closed-form check of n ds: uniform pressure on an arc gives -p times the rotated chord
    pts = np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 0.5]])
    block = CellBlock("seg3", [[0, 1, 2]])
    f = pressure_vectors(pts, block, np.array([1.0]), 2.0).reshape(-1, 2)
    np.testing.assert_allclose(f.sum(axis=0), -2.0 * np.array([0.0, -2.0]), atol=1e-14)


def test_traction_body_and_point_forces():
    mesh = sliding_block("quad8", 0)
    t = traction_load(mesh, "LESC", (3.0, -2.0), thickness=0.5).reshape(-1, 2)
    np.testing.assert_allclose(t.sum(axis=0), [1.5, -1.0], rtol=1e-14)
    g = body_force_load(mesh, "PATIN", lambda x, y: (0.0 * x, -7000.0 * 9.81 * np.ones_like(y))).reshape(-1, 2)
    np.testing.assert_allclose(g.sum(axis=0), [0.0, -7000.0 * 9.81], rtol=1e-14, atol=1e-9)
    # moment of a linearly varying traction about the origin: int_0^1 x (x) dx = 1/3 (exact with SEG3)
    tv = traction_vectors(mesh.points, mesh.group("LESC"), lambda x, y: (0 * x, x)).reshape(
        len(mesh.group("LESC")), -1, 2
    )
    moment = np.sum(mesh.points[mesh.group("LESC").nodes][..., 0] * tv[..., 1])
    assert abs(moment - 1 / 3) < 1e-14
    p = point_force_load(mesh.n_nodes, [mesh.node("A"), mesh.node("A")], [1.0, 2.0]).reshape(-1, 2)
    np.testing.assert_allclose(p[mesh.node("A")], [2.0, 4.0])
    assert np.abs(p).sum() == 6.0


def test_bad_load_inputs():
    mesh = sliding_block("quad4", 0)
    with pytest.raises(InputError, match="thickness"):
        pressure_load(mesh, "FSUP", 1.0, thickness=0.0)
    with pytest.raises(InputError, match="two components"):
        traction_load(mesh, "FSUP", (1.0, 2.0, 3.0))
