"""Mass matrices: total mass, rigid-translation inertia, positivity of lumped masses."""

import numpy as np
import pytest
import scipy.sparse as sp

from fem2d.errors import InputError
from fem2d.fe import assemble_matrix, lumped_masses, mass_matrices, node_dofs
from fem2d.mesh import CellBlock, sliding_block

RHO = 7000.0


@pytest.mark.parametrize("element", ["quad4", "quad8"])
@pytest.mark.parametrize("lumping", ["consistent", "lumped", "hrz"])
def test_sliding_block_mass_and_rigid_translation(element, lumping):
    mesh = sliding_block(element, 0)
    patin = mesh.group("PATIN")
    n = 2 * mesh.n_nodes
    M = assemble_matrix(mass_matrices(mesh.points, patin, RHO, lumping=lumping), node_dofs(patin.nodes), n)
    for a, accel in enumerate(([1.0, 0.0], [0.0, 1.0])):
        force = M @ np.tile(accel, mesh.n_nodes)
        assert abs(force[a::2].sum() - 7000.0) < 1e-12 * 7000.0  # 1 m^2 x 1 m x 7000 kg/m^3
        assert abs(force[1 - a :: 2].sum()) < 1e-12 * 7000.0
    assert abs((M - M.T).max()) < 1e-12 * abs(M).max()
    if lumping != "consistent":
        diag = M.diagonal()[node_dofs(np.unique(patin.nodes)[:, None]).ravel()]
        assert (diag > 0).all()
        assert abs(M - sp.diags(M.diagonal())).max() == 0.0  # diagonal


@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_lumped_and_consistent_give_the_same_rigid_inertia_per_cell(element):
    mesh = sliding_block(element, 1)
    patin = mesh.group("PATIN")
    consistent = mass_matrices(mesh.points, patin, RHO)
    lumped = mass_matrices(mesh.points, patin, RHO, lumping="lumped")
    rigid = np.tile([0.3, -1.2], patin.nodes.shape[1])
    np.testing.assert_allclose(
        (consistent @ rigid).reshape(len(patin), -1, 2).sum(axis=1),
        (lumped @ rigid).reshape(len(patin), -1, 2).sum(axis=1),
        rtol=1e-13,
    )


def test_quad4_consistent_mass_of_a_square_is_the_textbook_matrix():
    pts = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    m = mass_matrices(pts, CellBlock("quad4", [[0, 1, 2, 3]]), 3.0, thickness=0.5)[0][::2, ::2]
    ref = 3.0 * 0.5 * 4.0 / 36.0 * np.array([[4, 2, 1, 2], [2, 4, 2, 1], [1, 2, 4, 2], [2, 1, 2, 4]])
    np.testing.assert_allclose(m, ref, rtol=1e-14)


def test_hrz_masses_of_a_rectangular_quad8():
    pts = np.array([[0, 0], [3, 0], [3, 2], [0, 2], [1.5, 0], [3, 1], [1.5, 2], [0, 1]], dtype=float)
    block = CellBlock("quad8", np.arange(8)[None])
    m = lumped_masses(pts, block, 2.0, lumping="hrz")[0]
    total = 2.0 * 6.0
    np.testing.assert_allclose(m, total * np.array([3, 3, 3, 3, 16, 16, 16, 16]) / 76, rtol=1e-14)
    with pytest.raises(InputError, match="negative corner masses"):
        lumped_masses(pts, block, 2.0, lumping="row_sum")


def test_bad_mass_inputs():
    mesh = sliding_block("quad4", 0)
    with pytest.raises(InputError, match="lumping"):
        mass_matrices(mesh.points, mesh.group("PATIN"), RHO, lumping="diagonal")
    with pytest.raises(InputError, match="rho"):
        mass_matrices(mesh.points, mesh.group("PATIN"), -1.0)


def test_assembled_lumped_mass_stores_only_the_diagonal():
    mesh = sliding_block("quad8", 0)
    patin = mesh.group("PATIN")
    M = assemble_matrix(
        mass_matrices(mesh.points, patin, RHO, lumping="lumped"), node_dofs(patin.nodes), 2 * mesh.n_nodes
    )
    assert M.nnz == 2 * len(np.unique(patin.nodes))
