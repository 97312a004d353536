r"""The master surface of a contact zone: its segments and the side its body is on.

The normal is the outward normal of the *master body*: with
:math:`\tau = dx_m/d\xi` (the direction in which the segment's nodes run),
:math:`n = s\,(\tau_y, -\tau_x)/|\tau|` with a sign :math:`s` per segment.
The convention :math:`s = +1` means "the master body lies on the left of its
edges": the edges run counter-clockwise around the master body, as the
boundary edges of counter-clockwise cells and Gmsh's transfinite rectangle
sides do, and as code_aster's ``ORIE_PEAU_2D`` makes them. The robust way is
to orient the master edges from the master body before building the zone
(:func:`orient_on_mesh`, or :func:`orient_edges` given the body's cells).
:func:`master_surface` then makes each chain of master segments consistently
oriented, keeps the convention, and flips a chain only when the slave nodes
*start* clearly (by more than half a slave edge) on its negative side; slave
nodes that start touching the master cannot tell the side. The tangent is
:math:`t = (n_y, -n_x)`, so that :math:`(t, n)` is a right-handed frame like
:math:`(x, y)`: on a horizontal master whose body is below, :math:`n = +y`
and :math:`t = +x`.
The projection of points on the surface is :mod:`fem2d.contact.search`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from fem2d.contact.problem import ContactZone
from fem2d.contact.search import END_TOLERANCE, project
from fem2d.errors import InputError
from fem2d.fe.boundary import adjacent_cells
from fem2d.mesh.mesh import CellBlock, Mesh


def orient_edges(points: np.ndarray, edges: CellBlock, body: CellBlock | Sequence[CellBlock]) -> CellBlock:
    """Reorder edges so that they run counter-clockwise around ``body``.

    The analogue of code_aster's ``ORIE_PEAU_2D``: afterwards the body lies
    on the left of every edge, so that the outward normal of the body is
    :math:`(\\tau_y, -\\tau_x)` with :math:`\\tau` the edge direction (the
    convention :func:`master_surface` relies on). Each edge is matched to the
    body cell it bounds (:func:`fem2d.fe.boundary.adjacent_cells`, the one
    orientation rule of the package).

    Parameters
    ----------
    points
        Mesh coordinates (n, 2), m.
    edges
        SEG2/SEG3 boundary edges of ``body`` (mesh node ids).
    body
        The 2D cells of the body the edges bound (one block, or several of
        any 2D kinds).
    """
    blocks = [body] if isinstance(body, CellBlock) else list(body)
    forward, backward = adjacent_cells(np.asarray(points, dtype=float)[:, :2], edges, blocks)
    bad = np.flatnonzero(forward + backward != 1)
    if len(bad):
        e = int(bad[0])
        a, b = edges.nodes[e, :2]
        raise InputError(f"orient_edges: edge {e} (nodes {a}, {b}) is not on the boundary of the given body")
    nodes = edges.nodes.copy()
    flip = backward == 1
    nodes[flip, 0], nodes[flip, 1] = edges.nodes[flip, 1], edges.nodes[flip, 0]
    return CellBlock(edges.kind, nodes)


def orient_on_mesh(mesh: Mesh, edges: CellBlock) -> CellBlock:
    """Orient boundary edges counter-clockwise around the 2D cells they bound.

    :func:`orient_edges` with the body found in the mesh itself: every 2D
    group is searched (the corner nodes of its cells, of any 2D kind) for the cell that
    holds each edge. Call it on the master edges before
    :func:`~fem2d.contact.problem.make_zone`, so that the master normal does
    not depend on how the mesh generator ordered the edge nodes.
    """
    bodies = list(mesh.cells_of_dimension(2).values())
    if not bodies:
        raise InputError(f"{mesh.source}: no 2D cells to orient the contact edges against")
    return orient_edges(mesh.points, edges, bodies)


def _chains(ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Orient chains of segments consistently.

    Returns (flip, chain): ``flip[s]`` says segment s must be reversed to
    follow its chain, ``chain[s]`` the chain id. A breadth-first walk over
    segments sharing an end node (setup only: a few hundred segments).
    """
    n = len(ends)
    by_node: dict[int, list[int]] = {}
    for s, (a, b) in enumerate(ends):
        by_node.setdefault(int(a), []).append(s)
        by_node.setdefault(int(b), []).append(s)
    flip = np.zeros(n, dtype=bool)
    chain = np.full(n, -1)
    for seed in range(n):
        if chain[seed] >= 0:
            continue
        chain[seed] = seed
        stack = [seed]
        while stack:
            s = stack.pop()
            start, end = (ends[s, 1], ends[s, 0]) if flip[s] else (ends[s, 0], ends[s, 1])
            for node, at_end in ((end, True), (start, False)):
                for r in by_node[int(node)]:
                    if chain[r] >= 0:
                        continue
                    # a follower starts where s ends; a predecessor ends where s starts
                    r_start = ends[r, 0]
                    flip[r] = (r_start != node) if at_end else (r_start == node)
                    chain[r] = seed
                    stack.append(r)
    return flip, chain


@dataclass(frozen=True)
class MasterSurface:
    """The master segments in boundary numbering, with their orientation.

    ``nodes[s]`` are the boundary indices of segment s (ends, then the middle
    node for SEG3); ``sign[s]`` (+1/-1) orients its normal:
    :math:`n = s(\\tau_y, -\\tau_x)/|\\tau|`, :math:`\\tau = dx/d\\xi`.
    """

    kind: str
    nodes: np.ndarray
    sign: np.ndarray
    #: keep certified pairings between searches (False: a full search at every call)
    reuse: bool = True
    #: reusable searches of this surface (see :mod:`fem2d.contact.pairing`); not part of its value
    cache: dict = field(default_factory=dict, compare=False, repr=False)
    #: how far (m) past an end of a master chain a point still projects on that end
    #: (:data:`fem2d.contact.search.END_TOLERANCE` of the shortest slave edge; 0: not at all)
    end_reach: float = 0.0
    #: radius of a ``"circle"`` surface (m); 0 for segments
    radius: float = 0.0


def master_surface(zone: ContactZone, orientation: str = "auto") -> MasterSurface:
    """The oriented master surface of a zone (see the module docstring), whose chain ends
    reach :data:`~fem2d.contact.search.END_TOLERANCE` of the shortest slave edge beyond
    them (a slave node at the master's end that slides past it by a little stays paired).
    """
    surface = _oriented_surface(zone, orientation)
    if surface.kind == "circle" or not len(zone.slave_local):
        return surface
    ends = zone.reference[np.asarray(zone.slave_local)[:, :2]]
    shortest = float(np.linalg.norm(ends[:, 1] - ends[:, 0], axis=1).min())
    return dataclasses.replace(surface, end_reach=END_TOLERANCE * shortest)


def _oriented_surface(zone: ContactZone, orientation: str = "auto") -> MasterSurface:
    """The oriented master surface of a zone (see the module docstring).

    Parameters
    ----------
    zone
        The contact zone (reference coordinates of the boundary nodes).
    orientation
        ``"auto"`` (chains made consistent; the body on the left of the
        edges, unless the slave nodes start clearly on the other side),
        ``"left"`` (the master body is on the left of every edge as given,
        no check) or ``"right"`` (on the right).
    """
    kind = zone.master_edges.kind
    if kind == "point" and zone.master_radius > 0.0:  # a rigid circle: its centre node; nothing to orient
        if orientation != "auto":
            raise InputError(f"zone {zone.name!r}: a circle master has no orientation to set (got {orientation!r})")
        return MasterSurface("circle", np.asarray(zone.master_local, dtype=np.int64).reshape(1, 1), np.ones(1),
                             reuse=False, radius=zone.master_radius)
    if kind not in ("seg2", "seg3"):
        raise InputError(f"zone {zone.name!r}: master edges must be seg2 or seg3, got {kind!r}")
    nodes = np.asarray(zone.master_local, dtype=np.int64)
    n_seg = len(nodes)
    if orientation == "left":
        return MasterSurface(kind, nodes, np.ones(n_seg))
    if orientation == "right":
        return MasterSurface(kind, nodes, -np.ones(n_seg))
    if orientation != "auto":
        raise InputError(f"master orientation must be 'auto', 'left' or 'right', got {orientation!r}")
    flip, chain = _chains(nodes[:, :2])
    sign = np.ones(n_seg)
    for c in np.unique(chain):
        members = chain == c
        # keep the direction most of the chain's edges already have
        chain_flip = flip[members].mean() > 0.5
        # the body is on the left of the chain's direction: edges running against it have it on their right
        sign[members] = np.where(flip[members] != chain_flip, -1.0, 1.0)
    surface = MasterSurface(kind, nodes, sign)
    return _side_from_start(zone, surface, chain)


def _side_from_start(zone: ContactZone, surface: MasterSurface, chain: np.ndarray) -> MasterSurface:
    """Flip a chain whose slave nodes all start clearly on its negative side."""
    slave_xy = zone.reference[: zone.n_slave]
    proj = project(surface, zone.reference, slave_xy)
    inside = ~proj.outside
    if not inside.any():
        return surface
    edge = zone.reference[zone.slave_local[:, 0]] - zone.reference[zone.slave_local[:, 1]]
    half_edge = 0.5 * float(np.median(np.hypot(edge[:, 0], edge[:, 1])))
    sign = surface.sign.copy()
    for c in np.unique(chain[proj.segment[inside]]):
        on_chain = inside.copy()
        on_chain[inside] = chain[proj.segment[inside]] == c
        if np.all(proj.gap[on_chain] < -half_edge):
            sign[chain == c] *= -1.0
    return MasterSurface(surface.kind, surface.nodes, sign)
