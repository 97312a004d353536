"""Scalar functions of time that multiply loads (code_aster's FONC_MULT)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np


class TimeFunction(Protocol):
    def __call__(self, t: float) -> float: ...


@dataclass(frozen=True)
class Constant:
    """g(t) = value."""

    value: float = 1.0

    def __call__(self, t: float) -> float:
        return self.value


@dataclass(frozen=True)
class PiecewiseLinear:
    """Linear interpolation of (t_i, g_i), constant beyond the first and last points.

    A ramp reaching 1 at ``t_r`` is ``PiecewiseLinear((0, t_r), (0, 1))``.
    """

    t: tuple[float, ...]
    values: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.t) != len(self.values) or not len(self.t):
            raise ValueError("piecewise_linear: t and values must have the same, non-zero length")
        if np.any(np.diff(self.t) <= 0):
            raise ValueError("piecewise_linear: t must be strictly increasing")

    def __call__(self, t: float) -> float:
        return float(np.interp(t, self.t, self.values))

    @property
    def breakpoints(self) -> tuple[float, ...]:
        """The instants where the slope changes (useful to event-driven solvers)."""
        return self.t


@dataclass(frozen=True)
class Sine:
    """g(t) = amplitude * sin(omega t + phase)."""

    amplitude: float = 1.0
    omega: float = 0.0
    phase: float = 0.0

    def __call__(self, t: float) -> float:
        return self.amplitude * float(np.sin(self.omega * t + self.phase))
