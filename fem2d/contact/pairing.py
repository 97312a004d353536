r"""Reuse of a contact pairing while it provably holds.

The closest-point search (:func:`fem2d.contact.search.project`) is exact,
and the formulations call it two or more times per step (at the start of
the step, then at each solution until the pairing agrees with it). Most of
those searches return the pairing of the previous one: on SDNV104's rigid
master a slave node changes segment only when it crosses a segment end.
:func:`pair` keeps, per master surface and set of query points, the last
full search and a *certificate* that lets later calls skip the search and
only project each point on its segment.

Certificate. At a full search, for each query point :math:`q` paired with
segment :math:`s^*`, record a lower bound :math:`R(q)` of the distance from
:math:`q` to every *other* segment (the exact point-to-segment distance for
SEG2, bounding circles for SEG3; segments the point may not pair with are
left out). Later, let the point have moved by :math:`\varepsilon` and the
master nodes by at most :math:`\mu`; a segment then moves by at most
:math:`c\mu` (:math:`c = \max_\xi \sum_a |N_a(\xi)|`: 1 for SEG2, 5/4 for
SEG3), so every other segment is at least :math:`R - \varepsilon - c\mu`
away. If the point still projects inside :math:`s^*`, at a distance
:math:`\delta < R - \varepsilon - c\mu`, then :math:`s^*` is still the
closest segment and the projection on it is what the search would return.
A point that fails (it crossed a segment end, came close to another part of
the master, or had no master facing it) makes the next call a full search,
which renews the certificate. Large sliding is therefore handled exactly as
with a search at every call.

Set :data:`REUSE` to False to search at every call (tests compare both).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from fem2d.contact.search import (
    MasterSurface,
    Projection,
    _bounding_circles,
    _evaluate,
    _evaluate_seg2,
    finish_projection,
    line_shape,
    project,
)

#: Reuse certified pairings (False: a full search at every call).
REUSE = True
#: Point-segment pairs per block when bounding the distances to the other segments.
BOUND_BLOCK = 2**18
#: Largest sum of |N_a| over a segment: how far a segment moves when its nodes move by 1.
_SPREAD = {"seg2": 1.0, "seg3": 1.25}


@dataclass(frozen=True)
class Certificate:
    """The last full search of one set of query points (see the module docstring).

    ``points`` are the query points then, ``segment`` their segments (-1:
    none), ``reach`` the lower bound of their distance to any other segment
    (-inf where no reuse is possible), ``master_xy`` the coordinates of the
    master nodes ``master_nodes`` then.
    """

    points: np.ndarray
    segment: np.ndarray
    reach: np.ndarray
    master_nodes: np.ndarray
    master_xy: np.ndarray
    #: the projection of the full search (its segment-wise parts are reused while the master is still)
    projection: Projection
    #: False when some point had no segment (every later call searches)
    reusable: bool = field(init=False)
    #: True when some point could lose its segment to another one (finite reach)
    bounded: bool = field(init=False)
    #: SEG2 segments of the points: first node, chord and its squared length (while the master is still)
    chords: tuple = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "reusable", not bool(np.isneginf(self.reach).any()))
        object.__setattr__(self, "bounded", bool(np.isfinite(self.reach).any()))
        chords = ()
        if self.projection.master_nodes.shape[1] == 2 and not self.projection.outside.any():
            xy = self.master_xy[np.searchsorted(self.master_nodes, self.projection.master_nodes)]
            chord = xy[:, 1] - xy[:, 0]
            chords = (xy[:, 0], chord, np.einsum("ij,ij->i", chord, chord))
        object.__setattr__(self, "chords", chords)


def other_segment_bound(
    surface: MasterSurface,
    coords: np.ndarray,
    points: np.ndarray,
    segment: np.ndarray,
    exclude: np.ndarray | None = None,
) -> np.ndarray:
    """Per point, a lower bound of its distance (m) to every segment but ``segment``.

    SEG2: the exact distance to the closest point of each segment (ends
    included); SEG3: the distance to each segment's bounding circle.
    Segments holding the point's ``exclude`` node are left out. +inf when
    there is no other segment; -inf for points without a segment.
    """
    kind, conn = surface.kind, surface.nodes
    n_q, n_seg = len(points), len(conn)
    reach = np.where(segment >= 0, np.inf, -np.inf)
    if n_seg == 1:
        return reach
    xs = coords[conn]
    if kind == "seg2":
        a = xs[:, 0]
        ab = xs[:, 1] - a
        length2 = np.einsum("sj,sj->s", ab, ab)
        length2 = np.where(length2 > 0.0, length2, 1.0)
    else:
        centre, radius = _bounding_circles(kind, xs)
    block = max(1, BOUND_BLOCK // n_seg)
    for start in range(0, n_q, block):
        q = points[start : start + block]
        if kind == "seg2":
            rel = q[:, None, :] - a[None]
            t = np.clip(np.einsum("qsj,sj->qs", rel, ab) / length2, 0.0, 1.0)
            diff = rel - t[..., None] * ab[None]
            dist = np.sqrt(np.einsum("qsj,qsj->qs", diff, diff))
        else:
            rel = q[:, None, :] - centre[None]
            dist = np.maximum(np.sqrt(np.einsum("qsj,qsj->qs", rel, rel)) - radius[None], 0.0)
        own = segment[start : start + block]
        rows = np.flatnonzero(own >= 0)
        dist[rows, own[rows]] = np.inf
        if exclude is not None:
            mine = np.any(conn[None, :, :] == np.asarray(exclude)[start : start + block, None, None], axis=2)
            dist[mine] = np.inf
        reach[start : start + block] = np.minimum(reach[start : start + block], dist.min(axis=1))
    return reach


def _reuse(cert: Certificate, surface: MasterSurface, coords: np.ndarray, points: np.ndarray) -> Projection | None:
    """The projection on the certified segments, or None when the certificate fails."""
    if not cert.reusable or points.shape != cert.points.shape:
        return None
    still = np.array_equal(coords[cert.master_nodes], cert.master_xy)
    if still and cert.chords:
        # a still master of straight segments: segment, normal, tangent and nodes are the search's
        xi, dist, foot = _evaluate_seg2(*cert.chords, points)
    else:
        xi, dist, foot = _evaluate(surface.kind, coords[surface.nodes][cert.segment], points)
    if cert.bounded:
        move = points - cert.points
        slack = 0.0
        if not still:
            moved = coords[cert.master_nodes] - cert.master_xy
            slack = _SPREAD[surface.kind] * float(np.sqrt(np.max(np.einsum("ij,ij->i", moved, moved))))
        # dist is +inf where the point left its segment, and reach is -inf where it had none
        ok = (dist + np.sqrt(np.einsum("ij,ij->i", move, move)) + slack < cert.reach).all()
    else:
        ok = np.isfinite(dist).all()
    if not ok:
        return None
    if still and cert.chords:
        proj = cert.projection
        gap = np.einsum("pj,pj->p", proj.normal, points - foot)
        weights = line_shape("seg2", xi)
        return Projection(proj.segment, xi, gap, proj.normal, proj.tangent, proj.master_nodes, weights, proj.outside)
    nodes = cert.projection.master_nodes
    return finish_projection(surface, coords[surface.nodes], points, cert.segment, xi, dist, foot, nodes)


def pair(
    surface: MasterSurface,
    coords: np.ndarray,
    points: np.ndarray,
    exclude: np.ndarray | None = None,
) -> Projection:
    """:func:`fem2d.contact.search.project`, reusing the last pairing while certified.

    Same arguments and result as :func:`~fem2d.contact.search.project`. The
    certificates live in ``surface.cache``, one per set of query points
    (their number and ``exclude``).
    """
    coords = np.asarray(coords, dtype=float)
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    if not REUSE:
        return project(surface, coords, points, exclude)
    key = ("pairing", len(points), None if exclude is None else np.asarray(exclude).tobytes())
    cert = surface.cache.get(key)
    if cert is not None:
        proj = _reuse(cert, surface, coords, points)
        if proj is not None:
            return proj
    proj = project(surface, coords, points, exclude)
    for array in (proj.segment, proj.normal, proj.tangent, proj.master_nodes, proj.outside):
        array.flags.writeable = False  # shared by the projections that reuse them
    master_nodes = cert.master_nodes if cert is not None else np.unique(surface.nodes)
    reach = other_segment_bound(surface, coords, points, proj.segment, exclude)
    surface.cache[key] = Certificate(points.copy(), proj.segment, reach, master_nodes, coords[master_nodes], proj)
    return proj
