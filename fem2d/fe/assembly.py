"""Degree-of-freedom numbering and global assembly (COO -> CSR, or dense for a small model).

Dofs are interleaved: dof ``2 i`` is DX of node ``i``, dof ``2 i + 1`` is DY.
Element arrays use the same local order, node by node:
``(DX_0, DY_0, DX_1, DY_1, ...)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from fem2d.errors import InputError

if TYPE_CHECKING:  # scipy.sparse is imported by assemble_matrix: the dense path runs on NumPy alone
    import scipy.sparse as sp

ArrayOrArrays = np.ndarray | Sequence[np.ndarray]


def node_dofs(nodes: np.ndarray) -> np.ndarray:
    """Interleaved dofs of nodes: ``[..., n] -> [..., 2 n, 2 n + 1]``.

    Parameters
    ----------
    nodes : array_like of int, shape (..., nn)
        Node ids, e.g. ``block.nodes`` (nc, nn).

    Returns
    -------
    ndarray of int64, shape (..., 2 nn)
        ``dofs[..., 2 j + a] = 2 nodes[..., j] + a`` (a = 0 for DX, 1 for DY).
    """
    nodes = np.asarray(nodes, dtype=np.int64)
    dofs = 2 * nodes[..., None] + np.array([0, 1], dtype=np.int64)
    return dofs.reshape(*nodes.shape[:-1], 2 * nodes.shape[-1]) if nodes.ndim else dofs


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """The sorted distinct values of an integer array: ``np.unique(values)`` by one sort.

    NumPy 2.3+ finds the distinct integers of ``np.unique`` with a hash table before sorting
    them, 100-200 times slower than a sort here on the 210k corner-edge keys of a level-6 mesh
    (0.24-0.5 s against 3 ms; the three contact searches of SDNV104 spent 0.7 s in it).

    >>> sorted_unique(np.array([5, 1, 5, 3, 1])).tolist()
    [1, 3, 5]
    >>> sorted_unique(np.zeros(0, dtype=np.int64)).tolist()
    []
    """
    out = np.sort(np.asarray(values).ravel())
    if len(out) > 1:
        out = out[np.concatenate(([True], out[1:] != out[:-1]))]
    return out


def _as_list(arrays: ArrayOrArrays) -> list[np.ndarray]:
    if isinstance(arrays, np.ndarray):
        return [arrays]
    return [np.asarray(a) for a in arrays]


def _coo_entries(
    element_matrices: ArrayOrArrays, element_dofs: ArrayOrArrays, n_dofs: int, index: type[np.integer], caller: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (row, column, value) triplets of all element matrices, in element order, exact zeros left out."""
    mats, dofs = _as_list(element_matrices), _as_list(element_dofs)
    if len(mats) != len(dofs):
        raise InputError(f"{caller}: {len(mats)} blocks of matrices but {len(dofs)} blocks of dofs")
    rows, cols, vals = [], [], []
    for a, d in zip(mats, dofs, strict=True):
        d = np.asarray(d)
        if a.ndim != 3 or a.shape[1:] != (d.shape[1], d.shape[1]) or len(a) != len(d):
            raise InputError(f"{caller}: element matrices {a.shape} do not match element dofs {d.shape}")
        if d.size and (d.min() < 0 or d.max() >= n_dofs):
            raise InputError(f"{caller}: dofs outside 0..{n_dofs - 1}")
        m = d.shape[1]
        d = d.astype(index, copy=False)
        v = a.reshape(-1).astype(float, copy=False)
        r, c = np.repeat(d, m, axis=1).ravel(), np.tile(d, (1, m)).ravel()
        keep = v != 0.0  # lumped masses are mostly zeros: do not store them
        if not keep.all():
            r, c, v = r[keep], c[keep], v[keep]
        rows.append(r)
        cols.append(c)
        vals.append(v)
    if not vals:
        return np.zeros(0, dtype=index), np.zeros(0, dtype=index), np.zeros(0)
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)


def assemble_matrix(element_matrices: ArrayOrArrays, element_dofs: ArrayOrArrays, n_dofs: int) -> sp.csr_matrix:
    """Sum element matrices into a global sparse matrix.

    ``A[dofs[e, i], dofs[e, j]] += A_e[e, i, j]`` for every element ``e``;
    duplicates are summed by the COO -> CSR conversion.

    Parameters
    ----------
    element_matrices : ndarray (ne, m, m), or a sequence of such arrays
        One array per block; blocks may have different ``m``.
    element_dofs : ndarray of int (ne, m), or a sequence matching ``element_matrices``
        Global dofs of each element row/column (from :func:`node_dofs`).
    n_dofs : int
        Size of the global matrix.

    Returns
    -------
    scipy.sparse.csr_matrix, shape (n_dofs, n_dofs)
        Canonical (sorted indices, no duplicates), float64; same units as the
        element matrices (N/m for stiffness, kg for mass). Exact zeros of the
        element matrices are not stored, so a lumped mass is a diagonal CSR.
    """
    import scipy.sparse as sp  # here, not at the top: a small modal model is assembled densely without it

    index = np.int32 if 2 * n_dofs < np.iinfo(np.int32).max else np.int64
    rows, cols, vals = _coo_entries(element_matrices, element_dofs, n_dofs, index, "assemble_matrix")
    if not len(vals):
        return sp.csr_matrix((n_dofs, n_dofs))
    csr = sp.coo_matrix((vals, (rows, cols)), shape=(n_dofs, n_dofs)).tocsr()
    csr.sum_duplicates()
    return csr


def assemble_dense_matrix(element_matrices: ArrayOrArrays, element_dofs: ArrayOrArrays, n_dofs: int) -> np.ndarray:
    """Sum element matrices into a global dense matrix: :func:`assemble_matrix` for a
    small model, with NumPy alone (``A[dofs[e, i], dofs[e, j]] += A_e[e, i, j]``).

    The modal path of a model of a few hundred dofs works on dense matrices anyway
    (:func:`fem2d.modal.basis.dense_modes`): assembling them densely spares the
    process the import of scipy.sparse (about 0.2 s, more than such a run).
    The duplicates of an entry are summed in element order (the CSR conversion may
    sum them in another order: the two can differ by round-off where three or more
    elements meet).

    Parameters
    ----------
    element_matrices, element_dofs, n_dofs
        As for :func:`assemble_matrix`.

    Returns
    -------
    ndarray, shape (n_dofs, n_dofs)
        float64, same units as the element matrices.

    >>> a = np.array([[[1.0, 2.0], [2.0, 5.0]]])
    >>> assemble_dense_matrix([a, np.array([[[3.0]]])], [np.array([[0, 2]]), np.array([[2]])], 3).tolist()
    [[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [2.0, 0.0, 8.0]]
    """
    rows, cols, vals = _coo_entries(element_matrices, element_dofs, n_dofs, np.int64, "assemble_dense_matrix")
    return np.bincount(rows * n_dofs + cols, weights=vals, minlength=n_dofs * n_dofs).reshape(n_dofs, n_dofs)


def assemble_vector(element_vectors: ArrayOrArrays, element_dofs: ArrayOrArrays, n_dofs: int) -> np.ndarray:
    """Sum element vectors into a global vector: ``f[dofs[e, i]] += f_e[e, i]``.

    Parameters
    ----------
    element_vectors : ndarray (ne, m), or a sequence of such arrays
    element_dofs : ndarray of int (ne, m), or a matching sequence
    n_dofs : int

    Returns
    -------
    ndarray, shape (n_dofs,)
        Same units as the element vectors (N for forces).
    """
    vecs, dofs = _as_list(element_vectors), _as_list(element_dofs)
    if len(vecs) != len(dofs):
        raise InputError(f"assemble_vector: {len(vecs)} blocks of vectors but {len(dofs)} blocks of dofs")
    out = np.zeros(n_dofs)
    for v, d in zip(vecs, dofs, strict=True):
        d = np.asarray(d)
        if v.shape != d.shape:
            raise InputError(f"assemble_vector: element vectors {v.shape} do not match element dofs {d.shape}")
        if d.size and (d.min() < 0 or d.max() >= n_dofs):
            raise InputError(f"assemble_vector: dofs outside 0..{n_dofs - 1}")
        out += np.bincount(d.ravel(), weights=v.ravel(), minlength=n_dofs)
    return out
