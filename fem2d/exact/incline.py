r"""A rigid block on an incline with Coulomb friction.

A block of any mass on a plane inclined at :math:`\theta` under gravity
:math:`g`, Coulomb coefficient :math:`\mu`, the weight applied with a load
factor :math:`r(t)` (a linear ramp from 0 at t = 0 to 1 at :math:`t_r`, then
1). The ratio of the tangential to the normal load is :math:`\tan\theta` at
every instant, so the block either slides from the start (:math:`\tan\theta >
\mu`) with

.. math::

    \ddot x = a\, r(t), \qquad a = g(\sin\theta - \mu\cos\theta),

or never moves (:math:`\tan\theta \le \mu`). Integrating the ramp twice,

.. math::

    x(t) = a \begin{cases} t^3 / (6 t_r) & t \le t_r \\
    t^2/2 - t_r t/2 + t_r^2/6 & t \ge t_r \end{cases}

and :math:`v = a\,(t - t_r/2)` after the ramp. In a case the incline is
gravity tilted by :math:`\theta` over a horizontal support: the body force
:math:`\rho g (\sin\theta, -\cos\theta)`.
"""

from __future__ import annotations

import numpy as np


def incline_acceleration(gravity: float, theta: float, mu: float) -> float:
    r"""Sliding acceleration :math:`g(\sin\theta - \mu\cos\theta)` (m/s^2), 0 when stuck.

    >>> round(incline_acceleration(9.81, np.radians(30.0), 0.3), 6)  # 9.81 (0.5 - 0.3 * 0.866025)
    2.356287
    >>> incline_acceleration(9.81, np.radians(10.0), 0.3)
    0.0
    """
    a = gravity * (np.sin(theta) - mu * np.cos(theta))
    return float(a) if np.tan(theta) > mu else 0.0


def incline_displacement(t, gravity: float, theta: float, mu: float, t_ramp: float = 0.0) -> np.ndarray:
    """Distance slid down the slope at times ``t`` (m), loads ramped over ``t_ramp`` s.

    >>> float(incline_displacement(1.0, 10.0, np.radians(45.0), 0.0))  # free fall along the slope
    3.5355339059327373
    """
    t = np.asarray(t, dtype=float)
    a = incline_acceleration(gravity, theta, mu)
    if t_ramp <= 0.0:
        return a * 0.5 * t**2
    early = t**3 / (6.0 * t_ramp)
    late = 0.5 * t**2 - 0.5 * t_ramp * t + t_ramp**2 / 6.0
    return a * np.where(t <= t_ramp, early, late)


def incline_velocity(t, gravity: float, theta: float, mu: float, t_ramp: float = 0.0) -> np.ndarray:
    """Sliding speed at times ``t`` (m/s)."""
    t = np.asarray(t, dtype=float)
    a = incline_acceleration(gravity, theta, mu)
    if t_ramp <= 0.0:
        return a * t
    return a * np.where(t <= t_ramp, t**2 / (2.0 * t_ramp), t - 0.5 * t_ramp)
