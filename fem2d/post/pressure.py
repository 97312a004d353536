r"""Contact pressure along a slave surface, its peak and the width of the contact.

**Pressure from nodal forces.** A contact formulation returns at each slave
node :math:`j` a normal force :math:`F_j = \int_{\Gamma_s} p\, \phi_j \, d\Gamma`
(N, the model's thickness :math:`t` included). With the tributary weights
:math:`w_j = \int_{\Gamma_s} \phi_j\, d\Gamma` of
:func:`fem2d.contact.kinematics.slave_weights`,

.. math::

    p_j = \frac{F_j}{t\, w_j}

is the pressure the nodal force stands for. Where :math:`p` is smooth this is
:math:`p(x_j) + O(h^2 p'')` on a uniform SEG2 grid (a weighted mean of
:math:`p` over the node's two edges); on a graded grid, or at a SEG3 corner
node, the error is :math:`O(h\, p')`, which vanishes at a peak. At the edge of
the contact strip :math:`p` has a square-root behaviour and :math:`p_j` of the
last node in contact is a mean over a partly open tributary length: the
pressure there is good to :math:`O(\sqrt{h})` only.

**Peak pressure** ``peak_pressure``: the largest :math:`p_j` of the zone over
the run (Pa).

**Contact half-width** ``contact_half_width``: at the instant of the peak,
with :math:`s_j` the abscissa of the slave nodes along the surface's main
direction and the moments of the nodal forces,

.. math::

    \bar s = \frac{\sum_j F_j s_j}{\sum_j F_j}, \qquad
    a = 2 \sqrt{\frac{\sum_j F_j (s_j - \bar s)^2}{\sum_j F_j}} ,

the half-width of the elliptical (Hertz) distribution with the same resultant
and second moment: exact for a Hertz contact, whose
:math:`\int x^2 p = P a^2 / 4`, and an integral of the forces, so it converges
with h instead of jumping from node to node (a uniform pressure on
:math:`|s| \le c` gives :math:`2c/\sqrt3`). ``contact_extent`` is the plain
count: half the distance between the outermost slave nodes carrying a force
at that instant (it moves by whole cells).

**Axisymmetric zones** (x the radius r): the weights are the ring areas
:math:`w_j = \int \phi_j\, 2\pi r\, d\Gamma` and the nodal forces whole-ring
totals, so :math:`p_j = F_j / w_j` is again a pressure. When the carrying
slave nodes reach the axis (no slave node off the axis
inside the innermost carrying one: the node on the axis itself has a tiny,
for a SEG3 edge a zero, ring area and may carry nothing), the contact is a disc and ``contact_half_width``
is its radius, from the same second moment over the disc,

.. math::

    a = \sqrt{\tfrac52 \frac{\sum_j F_j r_j^2}{\sum_j F_j}} ,

exact for the Hertz distribution :math:`p_0\sqrt{1 - r^2/a^2}` (whose
:math:`\int p\, r^2\, dA = \tfrac25 P a^2`; a uniform pressure on a disc of radius
:math:`c` gives :math:`\sqrt{5/4}\, c`), and ``contact_extent`` the radius of the
outermost carrying node. Off the axis (an annular band, or a surface along
the axis) both are the plane definitions above on the line forces
:math:`F_j / (2\pi r_j)` (per unit length of circumference). A node with no
ring area (the corner node of a SEG3 edge on the axis, where a uniform
pressure's consistent force is zero) reads 0: its pressure is not defined.
"""

from __future__ import annotations

import numpy as np

from fem2d.contact.kinematics import slave_weights
from fem2d.contact.problem import ContactZone


def abscissa(zone: ContactZone) -> np.ndarray:
    """Reference coordinate of each slave node along the surface's main
    direction (x for a surface spread more along x than y, else y; m).

    >>> from fem2d.contact.problem import make_zone
    >>> from fem2d.mesh.mesh import CellBlock
    >>> pts = [[0.0, 0.1], [1.0, 0.0], [2.0, 0.1], [0.0, -1.0], [2.0, -1.0]]
    >>> zone = make_zone(pts, CellBlock("seg2", [[0, 1], [1, 2]]), CellBlock("seg2", [[3, 4]]), 0.0)
    >>> abscissa(zone).tolist()
    [0.0, 1.0, 2.0]
    """
    xy = zone.reference[: zone.n_slave]
    spread = np.ptp(xy, axis=0) if len(xy) else np.zeros(2)
    return xy[:, 0 if spread[0] >= spread[1] else 1].copy()


def zone_pressure(zone: ContactZone, normal_force: np.ndarray, thickness: float = 1.0) -> np.ndarray:
    """:math:`p_j = F_j / (t\\, w_j)` (Pa) of the zone's slave nodes, for normal
    forces of shape (..., n_slave) (see the module docstring)."""
    weights = slave_weights(zone)
    return np.asarray(normal_force, dtype=float) / (thickness * np.where(weights > 0.0, weights, np.inf))


def half_width(s: np.ndarray, force: np.ndarray) -> float:
    """:math:`2 \\sqrt{\\sum F (s - \\bar s)^2 / \\sum F}` (m), 0 without contact.

    >>> x = np.linspace(-1.0, 1.0, 20001)
    >>> round(half_width(x, np.sqrt(1.0 - x**2)), 5)  # a Hertz distribution of half-width 1 (sampled: 0.9999994)
    1.0
    """
    force = np.clip(np.asarray(force, dtype=float), 0.0, None)
    total = force.sum()
    if total <= 0.0:
        return 0.0
    centre = float((force * s).sum() / total)
    return 2.0 * float(np.sqrt((force * (s - centre) ** 2).sum() / total))


def disc_radius(r: np.ndarray, force: np.ndarray) -> float:
    r""":math:`\sqrt{5/2 \sum F r^2 / \sum F}` (m): the radius of a Hertz disc of contact
    with the ring forces ``force`` at radii ``r``, 0 without contact.

    >>> r = np.linspace(0.0, 1.0, 20001)
    >>> round(disc_radius(r, np.sqrt(1.0 - r**2) * r), 4)  # ring forces of p0 sqrt(1 - r^2) 2 pi r dr
    1.0
    """
    force = np.clip(np.asarray(force, dtype=float), 0.0, None)
    total = force.sum()
    if total <= 0.0:
        return 0.0
    return float(np.sqrt(2.5 * (force * np.asarray(r) ** 2).sum() / total))


def ring_widths(zone: ContactZone, s: np.ndarray, force: np.ndarray) -> tuple[float, float]:
    """(contact_half_width, contact_extent) of an axisymmetric zone (m) for the ring forces
    ``force`` of its slave nodes (abscissae ``s``): the disc's radius when the carrying nodes
    reach the axis, else the plane definitions on the line forces (module docstring)."""
    r = zone.reference[: zone.n_slave, 0]
    carrying = force > 0.0
    if not carrying.any():
        return 0.0, 0.0
    on_axis = r <= 1.0e-9 * max(float(np.ptp(zone.reference[: zone.n_slave], axis=0).max()), 1.0e-300)
    inner = r < float(r[carrying].min())
    if on_axis.any() and np.all(on_axis[inner]):  # from the axis to the carrying nodes: a disc of contact
        return disc_radius(r, force), float(r[carrying].max())
    line = np.where(r > 0.0, force / (2.0 * np.pi * np.where(r > 0.0, r, 1.0)), 0.0)
    return half_width(s, line), 0.5 * float(np.ptp(s[carrying]))


def split_by_zone(zones: list[ContactZone], per_slave: np.ndarray) -> list[np.ndarray]:
    """Columns of an (n_times, total slaves) array, zone by zone (the solution's order)."""
    bounds = np.cumsum([0] + [zone.n_slave for zone in zones])
    return [per_slave[:, a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def pressure_quantities(
    zones: list[ContactZone], slave_normal_force: np.ndarray, thickness: list[float], prefixes: list[str]
) -> dict[str, float]:
    """``peak_pressure`` (Pa), ``contact_half_width`` and ``contact_extent`` (m)
    of each zone, under its prefix (see the module docstring)."""
    q: dict[str, float] = {}
    for zone, forces, t, prefix in zip(zones, split_by_zone(zones, slave_normal_force), thickness, prefixes):
        p = zone_pressure(zone, forces, t)
        peak_row, _ = np.unravel_index(int(np.argmax(p)), p.shape) if p.size else (0, 0)
        s = abscissa(zone)
        row = forces[peak_row] if forces.size else np.zeros(0)
        q[f"{prefix}peak_pressure"] = float(p.max()) if p.size else 0.0
        if zone.axisymmetric:
            width, extent = ring_widths(zone, s, row)
        else:
            carrying = s[row > 0.0]
            width, extent = half_width(s, row), (0.5 * float(np.ptp(carrying)) if len(carrying) else 0.0)
        q[f"{prefix}contact_half_width"] = width
        q[f"{prefix}contact_extent"] = extent
    return q


def pressure_rows(
    zones: list[ContactZone],
    times: np.ndarray,
    slave_normal_force: np.ndarray,
    thickness: list[float],
    at_times: list[float],
) -> tuple[list[str], list[list]]:
    """The pressure distribution of every zone at the recorded instants nearest
    ``at_times``: header and rows (zone, time, node, x, y, s, pressure)."""
    header = ["zone", "time_s", "node", "x_m", "y_m", "s_m", "pressure_Pa"]
    rows: list[list] = []
    for zone, forces, t in zip(zones, split_by_zone(zones, slave_normal_force), thickness):
        p = zone_pressure(zone, forces, t)
        s = abscissa(zone)
        order = np.argsort(s, kind="stable")
        for instant in at_times:
            k = int(np.argmin(np.abs(times - instant)))
            for j in order:
                x, y = zone.reference[j]
                rows.append([zone.name, float(times[k]), int(zone.slave_nodes[j]), float(x), float(y), float(s[j]),
                             float(p[k, j])])
    return header, rows
