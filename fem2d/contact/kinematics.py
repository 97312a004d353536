r"""Contact kinematics of one step at the current iterate, and its linearisation.

For the current boundary displacement :math:`d` of a
:class:`~fem2d.contact.problem.CondensedProblem`, pair the slave side with the
master (:mod:`fem2d.contact.search`) and return, per slave node :math:`j`,

* the gap :math:`g_j` (m, negative = penetration) and the tangential slip
  increment of the step relative to the master,
  :math:`u_j = t \cdot [(d_s - d_s^0) - \sum_a N_a (d_a - d_a^0)]` (m), with
  :math:`d^0` the displacement at the start of the step;
* the rows :math:`B` of their linearisation on the boundary dofs, so that a
  change :math:`\Delta d` changes :math:`w_j g_j` by :math:`B_{n,j} \Delta d`
  and :math:`w_j u_j` by :math:`B_{t,j} \Delta d`;
* the weights :math:`w_j`: 1 for the discrete (node-to-segment) methods, the
  integral of the slave shape function :math:`\int \phi_j\, d\Gamma` (m, per
  unit thickness) for the weak (continuous) methods.

Contact forces on the boundary nodes are :math:`p = B^T \lambda` with
:math:`\lambda = (\lambda_n, \lambda_t)` the multipliers (N for the discrete
methods, Pa for the weak ones), and the condensed (Delassus) operator is
:math:`W = B C B^T`.

Two integrations of the weak form :math:`\int_{\Gamma_s} (\lambda_n \delta g
+ \lambda_t \delta u)\, d\Gamma`, with :math:`\lambda = \sum_j \phi_j \lambda_j`:

* ``nodal`` (code_aster's default): quadrature at the slave nodes, so
  :math:`B_j = w_j G_j` with :math:`G_j` the node-to-segment rows of node j;
* ``gauss``: Gauss points on every slave edge, each projected on the master,
  :math:`B_j = \sum_q \omega_q \phi_j(s_q) G_q` (mortar-like weighted gaps
  :math:`\tilde g_j = \int \phi_j g\, d\Gamma`; on a flat master the slave
  block of :math:`B_n` is the consistent surface matrix
  :math:`M_{jk} = \int \phi_j \phi_k\, d\Gamma` times :math:`n`).

The reported ``gap`` and ``slip`` are the normalised
:math:`\tilde g_j / w_j` and :math:`\tilde u_j / w_j` (m). Weights and Gauss
Jacobians are taken in the reference configuration (small strains; rigid
sliding does not change them).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from fem2d.contact.pairing import pair
from fem2d.contact.problem import CondensedProblem, ContactZone
from fem2d.contact.search import Projection
from fem2d.contact.surface import MasterSurface
from fem2d.contact.workspace import ContactWorkspace
from fem2d.fe.elements import line_shape, line_shape_derivative
from fem2d.fe.quadrature import gauss_legendre


@dataclass(frozen=True)
class Rows:
    r"""Sparse rows on the boundary dofs in padded (ELLPACK) form.

    Row i is :math:`\sum_m \mathrm{vals}[i, m]\, e_{\mathrm{cols}[i, m]}`;
    repeated columns add up and padding has value 0. Every product below
    loops over the (small) padding width only, never over nodes.
    """

    cols: np.ndarray
    vals: np.ndarray
    n_cols: int

    def dot(self, x: np.ndarray) -> np.ndarray:
        """:math:`B x` for a boundary vector x (n_cols,)."""
        return np.einsum("im,im->i", self.vals, x[self.cols])

    def transpose_dot(self, lam: np.ndarray) -> np.ndarray:
        r""":math:`B^T \lambda` (n_cols,)."""
        return np.bincount(self.cols.ravel(), (self.vals * lam[:, None]).ravel(), minlength=self.n_cols)

    def times(self, matrix: np.ndarray) -> np.ndarray:
        """:math:`B A` for a dense A (n_cols, k)."""
        out = np.zeros((len(self.cols), matrix.shape[1]))
        for m in range(self.cols.shape[1]):
            out += self.vals[:, m, None] * matrix[self.cols[:, m]]
        return out

    def times_transpose(self, matrix: np.ndarray) -> np.ndarray:
        """:math:`A B^T` for a dense A (k, n_cols)."""
        out = np.zeros((matrix.shape[0], len(self.cols)))
        for m in range(self.cols.shape[1]):
            out += matrix[:, self.cols[:, m]] * self.vals[None, :, m]
        return out

    def scaled(self, factor: np.ndarray) -> Rows:
        """Rows multiplied by ``factor`` (one value per row)."""
        return Rows(self.cols, self.vals * factor[:, None], self.n_cols)

    def toarray(self) -> np.ndarray:
        """Dense (n_rows, n_cols) copy (tests, small problems)."""
        out = np.zeros((len(self.cols), self.n_cols))
        np.add.at(out, (np.repeat(np.arange(len(self.cols)), self.cols.shape[1]), self.cols.ravel()), self.vals.ravel())
        return out


@dataclass(frozen=True)
class Kinematics:
    """Per slave node: ``gap``, ``slip`` (m), ``normal``, ``tangent``,
    ``outside`` (no master facing the node), ``weight`` (1 or m), and the
    rows ``B`` ((2 n_slave) rows: normal rows then tangential rows) of
    :math:`(w g, w u)`; ``projection`` is the pairing of the slave nodes (of the integration points for the weak forms).
    ``any_outside`` is ``outside.any()`` (None: not known yet) and ``unit``
    says that every weight is 1."""

    gap: np.ndarray
    slip: np.ndarray
    normal: np.ndarray
    tangent: np.ndarray
    outside: np.ndarray
    weight: np.ndarray
    B: Rows
    projection: Projection
    any_outside: bool | None = None
    unit: bool = False
    #: nodes whose multiplier a neighbour carries (:func:`weighted_kinematics`): outside, yet not off the master
    tied: np.ndarray | None = None

    def values(self) -> np.ndarray:
        r"""The weighted values :math:`(w g, w u)` (2 n,), zero where outside."""
        outside = self.outside.any() if self.any_outside is None else self.any_outside
        if not outside and self.unit:
            return np.concatenate((self.gap, self.slip))
        if not outside:
            return np.concatenate((self.weight * self.gap, self.weight * self.slip))
        inside = ~self.outside
        wg = np.where(inside, self.weight * np.where(inside, self.gap, 0.0), 0.0)
        return np.concatenate([wg, np.where(inside, self.weight * self.slip, 0.0)])


def _point_rows(proj: Projection, slave_nodes: np.ndarray, slave_phi: np.ndarray) -> tuple[np.ndarray, ...]:
    """Columns and values of the normal and tangential rows at query points:
    +phi at the slave nodes, -N at the master nodes (zero where outside)."""
    nodes = np.concatenate([slave_nodes, proj.master_nodes], axis=1)
    coef = np.concatenate([slave_phi, -proj.weights], axis=1) * (~proj.outside)[:, None]
    cols = (2 * nodes[:, :, None] + np.arange(2)).reshape(len(nodes), -1)
    vals_n = (coef[:, :, None] * proj.normal[:, None, :]).reshape(len(nodes), -1)
    vals_t = (coef[:, :, None] * proj.tangent[:, None, :]).reshape(len(nodes), -1)
    return cols, vals_n, vals_t


def _slips(proj: Projection, du: np.ndarray, slave_du: np.ndarray, outside: bool = True) -> np.ndarray:
    """Tangential slip increments at query points (zero where ``outside``, if any is)."""
    rel = slave_du - np.einsum("pa,paj->pj", proj.weights, du[proj.master_nodes])
    slip = np.einsum("pj,pj->p", proj.tangent, rel)
    if outside:
        slip[proj.outside] = 0.0
    return slip


def _node_columns(master_nodes: np.ndarray) -> np.ndarray:
    """Columns of the normal rows, then the tangential rows, of the slave nodes
    (2 n, 2 (1 + nn)): the x, y dofs of the node, then of its segment's nodes.

    Kept in the workspace while the pairing is: :func:`fem2d.contact.pairing.pair`
    hands back the same (read-only) ``master_nodes`` array while its certificate holds.
    """
    n = len(master_nodes)
    nodes = np.concatenate([np.arange(n)[:, None], master_nodes], axis=1)
    cols = (2 * nodes[:, :, None] + np.arange(2)).reshape(n, -1)
    cols = np.concatenate((cols, cols))
    cols.flags.writeable = False
    return cols


def start_gap_offset(problem: CondensedProblem, surface: MasterSurface) -> np.ndarray | None:
    """min(g0, 0) per slave node, g0 its gap at the start of the step (``d_start``),
    for a problem with ``velocity_level`` (None otherwise): what the gaps of
    the step subtract, so that a closed or penetrated node is held on the
    change of its gap (one pairing per step, kept in the workspace)."""
    if not problem.velocity_level:
        return None

    def make() -> np.ndarray:
        n_s = problem.zone.n_slave
        coords = problem.zone.reference + problem.d_start
        proj = pair(surface, coords, coords[:n_s], exclude=problem.workspace.slave_ids(n_s))
        gap = proj.gap if problem.gap_offset is None else proj.gap + problem.gap_offset
        return np.where(proj.outside, 0.0, np.minimum(np.nan_to_num(gap, posinf=0.0), 0.0))

    return problem.workspace.last("start_gap", problem.d_start, make)


def node_kinematics(problem: CondensedProblem, surface: MasterSurface, d: np.ndarray) -> Kinematics:
    """Node-to-segment kinematics of the slave nodes (weights 1): gaps plus the
    problem's ``gap_offset`` (a worn depth) and, with ``velocity_level``, less
    :func:`start_gap_offset`.

    The pairing and the rows depend on ``d`` alone, the slips on ``d`` and the
    start of the step: the last pairing and rows are kept in the problem's
    workspace for the same ``d`` and surface (:func:`node_geometry`). A step
    linearises at its start, where the last step's solution left the boundary,
    so a step without contact pairs once instead of twice.
    """
    n_s = problem.zone.n_slave
    proj, B, outside = node_geometry(problem, surface, d)
    du = d - problem.d_start
    slip = _slips(proj, du, du[:n_s], outside)
    weights = problem.workspace.unit_weights(n_s)
    offset = start_gap_offset(problem, surface)
    gap = proj.gap if problem.gap_offset is None else proj.gap + problem.gap_offset
    gap = gap if offset is None else gap - offset
    return Kinematics(gap, slip, proj.normal, proj.tangent, proj.outside, weights, B, proj, outside, True)


def node_geometry(problem: CondensedProblem, surface: MasterSurface, d: np.ndarray) -> tuple[Projection, Rows, bool]:
    """The pairing of the slave nodes at ``d`` (n_boundary, 2), the rows B of their gaps and
    slips and whether some node is outside the master: the part of :func:`node_kinematics`
    that depends on ``d`` alone, kept in the problem's workspace for the same ``d`` and
    surface (read-only arrays)."""
    return problem.workspace.last("node_geometry", (surface, d.tobytes()), partial(_node_geometry, problem, surface, d),
                                  _same_object_and_values)


def _node_geometry(problem: CondensedProblem, surface: MasterSurface, d: np.ndarray) -> tuple[Projection, Rows, bool]:
    """The pairing of the slave nodes at ``d``, the rows B of their gaps and slips and whether
    some node is outside the master (:func:`node_kinematics`); the arrays are read-only."""
    zone, ws = problem.zone, problem.workspace
    n_s = zone.n_slave
    coords = zone.reference + d
    proj = pair(surface, coords, coords[:n_s], exclude=ws.slave_ids(n_s))
    outside = bool(proj.outside.any())
    # rows: +1 at the slave node, -N_a at the segment's nodes, times n (normal rows) or t (tangential rows)
    coef = np.empty((n_s, 1 + proj.weights.shape[1]))
    coef[:, 0] = 1.0
    np.negative(proj.weights, out=coef[:, 1:])
    if outside:
        coef[proj.outside] = 0.0
    frame = np.concatenate((proj.normal, proj.tangent))
    vals = (np.concatenate((coef, coef))[:, :, None] * frame[:, None, :]).reshape(2 * n_s, -1)
    B = Rows(ws.last("layout", proj.master_nodes, partial(_node_columns, proj.master_nodes)), vals, 2 * zone.n_boundary)
    for array in (proj.gap, proj.xi, proj.weights, vals):
        array.flags.writeable = False  # kept for the next call at the same d
    return proj, B, outside


def _edge_quadrature(
    zone: ContactZone, n_points: int, displacement: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    r"""Gauss points of the slave edges: (phi (n_q, ns), omega (..., n_e, n_q)).

    ``omega`` are the Gauss weights times the Jacobian, m; times
    :math:`2\pi r` at the point (m^2, the ring's area) on an axisymmetric
    zone. Reference configuration, or the current one :math:`x = X + u` with
    ``displacement`` u of the slave nodes, shape (..., n_slave, 2).
    """
    kind = zone.slave_edges.kind
    eta, w = gauss_legendre(n_points)
    phi = line_shape(kind, eta)
    x = zone.reference[: zone.n_slave]
    if displacement is not None:
        x = x + np.asarray(displacement, dtype=float)
    x0 = x[..., zone.slave_local, :]
    jac = np.linalg.norm(np.einsum("qa,...eaj->...eqj", line_shape_derivative(kind, eta), x0), axis=-1)
    omega = w * jac
    if zone.axisymmetric:
        omega = omega * (2.0 * np.pi * np.einsum("qa,...ea->...eq", phi, x0[..., 0]))
    return phi, omega


def slave_weights(zone: ContactZone, displacement: np.ndarray | None = None) -> np.ndarray:
    r"""Nodal integration weights :math:`w_j = \int_{\Gamma_s} \phi_j\, d\Gamma` (m per unit thickness);
    on an axisymmetric zone the ring areas :math:`w_j = \int_{\Gamma_s} \phi_j\, 2\pi r\, d\Gamma`
    (m^2: the whole circumference, r the reference radius).

    Integrated with 3 Gauss points per slave edge: half the adjacent
    lengths for SEG2 edges; :math:`L/6, L/6, 2L/3` for straight SEG3 edges.
    Use them to turn nodal forces into pressures (Pa). The array is
    read-only (a :class:`~fem2d.contact.workspace.ContactWorkspace` keeps it
    for the steps of a zone, :func:`zone_weights`).

    The surface is the reference one :math:`\Gamma_s = \{X\}`, or with ``displacement`` u
    of the slave nodes (shape (..., n_slave, 2), in ``zone.slave_nodes`` order) the current
    one :math:`\{x = X + u\}`: weights of shape (..., n_slave), one set per displacement
    (a body that stretches by :math:`\lambda` along its surface has its weights times
    :math:`\lambda`; a rigid motion leaves them as they are).

    >>> from fem2d.contact.problem import make_zone
    >>> from fem2d.mesh.mesh import CellBlock
    >>> pts = [[0.0, 0.0], [1.0, 0.0], [3.0, 0.0], [0.0, -1.0], [3.0, -1.0]]
    >>> zone = make_zone(pts, CellBlock("seg2", [[0, 1], [1, 2]]), CellBlock("seg2", [[3, 4]]), 0.0)
    >>> slave_weights(zone).round(12).tolist(), slave_weights(zone, 0.5 * zone.reference[:3]).round(12).tolist()
    ([0.5, 1.5, 1.0], [0.75, 2.25, 1.5])
    """
    phi, omega = _edge_quadrature(zone, 3, displacement)
    contributions = np.einsum("...eq,qa->...ea", omega, phi)
    weights = np.zeros((*contributions.shape[:-2], zone.n_slave))
    np.add.at(weights, (..., zone.slave_local), contributions)
    weights.flags.writeable = False
    return weights


def surface_matrix(zone: ContactZone, displacement: np.ndarray | None = None):
    r"""The slave surface's matrix :math:`M_{jk} = \int_{\Gamma_s} \phi_j \phi_k\, d\Gamma` (m; with
    :math:`2\pi r` on an axisymmetric zone, m^2), sparse (n_slave, n_slave), 3 Gauss points per
    edge (exact on straight SEG2 edges, 5th degree), on the reference surface or with the slave
    nodes' ``displacement`` (n_slave, 2) on the current one. Its rows sum to the weights of
    :func:`slave_weights`: the consistent nodal forces of a pressure field :math:`p = \sum_k
    \phi_k p_k` are :math:`F = M p`.

    >>> from fem2d.contact.problem import make_zone
    >>> from fem2d.mesh.mesh import CellBlock
    >>> zone = make_zone([[0.0, 0.0], [3.0, 0.0], [0.0, -1.0], [3.0, -1.0]], CellBlock("seg2", [[0, 1]]),
    ...                  CellBlock("seg2", [[2, 3]]), 0.0)
    >>> surface_matrix(zone).toarray().round(12).tolist()
    [[1.0, 0.5], [0.5, 1.0]]
    """
    import scipy.sparse as sp

    phi, omega = _edge_quadrature(zone, 4 if zone.slave_edges.kind == "seg3" else 3, displacement)
    local = np.einsum("eq,qa,qb->eab", omega, phi, phi)
    edges = zone.slave_local
    ns = edges.shape[1]
    rows = np.repeat(edges, ns, axis=1).ravel()
    cols = np.tile(edges, (1, ns)).ravel()
    return sp.csr_matrix((local.ravel(), (rows, cols)), shape=(zone.n_slave, zone.n_slave))


def zone_weights(problem: CondensedProblem) -> np.ndarray:
    """:func:`slave_weights` of the problem's zone, kept in its workspace."""
    return problem.workspace.last("slave_weights", problem.zone, partial(slave_weights, problem.zone))


def nodal_pressure(problem: CondensedProblem, force: np.ndarray) -> np.ndarray:
    """Nodal forces per unit tributary length (Pa per unit thickness): ``force`` (N, one
    per slave node) over :func:`zone_weights`, zero on a node without length.

    The nodes with length and the divisors are kept in the workspace with the weights.
    """
    weights = zone_weights(problem)

    def make() -> tuple[np.ndarray, np.ndarray]:
        positive = weights > 0.0
        return positive, np.where(positive, weights, 1.0)

    positive, safe = problem.workspace.last("pressure_divisors", weights, make)
    return np.where(positive, force / safe, 0.0)


def nodal_kinematics(
    problem: CondensedProblem, surface: MasterSurface, d: np.ndarray, weights: np.ndarray
) -> Kinematics:
    """Weak-form kinematics with nodal integration: :math:`B_j = w_j G_j`."""
    kin = node_kinematics(problem, surface, d)
    B = kin.B.scaled(np.concatenate([weights, weights]))
    return Kinematics(
        kin.gap, kin.slip, kin.normal, kin.tangent, kin.outside, weights, B, kin.projection, kin.any_outside
    )


def gauss_kinematics(problem: CondensedProblem, surface: MasterSurface, d: np.ndarray, n_points: int) -> Kinematics:
    r"""Weak-form kinematics with ``n_points`` Gauss points per slave edge.

    Every Gauss point :math:`s_q` of a slave edge is projected on the master;
    its rows :math:`G_q` are accumulated as
    :math:`B_j = \sum_q \omega_q \phi_j(s_q) G_q` (:func:`weighted_kinematics`).
    """
    zone = problem.zone
    n_e = len(zone.slave_local)
    phi, omega = _edge_quadrature(zone, n_points)
    n_q = phi.shape[0]
    return weighted_kinematics(problem, surface, d, np.repeat(np.arange(n_e), n_q), np.tile(phi, (n_e, 1)),
                               omega.ravel())


def weighted_kinematics(
    problem: CondensedProblem, surface: MasterSurface, d: np.ndarray, edge_of: np.ndarray, phi: np.ndarray,
    omega: np.ndarray,
) -> Kinematics:
    r"""Weak-form kinematics from integration points on the slave edges.

    Point p lies on slave edge ``edge_of[p]`` where the edge's shape functions are ``phi[p]``
    (n_p, ns), with the weight ``omega[p]`` (the quadrature weight times the reference
    Jacobian, m; times :math:`2\pi r` on an axisymmetric zone). Each point, at
    :math:`x_p = \sum_a \phi_a x_a` in the current configuration, is projected on the master
    and its rows :math:`G_p` (+phi at the slave nodes, -N at the master ones, times the
    master's n or t) are accumulated as

    .. math::

        B_j = \sum_p \omega_p\, \phi_j(x_p)\, G_p, \qquad
        \tilde g_j = \sum_p \omega_p\, \phi_j(x_p)\, g_p, \qquad
        w_j = \sum_p \omega_p\, \phi_j(x_p):

    the weighted gaps :math:`\tilde g_j = \int \phi_j g\, d\Gamma` when the points integrate
    exactly. A ``gap_offset`` :math:`h_j` of the problem (a worn depth) adds
    :math:`\sum_p \omega_p \phi_j(x_p) \sum_k \phi_k(x_p) h_k = \int \phi_j h\, d\Gamma` to
    :math:`\tilde g_j`. Points outside the master contribute nothing; a node none of whose points faces
    the master is ``outside`` (a node whose own projection falls off the master while some of
    its points face it is inside). The reported nodal ``gap``, ``slip`` and ``normal`` are the
    weighted means over the node's points; the ``projection`` is the points'.
    """
    zone = problem.zone
    n_s = zone.n_slave
    edges = zone.slave_local
    ns = edges.shape[1]
    coords = zone.reference + d
    du = d - problem.d_start
    slave_nodes = edges[edge_of]
    pts = np.einsum("pa,paj->pj", phi, coords[slave_nodes])
    proj = pair(surface, coords, pts)
    point_du = np.einsum("pa,paj->pj", phi, du[slave_nodes])
    slip_q = _slips(proj, du, point_du)
    gap_q = proj.gap
    if problem.gap_offset is not None:  # a worn depth, interpolated: its weighted gap is int phi_j h
        gap_q = gap_q + np.einsum("pa,pa->p", phi, problem.gap_offset[slave_nodes])
    gap_q = np.where(proj.outside, 0.0, gap_q)
    cols_q, vn_q, vt_q = _point_rows(proj, slave_nodes, phi)
    # contribution of point p to node slave_nodes[p, a]: omega[p] phi[p, a] (inside points only)
    contrib = omega[:, None] * phi * (~proj.outside)[:, None]
    # gather, per slave node, its (point, local index) pairs, padded with zero weight
    node_of = slave_nodes.ravel()  # node of each (p, a)
    order = np.argsort(node_of, kind="stable")
    counts = np.bincount(node_of, minlength=n_s)
    width = max(int(counts.max(initial=0)), 1)
    slot = np.arange(len(order)) - np.repeat(np.cumsum(counts) - counts, counts)
    point_of = np.zeros((n_s, width), dtype=np.int64)
    coef = np.zeros((n_s, width))
    point_of[node_of[order], slot] = order // ns
    coef[node_of[order], slot] = contrib.ravel()[order]
    weight = coef.sum(axis=1)
    gap_sum = np.einsum("jk,jk->j", coef, gap_q[point_of])
    slip_sum = np.einsum("jk,jk->j", coef, slip_q[point_of])
    cols = cols_q[point_of].reshape(n_s, -1)
    vals_n = (coef[:, :, None] * vn_q[point_of]).reshape(n_s, -1)
    vals_t = (coef[:, :, None] * vt_q[point_of]).reshape(n_s, -1)
    tied = _vanishing_weights(edges, weight, np.abs(coef).sum(axis=1))
    if tied is not None:
        j, k = tied
        for array in (weight, gap_sum, slip_sum):
            np.add.at(array, k, array[j])
            array[j] = 0.0
        extra_n, extra_t = np.zeros_like(vals_n), np.zeros_like(vals_t)
        extra_cols = np.zeros_like(cols)
        extra_n[k], extra_t[k], extra_cols[k] = vals_n[j], vals_t[j], cols[j]
        vals_n[j] = vals_t[j] = 0.0
        cols, vals_n, vals_t = (np.hstack(pair) for pair in ((cols, extra_cols), (vals_n, extra_n), (vals_t, extra_t)))
    out = weight <= 0.0
    safe = np.where(out, 1.0, weight)
    gap = np.where(out, np.inf, gap_sum / safe)
    offset = start_gap_offset(problem, surface)
    if offset is not None:
        gap = gap - offset
    slip = np.where(out, 0.0, slip_sum / safe)
    B = Rows(np.vstack([cols, cols]), np.vstack([vals_n, vals_t]), 2 * zone.n_boundary)
    # per node, the weighted mean normal of its points (for the reported force components)
    normal = np.einsum("jk,jkc->jc", coef, proj.normal[point_of])
    norm = np.linalg.norm(normal, axis=1)
    normal = np.where(out[:, None], 0.0, normal / np.where(out, 1.0, norm)[:, None])
    tangent = np.stack([normal[:, 1], -normal[:, 0]], axis=1)
    weight = np.where(out, zone_weights(problem), weight)
    weight = np.where(weight > 0.0, weight, 1.0)  # (a tied node's own weight may vanish)
    tied_nodes = None
    if tied is not None:
        tied_nodes = np.zeros(n_s, dtype=bool)
        tied_nodes[tied[0]] = True
    return Kinematics(gap, slip, normal, tangent, out, weight, B, proj, tied=tied_nodes)


def _vanishing_weights(
    edges: np.ndarray, weight: np.ndarray, magnitude: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    r"""Slave nodes facing the master whose integral :math:`w_j = \int \phi_j` vanishes (or is
    negative) and the node of their edges with the largest weight that takes over their
    multiplier (None when there is none).

    The corner node of a SEG3 edge on the axis of an axisymmetric zone has
    :math:`\int \phi_0\, 2\pi r\, d\Gamma = 0` on a straight edge: its multiplier would
    stand for no pressure, and a row without weight makes the weighted gap's normalisation
    0/0. Its test function is added to its neighbour's (:math:`\psi_k = \phi_k + \phi_j`):
    the multipliers still sum to a uniform pressure, so the patch test still passes.
    """
    scale = float(np.abs(weight).max(initial=0.0))
    tiny = np.flatnonzero((magnitude > 1e-9 * scale) & (weight <= 1e-9 * scale))
    if not len(tiny) or scale == 0.0:
        return None
    targets = []
    for j in tiny:
        around = np.unique(edges[np.any(edges == j, axis=1)])
        around = around[around != j]
        targets.append(int(around[np.argmax(weight[around])]))
    return tiny, np.array(targets, dtype=np.int64)


def delassus(
    B: Rows, compliance: np.ndarray, workspace: ContactWorkspace | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    r"""The condensed operator :math:`W = B C B^T` (dense) with its diagonal.

    :math:`W` maps multipliers to the change of :math:`(w g, w u)`: m/N for
    the discrete methods, m^4/N per unit thickness for the weak forms.
    Returns ``(W, diag, positive, safe)``: ``positive`` where the diagonal
    is > 0 and ``safe`` the diagonal with 1 elsewhere (all read-only).

    Only the entries of B on dofs that move (nonzero diagonal of C) matter;
    with a ``workspace``, the last W is reused when they and C (the same
    array, which must not be modified in place) are unchanged, which is the
    rule on a rigid or slowly re-paired master (the pairing moves the master
    shape weights, not the slave rows). Costs
    :math:`O(n_{rows}\, n_{cols}\, m)` otherwise, m the padding width of B.

    >>> B = Rows(np.array([[0], [1]]), np.array([[1.0], [2.0]]), 2)
    >>> delassus(B, np.diag([0.5, 0.0]))[0]
    array([[0.5, 0. ],
           [0. , 0. ]])
    """
    if workspace is None:
        return _delassus(B, np.diagonal(compliance) != 0.0, compliance)
    # the same rows (a pairing kept by node_kinematics) on the same C: the last W, without comparing the rows
    return workspace.last("delassus_of_rows", (B, compliance), partial(_delassus_by_value, B, compliance, workspace),
                          _same_pair)


def _same_pair(old: tuple, new: tuple) -> bool:
    return old[0] is new[0] and old[1] is new[1]


def _delassus_by_value(B: Rows, compliance: np.ndarray, workspace: ContactWorkspace) -> tuple[np.ndarray, ...]:
    """:func:`delassus` kept while the moving part of the rows and C are the same."""
    moving_dofs = workspace.last("moving_dofs", compliance, lambda: np.diagonal(compliance) != 0.0)
    moving = moving_dofs[B.cols]
    vals = np.where(moving, B.vals, 0.0)
    key = (compliance, np.where(moving, B.cols, -1).tobytes(), vals.tobytes())
    return workspace.last("delassus", key, lambda: _delassus(Rows(B.cols, vals, B.n_cols), moving_dofs, compliance),
                          _same_object_and_values)


def _same_object_and_values(old: tuple, new: tuple) -> bool:
    """Keys whose first parts are the same object and whose other parts compare equal."""
    return old[0] is new[0] and old[1:] == new[1:]


def _delassus(B: Rows, moving_dofs: np.ndarray, compliance: np.ndarray) -> tuple[np.ndarray, ...]:
    effective = Rows(B.cols, np.where(moving_dofs[B.cols], B.vals, 0.0), B.n_cols)
    W = effective.times_transpose(effective.times(compliance))
    diag = W.diagonal().copy()
    positive = diag > 0.0
    safe = np.where(positive, diag, 1.0)
    for array in (W, diag, positive, safe):
        array.flags.writeable = False
    return W, diag, positive, safe
