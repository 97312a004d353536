"""CHOLMOD's sparse Cholesky through cholespy (optional extra ``fem2d[cholmod]``)."""

from __future__ import annotations

import importlib.util

import numpy as np
import scipy.sparse as sp

from fem2d.linalg.base import SolverBackend


def _available() -> bool:
    return importlib.util.find_spec("cholespy") is not None


class CholmodFactorization:
    """Cholesky factors A = P^T L L^T P of a symmetric positive definite A (CHOLMOD, via cholespy)."""

    def __init__(self, matrix: sp.csr_matrix) -> None:
        import cholespy

        coo = matrix.tocoo()
        self.n = matrix.shape[0]
        self._solver = cholespy.CholeskySolverD(
            self.n, coo.row.astype(np.int32), coo.col.astype(np.int32), coo.data, cholespy.MatrixType.COO
        )

    def solve(self, b: np.ndarray) -> np.ndarray:
        b = np.ascontiguousarray(b, dtype=float)
        x = np.zeros_like(b)
        self._solver.solve(b, x)
        return x


CHOLMOD = SolverBackend(
    name="cholmod",
    description="CHOLMOD supernodal Cholesky (cholespy)",
    factorize_fn=CholmodFactorization,
    available_fn=_available,
    install="install it with `pip install 'fem2d[cholmod]'` (package cholespy)",
    symmetric=True,
)
