r"""Newmark and HHT time integration, linear or with frictional contact.

Newmark's scheme on the free dofs, for :math:`M a + C v + K u = f + f_c`:

.. math::

    \tilde u = u_n + \Delta t\, v_n + \Delta t^2 (\tfrac12 - \beta) a_n, \qquad
    \tilde v = v_n + \Delta t (1 - \gamma) a_n,

    u_{n+1} = \tilde u + \beta \Delta t^2 a_{n+1}, \qquad
    v_{n+1} = \tilde v + \gamma \Delta t\, a_{n+1},

so that :math:`K_{eff} u_{n+1} = f_{n+1} + f_c + M \tilde u/(\beta\Delta t^2)
+ C(\gamma \tilde u/(\beta \Delta t) - \tilde v)` with
:math:`K_{eff} = K + M/(\beta\Delta t^2) + \gamma C/(\beta \Delta t)`.

"HHT" is code_aster's *modified average acceleration* form (DYNA_NON_LINE,
SCHEMA_TEMPS = HHT with MODI_EQUI = 'NON'): plain Newmark with
:math:`\beta = (1-\alpha)^2/4`, :math:`\gamma = 1/2 - \alpha`, which damps
the high frequencies for :math:`\alpha < 0`.

The bodies are linear, so :math:`K_{eff}` is factorised once per step size.
Contact enters through :class:`ContactCoupling`: the step's contact problem is
condensed on the boundary (:mod:`fem2d.dynamics.condensation`) and solved
there by the formulation's own Newton loop, which is the step's Newton
iteration with the consistent tangent; no refactorisation happens inside it.
A step whose contact problem does not converge is cut (see :func:`integrate`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fem2d.contact.problem import ContactSolution
from fem2d.dynamics.coupling import ContactCoupling, StepFailed
from fem2d.dynamics.schemes import NewmarkScheme
from fem2d.errors import ConvergenceError
from fem2d.linalg.base import Factorization, SolverBackend
from fem2d.model.system import System


@dataclass
class StepState:
    """The state at time t on the free dofs; ``contact`` is the formulation's history
    and ``contact_force`` the free-dof contact force vector at t;
    ``internal_force`` is K u, accumulated step by step (see
    :meth:`NewmarkStepper.step`)."""

    t: float
    u: np.ndarray
    v: np.ndarray
    a: np.ndarray
    contact: Any = None
    contact_force: np.ndarray | None = None
    solution: ContactSolution | None = None
    internal_force: np.ndarray | None = None


@dataclass
class Counters:
    """Work done by a run (for ``timing`` in result.json)."""

    steps: int = 0
    cuts: int = 0
    newton_iterations: int = 0
    factorizations: int = 0
    factorization_s: float = 0.0
    condensation_s: float = 0.0
    contact_s: float = 0.0
    solve_s: float = 0.0
    extra: dict = field(default_factory=dict)


class NewmarkStepper:
    """One Newmark step of a :class:`System`, with an optional contact coupling.

    Factorisations of ``K_eff`` are cached per step size.
    """

    def __init__(
        self,
        system: System,
        scheme: NewmarkScheme,
        backend: SolverBackend,
        contact: ContactCoupling | None = None,
    ) -> None:
        self.system = system
        self.scheme = scheme
        self.backend = backend
        self.contact = contact
        self.counters = Counters()
        self._factors: dict[float, Factorization] = {}
        self._forces: dict[float, np.ndarray] = {}

    def force_free(self, t: float) -> np.ndarray:
        """The system's load on the free dofs at t (:meth:`System.force_free`),
        kept for the last few instants: a step needs it at both of its ends,
        the history at the same instants. The array is read-only."""
        f = self._forces.get(t)
        if f is None:
            if len(self._forces) >= 4:
                del self._forces[next(iter(self._forces))]
            f = self._forces[t] = self.system.force_free(t)
            f.flags.writeable = False
        return f

    @property
    def step_sizes(self) -> int:
        """How many distinct step sizes were factorised (one factorisation each)."""
        return len(self._factors)

    def factor(self, dt: float) -> Factorization:
        """The factorised K_eff for step dt (computed once per dt)."""
        if dt not in self._factors:
            b, g = self.scheme.beta, self.scheme.gamma
            s = self.system
            k_eff = s.K_free + s.M_free * (self.scheme.mass_factor / (dt * dt))
            if s.C_free is not None:
                k_eff = k_eff + s.C_free * (g / (b * dt))
            t0 = time.perf_counter()
            self._factors[dt] = self.backend.factorize(k_eff.tocsr())
            self.counters.factorization_s += time.perf_counter() - t0
            self.counters.factorizations += 1
        return self._factors[dt]

    def initial_state(self, t0: float = 0.0) -> StepState:
        """u = 0, v from the system's initial velocity, a from M a = f - K u - C v."""
        s = self.system
        n = len(s.free)
        u = np.zeros(n)
        v = np.zeros(n) if s.initial_velocity is None else s.initial_velocity[s.free].copy()
        rhs = self.force_free(t0) - s.K_free @ u - (s.C_free @ v if s.C_free is not None else 0.0)
        a = self.backend.factorize(s.M_free).solve(rhs) if np.any(rhs) else np.zeros(n)
        contact = self.contact.initial_state() if self.contact is not None else None
        contact_force = np.zeros(n) if self.contact is not None else None
        return StepState(t0, u, v, a, contact, contact_force, internal_force=s.K_free @ u)

    def step(self, state: StepState, dt: float, t_new: float | None = None) -> StepState:
        """Advance by dt (to ``t_new``, which absorbs round-off in the time
        grid so that dt, the key of the factorisation cache, stays nominal);
        raises :class:`StepFailed` if contact does not converge.

        Equilibrium at the generalized-alpha instants, divided by
        :math:`1-\alpha_f`, leaves the end-of-step contact force with weight 1
        and the operator :math:`K_{eff}` symmetric, so contact is enforced at
        :math:`t_{n+1}` on the same condensed compliance for every scheme; the
        start-of-step forces enter the right-hand side with weight
        :math:`\alpha_f/(1-\alpha_f)`.
        """
        sc = self.scheme
        b, g, am, af = sc.beta, sc.gamma, sc.alpha_m, sc.alpha_f
        s = self.system
        t_new = state.t + dt if t_new is None else t_new
        # Solve for the increment du = u_{n+1} - u_n with the internal force
        # K u_n carried from step to step: K u_n of a body that has slid 15 m
        # is a difference of terms of 1e11 N/m x 15 m, whose round-off
        # (~1e-4 N) would be felt by the contact forces of a stiff body; K du
        # is 100 times smaller.
        f_int = state.internal_force if state.internal_force is not None else s.K_free @ state.u
        du_pred = dt * state.v + dt * dt * (0.5 - b) * state.a
        v_pred = state.v + dt * (1.0 - g) * state.a
        rhs = self.force_free(t_new) - f_int + s.M_free @ (du_pred * (sc.mass_factor / (dt * dt)))
        if af or am:
            w = af / (1.0 - af)
            rhs += w * (self.force_free(state.t) - f_int)
            rhs -= s.M_free @ (state.a * (am / (1.0 - af)))
            if state.contact_force is not None:
                rhs += w * state.contact_force
        if s.C_free is not None:
            rhs += s.C_free @ (g / (b * dt) * du_pred - v_pred - (af / (1.0 - af)) * state.v)
        factor = self.factor(dt)
        t0 = time.perf_counter()
        du = factor.solve(rhs)
        self.counters.solve_s += time.perf_counter() - t0
        contact_state, contact_force, solution = state.contact, None, None
        if self.contact is not None:
            correction, contact_force, solution = self.contact.solve(
                dt, factor, state.u, state.u + du, state.contact, self.counters
            )
            du = du + correction
            contact_state = solution.state
        a = (du - du_pred) / (b * dt * dt)
        v = v_pred + g * dt * a
        return StepState(
            t_new, state.u + du, v, a, contact_state, contact_force, solution, f_int + s.K_free @ du
        )


def integrate(
    stepper: NewmarkStepper,
    state: StepState,
    t_end: float,
    dt: float,
    on_step: Callable[[StepState, StepState], None],
    cut_factor: int = 5,
    min_dt: float = 1e-7,
    progress: Callable[[float], None] | None = None,
) -> StepState:
    """March from ``state.t`` to ``t_end`` with step ``dt``.

    A step that fails is redone as ``cut_factor`` sub-steps (recursively,
    as code_aster's DEFI_LIST_INST / ECHEC with SUBD_PAS), down to
    ``min_dt``; below it a :class:`~fem2d.errors.ConvergenceError` names the
    time and the residual. The macro-step times are ``t0 + k dt`` exactly
    (no drift). ``on_step(previous, new)`` sees every accepted (sub-)step.
    """
    t0 = state.t
    n_steps = int(round((t_end - t0) / dt))
    if n_steps < 1 or abs(t0 + n_steps * dt - t_end) > 1e-9 * max(1.0, abs(t_end)):
        n_steps = int(np.ceil((t_end - t0) / dt - 1e-9))

    def advance(current: StepState, t_target: float, h: float) -> StepState:
        try:
            new = stepper.step(current, h, t_target)
        except StepFailed as failure:
            sub = h / cut_factor
            if sub < min_dt * (1 - 1e-12):
                raise ConvergenceError(
                    f"no convergence at t = {current.t:.9g} s even with dt = {h:.3g} s (time.min_dt = {min_dt:g}): "
                    f"contact residual {failure.residual:.3e} after {failure.iterations} iterations"
                ) from None
            stepper.counters.cuts += 1
            t_start = current.t
            for i in range(1, cut_factor + 1):
                current = advance(current, t_start + (t_target - t_start) * i / cut_factor, sub)
            return current
        stepper.counters.steps += 1
        on_step(current, new)
        return new

    for k in range(1, n_steps + 1):
        t_target = min(t0 + k * dt, t_end)
        h = t_target - state.t
        state = advance(state, t_target, dt if abs(h - dt) <= 1e-9 * dt else h)
        if progress is not None:
            progress(state.t)
    return state
