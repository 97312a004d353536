"""DIS_T discrete elements: 2-node springs, nodal springs and masses."""

import numpy as np
import pytest

from fem2d.errors import InputError, MeshError
from fem2d.fe import (
    assemble_matrix,
    global_spring_matrices,
    node_dofs,
    point_mass_matrices,
    point_spring_matrices,
    spring_matrices,
)
from fem2d.mesh import CellBlock, sliding_block

K = 12e3


def test_axial_spring_along_x():
    pts = np.array([[1.0, 0.0], [1.1, 0.0]])
    k = spring_matrices(pts, CellBlock("seg2", [[0, 1]]), K)[0]
    expected = K * np.array([[1, 0, -1, 0], [0, 0, 0, 0], [-1, 0, 1, 0], [0, 0, 0, 0]])
    np.testing.assert_allclose(k, expected, rtol=0, atol=1e-12 * K)


@pytest.mark.parametrize("angle", [np.pi / 6, 2.0, -2.5])
def test_rotated_spring(angle):
    e = np.array([np.cos(angle), np.sin(angle)])
    pts = np.array([[0.3, -0.2], [0.3, -0.2] + 0.7 * e])
    k = spring_matrices(pts, CellBlock("seg2", [[0, 1]]), K, 500.0)[0]
    n = np.array([-e[1], e[0]])
    # R^T diag(ka, kt) R with R the rotation to the local frame, per node pair
    k2 = K * np.outer(e, e) + 500.0 * np.outer(n, n)
    np.testing.assert_allclose(k, np.block([[k2, -k2], [-k2, k2]]), atol=1e-12 * K)
    # a rigid translation stores no energy; stretching along the axis stores ka, across it kt
    assert np.abs(k @ np.tile([0.4, -1.3], 2)).max() < 1e-12 * K
    assert abs(np.concatenate([0 * e, e]) @ k @ np.concatenate([0 * e, e]) - K) < 1e-9
    assert abs(np.concatenate([0 * n, n]) @ k @ np.concatenate([0 * n, n]) - 500.0) < 1e-9


def test_sliding_block_springs_assemble_to_24e3_in_x():
    mesh = sliding_block("quad4", 0)
    springs = mesh.group("RESLAT")
    Ks = assemble_matrix(
        spring_matrices(mesh.points, springs, K, group="RESLAT"), node_dofs(springs.nodes), 2 * mesh.n_nodes
    )
    ux = np.zeros(2 * mesh.n_nodes)
    ux[0::2] = 1.0
    ux[2 * mesh.node("R1")] = ux[2 * mesh.node("R2")] = 0.0  # block moved by 1 m, anchors fixed
    f = Ks @ ux
    assert abs(f[0::2][mesh.group_nodes("PATIN")].sum() - 24e3) < 1e-9
    assert np.abs(f[1::2]).max() < 1e-9


def test_zero_length_spring_is_refused_but_allowed_in_global_frame():
    pts = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 0.0]])
    block = CellBlock("seg2", [[0, 1], [1, 2]])
    with pytest.raises(MeshError, match=r"group 'RESLAT': 1 zero-length spring.*spring ids \[1\]"):
        spring_matrices(pts, block, K, group="RESLAT")
    kg = global_spring_matrices(block, 3.0, 4.0)
    np.testing.assert_allclose(
        kg[1], np.block([[np.diag([3.0, 4.0]), -np.diag([3.0, 4.0])], [-np.diag([3.0, 4.0]), np.diag([3.0, 4.0])]])
    )


def test_point_springs_and_masses():
    block = CellBlock("point", [[4], [7]])
    ks = point_spring_matrices(block, [1.0, 2.0], 3.0)
    np.testing.assert_allclose(ks, [np.diag([1.0, 3.0]), np.diag([2.0, 3.0])])
    M = assemble_matrix(point_mass_matrices(block, 5.0), node_dofs(block.nodes), 16)
    np.testing.assert_allclose(M.diagonal(), [0] * 8 + [5, 5] + [0] * 4 + [5, 5])
    with pytest.raises(InputError, match=">= 0"):
        point_mass_matrices(block, -1.0)
    with pytest.raises(MeshError, match="point cells"):
        point_mass_matrices(CellBlock("seg2", [[0, 1]]), 1.0)
    with pytest.raises(MeshError, match="seg2"):
        spring_matrices(np.zeros((3, 2)), CellBlock("seg3", [[0, 1, 2]]), 1.0)
