"""The static path: equilibrium with frictional contact, load level by load level.

:class:`StaticAnalysis` is code_aster's STAT_NON_LINE on a linear elastic
model with contact: the loads' time functions are the load path over a
pseudo-time ``0 .. stepping.end``, ``stepping.dt`` the load increment, and each
level is an equilibrium :math:`K u = f(t) + f_c` with the same contact
formulations (Lagrange, penalty, continuous) and Coulomb friction as the
direct path (friction makes the answer depend on the path, which the levels
follow). A body whose supports leave it free in some direction and that only
contact holds is solved by proximal-point iterations that leave no trace in the
answer (:mod:`fem2d.dynamics.static`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from fem2d.dynamics.coupling import ContactCoupling
from fem2d.dynamics.schemes import StaticScheme, TimeScheme
from fem2d.dynamics.static import StaticStepper, UnheldBody, free_modes
from fem2d.dynamics.stepper import NewmarkStepper
from fem2d.errors import ConvergenceError, ModelError
from fem2d.linalg.base import SolverBackend
from fem2d.model.system import System
from fem2d.post.energy import ENERGY_GREW
from fem2d.runs.direct import DirectAnalysis
from fem2d.runs.result import Result

#: Quantities of a direct run that describe motion in time (impacts, impulses,
#: the energy balance): a static run's pseudo-time has no such meaning.
DYNAMIC_ONLY = re.compile(
    r"(^|_)(n_impacts|n_reopenings|normal_impulse|tangential_impulse|f_max_abs|f_max_mean|f_max_std"
    r"|energy_balance_error|energy_drift|energy_growth|work_loads|work_motions|damping_dissipation"
    r"|numerical_dissipation)$|(^|_)impact_\d+_"
)

#: Cuts of a load step (each into ``time.cut_factor``) before a static run gives up: the load path is
#: then followed no further at that level's resolution (a smaller ``time.dt`` or more contact
#: iterations are what would change it), in a bounded time.
STATIC_CUTS = 6

#: History columns of a direct run that describe motion in time (energies and work).
DYNAMIC_SERIES = ("v", "kinetic", "work_loads", "normal_contact_work", "damping_dissipation",
                  "numerical_dissipation", "energy_residual")


@dataclass
class StaticAnalysis(DirectAnalysis):
    """A static analysis of a model with contact (see the module docstring).

    Parameters
    ----------
    model, stepping, solver, report
        As for :class:`DirectAnalysis`; ``stepping.dt`` is the load increment and
        ``stepping.end`` the end of the pseudo-time over which the loads'
        time functions are followed.
    regularization : float
        :math:`\\varepsilon` of the proximal iterations, relative to the
        diagonal of K, used only where contact alone holds a body. It changes
        the number of iterations, not the answer (default 1e-4: a few iterations per level, and round-off
        of :math:`1/\\varepsilon` times the machine precision far below the
        tolerance).

    Examples
    --------
    A block pressed by its weight on a rigid plane, held by nothing else in y:

    >>> from fem2d.mesh import rectangle
    >>> from fem2d.model import Body, Contact, Model, Pressure, Report, RigidPlane, Support, TimeStepping
    >>> block = Model(rectangle(1.0, 1.0, 2, 2), bodies=[Body("BODY", E=1e7, nu=0.0, rho=1.0)],
    ...               supports=[Support("LEFT", ("dx",))], loads=[Pressure("TOP", 1e4)],
    ...               contacts=[Contact("BOTTOM", RigidPlane((0.0, 0.0), (0.0, 1.0)))])
    >>> result = StaticAnalysis(block, TimeStepping(dt=1.0, end=1.0), report=Report("NE", "dy", at_times=[1.0])).run()
    >>> round(result.quantities["x_at_1.00"] / (-1e4 / 1e7), 9)  # u = -p H / E
    1.0
    """

    scheme: TimeScheme = field(default_factory=StaticScheme)
    regularization: float = 1e-4

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.scheme, StaticScheme):
            raise ModelError(self, "scheme", f"a static analysis has no time scheme, got {self.scheme.label}")
        if self.modified_mass:
            raise ModelError(self, "modified_mass", "a static analysis has no mass to modify")
        if not (isinstance(self.regularization, float | int) and math.isfinite(self.regularization)
                and 0.0 < self.regularization < 1.0):
            raise ModelError(self, "regularization", f"expected a number in (0, 1), got {self.regularization!r}")
        if self.stepping.events:
            raise ModelError(self.stepping, "events", "a static analysis has no contact events to locate")
        if self.stepping.extrapolate:
            raise ModelError(self.stepping, "extrapolate", "a static analysis has no time-discretisation error "
                             "to extrapolate")

    @property
    def inertia(self) -> bool:
        """No inertia: no density needed, and a support's displacement history on any body is exact."""
        return False

    def smallest_step(self) -> float:
        """``time.min_dt``, but no shorter than :data:`STATIC_CUTS` cuts of ``time.dt``."""
        st = self.stepping
        return max(st.min_dt, st.dt / st.cut_factor**STATIC_CUTS * (1.0 - 1e-9))

    def give_up_advice(self) -> str:
        """The load level the path stopped at and what to change."""
        return (f"; the load path stopped short of time.end = {self.stepping.end:g} s after {STATIC_CUTS} cuts of "
                "its step: give a smaller time.dt there, or a larger contact.max_iter (with penalty, a smaller "
                "contact.e_n)")

    def stepper(
        self, system: System, scheme: TimeScheme, backend: SolverBackend, coupling: ContactCoupling | None
    ) -> NewmarkStepper:
        """Static steps; proximal iterations where only contact holds a body."""
        modes = free_modes(system)
        if modes and coupling is None:
            raise ModelError(
                self.model,
                "supports",
                f"{len(modes)} rigid-body motion(s) left free and no contact to hold them: "
                "the static problem is singular (add supports)",
            )
        return StaticStepper(system, backend, coupling, self.regularization if modes else 0.0, modes=modes)

    def _unheld(self, exc: UnheldBody) -> ModelError:
        """The error of a body pulled off its contact, on the load that pulls it
        (the case layer words it with that load's key)."""
        said = (f"at t = {exc.t:.9g} s {{}} a body off its contact, and nothing else holds that body (its "
                "supports leave it free): there is no static equilibrium; expected a load that presses the body "
                "on its contact, or supports that hold it")
        loads = list(self.model.loads)
        if exc.load is None or exc.load >= len(loads):
            return ModelError(self.model, "supports", said.format("a prescribed motion moves"))
        load, said = loads[exc.load], said.format("it pulls")
        return ModelError(load, "value" if hasattr(load, "value") else "vector", said)

    def compute(self, progress: Callable[[float], None] | None = None) -> Result:
        """The levels' equilibria; the quantities of motion in time (impacts,
        impulses, energy balance) are left out."""
        try:
            result = super().compute(progress)
        except UnheldBody as exc:
            raise self._unheld(exc) from None
        except ConvergenceError as exc:  # the levels it converged, as a static run's
            if getattr(exc, "result", None) is not None:
                exc.result.fields.static = True
                for name in DYNAMIC_SERIES:
                    exc.result.histories.pop(name, None)
            raise
        result.fields.static = True
        result.quantities = {k: v for k, v in result.quantities.items() if not DYNAMIC_ONLY.search(k)}
        result.warnings = [w for w in result.warnings if not w.startswith(ENERGY_GREW)]
        for name in DYNAMIC_SERIES:
            result.histories.pop(name, None)
        return result
