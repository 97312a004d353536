r"""Rigid analytic obstacles as contact masters.

A rigid plane (a line in 2D) through a point :math:`x_0` with outward unit
normal :math:`n` is the master the contact search already understands: one
straight segment through :math:`x_0` along the tangent :math:`\tau = (-n_y, n_x)`,

.. math::

    x_a = x_0 - L\,\tau, \qquad x_b = x_0 + L\,\tau,

oriented so that the obstacle lies on the left of it (the outward normal of
the search, :math:`(\tau_y, -\tau_x)`, is :math:`n`). On a straight segment
the search's gap :math:`g = n\cdot(x - x_m)` is the exact signed distance to
the plane, so nothing is approximated as long as the slave points project
inside the segment: :math:`L` is taken much larger than the model. Its two
end nodes are prescribed (a rigid obstacle has no dofs of its own): fixed,
or moving together with a displacement history, which moves the plane
rigidly. The contact formulations are unchanged.
"""

from __future__ import annotations

import numpy as np

from fem2d.errors import InputError


def plane_segment(point, normal, extent: float) -> np.ndarray:
    """The two end points (2, 2) of the segment that stands for the plane.

    >>> plane_segment([0.0, 0.0], [0.0, 2.0], 10.0).tolist()
    [[10.0, 0.0], [-10.0, 0.0]]
    """
    x0 = np.asarray(point, dtype=float)
    n = np.asarray(normal, dtype=float)
    length = float(np.hypot(*n))
    if not length > 0.0:
        raise InputError(f"plane normal must be a non-zero vector, got {list(n)}")
    n = n / length
    tau = np.array([-n[1], n[0]])
    return np.array([x0 - extent * tau, x0 + extent * tau])


def plane_extent(points: np.ndarray) -> float:
    """Half-length of a plane's segment: 100 times the model's size (m)."""
    span = np.ptp(points, axis=0) if len(points) else np.zeros(2)
    return 100.0 * max(float(np.hypot(*span)), 1.0)
