r"""The measurement behind the rolling disc's settings: how far an elastic disc on an incline is
from the rigid disc, and why.

The rigid disc that slips turns under the friction torque :math:`\mu N R`. The elastic disc of
``cases/rolling_disc.toml`` turns under the moment of its contact forces about its centre of
mass, which this script splits in two (:func:`contact_torque`): the friction's, whose lever arm
is the height of the centre above the plane, :math:`R - \delta` (:math:`\delta` the sink of the
centre, the disc's indentation), and the normal forces', non-zero when their centre lies off
the vertical through the centre of mass (the rim, a polygon of nodes to node-to-plane
contact). It also says how much of the time no rim node touches (the disc hops), and checks
that the disc's angular momentum is the time integral of that moment.

Prints, for each setting, the relative errors against the rigid disc at 0.95 s (distance,
rotation, kinetic energy) and 0.30 s (rotation), the two torques relative to the friction force
times R, the sink, the share of the time without contact and the run's wall time::

    PYTHONPATH=$PWD python benchmarks/rolling_disc_torque.py
"""

from __future__ import annotations

import time

import numpy as np

import fem2d


def contact_torque(result) -> dict[str, np.ndarray | float]:
    r"""The moments of the contact forces on the disc of a ``rolling_disc`` run made with
    ``report.snapshots = 1``, at every step.

    With :math:`x_i`, :math:`y_i` the deformed positions of the slave nodes, :math:`f^n_i`
    (along +y) and :math:`f^t_i` (along x) their contact forces and :math:`(x_c, y_c)` the
    centre of mass, :math:`x_c = \mathbf t_x^T M \mathbf x / m`:

    .. math::

        M_f = -\sum_i (y_i - y_c)\, f^t_i, \qquad M_n = \sum_i (x_i - x_c)\, f^n_i,

    the friction's and the normal forces' moments (counter-clockwise positive). The disc's
    angular momentum about its centre of mass,

    .. math::

        L = \sum_j \big((x_j - x_c)\,(M v)_{y,j} - (y_j - y_c)\,(M v)_{x,j}\big),

    with the velocities :math:`v` the central differences of the snapshots (one-sided at the
    first and the last record), is :math:`\int_0^t (M_f + M_n)\,dt` (gravity acts at the
    centre of mass): ``impulse``.

    Returns the arrays ``time``, ``friction``, ``normal`` (the sums of the forces),
    ``moment_friction``, ``moment_normal``, ``angular_momentum``, ``impulse``, ``centre_y``,
    ``active`` (the number of rim nodes touching), and ``radius`` (m).

    >>> import math
    >>> r = fem2d.run("rolling_disc", {"contact.mu": 0.1, "time.end": 0.1, "report.snapshots": 1,
    ...                                "report.at_times": [0.1]})
    >>> m = contact_torque(r)
    >>> math.isclose(m["angular_momentum"][-2], m["impulse"][-2], rel_tol=2e-3)
    True
    """
    system, snapshots, h = result.fields.system, result.fields.snapshots, result.histories
    mesh, M, n = system.mesh, system.M, system.n_dofs
    nodes = np.unique(mesh.group("DISC").nodes)
    tx, ty = np.zeros(n), np.zeros(n)
    tx[2 * nodes], ty[2 * nodes + 1] = 1.0, 1.0
    mass = float(tx @ (M @ tx))
    reference = mesh.points.ravel()  # x0, y0, x1, y1, ...
    t, rows = snapshots.time, snapshots.row
    position = reference[None, :] + snapshots.u
    xc, yc = position @ (M @ tx) / mass, position @ (M @ ty) / mass
    slave = np.asarray(system.zones[0].slave_nodes)
    fn, ft = h["slave_normal_force"][rows], h["slave_tangential_force"][rows]
    moment_f = -np.sum((position[:, 2 * slave + 1] - yc[:, None]) * ft, axis=1)
    moment_n = np.sum((position[:, 2 * slave] - xc[:, None]) * fn, axis=1)
    momentum = (M @ np.gradient(position, t, axis=0).T).T
    rx, ry = position[:, 0::2] - xc[:, None], position[:, 1::2] - yc[:, None]
    angular = np.sum(rx * momentum[:, 1::2] - ry * momentum[:, 0::2], axis=1)
    total = moment_f + moment_n
    impulse = np.concatenate([[0.0], np.cumsum(0.5 * (total[1:] + total[:-1]) * np.diff(t))])
    return {"time": t, "friction": ft.sum(axis=1), "normal": fn.sum(axis=1), "moment_friction": moment_f,
            "moment_normal": moment_n, "angular_momentum": angular, "impulse": impulse, "centre_y": yc,
            "active": h["n_active"][rows], "radius": float(mesh.points[mesh.group_nodes("CENTRE")[0], 1])}


def measure(settings: dict, after: float = 0.06) -> dict[str, float]:
    """One run of ``rolling_disc`` with ``settings``: its relative errors against the rigid disc
    (signed: negative when short), and, as time means after ``after`` s (the ramp and the
    landing), the friction's lever arm ``M_f / (F_t R)``, the normal forces' moment
    ``M_n / (F_t R)`` (negative: against the rotation), the sink of the centre of mass over R,
    the share of the records without a touching rim node, and the wall time (s)."""
    start = time.perf_counter()
    result = fem2d.run("rolling_disc", {**settings, "report.snapshots": 1})
    wall = time.perf_counter() - start
    m = contact_torque(result)
    late, R = m["time"] > after, m["radius"]
    friction = -np.sum(m["friction"][late]) * R  # the friction torque's size, had it acted at R
    out = {f"{c['quantity']}": float(np.sign(c["reference"]) * (c["value"] - c["reference"]) / abs(c["reference"]))
           for c in result.checks}
    out.update(lever=float(-np.sum(m["moment_friction"][late]) / friction),
               normal_moment=float(-np.sum(m["moment_normal"][late]) / friction),
               sink=float(1.0 - np.mean(m["centre_y"][late]) / R),
               no_contact=float(np.mean(m["active"][late] == 0)), wall=wall)
    return out


SETTINGS = (
    ("1 MPa, 64 rim nodes, dt 2e-3", {"materials.0.E": 1.0e6, "mesh.params.cells": 8, "mesh.params.rings": 4,
                                      "time.dt": 2.0e-3}),
    ("2 MPa, 64 rim nodes, dt 2e-3", {"materials.0.E": 2.0e6, "mesh.params.cells": 8, "mesh.params.rings": 4,
                                      "time.dt": 2.0e-3}),
    ("1 MPa, 128 rim nodes", {"materials.0.E": 1.0e6}),
    ("3 MPa, 128 rim nodes (the case)", {}),
    ("5 MPa, 128 rim nodes", {"materials.0.E": 5.0e6}),
)


def main() -> None:
    quantities = ("x_at_0.95", "DISC_rotation_at_0.95", "DISC_kinetic_at_0.95", "DISC_rotation_at_0.30")
    print("setting                              mu   x.95     rot.95   KE.95    rot.30  | lever  normal   sink"
          "     no contact  wall")
    for label, settings in SETTINGS:
        for mu in (0.5, 0.1):
            m = measure({**settings, "contact.mu": mu})
            errors = " ".join(f"{m[q]:+.1e}" for q in quantities)
            print(f"{label:36s} {mu:.1f} {errors} | {m['lever']:.4f} {m['normal_moment']:+.4f} {m['sink']:.1e}"
                  f"  {m['no_contact']:.2f}        {m['wall']:.1f}")


if __name__ == "__main__":
    main()
