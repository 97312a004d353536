"""Scalar functions of time that multiply loads (code_aster's FONC_MULT).

One family for both paths: the direct integrators call them, the compiled modal
kernels read their parameters (:func:`harmonic`, :class:`PiecewiseLinear`'s knots).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from fem2d.errors import ModelError


class TimeFunction(Protocol):
    """What multiplies a load: ``g(t)`` (dimensionless) at the time ``t`` (s)."""

    def __call__(self, t: float) -> float: ...


@dataclass(frozen=True)
class Constant:
    """:math:`g(t) = \\mathrm{value}`.

    >>> Constant(2.0)(10.0)
    2.0
    """

    value: float = 1.0

    def __call__(self, t: float) -> float:
        return self.value


@dataclass(frozen=True)
class PiecewiseLinear:
    """Linear interpolation of (t_i, g_i), constant beyond the first and last points
    (code_aster's ``PROL_*='CONSTANT'``).

    >>> ramp = PiecewiseLinear((0.0, 0.5), (0.0, 1.0))
    >>> ramp(0.25), ramp(3.0)
    (0.5, 1.0)
    """

    t: tuple[float, ...]
    values: tuple[float, ...]

    def __post_init__(self) -> None:
        for name in ("t", "values"):
            try:
                numbers = tuple(float(x) for x in getattr(self, name))
            except (TypeError, ValueError):
                raise ModelError(self, name, f"expected a sequence of numbers, got {getattr(self, name)!r}") from None
            if not all(math.isfinite(x) for x in numbers):
                raise ModelError(self, name, f"expected finite numbers, got {numbers}")
            object.__setattr__(self, name, numbers)
        if len(self.t) != len(self.values) or not len(self.t):
            raise ModelError(self, "values", "t and values must have the same, non-zero length")
        if np.any(np.diff(self.t) <= 0):
            raise ModelError(self, "t", "t must be strictly increasing")

    def __call__(self, t: float) -> float:
        return float(np.interp(t, self.t, self.values))

    @property
    def breakpoints(self) -> tuple[float, ...]:
        """The instants where the slope changes (useful to event-driven solvers)."""
        return self.t


@dataclass(frozen=True)
class Sine:
    r""":math:`g(t) = A \sin(\omega t + \varphi)`.

    >>> Sine(2.0, math.pi, 0.0)(0.5)
    2.0
    """

    amplitude: float = 1.0
    omega: float = 0.0
    phase: float = 0.0

    def __call__(self, t: float) -> float:
        return self.amplitude * float(np.sin(self.omega * t + self.phase))


def harmonic(function: TimeFunction) -> Sine | None:
    r"""``function`` as a :class:`Sine` when it is one (a constant :math:`c` is
    :math:`c \sin(0 t + \pi/2)`), None otherwise: the form the compiled modal
    kernels and the exact event-driven integrator evaluate.

    >>> harmonic(Constant(1.5))
    Sine(amplitude=1.5, omega=0.0, phase=1.5707963267948966)
    >>> harmonic(PiecewiseLinear((0.0, 1.0), (0.0, 1.0))) is None
    True
    """
    if isinstance(function, Sine):
        return function
    if isinstance(function, Constant):
        return Sine(float(function.value), 0.0, math.pi / 2.0)
    return None
