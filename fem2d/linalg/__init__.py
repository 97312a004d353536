"""Direct sparse solvers behind one interface, chosen by name (``solver.linear``)."""

from fem2d.linalg import superlu  # noqa: I001,F401  (registration order: default first)
from fem2d.linalg import pardiso  # noqa: F401
from fem2d.linalg.base import Factorization, SolverBackend, get_solver, register, solver_names

DEFAULT_SOLVER = "superlu"

__all__ = ["DEFAULT_SOLVER", "Factorization", "SolverBackend", "get_solver", "register", "solver_names"]
