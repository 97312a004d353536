r"""The effective matrix of a step, :math:`K_{eff} = w_K K + w_M M + w_C C`, on one sparsity pattern.

Every step size of an implicit scheme has its own weights and the same
pattern, the union of those of :math:`K`, :math:`M` and :math:`C`. The
matrices are put on that pattern once (their values aligned to its entries,
zero where a matrix has none), and the values of :math:`K_{eff}` for any
weights are then one pass over three arrays, in a matrix that shares the
pattern's index arrays: no sparse addition with its temporaries (at level 6 a
sparse sum made about 150 MB of temporaries at each new step size, while the
factors were alive), and a factorisation that is given the same pattern again
can refactorise on its kept analysis (:meth:`fem2d.linalg.base.SolverBackend.refactorize`).

The values are those of the sparse sum :math:`(w_K K + w_M M) + w_C C`, bit for
bit: each entry is computed with the same operations in the same order (an
entry a matrix does not have adds an exact zero).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp


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
        terms = []
        for a in matrices:
            if a is None:
                terms.append(None)
                continue
            a = sp.csr_matrix(a, dtype=float)
            a = sp.triu(a, format="csr") if upper else a.copy()
            a.sum_duplicates()  # canonical: sorted indices, one entry per position
            terms.append(a)
        present = [a for a in terms if a is not None]
        if not present:
            raise ValueError("EffectiveMatrix: no matrix given")
        self.shape = present[0].shape
        # the union pattern: a sum of matrices with positive values (no entry cancels)
        ones = [sp.csr_matrix((np.ones(a.nnz), a.indices, a.indptr), shape=a.shape) for a in present]
        pattern = ones[0]
        for o in ones[1:]:
            pattern = pattern + o
        pattern.sum_duplicates()
        self.indptr = pattern.indptr
        self.indices = pattern.indices
        keys = self._keys(pattern)
        #: each term's values on the pattern (None for an absent term)
        self.values: list[np.ndarray | None] = []
        for a in terms:
            if a is None:
                self.values.append(None)
                continue
            aligned = np.zeros(len(self.indices))
            aligned[np.searchsorted(keys, self._keys(a))] = a.data
            self.values.append(aligned)

    @staticmethod
    def _keys(a: sp.csr_matrix) -> np.ndarray:
        """Row-major positions of a canonical CSR matrix's entries (increasing)."""
        rows = np.repeat(np.arange(a.shape[0], dtype=np.int64), np.diff(a.indptr))
        return rows * a.shape[1] + a.indices

    def combine(self, weights: Sequence[float]) -> sp.csr_matrix:
        r""":math:`\sum_i w_i A_i`, summed term after term in the order given (a zero weight or an
        absent term skipped; a weight of one does not multiply), sharing the pattern's index arrays."""
        data: np.ndarray | None = None
        for w, values in zip(weights, self.values):
            if values is None or not w:
                continue
            term = values if w == 1.0 else values * w
            if data is None:
                data = term.copy() if term is values else term
            else:
                data += term
        if data is None:
            data = np.zeros(len(self.indices))
        return sp.csr_matrix((data, self.indices, self.indptr), shape=self.shape, copy=False)
