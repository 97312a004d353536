"""SciPy's SuperLU with a symmetric ordering: the dependency-free fallback backend.

K_eff is symmetric positive definite, so the columns are ordered by minimum
degree on the pattern of A^T + A (``MMD_AT_PLUS_A``) and SuperLU runs in
symmetric mode, taking the diagonal pivots: at SDNV104's level 6 the factors
hold 2.5 times fewer entries than with the unsymmetric COLAMD ordering.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from fem2d.linalg.base import SolverBackend


class SuperLUFactorization:
    """LU factors of A from :func:`scipy.sparse.linalg.splu` (symmetric ordering, diagonal pivots)."""

    def __init__(self, matrix: sp.csr_matrix) -> None:
        import scipy.sparse.linalg as spla  # here: the backends register in every direct run (0.06 s)

        self._lu = spla.splu(
            matrix.tocsc(), permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0, options={"SymmetricMode": True}
        )

    def solve(self, b: np.ndarray) -> np.ndarray:
        return self._lu.solve(np.asarray(b, dtype=float))


SUPERLU = SolverBackend(
    name="superlu",
    description="SciPy SuperLU, minimum degree on A^T + A, symmetric mode",
    factorize_fn=SuperLUFactorization,
    available_fn=lambda: True,
    install="it ships with SciPy",
)
