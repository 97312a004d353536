r"""The exact motion of a round body released on an incline, for a run's own settings.

The incline is gravity tilted over a horizontal rigid support, as in the block on
the incline: the loads' resultant gives the slope and gravity,
:math:`\tan\theta = F_t / F_n`, :math:`g = \sqrt{F_t^2 + F_n^2} / m`. The body is
reduced to its rigid motion on the run's own mesh and mass matrix: its mass
:math:`m = \mathbf t_x^T M \mathbf t_x`, its centre of mass, its moment of inertia
about it :math:`I = \mathbf r^T M \mathbf r` (:math:`\mathbf r` the rigid rotation
field about the centre) and its radius :math:`R`, the height of the centre above the
support, which every node of the slave surface must be at from the centre (a round
body). Then :func:`fem2d.exact.rolling.rolling_on_incline` gives the motion with
:math:`k = I / (m R^2)`: rolling without slipping when
:math:`\mu \ge k \tan\theta / (1 + k)`, slipping otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from fem2d.case.fields import tables_of
from fem2d.case.loading import Case
from fem2d.case.references import ExactReference, NoExactSolution

if TYPE_CHECKING:
    from fem2d.model.system import System

#: How far (relative to the radius) a slave node may be from the circle about the centre of mass.
ROUNDNESS = 1e-6


@dataclass(frozen=True)
class Motion:
    """The rigid motion at some instants: whether it rolls, the distance (m), the velocity
    (m/s), the rotation (rad, in the rolling sense) and the kinetic energy (J)."""

    rolls: bool
    distance: np.ndarray
    velocity: np.ndarray
    rotation: np.ndarray
    kinetic_energy: np.ndarray


def ramped_motion(t: np.ndarray, t_ramp: float, unit, mass: float, inertia: float) -> Motion:
    r"""The motion under a load that grows linearly from 0 at t = 0 to its full value at
    ``t_ramp``, then stays: the accelerations of the full load (``unit``, a
    :class:`~fem2d.exact.rolling.RollingMotion`: whether it rolls or slips does not depend on
    the load's size) times the load factor, so that the velocity and the distance are the
    accelerations times

    .. math::

        V(t) = \frac{t^2}{2 t_r}, \quad S(t) = \frac{t^3}{6 t_r} \quad (t \le t_r), \qquad
        V(t) = t - \frac{t_r}{2}, \quad S(t) = \frac12 \Big(t - \frac{t_r}{2}\Big)^2 + \frac{t_r^2}{24}
        \quad (t \ge t_r).

    >>> from fem2d.exact.rolling import rolling_on_incline
    >>> unit = rolling_on_incline(1.0, np.pi / 6, 0.5, 0.1, 9.81, 0.5, 2.0)
    >>> m = ramped_motion(np.array([0.05, 1.0]), 0.0, unit, 2.0, 0.5 * 2.0 * 0.01)
    >>> bool(np.allclose(m.distance, rolling_on_incline(np.array([0.05, 1.0]), np.pi / 6, 0.5, 0.1).distance))
    True
    """
    t = np.asarray(t, dtype=float)
    if t_ramp > 0.0:
        early = t <= t_ramp
        V = np.where(early, t * t / (2.0 * t_ramp), t - 0.5 * t_ramp)
        S = np.where(early, t**3 / (6.0 * t_ramp), 0.5 * (t - 0.5 * t_ramp) ** 2 + t_ramp**2 / 24.0)
    else:
        V, S = t, 0.5 * t * t
    v, w = unit.acceleration * V, unit.angular_acceleration * V
    return Motion(bool(unit.rolls), unit.acceleration * S, v, unit.angular_acceleration * S,
                  0.5 * mass * v * v + 0.5 * inertia * w * w)


def round_body_on_incline(case: Case, system: System) -> ExactReference:
    r"""A round body (a disc, a ring) released from rest on an incline (see the module
    docstring). Quantities, at each of ``report.at_times``: ``x_at_T`` of the reported
    DX when it is that of the body's centre (the distance travelled down the slope, m);
    for the body's group in ``report.bodies``: ``G_rotation_at_T`` (rad,
    counter-clockwise positive: a body rolling towards +x turns clockwise),
    ``G_kinetic_at_T`` (J), ``G_velocity_x_at_T`` (m/s). The curve is the centre's x(t).
    """
    from fem2d.exact.rolling import rolling_on_incline
    from fem2d.post.extrema import time_label

    zones = tables_of(case.settings["contact"])
    if len(system.zones) != 1 or len(zones) != 1:
        raise NoExactSolution("the round body needs exactly one contact zone")
    plane = zones[0].get("plane")
    if plane is None:
        raise NoExactSolution("the round body needs a rigid plane as its master")
    nx, ny = plane["normal"]
    if not (ny > 0.0 and abs(nx) <= 1e-12 * ny) or any(plane["displacement"]):
        raise NoExactSolution("the rigid plane is not a fixed horizontal support below the body")
    if system.initial_velocity is not None and np.any(system.initial_velocity):
        raise NoExactSolution("the body does not start at rest")
    if len(system.fixed_values) and np.any(system.fixed_values) or system.motions:
        raise NoExactSolution("prescribed displacements")
    bodies = case.settings["materials"]
    if len(bodies) != 1:
        raise NoExactSolution(f"the model needs one body, the case has {len(bodies)}")
    group = bodies[0]["group"]
    mesh = system.mesh
    nodes = np.unique(mesh.group(group).nodes)
    free = np.zeros(system.n_dofs, dtype=bool)
    free[system.free] = True
    if not (free[2 * nodes].all() and free[2 * nodes + 1].all()):
        raise NoExactSolution("a node of the body is held")
    tx, ty = np.zeros(system.n_dofs), np.zeros(system.n_dofs)
    tx[2 * nodes], ty[2 * nodes + 1] = 1.0, 1.0
    mass = float(tx @ (system.M @ tx))
    if mass <= 0.0:
        raise NoExactSolution("the body has no mass")
    x, y = np.zeros(system.n_dofs), np.zeros(system.n_dofs)
    x[2 * nodes], y[2 * nodes + 1] = mesh.points[nodes, 0], mesh.points[nodes, 1]
    centre = np.array([float(tx @ (system.M @ x)), float(ty @ (system.M @ y))]) / mass
    rotation = np.zeros(system.n_dofs)  # the rigid rotation field about the centre, 1 rad
    rotation[2 * nodes] = -(mesh.points[nodes, 1] - centre[1])
    rotation[2 * nodes + 1] = mesh.points[nodes, 0] - centre[0]
    inertia = float(rotation @ (system.M @ rotation))
    radius = centre[1] - float(plane["point"][1])
    slave = mesh.points[np.unique(mesh.group(zones[0]["slave"]).nodes)]
    if radius <= 0.0 or np.max(np.abs(np.linalg.norm(slave - centre, axis=1) - radius)) > ROUNDNESS * radius:
        raise NoExactSolution("the slave surface is not a circle about the centre of mass touching the plane")
    ft = sum(float(tx @ load.vector) for load in system.loads)
    fn = -sum(float(ty @ load.vector) for load in system.loads)
    if fn <= 0.0:
        raise NoExactSolution("the loads do not press the body on the support")
    from fem2d.case.exact_models import _common_function, _ramp

    ramp_t, ramp_r = _ramp(_common_function(system, [tx, ty]))
    if ramp_r == (1.0,):
        t_ramp = 0.0
    elif len(ramp_t) == 2 and ramp_r == (0.0, 1.0):
        t_ramp = ramp_t[1]
    else:
        raise NoExactSolution("the load factor is neither constant 1 nor a linear ramp from 0 to 1")
    sign = 1.0 if ft >= 0.0 else -1.0
    gravity, theta = float(np.hypot(ft, fn) / mass), float(np.arctan2(abs(ft), fn))
    mu, ratio = float(zones[0]["mu"]), inertia / (mass * radius * radius)

    def motion(t):
        return ramped_motion(np.asarray(t, dtype=float), t_ramp, rolling_on_incline(
            1.0, theta, mu, radius, gravity, ratio, mass), mass, ratio * mass * radius * radius)

    t_end = case.get("time.end")
    times = [t for t in case.get("report.at_times") if t <= t_end]
    values: dict[str, float] = {}
    reported = case.get("report.node")
    centre_reported = False
    if reported is not None and case.get("report.component") == "dx":
        node = mesh.group_nodes(reported)
        centre_reported = len(node) == 1 and np.linalg.norm(mesh.points[node[0]] - centre) <= ROUNDNESS * radius
    for t in times:
        m = motion(t)
        label = time_label(t)
        if centre_reported:
            values[f"x_at_{label}"] = sign * float(m.distance)
        if group in case.get("report.bodies"):
            values[f"{group}_rotation_at_{label}"] = -sign * float(m.rotation)
            values[f"{group}_kinetic_at_{label}"] = float(m.kinetic_energy)
            values[f"{group}_velocity_x_at_{label}"] = sign * float(m.velocity)

    def curve(t: np.ndarray) -> np.ndarray:
        return sign * np.asarray(motion(t).distance, dtype=float)

    how = "rolls" if motion(1.0).rolls else "slips"
    source = (f"exact: round body on a {np.degrees(theta):.6g} degree incline ({how}), g={gravity:.6g} mu={mu:g}, "
              f"R={radius:.6g} m, I/(m R^2)={ratio:.6g}" + (f", {t_ramp:g} s ramp" if t_ramp else ""))
    params = {"gravity": gravity, "theta": theta, "mu": mu, "radius": radius, "inertia_ratio": ratio, "mass": mass,
              "t_ramp": t_ramp}
    return ExactReference(source, values.get, curve if centre_reported else None, "exact round body on the incline",
                          params)
