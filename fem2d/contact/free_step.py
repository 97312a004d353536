r"""A step without contact forces: the laws hold with zero forces at its start and its end.

Most steps of a body in flight, or of a body not yet in contact, have nothing
to solve: :func:`fem2d.contact.active_set.run` linearises at the start of the
step, finds the laws satisfied there with :math:`\lambda = 0` and re-pairs at
the free end displacement, where they hold again. :func:`free_step` takes that
path without the loop's machinery (the closures, the status rule, the natural
residual, the tolerance scales), and hands the step back to the loop whenever
it could go otherwise. The arrays it returns are those the loop returns,
computed by the same operations on the same (cached) kinematics.

Why the loop's path is known here. With :math:`\lambda = 0` the linear model
at the start is :math:`x(0) = e_0 = x_0 + B_0 (d_{free} - d_0)`. If every
slave node facing the master has :math:`(e_0)_n > 0`:

* the force scale's closing part is 0 (no node needs a force to close), so
  the force tolerance is ``tolerance`` times the floor
  :data:`~fem2d.contact.active_set.TINY`, the length tolerance
  :math:`\delta = \max(\epsilon \cdot \mathrm{TINY} \cdot c, \delta_{floor})`;
* the natural residual vanishes (:math:`\min(0, c\,g) = 0` for :math:`g > 0`,
  no friction without a normal force): the laws hold on this model. The
  statuses stay those the step started with: the Lagrange rule is not asked
  at the first evaluation of a warm start (``rule_at_start=False``) unless
  every node is open, and then no open node penetrates, so it changes nothing;
* the loop's residual is the mismatch :math:`\max |e_0 - x_0| / \delta`
  times ``tolerance``: when it is within ``tolerance`` the loop stops at the
  start (left to the loop); otherwise it re-pairs at :math:`d(0) = d_{free}`.

There :math:`e = x` (the model's offset is :math:`B (d_{free} - d(0)) = 0`),
the mismatch is 0 and the residual is 0 as soon as no node facing the master
has a negative gap: the step has converged, without an iteration, on
:math:`\lambda = 0`, its statuses the first guess of the next step. Any other
case is the loop's.
"""

from __future__ import annotations

import numpy as np

from fem2d.contact.active_set import TINY, LoopResult, compliance_of, length_floor, length_tolerance
from fem2d.contact.kinematics import delassus, node_geometry, node_kinematics
from fem2d.contact.problem import CondensedProblem
from fem2d.contact.surface import MasterSurface


def free_step(
    problem: CondensedProblem,
    surface: MasterSurface,
    status: np.ndarray,
    direction: np.ndarray,
    tolerance: float,
) -> LoopResult | None:
    """The result :func:`fem2d.contact.active_set.run` gives for a step started
    from ``status`` and ``direction`` with ``rule_at_start=False``, the Lagrange
    rule and the node-to-segment kinematics on ``surface``
    (:func:`~fem2d.contact.kinematics.node_kinematics`), when it converges on
    :math:`\\lambda = 0` after one re-pairing at the free displacement (see the
    module docstring); None when the step may go otherwise (the loop then solves it).

    At the start only the decisions are made: the slips there are zero
    (:math:`d = d_0`), so the model's values are the gaps and zeros, and the
    kinematics' own are made at the end only.
    """
    n = problem.zone.n_slave
    d0 = problem.d_start.ravel()
    if problem.velocity_level or problem.gap_offset is not None:  # the kinematics' own gaps, offsets included
        kin0 = node_kinematics(problem, surface, problem.d_start)
        B0, outside0, x0 = kin0.B, kin0.outside, kin0.values()
    else:
        projection, B0, any_outside = node_geometry(problem, surface, problem.d_start)
        outside0 = projection.outside
        gap0 = np.where(outside0, 0.0, projection.gap) if any_outside else projection.gap
        x0 = np.concatenate((gap0, np.zeros(n)))
    lam = np.zeros(2 * n)
    W0, _, _, _ = delassus(B0, problem.compliance, problem.workspace)
    lin0 = x0 + B0.dot(problem.d_free.ravel() - d0) + W0.dot(lam)
    if not (lin0[:n][~outside0] > 0.0).all():
        return None  # a node closes (or a value is not finite): the loop decides
    force_tol = tolerance * TINY
    weight = problem.workspace.unit_weights(n)
    compliance = compliance_of(W0, weight, outside0, problem.zone.slave_local, problem.workspace)
    length_tol = length_tolerance(length_floor(problem), force_tol, compliance)
    mismatch = float(np.abs(lin0 - x0).max())
    if tolerance * max(0.0 / force_tol, mismatch / length_tol) <= tolerance:
        return None  # the loop stops at the start, on its linear model
    p = np.zeros(2 * problem.zone.n_boundary)  # B^T 0
    d = problem.displacement(p).ravel()
    kin = node_kinematics(problem, surface, d.reshape(-1, 2))
    W, _, _, _ = delassus(kin.B, problem.compliance, problem.workspace)
    lin = kin.values() + kin.B.dot(problem.d_free.ravel() - d) + W.dot(lam)
    if not np.isfinite(lin).all():
        return None
    gap, slip = lin[:n], lin[n:]
    if kin.any_outside:
        gap = np.where(kin.outside, np.inf, gap)
    if (gap < 0.0).any():
        return None  # a node penetrates at the free displacement: the loop activates it
    return LoopResult(lam, p, kin, status.copy(), direction.copy(), 0, True, 0.0, gap, slip)
