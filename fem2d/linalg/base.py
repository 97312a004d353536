"""One interface for direct sparse solvers: factorise once, solve many times."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import scipy.sparse as sp

from fem2d.errors import NumericalError, SolverUnavailableError

#: What a singular K_eff most likely means, said by every backend.
SINGULAR_CAUSE = "likely cause: a body not held by supports or a zero mass or stiffness"

#: Relative error of the probe solve above which a factorised matrix is taken as singular:
#: a regular stiffness recovers the probe to 1e-9 or better, a singular one misses it by O(1).
PROBE_TOLERANCE = 1e-2


def singular_matrix_error(solver: str, detail: str) -> NumericalError:
    """The one-line error of a factorisation of a singular matrix, for every backend."""
    return NumericalError(f"linear solver {solver!r}: the matrix is singular ({detail}); {SINGULAR_CAUSE}")


def is_upper_triangular(matrix: sp.csr_matrix) -> bool:
    """No stored entry below the diagonal (a CSR matrix).

    >>> is_upper_triangular(sp.csr_matrix([[2.0, 1.0], [0.0, 2.0]]))
    True
    >>> is_upper_triangular(sp.csr_matrix([[1.0, 0.0], [1.0, 1.0]]))
    False
    >>> is_upper_triangular(sp.csr_matrix((3, 3)))
    True

    With sorted column indices, each row's first entry decides (no array of the
    matrix's size: at level 6 the row of every entry was 30 MB of temporaries at each
    factorisation, while the factors of the last one were alive).
    """
    first, ends = matrix.indptr[:-1], matrix.indptr[1:]
    if matrix.has_sorted_indices:
        filled = np.flatnonzero(ends > first)
        return bool(np.all(matrix.indices[first[filled]] >= filled))
    rows = np.repeat(np.arange(matrix.shape[0], dtype=matrix.indices.dtype), np.diff(matrix.indptr))
    return bool(np.all(matrix.indices >= rows))


def symmetric_product(upper: sp.csr_matrix, x: np.ndarray) -> np.ndarray:
    """:math:`A x` of the symmetric A whose upper triangle is ``upper``: :math:`U x + U^T x - D x`.

    >>> a = np.array([[2.0, 1.0], [1.0, 3.0]])
    >>> symmetric_product(sp.csr_matrix(np.triu(a)), np.array([1.0, 1.0])).tolist()
    [3.0, 4.0]
    """
    return upper @ x + upper.T @ x - upper.diagonal() * x


def probe_error(matrix: sp.spmatrix, factor: Factorization, upper: bool = False) -> float:
    r"""Relative error of the factorisation on a known solution: with a fixed
    random :math:`x_0`,

    .. math::

        e = \frac{\lVert F^{-1}(A x_0) - x_0 \rVert}{\lVert x_0 \rVert},

    about :math:`\kappa(A)\,\varepsilon` for a regular matrix and of order one
    (or not finite) for a singular one, whose null-space component of
    :math:`x_0` the solve cannot recover. One solve per factorisation. With
    ``upper``, ``matrix`` is the upper triangle of a symmetric A.

    >>> import scipy.sparse as sp
    >>> from fem2d.linalg.superlu import SuperLUFactorization
    >>> a = sp.csr_matrix([[2.0, -1.0], [-1.0, 2.0]])
    >>> probe_error(a, SuperLUFactorization(a)) < 1e-14
    True
    """
    x0 = np.random.default_rng(0).standard_normal(matrix.shape[0])
    with np.errstate(all="ignore"):
        x = factor.solve(symmetric_product(matrix, x0) if upper else matrix @ x0)
        error = float(np.linalg.norm(x - x0) / np.linalg.norm(x0))
    return error if np.isfinite(error) else float("inf")


class Factorization(Protocol):
    """A factorised square matrix A."""

    def solve(self, b: np.ndarray) -> np.ndarray:
        """x with A x = b; ``b`` is (n,) or (n, k) and x has the same shape."""


@dataclass(frozen=True)
class SolverBackend:
    """A registered direct solver.

    ``factorize(A)`` takes a square CSR/CSC matrix and returns a
    :class:`Factorization`. ``symmetric`` says whether the backend uses the
    symmetry of A (an LDL^T), ``install`` how to get it when it is missing.
    ``schur`` says whether ``factorize(A, boundary)`` eliminates the rows
    ``boundary`` last and returns a factorisation with their Schur complement
    (``schur``, ``boundary``) and the two half sweeps ``forward`` and
    ``backward`` (see :mod:`fem2d.linalg.pardiso`). ``upper_triangle`` says that it
    reads only the upper triangle of A: a caller may pass ``triu(A)`` and free A
    before the factorisation (at level 6 the full K_eff is 58 MB).
    ``refactorize(old, A, boundary)`` factorises A in the place of the factorisation ``old``,
    which it consumes (``old`` cannot solve afterwards): a backend with a
    ``refactorize_fn`` (PARDISO) reuses old's ordering, symbolic analysis and memory when A
    has old's sparsity pattern; the others factorise A anew. ``refactorizes`` says which.
    """

    name: str
    description: str
    factorize_fn: Callable[[sp.spmatrix], Factorization]
    available_fn: Callable[[], bool]
    install: str
    symmetric: bool = False
    schur: bool = False
    upper_triangle: bool = False
    refactorize_fn: Callable[..., Factorization] | None = None

    def available(self) -> bool:
        return self.available_fn()

    @property
    def refactorizes(self) -> bool:
        """Whether :meth:`refactorize` reuses the analysis and memory of the old factors."""
        return self.refactorize_fn is not None

    def factorize(self, matrix: sp.spmatrix, boundary: np.ndarray | None = None) -> Factorization:
        return self._checked(matrix, boundary, None)

    def refactorize(self, old: Factorization, matrix: sp.spmatrix, boundary: np.ndarray | None = None) -> Factorization:
        """``matrix`` factorised in the place of ``old`` (see the class docstring), with the same checks
        as :meth:`factorize`."""
        if self.refactorize_fn is None:
            return self._checked(matrix, boundary, None)
        return self._checked(matrix, boundary, old)

    def _checked(self, matrix: sp.spmatrix, boundary: np.ndarray | None, old: Factorization | None) -> Factorization:
        if not self.available():
            raise SolverUnavailableError(
                f"linear solver {self.name!r} needs a package that is not installed; {self.install}"
            )
        matrix = sp.csr_matrix(matrix, dtype=float)
        if matrix.shape[0] != matrix.shape[1]:
            raise ValueError(f"{self.name}: matrix must be square, got {matrix.shape}")
        if boundary is not None and not self.schur:
            raise ValueError(f"{self.name}: no Schur complement facility")
        # a backend that reads the upper triangle may be given only that (the stepper does: less memory)
        upper = self.upper_triangle and is_upper_triangular(matrix)
        try:
            if old is not None:
                factor = self.refactorize_fn(old, matrix, boundary)
            else:
                factor = self.factorize_fn(matrix) if boundary is None else self.factorize_fn(matrix, boundary)
            error = probe_error(matrix, factor, upper) if matrix.shape[0] else 0.0
        except NumericalError:
            raise
        except (RuntimeError, ValueError, np.linalg.LinAlgError) as exc:
            # SuperLU: "Factor is exactly singular"; CHOLMOD: "Matrix is not positive definite!"
            raise singular_matrix_error(self.name, " ".join(str(exc).split())) from None
        if error > PROBE_TOLERANCE:
            # SuperLU, PARDISO LDL^T and LU pivot on round-off and return an answer of the order of 1e13
            raise singular_matrix_error(self.name, f"a probe solve misses its known solution by {error:.1e}")
        return factor
