r"""Reuse of a contact pairing while it provably holds.

The closest-point search (:func:`fem2d.contact.search.project`) is exact,
and the formulations call it two or more times per step (at the start of
the step, then at each solution until the pairing agrees with it). Most of
those searches return the pairing of the previous one: on SDNV104's rigid
master a slave node changes segment only when it crosses a segment end.
:func:`pair` keeps, per master surface and set of query points, the last
full search and a *certificate* that lets later calls skip the search and
only project each point on its segment.

Certificate. When a query point :math:`q` is searched and paired with
segment :math:`s^*`, record a lower bound :math:`R(q)` of its distance to
every *other* segment (the exact point-to-segment distance for SEG2, the
distance to the triangle of the Bezier control points, which holds the
curve, for SEG3; segments the point may not pair with are left out).
Later, let the point have moved by :math:`\varepsilon` and the master nodes
by at most :math:`\mu`; a segment then moves by at most :math:`c\mu`
(:math:`c = \max_\xi \sum_a |N_a(\xi)|`: 1 for SEG2, 5/4 for SEG3), so
every other segment is at least :math:`R - \varepsilon - c\mu` away. If the
point still projects inside :math:`s^*`, at a distance
:math:`\delta < R - \varepsilon - c\mu`, then :math:`s^*` is still the
closest segment and the projection on it is what the search would return
(the closest-point evaluation of a pair does not depend on the other pairs
evaluated with it). Only the points that fail (one crossed a segment end,
came close to another part of the master, or has no master facing it) are
searched again, which renews their certificates; the others keep theirs,
lowered by :math:`c\mu` as the reference position of the master is renewed
(the bound stays valid by the triangle inequality). Large sliding is
therefore handled exactly as with a search at every call.

A surface made with ``reuse=False`` is searched at every call (tests compare both).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from fem2d.contact.search import XI_TOLERANCE, Projection, _evaluate, finish_projection, project
from fem2d.contact.surface import MasterSurface
from fem2d.fe.elements import line_shape

#: Point-segment pairs per block when bounding the distances to the other segments.
BOUND_BLOCK = 2**18
#: Largest sum of |N_a| over a segment: how far a segment moves when its nodes move by 1.
_SPREAD = {"seg2": 1.0, "seg3": 1.25}
#: Relative margin taken off the bounds, for their round-off (a near-tie is left to the search).
MARGIN = 1e-12


@dataclass(frozen=True)
class Certificate:
    """The pairing of one set of query points, with what certifies it (see the module docstring).

    Per point: ``points``, where it was when its segment was searched;
    ``reach``, the lower bound then of its distance to any other segment
    (-inf: no segment, never reused); the ``projection`` on its segment
    (whose segment-wise parts are reused while the master is still).
    ``master_xy`` are the coordinates of the master nodes ``master_nodes``
    at the last full search.
    """

    points: np.ndarray
    reach: np.ndarray
    master_nodes: np.ndarray
    master_xy: np.ndarray
    projection: Projection
    #: True unless every point is certified whatever its move (+inf reach: a single segment)
    bounded: bool = field(init=False)
    #: SEG2 segments of the points: first node, chord and its squared length (while the master is still)
    chords: tuple = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "bounded", not bool((self.reach == np.inf).all()))
        chords = ()
        if self.projection.master_nodes.shape[1] == 2:
            xy = self.master_xy[np.searchsorted(self.master_nodes, self.projection.master_nodes)]
            chord = xy[:, 1] - xy[:, 0]
            chords = (xy[:, 0], chord, np.einsum("ij,ij->i", chord, chord))
        object.__setattr__(self, "chords", chords)

    @property
    def segment(self) -> np.ndarray:
        return self.projection.segment


def _segment_distance(q: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance (q, s) from points q (q, 2) to the straight segments [a, b] (s, 2), ends included."""
    ab = b - a
    length2 = np.einsum("sj,sj->s", ab, ab)
    rel = q[:, None, :] - a[None]
    t = np.clip(np.einsum("qsj,sj->qs", rel, ab) / np.where(length2 > 0.0, length2, 1.0), 0.0, 1.0)
    diff = rel - t[..., None] * ab[None]
    return np.sqrt(np.einsum("qsj,qsj->qs", diff, diff))


def _hull_distance(q: np.ndarray, ctrl: np.ndarray) -> np.ndarray:
    """Distance (q, s) from points q to the triangles ``ctrl`` (s, 3, 2) (0 inside)."""
    p0, p1, p2 = ctrl[:, 0], ctrl[:, 1], ctrl[:, 2]
    dist = np.minimum(_segment_distance(q, p0, p1), _segment_distance(q, p1, p2))
    dist = np.minimum(dist, _segment_distance(q, p2, p0))

    def side(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        ab = b - a
        rel = q[:, None, :] - a[None]
        return ab[None, :, 0] * rel[..., 1] - ab[None, :, 1] * rel[..., 0]

    s0, s1, s2 = side(p0, p1), side(p1, p2), side(p2, p0)
    inside = ((s0 > 0) & (s1 > 0) & (s2 > 0)) | ((s0 < 0) & (s1 < 0) & (s2 < 0))
    return np.where(inside, 0.0, dist)


def other_segment_bound(
    surface: MasterSurface,
    coords: np.ndarray,
    points: np.ndarray,
    segment: np.ndarray,
    exclude: np.ndarray | None = None,
) -> np.ndarray:
    """Per point, a lower bound of its distance (m) to every segment but ``segment``.

    SEG2: the exact distance to the closest point of each segment (ends
    included); SEG3: the distance to the triangle of its Bezier control
    points (which holds the curve; the chord for a straight SEG3).
    Segments holding the point's ``exclude`` node are left out. +inf when
    there is no other segment; -inf for points without a segment. The
    bounds are lowered by the relative :data:`MARGIN`.
    """
    kind, conn = surface.kind, surface.nodes
    n_q, n_seg = len(points), len(conn)
    reach = np.where(segment >= 0, np.inf, -np.inf)
    if n_seg == 1:
        return reach
    xs = coords[conn]
    if kind == "seg3":
        control = 2.0 * xs[:, 2] - 0.5 * (xs[:, 0] + xs[:, 1])
        hull = np.stack([xs[:, 0], xs[:, 1], control], axis=1)
    block = max(1, BOUND_BLOCK // n_seg)
    for start in range(0, n_q, block):
        q = points[start : start + block]
        dist = _segment_distance(q, xs[:, 0], xs[:, 1]) if kind == "seg2" else _hull_distance(q, hull)
        own = segment[start : start + block]
        rows = np.flatnonzero(own >= 0)
        dist[rows, own[rows]] = np.inf
        if exclude is not None:
            mine = np.any(conn[None, :, :] == np.asarray(exclude)[start : start + block, None, None], axis=2)
            dist[mine] = np.inf
        reach[start : start + block] = np.minimum(reach[start : start + block], dist.min(axis=1))
    return reach * (1.0 - MARGIN)


def _reuse(
    cert: Certificate, surface: MasterSurface, coords: np.ndarray, points: np.ndarray
) -> tuple[Projection, np.ndarray | None, float]:
    """The projection on the certified segments, the points whose certificate
    failed (None: none did; their entries are meaningless) and how far any
    segment may have moved with the master since the certificate (m)."""
    master_xy = coords[cert.master_nodes]
    still = bool((master_xy == cert.master_xy).all())
    slack = 0.0
    if still and cert.chords:
        proj, ok = _reuse_still_seg2(cert, points)
    else:
        xi, dist, foot = _evaluate(surface.kind, coords[surface.nodes][cert.segment], points)
        if not still:
            moved = master_xy - cert.master_xy
            slack = _SPREAD[surface.kind] * float(np.sqrt(np.max(np.einsum("ij,ij->i", moved, moved))))
        move = points - cert.points
        # dist is +inf where the point left its segment, and reach is -inf where it had none
        ok = dist + np.sqrt(np.einsum("ij,ij->i", move, move)) + slack < cert.reach
        nodes = cert.projection.master_nodes
        safe = dist if ok.all() else np.where(ok, dist, 0.0)  # failed points get a finite placeholder
        proj = finish_projection(surface, coords[surface.nodes], points, cert.segment, xi, safe, foot, nodes)
    return proj, (None if ok.all() else ~ok), slack


def _reuse_still_seg2(cert: Certificate, points: np.ndarray) -> tuple[Projection, np.ndarray]:
    r""":func:`_reuse` on a master that has not moved, of straight segments: the
    segment, normal, tangent and nodes of each point are the search's, only
    :math:`\xi`, the gap and the weights change (the same arithmetic as
    :func:`fem2d.contact.search.project`). Returns the projection and the
    points whose certificate holds."""
    a, chord, chord2 = cert.chords
    xi = 2.0 * (np.einsum("ij,ij->i", points - a, chord) / chord2) - 1.0
    ok = np.abs(xi) <= 1.0 + XI_TOLERANCE  # False where a point left its segment
    xi = np.minimum(np.maximum(xi, -1.0), 1.0)
    diff = points - (a + (0.5 * (xi + 1.0))[:, None] * chord)
    if cert.bounded:
        move = points - cert.points
        dist = np.sqrt(np.einsum("pj,pj->p", diff, diff))
        ok &= dist + np.sqrt(np.einsum("ij,ij->i", move, move)) < cert.reach
    proj = cert.projection
    gap = np.einsum("pj,pj->p", proj.normal, diff)
    weights = line_shape("seg2", xi)
    return Projection(proj.segment, xi, gap, proj.normal, proj.tangent, proj.master_nodes, weights, proj.outside), ok


def _merge(proj: Projection, sub: Projection, rows: np.ndarray) -> Projection:
    """``proj`` with the points ``rows`` replaced by ``sub`` (fresh arrays)."""
    merged = {}
    for name in ("segment", "xi", "gap", "normal", "tangent", "master_nodes", "weights", "outside"):
        values = getattr(proj, name).copy()
        values[rows] = getattr(sub, name)
        merged[name] = values
    return Projection(**merged)


def _freeze(proj: Projection) -> Projection:
    for array in (proj.segment, proj.normal, proj.tangent, proj.master_nodes, proj.outside):
        array.flags.writeable = False  # shared by the projections that reuse them
    return proj


def pair(
    surface: MasterSurface,
    coords: np.ndarray,
    points: np.ndarray,
    exclude: np.ndarray | None = None,
) -> Projection:
    """:func:`fem2d.contact.search.project`, reusing each point's last pairing while certified.

    Same arguments and result as :func:`~fem2d.contact.search.project`.
    Points whose certificate fails are searched again (all of them when the
    master has moved). The certificates live in ``surface.cache``, one per
    set of query points (their number and ``exclude``); a surface whose
    ``reuse`` is False is searched at every call.
    """
    coords = np.asarray(coords, dtype=float)
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    if not surface.reuse:
        return project(surface, coords, points, exclude)
    key = ("pairing", len(points), None if exclude is None else np.asarray(exclude).tobytes())
    cert = surface.cache.get(key)
    if cert is None:
        proj = _freeze(project(surface, coords, points, exclude))
        master_nodes = np.unique(surface.nodes)
        reach = other_segment_bound(surface, coords, points, proj.segment, exclude)
        surface.cache[key] = Certificate(points.copy(), reach, master_nodes, coords[master_nodes], proj)
        return proj
    proj, failed, slack = _reuse(cert, surface, coords, points)
    if failed is None:
        return proj
    # search the points that lost their certificate; the others keep theirs, measured from the
    # master as it is now (their bound loses what the master moved since it was set)
    rows = np.flatnonzero(failed)
    sub_exclude = None if exclude is None else np.asarray(exclude)[rows]
    sub = project(surface, coords, points[rows], sub_exclude)
    proj = _freeze(_merge(proj, sub, rows))
    reach = cert.reach - slack
    reach[rows] = other_segment_bound(surface, coords, points[rows], sub.segment, sub_exclude)
    anchor = cert.points.copy()
    anchor[rows] = points[rows]
    surface.cache[key] = Certificate(anchor, reach, cert.master_nodes, coords[cert.master_nodes], proj)
    return proj
