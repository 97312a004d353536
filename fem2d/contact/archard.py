r"""Archard wear of a contact zone integrated over the accepted steps of a run.

Per slave node :math:`j`, with :math:`F_j` its normal force (N), :math:`w_j`
its tributary weight :math:`\int \phi_j\, d\Gamma` (m; ring area m^2 on an
axisymmetric zone, :func:`fem2d.contact.kinematics.slave_weights`) and
:math:`\Delta s_j` its tangential slip over the step (m), a step of length
:math:`\Delta t` wears

.. math::

    \Delta h_j = a\, k\, p_j\, |v_{t,j}|\, \Delta t = a\, k\, \frac{F_j}{w_j}\, |\Delta s_j|

(:math:`k` the coefficient, :math:`a` the acceleration; the end-of-step
pressure, the step's slip: the implicit rule of the friction dissipation).
The worn area is :math:`A = \sum_j w_j h_j` (m^2 per unit thickness; m^3 on
an axisymmetric zone) and the Archard power of the step
:math:`\sum_j F_j |\Delta s_j| / \Delta t` (W per unit thickness; its mean
over the run is code_aster's wear power :math:`\overline{|F_n v_t|}` of the
zone). With ``update``, :attr:`ZoneWear.offset` is the depth the next steps
add to the slave gaps (:class:`~fem2d.contact.problem.CondensedProblem`).

Nothing is global: a :class:`ZoneWear` belongs to the contact coupling of
one run.
"""

from __future__ import annotations

import numpy as np

from fem2d.contact.kinematics import slave_weights
from fem2d.contact.problem import ContactZone
from fem2d.contact.wear_gain import UpdateGain
from fem2d.model.wear import Wear


def archard_increment(
    coefficient: float, normal_force: np.ndarray, weight: np.ndarray, slip: np.ndarray, acceleration: float = 1.0
) -> np.ndarray:
    r"""The worn depth of one step per node,
    :math:`\Delta h_j = a\, k\, (F_j / w_j)\, |\Delta s_j|` (m), zero where
    :math:`w_j = 0` or the node pulls (:math:`F_j \le 0`).

    A 2 mm wide node pressed by 200 N per metre (a pressure of 100 kPa) that
    slides 1 mm with :math:`k = 10^{-10}` /Pa wears 1e-8 m, ten times that with
    the acceleration 10:

    >>> archard_increment(1e-10, np.array([200.0, -5.0]), np.array([2e-3, 2e-3]), np.array([-1e-3, 1e-3]), 10.0)
    array([1.e-07, 0.e+00])
    """
    weight = np.asarray(weight, dtype=float)
    safe = np.where(weight > 0.0, weight, 1.0)
    pressure = np.where(weight > 0.0, np.maximum(np.asarray(normal_force, dtype=float), 0.0) / safe, 0.0)
    return acceleration * coefficient * pressure * np.abs(np.asarray(slip, dtype=float))


class ZoneWear:
    """The worn depth of one zone's slave surface and its record over the run.

    ``depth`` (n_slave,) is the accumulated worn depth (m); :meth:`on_step`
    adds the accepted step's increment and records, per step, the time,
    the largest depth, the worn area, the Archard power and, with ``update``,
    the gain of the explicit update (:mod:`fem2d.contact.wear_gain`, kept in
    :attr:`gain`; 0 without ``update``).
    """

    def __init__(self, zone: ContactZone, wear: Wear) -> None:
        self.zone = zone
        self.wear = wear
        self.weight = np.asarray(slave_weights(zone), dtype=float)
        self.depth = np.zeros(zone.n_slave)
        self.depth.flags.writeable = False
        self.energy = 0.0  # sum of F |ds| (J per unit thickness), for the mean power
        self.duration = 0.0
        #: the gain of the update (None without ``update``: nothing is fed back)
        self.gain = UpdateGain() if wear.update else None
        self._rows: list[tuple[float, ...]] = [(0.0, 0.0, 0.0, 0.0, 0.0)]
        self._depths: list[np.ndarray] = [self.depth]

    @property
    def offset(self) -> np.ndarray | None:
        """The depth the gaps add (read-only: a new array every step), None without ``update``."""
        return self.depth if self.wear.update else None

    def start(self, t: float) -> None:
        """Set the time of the first record (the run's start)."""
        self._rows[0] = (float(t), 0.0, 0.0, 0.0, 0.0)

    def rates(self, slip: np.ndarray) -> np.ndarray:
        """:math:`D_j = a\\, k\\, |\\Delta s_j| / w_j` (m/N) of a step's slip: its depth per
        normal force (0 where :math:`w_j = 0`)."""
        safe = np.where(self.weight > 0.0, self.weight, 1.0)
        rate = self.wear.acceleration * self.wear.coefficient * np.abs(np.asarray(slip, dtype=float)) / safe
        return np.where(self.weight > 0.0, rate, 0.0)

    def on_step(self, t: float, dt: float, normal_force: np.ndarray, slip: np.ndarray,
                compliance: np.ndarray | None = None, make_delassus=None) -> float:
        """Add the wear of an accepted step ending at ``t`` of length ``dt`` (s); with the
        step's ``compliance`` and ``make_delassus`` (its normal Delassus, m/N, made on demand),
        the gain of the update (:class:`~fem2d.contact.wear_gain.UpdateGain`), returned."""
        self.depth = self.depth + archard_increment(self.wear.coefficient, normal_force, self.weight, slip,
                                                    self.wear.acceleration)
        self.depth.flags.writeable = False
        gain = 0.0
        if self.gain is not None and compliance is not None:
            active = (np.asarray(normal_force) > 0.0) & (self.weight > 0.0)
            gain = self.gain.on_step(t, self.rates(slip), active, compliance, make_delassus)
        work = float(np.sum(np.maximum(normal_force, 0.0) * np.abs(slip)))
        self.energy += work
        self.duration += dt
        self._rows.append((float(t), float(self.depth.max(initial=0.0)), self.worn_area,
                           work / dt if dt > 0.0 else 0.0, gain))
        self._depths.append(self.depth)
        return gain

    @property
    def worn_area(self) -> float:
        """:math:`\\sum_j w_j h_j`: m^2 per unit thickness, m^3 on an axisymmetric zone."""
        return float(self.weight @ self.depth)

    @property
    def mean_power(self) -> float:
        """The mean Archard power :math:`\\sum F |\\Delta s| / T` over the run (W per unit thickness)."""
        return self.energy / self.duration if self.duration > 0.0 else 0.0

    def series(self) -> dict[str, np.ndarray]:
        """Per record (the start, then every accepted step): ``time``, ``max_depth`` (m),
        ``worn_area``, ``power`` (W per unit thickness over the step ending there), ``gain``
        (of the update over that step) and ``depth`` (n_records, n_slave), m."""
        table = np.array(self._rows, dtype=float).reshape(-1, 5)
        names = ("time", "max_depth", "worn_area", "power", "gain")
        out = {name: table[:, k].copy() for k, name in enumerate(names)}
        out["depth"] = np.vstack(self._depths)
        return out
