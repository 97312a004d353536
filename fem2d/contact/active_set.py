r"""The status-driven Newton loop on the condensed contact problem.

Shared by the Lagrange (discrete active set) and the continuous (Alart-Curnier
semi-smooth Newton) formulations, which differ only in *how* they choose the
statuses. For given statuses the step's contact problem is linear in the
multipliers :math:`\lambda = (\lambda_n, \lambda_t)`: with the linearised
kinematics at the current iterate (:mod:`fem2d.contact.kinematics`),

.. math::

    \begin{pmatrix} w g \\ w u \end{pmatrix}(\lambda) = e + W \lambda, \qquad
    e = x_k - B C p_k, \qquad W = B C B^T,

(:math:`x_k` the weighted gaps and slips produced by the current forces
:math:`p_k`), and the statuses impose, per slave node,

* OPEN: :math:`\lambda_n = \lambda_t = 0`;
* STICK: :math:`g = 0` and :math:`u = 0` (no slip over the step);
* SLIP: :math:`g = 0` and :math:`\lambda_t = -\mu \lambda_n\, \mathrm{direction}`.

:func:`solve_statuses` solves that system, eliminating the sliding nodes'
tangential unknowns, so its size is (#contact + #stuck). :func:`run` iterates:
re-pair at :math:`d(p_k)`, test convergence with the parameter-free residual
of :func:`fem2d.contact.coulomb.natural_residual`, update the statuses (the
formulation's rule), solve, :math:`p_{k+1} = B^T \lambda`. On a flat master
with the right statuses one solve is exact; the loop is the step's Newton
iteration with the consistent tangent (the Schur complement :math:`W`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.linalg as la

from fem2d.contact.coulomb import natural_residual
from fem2d.contact.kinematics import Kinematics, delassus
from fem2d.contact.problem import OPEN, SLIP, STICK, CondensedProblem, ContactSolution

#: Floor of the force scale, so that an all-open step converges at once.
TINY = 1e-300


def solve_statuses(W: np.ndarray, e: np.ndarray, status: np.ndarray, direction: np.ndarray, mu: float) -> np.ndarray:
    r"""Multipliers that satisfy the equalities of given statuses.

    Unknowns: :math:`\lambda_n` of the contact nodes (STICK or SLIP) and
    :math:`\lambda_t` of the stuck ones; rows: :math:`(e + W\lambda)_n = 0` on
    contact nodes, :math:`(e + W\lambda)_t = 0` on stuck nodes. Sliding nodes
    carry :math:`\lambda_t = -\mu\, \mathrm{direction}\, \lambda_n`, folded into
    the normal column (the system is unsymmetric when some nodes slide).

    Parameters
    ----------
    W
        Condensed operator (2n, 2n), normal block first.
    e
        Weighted gaps and slips at :math:`\lambda = 0` (2n,).
    status, direction
        Per node (n,), see :mod:`fem2d.contact.coulomb`.
    mu
        Coulomb coefficient.

    Returns
    -------
    numpy.ndarray
        :math:`\lambda` (2n,), zero on open nodes.
    """
    n = len(status)
    lam = np.zeros(2 * n)
    active = np.flatnonzero(status != OPEN)
    if not len(active):
        return lam
    stuck = np.flatnonzero(status == STICK)
    sliding = np.flatnonzero(status == SLIP)
    factor = -mu * direction[sliding]
    cols = W[:, active].copy()
    cols[:, np.searchsorted(active, sliding)] += W[:, n + sliding] * factor
    full = np.hstack([cols, W[:, n + stuck]])
    rows = np.concatenate([active, n + stuck])
    try:
        z = la.solve(full[rows], -e[rows], check_finite=False)
    except la.LinAlgError:
        z = la.lstsq(full[rows], -e[rows], check_finite=False)[0]
    lam[active] = z[: len(active)]
    lam[n + stuck] = z[len(active) :]
    lam[n + sliding] = factor * lam[sliding]
    return lam


@dataclass
class Iterate:
    """What a status rule sees at an iteration: multipliers, linear-model values
    ``lin`` = e + W lam (weighted gaps then slips), the diagonal of W, the
    kinematics, the force scale and the current statuses."""

    lam: np.ndarray
    lin: np.ndarray
    diag: np.ndarray
    kin: Kinematics
    scale: float
    status: np.ndarray
    direction: np.ndarray
    iteration: int


#: A status rule: Iterate -> (status, direction).
StatusRule = Callable[[Iterate], tuple[np.ndarray, np.ndarray]]


@dataclass
class LoopResult:
    lam: np.ndarray
    p: np.ndarray
    kin: Kinematics
    status: np.ndarray
    direction: np.ndarray
    iterations: int
    converged: bool
    residual: float


def force_scale(lam: np.ndarray, e: np.ndarray, diag: np.ndarray, n: int) -> float:
    """The load scale of the step, in multiplier units: the largest multiplier,
    or the largest one needed to close the free penetration."""
    with np.errstate(invalid="ignore", divide="ignore"):
        closing = np.where(diag[:n] > 0.0, -e[:n] / diag[:n], 0.0)
    return max(float(np.max(np.abs(lam), initial=0.0)), float(np.max(closing, initial=0.0)), TINY)


def run(
    problem: CondensedProblem,
    kinematics: Callable[[np.ndarray], Kinematics],
    rule: StatusRule,
    lam0: np.ndarray,
    status0: np.ndarray,
    direction0: np.ndarray,
    tolerance: float,
    max_iter: int,
    rule_at_start: bool = True,
) -> LoopResult:
    """Status-driven Newton loop (see the module docstring).

    ``rule_at_start=False`` solves first with the given statuses (a warm
    start from the previous step) before the rule revises them.

    Converged when the natural residual of the contact-friction laws at the
    linear model, and the mismatch between the forces applied and the
    multipliers at the re-paired geometry, are both below ``tolerance``
    times the force scale. Never raises on non-convergence.
    """
    mu = problem.zone.mu
    n = problem.zone.n_slave
    lam, status, direction = lam0.copy(), status0.copy(), direction0.copy()
    p = np.zeros(2 * problem.zone.n_boundary)
    iterations, residual, converged = 0, np.inf, False
    for k in range(max_iter + 1):
        kin = kinematics(problem.displacement(p))
        W, BC = delassus(kin.B, problem.compliance)
        x = kin.values()
        e = x - BC @ p
        lin = e + W @ lam
        diag = np.diag(W).copy()
        safe = np.where(diag > 0.0, diag, 1.0)
        scale = force_scale(lam, e, diag, n)
        law = natural_residual(
            lam[:n], lam[n:], np.where(kin.outside, np.inf, lin[:n]), lin[n:], mu, safe[:n], safe[n:]
        )
        mismatch = np.abs(lin - x) / safe
        residual = max(float(np.max(law, initial=0.0)), float(np.max(mismatch, initial=0.0))) / scale
        if residual <= tolerance:
            converged = True
            break
        if k == max_iter:
            break
        if k > 0 or rule_at_start:
            status, direction = rule(Iterate(lam, lin, diag, kin, scale, status, direction, k))
        status = np.where(kin.outside, OPEN, status)
        direction = np.where(status == SLIP, direction, 0.0)
        lam = solve_statuses(W, e, status, direction, mu)
        iterations += int(np.any(status != OPEN))
        p = kin.B.transpose_dot(lam)
    return LoopResult(lam, p, kin, status, direction, iterations, bool(converged), float(residual))


def solution(
    result: LoopResult, problem: CondensedProblem, state: object, status: np.ndarray | None = None
) -> ContactSolution:
    """Package a loop result as the :class:`ContactSolution` of the step.

    Per-node normal and tangential forces are the components of the
    boundary force on each slave node, :math:`n \\cdot p_j` and
    :math:`t \\cdot p_j` (N), whatever the multipliers' unit.
    """
    kin = result.kin
    n = problem.zone.n_slave
    forces = result.p.reshape(-1, 2)
    slave_f = forces[:n]
    normal_force = np.einsum("ij,ij->i", kin.normal, slave_f)
    tangential_force = np.einsum("ij,ij->i", kin.tangent, slave_f)
    return ContactSolution(
        forces=forces.copy(),
        normal_force=normal_force,
        tangential_force=tangential_force,
        gap=kin.gap.copy(),
        status=(result.status if status is None else status).astype(np.int64),
        slip=kin.slip.copy(),
        state=state,
        iterations=result.iterations,
        converged=result.converged,
        residual=result.residual,
        left_master=kin.outside.copy(),
    )
