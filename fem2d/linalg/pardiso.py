"""Intel MKL PARDISO through pypardiso (optional extra ``fem2d[pardiso]``).

Two backends: ``pardiso`` is PARDISO's parallel supernodal LU (matrix type 11,
the closest match to code_aster's MULT_FRONT multifrontal solver) and
``pardiso-ldlt`` its symmetric indefinite LDL^T with Bunch-Kaufman pivoting
(matrix type -2, the closest match to code_aster's LDLT), which reads only the
upper triangle.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import scipy.sparse as sp

from fem2d.linalg.base import SolverBackend, register

_INSTALL = "install it with `pip install 'fem2d[pardiso]'` (package pypardiso)"


def _available() -> bool:
    return importlib.util.find_spec("pypardiso") is not None


class PardisoFactorization:
    """PARDISO factors of A, kept in MKL's memory until this object is freed."""

    def __init__(self, matrix: sp.csr_matrix, mtype: int) -> None:
        import pypardiso

        self._solver = pypardiso.PyPardisoSolver(mtype=mtype)
        if mtype in (-2, 2):
            matrix = sp.triu(matrix, format="csr")
        matrix.sort_indices()
        self._matrix = matrix
        self._solver.factorize(matrix)

    def solve(self, b: np.ndarray) -> np.ndarray:
        b = np.asarray(b, dtype=float)
        x = self._solver.solve(self._matrix, b)
        return x.reshape(b.shape)

    def __del__(self) -> None:
        solver = getattr(self, "_solver", None)
        if solver is not None:
            try:
                solver.free_memory(everything=True)
            except Exception:  # interpreter shutdown: MKL may be gone already
                pass


PARDISO = register(
    SolverBackend(
        name="pardiso",
        description="Intel MKL PARDISO supernodal LU (pypardiso)",
        factorize_fn=lambda a: PardisoFactorization(a, 11),
        available_fn=_available,
        install=_INSTALL,
    )
)

PARDISO_LDLT = register(
    SolverBackend(
        name="pardiso-ldlt",
        description="Intel MKL PARDISO symmetric indefinite LDL^T, Bunch-Kaufman pivoting (pypardiso)",
        factorize_fn=lambda a: PardisoFactorization(a, -2),
        available_fn=_available,
        install=_INSTALL,
        symmetric=True,
    )
)
