r"""Hertz line contact: an elastic cylinder (a disc in plane strain) pressed on a rigid plane.

A line load :math:`P` (N per unit length) presses a cylinder of radius
:math:`R` on a rigid plane. For :math:`a \ll R` (Hertz 1882; Johnson,
*Contact Mechanics*, 1985, section 4.3) the contact strip is
:math:`|x| \le a` with

.. math::

    a = \sqrt{\frac{4 P R}{\pi E^*}}, \qquad
    p(x) = p_0 \sqrt{1 - x^2/a^2}, \qquad p_0 = \frac{2 P}{\pi a},

and :math:`E^* = E / (1 - \nu^2)` against a rigid plane in plane strain
(:math:`E^* = E` in plane stress, the thin-plate counterpart).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class HertzLineContact:
    """A cylinder of radius ``R`` (m) and material (``E`` Pa, ``nu``) pressed
    on a rigid plane by the line load ``P`` (N/m).

    >>> h = HertzLineContact(P=1.0e6, R=0.05, E=2.1e11, nu=0.3)
    >>> round(h.half_width * 1e3, 6), round(h.peak_pressure / 1e6, 3)
    (0.525232, 1212.074)
    """

    P: float
    R: float
    E: float
    nu: float
    plane_strain: bool = True

    @property
    def effective_modulus(self) -> float:
        """:math:`E^*` (Pa)."""
        return self.E / (1.0 - self.nu**2) if self.plane_strain else self.E

    @property
    def half_width(self) -> float:
        """:math:`a = \\sqrt{4 P R / (\\pi E^*)}` (m)."""
        return math.sqrt(4.0 * self.P * self.R / (math.pi * self.effective_modulus))

    @property
    def peak_pressure(self) -> float:
        """:math:`p_0 = 2 P / (\\pi a)` (Pa)."""
        return 2.0 * self.P / (math.pi * self.half_width)

    def pressure(self, x: np.ndarray) -> np.ndarray:
        """:math:`p_0 \\sqrt{1 - x^2/a^2}` inside the strip, 0 outside (Pa), x from its centre."""
        ratio = np.asarray(x, dtype=float) / self.half_width
        return self.peak_pressure * np.sqrt(np.clip(1.0 - ratio**2, 0.0, None))
