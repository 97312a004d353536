"""The direct solvers by name: a static table of the built-in backends (each module imported when
its backend is first asked for) and the backends a user adds with :func:`register`.

>>> get_solver("superlu").name, "pardiso" in solver_names()
('superlu', True)
"""

from __future__ import annotations

import importlib

from fem2d.errors import FieldError
from fem2d.linalg.base import SolverBackend

#: Where each built-in backend lives, in the order the names are listed (the default's family first).
BUILT_IN = {
    "pardiso-cholesky": ("fem2d.linalg.pardiso", "PARDISO_CHOLESKY"),
    "pardiso-ldlt": ("fem2d.linalg.pardiso", "PARDISO_LDLT"),
    "pardiso": ("fem2d.linalg.pardiso", "PARDISO"),
    "superlu": ("fem2d.linalg.superlu", "SUPERLU"),
    "cholmod": ("fem2d.linalg.cholmod", "CHOLMOD"),
}


class Registry:
    """Backends by name: the built-in table's, loaded when first asked for, and the added ones."""

    def __init__(self) -> None:
        self.added: dict[str, SolverBackend] = {}

    def names(self) -> list[str]:
        return [*BUILT_IN, *(name for name in self.added if name not in BUILT_IN)]

    def get(self, name: str) -> SolverBackend:
        if name in self.added:
            return self.added[name]
        if name not in BUILT_IN:
            message = f"unknown solver {name!r}; expected one of {sorted(self.names())}"
            raise FieldError("linear solver", "name", message)
        module, attribute = BUILT_IN[name]
        return getattr(importlib.import_module(module), attribute)


#: The process's registry (the built-in table is constant; :func:`register` adds to it).
REGISTRY = Registry()


def register(backend: SolverBackend) -> SolverBackend:
    """Add a backend under its name (a built-in name is replaced for this process)."""
    REGISTRY.added[backend.name] = backend
    return backend


def get_solver(name: str) -> SolverBackend:
    """The backend called ``name``; an unknown name is a :class:`~fem2d.errors.FieldError`
    (an InputError: owner ``linear solver``, field ``name``) that the case layer words with its key."""
    return REGISTRY.get(name)


def solver_names(installed_only: bool = False) -> list[str]:
    """Backend names (only the importable ones if ``installed_only``)."""
    return [name for name in REGISTRY.names() if not installed_only or REGISTRY.get(name).available()]
