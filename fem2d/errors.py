"""Errors that reach the user as one clear line, never as a traceback."""

from __future__ import annotations


class Fem2dError(Exception):
    """Base class of the errors fem2d reports to its user.

    The message is a single line that names the file, key or object at fault
    and what was expected; the CLI prints it and exits with status 2.
    """


class InputError(Fem2dError):
    """A case file, an override or a mesh does not say what fem2d needs."""


class MeshError(InputError):
    """A mesh is unusable: missing group, inverted or degenerate element..."""


class ConvergenceError(Fem2dError):
    """A nonlinear solve failed even at the smallest allowed step."""


class SolverUnavailableError(Fem2dError):
    """A linear-solver backend was asked for but its package is not installed."""
