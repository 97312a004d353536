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
        # each term as (row-major positions, values), no COO copy nor sparse sum: at level 6 those made
        # about 150 MB of temporaries
        entries = [None if a is None else self._entries(a, upper) for a in matrices]
        keys = next(e[0] for e in entries if e is not None)
        for e in entries:
            if e is not None:
                keys = self._union(keys, e[0])
        n_rows, n_cols = self.shape
        index = np.int32 if max(len(keys), n_cols) < 2**31 - 1 else np.int64
        self.indptr = np.zeros(n_rows + 1, dtype=index)
        np.cumsum(np.bincount(keys // n_cols, minlength=n_rows), out=self.indptr[1:])
        self.indices = (keys % n_cols).astype(index)
        #: each term's values on the pattern (None for an absent term)
        self.values: list[np.ndarray | None] = []
        for e in entries:
            if e is None:
                self.values.append(None)
                continue
            aligned = np.zeros(len(keys))
            aligned[np.searchsorted(keys, e[0])] = e[1]
            self.values.append(aligned)

    @staticmethod
    def _entries(a: sp.spmatrix, upper: bool) -> tuple[np.ndarray, np.ndarray]:
        """Row-major positions (increasing) and values of a matrix's entries (upper triangle if ``upper``)."""
        a = sp.csr_matrix(a, dtype=float)
        if not a.has_canonical_format:
            a = a.copy()
            a.sum_duplicates()
        rows = np.repeat(np.arange(a.shape[0], dtype=a.indices.dtype), np.diff(a.indptr))
        if upper:
            keep = a.indices >= rows
            return rows[keep].astype(np.int64) * a.shape[1] + a.indices[keep], a.data[keep]
        return rows.astype(np.int64) * a.shape[1] + a.indices, a.data.copy()

    @staticmethod
    def _union(keys: np.ndarray, other: np.ndarray) -> np.ndarray:
        """The increasing positions of ``keys`` or ``other`` (both increasing, without
        repeats), merged in one pass: ``np.union1d`` sorted or hashed them all again
        (0.6 s at level 5 for the modified mass's pattern).

        >>> EffectiveMatrix._union(np.array([1, 4, 9]), np.array([0, 4, 5, 10])).tolist()
        [0, 1, 4, 5, 9, 10]
        """
        where = np.searchsorted(keys, other)
        found = keys[np.minimum(where, len(keys) - 1)] == other
        found &= where < len(keys)
        if found.all():
            return keys
        new = ~found
        return np.insert(keys, where[new], other[new])

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
