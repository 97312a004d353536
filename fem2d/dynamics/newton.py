r"""Newton's iterations of a step whose bodies turn or stretch (:mod:`fem2d.model.internal`).

A step of a time scheme solves, for the increment :math:`\Delta u`,

.. math::

    R(\Delta u) = K_{eff}\,\Delta u - r_n + w_K\,\big(g(u_n + \Delta u) - g(u_n)\big) = f_c ,
    \qquad K_{eff} = w_K K + w_C C + w_M M ,

with :math:`r_n` the scheme's right-hand side (:meth:`~fem2d.dynamics.schemes.TimeScheme.right_hand_side`,
which holds the internal force :math:`K u_n + g(u_n)`), :math:`g` the nonlinear bodies'
remainder and :math:`f_c` the contact force of the step, with the contact conditions
at :math:`u_n + \Delta u`. Each iteration solves, on a factorised matrix
:math:`K_f`,

.. math::

    K_f\, \Delta u_{k+1} = K_f\, \Delta u_k - R(\Delta u_k) + f_c ,

with the contact problem solved inside it as in a linear step
(:meth:`~fem2d.dynamics.coupling.ContactCoupling.solve`: the contact conditions and the
friction law are those of :math:`u_n + \Delta u_{k+1}`, from the start of the step), so
that a converged iterate satisfies the step's equation and the contact law at once,
whatever :math:`K_f` is. :math:`K_f` is the tangent
:math:`w_K (K + \partial g/\partial u) + w_C C + w_M M`: first the factorisation of the
linear step (:math:`g = 0`), then, when an iteration reduces the residual by less than
:attr:`NewtonSettings.refresh` (it does not where the bodies have turned; the first iteration is
always followed by a second on the same factorisation, which measures the rate), the tangent at
the current iterate, factorised and kept for the next steps of the same size (a modified
Newton method, code_aster's ``REAC_ITER``): a body that barely turns steps on the one
factorisation of the linear model, a rolling one refactorises as its rotation grows. A kept
tangent is also refactorised when a step's iterations reach :attr:`NewtonSettings.refresh_after`
without a refresh in the step (a steady contraction slower than the tolerance needs). With
:attr:`NewtonSettings.tangent` ``"refreshed"`` the tangent at the prediction, then at every
iterate, is factorised instead (Newton's method: one factorisation per iteration, quadratic
convergence; the reference the kept tangent is measured against). A dynamic step is short and
a kept tangent serves many (the rolling disc: one factorisation every 4 steps kept against 3 a
step refreshed, 3 to 5 times faster); a static level is a large step, on which a kept tangent's
iterations can wander (the elastica's 20 levels took 15 cuts, 80 levels and 637 factorisations
kept, 20 levels and 102 factorisations refreshed, 6 times faster), but past a loss of stability
Newton's method may lose the path a kept tangent follows (a block crushed by 70 % in one level:
refreshed, no step converges past 64 %; kept, the run reaches the homogeneous compression): the
kept tangent is the default, refreshed a choice for slender static structures. Either way a
converged increment is a root of the same residual, to the tolerance below: the tangent changes
the path of the iterations, not where they stop. The contact conditions are solved on the
condensed boundary inside each iteration, whatever the factorisation: a change of contact
status needs no new tangent of the bodies. A static
level (no mass, no damping) of a body already deformed for which no tangent is kept starts from the
tangent of the last equilibrium instead: from the reference :math:`K`, the first iterate of a
slender cantilever bent by 20 degrees stretches it by orders of magnitude more than its load
does, and Newton's iterations from there wander, whatever the level's size.

The first iteration takes :math:`g` at the predicted increment: evaluated there, or, in
dynamics, when the last step converged at its first iteration and this one starts where it
ended, extrapolated linearly in time, :math:`g_n + \tfrac{\Delta t}{\Delta t_{n-1}} (g_n -
g_{n-1})` (no evaluation of the cells): the residual of each iterate is evaluated anyway, so a
poor start costs an iteration, never accuracy, and the next step evaluates again. A body that
barely turns (SDNV104's sliding block) then costs one evaluation of its cells per step.

By that equation the out-of-balance force of an iterate is

.. math::

    R(\Delta u_{k+1}) - f_c = w_K \big(g(u_n + \Delta u_{k+1}) - g(u_n + \Delta u_k)\big)
    - (K_f - K_{eff}) (\Delta u_{k+1} - \Delta u_k) ,

with :math:`K_f - K_{eff} = w_K (\partial g/\partial u)` of the kept tangent (zero on the linear
factorisation): no product with :math:`K_{eff}` is needed (it equals the direct evaluation of
:math:`R` to the solver's round-off, 1e-11 of the step's forces on SDNV104).

The iterations stop when :math:`\|R(\Delta u_k) - f_c\|_\infty` is at most
:attr:`NewtonSettings.tolerance` times the largest of the right-hand side, the contact
force and the internal force change (code_aster's ``RESI_GLOB_RELA``), or when an
iteration after the first changes the increment by at most
:attr:`NewtonSettings.correction` of it (the round-off floor of the residual). A step that does
not converge in :attr:`NewtonSettings.max_iterations`, or in which a cell turns inside
out, or whose tangent the linear solver cannot factorise (a Cholesky factorisation of a tangent that
is not positive definite at an iterate far from equilibrium), raises
:class:`~fem2d.dynamics.coupling.StepFailed`: the run cuts it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from fem2d.dynamics.coupling import StepFailed
from fem2d.dynamics.effective import EffectiveMatrix
from fem2d.dynamics.stepsizes import StepSizeCache
from fem2d.errors import ModelError, NumericalError
from fem2d.model.system import System

if TYPE_CHECKING:
    from fem2d.dynamics.schemes import Prediction
    from fem2d.dynamics.stepper import NewmarkStepper, StepState


#: How a step's tangent is kept (:attr:`NewtonSettings.tangent`).
TANGENTS = ("kept", "refreshed")

#: The symmetric indefinite solver that factorises the tangents in place of a Cholesky one.
INDEFINITE = {"pardiso-cholesky": "pardiso-ldlt", "cholmod": "superlu"}


@dataclass(frozen=True)
class NewtonSettings:
    """How a step of nonlinear bodies iterates (see the module docstring).

    >>> NewtonSettings().tolerance
    1e-08
    """

    #: the residual, relative to the step's largest force, below which a step is converged (100
    #: times code_aster's default; 1e-9 would take a second iteration on a fifth of SDNV104's
    #: steps for displacements that differ by 1e-10 of the slide)
    tolerance: float = 1e-8
    #: ... or the last iteration's correction, relative to the increment, below which it is (the
    #: residual's floor is the round-off of internal forces of 1e11 N/m times 1e-16 m)
    correction: float = 1e-12
    #: most iterations before the step is cut
    max_iterations: int = 25
    #: the tangent is refactorised when an iteration divides the residual by less than 1 / refresh
    refresh: float = 0.1
    #: ``"kept"``: the factorised tangent serves the iterations and the steps while they converge fast
    #: enough (:attr:`refresh`, :attr:`refresh_after`); ``"refreshed"``: the tangent at every iterate
    #: is factorised (Newton's method, one factorisation per iteration)
    tangent: str = "kept"
    #: ... and, kept, refactorised when a step's iterations reach this many on a tangent not refreshed
    #: in the step (a slow but steady contraction would otherwise run into :attr:`max_iterations`)
    refresh_after: int = 8

    def __post_init__(self) -> None:
        if self.tangent not in TANGENTS:
            raise ValueError(f"tangent {self.tangent!r}: expected one of {', '.join(TANGENTS)}")


def remainder_free(system: System, u_free: np.ndarray, t: float, tangent: bool = False):
    """The nonlinear bodies' remainder :math:`g` on the free dofs at the free displacement
    ``u_free`` and time ``t`` (the prescribed dofs at their values then), and the
    :class:`~fem2d.model.internal.Evaluation` it came from."""
    full = system.prescribed_at(t)
    full[system.free] = u_free
    evaluation = system.nonlinear.evaluate(full, tangent=tangent)
    return evaluation.remainder[system.free], evaluation


def inverted(exc: Exception) -> str:
    """What a step that turned cells inside out failed by: ``Newton (group 'BODY': 4 cell(s)
    turned inside out ...)``, without the advice to cut the step (the driver cuts it)."""
    return f"Newton ({str(exc).split('; cut the step')[0]})"


class NewtonIterations:
    """The iterations of :mod:`this module <fem2d.dynamics.newton>` for one stepper, with the
    refactorised tangents it keeps per step size and its counts."""

    def __init__(self, settings: NewtonSettings | None = None) -> None:
        self.settings = settings or NewtonSettings()
        self._tangents: StepSizeCache = StepSizeCache(capacity=2)
        #: iterations over the run, tangents factorised, steps solved
        self.iterations = 0
        self.tangent_updates = 0
        self.steps = 0
        self.largest_iterations = 0
        self._indefinite = None
        #: bodies in their own frame: their rotation on the free dofs, K_eff per step size, the largest
        #: rotation of a cell relative to its body's frame over the steps (rad)
        self._rotation = None
        self._k_eff: dict = {}
        self._frame_free: list = []
        self.frame_rotation = 0.0
        #: the end of the last step solved, when it took one iteration: u, the remainder at its
        #: start and end, its size
        self._last_step: tuple[np.ndarray, np.ndarray, np.ndarray, float] | None = None

    def tangent_backend(self, backend):
        """The solver of the tangents: ``backend``, or its symmetric indefinite counterpart for a
        Cholesky one (the tangent of a turned or compressed body need not be positive definite,
        and the modified mass leaves the contact nodes to it alone)."""
        name = INDEFINITE.get(backend.name)
        if name is None:
            return backend
        if self._indefinite is None:
            from fem2d.linalg import get_solver

            self._indefinite = get_solver(name)
        return self._indefinite

    def release(self) -> None:
        """Drop the kept tangent factorisations (and the effective matrix of bodies in their own frame)."""
        self._tangents.clear()
        self._k_eff = {}

    def solve(
        self, stepper: NewmarkStepper, state: StepState, prediction: Prediction, rhs: np.ndarray, dt: float,
        t_new: float,
    ):
        """The converged increment, the contact force (None without contact), the contact
        solution (None without contact) and the remainder :math:`g(u_{n+1})` on the free dofs."""
        s, scheme, settings = stepper.system, stepper.scheme, self.settings
        w_k, w_c, w_m = scheme.weights(dt)
        mass = scheme.mass(s)
        damping = s.C_free if (s.C_free is not None and w_c) else None
        g_n = state.remainder

        from fem2d.fe.hyperelastic import InvertedCells  # with the bodies that need it

        def remainder(du: np.ndarray, tangent: bool = False):
            t0 = time.perf_counter()
            try:
                return remainder_free(s, state.u + du, t_new, tangent)
            except InvertedCells as exc:
                raise StepFailed(np.inf, iterations, inverted(exc)) from None
            finally:
                stepper.counters.assembly_s += time.perf_counter() - t0

        iterations = 0

        def refresh(du: np.ndarray, evaluation=None):
            try:
                return self._refresh(stepper, du, state, dt, t_new, (w_k, w_c, w_m), mass, damping, evaluation)
            except NumericalError:  # a tangent that is not positive definite (Cholesky) at this iterate
                raise StepFailed(np.inf, iterations, "Newton (a singular tangent)") from None
            except InvertedCells as exc:  # the tangent of a predicted state whose prescribed motion inverts a cell
                raise StepFailed(np.inf, iterations, inverted(exc)) from None

        refreshed = settings.tangent == "refreshed"
        du = prediction.du.copy()
        frames = self._frames(stepper, dt, (w_k, w_c, w_m)) if s.nonlinear.frames else None
        if frames is not None:  # bodies in their own frame: the linear factorisation, turned (fem2d.dynamics.frames)
            factor, correction = frames
            g = self._extrapolated(state, dt)
            if g is None:
                g, _ = remainder(du)
        elif refreshed:  # Newton's method: the tangent at the predicted increment, then at each iterate
            factor, correction, g = refresh(du)
        else:
            kept = self._tangents.peek(dt)
            factor, correction = (stepper.factor(dt), None) if kept is None else kept
            if kept is None and w_m == 0.0 and w_c == 0.0 and np.any(state.u):
                # a static level of a deformed body starts from the tangent of the last equilibrium
                factor, correction, _ = refresh(np.zeros_like(state.u))
            g = self._extrapolated(state, dt) if (w_m or w_c) else None
            if g is None:
                g, _ = remainder(du)
        fresh = refreshed  # whether this step's tangent was factorised in this step
        residual_before = None
        contact_force, solution = None, None
        scale_rhs = float(np.max(np.abs(rhs), initial=0.0))
        while True:
            if frames is not None:
                self._turn(s, state.u + du)
            b = rhs - w_k * (g - g_n)
            if correction is not None:
                b += w_k * (correction @ du)
            if stepper.contact is None:
                t0 = time.perf_counter()
                du_new = factor.solve(b)
                stepper.counters.solve_s += time.perf_counter() - t0
            else:
                du_new, contact_force, solution = stepper.contact.solve(
                    dt, factor, b, state.u, state.contact, stepper.counters, (state.t, t_new), prediction.contact_on,
                    shift=prediction.contact_shift, velocity_level=prediction.velocity_level,
                    acceptable=settings.tolerance,
                )
            stepper.counters.solves += 1
            iterations += 1
            g_new, evaluation = remainder(du_new, tangent=refreshed)  # refreshed: its tangent for the next
            change = w_k * (g_new - g_n)
            # R(du_new) - f_c from the iteration's own equation (no product with K_eff)
            out_of_balance = w_k * (g_new - g)
            if correction is not None:
                out_of_balance -= w_k * (correction @ (du_new - du))
            scale = max(scale_rhs, float(np.max(np.abs(change), initial=0.0)),
                        float(np.max(np.abs(contact_force), initial=0.0)) if contact_force is not None else 0.0)
            residual = float(np.max(np.abs(out_of_balance), initial=0.0)) / (scale if scale > 0.0 else 1.0)
            moved = float(np.max(np.abs(du_new - du), initial=0.0))
            reach = float(np.max(np.abs(du_new), initial=0.0))
            du, g = du_new, g_new
            if residual <= settings.tolerance or iterations > 1 and moved <= settings.correction * reach:
                break
            if iterations >= settings.max_iterations or not np.isfinite(residual):
                self.iterations += iterations
                raise StepFailed(residual, iterations, "Newton")
            if frames is None and (refreshed or residual_before is not None and residual > settings.refresh *
                                   residual_before or not fresh and iterations >= settings.refresh_after):
                factor, correction, _ = refresh(du, evaluation if refreshed else None)
                fresh = True
            residual_before = residual
        self.iterations += iterations
        if frames is not None:
            self._check_frames(s, evaluation, t_new)
        self.steps += 1
        self._last_step = (state.u + du, g_n, g, dt) if iterations == 1 else None
        self.largest_iterations = max(self.largest_iterations, iterations)
        return du, contact_force, solution, g

    def _frames(self, stepper: NewmarkStepper, dt: float, weights: tuple[float, float, float]):
        r"""The Newton matrix :math:`Q K_{eff} Q^T` of bodies in their own frame
        (:mod:`fem2d.dynamics.frames`): the linear factorisation turned and its correction, made
        once per step size (one factorisation for a run of one step size)."""
        from fem2d.dynamics.frames import FrameCorrection, FrameRotation, RotatedFactor

        s, (w_k, w_c, w_m) = stepper.system, weights
        if self._rotation is None:
            self._rotation = FrameRotation(*self._frame_pairs(s))
            if self.settings.tangent == "refreshed":
                raise ModelError(s.nonlinear.frames[0].body, "frame", "a body in its own frame steps on the "
                                 "factorisation of the linear model: solver.tangent = \"refreshed\" would be "
                                 "ignored (use \"kept\", or frame = \"element\")")
        if w_m == 0.0:
            raise ModelError(s.nonlinear.frames[0].body, "frame", "a body in its own frame is for direct runs (a "
                             "free body with inertia); a static run needs frame = \"element\"")
        k_eff = self._k_eff.get(dt)
        if k_eff is None:
            k_eff = w_k * s.K_free + w_m * stepper.scheme.mass(s)
            if s.C_free is not None and w_c:
                k_eff = k_eff + w_c * s.C_free
            self._k_eff = {dt: k_eff.tocsr()}
        return RotatedFactor(stepper.factor(dt), self._rotation), FrameCorrection(self._k_eff[dt], w_k, self._rotation)

    def _frame_pairs(self, s: System) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The free (x, y) dofs of every node of the bodies in their own frame, and each node's body;
        refused (one line) for a model that mixes frames or a body with a prescribed dof."""
        if s.nonlinear.parts:
            body = s.nonlinear.parts[0].body
            raise ModelError(body, "kinematics", f"body {body.group!r} ({body.kinematics!r}, its cells' own frames) "
                             "steps with bodies in their own frame: give every corotational body frame = \"body\", "
                             "or none")
        x, y, which = [], [], []
        for k, part in enumerate(s.nonlinear.frames):
            free = s.free_index[part.dofs]
            if np.any(free < 0):
                raise ModelError(part.body, "frame", f"body {part.body.group!r} has supported dofs: a frame per body "
                                 "is for a free body (held by contact and loads); use frame = \"element\"")
            x.append(free[0::2])
            y.append(free[1::2])
            which.append(np.full(len(part.dofs) // 2, k))
        self._frame_free = [s.free_index[part.dofs] for part in s.nonlinear.frames]
        return np.concatenate(x), np.concatenate(y), np.concatenate(which)

    def _turn(self, s: System, u_free: np.ndarray) -> None:
        """Set the frames' angles to those of the free displacement ``u_free``."""
        for k, (part, free) in enumerate(zip(s.nonlinear.frames, self._frame_free)):
            self._rotation.angles[k] = part.frame.angle(u_free[free])

    def _check_frames(self, s: System, evaluation, t: float) -> None:
        """Refuse to go on where a body's cells turned beyond the small-displacement model relative to
        its frame (:data:`~fem2d.dynamics.rotation.ROTATION_LIMIT`); keep the largest such rotation."""
        from fem2d.dynamics.rotation import ROTATION_LIMIT

        for part, (_, relative) in zip(s.nonlinear.frames, evaluation.frames):
            self.frame_rotation = max(self.frame_rotation, relative)
            if relative > ROTATION_LIMIT:
                raise ModelError(part.body, "frame", f"at t = {t:.6g} s a cell of body {part.body.group!r} turned by "
                                 f"{relative:.3g} rad relative to the body's frame, beyond the small-displacement "
                                 f"model seen from it ({ROTATION_LIMIT:g} rad): the body bends or flaps, use "
                                 "frame = \"element\"")

    def _extrapolated(self, state: StepState, dt: float) -> np.ndarray | None:
        r"""The remainder at the step's predicted end, extrapolated linearly in time from the last
        step's, :math:`g_n + \frac{\Delta t}{\Delta t_{n-1}} (g_n - g_{n-1})`, when the step starts
        where the last one solved here ended and that one converged at its first iteration (a body
        whose remainder changes smoothly); None otherwise: it is then evaluated at the prediction."""
        last = self._last_step
        if last is None or last[3] <= 0.0 or not np.array_equal(last[0], state.u):
            return None
        _, g_before, g_end, dt_before = last
        return g_end + (dt / dt_before) * (g_end - g_before)

    def _refresh(self, stepper, du, state, dt, t_new, weights, mass, damping, evaluation=None):
        r"""Factorise the tangent at ``u_n + du`` and keep it for the steps of size ``dt``; the
        factorisation, the tangent's part :math:`\partial g / \partial u` on the free dofs and the
        remainder :math:`g` there; ``evaluation``: the cells' evaluation with its tangent at that
        iterate, already made."""
        s = stepper.system
        w_k, w_c, w_m = weights
        t0 = time.perf_counter()
        if evaluation is None:
            g, evaluation = remainder_free(s, state.u + du, t_new, tangent=True)
        else:
            g = evaluation.remainder[s.free]
        correction = s.restrict(evaluation.tangent - s.nonlinear.linear)
        stepper.counters.assembly_s += time.perf_counter() - t0
        t0 = time.perf_counter()
        matrix = w_k * (s.K_free + correction)
        spring = getattr(stepper, "proximal_spring", None)
        if spring is not None:  # a static level's proximal term (fem2d.dynamics.static), in every tangent
            import scipy.sparse as sp

            matrix = matrix + sp.diags(spring)
        if w_m:
            matrix = matrix + w_m * mass
        if damping is not None:
            matrix = matrix + w_c * damping
        matrix = matrix.tocsr()
        backend = self.tangent_backend(stepper.backend)
        if backend.upper_triangle:
            matrix = EffectiveMatrix.upper_part(matrix)
        boundary = None
        if w_k != 0.0 and stepper.contact is not None and backend.schur:
            boundary = stepper.contact.boundary_rows
        factor = backend.factorize(matrix, boundary)
        stepper.counters.factorizations += 1
        stepper.counters.factorization_s += time.perf_counter() - t0
        self.tangent_updates += 1
        self._tangents.drop(dt)
        self._tangents.get(dt, lambda: (factor, correction))
        return factor, correction, g
