"""SciPy's SuperLU (sparse LU with COLAMD ordering): the default backend."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from fem2d.linalg.base import SolverBackend, register


class SuperLUFactorization:
    """LU factors of A from :func:`scipy.sparse.linalg.splu`."""

    def __init__(self, matrix: sp.csr_matrix) -> None:
        self._lu = spla.splu(matrix.tocsc(), permc_spec="COLAMD")

    def solve(self, b: np.ndarray) -> np.ndarray:
        return self._lu.solve(np.asarray(b, dtype=float))


SUPERLU = register(
    SolverBackend(
        name="superlu",
        description="SciPy SuperLU, sparse LU with COLAMD column ordering",
        factorize_fn=SuperLUFactorization,
        available_fn=lambda: True,
        install="it ships with SciPy",
    )
)
