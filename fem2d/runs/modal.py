"""The reduced-modal path (code_aster's DYNA_TRAN_MODAL / DYNA_VIBRA
TYPE_CALCUL='TRAN', BASE_CALCUL='GENE').

:class:`ModalAnalysis` -> System -> lowest modes -> ModalProblem (projected
loads, base excitation, initial conditions, obstacles at nodes) -> euler /
devogelaere / adapt / exact -> wear power and impact statistics (the
``result.json`` quantities of code_aster SDND101 and SDND104).
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from fem2d.errors import ArgumentError, ModelError, UnsupportedError, expect_instance, expect_real
from fem2d.model.excitation import BaseAcceleration
from fem2d.model.loads import ExternalLoad
from fem2d.model.model import Model
from fem2d.model.obstacles import NodalObstacle
from fem2d.model.stepping import TimeStepping
from fem2d.model.system import System
from fem2d.model.timefunctions import Constant, PiecewiseLinear, Sine, TimeFunction
from fem2d.runs.result import Result, finished
from fem2d.runs.sanity import DivergenceError, geometric_growth

if TYPE_CHECKING:
    from fem2d.modal.basis import ModalProblem
    from fem2d.modal.integrators import ModalHistory
    from fem2d.modal.run import ModalRun

#: The modal integrators, by name.
INTEGRATORS = ("euler", "devogelaere", "adapt", "exact")


@dataclass
class ModalFields:
    """What a modal run leaves besides its numbers: the model (its
    :meth:`~fem2d.model.model.Model.snapshot`, taken here), its assembled
    system and the modal run (basis, history, statistics)."""

    model: Model
    system: System
    modal_run: ModalRun

    def __post_init__(self) -> None:
        self.model = self.model.snapshot()


def _modal_function(load: ExternalLoad) -> TimeFunction:
    """A load's time function in the compiled integrators' representation."""
    f = load.function
    if isinstance(f, Sine | Constant) or (isinstance(f, PiecewiseLinear) and len(f.t) >= 2):
        return f
    raise ModelError(load, "function", f"the modal path cannot use the time function {f!r}")


@dataclass
class ModalAnalysis:
    """A transient analysis on the lowest modes of a model, with shocks on obstacles at nodes.

    Parameters
    ----------
    model : Model
    stepping : TimeStepping
        ``dt`` is the step (initial step of ``adapt``, sampling step of ``exact``).
    n_modes : int
        Modes kept in the basis.
    damping : float
        Modal damping ratio of every mode.
    integrator : {"euler", "devogelaere", "adapt", "exact"}
    archive : int
        Keep every ``archive``-th step in the history.
    excitation : BaseAcceleration or None
    obstacles : sequence of NodalObstacle
    window : (float, float) or None
        Time window of the wear and impact statistics (whole run if None).
    impact_threshold : float
        Force (N) above which a shock counts as an impact.
    wear_blocks : int
        Blocks of the wear-power average.
    strict : bool
        As for :class:`~fem2d.runs.direct.DirectAnalysis`: any warning raises
        :class:`~fem2d.errors.StrictRunError`.

    Examples
    --------
    One node of 1 kg on springs of 100 N/m in x and 400 N/m in y, released
    at 1 m/s along x: the first mode (x, 10 rad/s) swings with amplitude
    v0 / omega = 0.1 m:

    >>> from fem2d.mesh import single_node
    >>> from fem2d.model import GroundSpring, InitialCondition, Model, PointMass, TimeStepping
    >>> oscillator = Model(single_node(), springs=[GroundSpring("NO1", (100.0, 400.0))],
    ...                    masses=[PointMass("NO1", 1.0)], initial=[InitialCondition("NO1", velocity=(1.0, 0.0))])
    >>> result = ModalAnalysis(oscillator, TimeStepping(dt=1e-3, end=1.0), integrator="exact").run()
    >>> round(float(np.max(np.abs(result.histories["q_1"]))), 6)
    0.1
    """

    model: Model
    stepping: TimeStepping
    n_modes: int = 1
    damping: float = 0.0
    integrator: str = "euler"
    archive: int = 1
    excitation: BaseAcceleration | None = None
    obstacles: Sequence[NodalObstacle] = ()
    window: tuple[float, float] | None = None
    impact_threshold: float = 0.0
    wear_blocks: int = 8
    strict: bool = False

    def __post_init__(self) -> None:
        expect_instance(self, "model", self.model, Model, "a fem2d.Model")
        expect_instance(self, "stepping", self.stepping, TimeStepping, "a fem2d.TimeStepping")
        for name in ("n_modes", "archive", "wear_blocks"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
                raise ArgumentError(self, name, f"expected an integer >= 1, got {value!r}")
            setattr(self, name, int(value))
        self.damping = expect_real(self, "damping", self.damping, "a damping ratio >= 0")
        self.impact_threshold = expect_real(self, "impact_threshold", self.impact_threshold, "a force (N)")
        expect_instance(self, "excitation", self.excitation, BaseAcceleration | None, "a BaseAcceleration or None")
        expect_instance(self, "strict", self.strict, bool, "True or False")
        if self.integrator not in INTEGRATORS:
            raise ModelError(self, "integrator", f"expected one of {', '.join(map(repr, INTEGRATORS))}")
        if self.window is not None and not self.window[0] < self.window[1]:
            raise ModelError(self, "window", f"expected (t_start, t_end) with t_start < t_end, got {self.window}")
        for body in self.model.bodies:
            if body.nonlinear:  # a modal basis is that of the linear model about its reference shape
                raise ModelError(body, "kinematics", f"{body.kinematics!r} on a modal run: its modal basis is that "
                                                     "of small displacements about the reference shape; use "
                                                     "\"small\" or a direct run")
        if self.obstacles and any(body.axisymmetric for body in self.model.bodies):
            raise ModelError(self, "obstacles", "shocks on obstacles at nodes of an axisymmetric body are not "
                                                "supported yet")

    def problem(self, system: System) -> ModalProblem:
        """Project the system on its lowest modes and attach the obstacles."""
        from fem2d.modal.basis import (
            Excitation,
            ModalProblem,
            base_acceleration_load,
            modal_basis,
            node_modes,
            project_initial,
            project_load,
        )
        from fem2d.modal.shocks import Obstacle

        n_free = len(system.free)
        if self.n_modes > n_free:
            raise ModelError(self, "n_modes", f"{self.n_modes} modes asked, the model has {n_free} free dofs; "
                             f"expected 1 to {n_free}")
        basis = modal_basis(system.K_free, system.M_free, self.n_modes)
        excitations = [
            Excitation(project_load(basis, assembled.vector[system.free]), _modal_function(load))
            for load, assembled in zip(self.model.loads, system.loads, strict=True)
        ]
        exc = self.excitation
        if exc is not None:
            influence = np.tile(exc.unit, system.n_dofs // 2)[system.free]
            load = base_acceleration_load(basis, system.M_free, influence)
            excitations.append(Excitation(load, Sine(exc.a0, exc.omega)))
        v0 = None
        if system.initial_velocity is not None:
            v0 = project_initial(basis, system.M_free, system.initial_velocity[system.free])
        obstacles = []
        mesh = system.mesh
        for ob in self.obstacles:
            nodes = ob.nodes(mesh)
            for node in nodes:
                dofs = tuple(int(i) for i in system.free_index[[2 * node, 2 * node + 1]])
                obstacles.append(
                    Obstacle(
                        node_modes(basis, dofs),
                        kind=ob.kind,
                        normal=np.asarray(ob.normal, dtype=float),
                        origin=np.asarray(ob.origin, dtype=float),
                        position=mesh.points[node].copy(),
                        gap=ob.gap,
                        kn=ob.kn,
                        cn=ob.cn,
                        kt=ob.kt,
                        ct=ob.ct,
                        mu_static=ob.mu_static_value,
                        mu_dynamic=ob.mu,
                        name=ob.group if len(nodes) == 1 else f"{ob.group}:{node}",
                    )
                )
        return ModalProblem.from_basis(
            basis,
            damping_ratios=self.damping,
            excitations=tuple(excitations),
            obstacles=tuple(obstacles),
            v0=v0,
        )

    def check_step(self, problem: ModalProblem) -> None:
        """Reject an explicit step above the integrator's stability limit (computed from the
        highest frequency with the shock stiffness engaged and the largest damping rate,
        :mod:`fem2d.modal.stability`)."""
        from fem2d.modal.stability import STABLE_STEP, highest_damping_rate, highest_frequency, stability_limit

        if self.integrator not in STABLE_STEP:
            return
        dt = self.stepping.dt
        limit = stability_limit(problem, self.integrator)
        if limit is None or dt <= limit:
            return
        omega, rate = highest_frequency(problem), highest_damping_rate(problem)
        if rate == 0.0:
            names = {"euler": "2", "devogelaere": "2*sqrt(2)"}
            factor = names.get(self.integrator, f"{STABLE_STEP[self.integrator]:g}")
            raise ModelError(self.stepping, "dt", f"{dt:g} s is above the stability limit of the explicit "
                             f"{self.integrator!r} integrator, {factor}/omega_max = {limit:.4g} s (omega_max = "
                             f"{omega:.4g} rad/s with the shock stiffness kn engaged); expected a step below it")
        raise ModelError(self.stepping, "dt", f"{dt:g} s is above the stability limit of the explicit "
                         f"{self.integrator!r} integrator with damping, {limit:.4g} s (omega_max = {omega:.4g} "
                         f"rad/s with the shock stiffness engaged, largest damping rate c/m = {rate:.4g} 1/s: "
                         "modal damping and the obstacles' cn, ct); expected a step below it or less damping")

    def refused(self, exc: UnsupportedError) -> tuple[object, str]:
        """The model object and field behind a setting a modal integrator refuses
        (``exc.owner`` and ``exc.field`` name the integrator's own argument)."""
        if exc.field == "excitations":
            return self.model, "loads"
        if exc.field == "cn" and len(self.obstacles) == 1:
            return self.obstacles[0], "cn"
        if exc.field in ("n_modes", "impact_threshold", "obstacles"):
            return self, exc.field
        return self, "integrator"

    def watch(self, history: ModalHistory | None) -> None:
        """Raise :class:`~fem2d.runs.sanity.DivergenceError` with the step and the time
        when the integration stopped on a non-finite state (the compiled loops stop
        there), or when the archived states grow without bound
        (:func:`~fem2d.runs.sanity.geometric_growth` of ``max |q|``): then at the first of
        512 archived instants where the history up to it already grows so."""
        if history is None or not len(history.t):
            return
        owner, dt, t0 = type(self).__name__, self.stepping.dt, float(history.t[0])

        def step(i: int) -> str:
            t = float(history.t[i])
            return f"step {int(round((t - t0) / dt))}, t = {t:.6g} s"

        if history.diverged:
            raise DivergenceError(owner, f"the state became non-finite (q) at {step(-1)}")
        size = np.max(np.abs(history.q), axis=1) if history.q.size else np.zeros(len(history.t))
        if not geometric_growth(size):
            return
        n = len(size)
        first = next(i for i in range(max(1, n // 512), n + 512, max(1, n // 512)) if geometric_growth(size[:i]))
        first = min(first, n) - 1
        raise DivergenceError(owner, f"the state grows without bound (max |q| reaches {size[first]:.3g} at "
                                     f"{step(first)})")

    def run(self, progress: Callable[[float], None] | None = None) -> Result:
        """:meth:`compute`, its warnings given to Python's (a
        :class:`~fem2d.errors.Fem2dWarning` each), or with ``strict`` raised
        (:func:`~fem2d.runs.result.finished`)."""
        return finished(self.compute(progress), type(self).__name__, self.strict)

    def compute(self, progress: Callable[[float], None] | None = None) -> Result:
        """Assemble (densely up to :data:`~fem2d.modal.basis.DENSE_MAX` dofs), project,
        integrate, post-process; a state that blows up is an error naming the step and
        the time (:meth:`watch`)."""
        from fem2d.modal.basis import DENSE_MAX
        from fem2d.modal.run import run_modal

        if self.stepping.extrapolate:  # a direct-path option (fem2d/runs/extrapolation.py)
            raise ModelError(self.stepping, "extrapolate", "a modal analysis does not extrapolate in time")
        t_start = time.perf_counter()
        # a model whose modes are computed densely is assembled densely: NumPy alone, no scipy.sparse
        system = self.model.assemble(dense=self.model.n_dofs <= DENSE_MAX)
        problem = self.problem(system)
        self.check_step(problem)
        try:
            run = run_modal(
                problem,
                integrator=self.integrator,
                dt=self.stepping.dt,
                t_end=self.stepping.end,
                window=None if self.window is None else tuple(self.window),
                archive_stride=self.archive,
                wear_blocks=self.wear_blocks,
                impact_threshold=self.impact_threshold,
            )
        except UnsupportedError as exc:  # the object and field the user set (the case layer names the key)
            owner, field = self.refused(exc)
            raise ModelError(owner, field, f"{exc.message} (integrator {self.integrator!r})") from None
        self.watch(run.history)
        if progress is not None:
            progress(self.stepping.end)
        histories = {}
        h = run.history
        if h is not None:
            histories = {"time": h.t, "q_1": h.q[:, 0], "v_1": h.v[:, 0]}
            if h.fn.shape[1]:
                histories.update(normal_force=h.fn[:, 0], tangential_force=h.ft[:, 0], gap=h.d[:, 0])
                histories.update(normal_velocity=h.vn[:, 0], sliding_velocity=h.vt[:, 0])
                histories.update(stuck=h.stuck[:, 0].astype(float), contact=h.contact[:, 0].astype(float))
        timing = {k: v for k, v in run.timing.items() if k != "wall_s"}
        timing.update(integrator_s=run.timing["wall_s"], model_s=time.perf_counter() - t_start - run.timing["wall_s"])
        timing["n_modes"] = problem.n_modes
        from fem2d.modal.stability import sampling_warning

        warning = sampling_warning(problem, self.integrator, self.stepping.dt, self.archive)
        notes, warned = self.model.volumetric_choices()
        return Result(dict(run.quantities), timing, histories, ModalFields(self.model, system, run),
                      warnings=[*warned, *([] if warning is None else [warning])], notes=notes)
