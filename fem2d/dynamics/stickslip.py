r"""Stick/slip events inside a time step: a sliding contact that stops or reverses.

While a contact slides, the Coulomb force is :math:`\mp\mu F_n` along the slip;
when the slip velocity vanishes the friction force jumps, to
:math:`\pm\mu F_n` (the slip reverses) or to whatever keeps the contact stuck
(the body stops). The acceleration jumps with it. A step that holds that
instant integrates the jump as if it happened at a step end: its friction is
wrong over part of the step, an error :math:`O(\Delta t)` in the velocity
that every later step carries (first order in time). Two things make the
step second order again:

1. **Locate the event.** With :math:`S` the slave nodes sliding at
   :math:`t_n`, :math:`\tau_i` the master tangent at their projection
   (:func:`fem2d.contact.search.project`, at :math:`t_n`),
   :math:`w_{ia}` the shape functions of the master nodes :math:`a` there,
   :math:`\bar v` the mean (momentum) velocity of the body a node belongs
   to, :math:`s_i(t) = \tau_i \cdot (\bar v_i - \sum_a w_{ia} \bar v_a)`
   the slip rate of node :math:`i` and :math:`\sigma_i` its sign at :math:`t_n`,

   .. math::

       \phi(h) = \frac{1}{|S|} \sum_{i \in S} \sigma_i\, s_i(t_n + h)

   is their mean slip rate along their slip at :math:`t_n` after a step
   :math:`h` (a prescribed master node with its prescribed velocity). The bodies' mean
   velocities, not the nodes' own: the velocity of a contact node of an
   implicit step alternates from step to step around the body's (under a
   nearly static load, in sign), which would be taken for stops. A step with
   :math:`\phi(\Delta t) \le 0` holds the event (an implicit step that stops a
   node even gives :math:`v_{n+1} \approx -v_n`: the chatter of the velocity after
   a stop). Its root :math:`h^*` is found by the Illinois variant of regula
   falsi on trial steps of size :math:`h` from :math:`t_n` (each one solved with
   its own factorisation): until :math:`h^*` the trial step slides in the old
   direction, and beyond it the implicit step keeps sliding with the old
   friction (its slip increment keeps its sign) until about :math:`2h^*`, so
   :math:`\phi` is smooth near the root and the iteration converges
   superlinearly. :math:`\phi` is a mean over the nodes, so a node whose status
   flickers (a gap of 1e-12 opening and closing under a rocking block) does
   not move it.

2. **Restart the scheme at the event.** At :math:`t^*` the contact force jumps
   from :math:`f_c^-` to :math:`f_c^+` with :math:`u, v` and the loads
   continuous, so the acceleration jumps by :math:`M^{-1}(f_c^+ - f_c^-)`. A
   Newmark-family scheme carries :math:`a_n` and (generalized-alpha, HHT)
   :math:`f_{c,n}` into the next step; left at their pre-event values they
   make the next step's velocity wrong by :math:`O(\Delta t)`. The step after
   the event is solved once to get the friction forces after it (its
   end-of-step forces, :math:`O(\Delta t)` from the values just after the
   event: an :math:`O(\Delta t^2)` error in the velocity). The jump
   :math:`\Delta f` is the change of the slave forces along :math:`\tau_i`
   (the normal force is continuous), each zone's own force (a node slave to
   two zones, a block's corner on a floor and against a wall, carries both,
   and the wall's normal force along the floor's tangent is no friction), with its reaction
   :math:`-w_{ia}\Delta f_i` on the master nodes. Of the acceleration jump
   :math:`M^{-1}\Delta f` the step needs the part it resolves: the rigid
   translation of each body, :math:`\Delta a = \sum_b T_b (T_b^T M T_b)^{-1}
   T_b^T \Delta f` (:math:`T_b` the body's two translations; a rotation and
   a deformation of the body are held by the normal contact and the body's
   stiffness, and :math:`M^{-1}\Delta f` itself puts accelerations of hundreds
   of m/s^2 on the contact nodes of a consistent mass, which set a block
   rocking on penalty springs). The step is redone from

   .. math::

       a^+ = a^- + \Delta a, \qquad f_c^+ = f_c^- + \Delta f.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from fem2d.contact.problem import STICK, ContactSolution
from fem2d.contact.search import project
from fem2d.contact.surface import master_surface
from fem2d.dynamics.coupling import ContactCoupling, StepFailed

if TYPE_CHECKING:
    from fem2d.dynamics.stepper import NewmarkStepper, StepState
    from fem2d.model.system import System


#: a slip over a step below this many times the round-off of the contact's coordinates
#: (4 ulp of the largest, the contact solver's own length floor) is no slip
STILL_SLIP = 1e3
#: sliding nodes carrying less than this share of their body's normal force in a zone do not
#: move the body (its sticking nodes hold it)
HELD_SHARE = 0.5
#: ... when their own slip over a step is also below this fraction of the body's slip rate times
#: the step (the body's mean velocity is then its vibration on the stuck nodes, not a slip; nodes
#: sliding with a decelerating body slip more than that)
CREEP_SLIP = 1.0


class StickSlipLocator:
    """Finds where sliding contact nodes stop or reverse inside a step and
    restarts the scheme there (see the module docstring).

    ``tolerance``: the located instant is accepted when :math:`|\\phi|` is below
    this fraction of its value at the start of the step, or when the bracket
    is narrower than this fraction of the step; ``max_trials``: most trial
    steps per event (beyond, the step is kept as it was); ``min_speed``: a
    step is searched only when the mean slip rate at its start exceeds this
    fraction of the largest one seen (a node of a stuck elastic body can creep
    at its friction limit; its stop is not an event of the motion).

    Nothing is searched, and no step is solved twice, where nothing slides:

    * a slip is only a slip above the contact's stick tolerance: a step whose
      slip rates, at its start and its end, move the nodes by less than
      :data:`STILL_SLIP` times the round-off of the contact's coordinates
      (:meth:`still_slip`) over the step holds no event (a block at rest: its
      slip rates are round-off, 1e-16 m/s, whose signs change from step to step);
    * a body held by its sticking nodes does not slide: sliding nodes that carry
      less than :data:`HELD_SHARE` of the normal force of their body's nodes in
      the zone, and whose own slip over the step before is below
      :data:`CREEP_SLIP` times :math:`\\phi \\Delta t`, creep at their friction
      limit (the corners of an elastic block under its weight, on a support that
      vibrates without making it slip: :math:`\\phi` is then the body's elastic
      vibration on its stuck nodes; their slip measured: 0.25 :math:`\\phi \\Delta t`
      at most) and are not searched. Both conditions: at a reversal of a rocking
      block some nodes stick for a step while the others slide on with the body
      (their slip there: 5 :math:`\\phi \\Delta t`).

    Counters: ``reversals`` (the slip reversed after the event), ``stops``
    (the contact stuck), ``trials`` (trial steps solved to locate them).
    """

    def __init__(
        self,
        coupling: ContactCoupling,
        bodies: BodyTranslations,
        tolerance: float = 1e-9,
        max_trials: int = 30,
        min_speed: float = 1e-4,
        min_fraction: float = 1e-3,
    ) -> None:
        self.tolerance = tolerance
        self.min_speed = min_speed
        self.min_fraction = min_fraction
        self.max_trials = max_trials
        self.zones = coupling.zones
        self.coupling = coupling
        self.where = coupling.where
        self.bodies = bodies
        #: per zone: free-dof rows (n_boundary, 2) of its boundary nodes (-1: prescribed)
        self.rows = [coupling.boundary_free_index[(2 * w[:, None] + np.arange(2)).ravel()].reshape(-1, 2)
                     for w in coupling.where]
        #: per zone: the free rows among ``rows``, in the order ``rows[rows >= 0]`` lists them
        self.free_rows = [rows[rows >= 0] for rows in self.rows]
        self.surfaces = [master_surface(zone) for zone in self.zones]
        #: per zone: the body (:attr:`BodyTranslations.body_of_node`) of each slave node
        self.slave_bodies = [bodies.body_of_node[zone.slave_nodes] for zone in self.zones]
        size = max(float(np.abs(zone.reference[: zone.n_slave]).max(initial=0.0)) for zone in self.zones) or 1.0
        self._still = STILL_SLIP * 4.0 * float(np.finfo(float).eps) * size
        self._step = 0.0
        self._speed_scale = 0.0
        self._recent: list[Sliding] = []
        self._restarted_at: float | None = None
        self._sliding: list[Sliding] = []
        self._last_speed: tuple | None = None
        self.reversals = 0
        self.stops = 0
        self.trials = 0

    def _boundary(self, z: int, x: np.ndarray | None, prescribed: np.ndarray | None = None,
                  on_free: np.ndarray | None = None) -> np.ndarray:
        """Zone z's boundary values (n_boundary, 2) of a free-dof vector ``x`` (or, as ``on_free``,
        its values on the zone's free rows, :attr:`free_rows`); where a dof is prescribed,
        ``prescribed`` (the union boundary's values) or zero."""
        rows = self.rows[z]
        out = np.zeros(rows.shape)
        free = rows >= 0
        out[free] = x[rows[free]] if on_free is None else on_free
        if prescribed is not None:
            out[~free] = prescribed.reshape(-1, 2)[self.where[z]][~free]
        return out

    def _prescribed_velocity(self, t: float) -> np.ndarray:
        """The union boundary's prescribed velocities at t (moving obstacles and supports;
        central differences of the prescribed displacements)."""
        delta = 1e-7 * max(1.0, abs(t))
        return (self.coupling.prescribed_at(t + delta) - self.coupling.prescribed_at(t - delta)) / (2.0 * delta)

    def sliding(self, state: StepState) -> list[Sliding]:
        """The sliding slave nodes of every zone at ``state``, with their
        tangents, master weights and slip signs (empty when none slides)."""
        solution = state.solution
        if solution is None or state.t == self._restarted_at:
            return []
        parts = solution.parts or (solution,)
        found = []
        for z, (zone, part) in enumerate(zip(self.zones, parts)):
            n = zone.n_slave
            nodes = np.flatnonzero(carries_sliding(part, zone.consistent))
            if not len(nodes):
                continue
            held = self._held(z, part)[nodes]
            coords = zone.reference + self._boundary(z, state.u, self.coupling.prescribed_at(state.t))
            proj = project(self.surfaces[z], coords, coords[:n][nodes], exclude=nodes)
            inside = ~proj.outside
            if not inside.any():
                continue
            item = Sliding(z, nodes[inside], proj.tangent[inside], proj.master_nodes[inside], proj.weights[inside],
                           np.ones(int(inside.sum())), held[inside])
            rate = self.slip_rates(state, item)
            item.sign[:] = np.sign(rate)
            keep = rate != 0.0
            if keep.any():
                found.append(Sliding(item.zone, item.nodes[keep], item.tangent[keep], item.master_nodes[keep],
                                     item.weights[keep], item.sign[keep], item.held[keep]))
        return found

    def _held(self, z: int, part: ContactSolution) -> np.ndarray:
        """Per slave node of zone z, whether its body's sliding nodes (status SLIP, in contact) carry
        less than :data:`HELD_SHARE` of the normal force of the body's nodes in the zone in ``part``."""
        force = np.maximum(part.normal_force, 0.0)
        sliding = carries_sliding(part, self.zones[z].consistent)
        body = self.slave_bodies[z] + 1  # (0: nodes in no cell)
        total = np.bincount(body, weights=force)
        slides = np.bincount(body, weights=np.where(sliding, force, 0.0), minlength=len(total))
        return (slides < HELD_SHARE * total)[body]

    def _creeping(self, state: StepState, sliding: list[Sliding], phi: float, h: float) -> bool:
        """Whether the ``sliding`` nodes of ``state`` creep on bodies their sticking nodes hold: all of
        them :attr:`Sliding.held`, and their mean slip over the step that ended at ``state`` below
        :data:`CREEP_SLIP` of ``phi * h`` (``phi``: their mean slip rate from the bodies' velocities)."""
        if not all(item.held.all() for item in sliding):
            return False
        parts = state.solution.parts or (state.solution,)
        slips = np.concatenate([np.abs(parts[item.zone].slip[item.nodes]) for item in sliding])
        return float(np.mean(slips)) < CREEP_SLIP * abs(phi) * h

    def still_slip(self, h: float) -> float:
        """The slip rate (m/s) below which a node is still over a step ``h``: :data:`STILL_SLIP`
        times the round-off of the contact's coordinates (4 ulp of the largest), per ``h``."""
        return self._still / h

    def slip_rates(self, state: StepState, item: Sliding) -> np.ndarray:
        """:math:`\\sigma_i s_i`: the slip rates of ``item``'s nodes at ``state`` along their signs."""
        # the bodies' velocities on the zone's boundary rows only (the rest of the dofs are not read)
        on_free = self.bodies.velocity(state.v, self.free_rows[item.zone])
        v = self._boundary(item.zone, None, self._prescribed_velocity(state.t), on_free)
        relative = v[item.nodes] - np.einsum("pa,paj->pj", item.weights, v[item.master_nodes])
        return item.sign * np.einsum("pj,pj->p", item.tangent, relative)

    def speed(self, state: StepState, sliding: list[Sliding]) -> float:
        """:math:`\\phi`: the mean slip rate of the ``sliding`` nodes along their slip at ``state``
        (kept for the last state and nodes: a step's end is the next step's start)."""
        last = self._last_speed
        if last is not None and last[0] is state and last[1] is sliding and last[2] is state.v:
            return last[3]
        value = float(np.mean(np.concatenate([self.slip_rates(state, item) for item in sliding])))
        self._last_speed = (state, sliding, state.v, value)
        return value

    def locate(self, stepper: NewmarkStepper, start: StepState, end: StepState) -> StepState | None:
        """The state at the instant the sliding nodes of ``start`` stop or reverse
        inside the step ``start -> end``, solved as one step from ``start``; None
        when the step holds no such event (or it could not be located)."""
        if end.solution is None:
            return None
        if self._recent:
            # the last projection's tangents (they turn slowly): a step that goes on sliding at more
            # than half its starting rate along them holds no event, and needs no new projection
            phi_a, phi_b = self.speed(start, self._recent), self.speed(end, self._recent)
            if phi_a > 0.0 and phi_b > 0.5 * phi_a:
                self._speed_scale = max(self._speed_scale, phi_a)
                return None
        sliding = self._recent = self.sliding(start)
        if not sliding:
            return None
        phi_a, phi_b = self.speed(start, sliding), self.speed(end, sliding)
        self._speed_scale = max(self._speed_scale, phi_a)
        h = end.t - start.t
        if phi_b > 0.0 or max(phi_a, -phi_b) <= max(self.min_speed * self._speed_scale, self.still_slip(h)):
            # sliding on, a node creeping at its friction limit (an edge under a moment), or still:
            # slip rates of round-off, changing sign from step to step
            return None
        if self._creeping(start, sliding, phi_a, h):
            return None  # on a body held by its sticking nodes
        a, b, fa, fb = 0.0, h, phi_a, phi_b
        best: StepState | None = None
        side = 0
        for _ in range(self.max_trials):
            c = b - fb * (b - a) / (fb - fa)
            if not a < c < b:
                c = 0.5 * (a + b)
            try:
                trial = stepper.step(start, c, start.t + c)
            except StepFailed:
                return None
            self.trials += 1
            fc = self.speed(trial, sliding)
            best = trial
            if abs(fc) <= self.tolerance * phi_a or b - a <= self.tolerance * h:
                break
            if fc > 0.0:
                a, fa = c, fc
                if side == 1:
                    fb *= 0.5  # Illinois: the same end twice, halve the other's weight
                side = 1
            else:
                b, fb = c, fc
                if side == -1:
                    fa *= 0.5
                side = -1
        else:
            return None
        if best is None or not self.min_fraction * h < best.t - start.t < h:
            # at the very start of the step: the nodes' velocities alternating from step to step
            # (an implicit step's contact nodes under a nearly static load), not a stop
            return None
        self._step, self._sliding = h, sliding
        return best

    def restart(self, stepper: NewmarkStepper, event: StepState, t_target: float) -> StepState:
        """``event`` with the acceleration and contact force of just after the
        event (see the module docstring), from trial steps to ``t_target``;
        counts the event as a stop or a reversal.

        Stop or reverse? A trial step from ``event`` with the bodies' rigid
        accelerations removed (at rest, the inertia of the old slip gone) sticks
        exactly when the friction can hold the loads, :math:`|F_t| \\le \\mu F_n`
        (see :meth:`_sticks`): the state just after a stop. Otherwise the slip reverses, and the jump
        comes from a trial step from ``event`` itself (a trial step with the old
        slip's acceleration would find that the friction cannot stop that
        inertia, and never stick).
        """
        self._restarted_at = event.t
        h = t_target - event.t
        if event.contact_force is None:
            return event
        bodies = self.bodies
        rigid = bodies.project(bodies.mass @ event.a)
        at_rest = replace(event, a=event.a - rigid, contact_force=event.contact_force - bodies.mass @ rigid)
        try:
            if self._sticks(stepper.step(at_rest, h, t_target), 0.5 * float(np.abs(rigid).max(initial=0.0)) * h * h):
                self.stops += 1
                return at_rest
            trial = stepper.step(event, h, t_target)
        except StepFailed:
            return event  # the step after the event is cut by the driver, from the event as it is
        self.reversals += 1
        # the friction jump along the tangents, with its reaction on the master nodes; each zone's own
        # forces: a node slave to two zones (a block's corner on a floor and against a wall) carries
        # both, and the other zone's normal force along this zone's tangent is no friction
        jump = np.zeros_like(event.contact_force)
        before, after = zone_forces(event.solution), zone_forces(trial.solution)
        for item in self._sliding:
            rows = self.rows[item.zone]
            change = (after[item.zone] - before[item.zone])[item.nodes]
            along = np.einsum("pj,pj->p", change, item.tangent)[:, None] * item.tangent
            for where, force in ((rows[item.nodes], along),
                                 (rows[item.master_nodes], -item.weights[:, :, None] * along[:, None, :])):
                where, force = where.reshape(-1), force.reshape(-1)
                free = where >= 0
                np.add.at(jump, where[free], force[free])
        da = bodies.project(jump)
        # the pair (a, f_c) moves by a rigid translation: M a - f_c on the body's other modes stays as it was
        return replace(event, a=event.a + da, contact_force=event.contact_force + bodies.mass @ da)

    def _sticks(self, trial: StepState, reversal: float) -> bool:
        """Whether the nodes that were sliding before the event stay (almost) put
        at ``trial``: their mean slip is below a tenth of ``reversal``, the slip
        a reversal with the old acceleration would make over the step (an
        elastic block under a moment may still slip a little at an edge node
        that carries its friction limit)."""
        parts = trial.solution.parts or (trial.solution,)
        slips = np.concatenate([parts[item.zone].slip[item.nodes] for item in self._sliding])
        return bool(abs(float(np.mean(slips))) <= 0.1 * reversal)


def carries_sliding(part: ContactSolution, consistent: bool = False) -> np.ndarray:
    """Per slave node, whether it carries a normal force and does not stick: the sliding nodes,
    and, with mortar contact, their neighbours (a pressure at node j puts forces on the nodes of
    its edges, whose own multipliers may be zero: their friction jumps with the slip's). On a
    ``consistent`` zone (mortar) a force of either sign counts: the consistent forces of a
    positive pressure on a SEG3 edge are negative at a corner node next to an open one.

    >>> from fem2d.contact.problem import ContactSolution
    >>> part = ContactSolution(forces=np.zeros((3, 2)), normal_force=np.array([1.0, 2.0, 0.0]),
    ...                        tangential_force=np.zeros(3), gap=np.zeros(3), status=np.array([2, 0, 0]),  # slip, open
    ...                        slip=np.zeros(3), state=None, iterations=1, converged=True, residual=0.0)
    >>> carries_sliding(part).tolist()
    [True, True, False]
    """
    carries = part.normal_force != 0.0 if consistent else part.normal_force > 0.0
    return (part.status != STICK) & carries


def zone_forces(solution: ContactSolution) -> tuple[np.ndarray, ...]:
    """Each zone's own contact forces on its boundary nodes, (n_boundary, 2) each."""
    return tuple(part.forces for part in (solution.parts or (solution,)))


@dataclass(frozen=True)
class Sliding:
    """Sliding slave nodes of one zone (``nodes``: slave indices) with, at
    their projections, the master ``tangent`` (unit), the ``master_nodes``
    (boundary indices) and their ``weights``, the ``sign`` of their slip, and
    whether their body's sliding nodes carry under :data:`HELD_SHARE` of its
    normal force in the zone (``held``)."""

    zone: int
    nodes: np.ndarray
    tangent: np.ndarray
    master_nodes: np.ndarray
    weights: np.ndarray
    sign: np.ndarray
    held: np.ndarray


class BodyTranslations:
    r"""The rigid translations of each body (connected set of 2D cells) on the
    free dofs, and the projection of a force on them:
    :math:`\Delta a = \sum_b T_b (T_b^T M T_b)^{-1} T_b^T f`.

    >>> import scipy.sparse as sp
    >>> from fem2d.mesh import CellBlock, Mesh
    >>> from fem2d.model.system import System
    >>> mesh = Mesh(np.array([[0., 0], [1, 0], [1, 1], [0, 1]]), {"B": CellBlock("quad4", [[0, 1, 2, 3]])})
    >>> M = sp.csr_matrix(np.eye(8))
    >>> system = System(mesh, M, M, M * 0, np.zeros(0, int), np.zeros(0))
    >>> BodyTranslations(system, system.M_free).project(np.array([4.0, 0, 0, 0, 0, 0, 0, 0])).tolist()
    [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    >>> v = np.array([1.0, 0, 2, 0, 3, 1, 2, 3])
    >>> BodyTranslations(system, system.M_free).velocity(v).tolist()
    [2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0]
    >>> BodyTranslations(system, system.M_free).velocity(v, np.array([3, 4])).tolist()
    [1.0, 2.0]
    """

    def __init__(self, system: System, mass: sp.spmatrix) -> None:
        mesh = system.mesh
        cells = [block.nodes for block in mesh.cells_of_dimension(2).values()]
        index = system.free_index
        self.mass = mass
        #: the body (connected set of cells) of each mesh node, numbered from 0 (-1: in no cell)
        self.body_of_node = np.full(mesh.n_nodes, -1, dtype=np.int64)
        self.modes: list[np.ndarray] = []
        self.masses: list[float] = []
        self._modes: np.ndarray | None = None
        self._momenta = np.zeros((0, len(system.free)))
        self._masses = np.zeros(0)
        if not cells:
            return
        rows = np.concatenate([np.repeat(c[:, :1], c.shape[1], axis=1).ravel() for c in cells])
        cols = np.concatenate([c.ravel() for c in cells])
        graph = sp.coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(mesh.n_nodes, mesh.n_nodes))
        from scipy.sparse.csgraph import connected_components  # (imports scipy.sparse.linalg: 0.06 s)

        _, label = connected_components(graph, directed=False)
        # the nodes of some cell, increasing (np.unique sorted the 4 n_cells entries: 0.15 s at level 6)
        used = np.flatnonzero(np.bincount(cols, minlength=mesh.n_nodes))
        self.body_of_node[used] = np.unique(label[used], return_inverse=True)[1]
        momenta = []
        for body in np.unique(label[used]):
            nodes = used[label[used] == body]
            for c in range(2):
                dofs = index[2 * nodes + c]
                if not (dofs >= 0).any():
                    continue  # a body held along c (a support): no translation, no mass to find
                mode = np.zeros(len(system.free))
                mode[dofs[dofs >= 0]] = 1.0
                momentum = mass @ mode  # a row of T^T M, made once for the mass and the momenta
                m = float(mode @ momentum)
                if m > 0.0:
                    self.modes.append(mode)
                    self.masses.append(m)
                    momenta.append(momentum)
        if self.modes:
            self._modes = np.vstack(self.modes)
            self._momenta = np.vstack(momenta)  # T^T M, row by row
            self._masses = np.array(self.masses)

    def velocity(self, v: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """Each body's mean (momentum) velocity, on its free dofs (on ``rows`` of them only,
        when given: the same values, a dof belonging to one translation of one body)."""
        if self._modes is None:
            return np.zeros_like(v) if rows is None else np.zeros(len(rows))
        modes = self._modes if rows is None else self._modes[:, rows]
        return modes.T @ ((self._momenta @ v) / self._masses)

    def project(self, force: np.ndarray) -> np.ndarray:
        """The translational accelerations of the bodies under ``force`` (free dofs)."""
        if self._modes is None:
            return np.zeros_like(force)
        return self._modes.T @ ((self._modes @ force) / self._masses)
