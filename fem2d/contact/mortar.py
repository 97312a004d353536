r"""Mortar (segment-to-segment) contact kinematics: the slave edges cut where the master's nodes face them.

The weak form of contact, :math:`\int_{\Gamma_s} (\lambda_n \delta g + \lambda_t \delta u)\, d\Gamma`
with the pressure and the traction interpolated by the slave shape functions,
:math:`\lambda = \sum_j \phi_j \lambda_j`, gives per slave node the weighted gap and slip

.. math::

    \tilde g_j = \int_{\Gamma_s} \phi_j\, g\, d\Gamma, \qquad
    \tilde u_j = \int_{\Gamma_s} \phi_j\, u\, d\Gamma,

and the nodal forces :math:`f_k = \sum_j \lambda_j \int \phi_j \phi_k\, n\, d\Gamma` on the slave
side, :math:`f_a = -\sum_j \lambda_j \int \phi_j N_a\, n\, d\Gamma` on the master side: the mortar
matrices of Puso & Laursen and of Popp, Wohlmuth, Gee & Wall. Over a slave edge the master
shape functions :math:`N_a` jump where the edge passes a master node, so a Gauss rule on the
whole edge integrates a function with kinks (the error of ``integration = "gauss"`` on the
patch test). Here each slave edge is cut into *segments* at the points that face a master node
(:func:`cut_points`), and each segment gets its own Gauss rule (:func:`segment_quadrature`):
the products are polynomials on a segment of a flat master, integrated exactly, so a uniform
pressure is transmitted exactly between non-matching meshes (the contact patch test).

The multipliers :math:`\lambda_j` are pressures (Pa) with every method: the rows are those of
:func:`fem2d.contact.kinematics.weighted_kinematics`; a uniform pressure :math:`p` on the
slave surface gives :math:`\lambda_j = p` at every node, and the nodal forces are its
consistent nodal forces on both sides. On an axisymmetric zone the weights carry
:math:`2\pi r` (ring areas), the forces are whole-ring totals and :math:`\lambda` is still a
pressure. The normal is the master's at the projection of each point; the Jacobians are the
reference configuration's (small strains), the cuts the current configuration's (large sliding).

Limits. On a curved master (SEG2 facets of a circle, or SEG3) the closest-point projection is
not polynomial along a segment: the rule is accurate, not exact. Rigid planes and circles have
no nodes to cut at: a plane is integrated exactly, a circle accurately.
"""

from __future__ import annotations

import dataclasses
import operator
from functools import partial

import numpy as np

from fem2d.contact.kinematics import Kinematics, Rows, _same_object_and_values, weighted_kinematics
from fem2d.contact.problem import CondensedProblem, ContactZone
from fem2d.contact.surface import MasterSurface
from fem2d.contact.workspace import ContactWorkspace
from fem2d.fe.elements import line_shape, line_shape_derivative
from fem2d.fe.quadrature import gauss_legendre

#: Gauss points per segment: exact for the products on a flat master (SEG2: degree 3 with
#: the axisymmetric radius; straight SEG3: degree 5, curved SEG3 edges to round-off of their shape)
POINTS = {"seg2": 2, "seg3": 4}

#: Cuts closer than this (in the edge's local coordinate) to an end or to each other are merged.
MERGE = 1e-12

#: Most pairs (slave edge, master node) examined at once without a spatial index.
ALL_PAIRS = 200_000


def vertex_frames(surface: MasterSurface, coords: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""The master's corner nodes (boundary ids), their normal (the mean of the normals of the
    segments that meet there, the master body's outward side) and the length of their longest
    segment (m), at the current coordinates ``coords`` (n_boundary, 2).

    >>> surface = MasterSurface("seg2", np.array([[0, 1], [1, 2]]), np.ones(2))
    >>> nodes, normal, length = vertex_frames(surface, np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 1.0]]))
    >>> nodes.tolist(), normal.round(4).tolist(), length.round(4).tolist()
    ([0, 1, 2], [[0.0, -1.0], [0.3827, -0.9239], [0.7071, -0.7071]], [1.0, 1.4142, 1.4142])
    """
    ends = surface.nodes[:, :2]
    xs = coords[surface.nodes]
    eta = np.array([-1.0, 1.0])
    tau = np.einsum("ka,saj->skj", line_shape_derivative(surface.kind, eta), xs)  # (seg, end, 2)
    norm = np.linalg.norm(tau, axis=2)
    normal = surface.sign[:, None, None] * np.stack([tau[..., 1], -tau[..., 0]], axis=2) / norm[..., None]
    chord = np.linalg.norm(xs[:, 1] - xs[:, 0], axis=1)
    nodes, inverse = np.unique(ends.ravel(), return_inverse=True)
    summed = np.zeros((len(nodes), 2))
    np.add.at(summed, inverse, normal.reshape(-1, 2))
    summed /= np.linalg.norm(summed, axis=1)[:, None]
    length = np.zeros(len(nodes))
    np.maximum.at(length, inverse, np.repeat(chord, 2))
    return nodes, summed, length


def cut_points(zone: ContactZone, surface: MasterSurface, coords: np.ndarray,
               frames: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    r"""The cuts of the slave edges: ``(edge, eta)``, sorted by edge then :math:`\eta`, each the local
    coordinate :math:`\eta \in (-1, 1)` of a point of the edge that faces a master corner node
    :math:`x_v` along the master's normal :math:`n_v` there:

    .. math::

        (x(\eta) - x_v) \cdot t_v = 0, \qquad t_v = (n_{v,y}, -n_{v,x}),

    within the reach of the master node (the normal distance at most the slave edge's and
    the node's segment's lengths: a node across the body is not a cut). Linear in
    :math:`\eta` on a SEG2 edge, quadratic on a SEG3 one.
    ``frames`` are the master's :func:`vertex_frames` at ``coords`` when known.

    >>> from fem2d.contact.problem import make_zone
    >>> from fem2d.mesh.mesh import CellBlock
    >>> pts = [[0.0, 0.0], [1.0, 0.0], [0.0, 0.0], [0.25, 0.0], [1.0, 0.0]]
    >>> zone = make_zone(pts, CellBlock("seg2", [[1, 0]]), CellBlock("seg2", [[2, 3], [3, 4]]), 0.0)
    >>> surface = MasterSurface("seg2", np.asarray(zone.master_local), np.ones(2))
    >>> [c.tolist() for c in cut_points(zone, surface, zone.reference)]
    [[0], [0.5]]
    """
    edges = np.asarray(zone.slave_local)
    n_e = len(edges)
    none = (np.zeros(0, dtype=np.int64), np.zeros(0))
    if surface.kind == "circle" or not n_e:
        return none
    nodes, normal, seg_length = vertex_frames(surface, coords) if frames is None else frames
    x = coords[edges]  # (e, ns, 2)
    mid = 0.5 * (x[:, 0] + x[:, 1])
    half = 0.5 * (x[:, 1] - x[:, 0])
    curve = 0.5 * (x[:, 0] + x[:, 1]) - x[:, 2] if edges.shape[1] == 3 else np.zeros_like(mid)
    centre = x[:, 2] if edges.shape[1] == 3 else mid  # x(eta) = centre + eta half + eta^2 curve
    edge_length = 2.0 * np.linalg.norm(half, axis=1)
    e_of, v_of = _candidate_pairs(mid, edge_length, coords[nodes], seg_length)
    if not len(e_of):
        return none
    t = np.stack([normal[v_of, 1], -normal[v_of, 0]], axis=1)
    rel = centre[e_of] - coords[nodes[v_of]]
    a = np.einsum("pj,pj->p", curve[e_of], t)
    b = np.einsum("pj,pj->p", half[e_of], t)
    c = np.einsum("pj,pj->p", rel, t)
    eta = _root(a, b, c)
    at = centre[e_of] + eta[:, None] * half[e_of] + (eta**2)[:, None] * curve[e_of]
    distance = np.abs(np.einsum("pj,pj->p", at - coords[nodes[v_of]], normal[v_of]))
    keep = (np.abs(eta) < 1.0 - MERGE) & (distance <= edge_length[e_of] + seg_length[v_of])
    e_of, eta = e_of[keep], eta[keep]
    order = np.lexsort((eta, e_of))
    e_of, eta = e_of[order], eta[order]
    distinct = np.ones(len(eta), dtype=bool)  # a cut within MERGE of the one before on its edge is the same
    distinct[1:] = (e_of[1:] != e_of[:-1]) | (np.diff(eta) > MERGE)
    return e_of[distinct], eta[distinct]


def _root(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The root of a eta^2 + b eta + c = 0 nearest the linear one -c / b (nan where none)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        linear = -c / b
        disc = b * b - 4.0 * a * c
        sq = np.sqrt(np.where(disc >= 0.0, disc, np.nan))
        # the stable form of the root that tends to -c / b as a -> 0
        q = -0.5 * (b + np.copysign(sq, b))
        quadratic = c / q
    small = np.abs(a) <= 1e-12 * np.abs(b)
    return np.where(small, linear, quadratic)


def _candidate_pairs(mid: np.ndarray, edge_length: np.ndarray, vertex: np.ndarray,
                     seg_length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(edge, vertex) pairs near enough to cut: the vertex within 1.5 edge lengths plus its
    own segment's length of the edge's middle (all pairs on small zones, a k-d tree otherwise)."""
    n_e, n_v = len(mid), len(vertex)
    reach = 1.5 * edge_length + float(seg_length.max(initial=0.0))
    if n_e * n_v <= ALL_PAIRS:
        dist = np.linalg.norm(mid[:, None, :] - vertex[None, :, :], axis=2)
        e_of, v_of = np.nonzero(dist <= reach[:, None])
        return e_of, v_of
    from scipy.spatial import cKDTree  # lazily: scipy.spatial costs 0.3 s to import

    lists = cKDTree(vertex).query_ball_point(mid, reach)
    counts = np.array([len(x) for x in lists], dtype=np.int64)
    e_of = np.repeat(np.arange(n_e), counts)
    v_of = np.concatenate([np.asarray(x, dtype=np.int64) for x in lists]) if counts.sum() else np.zeros(0, np.int64)
    return e_of, v_of


def segment_quadrature(zone: ContactZone, cuts: tuple[np.ndarray, np.ndarray]
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Gauss points of the segments of the slave edges: ``(edge_of, phi, omega)`` per point.

    Edge e cut at :math:`-1 < \eta_1 < \dots < \eta_k < 1` has the segments
    :math:`[\eta_i, \eta_{i+1}]`; on each, :data:`POINTS` Gauss points
    :math:`\eta = \eta_i + (1 + \xi_g)(\eta_{i+1} - \eta_i)/2` with weights
    :math:`\omega = w_g\, (\eta_{i+1} - \eta_i)/2\, |dX/d\eta|` (m; times :math:`2\pi r` on an
    axisymmetric zone, r the reference radius at the point): the edge's length (ring area)
    is the sum of its segments'.

    >>> from fem2d.contact.problem import make_zone
    >>> from fem2d.mesh.mesh import CellBlock
    >>> zone = make_zone([[0.0, 0.0], [2.0, 0.0], [0.0, -1.0], [2.0, -1.0]], CellBlock("seg2", [[0, 1]]),
    ...                  CellBlock("seg2", [[2, 3]]), 0.0)
    >>> edge_of, phi, omega = segment_quadrature(zone, (np.array([0]), np.array([0.5])))
    >>> float(omega.sum()), (omega @ phi).tolist()
    (2.0, [1.0, 1.0])
    """
    kind = zone.slave_edges.kind
    edges = np.asarray(zone.slave_local)
    n_e = len(edges)
    # every edge's ends and cuts, sorted along each edge: consecutive ones on one edge bound a segment
    edge_all = np.concatenate([np.arange(n_e), np.arange(n_e), cuts[0]])
    eta_all = np.concatenate([-np.ones(n_e), np.ones(n_e), cuts[1]])
    order = np.lexsort((eta_all, edge_all))
    edge_all, eta_all = edge_all[order], eta_all[order]
    same = edge_all[1:] == edge_all[:-1]
    lower, upper, segment_edge = eta_all[:-1][same], eta_all[1:][same], edge_all[:-1][same]
    xi, w = gauss_legendre(POINTS[kind])
    half = 0.5 * (upper - lower)
    eta = (lower[:, None] + (1.0 + xi[None, :]) * half[:, None]).ravel()
    edge_of = np.repeat(segment_edge, len(xi))
    phi = line_shape(kind, eta)
    X = zone.reference[edges[edge_of]]  # reference coordinates of each point's edge nodes
    jac = np.linalg.norm(np.einsum("pa,paj->pj", line_shape_derivative(kind, eta), X), axis=1)
    omega = (w[None, :] * half[:, None]).ravel() * jac
    if zone.axisymmetric:
        omega = omega * 2.0 * np.pi * np.einsum("pa,pa->p", phi, X[..., 0])
    return edge_of, phi, omega


def mortar_kinematics(problem: CondensedProblem, surface: MasterSurface, d: np.ndarray) -> Kinematics:
    r"""Mortar kinematics of the slave nodes at the boundary displacement ``d`` (n_boundary, 2):
    the slave edges cut where they face the master's nodes (:func:`cut_points`, at
    :math:`x = X + d`), a Gauss rule per segment (:func:`segment_quadrature`), accumulated into
    weighted gaps, slips and rows (:func:`fem2d.contact.kinematics.weighted_kinematics`). The
    rule of the last cuts is kept in the problem's workspace while the cuts are the same.
    """
    zone = problem.zone
    coords = zone.reference + d
    frames = None
    if surface.kind != "circle":  # the master's frames, kept while its nodes stay put (a fixed master)
        master = coords[surface.nodes]
        frames = problem.workspace.last("mortar_frames", (surface, master.tobytes()),
                                        partial(vertex_frames, surface, coords), _same_object_and_values)
    cuts = cut_points(zone, surface, coords, frames)
    key = (cuts[0].tobytes(), cuts[1].tobytes())
    edge_of, phi, omega = problem.workspace.last("mortar_rule", key, partial(segment_quadrature, zone, cuts),
                                                 operator.eq)
    kin = weighted_kinematics(problem, surface, d, edge_of, phi, omega)
    if problem.compliance.shape != (2 * zone.n_boundary, 2 * zone.n_boundary):
        return kin  # (a problem without its bodies' compliance: the rows as they come)
    moving = problem.workspace.last("moving_dofs", problem.compliance, lambda: np.diagonal(problem.compliance) != 0.0)
    return dataclasses.replace(kin, B=steady_rows(kin.B, moving, problem.workspace))


def steady_rows(B: Rows, moving: np.ndarray, workspace: ContactWorkspace) -> Rows:
    r"""The rows B in a canonical form: each column once (repeated ones summed), the columns of
    dofs that move first; and, where their moving part equals the last call's to round-off
    (:math:`10^{-12}` of the largest entry), that part exactly the last call's.

    The condensed operator :math:`W = B C B^T` depends on the moving part alone
    (:func:`fem2d.contact.kinematics.delassus` keeps it while that part is the same). A body
    sliding on a fixed master moves its cuts every step, and a segment's products integrate
    to the same slave entries however the edge is cut (the integrand is a polynomial): the
    same to round-off, which this makes the same exactly, so W is kept instead of rebuilt.

    >>> B = Rows(np.array([[0, 2, 0]]), np.array([[1.0, 2.0, 3.0]]), 4)
    >>> moving = np.array([False, False, True, False])
    >>> steady = steady_rows(B, moving, ContactWorkspace())
    >>> steady.cols.tolist(), steady.vals.tolist()
    ([[2, 0]], [[2.0, 4.0]])
    """
    cols, vals = _merged(B.cols, B.vals, moving)
    is_moving = moving[cols] & (vals != 0.0)
    last = workspace.entries.get("mortar_moving_rows")
    if last is not None:
        old_cols, old_vals = last[1]
        if old_cols.shape == cols.shape and np.array_equal(np.where(is_moving, cols, -1), old_cols):
            scale = float(np.abs(vals).max(initial=0.0))
            if np.allclose(np.where(is_moving, vals, 0.0), old_vals, rtol=0.0, atol=1e-12 * scale):
                vals = np.where(is_moving, old_vals, vals)
    workspace.entries["mortar_moving_rows"] = (None, (np.where(is_moving, cols, -1), np.where(is_moving, vals, 0.0)))
    return Rows(cols, vals, B.n_cols)


def _merged(cols: np.ndarray, vals: np.ndarray, moving: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, each column once with the sum of its values, the moving dofs' columns first
    (each group by column index), padded with value 0 on a dof that does not move; entries below 1e-14 of the
    largest left out (so that a component that is zero but for round-off does not come and go)."""
    n, m = cols.shape
    key = np.where(moving[cols], cols, cols + moving.size)  # moving first
    # padding (and round-off, 1e-14 of the largest entry: a normal's zero component) last, dropped
    key = np.where(np.abs(vals) > 1e-14 * float(np.abs(vals).max(initial=0.0)), key, 2 * moving.size)
    order = np.argsort(key, axis=1, kind="stable")
    k = np.take_along_axis(key, order, axis=1)
    v = np.take_along_axis(vals, order, axis=1)
    start = np.ones((n, m), dtype=bool)
    start[:, 1:] = k[:, 1:] != k[:, :-1]
    group = np.cumsum(start, axis=1) - 1
    real = k < 2 * moving.size
    width = max(int((start & real).sum(axis=1).max(initial=0)), 1)
    # padding on a dof that does not move (if one does not), which the condensed operator ignores
    out_cols = np.full((n, width), int(np.argmin(moving)) if moving.size else 0, dtype=np.int64)
    out_vals = np.zeros((n, width))
    rows = np.repeat(np.arange(n), m).reshape(n, m)
    keep = real & (group < width)
    np.add.at(out_vals, (rows[keep], group[keep]), v[keep])
    out_cols[rows[keep], group[keep]] = np.where(k[keep] >= moving.size, k[keep] - moving.size, k[keep])
    return out_cols, out_vals
