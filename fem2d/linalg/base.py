"""One interface for direct sparse solvers: factorise once, solve many times."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import scipy.sparse as sp

from fem2d.errors import InputError, SolverUnavailableError


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
    ``backward`` (see :mod:`fem2d.linalg.pardiso`).
    """

    name: str
    description: str
    factorize_fn: Callable[[sp.spmatrix], Factorization]
    available_fn: Callable[[], bool]
    install: str
    symmetric: bool = False
    schur: bool = False

    def available(self) -> bool:
        return self.available_fn()

    def factorize(self, matrix: sp.spmatrix, boundary: np.ndarray | None = None) -> Factorization:
        if not self.available():
            raise SolverUnavailableError(
                f"solver.linear = {self.name!r} needs a package that is not installed; {self.install}"
            )
        matrix = sp.csr_matrix(matrix, dtype=float)
        if matrix.shape[0] != matrix.shape[1]:
            raise ValueError(f"{self.name}: matrix must be square, got {matrix.shape}")
        if boundary is not None:
            if not self.schur:
                raise ValueError(f"{self.name}: no Schur complement facility")
            return self.factorize_fn(matrix, boundary)
        return self.factorize_fn(matrix)


_REGISTRY: dict[str, SolverBackend] = {}


def _register_all() -> None:
    import fem2d.linalg.backends  # noqa: F401  (each backend module registers itself)


def register(backend: SolverBackend) -> SolverBackend:
    """Add a backend to the registry (by its name)."""
    _REGISTRY[backend.name] = backend
    return backend


def get_solver(name: str) -> SolverBackend:
    """The backend called ``name``; unknown names give a one-line InputError."""
    _register_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise InputError(f"solver.linear: unknown solver {name!r}; expected one of {sorted(_REGISTRY)}") from None


def solver_names(installed_only: bool = False) -> list[str]:
    """Registered backend names (only the importable ones if ``installed_only``)."""
    _register_all()
    return [n for n, b in _REGISTRY.items() if b.available() or not installed_only]
