"""The run's checks that its contact held: no slave node deep inside its master, none
gone past its master's end.

Every formulation lets a slave node into its master by a little: penalty by
:math:`F / E_N`, Lagrange by the round-off of its solve, the velocity-level schemes
by what one step's motion carries. A penetration that reaches a sizeable share of
the slave surface's cells, :data:`PENETRATION_SHARE` of the shortest slave edge,
is no such little: the contact was not enforced (a penalty coefficient out of scale,
``contact.e_n`` or ``contact.e_t``, or a step too long for the impact), and the
run warns (a non-zero exit under the strict rules, as every warning).
"""

from __future__ import annotations

import numpy as np

from fem2d.contact.problem import ContactZone

#: The largest penetration a run takes for enforced contact, as a share of the shortest slave
#: edge. The built-in penalty cases stay below 1e-4 of it; sdnv104a's block with e_t = 1e100
#: sank 60 m (300 edges) into its support.
PENETRATION_SHARE = 0.25


def shortest_slave_edge(points: np.ndarray, zones: list[ContactZone]) -> float:
    """The length (m) of the shortest edge of the zones' slave surfaces (end to end), inf without one."""
    lengths = [np.linalg.norm(points[zone.slave_edges.nodes[:, 1], :2] - points[zone.slave_edges.nodes[:, 0], :2],
                              axis=1) for zone in zones if len(zone.slave_edges.nodes)]
    return float(np.min(np.concatenate(lengths))) if lengths else float("inf")


def penetration_warnings(series: dict[str, np.ndarray], points: np.ndarray, zones: list[ContactZone]) -> list[str]:
    """A warning when the deepest penetration of ``series["penetration"]`` (m, per record)
    exceeds :data:`PENETRATION_SHARE` of the shortest slave edge.

    >>> from fem2d.contact.problem import make_zone
    >>> from fem2d.mesh.mesh import CellBlock
    >>> pts = np.array([[0.0, 0.0], [0.2, 0.0], [0.0, 0.0], [1.0, 0.0]])
    >>> zone = make_zone(pts, CellBlock("seg2", [[0, 1]]), CellBlock("seg2", [[2, 3]]), 0.0, name="LESC")
    >>> penetration_warnings({"time": np.array([0.0, 1.0]), "penetration": np.array([0.0, 1e-6])}, pts, [zone])
    []
    >>> penetration_warnings({"time": np.array([0.0, 1.0]), "penetration": np.array([0.0, 60.0])}, pts, [zone])[0]
    'contact: slave nodes went 60 m into their master (first beyond 0.05 m at t = 1 s), more than 25 % of the \
shortest slave edge (0.2 m): contact was not enforced (a penalty coefficient out of scale, contact.e_n or \
contact.e_t, or a time step too long for the impact)'
    """
    depth = series.get("penetration")
    if depth is None or not len(depth) or not zones:
        return []
    edge = shortest_slave_edge(points, zones)
    limit = PENETRATION_SHARE * edge
    if not np.isfinite(limit) or not np.nanmax(depth) > limit:
        return []
    first = int(np.argmax(depth > limit))
    return [f"contact: slave nodes went {float(np.nanmax(depth)):.3g} m into their master (first beyond {limit:.3g} m "
            f"at t = {series['time'][first]:.6g} s), more than {PENETRATION_SHARE * 100:g} % of the shortest slave "
            "edge "
            f"({edge:.3g} m): contact was not enforced (a penalty coefficient out of scale, contact.e_n or "
            "contact.e_t, or a time step too long for the impact)"]


def left_master_warnings(series: dict[str, np.ndarray], mesh_source: str = "",
                         zones: list[ContactZone] | tuple = ()) -> list[str]:
    """A warning when slave nodes went beyond the ends of their master surface during the
    run, naming the zones whose slave nodes are off their master then (``slave_gap``
    infinite: no master segment faces them), with the remedy that fits where the mesh
    came from (:func:`longer_master`)."""
    left = series.get("n_left_master")
    if left is None or not np.any(left > 0):
        return []
    first = int(np.argmax(left > 0))
    named = ""
    gap = series.get("slave_gap")
    if zones and gap is not None and gap.shape[1] == sum(zone.n_slave for zone in zones):
        ends = np.cumsum([0, *(zone.n_slave for zone in zones)])
        off = ~np.isfinite(gap[left > 0])
        names = [zone.name for zone, a, b in zip(zones, ends[:-1], ends[1:]) if off[:, a:b].any()]
        named = f" (zone {', '.join(map(repr, names))})" if names else ""
    return [
        f"{int(left.max())} slave node(s) left their master surface (first at t = {series['time'][first]:.6g} s): "
        f"contact is not enforced there{named}; {longer_master(mesh_source)}"
    ]


def longer_master(mesh_source: str) -> str:
    """How to make a master surface longer, for a mesh of ``mesh_source`` (a builder's
    call, whose parameter says it, or a mesh file).

    >>> longer_master("sliding_block(element='quad4', refine=0, support_length=20.0)")
    'make the master longer (mesh.params.support_length)'
    >>> longer_master("disc_block.msh")
    'extend the master edge group in the mesh (disc_block.msh)'
    """
    from fem2d.mesh.builders import BUILDERS

    builder = mesh_source.split("(", 1)[0]
    if builder == "sliding_block":
        return "make the master longer (mesh.params.support_length)"
    if builder in BUILDERS and mesh_source.endswith(")"):
        return "make the master longer"
    return f"extend the master edge group in the mesh ({mesh_source})" if mesh_source else "make the master longer"


def outside_at_start(zones: list[ContactZone]) -> np.ndarray | None:
    """Per slave node of the zones (in their order), whether it is off its master in the
    reference configuration (no master segment faces it); None without zones. A node that
    faces its master there and is off it after the first step has left it."""
    from fem2d.contact.search import project
    from fem2d.contact.surface import master_surface

    if not zones:
        return None
    flags = []
    for zone in zones:
        if zone.master_radius > 0.0:  # a rigid circle faces every point
            flags.append(np.zeros(zone.n_slave, dtype=bool))
            continue
        surface = master_surface(zone, orientation="left")  # (the side does not change who faces it)
        flags.append(project(surface, zone.reference, zone.reference[: zone.n_slave]).outside)
    return np.concatenate(flags)
