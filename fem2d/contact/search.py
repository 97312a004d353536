r"""Contact search: slave points onto master segments (node-to-segment pairing).

Geometry only; the contact laws live in the formulations. Given the current
coordinates of the boundary nodes, every query point (a slave node, or a
Gauss point of a slave edge) is projected on the closest master segment
(SEG2 straight, SEG3 quadratic), which gives, per point,

* the master segment and the local coordinate :math:`\xi \in [-1, 1]` of the
  closest point :math:`x_m(\xi) = \sum_a N_a(\xi) x_a`;
* the master outward normal :math:`n` and tangent :math:`t`;
* the signed gap :math:`g = n \cdot (x - x_m(\xi))` (m), negative when the
  point has penetrated the master body;
* the master shape weights :math:`N_a(\xi)`, so that the gap variation
  :math:`\delta g = n \cdot (\delta d_s - \sum_a N_a \delta d_a)` involves the
  master dofs too (deformable masters).

Orientation: the master surface and the side its body is on
(:mod:`fem2d.contact.surface`, :class:`~fem2d.contact.surface.MasterSurface`).

Large sliding. The formulations pair at the configuration of the start of
the step, then again at the solution of each linear model until the pairing
agrees with it (cheap: boundary nodes only). Candidate segments come from a
:class:`scipy.spatial.cKDTree` on the centres of the segments' bounding
circles (nearest centres first, a ball query where they cannot settle the
closest segment; the same two queries on all point-centre distances for a
zone of up to :data:`DENSE_CENTRES` pairs), not from an all-pairs loop. A point whose closest-point
parameter falls outside :math:`[-1, 1]` on every candidate is *outside* the
master: it is flagged, given an infinite gap and no normal, and not
projected on an end of the master, unless it lies past that end by at most
:data:`END_TOLERANCE` of the shortest slave edge and of the end segment
(round-off, an elastic slip). A point facing no segment whose closest
point is a node between two segments (beyond a convex kink of the master, such
as the rim of the dent a disc presses into a block) projects on that node.

Rigid circle. A rigid disc of centre :math:`c` (one prescribed node) and
radius :math:`R` is a master of its own kind, ``"circle"``: its closest
point is found in closed form (:func:`project_on_circle`), exact at any
position, with the centre node as the only master node (weight 1), so that
:math:`\delta g = n \cdot (\delta d_s - \delta d_c)` moves the circle rigidly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from fem2d.fe.elements import line_shape, line_shape_derivative


class MasterSegments(Protocol):
    """What the search reads of a master surface (:class:`fem2d.contact.surface.MasterSurface`
    has it): the segments' ``kind`` (``"seg2"``, ``"seg3"``, or ``"circle"``), their node ids
    ``nodes`` (n_seg, 2 or 3; a circle's centre node), the orientation ``sign`` (+1/-1 per
    segment), how far beyond the chain's ends a point still projects (``end_reach``, m) and a
    circle's ``radius`` (m)."""

    kind: str
    nodes: np.ndarray
    sign: np.ndarray
    end_reach: float
    radius: float

#: Tolerance on the local coordinate for "inside the segment".
XI_TOLERANCE = 1e-9

#: How far beyond an end of the master chain a point still projects on that end, as a share of
#: the shortest slave edge and of the end segment, whichever is shorter (code_aster's
#: TOLE_PROJ_EXT, 0.5 of the master segment by default there). A slave node at
#: the master's end (two blocks of one length, matching meshes) slides past it by the elastic slip
#: of penalty friction or the Poisson expansion of a softer slave: 4.7 mm past a 0.25 m segment
#: in the patch test of a block with nu = 0.45 on a stiffer one; unpaired, it carried no force and
#: its neighbours up to 50 % too much. Farther out, the node has left the master.
END_TOLERANCE = 0.05


def _second_derivative(kind: str) -> np.ndarray:
    return np.array([0.0, 0.0]) if kind == "seg2" else np.array([1.0, 1.0, -2.0])


# --------------------------------------------------------------------------
# Projection
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Projection:
    """Closest-point projection of query points on the master surface.

    Arrays over the query points: ``segment`` (-1 outside), ``xi`` (nan
    outside), ``gap`` (m; +inf outside), ``normal`` and ``tangent`` (unit;
    zero outside), ``master_nodes`` (boundary indices of the segment's
    nodes) and ``weights`` (shape functions at ``xi``; zero outside, so the
    nodes listed there do not matter), ``outside``.
    """

    segment: np.ndarray
    xi: np.ndarray
    gap: np.ndarray
    normal: np.ndarray
    tangent: np.ndarray
    master_nodes: np.ndarray
    weights: np.ndarray
    outside: np.ndarray


def _bounding_circles(kind: str, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Centres and radii of circles that hold each segment (x: (n_seg, nn, 2))."""
    if kind == "seg3":
        # Bezier control point of the quadratic: the curve lies in the hull of (x0, b, x1)
        b = 2.0 * xs[:, 2] - 0.5 * (xs[:, 0] + xs[:, 1])
        ctrl = np.stack([xs[:, 0], xs[:, 1], b], axis=1)
    else:
        ctrl = xs
    centre = 0.5 * (ctrl.min(axis=1) + ctrl.max(axis=1))
    radius = np.linalg.norm(ctrl - centre[:, None, :], axis=2).max(axis=1)
    return centre, radius


def _closest_xi(kind: str, xs: np.ndarray, q: np.ndarray) -> np.ndarray:
    r"""Closest-point parameter of q on each segment (pairs are vectorised).

    SEG2 in closed form; SEG3 by Newton on
    :math:`f(\xi) = (x(\xi) - q) \cdot x'(\xi) = 0`, started from the chord.
    """
    a, b = xs[:, 0], xs[:, 1]
    chord = b - a
    u = np.einsum("ij,ij->i", q - a, chord) / np.einsum("ij,ij->i", chord, chord)
    xi = 2.0 * u - 1.0
    if kind == "seg2":
        return xi
    d2 = _second_derivative(kind)
    x2 = np.einsum("a,paj->pj", d2, xs)
    running = np.ones(len(xi), dtype=bool)
    for _ in range(30):
        xi = np.clip(xi, -3.0, 3.0)
        x = np.einsum("pa,paj->pj", line_shape(kind, xi), xs)
        x1 = np.einsum("pa,paj->pj", line_shape_derivative(kind, xi), xs)
        r = x - q
        f = np.einsum("pj,pj->p", r, x1)
        df = np.einsum("pj,pj->p", x1, x1) + np.einsum("pj,pj->p", r, x2)
        step = f / np.where(np.abs(df) > 0.0, df, 1.0)
        # each pair stops at its own convergence, so that its result does not depend on the other pairs
        xi = np.where(running, xi - step, xi)
        # points that leave [-2, 2] are outside this segment: no need to converge them
        running &= ~((np.abs(step) < 1e-14) | (np.abs(xi) > 2.0))
        if not running.any():
            break
    return xi


def _evaluate(kind: str, xs: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Closest points of pairs (segment nodes xs (p, nn, 2), points q (p, 2)):
    (xi clipped to [-1, 1], distance (inf if outside), foot)."""
    if kind == "seg2":
        return _evaluate_seg2(xs[:, 0], xs[:, 1] - xs[:, 0], None, q)
    xi = _closest_xi(kind, xs, q)
    inside = np.abs(xi) <= 1.0 + XI_TOLERANCE
    xi = np.minimum(np.maximum(xi, -1.0), 1.0)
    foot = np.einsum("pa,paj->pj", line_shape(kind, xi), xs)
    diff = q - foot
    dist = np.sqrt(np.einsum("pj,pj->p", diff, diff))
    if not inside.all():
        dist[~inside] = np.inf
    return xi, dist, foot


def _evaluate_seg2(
    a: np.ndarray, chord: np.ndarray, chord2: np.ndarray | None, q: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_evaluate` on straight segments from their first node ``a``, their
    ``chord`` and (optionally, precomputed) its squared length ``chord2``."""
    if chord2 is None:
        chord2 = np.einsum("ij,ij->i", chord, chord)
    xi = 2.0 * (np.einsum("ij,ij->i", q - a, chord) / chord2) - 1.0
    inside = np.abs(xi) <= 1.0 + XI_TOLERANCE
    xi = np.minimum(np.maximum(xi, -1.0), 1.0)
    foot = a + (0.5 * (xi + 1.0))[:, None] * chord
    diff = q - foot
    dist = np.sqrt(np.einsum("pj,pj->p", diff, diff))
    if not inside.all():
        dist[~inside] = np.inf
    return xi, dist, foot


#: Nearest segment centres tried first (the rest only when they could be closer).
K_NEAREST = 4
#: Up to this many (point, segment) pairs, every pair is evaluated (vectorised) instead of querying a tree.
ALL_PAIRS = 4096
#: Up to this many (point, segment) pairs, the nearest segment centres are found from all the
#: point-centre distances (:class:`DenseCentres`); above, by a :class:`scipy.spatial.cKDTree`.
DENSE_CENTRES = 1 << 18


class DenseCentres:
    """The two queries :func:`project` makes of a :class:`scipy.spatial.cKDTree` on the
    segments' centres, answered from the matrix of all point-centre distances.

    For the few hundred segments and slave nodes of a contact zone this costs what the
    tree's queries cost (0.3 ms for 321 points and 64 segments), without importing
    :mod:`scipy.spatial` (0.3 s, in every run whose zone is too large to evaluate every pair).

    >>> centres = DenseCentres(np.array([[0.0, 0.0], [1.0, 0.0], [3.0, 0.0]]))
    >>> d, i = centres.query(np.array([[0.9, 0.0]]), k=2)
    >>> i.tolist(), np.round(d, 12).tolist()
    ([[1, 0]], [[0.1, 0.9]])
    >>> [x.tolist() for x in centres.query_ball_point(np.array([[0.9, 0.0], [3.0, 0.0]]), np.array([1.0, 0.5]))]
    [[0, 1], [2]]
    """

    def __init__(self, centres: np.ndarray) -> None:
        self.centres = np.asarray(centres, dtype=float)

    def _distances(self, points: np.ndarray) -> np.ndarray:
        diff = points[:, None, :] - self.centres[None, :, :]
        return np.sqrt(np.einsum("qsj,qsj->qs", diff, diff))

    def query(self, points: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` nearest centres of each point: distances and indices, nearest first."""
        dist = self._distances(points)
        near = np.argpartition(dist, k - 1, axis=1)[:, :k] if k < dist.shape[1] else np.broadcast_to(
            np.arange(dist.shape[1]), dist.shape)
        near_d = np.take_along_axis(dist, near, axis=1)
        order = np.argsort(near_d, axis=1, kind="stable")
        return np.take_along_axis(near_d, order, axis=1), np.take_along_axis(near, order, axis=1)

    def query_ball_point(self, points: np.ndarray, radius: np.ndarray) -> list[np.ndarray]:
        """The indices of the centres within ``radius`` (one per point) of each point, increasing."""
        within = self._distances(points) <= np.asarray(radius, dtype=float)[:, None]
        return [np.flatnonzero(row) for row in within]


def project(
    surface: MasterSegments,
    coords: np.ndarray,
    points: np.ndarray,
    exclude: np.ndarray | None = None,
) -> Projection:
    r"""Project query points on the master surface (closest point).

    Small problems (at most :data:`ALL_PAIRS` point-segment pairs, or
    :data:`K_NEAREST` segments) evaluate every pair. Otherwise,
    candidates: the :data:`K_NEAREST` segments whose bounding-circle
    centres are nearest (one vectorised :class:`~scipy.spatial.cKDTree`
    query; up to :data:`DENSE_CENTRES` pairs, the same queries on all the
    point-centre distances, :class:`DenseCentres`). A point is settled when its best inside candidate, at distance
    :math:`\delta`, cannot be beaten by any other segment: the next centre
    is farther than :math:`\delta + R_{max}` (:math:`R_{max}` the largest
    bounding radius). Unsettled points get a ball query of that radius (or,
    with no inside candidate yet, of the radius that reaches every segment
    within one segment size). So pairing costs
    :math:`O(n_q \log n_{seg})` and is exact.

    Parameters
    ----------
    surface
        The oriented master segments (:func:`fem2d.contact.surface.master_surface`).
    coords
        Current coordinates of the boundary nodes (n_boundary, 2), m.
    points
        Query points (n_q, 2), m (slave nodes, or slave Gauss points).
    exclude
        Optional (n_q,) boundary node index per query point: segments that
        contain that node are skipped (a slave node is never paired with a
        segment it belongs to).

    Returns
    -------
    Projection
        Per query point; among the segments whose closest point is inside
        (:math:`|\xi| \le 1` within :data:`XI_TOLERANCE`), the one at the
        smallest distance.
    """
    coords = np.asarray(coords, dtype=float)
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    if surface.kind == "circle":
        return project_on_circle(coords[surface.nodes[0, 0]], surface.radius, points, surface.nodes[0])
    kind, conn = surface.kind, surface.nodes
    n_seg, n_q = len(conn), len(points)
    xs_all = coords[conn]
    use_tree = n_seg > K_NEAREST and n_seg * n_q > ALL_PAIRS
    k = min(K_NEAREST, n_seg) if use_tree else n_seg
    if not use_tree:  # every segment is a candidate: no index needed
        near = np.broadcast_to(np.arange(n_seg), (n_q, n_seg))
    else:
        centre, radius = _bounding_circles(kind, xs_all)
        r_max = float(radius.max())
        if n_seg * n_q <= DENSE_CENTRES:
            tree = DenseCentres(centre)
        else:
            from scipy.spatial import cKDTree  # lazily: scipy.spatial costs 0.3 s to import

            tree = cKDTree(centre)
        near_d, near = tree.query(points, k=k + 1)
    s_idx = np.ascontiguousarray(near[:, :k])
    xi, dist, foot = _evaluate(kind, xs_all[s_idx.ravel()], np.repeat(points, k, axis=0))
    xi, dist, foot = xi.reshape(n_q, k), dist.reshape(n_q, k), foot.reshape(n_q, k, 2)
    if exclude is not None:
        own = np.any(conn[s_idx] == np.asarray(exclude)[:, None, None], axis=2)
        dist = np.where(own, np.inf, dist)
    pick = np.argmin(dist, axis=1)
    rows_all = np.arange(n_q)
    best_seg = s_idx[rows_all, pick]
    best_xi = xi[rows_all, pick]
    best_dist = dist[rows_all, pick]
    best_foot = foot[rows_all, pick]
    if use_tree:
        unsettled = np.flatnonzero(~(near_d[:, k] > best_dist + r_max))
        if len(unsettled):
            reach = np.where(np.isfinite(best_dist[unsettled]), best_dist[unsettled], 2.0 * r_max) + r_max
            lists = tree.query_ball_point(points[unsettled], reach)
            counts = np.array([len(x) for x in lists], dtype=np.int64)
            if counts.sum():
                q_more = np.repeat(unsettled, counts)
                s_more = np.concatenate([np.asarray(x, dtype=np.int64) for x in lists])
                xi2, dist2, foot2 = _evaluate(kind, xs_all[s_more], points[q_more])
                if exclude is not None:
                    own_more = np.any(conn[s_more] == np.asarray(exclude)[q_more][:, None], axis=1)
                    dist2 = np.where(own_more, np.inf, dist2)
                # per point, the best extra pair (ties: lowest segment), if it beats the current best
                order = np.lexsort((s_more, dist2, q_more))
                first = order[np.r_[True, q_more[order][1:] != q_more[order][:-1]]]
                better = first[dist2[first] < best_dist[q_more[first]]]
                rows = q_more[better]
                best_seg[rows], best_xi[rows], best_dist[rows], best_foot[rows] = (
                    s_more[better],
                    xi2[better],
                    dist2[better],
                    foot2[better],
                )
    lost = np.flatnonzero(~np.isfinite(best_dist))
    if len(lost):
        _onto_kinks(conn, xs_all, points, lost, exclude, best_seg, best_xi, best_dist, best_foot, surface.end_reach)
    return finish_projection(surface, xs_all, points, best_seg, best_xi, best_dist, best_foot)


def _onto_kinks(conn: np.ndarray, xs_all: np.ndarray, points: np.ndarray, rows: np.ndarray,
                exclude: np.ndarray | None, seg: np.ndarray, xi: np.ndarray, dist: np.ndarray,
                foot: np.ndarray, end_reach: float = 0.0) -> None:
    """Points facing no segment whose closest point on the master is a node between two of its
    segments (the far side of a convex kink, such as the rim of a dent a disc presses into a
    block) project on that node (xi = +-1 on a segment holding it), in place; so does a point
    whose closest point is an end of the master chain when it lies beyond that end, along the
    end segment, by at most ``end_reach`` (m; :attr:`MasterSegments.end_reach`) and
    :data:`END_TOLERANCE` of the end segment's length, and within the segment's length of
    the end node (the gap is then measured from the end node along the end segment's
    normal). Only a point farther beyond an end of the master chain stays outside it."""
    ends = conn[:, :2]
    shared = np.bincount(ends.ravel())[ends] > 1  # (seg, end): a node of two segments, not a chain's end
    d = np.linalg.norm(points[rows][:, None, None, :] - xs_all[None, :, :2, :], axis=3)  # (rows, seg, end)
    if exclude is not None:
        own = np.any(conn[None, :, :] == np.asarray(exclude)[rows][:, None, None], axis=2)
        d = np.where(own[:, :, None], np.inf, d)
    flat = np.argmin(d.reshape(len(rows), -1), axis=1)
    s, e = np.divmod(flat, 2)
    near = np.isfinite(d[np.arange(len(rows)), s, e])
    # beyond a chain's end: the distance past it along the end segment (its chord), outwards
    chord = xs_all[s, 1] - xs_all[s, 0]
    length = np.linalg.norm(chord, axis=1)
    outward = np.where((e == 1)[:, None], chord, -chord) / np.where(length > 0.0, length, 1.0)[:, None]
    past = np.einsum("ij,ij->i", points[rows] - xs_all[s, e], outward)
    # "at the end": within the surface's reach (a share of the slave edges: a master of one long
    # segment must not reach far) and the same share of the end segment
    reach = np.minimum(END_TOLERANCE * length, end_reach)
    at_end = ~shared[s, e] & (past <= reach) & (d[np.arange(len(rows)), s, e] <= length)
    hit = (shared[s, e] | at_end) & near
    r = rows[hit]
    seg[r], xi[r] = s[hit], np.where(e[hit] == 0, -1.0, 1.0)
    dist[r], foot[r] = d[np.arange(len(rows)), s, e][hit], xs_all[s[hit], e[hit]]


def finish_projection(
    surface: MasterSegments,
    xs_all: np.ndarray,
    points: np.ndarray,
    segment: np.ndarray,
    xi: np.ndarray,
    dist: np.ndarray,
    foot: np.ndarray,
    master_nodes: np.ndarray | None = None,
) -> Projection:
    """The :class:`Projection` of points on chosen segments.

    ``xs_all`` (n_seg, nn, 2) are the segments' node coordinates; per point,
    ``segment``, ``xi``, ``dist`` (+inf: no inside segment) and ``foot`` as
    returned by the closest-point evaluation; ``master_nodes`` (optional)
    the nodes of the segments, when every point has one.
    """
    kind, conn = surface.kind, surface.nodes
    n_q = len(points)
    found = np.isfinite(dist)
    all_found = bool(found.all())
    seg = segment if all_found else np.where(found, segment, 0)
    xc = xi if all_found else np.where(found, xi, 0.0)
    xs = xs_all[seg]
    if kind == "seg2":
        tau = xs[:, 1] - xs[:, 0]
    else:
        tau = np.einsum("pa,paj->pj", line_shape_derivative(kind, xc), xs)
    scale = surface.sign[seg] / np.sqrt(np.einsum("pj,pj->p", tau, tau))
    normal = np.empty((n_q, 2))
    normal[:, 0] = tau[:, 1] * scale
    normal[:, 1] = -tau[:, 0] * scale
    tangent = np.empty((n_q, 2))
    tangent[:, 0], tangent[:, 1] = normal[:, 1], -normal[:, 0]
    gap = np.einsum("pj,pj->p", normal, points - foot)
    weights = line_shape(kind, xc)
    if all_found:
        nodes = conn[seg] if master_nodes is None else master_nodes
        return Projection(seg, xc, gap, normal, tangent, nodes, weights, ~found)
    normal[~found] = 0.0
    tangent[~found] = 0.0
    weights[~found] = 0.0
    gap = np.where(found, gap, np.inf)
    return Projection(
        np.where(found, seg, -1), np.where(found, xc, np.nan), gap, normal, tangent, conn[seg], weights, ~found
    )


def project_on_circle(centre: np.ndarray, radius: float, points: np.ndarray, centre_node: np.ndarray) -> Projection:
    r"""Closest-point projection of points on a rigid circle (the master body is the disc).

    With :math:`r = x - c` and :math:`\rho = |r|`,

    .. math::

        n = r / \rho, \qquad g = \rho - R, \qquad t = (n_y, -n_x),

    exact for any position outside or inside the disc (the foot of the
    normal :math:`c + R\,n` is the closest point of the circle). A point at
    the centre itself has no normal: it is *outside* (infinite gap). The
    centre node is the one master node of every pair, weight 1.

    Parameters
    ----------
    centre
        Current centre (2,), m.
    radius
        R > 0, m.
    points
        Query points (n_q, 2), m.
    centre_node
        (1,) boundary index of the centre node.

    Examples
    --------
    >>> proj = project_on_circle(np.zeros(2), 1.0, np.array([[0.0, 2.0], [0.6, 0.8]]), np.array([0]))
    >>> proj.gap.round(12).tolist(), proj.normal.round(12).tolist()
    ([1.0, 0.0], [[0.0, 1.0], [0.6, 0.8]])
    >>> proj.tangent.round(12).tolist()[0]
    [1.0, -0.0]
    """
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    n_q = len(points)
    r = points - np.asarray(centre, dtype=float)
    rho = np.hypot(r[:, 0], r[:, 1])
    outside = ~(rho > 0.0)
    normal = r / np.where(outside, 1.0, rho)[:, None]
    normal[outside] = 0.0
    tangent = np.column_stack([normal[:, 1], -normal[:, 0]])
    gap = np.where(outside, np.inf, rho - radius)
    segment = np.where(outside, -1, 0)
    xi = np.where(outside, np.nan, 0.0)
    weights = np.where(outside, 0.0, 1.0)[:, None]
    master_nodes = np.broadcast_to(np.asarray(centre_node, dtype=np.int64).reshape(1, 1), (n_q, 1)).copy()
    return Projection(segment, xi, gap, normal, tangent, master_nodes, weights, outside)
