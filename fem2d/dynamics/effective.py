r"""The effective matrix of a step, :math:`K_{eff} = w_K K + w_M M + w_C C`, on one sparsity pattern.

Every step size of an implicit scheme has its own weights and the same
pattern, the union of those of :math:`K`, :math:`M` and :math:`C`. The
matrices are put on that pattern once (their values aligned to its entries,
zero where a matrix has none), and the values of :math:`K_{eff}` for any
weights are then one pass over three arrays, in a matrix that shares the
pattern's index arrays: no sparse addition with its temporaries (at level 6 a
sparse sum made about 150 MB of temporaries at each new step size, while the
factors were alive), written into the array of the factors being replaced, and
a factorisation that is given the same pattern again can refactorise on its
kept analysis (:meth:`fem2d.linalg.base.SolverBackend.refactorize`).

The values are those of the sparse sum :math:`(w_K K + w_M M) + w_C C`, bit for
bit: each entry is computed with the same operations in the same order (an
entry a matrix does not have adds an exact zero).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

#: Entries per chunk of :meth:`EffectiveMatrix.combine` (its temporaries stay this small).
CHUNK = 1 << 18


class EffectiveMatrix:
    r"""Weighted sums :math:`\sum_i w_i A_i` of fixed square matrices on their union pattern.

    Parameters
    ----------
    matrices
        The terms, in the order the weights will be given (None: a term that is absent).
    upper
        Keep the upper triangle only (for a backend that reads no more of a symmetric matrix).

    >>> k = sp.csr_matrix(np.array([[2.0, -1.0], [-1.0, 2.0]]))
    >>> m = sp.diags([1.0, 3.0]).tocsr()
    >>> e = EffectiveMatrix([k, m])
    >>> e.combine([1.0, 10.0]).toarray().tolist()
    [[12.0, -1.0], [-1.0, 32.0]]
    >>> EffectiveMatrix([k, m], upper=True).combine([1.0, 10.0]).toarray().tolist()
    [[12.0, -1.0], [0.0, 32.0]]
    """

    def __init__(self, matrices: Sequence[sp.spmatrix | None], upper: bool = False) -> None:
        present = [a for a in matrices if a is not None]
        if not present:
            raise ValueError("EffectiveMatrix: no matrix given")
        self.shape = present[0].shape
        # each term's pattern as a CSR of ones (its upper triangle if ``upper``), the union as their sum
        # and each term's positions in the union by an elementwise product with the union's numbered
        # entries: scipy's merges of sorted rows, O(nnz), no sort nor search (searching each term's
        # entries in the union took 0.3 s at level 6, counted in every run with several step sizes)
        terms = [None if a is None else self._upper_or_all(a, upper) for a in matrices]
        patterns = [None if t is None else self._ones(t) for t in terms]
        union = next(p for p in patterns if p is not None)
        for p in patterns:
            if p is not None and p is not union:
                union = union + p  # positive entries: nothing cancels
        union.sum_duplicates()
        n_rows, n_cols = self.shape
        index = np.int32 if max(union.nnz, n_cols) < 2**31 - 1 else np.int64
        self.indptr = union.indptr.astype(index)
        self.indices = union.indices.astype(index)
        numbered = sp.csr_matrix((np.arange(1.0, union.nnz + 1.0), union.indices, union.indptr), shape=self.shape)
        #: each term's values on the pattern (None for an absent term)
        self.values: list[np.ndarray | None] = []
        for t, p in zip(terms, patterns):
            if t is None:
                self.values.append(None)
                continue
            aligned = np.zeros(union.nnz)
            if p.nnz == union.nnz:  # the union's own pattern (each term's is within it)
                aligned[:] = t.data
            else:
                where = numbered.multiply(p).tocsr()  # in the term's (canonical) order: its positions + 1
                aligned[where.data.astype(np.int64) - 1] = t.data
            self.values.append(aligned)

    @staticmethod
    def _upper_or_all(a: sp.spmatrix, upper: bool) -> sp.csr_matrix:
        """A matrix as canonical CSR of floats (duplicates summed), its upper triangle only if
        ``upper``; explicit zeros kept (they are entries of the pattern)."""
        a = sp.csr_matrix(a, dtype=float)
        if not a.has_canonical_format:
            a = a.copy()
            a.sum_duplicates()
        return EffectiveMatrix.upper_part(a) if upper else a

    @staticmethod
    def upper_part(a: sp.csr_matrix) -> sp.csr_matrix:
        """The upper triangle of a canonical CSR matrix (diagonal included, explicit zeros kept), by
        masking its entries: ``sp.triu`` goes through COO and sorts again (0.2 s at level 6).

        >>> a = sp.csr_matrix(np.array([[1.0, 2.0], [3.0, 4.0]]))
        >>> EffectiveMatrix.upper_part(a).toarray().tolist()
        [[1.0, 2.0], [0.0, 4.0]]
        """
        rows = np.repeat(np.arange(a.shape[0], dtype=a.indices.dtype), np.diff(a.indptr))
        keep = a.indices >= rows
        indptr = np.zeros(a.shape[0] + 1, dtype=a.indptr.dtype)
        np.cumsum(np.bincount(rows[keep], minlength=a.shape[0]), out=indptr[1:])
        return sp.csr_matrix((a.data[keep], a.indices[keep], indptr), shape=a.shape)

    @staticmethod
    def _ones(a: sp.csr_matrix) -> sp.csr_matrix:
        """The pattern of a canonical CSR matrix as ones (an explicit zero too).

        >>> a = sp.csr_matrix((np.array([0.0, 2.0]), np.array([1, 0]), np.array([0, 1, 2])), shape=(2, 2))
        >>> EffectiveMatrix._ones(a).toarray().tolist()
        [[0.0, 1.0], [1.0, 0.0]]
        """
        return sp.csr_matrix((np.ones(a.nnz), a.indices, a.indptr), shape=a.shape)

    def combine(self, weights: Sequence[float], out: np.ndarray | None = None) -> sp.csr_matrix:
        r""":math:`\sum_i w_i A_i`, summed term after term in the order given (a zero weight or an
        absent term skipped; a weight of one does not multiply), on the pattern's index arrays;
        the values in ``out`` when given (an array of the pattern's length), by chunks (no
        temporary of the matrix's size)."""
        if out is None:
            out = np.empty(len(self.indices))
        terms = [(w, v) for w, v in zip(weights, self.values) if v is not None and w]
        if not terms:
            out[:] = 0.0
        for start in range(0, len(out), CHUNK):
            part = slice(start, start + CHUNK)
            for i, (w, values) in enumerate(terms):
                if i == 0:
                    if w == 1.0:
                        out[part] = values[part]
                    else:
                        np.multiply(values[part], w, out=out[part])
                else:
                    out[part] += values[part] if w == 1.0 else values[part] * w
        return sp.csr_matrix((out, self.indices, self.indptr), shape=self.shape, copy=False)
