r"""The time step of a :class:`System` under any :class:`TimeScheme`, linear or with
frictional contact, and the driver that marches it (:func:`march`).

A step solves the scheme's linear problem for the increment (see
:mod:`fem2d.dynamics.schemes`),

.. math::

    K_{eff} \Delta u = r_n + f_c, \qquad K_{eff} = w_K K + w_C C + w_M M,

then lets the scheme correct the velocity and acceleration. The bodies are
linear, so :math:`K_{eff}` is factorised once per step size. Contact enters
through :class:`ContactCoupling`: the step's contact problem is condensed on the
boundary (:mod:`fem2d.dynamics.condensation`) and solved there by the
formulation's own Newton loop, which is the step's Newton iteration with the
consistent tangent; no refactorisation happens inside it. A step whose contact
problem does not converge is cut (see :func:`march`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import scipy.sparse as sp

from fem2d.contact.problem import ContactSolution
from fem2d.dynamics.coupling import ContactCoupling, StepFailed
from fem2d.dynamics.effective import EffectiveMatrix
from fem2d.dynamics.events import EventLocator
from fem2d.dynamics.newton import NewtonIterations, inverted, remainder_free
from fem2d.dynamics.schemes import TimeScheme
from fem2d.dynamics.stepsizes import CAPACITY, StepSizeCache
from fem2d.dynamics.stickslip import StickSlipLocator
from fem2d.errors import ConvergenceError
from fem2d.linalg.base import Factorization, SolverBackend
from fem2d.model.system import System


@dataclass
class StepState:
    """The state at time t on the free dofs; ``contact`` is the formulation's history
    and ``contact_force`` the free-dof contact force vector at t;
    ``internal_force`` is K u, accumulated step by step (see
    :meth:`NewmarkStepper.step`), plus ``remainder``, the nonlinear bodies' :math:`g(u)`
    (:mod:`fem2d.model.internal`; None when every body is small)."""

    t: float
    u: np.ndarray
    v: np.ndarray
    a: np.ndarray
    contact: Any = None
    contact_force: np.ndarray | None = None
    solution: ContactSolution | None = None
    internal_force: np.ndarray | None = None
    remainder: np.ndarray | None = None


@dataclass
class Counters:
    """Work done by a run (for ``timing`` in result.json)."""

    steps: int = 0
    cuts: int = 0
    #: of the cuts, those of steps that turned cells inside out
    inversion_cuts: int = 0
    newton_iterations: int = 0
    factorizations: int = 0
    refactorizations: int = 0
    #: forming K_eff and factorising it (once per step size), refactorisations included
    factorization_s: float = 0.0
    #: the refactorisations' part of ``factorization_s`` (forming K_eff included)
    refactorization_s: float = 0.0
    condensation_s: float = 0.0
    contact_s: float = 0.0
    solve_s: float = 0.0
    #: the steps' linear solves (the contact problem's on the condensed boundary inside each: one
    #: per linear step, one per Newton iteration of bodies that turn or stretch)
    solves: int = 0
    #: evaluating the internal forces of bodies that turn or stretch, and their tangents
    assembly_s: float = 0.0


class NewmarkStepper:
    """One step of a :class:`System` under a :class:`TimeScheme` (the Newmark
    family, static, ...), with an optional contact coupling.

    Factorisations of ``K_eff`` are cached per step size (the last
    :data:`~fem2d.dynamics.stepsizes.CAPACITY` sizes used). A backend that
    refactorises in place (:attr:`~fem2d.linalg.base.SolverBackend.refactorizes`:
    PARDISO) keeps one factorisation only, and a new step size refactorises
    K_eff in its memory on its ordering and symbolic analysis (a third of the
    time of a new factorisation at level 6, and no new memory: each
    stick/slip event's trial steps have sizes of their own).
    """

    def __init__(
        self,
        system: System,
        scheme: TimeScheme,
        backend: SolverBackend,
        contact: ContactCoupling | None = None,
    ) -> None:
        self.system = system
        self.scheme = scheme
        self.backend = backend
        self.contact = contact
        self.counters = Counters()
        self._factors: StepSizeCache[Factorization] = StepSizeCache(1 if backend.refactorizes else CAPACITY)
        self._mass_factor: StepSizeCache[Factorization] = StepSizeCache(capacity=1)
        self._forces: dict[float, np.ndarray] = {}
        self._effective: EffectiveMatrix | None = None
        self._mass_velocity: tuple[StepState, np.ndarray, np.ndarray] | None = None
        #: whether the run will use several step sizes (events located by splitting steps): then
        #: K_eff is combined on a fixed pattern from the first factorisation (see :meth:`factor`)
        self.several_step_sizes = False
        #: Newton's iterations of the steps of bodies that turn or stretch (None: every body is small)
        self.newton = NewtonIterations() if system.nonlinear is not None else None

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

    def mass_velocity(self, state: StepState) -> np.ndarray:
        """:math:`M v` of ``state`` with the scheme's mass, kept for the last state asked
        for: the history's kinetic energy and the measures' momenta both need it at every
        step (one sparse product instead of two). The array is read-only."""
        last = self._mass_velocity
        if last is not None and last[0] is state and last[1] is state.v:
            return last[2]
        mv = self.scheme.mass(self.system) @ state.v
        mv.flags.writeable = False
        self._mass_velocity = (state, state.v, mv)
        return mv

    @property
    def step_sizes(self) -> int:
        """How many distinct step sizes were factorised (one factorisation each, unless
        more than :data:`~fem2d.dynamics.stepsizes.CAPACITY` alternate)."""
        return self._factors.distinct

    def factor(self, dt: float) -> Factorization:
        """The factorised K_eff for step dt (computed once per dt; the last few kept).

        With contact and a backend that has a Schur complement facility, the
        contact boundary is eliminated last (see :mod:`fem2d.dynamics.condensation`).
        """

        def k_eff(replacing: Factorization | None = None) -> sp.csr_matrix:
            w_k, w_c, w_m = self.scheme.weights(dt)
            s = self.system
            mass = self.scheme.mass(s)
            if w_k != 0.0 and self.backend.refactorizes and (
                self.several_step_sizes or replacing is not None or self._effective is not None
            ):
                # K, M and C on one pattern, made before the first factorisation when several step sizes
                # are expected (made later, its temporaries add to the factors' memory; a run of one
                # step size keeps no copy of them); the values of a refactorisation are written into
                # the replaced factors' array
                if self._effective is None:
                    self._effective = EffectiveMatrix([s.K_free, mass, s.C_free], upper=self.backend.upper_triangle)
                values = None if replacing is None else getattr(replacing, "matrix_values", None)
                if values is None or len(values) != len(self._effective.indices):
                    values = None
                return self._effective.combine([w_k, w_m, w_c], out=values)
            if w_k == 0.0:  # an explicit scheme: the mass alone (a lumped one stays diagonal), no stored zeros of K
                k_eff = mass * w_m
            else:
                k_eff = s.K_free if w_k == 1.0 else s.K_free * w_k
                if w_m:
                    k_eff = k_eff + mass * w_m
            if s.C_free is not None and w_c:
                k_eff = k_eff + s.C_free * w_c
            k_eff = k_eff.tocsr()
            if self.backend.upper_triangle:  # the full K_eff need not stay alive during the factorisation
                # (its rows masked in place of sp.triu's round trip through COO: the same matrix)
                k_eff = EffectiveMatrix.upper_part(k_eff)
            return k_eff

        def formed(replacing: Factorization | None = None) -> sp.csr_matrix:
            # forming K_eff is part of its factorisation's time (once per step size, not per step)
            t0 = time.perf_counter()
            matrix = k_eff(replacing)
            elapsed = time.perf_counter() - t0
            self.counters.factorization_s += elapsed
            if replacing is not None and self.backend.refactorizes:
                self.counters.refactorization_s += elapsed
            return matrix

        # PARDISO's Schur complement on the mass alone (an explicit scheme, w_K = 0) crashes inside MKL
        # (mkl_pds_lp64_permutetips, seen on a lumped mass): the boundary is then condensed by solves
        schur = self.scheme.weights(dt)[0] != 0.0
        return self._factors.get(dt, lambda: self.factorize_timed(formed(), schur=schur),
                                 lambda old: self.factorize_timed(formed(old), schur=schur, replacing=old))

    def factorize_timed(
        self, k_eff: sp.spmatrix, schur: bool = True, replacing: Factorization | None = None
    ) -> Factorization:
        """Factorise ``k_eff`` (counted and timed in :attr:`counters`), with the contact
        boundary eliminated last when ``schur`` and the backend returns its Schur complement;
        in the place of the dropped factorisation ``replacing`` when the backend can
        (:meth:`~fem2d.linalg.base.SolverBackend.refactorize`, counted in ``refactorizations``)."""
        use_schur = schur and self.contact is not None and self.backend.schur
        boundary = self.contact.boundary_rows if use_schur else None
        t0 = time.perf_counter()
        if replacing is not None and self.backend.refactorizes:
            factor = self.backend.refactorize(replacing, k_eff, boundary)
            self.counters.refactorizations += 1
            self.counters.refactorization_s += time.perf_counter() - t0
        else:
            del replacing  # dropped before the new factorisation is made
            factor = self.backend.factorize(k_eff, boundary)
            self.counters.factorizations += 1
        self.counters.factorization_s += time.perf_counter() - t0
        return factor

    def release(self) -> None:
        """Free the factorisations and condensations kept per step size, at once: a run's march
        leaves reference cycles (its recursive step function) that would keep them, 330 MB of
        factors at level 6, alive through the post-processing until the garbage collector
        runs. The stepper can step again afterwards (it factorises anew)."""
        for cache in (self._factors, self._mass_factor):
            for dt in cache.keys():
                factor = cache.peek(dt)
                cache.drop(dt)
                if factor is not None and hasattr(factor, "free"):
                    factor.free()
        if self.contact is not None:
            self.contact.release()
        if self.newton is not None:
            self.newton.release()

    def admissible_increment(self, state: StepState, du: np.ndarray, dt: float, t_new: float) -> np.ndarray:
        r"""The increment nearest ``du`` in the metric of the mass whose end
        displacement satisfies the contact condition,
        :math:`\operatorname{argmin}_{g(u_n + \Delta) \ge 0} rac12 (\Delta - \Delta u)^T M (\Delta - \Delta u)`:
        the contact problem of a step whose effective matrix is :math:`M`
        (:meth:`TimeScheme.constrain`)."""
        mass = self.scheme.mass(self.system)

        def make() -> Factorization:
            # no Schur complement on the mass alone (see factor): the boundary is condensed by solves
            self.counters.factorizations += 1
            return self.backend.factorize(mass.tocsr(), None)

        factor = self._mass_factor.get(0.0, make)
        admissible, _, _ = self.contact.solve(
            dt, factor, mass @ du, state.u, state.contact, self.counters, (state.t, t_new), projection=True
        )
        return admissible

    def initial_state(self, t0: float = 0.0) -> StepState:
        """u = 0, v from the system's initial velocity, a from M a = f - K u - C v."""
        s = self.system
        n = len(s.free)
        u = np.zeros(n) if s.initial_displacement is None else s.initial_displacement[s.free].copy()
        v = np.zeros(n) if s.initial_velocity is None else s.initial_velocity[s.free].copy()
        rhs = self.force_free(t0) - s.K_free @ u - (s.C_free @ v if s.C_free is not None else 0.0)
        remainder = None
        if s.nonlinear is not None:
            from fem2d.fe.response import InvertedCells  # with the bodies that need it

            try:
                remainder, _ = remainder_free(s, u, t0)
            except InvertedCells as exc:  # nothing to cut: the prescribed or initial state itself
                raise ConvergenceError(f"the state at t = {t0:g} s turns cells inside out ({inverted(exc)[8:-1]}): "
                                       "the displacements prescribed or given there crush the body") from None
            rhs -= remainder
        a = self.scheme.initial_acceleration(s, v, rhs, self.backend)
        contact = self.contact.initial_state() if self.contact is not None else None
        contact_force = np.zeros(n) if self.contact is not None else None
        internal_force = s.K_free @ u
        if remainder is not None:
            internal_force += remainder
        return StepState(t0, u, v, a, contact, contact_force, internal_force=internal_force, remainder=remainder)

    def step(self, state: StepState, dt: float, t_new: float | None = None) -> StepState:
        """Advance by dt (to ``t_new``, which absorbs round-off in the time
        grid so that dt, the key of the factorisation cache, stays nominal);
        raises :class:`StepFailed` if contact does not converge.

        The scheme predicts, builds the right-hand side and corrects; the
        contact force enters with weight one at the end of the step, on the
        same condensed compliance for every scheme.
        """
        scheme, s = self.scheme, self.system
        t_new = state.t + dt if t_new is None else t_new
        # Solve for the increment du = u_{n+1} - u_n with the internal force
        # K u_n carried from step to step: K u_n of a body that has slid 15 m
        # is a difference of terms of 1e11 N/m x 15 m, whose round-off
        # (~1e-4 N) would be felt by the contact forces of a stiff body; K du
        # is 100 times smaller.
        if s.nonlinear is not None and state.remainder is None:
            state = replace(state, remainder=remainder_free(s, state.u, state.t)[0], internal_force=None)
        if state.internal_force is None:
            internal = s.K_free @ state.u
            state = replace(state, internal_force=internal if state.remainder is None else internal + state.remainder)
        f_int = state.internal_force
        prediction = scheme.predict(state, dt)
        if self.contact is not None and scheme.constrained_predictor:
            prediction = scheme.constrain(prediction, self.admissible_increment(state, prediction.du, dt, t_new))
        rhs = scheme.right_hand_side(s, state, prediction, dt, t_new, self.force_free)
        contact_state, contact_force, solution, remainder = state.contact, None, None, None
        if self.newton is not None:
            du, contact_force, solution, remainder = self.newton.solve(self, state, prediction, rhs, dt, t_new)
            if solution is not None:
                contact_state = solution.state
        elif self.contact is None:
            factor = self.factor(dt)
            t0 = time.perf_counter()
            du = factor.solve(rhs)
            self.counters.solve_s += time.perf_counter() - t0
            self.counters.solves += 1
        else:
            factor = self.factor(dt)
            du, contact_force, solution = self.contact.solve(
                dt, factor, rhs, state.u, state.contact, self.counters, (state.t, t_new), prediction.contact_on,
                shift=prediction.contact_shift, velocity_level=prediction.velocity_level,
            )
            self.counters.solves += 1
            contact_state = solution.state
        v, a = scheme.end_of_step(s, state, du, prediction, dt, t_new, self.force_free)
        internal_force = s.K_free @ du
        internal_force += f_int  # K u_n + K du, in the product's array
        if remainder is not None:
            internal_force += remainder - state.remainder
        return StepState(t_new, state.u + du, v, a, contact_state, contact_force, solution, internal_force, remainder)


def march(
    stepper: NewmarkStepper,
    state: StepState,
    t_end: float,
    dt: float,
    on_step: Callable[[StepState, StepState], None],
    cut_factor: int = 5,
    min_dt: float = 1e-7,
    progress: Callable[[float], None] | None = None,
    events: EventLocator | None = None,
    stick_slip: StickSlipLocator | None = None,
    breakpoints: Sequence[float] = (),
    max_step: float = float("inf"),
    grow: bool = False,
    advice: str = "",
) -> StepState:
    """March from ``state.t`` to ``t_end`` with step ``dt``.

    With an :class:`~fem2d.dynamics.events.EventLocator`, a step that holds an
    impact or a release is redone as two steps split at the event. With a
    :class:`~fem2d.dynamics.stickslip.StickSlipLocator`, a step in which a
    sliding contact stops or reverses is redone as a step to that instant and
    a step from it, the scheme restarted there.

    A step that fails is redone as ``cut_factor`` sub-steps (recursively,
    as code_aster's DEFI_LIST_INST / ECHEC with SUBD_PAS), down to
    ``min_dt``; below it a :class:`~fem2d.errors.ConvergenceError` names the
    time and the residual. The macro-step times are ``t0 + k dt`` exactly
    (no drift), except that the rest of a macro step after a stick/slip event,
    when shorter than half a step, joins the next macro step -- unless the joined
    step would exceed ``max_step`` (a conditionally stable scheme's stability
    limit: never one step beyond it, in any phase of the run).
    A macro step that holds one of the ``breakpoints`` (the kinks of the load
    functions) is split there: a kink inside a step is integrated to second
    order but with the jump of the load's slope in its constant (SDNV104 at
    dt = 0.02, the ramp ending at 0.07 s inside a step: 7e-3 m instead of 2e-4 m).
    ``on_step(previous, new)`` sees every accepted (sub-)step.

    With ``grow`` (static load paths with contact, whose steps share one matrix
    whatever their size), a cut step grows back: after two sub-steps in a row converge,
    the rest of the cut step is tried as one step (cut again if it fails), so a
    hard stretch of the load path costs short steps there only. ``advice`` is
    added to the give-up message (what to change).
    """
    t0 = state.t
    if events is not None or stick_slip is not None:
        stepper.several_step_sizes = True
    kinks = np.unique(np.asarray(breakpoints, dtype=float))
    n_steps = int(round((t_end - t0) / dt))
    if n_steps < 1 or abs(t0 + n_steps * dt - t_end) > 1e-9 * max(1.0, abs(t_end)):
        n_steps = int(np.ceil((t_end - t0) / dt - 1e-9))

    inversions: list[tuple[float, str]] = []  # (t, what) of the steps cut because cells turned inside out

    def advance(
        current: StepState, t_target: float, h: float, locate: bool = True, t_next: float | None = None
    ) -> StepState:
        try:
            new = stepper.step(current, h, t_target)
        except StepFailed as failure:
            sub = h / cut_factor
            if sub < min_dt * (1 - 1e-12):
                crushed = ""
                if inversions and "inside out" not in failure.what:  # the cause, seen on a longer step
                    t_seen, what = inversions[-1]
                    crushed = (f"; on a longer step from t = {t_seen:.6g} s, {what}: the load likely crushes the "
                               "body there")
                raise ConvergenceError(
                    f"no convergence at t = {current.t:.9g} s even with dt = {h:.3g} s (min_dt = {min_dt:g}): "
                    f"{failure.what} residual {failure.residual:.3e} after {failure.iterations} iterations{crushed}"
                    f"{advice}"
                ) from None
            if "inside out" in failure.what:
                inversions.append((current.t, failure.what.removeprefix("Newton (").removesuffix(")")))
                stepper.counters.inversion_cuts += 1
            stepper.counters.cuts += 1
            t_start, in_row = current.t, 0
            for i in range(1, cut_factor + 1):
                if grow and in_row >= 2 and i < cut_factor:  # grown back: the rest of the cut step in one
                    return advance(current, t_target, t_target - current.t, locate)
                current = advance(current, t_start + (t_target - t_start) * i / cut_factor, sub, locate)
                in_row += 1
            return current
        if events is not None and locate:
            fraction = events.split(current.t, new.t, new.solution)
            if fraction is not None:
                # step sizes h * fraction and h * (1 - fraction): dyadic fractions of the nominal step
                # (see EventLocator), so the factorisations cached per step size are reused
                t_event = current.t + fraction * (new.t - current.t)
                middle = advance(current, t_event, h * fraction)
                return advance(middle, t_target, h * (1.0 - fraction))
        if stick_slip is not None and locate:
            event = stick_slip.locate(stepper, current, new)
            if event is not None:
                accept(current, event)
                # a step much shorter than the others after the event would magnify into the
                # acceleration (a = (du - du_pred) / (beta h^2)) what the contact constraint leaves
                # unbalanced, and the contact forces would ring: the rest of a macro step shorter
                # than half of it joins the next one
                if t_next is not None and t_target - event.t < 0.5 * h and t_next - event.t <= max_step:
                    t_target = t_next
                restarted = stick_slip.restart(stepper, event, t_target)
                return advance(restarted, t_target, t_target - event.t)
        accept(current, new)
        return new

    def accept(current: StepState, new: StepState) -> None:
        stepper.counters.steps += 1
        if events is not None:
            events.record(current.t, new.t, new.solution)
        on_step(current, new)

    for k in range(1, n_steps + 1):
        t_target = min(t0 + k * dt, t_end)
        if state.t >= t_target - 1e-9 * dt:
            continue  # reached with the previous step (after an event)
        if len(kinks):  # (no array operations at each of a bar_bounce's 34k steps without kinks)
            for kink in kinks[(kinks > state.t + 1e-9 * dt) & (kinks < t_target - 1e-9 * dt)]:
                state = advance(state, float(kink), float(kink) - state.t)
        h = t_target - state.t
        t_next = min(t0 + (k + 1) * dt, t_end) if k < n_steps else None
        state = advance(state, t_target, dt if abs(h - dt) <= 1e-9 * dt else h, t_next=t_next)
        if progress is not None:
            progress(state.t)
    return state
