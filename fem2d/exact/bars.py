r"""Exact impacts of elastic bars (1D wave equation, d'Alembert).

A bar of length :math:`L`, Young's modulus :math:`E`, density :math:`\rho` and
cross-section :math:`A` carries waves at :math:`c = \sqrt{E/\rho}`; its
impedance is :math:`Z = \rho c A = E A / c`.

* **Bar on a rigid wall** (Signorini bar): at speed :math:`v_0` toward the wall,
  a gap :math:`g` ahead, contact starts at :math:`g/v_0`, lasts :math:`2L/c`
  with the constant force :math:`Z v_0`; the bar leaves at :math:`-v_0` free of
  stress, so the energy is unchanged.
* **Two bars**: a bar at :math:`v_0` hits an identical bar at rest: contact
  lasts :math:`2L/c` with force :math:`Z v_0 / 2`; the striker stops and the
  struck bar leaves at :math:`v_0`.
* **Bouncing bar**: dropped from height :math:`h` under gravity :math:`g`, it
  arrives at :math:`v = \sqrt{2 g h}`. While its lower end is held, the force
  is :math:`Z v + \rho c A g t` (the impact wave plus the gravity wave) for
  :math:`t < 2L/c`; at :math:`2L/c` the reflected impact wave brings
  :math:`-2 Z v` and the force would fall to :math:`Z(-v + 2 g L/c) < 0` when
  :math:`v > 2 g L/c`: the bar leaves after exactly :math:`2L/c`. The impulse
  :math:`2 Z v L/c + 2\rho A g L^2/c` minus the weight's :math:`2\rho A L g L/c`
  turns the momentum :math:`-m v` into :math:`+m v`: it leaves at :math:`v`,
  flies :math:`2v/g` and the energy is constant. It leaves carrying the
  gravity wave's stress (elastic energy :math:`\tfrac23 m (gL/c)^2`), whose
  vibration shifts later impacts by a fraction of order :math:`gL/(cv)`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class BarImpact:
    """One exact contact: start time (s), duration (s), force plateau (N),
    velocities of the bar(s) after it (m/s), and the energy (J) that stays constant."""

    t_start: float
    duration: float
    force: float
    velocity_after: tuple[float, ...]
    energy: float

    @property
    def t_end(self) -> float:
        return self.t_start + self.duration

    def force_at(self, t: np.ndarray) -> np.ndarray:
        """The contact force history: the plateau on [t_start, t_end), zero outside (N).

        >>> bar_on_wall(1.0, 2.0e11, 8000.0, 0.05, 1.0).force_at(np.array([-1e-6, 0.0, 3e-4, 4e-4])).tolist()
        [0.0, 2000000.0, 2000000.0, 0.0]
        """
        t = np.asarray(t, dtype=float)
        return np.where((t >= self.t_start) & (t < self.t_end), self.force, 0.0)


def wave_speed(young: float, density: float) -> float:
    """:math:`c = \\sqrt{E/\\rho}` (m/s).

    >>> wave_speed(2.0e11, 8000.0)
    5000.0
    """
    return math.sqrt(young / density)


def bar_on_wall(length: float, young: float, density: float, area: float, v0: float, gap: float = 0.0) -> BarImpact:
    """A bar at ``v0`` (> 0, toward the wall) hitting a rigid wall ``gap`` ahead.

    >>> r = bar_on_wall(1.0, 2.0e11, 8000.0, 0.05, 1.0)
    >>> r.duration, r.force, r.velocity_after
    (0.0004, 2000000.0, (-1.0,))
    """
    c = wave_speed(young, density)
    mass = density * area * length
    return BarImpact(gap / v0, 2.0 * length / c, young * area * v0 / c, (-v0,), 0.5 * mass * v0**2)


def two_bars(length: float, young: float, density: float, area: float, v0: float, gap: float = 0.0) -> BarImpact:
    """A bar at ``v0`` hitting an identical bar at rest ``gap`` ahead;
    ``velocity_after`` is (striker, struck).

    >>> r = two_bars(1.0, 2.0e11, 8000.0, 0.05, 1.0)
    >>> r.force, r.velocity_after
    (1000000.0, (0.0, 1.0))
    """
    c = wave_speed(young, density)
    mass = density * area * length
    return BarImpact(gap / v0, 2.0 * length / c, 0.5 * young * area * v0 / c, (0.0, v0), 0.5 * mass * v0**2)


@dataclass(frozen=True)
class BouncingBar:
    """A bar dropped from ``drop`` (m, its lower end above the ground) under gravity ``g``."""

    length: float
    young: float
    density: float
    area: float
    g: float
    drop: float

    def __post_init__(self) -> None:
        if self.velocity <= 2.0 * self.g * self.length / self.c:
            raise ValueError(
                f"bouncing bar: the arrival speed {self.velocity:.4g} m/s must exceed 2 g L / c = "
                f"{2 * self.g * self.length / self.c:.4g} m/s for the bar to leave after 2 L / c"
            )

    @property
    def c(self) -> float:
        return wave_speed(self.young, self.density)

    @property
    def velocity(self) -> float:
        """Arrival (and departure) speed :math:`\\sqrt{2 g h}` (m/s)."""
        return math.sqrt(2.0 * self.g * self.drop)

    @property
    def contact_duration(self) -> float:
        return 2.0 * self.length / self.c

    @property
    def flight(self) -> float:
        """Time between two contacts, :math:`2 v / g` (s)."""
        return 2.0 * self.velocity / self.g

    @property
    def energy(self) -> float:
        """Kinetic energy at arrival, :math:`m g h` (J, the ground as zero of potential energy)."""
        return self.density * self.area * self.length * self.g * self.drop

    def force_at(self, t: np.ndarray) -> np.ndarray:
        """The ground's force history (N): :math:`Z v + \\rho c A g (t - t_k)`
        during the k-th contact, zero in flight.

        >>> bar = BouncingBar(1.0, 9.0e7, 1000.0, 0.05, 9.81, 0.2)
        >>> t1 = bar.impact(1).t_start
        >>> bool(bar.force_at(np.array([t1 - 1e-3]))[0] == 0.0), round(float(bar.force_at(np.array([t1]))[0]), 3)
        (True, 29713.633)
        """
        t = np.asarray(t, dtype=float)
        first = self.impact(1)
        period = self.contact_duration + self.flight
        since = t - first.t_start
        k = np.floor(since / period)
        local = since - k * period
        inside = (since >= 0.0) & (local < self.contact_duration)
        growth = self.density * self.c * self.area * self.g
        return np.where(inside, first.force + growth * local, 0.0)

    def impact(self, k: int) -> BarImpact:
        """The k-th contact (k >= 1): it starts at
        :math:`\\sqrt{2h/g} + (k-1)(2L/c + 2v/g)`; force at its start :math:`Z v`."""
        v = self.velocity
        t = math.sqrt(2.0 * self.drop / self.g) + (k - 1) * (self.contact_duration + self.flight)
        force = self.young * self.area * v / self.c
        return BarImpact(t, self.contact_duration, force, (v,), self.energy)
