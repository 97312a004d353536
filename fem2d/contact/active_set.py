r"""The status-driven Newton loop on the condensed contact problem.

Shared by the Lagrange (discrete active set) and the continuous (Alart-Curnier
semi-smooth Newton) formulations, which differ only in *how* they choose the
statuses. For given statuses the step's contact problem is linear in the
multipliers :math:`\lambda = (\lambda_n, \lambda_t)`: the linear model of
:func:`linearise`, at the start of the step first, then at :math:`d(p_k)`. The
statuses impose, per slave node,

* OPEN: :math:`\lambda_n = \lambda_t = 0`;
* STICK: :math:`g = 0` and :math:`u = 0` (no slip over the step);
* SLIP: :math:`g = 0` and :math:`\lambda_t = -\mu \lambda_n\, \mathrm{direction}`.

:func:`solve_statuses` solves that system, eliminating the sliding nodes'
tangential unknowns, so its size is (#contact + #stuck). :func:`run` iterates
on a fixed linearisation (the formulation's rule revises the statuses, the
system is solved) until the laws hold there, judged by the parameter-free
residual of :func:`fem2d.contact.coulomb.natural_residual`; then it re-pairs
at :math:`d(p)`, :math:`p = B^T \lambda`, and goes on until the re-paired
kinematics agree with the linear model (code_aster's fixed point on the
geometry around the contact/friction loop). On a flat master with the right
statuses one solve is exact; the loop is the step's Newton iteration with the
consistent tangent (the Schur complement :math:`W`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from fem2d.contact.coulomb import natural_residual
from fem2d.contact.kinematics import Kinematics, delassus
from fem2d.contact.problem import OPEN, SLIP, STICK, CondensedProblem, ContactSolution
from fem2d.contact.workspace import ContactWorkspace

#: Floor of the force scale, so that an all-open step converges at once.
TINY = 1e-300


def solve_statuses(
    W: np.ndarray,
    e: np.ndarray,
    status: np.ndarray,
    direction: np.ndarray,
    mu: float,
    workspace: ContactWorkspace | None = None,
) -> np.ndarray:
    r"""Multipliers that satisfy the equalities of given statuses.

    Unknowns: :math:`\lambda_n` of the contact nodes (STICK or SLIP) and
    :math:`\lambda_t` of the stuck ones; rows: :math:`(e + W\lambda)_n = 0` on
    contact nodes, :math:`(e + W\lambda)_t = 0` on stuck nodes. Sliding nodes
    carry :math:`\lambda_t = -\mu\, \mathrm{direction}\, \lambda_n`, folded into
    the normal column (the system is unsymmetric when some nodes slide).

    Parameters
    ----------
    W
        Condensed operator (2n, 2n), normal block first. With a
        ``workspace``, the system built from it is kept there for the next
        call with the same array and statuses: W must not be modified in
        place between calls.
    e
        Weighted gaps and slips at :math:`\lambda = 0` (2n,).
    status, direction
        Per node (n,), see :mod:`fem2d.contact.coulomb`.
    mu
        Coulomb coefficient.
    workspace
        Where the last system is kept (None: nothing kept).

    Returns
    -------
    numpy.ndarray
        :math:`\lambda` (2n,), zero on open nodes.
    """
    n = len(status)
    lam = np.zeros(2 * n)
    if workspace is None:
        system = _status_system(W, status, direction, mu)
    else:
        key = (W, status.tobytes(), direction.tobytes(), mu)
        system = workspace.last("status_system", key, lambda: _status_system(W, status, direction, mu), _same_w)
    if system is None:
        return lam
    rows, full, slides, slide_rows, factor = system
    try:
        z = np.linalg.solve(full, -e[rows])
    except np.linalg.LinAlgError:  # redundant links (e.g. two slave nodes on one point): least squares
        z = np.linalg.lstsq(full, -e[rows], rcond=None)[0]
    lam[rows] = z
    if slides is not None:
        lam[slide_rows] = factor * z[slides]
    return lam


def _same_w(old: tuple, new: tuple) -> bool:
    """Keys ``(W, ...)`` of the same W array (``is``) and equal other parts."""
    return old[0] is new[0] and old[1:] == new[1:]


def _status_system(W: np.ndarray, status: np.ndarray, direction: np.ndarray, mu: float) -> tuple | None:
    """The matrix of :func:`solve_statuses` and its index arrays: ``(rows,
    matrix, slides, slide_rows, factor)``, None when no node is in contact.

    The same statuses on the same W give the same system: :func:`solve_statuses`
    keeps it in the workspace for the next call (the statuses of a sliding or
    resting block rarely change from one step to the next, and W changes only
    with the pairing).
    """
    n = len(status)
    active = np.flatnonzero(status != OPEN)
    system = None
    if len(active):
        sticks = status[active] == STICK
        stuck = active[sticks]
        rows = np.concatenate((active, n + stuck))
        W_rows = W[rows]
        full = W_rows[:, rows]
        slides = slide_rows = factor = None
        if len(active) > len(stuck):
            slides = np.flatnonzero(~sticks)
            sliding = active[slides]
            factor = -mu * direction[sliding]
            full[:, slides] += W_rows[:, n + sliding] * factor
            slide_rows = n + sliding
        full.flags.writeable = False
        system = (rows, full, slides, slide_rows, factor)
    return system


@dataclass
class Iterate:
    """What a status rule sees at an iteration: multipliers ``lam``, the
    linear-model ``gap`` and ``slip`` (m, normalised by the weights), the
    diagonal of W, the kinematics, the tolerances (``force_tol`` in multiplier
    units, ``length_tol`` in m) and the current statuses."""

    lam: np.ndarray
    gap: np.ndarray
    slip: np.ndarray
    diag: np.ndarray
    kin: Kinematics
    force_tol: float
    length_tol: float
    status: np.ndarray
    direction: np.ndarray
    iteration: int


#: A status rule: Iterate -> (status, direction).
StatusRule = Callable[[Iterate], tuple[np.ndarray, np.ndarray]]


@dataclass
class LoopResult:
    """End of a step's loop: multipliers, boundary forces, the last
    linearisation, statuses, counts; ``gap`` and ``slip`` (m) are the
    linear model's at ``lam`` (consistent with the forces)."""

    lam: np.ndarray
    p: np.ndarray
    kin: Kinematics
    status: np.ndarray
    direction: np.ndarray
    iterations: int
    converged: bool
    residual: float
    gap: np.ndarray
    slip: np.ndarray


def model_values(L: Linearisation, lam: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gaps and slips (m) of the linear model at ``lam`` (gap +inf where no master faces)."""
    n = len(L.kin.weight)
    lin = L.e + L.W @ lam
    return np.where(L.kin.outside, np.inf, lin[:n] / L.kin.weight), lin[n:] / L.kin.weight


def local_compliance(L: Linearisation, zone_edges: np.ndarray, workspace: ContactWorkspace | None = None) -> float:
    r"""Compliance of the contact boundary *relative* between neighbouring slave nodes.

    :math:`\tfrac12 (W_{jj} + W_{kk} - 2 W_{jk})` over the slave edges (j, k),
    normal and tangential blocks, divided by the nodal weights: the gap (m)
    a unit multiplier opens between neighbours. Rigid-body and inertial parts,
    common to neighbours, cancel, so this is the bodies' local elastic
    compliance; it turns the force tolerance into a length tolerance. The
    smaller of the normal and tangential medians over the edges inside the
    master; 0 if there is none. With a ``workspace``, reused while W is (see
    :func:`fem2d.contact.kinematics.delassus`).
    """
    return compliance_of(L.W, L.kin.weight, L.kin.outside, zone_edges, workspace)


def compliance_of(
    W: np.ndarray, weight: np.ndarray, outside: np.ndarray, zone_edges: np.ndarray,
    workspace: ContactWorkspace | None = None,
) -> float:
    """:func:`local_compliance` of the operator ``W`` of kinematics with these
    ``weight`` and ``outside`` flags."""
    if workspace is None:
        return _local_compliance(W, weight, outside, zone_edges)
    # the same arrays as the last call (a kept pairing and W): its value without comparing their bytes
    same = (W, zone_edges, weight, outside)

    def by_value() -> float:
        key = (W, zone_edges.tobytes(), weight.tobytes(), outside.tobytes())
        return workspace.last("local_compliance", key, lambda: _local_compliance(W, weight, outside, zone_edges),
                              _same_w)

    return workspace.last("local_compliance_of", same, by_value, _same_arrays)


def _same_arrays(old: tuple, new: tuple) -> bool:
    return all(a is b for a, b in zip(old, new))


def _local_compliance(W: np.ndarray, weight: np.ndarray, outside: np.ndarray, zone_edges: np.ndarray) -> float:
    n = len(weight)
    j, k = zone_edges[:, 0], zone_edges[:, 1]
    inside = ~(outside[j] | outside[k])
    value = 0.0
    if inside.any():
        j, k = j[inside], k[inside]
        w = 0.5 * (weight[j] + weight[k])
        # the smaller of the normal and tangential medians: a rocking of the body is common
        # to neighbours tangentially but not normally
        value = float(
            min(np.median(0.5 * (W[a + j, a + j] + W[a + k, a + k] - 2.0 * W[a + j, a + k]) / w) for a in (0, n))
        )
    return value


#: Machine epsilon of float64.
EPS = float(np.finfo(float).eps)


def length_floor(problem: CondensedProblem) -> float:
    """The smallest meaningful gap or slip (m): 4 ulp of the largest coordinate
    or free motion of the step (their round-off)."""
    moved = float(np.abs(problem.d_free - problem.d_start).max(initial=0.0))
    size = float(np.abs(problem.zone.reference + problem.d_start).max(initial=1.0))
    return 4.0 * EPS * max(size, moved)


def length_tolerance(floor: float, force_tol: float, compliance: float) -> float:
    """Tolerance on gaps and slips (m): the local gap a force error of
    ``force_tol`` makes (``compliance``, :func:`local_compliance`), but never
    below ``floor`` (:func:`length_floor`)."""
    return max(force_tol * compliance, floor)


def force_scale(lam: np.ndarray, e: np.ndarray, diag: np.ndarray, n: int) -> float:
    """The load scale of the step, in multiplier units: the largest multiplier,
    or the largest one needed to close the free penetration."""
    positive = diag[:n] > 0.0
    closing = np.where(positive, -e[:n] / np.where(positive, diag[:n], 1.0), 0.0)
    return max(float(np.abs(lam).max(initial=0.0)), float(closing.max(initial=0.0)), TINY)


@dataclass
class Linearisation:
    """The step's kinematics linearised at ``d`` (flattened boundary displacement):
    values ``x`` there, free values ``e`` and operator ``W`` of the linear model
    ``x(lam) = e + W lam``, and the safe diagonal of W (for force units).

    Derived once per linearisation for the loop: ``closing``, the part of
    :func:`force_scale` that does not depend on the multipliers; ``w2``, the
    weights of the normal then the tangential rows (None when they are all
    1); ``outside``, whether some slave node has no master facing it.
    """

    d: np.ndarray
    kin: Kinematics
    W: np.ndarray
    x: np.ndarray
    e: np.ndarray
    diag: np.ndarray
    safe: np.ndarray
    closing: float = 0.0
    w2: np.ndarray | None = None
    outside: bool = False


def linearise(
    problem: CondensedProblem, kinematics: Callable[[np.ndarray], Kinematics], d: np.ndarray
) -> Linearisation:
    r"""Pair at ``d`` and build the linear model of the step there.

    With the kinematics linearised at :math:`d_k` (:mod:`fem2d.contact.kinematics`),

    .. math::

        \begin{pmatrix} w g \\ w u \end{pmatrix}(\lambda) = e + W \lambda, \qquad
        e = x_k + B (d_{free} - d_k), \qquad W = B C B^T,

    with :math:`x_k` the weighted gaps and slips at :math:`d_k`: the
    configuration at the start of the step for the first iteration (the
    pairing is done where the bodies are, not at the free prediction, which
    may have left the master), then :math:`d(p_k)`.
    """
    kin = kinematics(d.reshape(-1, 2))
    W, diag, positive, safe = delassus(kin.B, problem.compliance, problem.workspace)
    x = kin.values()
    e = x + kin.B.dot(problem.d_free.ravel() - d)
    n = len(kin.weight)
    closing = float(np.where(positive[:n], -e[:n] / safe[:n], 0.0).max(initial=0.0))
    w2 = None if kin.unit or (kin.weight == 1.0).all() else np.concatenate((kin.weight, kin.weight))
    outside = bool(kin.outside.any()) if kin.any_outside is None else kin.any_outside
    return Linearisation(d, kin, W, x, e, diag, safe, closing, w2, outside)


class AndersonAcceleration:
    r"""Anderson's acceleration of a fixed point :math:`x = G(x)` (Walker and Ni 2011).

    With the residuals :math:`r_k = G(x_k) - x_k` and the differences
    :math:`\Delta X, \Delta R` of the last ``memory`` iterates and residuals,

    .. math::

        \gamma = \arg\min_\gamma \|r_k - \Delta R\, \gamma\|_2, \qquad
        x_{k+1} = x_k + r_k - (\Delta X + \Delta R)\, \gamma ,

    a secant method on the residual (on a linear map, GMRES's iterates): a map
    contracting slowly is solved in a few steps, and so is one whose plain
    iteration diverges along a few directions. The first step is a plain one.

    A linear map whose plain iteration diverges (by 1.2 per step along y):

    >>> A = np.array([[0.5, 0.0], [0.3, 1.2]])
    >>> b = np.array([1.0, -1.0])
    >>> accel, x = AndersonAcceleration(), np.zeros(2)
    >>> for _ in range(4):
    ...     x = accel.next(x, A @ x + b)
    >>> np.allclose(x, np.linalg.solve(np.eye(2) - A, b))
    True
    """

    def __init__(self, memory: int = 5) -> None:
        self.memory = memory
        self.points: list[np.ndarray] = []
        self.residuals: list[np.ndarray] = []

    def next(self, x: np.ndarray, target: np.ndarray) -> np.ndarray:
        """The next point from the current ``x`` and its image ``target`` = G(x)."""
        r = target - x
        self.points.append(x.copy())
        self.residuals.append(r)
        if len(self.points) > self.memory + 1:
            self.points.pop(0)
            self.residuals.pop(0)
        if len(self.points) == 1:
            return target
        dX = np.diff(np.array(self.points), axis=0).T
        dR = np.diff(np.array(self.residuals), axis=0).T
        gamma = np.linalg.lstsq(dR, r, rcond=1e-12)[0]
        return x + r - (dX + dR) @ gamma


@dataclass
class NewtonOutcome:
    """How :func:`newton_with_repairing` ended: the last linearisation and
    multipliers, the counts, whether it converged and its residual."""

    L: Linearisation
    lam: np.ndarray
    iterations: int
    converged: bool
    residual: float


def newton_with_repairing(
    problem: CondensedProblem,
    kinematics: Callable[[np.ndarray], Kinematics],
    L: Linearisation,
    lam: np.ndarray,
    tolerance: float,
    max_iter: int,
    evaluate: Callable[[Linearisation, np.ndarray], tuple[float, bool]],
    advance: Callable[[Linearisation, np.ndarray], tuple[np.ndarray, int]],
    on_repair: Callable[[], None],
) -> NewtonOutcome:
    r"""The step's Newton loop on the condensed problem, with re-pairing.

    Every formulation solves the contact laws on the linear model
    :math:`x(\lambda) = e + W\lambda` of one linearisation, and re-pairs the
    geometry at :math:`d(p)`, :math:`p = B^T\lambda`, once the laws hold on
    that model (so that wild intermediate iterates never drive the pairing):

    1. ``evaluate(L, lam)`` gives the residual (converged when
       :math:`\le` ``tolerance``) and whether the laws hold on this model;
    2. if they do, re-pair at the solution (``on_repair()`` is told);
    3. otherwise ``advance(L, lam)`` gives the next multipliers and whether
       the step counts as an iteration (0 or 1).

    ``max_iter`` bounds the advances and the re-pairings; the loop never
    raises on non-convergence.

    The re-pairing is a fixed point :math:`d_{k+1} = G(d_k)` on the
    linearisation point (the pairing's linearisation leaves out how the
    master's normal turns with the motion, so it contracts only linearly: by
    0.5-0.7 per re-pairing on two deformable blocks pressed 30 %, where the
    bodies' own stiffness is no larger than the contact forces' lever on the
    normals), or even grows by 1.2 per re-pairing at 28 % in finite strain. It is
    accelerated by Anderson's method (:class:`AndersonAcceleration`):
    the linearisation point only changes where the next linear model is
    built, so the converged answer is the same.
    """
    iterations, repairings = 0, 0
    relaxation = AndersonAcceleration()
    best = (np.inf, L, lam)
    while True:
        residual, solved_here = evaluate(L, lam)
        if residual <= tolerance:
            return NewtonOutcome(L, lam, iterations, True, residual)
        if residual < best[0]:
            best = (residual, L, lam)
        if solved_here:
            if repairings == max_iter:
                break
            target = problem.displacement(L.kin.B.transpose_dot(lam)).ravel()
            L = linearise(problem, kinematics, relaxation.next(L.d, target))
            repairings += 1
            on_repair()
            continue
        if iterations == max_iter:
            break
        lam, counted = advance(L, lam)
        iterations += counted
    if best[0] <= problem.acceptable:
        # stalled below the accuracy the step around it asks of its own equations: its best iterate,
        # evaluated again (the formulation reports the last evaluation's gaps and statuses)
        residual, L, lam = best
        evaluate(L, lam)
        return NewtonOutcome(L, lam, iterations, True, residual)
    return NewtonOutcome(L, lam, iterations, False, residual)


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

    On a fixed linearisation (first the start of the step), statuses are
    revised by ``rule`` and the linear system solved until the laws hold
    there; only then is the geometry re-paired at the resulting displacement
    (so that wild intermediate iterates never drive the pairing). Converged
    when the natural residual of the laws on the linear model is within
    ``tolerance`` times the force scale (forces) and
    :func:`length_tolerance` (gaps and slips), and the re-paired kinematics
    agree with that model within the length tolerance; the reported
    ``residual`` is the largest of these ratios times ``tolerance``.
    ``max_iter`` bounds the linear solves and the re-pairings.
    ``rule_at_start=False`` solves first with the given statuses (a warm
    start from the previous step) unless they are all OPEN. Never raises on
    non-convergence.
    """
    mu = problem.zone.mu
    n = problem.zone.n_slave
    start = linearise(problem, kinematics, problem.d_start.ravel())
    compliance = local_compliance(start, problem.zone.slave_local, problem.workspace)
    floor = length_floor(problem)
    # what the last evaluation left for the next advance, and the statuses of the last solve
    last: dict = {"first": True, "solved_with": None}

    def evaluate(L: Linearisation, lam: np.ndarray) -> tuple[float, bool]:
        lin = L.e + L.W.dot(lam)
        scaled = lin if L.w2 is None else lin / L.w2
        gap, slip = scaled[:n], scaled[n:]
        if L.outside:
            gap = np.where(L.kin.outside, np.inf, gap)
        last["gap"], last["slip"] = gap, slip
        force_tol = tolerance * max(float(np.abs(lam).max()), L.closing, TINY)
        length_tol = length_tolerance(floor, force_tol, compliance)
        law = float(natural_residual(lam[:n], lam[n:], gap, slip, mu, force_tol / length_tol).max())
        offset = np.abs(lin - L.x)
        mismatch = float((offset if L.w2 is None else offset / L.w2).max())
        residual = tolerance * max(law / force_tol, mismatch / length_tol)
        if residual <= tolerance:
            return residual, False
        status, direction = last["status"], last["direction"]
        new_status, new_direction = status, direction
        if not last["first"] or rule_at_start or not (status != OPEN).any():
            it = Iterate(lam, gap, slip, L.diag, L.kin, force_tol, length_tol, status, direction, iterations["n"])
            new_status, new_direction = rule(it)
        if L.outside:
            new_status = np.where(L.kin.outside, OPEN, new_status)
        new_direction = np.where(new_status == SLIP, new_direction, 0.0)
        key = new_status.tobytes() + new_direction.tobytes()
        last["first"] = False
        last["new"] = (new_status, new_direction, key)
        # the laws hold on this linear model (or the rule has nothing new): re-pair at the solution
        return residual, law <= force_tol or key == last["solved_with"]

    def advance(L: Linearisation, lam: np.ndarray) -> tuple[np.ndarray, int]:
        status, direction, key = last["new"]
        last["status"], last["direction"], last["solved_with"] = status, direction, key
        counted = int(bool((status != OPEN).any()))
        iterations["n"] += counted
        return solve_statuses(L.W, L.e, status, direction, mu, problem.workspace), counted

    def on_repair() -> None:
        last["solved_with"] = None

    last["status"], last["direction"] = status0.copy(), direction0.copy()
    iterations = {"n": 0}  # the count the rule sees (Iterate.iteration)
    out = newton_with_repairing(problem, kinematics, start, lam0.copy(), tolerance, max_iter, evaluate, advance,
                                on_repair)
    # gap and slip are the linear model's at lam: every exit above follows their evaluation
    p = out.L.kin.B.transpose_dot(out.lam)
    return LoopResult(out.lam, p, out.L.kin, last["status"], last["direction"], out.iterations, out.converged,
                      float(out.residual), last["gap"], last["slip"])


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
    reported = (result.status if status is None else status).astype(np.int64)
    # a link that ends the step without a compressive force has opened, whatever
    # status the active set kept for it (its next first guess stays in ``state``)
    reported = np.where(normal_force > 0.0, reported, OPEN)
    return ContactSolution(
        forces=forces.copy(),
        normal_force=normal_force,
        tangential_force=tangential_force,
        gap=result.gap.copy(),
        status=reported,
        slip=result.slip.copy(),
        state=state,
        iterations=result.iterations,
        converged=result.converged,
        residual=result.residual,
        left_master=kin.outside.copy() if kin.tied is None else kin.outside & ~kin.tied,
    )
