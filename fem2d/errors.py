"""Errors that reach the user as one clear line, never as a traceback, and the
warning a run from Python gives for what it distrusts in itself."""

from __future__ import annotations

import numbers


class Fem2dError(Exception):
    """Base class of the errors fem2d reports to its user.

    The message is a single line that names the file, key or object at fault
    and what was expected; the CLI prints it and exits with ``exit_status``
    (2: the input is at fault; 1: the computation failed).
    """

    exit_status: int = 2


class InputError(Fem2dError):
    """A case file, an override or a mesh does not say what fem2d needs."""


class ModelError(InputError):
    """A model object holds a value the model cannot use.

    ``owner`` is the object at fault (a :class:`~fem2d.model.bodies.Body`, a
    :class:`~fem2d.model.contact.Contact`...) and ``field`` the name of its
    attribute; the message reads ``Body('PATIN').rho: ...``. The case layer
    maps ``(owner, field)`` back to the TOML key the user wrote.
    """

    def __init__(self, owner: object, field: str, message: str) -> None:
        self.owner, self.field, self.message = owner, field, message
        super().__init__(f"{describe(owner)}.{field}: {message}")


class ArgumentError(ModelError, TypeError):
    """A model object or an analysis given a value of the wrong kind (``None`` for a
    time stepping, a string for a Young's modulus): a :class:`ModelError` naming the
    object and the argument, and a :class:`TypeError`."""


def expect_instance(owner: object, field: str, value: object, kinds: type | tuple[type, ...], what: str) -> None:
    """Raise :class:`ArgumentError` (``Owner.field: expected WHAT, got VALUE``) unless
    ``value`` is an instance of ``kinds``.

    >>> expect_instance("a", "stepping", None, int, "a fem2d.TimeStepping")
    Traceback (most recent call last):
    ...
    fem2d.errors.ArgumentError: str.stepping: expected a fem2d.TimeStepping, got None
    """
    if not isinstance(value, kinds):
        raise ArgumentError(owner, field, f"expected {what}, got {value!r}")


def expect_real(owner: object, field: str, value: object, what: str) -> float:
    """``value`` as a float when it is a real number (an int, a float, a NumPy scalar;
    not a bool, not a string), else :class:`ArgumentError` (``expected WHAT, got VALUE``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ArgumentError(owner, field, f"expected {what}, got {value!r}")
    return float(value)


def describe(owner: object) -> str:
    """A short name of a model object for messages: ``Body('PATIN')``, ``Model``."""
    group = getattr(owner, "group", None)
    name = type(owner).__name__
    return f"{name}({group!r})" if isinstance(group, str) else name


class OverrideError(InputError):
    """An override (a dotted key and a value given on top of a case file) that
    cannot be applied: ``where`` (the case file, or empty), the ``key`` (or the
    text given) and what is wrong. The message says "override"; the command
    line words it as its own option (:meth:`worded`).
    """

    def __init__(self, where: str, key: str, detail: str) -> None:
        self.where, self.key, self.detail = where, key, detail
        super().__init__(self.worded("override"))

    def worded(self, name: str) -> str:
        """The message with ``name`` for what the override was given by (``--set``)."""
        parts = [self.where, f"{name} {self.key}".rstrip(), self.detail]
        return ": ".join(part for part in parts if part)


class FieldError(InputError):
    """A value a function or component below the case layer cannot take:
    ``owner`` names it (``contact method 'penalty'``), ``field`` the argument,
    ``message`` what is wrong. The case layer maps (owner, field) to the key
    the user wrote.
    """

    def __init__(self, owner: str, field: str, message: str) -> None:
        self.owner, self.field, self.message = owner, field, message
        super().__init__(f"{owner}.{field}: {message}")


class UnsupportedError(FieldError, NotImplementedError):
    """A model object asked to do what its method does not: ``owner`` names the
    object or function, ``field`` the setting it cannot take. The case layer
    maps (owner, field) to the key the user wrote (``fem2d.runs.modal``).
    """


class MeshError(InputError):
    """A mesh is unusable: missing group, inverted or degenerate element..."""


class NumericalError(Fem2dError):
    """The computation itself failed: a non-finite state, energy growing without bound, a
    solve that did not converge. The message names the likely cause (a step above the
    stability limit, scheme parameters outside the stable range); exit status 1."""

    exit_status = 1


class StrictRunError(NumericalError):
    """A run asked to be strict (``strict=True``, the command line's ``--strict``)
    finished with warnings: the message names each of them; ``result`` is the
    run's :class:`~fem2d.runs.result.Result`, numbers and warnings, for a look."""

    def __init__(self, where: str, warnings: list[str], result: object) -> None:
        self.warnings, self.result = list(warnings), result
        said = "; ".join(warnings)
        super().__init__(f"{where}: strict: the run finished with {len(warnings)} warning(s): {said}")


class ConvergenceError(NumericalError):
    """A nonlinear solve failed even at the smallest allowed step."""


class OutputError(InputError):
    """An output file or directory cannot be written (not a directory, read-only, disk full)."""


class SolverUnavailableError(Fem2dError):
    """A linear-solver backend was asked for but its package is not installed."""


class Fem2dWarning(UserWarning):
    """What a finished run distrusts in itself (energy created, slave nodes off
    their master surface...), one warning per entry of ``Result.warnings``, given
    to Python's :mod:`warnings` when the run is driven from Python (a script or
    a notebook sees it; ``warnings.simplefilter("error", fem2d.Fem2dWarning)``
    raises it at the first one, ``strict=True`` raises a :class:`StrictRunError`
    naming them all, with the result). The command line prints each once itself.
    """
