"""Frictional contact: search, Coulomb law, and three formulations behind one interface.

``make_formulation(name, **options)`` builds a formulation that the time
integrator drives through the :class:`~fem2d.contact.problem.ContactFormulation`
protocol (``initial_state(zone)``, ``solve(problem, state)``):

=============  ===========================================================
``lagrange``   discrete active set with Lagrange multipliers (code_aster's
               LAGRANGIEN); options ``strategy``
``penalty``    discrete penalty (PENALISATION); options ``e_n``, ``e_t``,
               ``young_modulus``, ``thickness``, ``penalty_factor``
``continuous`` weak form, Alart-Curnier augmented Lagrangian, semi-smooth
               Newton (CONTINUE); options ``integration``, ``rho_n``,
               ``rho_t``, ``gauss_points``
=============  ===========================================================

Every formulation also takes ``tolerance``, ``max_iter`` and ``orientation``.
"""

from __future__ import annotations

import dataclasses
import importlib
import numbers
from collections.abc import Iterator, Mapping
from typing import Any

from fem2d.contact.options import CHOICES
from fem2d.contact.problem import (
    OPEN,
    SLIP,
    STICK,
    CondensedProblem,
    ContactFormulation,
    ContactSolution,
    ContactZone,
    make_zone,
)
from fem2d.errors import FieldError

#: Where each formulation lives, by the name a case gives in ``contact.method``.
#: Its option choices are :data:`fem2d.contact.options.CHOICES` (checked without importing it).
_FORMULATION_CLASSES = {
    "lagrange": ("fem2d.contact.lagrange", "LagrangeFormulation"),
    "penalty": ("fem2d.contact.penalty", "PenaltyFormulation"),
    "continuous": ("fem2d.contact.continuous", "ContinuousFormulation"),
}


class _Formulations(Mapping):
    """Name -> formulation class, each module imported when first asked for
    (a run compiles and imports only the method it uses)."""

    def __getitem__(self, name: str) -> type:
        module, cls = _FORMULATION_CLASSES[name]
        return getattr(importlib.import_module(module), cls)

    def __iter__(self) -> Iterator[str]:
        return iter(_FORMULATION_CLASSES)

    def __len__(self) -> int:
        return len(_FORMULATION_CLASSES)


#: Registered formulations, by the name a case gives in ``contact.method``.
FORMULATIONS: Mapping[str, type] = _Formulations()


def __getattr__(name: str) -> type:
    for module, cls in _FORMULATION_CLASSES.values():
        if cls == name:
            return getattr(importlib.import_module(module), cls)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

#: Options that must be positive numbers when given (None means "default").
_POSITIVE = {"tolerance", "e_n", "e_t", "thickness", "penalty_factor", "rho_n", "rho_t"}
_COUNTS = {"max_iter", "gauss_points"}


def _check(owner: str, key: str, value: Any, choices: dict[str, tuple[str, ...]]) -> Any:
    """The contact option ``key`` checked (the one place contact option ranges are)."""
    if key in choices:
        if value not in choices[key]:
            raise FieldError(owner, key, f"expected one of {', '.join(map(repr, choices[key]))}, got {value!r}")
        return value
    if value is None and key in {"e_n", "e_t", "young_modulus", "gauss_points"}:
        return None
    if key in _COUNTS:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
            raise FieldError(owner, key, f"expected a positive integer, got {value!r}")
        return int(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise FieldError(owner, key, f"expected a number, got {value!r}")
    if key in _POSITIVE and not value > 0:
        raise FieldError(owner, key, f"expected a positive number, got {value!r}")
    if key == "young_modulus" and value < 0:
        raise FieldError(owner, key, f"expected a non-negative number, got {value!r}")
    return float(value)


def make_formulation(name: str, **options: Any) -> ContactFormulation:
    """Build the contact formulation ``name`` with its options.

    Raises :class:`~fem2d.errors.InputError` naming the method or the option
    when the name is unknown, an option does not exist for that method, or
    its value has the wrong type or range.
    """
    try:
        cls = FORMULATIONS[name]
    except (KeyError, TypeError):
        raise FieldError("make_formulation", "name", f"unknown contact method {name!r}; expected one of "
                         f"{', '.join(FORMULATIONS)}") from None
    owner = f"contact method {name!r}"
    fields = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(options) - fields)
    if unknown:
        names = ", ".join(map(repr, unknown))
        raise FieldError(owner, unknown[0], f"no option {names}; its options are {', '.join(sorted(fields))}")
    checked = {key: _check(owner, key, value, cls.choices) for key, value in options.items()}
    return cls(**checked)


def check_options(**options: Any) -> None:
    """Check contact option values whatever the method (a case checks every
    option it gives, used by its method or not).

    Raises :class:`~fem2d.errors.FieldError` naming the option.

    >>> check_options(rho_n=100.0, max_iter=20)
    >>> check_options(rho_n=-1.0)
    Traceback (most recent call last):
    ...
    fem2d.errors.FieldError: contact.rho_n: expected a positive number, got -1.0
    """
    choices: dict[str, tuple[str, ...]] = {}
    for method in FORMULATIONS:  # the formulations' own choices, their modules not imported
        choices.update(CHOICES[method])
    for key, value in options.items():
        _check("contact", key, value, choices)


__all__ = [
    "FORMULATIONS",
    "OPEN",
    "SLIP",
    "STICK",
    "CondensedProblem",
    "ContactFormulation",
    "ContactSolution",
    "ContactZone",
    "ContinuousFormulation",
    "LagrangeFormulation",
    "PenaltyFormulation",
    "check_options",
    "make_formulation",
    "make_zone",
]
