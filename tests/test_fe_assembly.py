"""Dof numbering, COO -> CSR assembly, integrals and error norms."""

import numpy as np
import pytest
import scipy.sparse as sp

from fem2d.errors import InputError
from fem2d.fe import (
    assemble_dense_matrix,
    assemble_matrix,
    assemble_vector,
    error_norms,
    integrate_over_cells,
    nodal_average,
    node_dofs,
)
from fem2d.fe.assembly import sorted_unique
from fem2d.mesh import rectangle


def test_node_dofs_interleaved():
    np.testing.assert_array_equal(node_dofs([[3, 0], [1, 2]]), [[6, 7, 0, 1], [2, 3, 4, 5]])
    np.testing.assert_array_equal(node_dofs([5]), [10, 11])


def test_assemble_matrix_sums_duplicates_across_blocks():
    a = np.arange(8.0).reshape(2, 2, 2)  # two 2x2 element matrices on dofs (0, 1) and (1, 2)
    b = np.full((1, 1, 1), 10.0)  # a 1x1 block on dof 1
    A = assemble_matrix([a, b], [np.array([[0, 1], [1, 2]]), np.array([[1]])], 4)
    assert isinstance(A, sp.csr_matrix) and A.has_canonical_format
    np.testing.assert_array_equal(A.toarray(), [[0, 1, 0, 0], [2, 3 + 4 + 10, 5, 0], [0, 6, 7, 0], [0, 0, 0, 0]])
    with pytest.raises(InputError, match="outside"):
        assemble_matrix(a, np.array([[0, 1], [1, 4]]), 4)


def test_dense_assembly_is_the_sparse_one_on_numpy_alone():
    """Same entries as the CSR assembly (a QUAD4 mesh's stiffness: up to four elements per
    entry, summed in element order) to round-off; the same errors; an empty block list is zero."""
    from fem2d.fe import elasticity_matrix, mass_matrices, stiffness_matrices

    mesh = rectangle(1.0, 0.5, 4, 3)
    body = mesh.group("BODY")
    dofs, n = node_dofs(body.nodes), 2 * mesh.n_nodes
    k = stiffness_matrices(mesh.points, body, elasticity_matrix(2.1e11, 0.3, "plane_strain"))
    m = mass_matrices(mesh.points, body, 7800.0, lumping="lumped")
    for blocks in (k, [k, m]):
        block_dofs = dofs if isinstance(blocks, np.ndarray) else [dofs, dofs]
        dense = assemble_dense_matrix(blocks, block_dofs, n)
        assert isinstance(dense, np.ndarray) and dense.shape == (n, n) and dense.dtype == np.float64
        sparse = assemble_matrix(blocks, block_dofs, n).toarray()
        np.testing.assert_allclose(dense, sparse, rtol=0.0, atol=4 * np.finfo(float).eps * np.abs(sparse).max())
    np.testing.assert_array_equal(assemble_dense_matrix(m, dofs, n), assemble_matrix(m, dofs, n).toarray())
    np.testing.assert_array_equal(assemble_dense_matrix([], [], 3), np.zeros((3, 3)))
    with pytest.raises(InputError, match="assemble_dense_matrix: dofs outside"):
        assemble_dense_matrix(k[:1], np.full((1, 8), n), n)


@pytest.mark.parametrize("high", [7, 10**10])
def test_sorted_unique_is_numpys_unique(high):
    values = np.random.default_rng(3).integers(-high, high, 5000)
    np.testing.assert_array_equal(sorted_unique(values), np.unique(values))
    np.testing.assert_array_equal(sorted_unique(values.reshape(50, 100)), np.unique(values))
    assert sorted_unique(values[:1]).tolist() == values[:1].tolist()


def test_assemble_vector():
    f = assemble_vector([np.array([[1.0, 2.0], [3.0, 4.0]])], [np.array([[0, 2], [2, 3]])], 5)
    np.testing.assert_array_equal(f, [1, 0, 5, 4, 0])


def test_nodal_average_marks_untouched_nodes():
    avg = nodal_average(4, np.array([[0, 1], [1, 2]]), np.array([[[1.0], [2.0]], [[4.0], [6.0]]]))
    np.testing.assert_array_equal(avg[:3, 0], [1.0, 3.0, 6.0])
    assert np.isnan(avg[3, 0])


@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_integrate_and_norms_are_exact_for_interpolated_fields(element):
    mesh = rectangle(2.0, 1.0, 3, 2, element)
    mesh.points = np.round(mesh.points * 12) / 12  # Gmsh places the nodes to ~1e-11 only
    body = mesh.group("BODY")
    # int_0^2 x dx int_0^1 y dy = 1
    assert abs(integrate_over_cells(mesh.points, body, lambda x, y: x * y).sum() - 1.0) < 1e-14
    # u_h interpolates a bilinear field exactly (both elements contain x y): the error is zero
    x, y = mesh.points.T
    u = np.column_stack([x * y, 1 + x]).ravel()
    l2, h1 = error_norms(mesh.points, body, u, lambda x, y: (x * y, 1 + x), lambda x, y: ((y, x), (1.0, 0.0)))
    assert l2 < 1e-14 and h1 < 1e-14
    # and a known error: against u = 0 the L2 norm of (xy, 1 + x) is sqrt(int x^2 y^2 + (1 + x)^2)
    l2, h1 = error_norms(mesh.points, body, u, lambda x, y: (0.0, 0.0), lambda x, y: ((0, 0), (0, 0)))
    assert abs(l2 - np.sqrt(8 / 9 + 26 / 3)) < 1e-13
    assert abs(h1 - np.sqrt(8 / 3 + 2 / 3 + 2.0)) < 1e-13  # int y^2 + x^2 + 1 over [0,2]x[0,1]
