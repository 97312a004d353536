"""Errors that reach the user as one clear line, never as a traceback."""

from __future__ import annotations


class Fem2dError(Exception):
    """Base class of the errors fem2d reports to its user.

    The message is a single line that names the file, key or object at fault
    and what was expected; the CLI prints it and exits with ``exit_status``
    (2: the input is at fault; 1: the computation failed).
    """

    exit_status: int = 2


class InputError(Fem2dError):
    """A case file, an override or a mesh does not say what fem2d needs."""


class MeshError(InputError):
    """A mesh is unusable: missing group, inverted or degenerate element..."""


class NumericalError(Fem2dError):
    """The computation itself failed: a non-finite state, energy growing without bound, a
    solve that did not converge. The message names the likely cause (a step above the
    stability limit, scheme parameters outside the stable range); exit status 1."""

    exit_status = 1


class ConvergenceError(NumericalError):
    """A nonlinear solve failed even at the smallest allowed step."""


class OutputError(InputError):
    """An output file or directory cannot be written (not a directory, read-only, disk full)."""


class SolverUnavailableError(Fem2dError):
    """A linear-solver backend was asked for but its package is not installed."""
