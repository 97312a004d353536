"""Contact on the condensed boundary: one zone and its formulation coupled to the step."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import numpy as np

from fem2d.contact.problem import CondensedProblem, ContactFormulation, ContactSolution, ContactZone
from fem2d.dynamics.condensation import BoundaryCondensation
from fem2d.linalg.base import Factorization
from fem2d.model.system import System

if TYPE_CHECKING:
    from fem2d.dynamics.stepper import Counters


class StepFailed(Exception):
    """The step's nonlinear problem did not converge (the driver will cut the step)."""

    def __init__(self, residual: float, iterations: int) -> None:
        super().__init__(f"residual {residual:.3e} after {iterations} iterations")
        self.residual = residual
        self.iterations = iterations


class ContactCoupling:
    """Couples one contact zone and a formulation to the Newmark step."""

    def __init__(self, system: System, zone: ContactZone, formulation: ContactFormulation) -> None:
        self.zone = zone
        self.formulation = formulation
        dofs = (2 * zone.boundary_nodes[:, None] + np.arange(2)).ravel()
        self.boundary_free_index = system.free_index[dofs]
        prescribed = np.zeros(system.n_dofs)
        prescribed[system.fixed] = system.fixed_values
        self.prescribed = prescribed[dofs]
        self._condensations: dict[float, BoundaryCondensation] = {}

    def condensation(self, dt: float, factor: Factorization, n_free: int, counters: Counters) -> BoundaryCondensation:
        if dt not in self._condensations:
            t0 = time.perf_counter()
            self._condensations[dt] = BoundaryCondensation(factor, self.boundary_free_index, n_free)
            counters.condensation_s += time.perf_counter() - t0
        return self._condensations[dt]

    def initial_state(self) -> Any:
        return self.formulation.initial_state(self.zone)

    def solve(
        self, dt: float, factor: Factorization, u_start: np.ndarray, u_free: np.ndarray, state: Any, counters: Counters
    ) -> tuple[np.ndarray, np.ndarray, ContactSolution]:
        """The displacement correction ``K_eff^-1 S^T p`` of the contact forces,
        the free-dof contact force ``S^T p``, and the solution."""
        cond = self.condensation(dt, factor, len(u_free), counters)
        problem = CondensedProblem(
            zone=self.zone,
            d_start=cond.boundary_values(u_start, self.prescribed).reshape(-1, 2),
            d_free=cond.boundary_values(u_free, self.prescribed).reshape(-1, 2),
            compliance=cond.compliance,
            dt=dt,
        )
        t0 = time.perf_counter()
        sol = self.formulation.solve(problem, state)
        counters.contact_s += time.perf_counter() - t0
        counters.newton_iterations += sol.iterations
        if not sol.converged:
            raise StepFailed(sol.residual, sol.iterations)
        p = sol.forces.ravel()
        return cond.apply(p), cond.force(p), sol
