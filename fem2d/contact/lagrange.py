r"""Discrete contact with Lagrange multipliers: an active-set method on the Delassus operator.

code_aster's discrete ``LAGRANGIEN`` method (``DEFI_CONTACT``, ``FORMULATION='DISCRETE'``). The unknowns
are the nodal contact forces :math:`\lambda_n \ge 0` and friction forces
:math:`\lambda_t` (N) of the slave nodes, node-to-segment; the step's
condensed (Delassus) operator is :math:`W = G C G^T` with :math:`G` the rows
of the gap and slip linearisation (:mod:`fem2d.contact.kinematics`, weights
1). For a set of statuses the problem is linear
(:func:`fem2d.contact.active_set.solve_statuses`): contact nodes get
:math:`g = 0`, stuck nodes :math:`u = 0` (no slip over the step), sliding nodes
the force :math:`\lambda_t = -\mu \lambda_n\, \mathrm{sign}(u)` opposing
their slip. After each solve the statuses are checked against the solution:

* an open link that penetrates (:math:`g < 0`) is activated (sliding along its
  current slip if it has one, else stuck);
* a contact link in tension (:math:`\lambda_n < 0`) is released;
* a stuck link whose force leaves the cone (:math:`|\lambda_t| > \mu\lambda_n`)
  slides, in the direction :math:`-\mathrm{sign}(\lambda_t)` it is pushed;
* a sliding link whose slip opposes its assumed direction sticks;

and the solve is repeated until consistent; the geometry is then re-paired at
the solution (:func:`fem2d.contact.active_set.run`). Contact changes come
first: friction statuses are revised only once no link needs activating or
releasing (the contact loop nested in the friction loop, as in code_aster).
``strategy="block"`` changes every inconsistent link at once (code_aster's
``LAGRANGIEN`` activates links "by package"); ``"single"`` changes only the
most violated link per iteration (code_aster's older ``CONTRAINTE``
active-set method). A status cycle in block mode switches to single changes.
Force violations are compared with ``tolerance`` times the step's force
scale, gap and slip violations with the length tolerance of
:func:`fem2d.contact.active_set.length_tolerance`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

import numpy as np

from fem2d.contact import active_set
from fem2d.contact.free_step import free_step
from fem2d.contact.kinematics import Kinematics, nodal_pressure, node_kinematics
from fem2d.contact.mortar import mortar_kinematics
from fem2d.contact.options import CHOICES
from fem2d.contact.problem import OPEN, SLIP, STICK, CondensedProblem, ContactSolution, ContactZone
from fem2d.contact.surface import MasterSurface, master_surface


@dataclass(frozen=True)
class DiscreteState:
    """History of a discrete formulation between steps.

    ``status``/``direction`` of the slave nodes at the end of the last step
    (the next step's first guess), their ``normal_force`` and
    ``tangential_force`` (N), ``pressure`` = normal force / tributary length
    (Pa, per unit thickness), and the oriented master ``surface``.
    """

    surface: MasterSurface
    status: np.ndarray
    direction: np.ndarray
    normal_force: np.ndarray
    tangential_force: np.ndarray
    pressure: np.ndarray


def initial_discrete_state(zone: ContactZone, orientation: str) -> DiscreteState:
    """Everything open, no force, at the reference position."""
    n = zone.n_slave
    zeros = np.zeros(n)
    return DiscreteState(master_surface(zone, orientation), np.full(n, OPEN), zeros, zeros, zeros, zeros)


def primal_dual_update(it: active_set.Iterate, mu: float, single: bool) -> tuple[np.ndarray, ...]:
    """New statuses from the last solve (see the module docstring).

    Contact first: while some link must be activated or released, only those
    change (an activated link slides along its current slip if it has one,
    else sticks); the friction statuses change once contact is consistent.
    Returns (status, direction, violation): the violation (force units) of
    each changed link, zero elsewhere. With ``single``, only the most
    violated link changes.
    """
    n = len(it.status)
    lam_n, lam_t = it.lam[:n], it.lam[n:]
    g, u = it.gap, it.slip
    stiffness = it.force_tol / it.length_tol  # turns gap and slip violations into forces
    status, direction = it.status.copy(), it.direction.copy()
    is_open = status == OPEN
    activate = is_open & ~it.kin.outside & (-g > it.length_tol)
    release = ~is_open & (-lam_n > it.force_tol)
    contact_changes = bool(activate.any() or release.any())
    if not contact_changes and is_open.all():
        return status, direction, np.zeros(n)  # all open, none to close (a flight): nothing changes
    if contact_changes:
        to_slip = to_stick = np.zeros(n, dtype=bool)
    else:
        to_slip = (status == STICK) & (np.abs(lam_t) - mu * lam_n > it.force_tol)
        # frictionless: a sliding link never sticks again (it has no friction to stick with; at a node
        # a support holds tangentially its slip is round-off, whose sign made it flip between stuck and
        # sliding, a solve each, until the loop gave up)
        to_stick = (status == SLIP) & (-direction * u > it.length_tol) & (mu > 0.0)
        if not (to_slip.any() or to_stick.any()):
            return status, direction, np.zeros(n)  # consistent: nothing changes
    violation = np.zeros(n)
    violation[activate] = -stiffness * g[activate]
    violation[release] = -lam_n[release]
    violation[to_slip] = np.abs(lam_t[to_slip]) - mu * lam_n[to_slip]
    violation[to_stick] = -stiffness * direction[to_stick] * u[to_stick]
    if single and np.any(violation > 0.0):
        keep = np.zeros(n, dtype=bool)
        keep[np.argmax(violation)] = True
        activate, release, to_slip, to_stick = activate & keep, release & keep, to_slip & keep, to_stick & keep
        violation = np.where(keep, violation, 0.0)
    moving = np.abs(u) > it.length_tol
    status[activate] = np.where(moving[activate], SLIP, STICK)
    direction[activate] = np.where(moving[activate], np.sign(u[activate]), 0.0)
    status[release] = OPEN
    direction[release] = 0.0
    status[to_slip] = SLIP
    direction[to_slip] = -np.sign(lam_t[to_slip])
    status[to_stick] = STICK
    direction[to_stick] = 0.0
    return status, direction, violation


@dataclass(frozen=True)
class LagrangeFormulation:
    """Discrete Lagrange-multiplier contact with Coulomb friction (active set).

    Parameters
    ----------
    tolerance
        Relative tolerance on the contact-friction residual (force units
        over the step's force scale).
    max_iter
        Most linear solves per step before reporting non-convergence.
    strategy
        ``"block"`` or ``"single"`` status changes per iteration.
    orientation
        Master normal orientation, see :func:`fem2d.contact.surface.master_surface`.
    discretization
        ``"node_to_segment"`` (the multipliers are nodal forces, N) or ``"mortar"`` (weighted
        gaps over the slave edges cut by the master's nodes, :mod:`fem2d.contact.mortar`; the
        multipliers are pressures, Pa).
    """

    tolerance: float = 1e-10
    max_iter: int = 50
    strategy: str = "block"
    orientation: str = "auto"
    discretization: str = "node_to_segment"
    name: ClassVar[str] = "lagrange"
    choices: ClassVar[dict[str, tuple[str, ...]]] = CHOICES["lagrange"]

    def initial_state(self, zone: ContactZone) -> DiscreteState:
        """All slave nodes open at the reference position."""
        return initial_discrete_state(zone, self.orientation)

    def solve(self, problem: CondensedProblem, state: DiscreteState) -> ContactSolution:
        """Solve the step's contact problem, starting from last step's statuses."""
        mu, n = problem.zone.mu, problem.zone.n_slave
        seen: set[bytes] = set()
        mode = {"single": self.strategy == "single"}

        def rule(it: active_set.Iterate) -> tuple[np.ndarray, np.ndarray]:
            current = it.status.tobytes() + it.direction.tobytes()
            seen.add(current)
            status, direction, _ = primal_dual_update(it, mu, mode["single"])
            key = status.tobytes() + direction.tobytes()
            if not mode["single"] and key != current and key in seen and not np.array_equal(status, it.status):
                mode["single"] = True  # a cycle: fall back to one change at a time
                status, direction, _ = primal_dual_update(it, mu, True)
            return status, direction

        mortar = self.discretization == "mortar"
        if self.max_iter >= 1 and not mortar:  # a step without contact forces (a flight) needs no loop
            result = free_step(problem, state.surface, state.status, state.direction, self.tolerance)
            if result is not None:
                return discrete_solution(result, problem, state.surface)
        result = active_set.run(
            problem,
            kinematics_of(problem, state.surface, self.discretization),
            rule,
            np.zeros(2 * n),
            state.status,
            state.direction,
            self.tolerance,
            self.max_iter,
            rule_at_start=False,
        )
        return discrete_solution(result, problem, state.surface, mortar)


def kinematics_of(
    problem: CondensedProblem, surface: MasterSurface, discretization: str
) -> Callable[[np.ndarray], Kinematics]:
    """The kinematics of a discretization at a boundary displacement: node-to-segment
    (:func:`~fem2d.contact.kinematics.node_kinematics`) or mortar
    (:func:`~fem2d.contact.mortar.mortar_kinematics`)."""
    if discretization == "mortar":
        return partial(mortar_kinematics, problem, surface)
    return partial(node_kinematics, problem, surface)


def discrete_solution(
    result: active_set.LoopResult, problem: CondensedProblem, surface: MasterSurface, mortar: bool = False
) -> ContactSolution:
    """The step's solution of a discrete formulation, with its next state: with ``mortar``, the
    multipliers are the pressures and the nodal forces those of the rows (``B^T lambda``)."""
    n = problem.zone.n_slave
    lam_n, lam_t = result.lam[:n], result.lam[n:]
    if mortar:
        forces = result.p.reshape(-1, 2)[:n]
        pressure = lam_n.copy()
        lam_n = np.einsum("ij,ij->i", result.kin.normal, forces)
        lam_t = np.einsum("ij,ij->i", result.kin.tangent, forces)
    else:
        pressure = nodal_pressure(problem, lam_n)
    state = DiscreteState(surface, result.status.copy(), result.direction.copy(), lam_n.copy(), lam_t.copy(), pressure)
    return active_set.solution(result, problem, state)
