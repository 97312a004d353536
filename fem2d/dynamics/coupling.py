r"""Contact on the condensed boundary: contact zones and their formulations coupled to the step.

Every zone's boundary (its slave and master nodes) is part of one *union*
boundary, on which the step's end displacement is affine in the boundary
forces (:mod:`fem2d.contact.problem`):

.. math::

    d(p) = d_{free} + C p, \qquad C = S K_{eff}^{-1} S^T .

The zones interact through the off-diagonal blocks of :math:`C` (a force on
the left end of a bar moves its right end within the step). With one zone the
zone's formulation solves the whole problem. With several, the problem is
solved by nonlinear block Gauss-Seidel: zone :math:`z` solves its own
contact problem

.. math::

    d_z(p_z) = \Big(d_{free} + \sum_{y \ne z} C_{\cdot y}\, p_y\Big)_z + C_{zz}\, p_z

with the other zones' forces frozen at their latest values, zone after zone,
until no zone's force changes by more than ``tolerance`` times the largest
force, or the sweep moves the boundary by no more than ``tolerance`` times
its largest displacement (each zone keeps its own formulation, Coulomb
coefficient and options). :math:`C` is symmetric positive definite, so for
frictionless contact each sweep decreases the step's (convex) energy and the
sweeps converge to the joint solution; weakly coupled zones (the two ends of a
bar within one step) converge in two or three sweeps.

The displacement test is for redundant constraints: a corner node slave to
two zones (a block's corner on a floor and against a wall) that sticks on
the floor and touches the wall has its horizontal motion held twice, by the
floor's friction and the wall's normal force. Their split is not unique; a
sweep shifts force from one to the other by a constant amount while the
boundary does not move, so the force test is never met (a block pushed into
a rigid wall with its impacts located failed at t = 0.095 s with 200 sweeps
each changing the forces by 1.0e-10 of their largest). The motion is
converged, and each zone's law holds at it.
"""

from __future__ import annotations

import time
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from fem2d.contact.active_set import AndersonAcceleration
from fem2d.contact.archard import ZoneWear
from fem2d.contact.kinematics import Rows, node_kinematics
from fem2d.contact.problem import CondensedProblem, ContactFormulation, ContactSolution, ContactZone
from fem2d.contact.surface import master_surface
from fem2d.contact.wear_gain import UNSTABLE, unstable_wear_message
from fem2d.contact.workspace import ContactWorkspace
from fem2d.dynamics.condensation import BoundaryCondensation, condensation
from fem2d.dynamics.stepsizes import StepSizeCache
from fem2d.errors import NumericalError
from fem2d.linalg.base import Factorization
from fem2d.model.system import System
from fem2d.model.wear import Wear

if TYPE_CHECKING:
    from fem2d.dynamics.stepper import Counters


class StepFailed(Exception):
    """The step's nonlinear problem did not converge (the driver will cut the step)."""

    def __init__(self, residual: float, iterations: int, what: str = "contact") -> None:
        super().__init__(f"{what} residual {residual:.3e} after {iterations} iterations")
        self.residual = residual
        self.iterations = iterations
        #: which iterations failed: "contact", or "Newton" (the bodies that turn or stretch)
        self.what = what


def union_boundary(zones: list[ContactZone]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The union of the zones' boundary nodes (first zone's order first, then
    each later zone's new nodes) and, per zone, the position of its boundary
    nodes in the union.

    >>> from fem2d.mesh.mesh import CellBlock
    >>> from fem2d.contact.problem import make_zone
    >>> pts = [[0, 0], [1, 0], [0, 1], [1, 1], [2, 0], [2, 1]]
    >>> a = make_zone(pts, CellBlock("seg2", [[0, 1]]), CellBlock("seg2", [[2, 3]]), 0.0)
    >>> b = make_zone(pts, CellBlock("seg2", [[1, 4]]), CellBlock("seg2", [[3, 5]]), 0.0)
    >>> nodes, where = union_boundary([a, b])
    >>> nodes.tolist(), [w.tolist() for w in where]
    ([0, 1, 2, 3, 4, 5], [[0, 1, 2, 3], [1, 4, 3, 5]])
    """
    order: dict[int, int] = {}
    for zone in zones:
        for node in zone.boundary_nodes.tolist():
            order.setdefault(node, len(order))
    nodes = np.fromiter(order, dtype=np.int64, count=len(order))
    return nodes, [np.array([order[n] for n in zone.boundary_nodes.tolist()], dtype=np.int64) for zone in zones]


def _dofs(positions: np.ndarray) -> np.ndarray:
    """Interleaved (x, y) dof indices of boundary positions."""
    return (2 * positions[:, None] + np.arange(2)).ravel()


def combined_solution(parts: list[ContactSolution], where: list[np.ndarray], n_union: int) -> ContactSolution:
    """One solution over all zones: per-slave arrays concatenated zone after
    zone, the forces summed on the union boundary, ``state`` the tuple of the
    zones' states, ``parts`` the zones' own solutions."""
    forces = np.zeros((n_union, 2))
    for part, positions in zip(parts, where):
        np.add.at(forces, positions, part.forces)

    def cat(name: str) -> np.ndarray:
        return np.concatenate([getattr(p, name) for p in parts])

    return ContactSolution(
        forces=forces,
        normal_force=cat("normal_force"),
        tangential_force=cat("tangential_force"),
        gap=cat("gap"),
        status=cat("status"),
        slip=cat("slip"),
        state=tuple(p.state for p in parts),
        iterations=sum(p.iterations for p in parts),
        converged=all(p.converged for p in parts),
        residual=max(p.residual for p in parts),
        left_master=cat("left_master") if all(len(p.left_master) for p in parts) else np.zeros(0, dtype=bool),
        parts=tuple(parts),
    )


class ContactCoupling:
    """Couples contact zones, each with its formulation, to the Newmark step.

    Sweeps after :attr:`ACCELERATE_AFTER` (zones that a few sweeps do not
    converge: strongly coupled) take as the other zones' frozen forces
    Anderson's extrapolation of the sweeps' fixed point
    (:class:`~fem2d.contact.active_set.AndersonAcceleration`).

    Parameters
    ----------
    system
        The assembled system (free-dof numbering, prescribed values).
    zones, formulations
        One formulation per zone (a single zone and formulation may be given
        without a list).
    tolerance
        Relative change of the zones' forces between two Gauss-Seidel sweeps
        below which the coupled problem is solved (several zones only).
    max_sweeps
        Most sweeps before the step is reported as not converged (and cut).
    wears
        Per zone, its Archard wear (:class:`~fem2d.model.wear.Wear`) or None: the coupling
        keeps the worn depths (:class:`~fem2d.contact.archard.ZoneWear`, in :attr:`wear`),
        adds them to the slave gaps of every step when they ``update``, and
        :meth:`on_step` wears the surfaces by each accepted step.
    """

    #: Sweeps before the sweeps are accelerated (weakly coupled zones converge in two or three).
    ACCELERATE_AFTER = 4

    def __init__(
        self,
        system: System,
        zones: ContactZone | list[ContactZone],
        formulations: ContactFormulation | list[ContactFormulation],
        tolerance: float = 1e-10,
        max_sweeps: int = 200,
        wears: list[Wear | None] | None = None,
    ) -> None:
        self.zones = [zones] if isinstance(zones, ContactZone) else list(zones)
        self.formulations = list(formulations) if isinstance(formulations, list | tuple) else [formulations]
        if len(self.formulations) != len(self.zones):
            raise ValueError(f"{len(self.zones)} contact zones but {len(self.formulations)} formulations")
        self.tolerance = tolerance
        self.max_sweeps = max_sweeps
        self.boundary_nodes, self.where = union_boundary(self.zones)
        self._zone_dofs = [_dofs(w) for w in self.where]
        dofs = _dofs(self.boundary_nodes)
        self.boundary_free_index = system.free_index[dofs]
        self._system = system
        self._dofs = dofs
        self.prescribed = system.prescribed_at(0.0)[dofs]
        # per step size (the last few): the condensation and, with several zones, each zone's diagonal block
        self._condensations: StepSizeCache[BoundaryCondensation] = StepSizeCache()
        self._blocks: StepSizeCache[list[np.ndarray]] = StepSizeCache()
        self._blended: StepSizeCache[np.ndarray] = StepSizeCache()
        # the same for the projections on the admissible set in the mass metric (one matrix, whatever dt)
        self._mass_condensation: StepSizeCache[BoundaryCondensation] = StepSizeCache(capacity=1)
        self._mass_blocks: StepSizeCache[list[np.ndarray]] = StepSizeCache(capacity=1)
        #: per zone, what its contact solves keep from one step to the next
        self.workspaces = [ContactWorkspace() for _ in self.zones]
        wears = [None] * len(self.zones) if wears is None else list(wears)
        if len(wears) != len(self.zones):
            raise ValueError(f"{len(self.zones)} contact zones but {len(wears)} wear settings")
        #: per zone, its worn depths (None for a zone that does not wear)
        self.wear = [None if w is None else ZoneWear(z, w) for z, w in zip(self.zones, wears)]
        # the last solve's compliance and boundary displacements (start, end): the wear's gain
        self._last: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._wears = any(w is not None and w.gain is not None for w in self.wear)

    def _offset(self, z: int) -> np.ndarray | None:
        """The worn depth zone z's gaps add at this step (None: none)."""
        return None if self.wear[z] is None else self.wear[z].offset

    def start_wear(self, t: float) -> None:
        """Set the start time of the wear records."""
        for wear in self.wear:
            if wear is not None:
                wear.start(t)

    def on_step(self, t: float, dt: float, sol: ContactSolution | None) -> None:
        """Wear the zones by an accepted step ending at ``t`` with solution ``sol``
        (:mod:`fem2d.contact.archard`); a zone whose update became unstable
        (:mod:`fem2d.contact.wear_gain`) stops the run with a
        :class:`~fem2d.errors.NumericalError`."""
        if sol is None or not any(w is not None for w in self.wear):
            return
        parts = sol.parts if sol.parts else (sol,)
        compliance = None if self._last is None else self._last[0]
        for z, (wear, part) in enumerate(zip(self.wear, parts)):
            if wear is not None:
                gain = wear.on_step(t, dt, part.normal_force, part.slip, compliance,
                                    partial(self._normal_delassus, z, part.state))
                if gain > UNSTABLE:
                    raise NumericalError(unstable_wear_message(self.zones[z].name, wear.wear, t, gain))

    def _normal_delassus(self, z: int, state: Any) -> np.ndarray:
        """Zone z's normal Delassus :math:`B_n C B_n^T` (n_slave, n_slave; m/N) at the end
        of the last solve: its slave nodes' gaps (node to segment) on its compliance."""
        compliance, d_start, d_end = self._last
        dofs = self._zone_dofs[z]
        block = compliance if len(self.zones) == 1 else compliance[np.ix_(dofs, dofs)]
        zone = self.zones[z]
        surface = getattr(state, "surface", None) or master_surface(zone)
        problem = CondensedProblem(zone, d_start[dofs].reshape(-1, 2), d_end[dofs].reshape(-1, 2), block, 0.0)
        B = node_kinematics(problem, surface, problem.d_free).B
        n = zone.n_slave
        normal = Rows(B.cols[:n], B.vals[:n], B.n_cols)
        return normal.times_transpose(normal.times(block))

    @property
    def zone(self) -> ContactZone:
        """The first (with one zone: the) contact zone."""
        return self.zones[0]

    @property
    def formulation(self) -> ContactFormulation:
        """The first zone's formulation."""
        return self.formulations[0]

    @property
    def boundary_rows(self) -> np.ndarray:
        """The free dofs of the union boundary (eliminated last by a Schur factorisation)."""
        return self.boundary_free_index[self.boundary_free_index >= 0]

    def condensation(
        self, dt: float, factor: Factorization, n_free: int, counters: Counters, projection: bool = False
    ) -> BoundaryCondensation:
        """The condensation for step dt (:mod:`fem2d.dynamics.condensation`), made once per step size
        (``projection``: of the mass matrix, made once)."""

        def make() -> BoundaryCondensation:
            t0 = time.perf_counter()
            cond = condensation(factor, self.boundary_free_index, n_free)
            counters.condensation_s += time.perf_counter() - t0
            return cond

        if projection:
            return self._mass_condensation.get(0.0, make)
        cached = self._condensations.peek(dt)
        if cached is not None and cached.factor is not factor:
            # the stepper refactorised K_eff for dt since (a PARDISO handle reused in place for other
            # sizes in between): the condensation and what is derived from it are made again
            for cache in (self._condensations, self._blocks, self._blended):
                cache.drop(dt)
        if cached is None or cached.factor is not factor:
            # condensations on factors given away (refactorised in place) will never be asked for again
            for key in self._condensations.keys():
                if not getattr(self._condensations.peek(key).factor, "alive", True):
                    for cache in (self._condensations, self._blocks, self._blended):
                        cache.drop(key)
        return self._condensations.get(dt, make)

    def release(self) -> None:
        """Drop the condensations kept per step size (they hold the factorisations they were made on)."""
        for cache in (self._condensations, self._blocks, self._blended, self._mass_condensation, self._mass_blocks):
            cache.clear()

    def initial_state(self) -> Any:
        """The formulation's initial state (one zone) or the tuple of the zones' states."""
        states = tuple(f.initial_state(z) for f, z in zip(self.formulations, self.zones))
        return states[0] if len(states) == 1 else states

    def prescribed_at(self, t: float | None) -> np.ndarray:
        """The boundary dofs' prescribed values at t (moving obstacles, supports)."""
        if t is None or not self._system.motions:
            return self.prescribed
        return self._system.prescribed_at(t)[self._dofs]

    def solve(
        self,
        dt: float,
        factor: Factorization,
        rhs: np.ndarray,
        u_start: np.ndarray,
        state: Any,
        counters: Counters,
        times: tuple[float, float] | None = None,
        contact_on: tuple[float, np.ndarray] | None = None,
        projection: bool = False,
        shift: np.ndarray | None = None,
        velocity_level: bool = False,
        acceptable: float = 0.0,
    ) -> tuple[np.ndarray, np.ndarray, ContactSolution]:
        r"""The step's increment ``du`` solving ``K_eff du = rhs + S^T p`` with the
        contact forces p, the free-dof contact force ``S^T p``, and the solution:
        condense, solve contact on the boundary, expand
        (:mod:`fem2d.dynamics.condensation`). ``times`` are the step's start and
        end (where prescribed boundary values move).

        ``contact_on = (e, w)`` imposes the contact condition on the blend
        :math:`(u_{n+1} + e\, w)/(1+e)` instead of :math:`u_{n+1}`
        (:class:`~fem2d.dynamics.impact.PaoliSchatzman`): the blend is
        :math:`(d_{free} + e\, d_w)/(1+e) + C p/(1+e)`, so the formulation
        solves the same kind of problem with that free part and the compliance
        :math:`C/(1+e)`, and the forces it returns are the step's.

        ``projection`` says that ``factor`` is the mass matrix's (the
        admissible predictor of :class:`~fem2d.dynamics.impact.ContactStabilisedNewmark`):
        its condensation is kept apart from the steps'.

        ``shift`` (free dofs) imposes the condition on :math:`u_{n+1} + s`, and
        ``velocity_level`` on the change of the gap from the start of the step
        for the nodes closed or penetrated there
        (:class:`~fem2d.dynamics.moreau.MoreauJean`).

        ``acceptable``: the residual at which a contact solve that stalls is
        accepted (:attr:`fem2d.contact.problem.CondensedProblem.acceptable`)."""
        rotation = getattr(factor, "rotation", None)  # bodies in their own frame (fem2d.dynamics.frames)
        if rotation is None:
            cond = self.condensation(dt, factor, len(rhs), counters, projection)
        else:  # the kept condensation of the linear K_eff, turned into the world's axes
            from fem2d.dynamics.frames import RotatedCondensation

            kept = self.condensation(dt, factor.base, len(rhs), counters, projection)
            t0 = time.perf_counter()
            cond = RotatedCondensation(kept, rotation)
            counters.condensation_s += time.perf_counter() - t0
        t0 = time.perf_counter()
        work, du_boundary = cond.condense(rhs)
        counters.solve_s += time.perf_counter() - t0
        t_start, t_new = times if times is not None else (None, None)
        d_start = cond.boundary_values(u_start, self.prescribed_at(t_start))
        d_free = cond.boundary_values(u_start, self.prescribed_at(t_new))
        d_free[cond.active] += du_boundary
        compliance = cond.compliance
        if contact_on is not None and contact_on[0] != 0.0:
            e, w = contact_on
            d_free = (d_free + e * cond.boundary_values(w, self.prescribed_at(t_start))) / (1.0 + e)
            # one array per step size and e: the formulations' workspaces key their caches on its identity
            compliance = (cond.compliance / (1.0 + e) if rotation is not None
                          else self._blended.get(dt, lambda: cond.compliance / (1.0 + e)))
        d_unshifted = d_free
        if shift is not None:
            d_free = d_free + cond.boundary_values(shift, np.zeros(len(d_free)))
        t0 = time.perf_counter()
        if len(self.zones) == 1:
            problem = CondensedProblem(
                self.zones[0], d_start.reshape(-1, 2), d_free.reshape(-1, 2), compliance, dt, self.workspaces[0],
                velocity_level, acceptable, self._offset(0),
            )
            sol = self.formulations[0].solve(problem, state)
        else:
            blocks = self._mass_blocks if projection else self._blocks
            if rotation is not None:  # a compliance of this iteration's rotation: its blocks not kept
                blocks = StepSizeCache(capacity=1)
            sol = self._solve_zones(dt, compliance, d_start, d_free, state, blocks, velocity_level, acceptable)
        counters.contact_s += time.perf_counter() - t0
        counters.newton_iterations += sol.iterations
        if not sol.converged:
            raise StepFailed(sol.residual, sol.iterations)
        p = sol.forces.ravel()
        if self._wears:
            self._last = (compliance, d_start, d_unshifted + compliance @ p)
        if shift is not None:  # the law's gap and slip are the shifted point's: report the step's own
            gap, slip = self._step_kinematics(sol, d_start, d_unshifted + compliance @ p, dt)
            parts, start = [], 0
            for part in sol.parts:  # the zones' own solutions, in the same order
                n = len(part.gap)
                parts.append(replace(part, gap=gap[start:start + n], slip=slip[start:start + n]))
                start += n
            sol = replace(sol, gap=gap, slip=slip, parts=tuple(parts))
        t0 = time.perf_counter()
        du = cond.expand(work, du_boundary + cond.active_compliance_rows @ p, p)
        counters.solve_s += time.perf_counter() - t0
        return du, cond.force(p), sol

    def _step_kinematics(
        self, sol: ContactSolution, d_start: np.ndarray, d_end: np.ndarray, dt: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """The slave nodes' gap at ``d_end`` and tangential slip from ``d_start``
        (node to segment on each zone's master surface, zone after zone): the
        penetration the history reports and the slip its friction dissipation
        integrates, whatever point the law held on."""
        states = sol.state if len(self.zones) > 1 else (sol.state,)
        gaps, slips = [], []
        for z, (zone, dofs, state) in enumerate(zip(self.zones, self._zone_dofs, states)):
            surface = getattr(state, "surface", None) or master_surface(zone)
            problem = CondensedProblem(zone, d_start[dofs].reshape(-1, 2), d_end[dofs].reshape(-1, 2),
                                       np.zeros((0, 0)), dt, gap_offset=self._offset(z))
            kinematics = node_kinematics(problem, surface, problem.d_free)
            gaps.append(np.where(kinematics.outside, np.inf, kinematics.gap))
            slips.append(kinematics.slip)
        return np.concatenate(gaps), np.concatenate(slips)

    def _solve_zones(
        self,
        dt: float,
        compliance: np.ndarray,
        d_start: np.ndarray,
        d_free: np.ndarray,
        states: tuple,
        cache: StepSizeCache[list[np.ndarray]],
        velocity_level: bool = False,
        acceptable: float = 0.0,
    ) -> ContactSolution:
        """Block Gauss-Seidel over the zones (see the module docstring)."""
        blocks = cache.get(dt if cache is self._blocks else 0.0,
                           lambda: [compliance[np.ix_(d, d)] for d in self._zone_dofs])
        p_zone = [np.zeros(len(d)) for d in self._zone_dofs]
        p_total = np.zeros(len(d_free))
        parts: list[ContactSolution] = [None] * len(self.zones)  # type: ignore[list-item]
        change, iterations = np.inf, 0
        d_end = d_free.copy()
        accelerator = AndersonAcceleration()
        entering = np.concatenate(p_zone)
        for _sweep in range(self.max_sweeps):
            change = 0.0
            for z, (zone, formulation, dofs) in enumerate(zip(self.zones, self.formulations, self._zone_dofs)):
                others = p_total.copy()
                others[dofs] -= p_zone[z]
                shifted = d_free + compliance @ others
                problem = CondensedProblem(
                    zone, d_start[dofs].reshape(-1, 2), shifted[dofs].reshape(-1, 2), blocks[z], dt, self.workspaces[z],
                    velocity_level, acceptable, self._offset(z),
                )
                sol = formulation.solve(problem, states[z])
                iterations += sol.iterations
                if not sol.converged:
                    return replace(sol, iterations=iterations)
                p_new = sol.forces.ravel()
                change = max(change, float(np.max(np.abs(p_new - p_zone[z]), initial=0.0)))
                p_total[dofs] += p_new - p_zone[z]
                p_zone[z] = p_new
                parts[z] = sol
            scale = float(np.max(np.abs(p_total), initial=0.0))
            d_previous, d_end = d_end, d_free + compliance @ p_total
            moved = float(np.max(np.abs(d_end - d_previous), initial=0.0))
            reach = float(np.max(np.abs(d_end), initial=0.0))
            if (change <= self.tolerance * scale or scale == 0.0 and change == 0.0
                    or 0.0 < reach and moved <= self.tolerance * reach):
                combined = combined_solution(parts, self.where, len(self.boundary_nodes))
                return replace(combined, iterations=iterations)
            swept = np.concatenate(p_zone)
            if _sweep + 1 >= self.ACCELERATE_AFTER:
                # strongly coupled zones: the sweeps' fixed point accelerated (the next sweep's frozen forces)
                accelerated = accelerator.next(entering, swept)
                p_zone = np.split(accelerated, np.cumsum([len(d) for d in self._zone_dofs])[:-1])
                p_total = np.zeros(len(d_free))
                for dofs, forces in zip(self._zone_dofs, p_zone):
                    p_total[dofs] += forces
                swept = accelerated
            entering = swept
        combined = combined_solution(parts, self.where, len(self.boundary_nodes))
        return replace(combined, iterations=iterations, converged=False, residual=change / max(scale, 1e-300))
