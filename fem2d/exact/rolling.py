r"""A rigid disc or ring released from rest on an incline with Coulomb friction.

A round rigid body of radius :math:`R`, mass :math:`m` and moment of inertia
:math:`I = k\,m R^2` about its centre (:math:`k = 1/2` a disc, :math:`k = 1` a
thin ring) is released from rest on a rigid plane inclined at :math:`\theta`,
under gravity :math:`g`, Coulomb coefficient :math:`\mu`. Rolling without
slipping needs the friction force :math:`f = k\,m g \sin\theta / (1 + k)`,
within :math:`\mu\, m g \cos\theta` when

.. math::

    \mu \ge \frac{k \tan\theta}{1 + k}.

Then the centre and the rotation accelerate uniformly with

.. math::

    a = \frac{g \sin\theta}{1 + k}, \qquad \alpha = \frac{a}{R};

otherwise the body slides and spins under the kinetic friction
:math:`\mu\, m g\cos\theta`,

.. math::

    a = g(\sin\theta - \mu\cos\theta), \qquad \alpha = \frac{\mu g \cos\theta}{k R},

and the contact point keeps slipping (:math:`a > \alpha R`) for ever. In
both cases :math:`x = a t^2/2`, :math:`v = a t`, :math:`\varphi = \alpha t^2/2`,
:math:`\omega = \alpha t`, and the kinetic energy is
:math:`m v^2/2 + k m R^2 \omega^2/2`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fem2d.errors import InputError


@dataclass(frozen=True)
class RollingMotion:
    """Motion of the round body at the requested times (SI units, rotation positive in the rolling sense).

    ``rolls`` is True when friction is enough to roll without slipping;
    ``distance`` (m) and ``velocity`` (m/s) are the centre's along the slope,
    ``rotation`` (rad) and ``angular_velocity`` (rad/s) the body's,
    ``kinetic_energy`` (J) translational plus rotational, ``acceleration``
    (m/s^2) and ``angular_acceleration`` (rad/s^2) constant in time.
    """

    rolls: bool
    distance: np.ndarray | float
    velocity: np.ndarray | float
    rotation: np.ndarray | float
    angular_velocity: np.ndarray | float
    kinetic_energy: np.ndarray | float
    acceleration: float
    angular_acceleration: float


def _check(angle: float, mu: float, radius: float, g: float, inertia_ratio: float) -> None:
    if not 0.0 < angle < 0.5 * np.pi:
        raise InputError(f"incline angle {angle!r} rad: expected 0 < angle < pi/2")
    if not mu >= 0.0:
        raise InputError(f"friction coefficient mu {mu!r}: expected mu >= 0")
    if not radius > 0.0:
        raise InputError(f"radius {radius!r}: expected a positive radius (m)")
    if not g > 0.0:
        raise InputError(f"gravity g {g!r}: expected a positive acceleration (m/s^2)")
    if not inertia_ratio > 0.0:
        raise InputError(f"inertia_ratio {inertia_ratio!r}: expected I/(m R^2) > 0 (1/2 a disc, 1 a ring)")


def _accelerations(angle: float, mu: float, radius: float, g: float, k: float) -> tuple[bool, float, float]:
    """(rolls, a, alpha) of the body; see the module's equations."""
    _check(angle, mu, radius, g, k)
    rolls = bool(mu >= k * np.tan(angle) / (1.0 + k))
    if rolls:
        a = g * np.sin(angle) / (1.0 + k)
        return rolls, float(a), float(a / radius)
    a = g * (np.sin(angle) - mu * np.cos(angle))
    return rolls, float(a), float(mu * g * np.cos(angle) / (k * radius))


def _scalar_or_array(x: np.ndarray) -> np.ndarray | float:
    return float(x) if x.ndim == 0 else x


def rolling_on_incline(
    t, angle: float, mu: float, radius: float, g: float = 9.81, inertia_ratio: float = 0.5, mass: float = 1.0
) -> RollingMotion:
    r"""Motion at times ``t`` (s, scalar or array, >= 0) of a round body released from rest at t = 0.

    Rolls when :math:`\mu \ge k\tan\theta/(1+k)` with :math:`a = g\sin\theta/(1+k)`,
    :math:`\alpha = a/R`; else slides with :math:`a = g(\sin\theta - \mu\cos\theta)`,
    :math:`\alpha = \mu g\cos\theta/(kR)`; :math:`x = a t^2/2`, :math:`\varphi = \alpha t^2/2`,
    :math:`E_k = m v^2/2 + k m R^2\omega^2/2` (:math:`k` = ``inertia_ratio``).

    A disc on a 30 degree slope rolls when :math:`\mu \ge \tan 30^\circ/3 = 0.19245`,
    its centre accelerating at :math:`g/3`:

    >>> m = rolling_on_incline(1.0, np.radians(30.0), 0.3, 0.1, g=9.81)
    >>> m.rolls, round(m.acceleration, 12), round(m.distance, 12), round(m.rotation, 12)
    (True, 3.27, 1.635, 16.35)

    With :math:`\mu = 0.1` it slides: :math:`a = 10(0.5 - 0.1\cos 30^\circ)`,
    :math:`\alpha = 0.1 \cdot 10\cos 30^\circ / (0.5 \cdot 0.1)`:

    >>> s = rolling_on_incline(1.0, np.radians(30.0), 0.1, 0.1, g=10.0)
    >>> s.rolls, round(s.acceleration, 6), round(s.angular_acceleration, 6)
    (False, 4.133975, 17.320508)
    """
    rolls, a, alpha = _accelerations(angle, mu, radius, g, inertia_ratio)
    if not mass > 0.0:
        raise InputError(f"mass {mass!r}: expected a positive mass (kg)")
    t = np.asarray(t, dtype=float)
    if np.any(t < 0.0):
        raise InputError("times before the release (t < 0): the body is released from rest at t = 0")
    v, omega = a * t, alpha * t
    energy = 0.5 * mass * v**2 + 0.5 * inertia_ratio * mass * radius**2 * omega**2
    return RollingMotion(
        rolls=rolls,
        distance=_scalar_or_array(0.5 * a * t**2),
        velocity=_scalar_or_array(v),
        rotation=_scalar_or_array(0.5 * alpha * t**2),
        angular_velocity=_scalar_or_array(omega),
        kinetic_energy=_scalar_or_array(energy),
        acceleration=a,
        angular_acceleration=alpha,
    )


def time_to_rotation(
    rotation: float, angle: float, mu: float, radius: float, g: float = 9.81, inertia_ratio: float = 0.5
) -> float:
    r"""Time (s) at which the body released from rest has turned by ``rotation`` (rad, >= 0):
    :math:`t = \sqrt{2\varphi/\alpha}`.

    Two revolutions of a disc of radius 0.1 m rolling down a 30 degree slope
    (:math:`\alpha = g/(3R)`, :math:`t = \sqrt{24\pi R/g}`):

    >>> round(time_to_rotation(4 * np.pi, np.radians(30.0), 0.5, 0.1, g=9.81), 9)
    0.876690001
    """
    _, _, alpha = _accelerations(angle, mu, radius, g, inertia_ratio)
    if not rotation >= 0.0:
        raise InputError(f"rotation {rotation!r} rad: expected a rotation >= 0")
    return float(np.sqrt(2.0 * rotation / alpha))
