"""Direct sparse solvers behind one interface, chosen by name (a case's ``solver.linear``).

The backends are a static table (:mod:`fem2d.linalg.registry`), each module imported when its
backend is first asked for (importing :mod:`fem2d.linalg.default`, the one that picks the default,
loads neither NumPy nor SciPy).
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["DEFAULT_SOLVER", "Factorization", "SolverBackend", "get_solver", "register", "solver_names"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'fem2d.linalg' has no attribute {name!r}")
    if name == "DEFAULT_SOLVER":
        return importlib.import_module("fem2d.linalg.default").default_solver()
    home = "fem2d.linalg.base" if name in ("Factorization", "SolverBackend") else "fem2d.linalg.registry"
    return getattr(importlib.import_module(home), name)
