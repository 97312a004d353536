r"""Discrete penalty contact with regularised Coulomb friction.

code_aster's discrete ``PENALISATION`` (SPEC section 5), node-to-segment. Per
slave node, with gap :math:`g` and slip increment :math:`u` of the step,

.. math::

    \lambda_n = E_N \max(0, -g), \qquad
    \lambda_t = \Pi_{[-\mu\lambda_n,\, \mu\lambda_n]}\big(\lambda_t^{0} - E_T u\big),

i.e. a normal spring on the penetration, and a tangential spring from the
stick anchor (:math:`\lambda_t^0` is the tangential force at the end of the
previous step: the anchor sits at :math:`\lambda_t^0 / E_T` from the node) that
slides once its force reaches :math:`\mu \lambda_n` (the return map of
:mod:`fem2d.contact.coulomb`; the anchor follows the node, so the carried
force stays on the cone). An opening node forgets its anchor.

The step's problem :math:`\lambda = \Lambda(x(\lambda))`, :math:`x = e + W\lambda`
on the condensed operator :math:`W = G C G^T` is solved by Newton with the
consistent tangent :math:`(I - D W)\,\lambda^{k+1} = \Lambda(x_k) + D (e - x_k)`,
:math:`D = \partial\Lambda/\partial x` (:math:`-E_N`, :math:`-E_T` on stuck
nodes, :math:`-\mu E_N\,\mathrm{sign}` on sliding ones), re-pairing at every
iteration. The penalty law is piecewise linear: with the right statuses one
Newton step is exact.

Default coefficients. ``e_n`` (N/m) defaults to :math:`E\,h_z` (Young's
modulus of the slave body times the unit thickness) when ``young_modulus``
is known: a node's contact spring is then as stiff as the body around it, so
the penetration :math:`F/E_N = p\,h/E` is of the order of the elastic strain
of one element and shrinks with the mesh (SDNV104, 7e4 N on 6 nodes: about
7e-8 m). Otherwise ``e_n`` = ``penalty_scale`` / median :math:`W_{nn,jj}`:
``penalty_scale`` times the stiffness the condensed problem itself shows at a
slave node. ``e_t`` defaults to ``e_n``. Chosen coefficients are frozen in
the state at the first step.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np
import scipy.linalg as la

from fem2d.contact import active_set
from fem2d.contact.coulomb import return_map
from fem2d.contact.kinematics import delassus, node_kinematics, slave_weights
from fem2d.contact.problem import OPEN, SLIP, STICK, CondensedProblem, ContactSolution, ContactZone
from fem2d.contact.search import MasterSurface, master_surface


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
    r"""Normal and tangential penalty forces.

    :math:`\lambda_n = E_N (-g)^+`; trial :math:`\lambda_t^{tr} = \lambda_t^0 - E_T u`,
    returned on :math:`[-\mu\lambda_n, \mu\lambda_n]` (:func:`~fem2d.contact.coulomb.return_map`).
    Units: gap and slip m, anchor force N, stiffnesses N/m.
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
    consistent tangent of the return map on that piece. Returns ``c`` (2n,)
    and ``D`` (2n, 2n) (block-diagonal per node).
    """
    n = len(status)
    closed = status != OPEN
    stuck = status == STICK
    c = np.concatenate([np.zeros(n), np.where(stuck, anchor, 0.0)])
    D = np.zeros((2 * n, 2 * n))
    r = np.arange(n)
    D[r, r] = np.where(closed, -e_n, 0.0)
    D[n + r, r] = np.where(status == SLIP, mu * direction * e_n, 0.0)
    D[n + r, n + r] = np.where(stuck, -e_t, 0.0)
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
    penalty_scale
        Factor of the compliance-based default, used without ``young_modulus``.
    tolerance, max_iter, orientation
        As for :class:`fem2d.contact.lagrange.LagrangeFormulation`.
    """

    e_n: float | None = None
    e_t: float | None = None
    young_modulus: float | None = None
    thickness: float = 1.0
    penalty_scale: float = 1e3
    tolerance: float = 1e-10
    max_iter: int = 50
    orientation: str = "auto"
    name: ClassVar[str] = "penalty"
    choices: ClassVar[dict[str, tuple[str, ...]]] = {"orientation": ("auto", "left", "right")}

    def initial_state(self, zone: ContactZone) -> PenaltyState:
        """No anchors, no force; coefficients fixed at the first step."""
        n = zone.n_slave
        zeros = np.zeros(n)
        return PenaltyState(
            master_surface(zone, self.orientation), zeros, None, None, np.full(n, OPEN), zeros, zeros, zeros
        )

    def coefficients(self, W: np.ndarray, n: int, outside: np.ndarray) -> tuple[float, float]:
        """(e_n, e_t) in N/m: given, or the defaults of the module docstring."""
        e_n = self.e_n
        if e_n is None:
            if self.young_modulus:
                e_n = self.young_modulus * self.thickness
            else:
                diag = np.diag(W)[:n]
                ok = (~outside) & (diag > 0.0)
                e_n = self.penalty_scale / float(np.median(diag[ok])) if ok.any() else 1.0
        return float(e_n), float(self.e_t if self.e_t is not None else e_n)

    def solve(self, problem: CondensedProblem, state: PenaltyState) -> ContactSolution:
        """Newton on the condensed penalty problem.

        The first Newton tangent is the previous step's (statuses and slip
        directions), later ones the law's at the current iterate.
        """
        zone = problem.zone
        mu, n = zone.mu, zone.n_slave
        e_n, e_t = state.e_n, state.e_t
        anchor = state.tangential_force
        p = np.zeros(2 * zone.n_boundary)
        lam = np.zeros(2 * n)
        iterations, residual, converged = 0, np.inf, False
        for k in range(self.max_iter + 1):
            kin = node_kinematics(problem, state.surface, problem.displacement(p))
            W, BC = delassus(kin.B, problem.compliance)
            if e_n is None:
                e_n, e_t = self.coefficients(W, n, kin.outside)
            x = kin.values()
            law = penalty_law(np.where(kin.outside, np.inf, x[:n]), x[n:], anchor, e_n, e_t, mu)
            e = x - BC @ p
            diag = np.diag(W)
            safe = np.where(diag > 0.0, diag, 1.0)
            scale = max(
                float(np.max(np.abs(law.lam), initial=0.0)), float(np.max(np.abs(lam), initial=0.0)), active_set.TINY
            )
            mismatch = float(np.max(np.abs(e + W @ lam - x) / safe, initial=0.0))
            residual = max(float(np.max(np.abs(law.lam - lam), initial=0.0)), mismatch) / scale
            if residual <= self.tolerance:
                converged = True
                break
            if k == self.max_iter:
                break
            warm = k == 0 and bool(np.any(state.status != OPEN))
            status, direction = (state.status, state.direction) if warm else (law.status, law.direction)
            status = np.where(kin.outside, OPEN, status)
            c, D = affine_pieces(status, direction, anchor, e_n, e_t, mu)
            lam = newton_step(W, e, c, D, status)
            p = kin.B.transpose_dot(lam)
            iterations += 1
        lam_n, lam_t = lam[:n], lam[n:]
        weights = slave_weights(zone)
        pressure = np.where(weights > 0.0, lam_n / np.where(weights > 0.0, weights, 1.0), 0.0)
        # a stuck node keeps its elastic tangential force; an open one forgets its anchor
        new_state = replace(
            state,
            tangential_force=np.where(law.status == OPEN, 0.0, lam_t),
            e_n=e_n,
            e_t=e_t,
            status=law.status,
            direction=law.direction,
            normal_force=lam_n.copy(),
            pressure=pressure,
            penetration=float(np.max(-np.where(kin.outside, 0.0, kin.gap), initial=0.0)),
        )
        loop = active_set.LoopResult(lam, p, kin, law.status, law.direction, iterations, converged, float(residual))
        return active_set.solution(loop, problem, new_state)


def newton_step(W: np.ndarray, e: np.ndarray, c: np.ndarray, D: np.ndarray, status: np.ndarray) -> np.ndarray:
    r"""Solve :math:`(I - D W)\lambda = c + D e` on the closed nodes.

    The law on the current pieces is :math:`\lambda = c + D x` with
    :math:`x = e + W\lambda` the linearised gaps and slips; open nodes have
    :math:`\lambda = 0`.
    """
    n = len(status)
    closed = np.flatnonzero(status != OPEN)
    lam = np.zeros(2 * n)
    if not len(closed):
        return lam
    idx = np.concatenate([closed, n + closed])
    Dc = D[np.ix_(idx, idx)]
    A = np.eye(len(idx)) - Dc @ W[np.ix_(idx, idx)]
    lam[idx] = la.solve(A, c[idx] + Dc @ e[idx], check_finite=False)
    return lam
