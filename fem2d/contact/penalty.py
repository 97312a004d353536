r"""Discrete penalty contact with regularised Coulomb friction.

code_aster's discrete ``PENALISATION`` (``DEFI_CONTACT``, ``FORMULATION='DISCRETE'``), node-to-segment: the
law is :func:`penalty_law` (a normal spring on the penetration, a tangential
spring from the stick anchor sliding on the Coulomb cone). An opening node
forgets its anchor.

The step's problem :math:`\lambda = \Lambda(x(\lambda))`, :math:`x = e + W\lambda`
on the condensed operator :math:`W = G C G^T` (linearised as in
:mod:`fem2d.contact.active_set`: at the start of the step first, then at the
solution) is solved by a semi-smooth Newton with the consistent tangent: on
the current pieces of the law, :math:`\Lambda(x) = c + D x` with
:math:`D = \partial\Lambda/\partial x` (:math:`-E_N`, :math:`-E_T` on stuck
nodes, :math:`\mu E_N` times the slip direction on sliding ones), so
:math:`(I - D W)\,\lambda^{k+1} = c + D e`; a slip reversal goes through
the stick piece (:func:`fem2d.contact.coulomb.reversal_to_stick`), and when
the law proposes a status set already tried (plain Newton can cycle on
piecewise-linear equations) only its most violated node changes.
The law is piecewise linear: with the right statuses one Newton step is
exact.

Default coefficients. ``e_n`` (N/m) defaults to ``penalty_factor`` (100)
times the local stiffness of the slave body at a node: :math:`E\,h_z`
(Young's modulus times the unit thickness) when ``young_modulus`` is given,
else the inverse of the local boundary compliance measured on the condensed
problem (:func:`fem2d.contact.active_set.local_compliance`, which gives about
0.9 E for the SDNV104 block, independent of dt and of the mesh in 2D). A
node's penalty spring is then 100 times stiffer than the body around it: the
penetration is a hundredth of the local elastic deformation, about 1e-9 m
for SDNV104 (7e4 N on 6 nodes), the nodal forces differ from the Lagrange
ones by about 0.2 %, and the penetration shrinks with the mesh like the
discretisation error (:math:`F/E_N \propto p\,h/E`). ``e_t`` defaults to
``e_n``. A default coefficient is shared out over the slave nodes in
proportion to their integration weights (mean 1: a QUAD8 corner node gets a
quarter of a mid-side node's), so that a uniform pressure penetrates
uniformly; given coefficients apply to every node as given, as code_aster's
E_N and E_T do. The coefficients are frozen in the state at the first step.
On an axisymmetric zone the weights are ring areas (forces are whole-ring
totals): the default coefficient of a node grows with its radius like the
ring's stiffness, so a uniform pressure still penetrates uniformly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import ClassVar

import numpy as np

from fem2d.contact import active_set
from fem2d.contact.coulomb import return_map, reversal_to_stick
from fem2d.contact.kinematics import nodal_pressure, node_kinematics, slave_weights, zone_weights
from fem2d.contact.mortar import mortar_kinematics
from fem2d.contact.options import CHOICES
from fem2d.contact.problem import OPEN, SLIP, STICK, CondensedProblem, ContactSolution, ContactZone
from fem2d.contact.surface import MasterSurface, master_surface


@dataclass(frozen=True)
class PenaltyState:
    """History between steps: the tangential force ``tangential_force`` of each
    slave node at the end of the last step (its stick anchor, N), the frozen
    coefficients ``e_n``, ``e_t`` (N/m; None until the first step), the last
    ``status`` and slip ``direction`` (the next step's first Newton tangent),
    ``normal_force`` (N), ``pressure`` (Pa) and ``penetration`` (largest over
    the slave nodes, m)."""

    surface: MasterSurface
    tangential_force: np.ndarray
    e_n: float | None
    e_t: float | None
    status: np.ndarray
    direction: np.ndarray
    normal_force: np.ndarray
    pressure: np.ndarray
    penetration: float = 0.0


@dataclass(frozen=True)
class PenaltyLaw:
    """The penalty law evaluated at gaps and slips: multipliers ``lam``
    (2n: normal then tangential, N), ``status`` and the slip ``direction``."""

    lam: np.ndarray
    status: np.ndarray
    direction: np.ndarray


def penalty_law(gap: np.ndarray, slip: np.ndarray, anchor: np.ndarray, e_n: float, e_t: float, mu: float) -> PenaltyLaw:
    r"""Normal and tangential penalty forces (code_aster's discrete PENALISATION).

    .. math::

        \lambda_n = E_N \max(0, -g), \qquad
        \lambda_t = \Pi_{[-\mu\lambda_n,\, \mu\lambda_n]}\big(\lambda_t^{0} - E_T u\big),

    a normal spring on the penetration and a tangential spring from the stick
    anchor :math:`\lambda_t^0` (the tangential force at the end of the previous
    step) that slides once its force reaches :math:`\mu\lambda_n` (the return
    map, :func:`~fem2d.contact.coulomb.return_map`). Units: gap and slip m,
    anchor force N, stiffnesses N/m.

    Examples
    --------
    Two nodes 1 mm into the master (1 kN each with :math:`E_N` = 1 MN/m): the
    first slips 1 mm (trial -1 kN, beyond :math:`\mu\lambda_n` = 500 N: it
    slides), the second 0.1 mm the other way (100 N: it sticks); the open node
    carries nothing:

    >>> law = penalty_law(np.array([-1e-3, -1e-3, 1e-3]), np.array([1e-3, -1e-4, 0.0]), np.zeros(3),
    ...                   e_n=1e6, e_t=1e6, mu=0.5)
    >>> law.lam.round(9)
    array([1000., 1000.,    0., -500.,  100.,    0.])
    >>> law.status, law.direction
    (array([2, 1, 0]), array([1., 0., 0.]))
    """
    closed = gap < 0.0
    lam_n = np.where(closed, -e_n * np.where(closed, gap, 0.0), 0.0)
    rm = return_map(anchor - e_t * slip, mu * lam_n)
    lam_t = np.where(closed, rm.force, 0.0)
    status = np.where(closed, np.where(rm.stick, STICK, SLIP), OPEN)
    direction = np.where(status == SLIP, -rm.d_threshold, 0.0)
    return PenaltyLaw(np.concatenate([lam_n, lam_t]), status, direction)


def affine_pieces(
    status: np.ndarray, direction: np.ndarray, anchor: np.ndarray, e_n: float, e_t: float, mu: float
) -> tuple[np.ndarray, np.ndarray]:
    r"""The penalty law on given statuses: :math:`\lambda = c + D\,(g, u)`.

    Closed nodes: :math:`\lambda_n = -E_N g`; stuck:
    :math:`\lambda_t = \lambda_t^0 - E_T u`; sliding:
    :math:`\lambda_t = -\mu\,\mathrm{direction}\,\lambda_n`. ``D`` is the
    consistent tangent of the return map on that piece, block-diagonal per
    node: returned as its three nonzero diagonals
    :math:`(\partial\lambda_n/\partial g, \partial\lambda_t/\partial g,
    \partial\lambda_t/\partial u)`, shape (3, n). Returns ``c`` (2n,), ``D``.
    """
    n = len(status)
    closed = status != OPEN
    stuck = status == STICK
    c = np.concatenate([np.zeros(n), np.where(stuck, anchor, 0.0)])
    D = np.stack(
        [
            np.where(closed, -e_n, 0.0),
            np.where(status == SLIP, mu * direction * e_n, 0.0),
            np.where(stuck, -e_t, 0.0),
        ]
    )
    return c, D


@dataclass(frozen=True)
class PenaltyFormulation:
    """Discrete penalty contact and friction.

    Parameters
    ----------
    e_n, e_t
        Normal and tangential penalty stiffnesses, N/m (code_aster's E_N,
        E_T); defaults in the module docstring.
    young_modulus
        Young's modulus of the slave body, Pa (0 or None: unknown), for the
        default ``e_n``.
    thickness
        Out-of-plane thickness, m (1 in plane strain).
    penalty_factor
        Ratio of the default ``e_n`` to the local stiffness of the slave body.
    tolerance, max_iter, orientation
        As for :class:`fem2d.contact.lagrange.LagrangeFormulation`.
    discretization
        ``"node_to_segment"`` (nodal springs) or ``"mortar"`` (:mod:`fem2d.contact.mortar`:
        the pressure ``eps_n max(0, -g_j / w_j)`` on the weighted gap g_j, with
        ``eps_n = e_n / mean(w)`` in Pa/m, the pressure per metre of penetration of a node of
        mean tributary length w; ``e_n`` and ``e_t`` stay in N/m, so that a case keeps its
        stiffness from one discretization to the other, and act uniformly along the surface).
    """

    e_n: float | None = None
    e_t: float | None = None
    young_modulus: float | None = None
    thickness: float = 1.0
    penalty_factor: float = 100.0
    tolerance: float = 1e-10
    max_iter: int = 50
    orientation: str = "auto"
    discretization: str = "node_to_segment"
    name: ClassVar[str] = "penalty"
    #: the contact force is a function of the gap (a regularised law), not a
    #: constraint's multiplier: a scheme with an impulse law cannot impose it
    force_law: ClassVar[bool] = True
    choices: ClassVar[dict[str, tuple[str, ...]]] = CHOICES["penalty"]

    def initial_state(self, zone: ContactZone) -> PenaltyState:
        """No anchors, no force; coefficients fixed at the first step."""
        n = zone.n_slave
        zeros = np.zeros(n)
        return PenaltyState(
            master_surface(zone, self.orientation), zeros, None, None, np.full(n, OPEN), zeros, zeros, zeros
        )

    def coefficients(
        self, compliance: float, weights: np.ndarray | None = None, lengths: np.ndarray | None = None
    ) -> tuple[float | np.ndarray, float | np.ndarray] | None:
        r"""(e_n, e_t) in N/m: given, or the defaults of the module docstring.

        ``compliance`` is the local compliance of the slave boundary
        (:func:`fem2d.contact.active_set.local_compliance`, m/N; 0 when no
        slave edge faces the master). None when the default cannot be
        measured yet (no material given, nothing facing the master).

        A default coefficient is per node, proportional to the node's
        integration weight ``weights`` (its share of the slave surface,
        mean 1): a uniform pressure then penetrates uniformly, so QUAD8
        corner and mid-side nodes (weights L/6 and 2L/3) carry the same
        pressure, as with the Lagrange methods. Given coefficients are
        applied to every node as given (code_aster's E_N, E_T). On an
        axisymmetric zone the weights are ring areas and ``lengths`` the
        plane tributary lengths: the default from ``young_modulus`` is then
        :math:`E\, w_j / \bar\ell` (about :math:`E\, 2\pi r_j` at a node of
        radius :math:`r_j`, the ring's stiffness).
        """
        e_n = self.e_n
        if e_n is None:
            per = weights.mean() if weights is not None else 0.0
            if self.young_modulus:
                e_n = self.penalty_factor * self.young_modulus * self.thickness
                if lengths is not None and lengths.mean() > 0.0:  # axisymmetric: E 2 pi r per node
                    per = lengths.mean()
            elif compliance > 0.0:
                e_n = self.penalty_factor / compliance
            else:
                return None
            if weights is not None and per > 0.0:
                e_n = e_n * weights / per
                return e_n, (e_n if self.e_t is None else float(self.e_t))
            return float(e_n), float(self.e_t if self.e_t is not None else e_n)
        return float(e_n), float(self.e_t if self.e_t is not None else e_n)

    def _frozen(
        self, compliance: float, problem: CondensedProblem, mortar: bool
    ) -> tuple[float | np.ndarray, float | np.ndarray] | None:
        """The default coefficients of the zone (:meth:`coefficients`); with ``mortar``, per node
        over the node's weight (Pa/m: the same pressure per unit penetration at every node)."""
        weights = zone_weights(problem)
        frozen = self.coefficients(compliance, weights, _lengths(problem.zone))
        if frozen is None or not mortar:
            return frozen
        if self.e_n is not None or not np.ndim(frozen[0]):  # given (N/m): a node of mean weight's stiffness
            mean = float(weights.mean())
            return tuple(np.asarray(c, dtype=float) / mean for c in frozen)
        safe = np.where(weights > 0.0, weights, 1.0)
        return tuple(np.where(weights > 0.0, np.asarray(c) / safe, 0.0) if np.ndim(c) else c / float(weights.mean())
                     for c in frozen)

    def solve(self, problem: CondensedProblem, state: PenaltyState) -> ContactSolution:
        """Newton on the condensed penalty problem.

        The first Newton tangent is the previous step's (statuses and slip
        directions), later ones the law's at the current iterate.
        """
        zone = problem.zone
        mu, n = zone.mu, zone.n_slave
        e_n, e_t = state.e_n, state.e_t
        anchor = state.tangential_force
        lam = np.zeros(2 * n)
        mortar = self.discretization == "mortar"
        kin_of = partial(mortar_kinematics if mortar else node_kinematics, problem, state.surface)
        L = active_set.linearise(problem, kin_of, problem.d_start.ravel())
        compliance = active_set.local_compliance(L, zone.slave_local, problem.workspace)
        floor = active_set.length_floor(problem)
        frozen = self._frozen(compliance, problem, mortar) if e_n is None else (e_n, e_t)
        # nothing can touch yet (no node faces the master): any value does for this step
        e_n, e_t = frozen if frozen is not None else (1.0, 1.0)

        def evaluate(L: active_set.Linearisation, lam: np.ndarray) -> tuple[PenaltyLaw, float, float, np.ndarray]:
            """The law on the linear model at lam; its fixed-point residual and
            the model's mismatch with the paired kinematics, as fractions of
            their tolerances (force scale, length tolerance); the model's values."""
            lin = L.e + L.W.dot(lam)
            values = lin if L.w2 is None else lin / L.w2  # mortar: the weighted gaps over the weights
            gap = np.where(L.kin.outside, np.inf, values[:n]) if L.outside else values[:n]
            law = penalty_law(gap, values[n:], anchor, e_n, e_t, mu)
            scale = max(float(np.abs(law.lam).max(initial=0.0)), float(np.abs(lam).max(initial=0.0)))
            # the law multiplies gap round-off by the penalty: a floor on the force tolerance
            force_tol = max(self.tolerance * max(scale, active_set.TINY), max(np.max(e_n), np.max(e_t)) * floor)
            length_tol = active_set.length_tolerance(floor, force_tol, compliance)
            fixed_point = float(np.abs(law.lam - lam).max(initial=0.0)) / force_tol
            mismatch = float(np.abs(lin - L.x).max(initial=0.0)) / length_tol
            return law, fixed_point, mismatch, lin

        seen: set[bytes] = set()
        # the last evaluation (law, lin), the statuses of the last Newton tangent, whether it is the first
        last: dict = {"piece": (np.full(n, OPEN), np.zeros(n)), "first": True}

        def residual_of(L: active_set.Linearisation, lam: np.ndarray) -> tuple[float, bool]:
            law, fixed_point, mismatch, lin = evaluate(L, lam)
            last["law"], last["lin"] = law, lin
            # solved on this linear model: re-pair there
            return self.tolerance * max(fixed_point, mismatch), fixed_point <= 1.0

        def newton(L: active_set.Linearisation, lam: np.ndarray) -> tuple[np.ndarray, int]:
            law, piece = last["law"], last["piece"]
            warm = last["first"] and bool((state.status != OPEN).any())
            last["first"] = False
            if warm:
                status, direction = state.status, state.direction
            else:
                status, direction = reversal_to_stick(law.status, law.direction, piece[0], piece[1])
                if (status.tobytes() + direction.tobytes()) in seen:
                    # plain Newton cycles between status sets: change only the most violated node
                    status, direction = _single_change(law, lam, piece, status, direction)
            status = np.where(L.kin.outside, OPEN, status)
            last["piece"] = (status, direction)
            seen.add(status.tobytes() + direction.tobytes())
            c, D = affine_pieces(status, direction, anchor, e_n, e_t, mu)
            if L.w2 is not None:  # the law on x / w: its slopes over the weights
                D = D / L.kin.weight[None, :]
            return newton_step(L.W, L.e, c, D, status), 1

        out = active_set.newton_with_repairing(
            problem, kin_of, L, lam, self.tolerance, self.max_iter, residual_of, newton, seen.clear
        )
        L, lam, iterations, converged, residual = out.L, out.lam, out.iterations, out.converged, out.residual
        law, lin = last["law"], last["lin"]
        # law and lin are the last evaluation's, at (L, lam): every exit above follows it
        kin = L.kin
        p = kin.B.transpose_dot(lam)
        if kin.unit:
            gap = np.where(kin.outside, np.inf, lin[:n]) if L.outside else lin[:n]
            slip = lin[n:]
        else:
            gap, slip = active_set.model_values(L, lam)
        lam_n, lam_t = lam[:n], lam[n:]
        if mortar:  # the multipliers are the pressures; the nodal forces those of the rows
            pressure = lam_n.copy()
            lam_n = np.einsum("ij,ij->i", kin.normal, p.reshape(-1, 2)[:n])
        else:
            pressure = nodal_pressure(problem, lam_n)
        # a stuck node keeps its elastic tangential force; an open one forgets its anchor
        new_state = replace(
            state,
            tangential_force=np.where(law.status == OPEN, 0.0, lam_t),
            e_n=None if frozen is None else e_n,
            e_t=None if frozen is None else e_t,
            status=law.status,
            direction=law.direction,
            normal_force=np.array(lam_n),
            pressure=pressure,
            penetration=float((-np.where(kin.outside, 0.0, gap)).max(initial=0.0)),
        )
        loop = active_set.LoopResult(
            lam, p, kin, law.status, law.direction, iterations, converged, float(residual), gap, slip
        )
        return active_set.solution(loop, problem, new_state)


def _single_change(
    law: PenaltyLaw,
    lam: np.ndarray,
    piece: tuple[np.ndarray, np.ndarray],
    status: np.ndarray,
    direction: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The last Newton piece with only its most violated node moved to the proposed status."""
    n = len(status)
    changed = (status != piece[0]) | (direction != piece[1])
    if not changed.any():
        return status, direction
    violation = np.maximum(np.abs(law.lam[:n] - lam[:n]), np.abs(law.lam[n:] - lam[n:]))
    j = int(np.argmax(np.where(changed, violation, -1.0)))
    new_status, new_direction = piece[0].copy(), piece[1].copy()
    new_status[j], new_direction[j] = status[j], direction[j]
    return new_status, new_direction


def newton_step(W: np.ndarray, e: np.ndarray, c: np.ndarray, D: np.ndarray, status: np.ndarray) -> np.ndarray:
    r"""Solve :math:`(I - D W)\lambda = c + D e` on the closed nodes.

    The law on the current pieces is :math:`\lambda = c + D x` with
    :math:`x = e + W\lambda` the linearised gaps and slips; open nodes have
    :math:`\lambda = 0`. ``D`` as returned by :func:`affine_pieces` (its
    block-diagonal structure makes :math:`D W` a row scaling).
    """
    n = len(status)
    closed = np.flatnonzero(status != OPEN)
    lam = np.zeros(2 * n)
    if not len(closed):
        return lam
    idx = np.concatenate([closed, n + closed])
    dn_g, dt_g, dt_u = D[:, closed]
    W_n = W[np.ix_(closed, idx)]
    W_t = W[np.ix_(n + closed, idx)]
    DW = np.vstack([dn_g[:, None] * W_n, dt_g[:, None] * W_n + dt_u[:, None] * W_t])
    De = np.concatenate([dn_g * e[closed], dt_g * e[closed] + dt_u * e[n + closed]])
    lam[idx] = np.linalg.solve(np.eye(len(idx)) - DW, c[idx] + De)
    return lam


def _lengths(zone: ContactZone) -> np.ndarray | None:
    """The plane tributary lengths of an axisymmetric zone's slave nodes (m), None on a plane one."""
    if not zone.axisymmetric:
        return None
    return slave_weights(replace(zone, axisymmetric=False))
