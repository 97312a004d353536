r"""Archard wear of a contact zone's surface, computed inside a direct run.

Archard's law: the worn depth :math:`h` (m) of a point of the surface grows as

.. math::

    \dot h = k\, p\, |v_t|,

with :math:`p` the contact pressure (Pa), :math:`|v_t|` the sliding speed
(m/s) and :math:`k` the ``coefficient`` (Archard's dimensionless wear
coefficient over the hardness, m^2/N = 1/Pa). The worn area (per unit
thickness, m^2; on an axisymmetric zone the worn volume, m^3) is
:math:`\int_{\Gamma_s} h\, d\Gamma` (with :math:`2\pi r`). The law needs
slip, not friction: a frictionless zone wears too.

With ``update`` the worn depth moves the surface by :math:`h` along its
normal: it enters the normal gap, :math:`g_j + h_j`, inside the contact
iterations, so the pressure redistributes as the surface wears. The depth
must stay small against the size of the contact elements (the mesh does not
move; the surface's normal and its integration weights are the unworn ones).

``acceleration`` multiplies the wear of every step (the cycle-jump
technique: a run of :math:`T` s wears as :math:`a T` s of rubbing would). It
is exact for a steady problem (the depth grows linearly in time) and scales
the error of a problem whose pressure redistributes by the step
:math:`a\,\Delta t` of the wear's own evolution.

>>> Wear(coefficient=1e-13).update, Wear(1e-13, surface="slave", acceleration=10.0).acceleration
(True, 10.0)
>>> Wear(coefficient=-1.0)
Traceback (most recent call last):
...
fem2d.errors.ModelError: Wear.coefficient: expected a finite wear coefficient >= 0 (1/Pa), got -1.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from fem2d.errors import ModelError, expect_real

#: the surfaces that may wear
SURFACES = ("slave", "master", "both")


@dataclass(frozen=True)
class Wear:
    """Archard wear of a contact zone (see the module docstring).

    Parameters
    ----------
    coefficient : float
        :math:`k` of :math:`\\dot h = k\\, p\\, |v_t|`, 1/Pa (m^2/N), finite, >= 0.
    surface : str
        Which surface wears: ``"slave"`` (computed), ``"master"`` or ``"both"`` (a rigid
        master does not wear).
    update : bool
        Feed the worn depth back into the normal gap (default True).
    acceleration : float
        Factor (>= 1) on the wear of every step (cycle jump).
    """

    coefficient: float
    surface: str = "slave"
    update: bool = True
    acceleration: float = 1.0

    def __post_init__(self) -> None:
        k = expect_real(self, "coefficient", self.coefficient, "a finite wear coefficient >= 0 (1/Pa)")
        if not (math.isfinite(k) and k >= 0.0):
            raise ModelError(self, "coefficient", f"expected a finite wear coefficient >= 0 (1/Pa), got {k!r}")
        a = expect_real(self, "acceleration", self.acceleration, "a finite factor >= 1")
        if not (math.isfinite(a) and a >= 1.0):
            raise ModelError(self, "acceleration", f"expected a finite factor >= 1, got {a!r}")
        if self.surface not in SURFACES:
            raise ModelError(self, "surface", f"expected one of {', '.join(SURFACES)}, got {self.surface!r}")
        if not isinstance(self.update, bool):
            raise ModelError(self, "update", f"expected true or false, got {self.update!r}")
        object.__setattr__(self, "coefficient", float(k))
        object.__setattr__(self, "acceleration", float(a))

    @property
    def slave(self) -> bool:
        """Whether the slave surface wears."""
        return self.surface in ("slave", "both")

    @property
    def master(self) -> bool:
        """Whether the master surface wears."""
        return self.surface in ("master", "both")
