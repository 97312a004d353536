r"""Contact pressure along a slave surface, its peak and the width of the contact.

**Which configuration.** A slave surface of a body with ``kinematics = "small"`` (and
every axisymmetric one) is measured on the reference mesh: tributary lengths
:math:`w_j` and abscissae :math:`s_j` of the undeformed slave nodes :math:`X_j`, as
the small-displacement model itself assumes. A slave surface of a body that turns
or stretches (``"corotational"``, ``"finite"``) is measured on its current
(deformed) configuration at each recorded instant, :math:`x_j = X_j + u_j`: the
weights :math:`w_j(x)` of the current surface (a surface stretched by
:math:`\lambda` has its weights times :math:`\lambda`) and the abscissae
:math:`s_j = x_j \cdot t` along the contact's current direction :math:`t`
(:func:`contact_direction`: the tangent of a plane obstacle, found from the
nodes in contact). A rigid motion of the body changes none of the outputs.
The run keeps the slave nodes' displacement at every record for that (the
histories ``slave_dx``, ``slave_dy``, m).

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
direction (:func:`abscissa`) and the moments of the nodal forces,

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
:math:`F_j / (2\pi r_j)` (per unit length of circumference).

**On the axis.** A SEG2 node on the axis has the ring area of its own quadrature,
:math:`w_0 = 2\pi \int_0^h (1 - r/h)\, r\, dr = \pi h^2 / 3`, and :math:`F_0 / w_0` is
its pressure as anywhere else. The corner node of a SEG3 edge on the axis has none:
:math:`\int_0^h \phi_0\, r\, dr = 0` on a straight edge (:math:`\phi_0` changes sign), a
difference of round-offs on a curved one (1e-6 of its neighbours' areas on a meshed sphere,
of either sign), while the contact still leaves it a small force; their quotient is no
pressure (3e12 Pa for a Hertz contact of 7e9 Pa). Its pressure is the even extrapolation
of its edge's two other nodes, at radii :math:`r_1 < r_2` (a smooth traction of a solid of
revolution has :math:`\partial p / \partial r = 0` on the axis, :math:`p = p_0 + c\, r^2`):

.. math::

    p_0 = \frac{r_2^2\, p_1 - r_1^2\, p_2}{r_2^2 - r_1^2}
        \quad (= (4 p_1 - p_2) / 3 \text{ for a midside node at } r_2 / 2),

(:func:`axis_pressure`): in ``pressure.csv``, the VTU files and ``peak_pressure`` alike.
"""

from __future__ import annotations

import numpy as np

from fem2d.contact.kinematics import slave_weights
from fem2d.contact.problem import ContactZone


def abscissa(zone: ContactZone, displacement: np.ndarray | None = None,
             force: np.ndarray | None = None) -> np.ndarray:
    """Coordinate of each slave node along the surface's main direction (m).

    Reference configuration (no ``displacement``): x of the reference nodes for a
    surface spread more along x than y, else y. Current configuration, with the slave
    nodes' ``displacement`` u (n_slave, 2) and their normal ``force`` at that instant:
    :math:`s_j = (X_j + u_j) \\cdot t`, with :math:`t` the :func:`contact_direction`
    of the current positions.

    >>> from fem2d.contact.problem import make_zone
    >>> from fem2d.mesh.mesh import CellBlock
    >>> pts = [[0.0, 0.1], [1.0, 0.0], [2.0, 0.1], [0.0, -1.0], [2.0, -1.0]]
    >>> zone = make_zone(pts, CellBlock("seg2", [[0, 1], [1, 2]]), CellBlock("seg2", [[3, 4]]), 0.0)
    >>> abscissa(zone).tolist()
    [0.0, 1.0, 2.0]
    >>> turned = np.array([[0.0, -1.0], [1.0, 0.0]]) @ zone.reference[:3].T  # a quarter turn
    >>> abscissa(zone, turned.T - zone.reference[:3], np.ones(3)).round(12).tolist()
    [0.0, 1.0, 2.0]
    """
    if displacement is None:
        xy = zone.reference[: zone.n_slave]
        spread = np.ptp(xy, axis=0) if len(xy) else np.zeros(2)
        return xy[:, 0 if spread[0] >= spread[1] else 1].copy()
    x = zone.reference[: zone.n_slave] + np.asarray(displacement, dtype=float)
    return x @ contact_direction(x, np.zeros(len(x)) if force is None else force)


def contact_direction(x: np.ndarray, force: np.ndarray) -> np.ndarray:
    r"""Unit tangent :math:`t` of a contact at one instant, from the current positions
    ``x`` (n, 2) of the slave nodes and their normal forces ``force`` (n,).

    The principal direction of the carrying nodes (force > 0) about their centre of force,
    the eigenvector of the largest eigenvalue of

    .. math::

        M = \sum_j F_j (x_j - \bar x) \otimes (x_j - \bar x), \qquad
        \bar x = \frac{\sum_j F_j x_j}{\sum_j F_j} :

    the contact line itself when the carrying nodes lie on one (against a plane obstacle,
    its tangent), and it turns with the body. With fewer than two carrying nodes (no
    width to measure), x or y, the axis along which the nodes spread most. The sign puts
    the larger component of :math:`t` positive (x for a surface along x).

    >>> x = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [5.0, 0.0]])
    >>> contact_direction(x, np.array([1.0, 2.0, 1.0, 0.0])).round(12).tolist()
    [0.707106781187, 0.707106781187]
    >>> contact_direction(x, np.array([0.0, 1.0, 0.0, 0.0])).tolist()  # one node: the spread
    [1.0, 0.0]
    """
    x = np.asarray(x, dtype=float)
    force = np.asarray(force, dtype=float)
    carrying = force > 0.0
    if np.count_nonzero(carrying) >= 2:
        f, xc = force[carrying], x[carrying]
        offset = xc - (f @ xc) / f.sum()
        moment = np.einsum("j,ja,jb->ab", f, offset, offset)
        values, vectors = np.linalg.eigh(moment)
        if values[-1] > 0.0:
            t = vectors[:, -1]
            return t if t[np.argmax(np.abs(t))] > 0.0 else -t
    spread = np.ptp(x, axis=0) if len(x) else np.zeros(2)
    return np.array([1.0, 0.0]) if spread[0] >= spread[1] else np.array([0.0, 1.0])


def zone_pressure(zone: ContactZone, normal_force: np.ndarray, thickness: float = 1.0,
                  displacement: np.ndarray | None = None) -> np.ndarray:
    """:math:`p_j = F_j / (t\\, w_j)` (Pa) of the zone's slave nodes, for normal
    forces of shape (..., n_slave) (see the module docstring): on the reference
    weights, or with the slave nodes' ``displacement`` (..., n_slave, 2) at the same
    instants on the current ones (:func:`~fem2d.contact.kinematics.slave_weights`).

    >>> from fem2d.contact.problem import make_zone
    >>> from fem2d.mesh.mesh import CellBlock
    >>> pts = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [0.0, -1.0], [2.0, -1.0]]
    >>> zone = make_zone(pts, CellBlock("seg2", [[0, 1], [1, 2]]), CellBlock("seg2", [[3, 4]]), 0.0)
    >>> force = np.array([1.0, 2.0, 1.0])
    >>> stretched = 0.25 * zone.reference[:3]  # the surface 25 % longer
    >>> zone_pressure(zone, force).round(12).tolist(), zone_pressure(zone, force, 1.0, stretched).round(12).tolist()
    ([2.0, 2.0, 2.0], [1.6, 1.6, 1.6])
    """
    force = np.asarray(normal_force, dtype=float)
    if displacement is None:
        weights = slave_weights(zone)
    else:  # a few thousand records at a time: the Gauss points of every edge at every record
        displacement = np.asarray(displacement, dtype=float)
        flat = displacement.reshape(-1, zone.n_slave, 2)
        weights = np.concatenate([slave_weights(zone, flat[i: i + _BLOCK]) for i in range(0, len(flat), _BLOCK)]
                                 or [np.zeros((0, zone.n_slave))]).reshape(displacement.shape[:-1])
    if zone.consistent:
        pressure = consistent_pressure(zone, force, displacement) / thickness
    else:
        pressure = force / (thickness * np.where(weights > 0.0, weights, np.inf))
    return axis_pressure(zone, pressure) if zone.axisymmetric else pressure


def consistent_pressure(zone: ContactZone, normal_force: np.ndarray, displacement: np.ndarray | None = None
                        ) -> np.ndarray:
    r"""The nodal values :math:`p` of the pressure field whose consistent nodal forces are
    ``normal_force`` (..., n_slave): :math:`M p = F`, M the slave surface's matrix
    (:func:`~fem2d.contact.kinematics.surface_matrix`), on the reference surface or, with
    ``displacement`` (..., n_slave, 2), on the current one at each instant. The forces of mortar
    contact are those of its multipliers, the pressure's nodal values: this gives them back,
    where :math:`F_j / w_j` would spread a pressure that stops at a node onto its neighbours.

    >>> from fem2d.contact.problem import make_zone
    >>> from fem2d.mesh.mesh import CellBlock
    >>> zone = make_zone([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [0.0, -1.0], [2.0, -1.0]],
    ...                  CellBlock("seg2", [[0, 1], [1, 2]]), CellBlock("seg2", [[3, 4]]), 0.0, consistent=True)
    >>> (consistent_pressure(zone, np.array([1.0 / 6.0, 2.0 / 3.0, 1.0 / 6.0])).round(12) + 0.0).tolist()
    [0.0, 1.0, 0.0]
    """
    from scipy.sparse.linalg import splu

    from fem2d.contact.kinematics import surface_matrix

    force = np.asarray(normal_force, dtype=float)
    flat = force.reshape(-1, zone.n_slave)
    if displacement is None:
        lu = splu(surface_matrix(zone).tocsc())
        return lu.solve(np.ascontiguousarray(flat.T)).T.reshape(force.shape)
    moved = np.asarray(displacement, dtype=float).reshape(-1, zone.n_slave, 2)
    out = np.array([splu(surface_matrix(zone, d).tocsc()).solve(f) for f, d in zip(flat, moved)])
    return out.reshape(force.shape)


def axis_corners(zone: ContactZone) -> np.ndarray:
    """The SEG3 edges of an axisymmetric zone's slave surface that have a corner node on the
    axis, as rows (axis node, near node, far node) of slave indices, the near node the edge's
    other node nearer to the axis (its midside node); shape (n, 3), empty for SEG2 edges and
    plane zones. The axis is r <= 1e-9 times the edge's length."""
    edges = zone.slave_edges
    if not zone.axisymmetric or edges.kind != "seg3" or not len(edges):
        return np.zeros((0, 3), dtype=np.int64)
    nodes = np.asarray(zone.slave_local)  # slave indices: the slave nodes come first in the boundary numbering
    r = zone.reference[nodes, 0]
    size = np.ptp(zone.reference[nodes], axis=1).max(axis=-1)
    rows = []
    for edge, radii, length in zip(nodes, r, size):
        for corner in (0, 1):  # SEG3: two corners, then the midside node
            if radii[corner] <= 1.0e-9 * length:
                near, far = sorted((2, 1 - corner), key=lambda k: radii[k])
                rows.append([edge[corner], edge[near], edge[far]])
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


def axis_pressure(zone: ContactZone, pressure: np.ndarray) -> np.ndarray:
    r"""``pressure`` (..., n_slave), Pa, with each SEG3 corner node on the axis given the even
    extrapolation :math:`p_0 = (r_2^2 p_1 - r_1^2 p_2) / (r_2^2 - r_1^2)` of its edge's two
    other nodes (module docstring, "On the axis"); unchanged elsewhere and on SEG2 surfaces.

    >>> from fem2d.contact.problem import make_zone
    >>> from fem2d.mesh.mesh import CellBlock
    >>> pts = [[0.0, 0.0], [2.0, 0.0], [1.0, 0.0], [0.0, -1.0], [2.0, -1.0]]
    >>> zone = make_zone(pts, CellBlock("seg3", [[0, 1, 2]]), CellBlock("seg2", [[3, 4]]), 0.0, axisymmetric=True)
    >>> axis_pressure(zone, np.array([5e12, 7.0, 10.0])).tolist()  # p = 11 - r^2: 11 on the axis
    [11.0, 7.0, 10.0]
    """
    return extrapolated_to_axis(zone.reference[: zone.n_slave, 0], axis_corners(zone), pressure)


def extrapolated_to_axis(r: np.ndarray, corners: np.ndarray, pressure: np.ndarray) -> np.ndarray:
    """:func:`axis_pressure` on arrays: the slave nodes' reference radii ``r`` (n_slave,), the rows
    (axis node, near node, far node) of :func:`axis_corners` and ``pressure`` (..., n_slave)."""
    corners = np.asarray(corners, dtype=np.int64).reshape(-1, 3)
    if not len(corners):
        return pressure
    out = np.array(pressure, dtype=float, copy=True)
    r1, r2 = np.asarray(r)[corners[:, 1]] ** 2, np.asarray(r)[corners[:, 2]] ** 2
    out[..., corners[:, 0]] = (r2 * out[..., corners[:, 1]] - r1 * out[..., corners[:, 2]]) / (r2 - r1)
    return out


#: records whose current weights are computed together (bounds the memory of a long run)
_BLOCK = 2048


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


def slave_displacements(zones: list[ContactZone], series: dict[str, np.ndarray],
                        current: list[bool]) -> list[np.ndarray | None]:
    """Per zone, its slave nodes' displacement at every record, shape (n_times, n_slave, 2)
    (m: the histories ``slave_dx``, ``slave_dy``, zone by zone), for the zones measured on
    their ``current`` configuration; None for the others, and for all of them when the run
    kept no such history."""
    if "slave_dx" not in series or "slave_dy" not in series:
        return [None] * len(zones)
    dx = split_by_zone(zones, np.asarray(series["slave_dx"], dtype=float))
    dy = split_by_zone(zones, np.asarray(series["slave_dy"], dtype=float))
    return [np.stack([x, y], axis=-1) if on else None for x, y, on in zip(dx, dy, current)]


def pressure_quantities(
    zones: list[ContactZone], slave_normal_force: np.ndarray, thickness: list[float], prefixes: list[str],
    displacements: list[np.ndarray | None] | None = None,
) -> dict[str, float]:
    """``peak_pressure`` (Pa), ``contact_half_width`` and ``contact_extent`` (m)
    of each zone, under its prefix (see the module docstring); a zone with its slave
    nodes' ``displacements`` (n_times, n_slave, 2) is measured on its current configuration.

    >>> from fem2d.contact.problem import make_zone
    >>> from fem2d.mesh.mesh import CellBlock
    >>> pts = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0], [0.0, -1.0], [3.0, -1.0]]
    >>> zone = make_zone(pts, CellBlock("seg2", [[0, 1], [1, 2], [2, 3]]), CellBlock("seg2", [[4, 5]]), 0.0)
    >>> force = np.array([[0.0, 1.0, 1.0, 0.0]])
    >>> pressure_quantities([zone], force, [1.0], [""])
    {'peak_pressure': 1.0, 'contact_half_width': 1.0, 'contact_extent': 0.5}
    >>> stretched = 0.25 * zone.reference[None, :4]  # the surface 25 % longer
    >>> {k: round(v, 12) for k, v in pressure_quantities([zone], force, [1.0], [""], [stretched]).items()}
    {'peak_pressure': 0.8, 'contact_half_width': 1.25, 'contact_extent': 0.625}
    """
    q: dict[str, float] = {}
    displacements = [None] * len(zones) if displacements is None else displacements
    for zone, forces, t, prefix, d in zip(zones, split_by_zone(zones, slave_normal_force), thickness, prefixes,
                                          displacements):
        current = d is not None and not zone.axisymmetric
        p = zone_pressure(zone, forces, t, d if current else None)
        peak_row, _ = np.unravel_index(int(np.argmax(p)), p.shape) if p.size else (0, 0)
        row = forces[peak_row] if forces.size else np.zeros(0)
        s = abscissa(zone, d[peak_row], row) if current and forces.size else abscissa(zone)
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
    displacements: list[np.ndarray | None] | None = None,
    wear_depth: np.ndarray | None = None,
) -> tuple[list[str], list[list]]:
    """The pressure distribution of every zone at the recorded instants nearest
    ``at_times``: header and rows (zone, time, node, x, y, s, pressure), and with the
    slave nodes' ``wear_depth`` (n_times, n_slave of all zones; a run with Archard wear)
    the column ``wear_depth_m`` after the pressure.

    ``x_m``, ``y_m`` are the node's reference position. With the slave nodes'
    ``displacements`` of some zone (n_times, n_slave, 2; see :func:`pressure_quantities`),
    the rows add its current position ``x_current_m``, ``y_current_m`` before the
    pressure, and that zone's ``s_m`` and pressure are the current configuration's
    (the rows of each instant in the order of their current s); a zone without
    displacements repeats its reference position there."""
    displacements = [None] * len(zones) if displacements is None else displacements
    moving = any(d is not None for d in displacements)
    header = ["zone", "time_s", "node", "x_m", "y_m", "s_m", *(["x_current_m", "y_current_m"] if moving else []),
              "pressure_Pa", *(["wear_depth_m"] if wear_depth is not None else [])]
    rows: list[list] = []
    depths = split_by_zone(zones, wear_depth) if wear_depth is not None else [None] * len(zones)
    for zone, forces, t, d, h in zip(zones, split_by_zone(zones, slave_normal_force), thickness, displacements,
                                     depths):
        current = d is not None and not zone.axisymmetric
        p = zone_pressure(zone, forces, t, d if current else None)
        reference = zone.reference[: zone.n_slave]
        for instant in at_times:
            k = int(np.argmin(np.abs(times - instant)))
            s = abscissa(zone, d[k], forces[k]) if current else abscissa(zone)
            now = reference + d[k] if d is not None else reference
            for j in np.argsort(s, kind="stable"):
                x, y = reference[j]
                rows.append([zone.name, float(times[k]), int(zone.slave_nodes[j]), float(x), float(y), float(s[j]),
                             *([float(now[j, 0]), float(now[j, 1])] if moving else []), float(p[k, j]),
                             *([float(h[k, j])] if h is not None else [])])
    return header, rows
