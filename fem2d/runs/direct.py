"""The direct path: Newmark/HHT on the finite-element system, with contact.

:class:`DirectAnalysis` (model, time grid, scheme, linear solver, report)
-> System -> NewmarkStepper (+ ContactCoupling) -> DirectHistory ->
the ``result.json`` quantities (``x_at_T``, ``x_ext_k``, ``t_ext_k``,
``x_rest``, ``t_rest``) plus run diagnostics (energy balance, penetration).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from fem2d.contact.problem import ContactFormulation
from fem2d.dynamics.choice import ContactSchemeChoice
from fem2d.dynamics.coupling import ContactCoupling
from fem2d.dynamics.events import EventLocator
from fem2d.dynamics.history import DirectHistory, Snapshots
from fem2d.dynamics.massless import MasslessRates
from fem2d.dynamics.measures import MeasureRecorder, measured_quantities, zone_prefix
from fem2d.dynamics.newton import TANGENTS
from fem2d.dynamics.rotation import BodyRotations, rotation_warnings
from fem2d.dynamics.schemes import NewmarkScheme, StaticScheme, TimeScheme
from fem2d.dynamics.stepper import NewmarkStepper, StepState, march
from fem2d.dynamics.stickslip import BodyTranslations, StickSlipLocator
from fem2d.errors import ArgumentError, ConvergenceError, FieldError, ModelError, expect_instance
from fem2d.fe.assembly import sorted_unique
from fem2d.linalg import get_solver
from fem2d.linalg.base import SolverBackend
from fem2d.linalg.default import default_solver
from fem2d.mesh.mesh import CellBlock
from fem2d.model.contact import Contact
from fem2d.model.model import Model
from fem2d.model.report import Report
from fem2d.model.stepping import TimeStepping
from fem2d.model.system import System
from fem2d.post.chatter import zone_chatter
from fem2d.post.energy import energy_warning
from fem2d.post.extrema import rest_note
from fem2d.post.pressure import pressure_quantities, pressure_rows, slave_displacements
from fem2d.runs.advice import DAMP_CHATTER, FRICTION_TO_AUTO, TO_AUTO, chatter_remedy, energy_remedy
from fem2d.runs.direct_quantities import direct_quantities, sliding_records
from fem2d.runs.failed import converged_part
from fem2d.runs.penetration import left_master_warnings, outside_at_start, penetration_warnings
from fem2d.runs.result import Result, finished
from fem2d.runs.sanity import StateWatch
from fem2d.runs.wear_outputs import wear_quantities, wear_series, wear_warnings

if TYPE_CHECKING:
    from fem2d.runs.static import StaticAnalysis


@dataclass
class DirectFields:
    """What a direct run leaves besides its numbers: the model and its
    assembled system, the final state, the reported dof and the displacement
    snapshots (None unless ``Report.snapshots`` asked for them).

    ``model`` is the :meth:`~fem2d.model.model.Model.snapshot` of the model that
    ran, taken here (a list of the model changed later does not change it);
    ``source`` is that model object itself (a run that starts from this one
    must be of it)."""

    model: Model
    system: System
    final_state: StepState
    report_dof: int | None = None
    snapshots: Snapshots | None = None
    #: the contact pressure at ``Report.pressure_at``: (header, rows) of pressure.csv, or None
    pressure: tuple[list[str], list[list]] | None = None
    #: True for a static run (its final state is an equilibrium, at rest)
    static: bool = False
    source: Model | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.source is None:
            self.source, self.model = self.model, self.model.snapshot()


@dataclass
class DirectAnalysis:
    """A transient analysis of a model by a Newmark-family scheme, with contact.

    Parameters
    ----------
    model : Model
    stepping : TimeStepping
        Step, end time and step cutting.
    scheme : TimeScheme or ContactSchemeChoice
        By default :class:`~fem2d.dynamics.choice.ContactSchemeChoice`, the
        same choice as a case file's ``time.scheme = "auto"``: with contact,
        the explicit impact scheme (Paoli-Schatzman) when the mass is lumped and
        ``stepping.dt`` within its stability limit, else the modified mass of
        the contact nodes with average acceleration (frictionless) or
        generalized-alpha at rho_inf = 0 (friction; the result's ``notes`` say
        which and why); without contact, average acceleration. Plain
        ``NewmarkScheme()`` with contact creates energy at impacts. See also
        :meth:`NewmarkScheme.generalized_alpha`, :meth:`NewmarkScheme.hht`,
        :class:`~fem2d.dynamics.schemes.StaticScheme`.
    solver : str
        Name of the linear solver (:func:`fem2d.linalg.solver_names`; default
        pardiso-cholesky where MKL installs, else superlu).
    report : Report
        The reported dof and the quantities made from it.
    modified_mass : bool
        Integrate with no inertia on the contact nodes (Khenous, Laborde &
        Renard): :meth:`NewmarkScheme.modified_mass` applied to ``scheme``
        (to the implicit scheme of a ``ContactSchemeChoice``, whatever it
        would choose) once the model is assembled; needs a contact zone.
    initial : Result or StaticAnalysis or None
        Start from the final state of a run of the same :class:`Model`
        (code_aster's DYNA_NON_LINE with ETAT_INIT): a finished run's
        :class:`Result`, or a :class:`~fem2d.runs.static.StaticAnalysis` run
        first (a static preload: settle the weight, then push). The run
        continues at that state's time, with its displacement, velocity and
        contact state, to ``stepping.end``; after a static run the velocity is
        the model's initial velocity (:class:`InitialCondition`: settle, then
        launch; an initial displacement is refused with it). None starts at
        t = 0 from the model's initial conditions.
    strict : bool
        Raise :class:`~fem2d.errors.StrictRunError` (naming every warning, the
        result attached) instead of returning a result with warnings, as
        ``fem2d run --strict`` exits 1. Without it, :meth:`run` gives each
        warning to Python's :mod:`warnings` as a
        :class:`~fem2d.errors.Fem2dWarning`.
    tangent : str
        Bodies that turn or stretch: ``"kept"`` (a factorised tangent serves the Newton
        iterations and the steps while each iteration divides the residual by at least
        1 / ``tangent_refresh``; the default) or ``"refreshed"`` (the tangent at every iterate
        factorised: Newton's method; faster on the large levels of a slender static structure,
        slower in dynamics). The same answers to the Newton tolerance
        (:mod:`fem2d.dynamics.newton`) on a stable path; the cost differs.
    tangent_refresh : float
        A kept tangent is refactorised when an iteration's residual is above this fraction
        of the last one's.

    Examples
    --------
    A cantilever under a sudden tip load, 40 steps:

    >>> from fem2d.mesh import rectangle
    >>> from fem2d.model import Body, Model, Report, Support, TimeStepping, Traction
    >>> beam = Model(rectangle(length=10.0, height=0.5, nx=20, ny=2),
    ...              bodies=[Body("BODY", E=2.1e11, nu=0.0, rho=7800.0, hypothesis="plane_stress")],
    ...              supports=[Support("LEFT")], loads=[Traction("RIGHT", (0.0, 2e4))])
    >>> result = DirectAnalysis(beam, TimeStepping(dt=5e-4, end=0.02),
    ...                         report=Report("EAST", "dy", at_times=[0.02])).run()
    >>> 0.0 < result.quantities["x_at_0.02"] < 1e-3
    True
    """

    model: Model
    stepping: TimeStepping
    scheme: TimeScheme | ContactSchemeChoice = field(default_factory=ContactSchemeChoice)
    solver: str = field(default_factory=default_solver)
    report: Report = field(default_factory=Report)
    modified_mass: bool = False
    initial: Result | StaticAnalysis | None = None
    strict: bool = False
    tangent: str = "kept"
    tangent_refresh: float = 0.1

    def __post_init__(self) -> None:
        """Each argument of the right kind, or an :class:`~fem2d.errors.ArgumentError` naming it."""
        expect_instance(self, "model", self.model, Model, "a fem2d.Model")
        expect_instance(self, "stepping", self.stepping, TimeStepping, "a fem2d.TimeStepping")
        expect_instance(self, "scheme", self.scheme, TimeScheme | ContactSchemeChoice,
                        "a time scheme (fem2d.NewmarkScheme(), ...; default: the automatic choice)")
        expect_instance(self, "solver", self.solver, str, "a linear solver's name (fem2d.linalg.solver_names())")
        expect_instance(self, "report", self.report, Report, "a fem2d.Report")
        expect_instance(self, "modified_mass", self.modified_mass, bool, "True or False")
        expect_instance(self, "strict", self.strict, bool, "True or False")
        if self.tangent not in TANGENTS:
            raise ArgumentError(self, "tangent", f"expected one of {', '.join(map(repr, TANGENTS))}, "
                                f"got {self.tangent!r}")
        expect_instance(self, "tangent_refresh", self.tangent_refresh, float | int, "a number in (0, 1)")
        if not 0.0 < self.tangent_refresh < 1.0:
            raise ArgumentError(self, "tangent_refresh", f"expected a number in (0, 1), got {self.tangent_refresh!r}")
        if not (self.initial is None or isinstance(self.initial, Result) or hasattr(self.initial, "compute")):
            raise ArgumentError(self, "initial", f"expected None, a Result or a fem2d.StaticAnalysis, "
                                f"got {self.initial!r}")

    @property
    def inertia(self) -> bool:
        """Whether the run integrates in time: its free dofs need mass, a moving support a massless body."""
        return True

    def smallest_step(self) -> float:
        """The shortest step a failing step is cut to before the run gives up."""
        return self.stepping.min_dt

    def give_up_advice(self) -> str:
        """What the give-up message adds (what to change)."""
        return ""

    def formulation(self, contact: Contact) -> ContactFormulation:
        """The zone's formulation; a penalty method without a Young's modulus
        gets the slave body's (it scales the default penalty coefficients)."""
        method = contact.formulation()
        if getattr(method, "young_modulus", 0.0) is None:
            method = dataclasses.replace(method, young_modulus=self.model.slave_modulus(contact))
        return method

    def current_surfaces(self, system: System) -> list[bool]:
        """Per contact zone, whether its pressure, width and pressure.csv rows are measured
        on the current (deformed) slave surface: its body turns or stretches
        (``"corotational"``, ``"finite"``) and the zone is not axisymmetric
        (:mod:`fem2d.post.pressure`)."""
        return [(body := self.model.slave_body(contact)) is not None and body.nonlinear and not zone.axisymmetric
                for contact, zone in zip(self.model.contacts, system.zones)]

    def start_state(self, stepper: NewmarkStepper, system: System) -> tuple[StepState, list[str]]:
        """The state the run starts from (see ``initial``) and the warnings of the
        preload run here (a :class:`StaticAnalysis` given as ``initial``), said as
        this run's (``preload: ...``).

        After a static run (a preload) the dynamics start from its equilibrium with
        the model's initial velocity (:class:`~fem2d.model.initial.InitialCondition`
        ``velocity``, zero elsewhere): settle under the preload, then launch. An
        initial displacement is refused there: the preload finds the displacement.
        After a direct run its velocity goes on (the model's initial conditions were
        that run's start). The initial acceleration solves :math:`M a = f - K u - C v
        + f_c` with the inherited contact force :math:`f_c` (zero after a converged
        static preload, up to its tolerance)."""
        if self.initial is None:
            return stepper.initial_state(), []
        ran_here = hasattr(self.initial, "compute")
        result = self.initial.compute() if ran_here else self.initial
        fields = result.fields
        ran = (getattr(fields, "source", None), getattr(fields, "model", None))  # the model object, or its snapshot
        if not any(self.model is model for model in ran) or not hasattr(fields, "final_state"):
            raise ModelError(self, "initial", "expected a static or direct run of this analysis' own Model object")
        start = fields.final_state
        if not start.t < self.stepping.end:
            raise ModelError(self, "initial", f"it ends at t = {start.t:g} s, not before the end of this run "
                             f"({self.stepping.end:g} s)")
        u, v, f_c = start.u.copy(), start.v.copy(), start.contact_force
        if getattr(fields, "static", False):  # settled: the dynamics start at the user's velocity
            for condition in self.model.initial:
                if any(condition.displacement):
                    raise ModelError(condition, "displacement", "a static preload (DirectAnalysis.initial) finds "
                                     "the displacement the dynamics start from; give no initial displacement with it")
            v = np.zeros_like(v) if system.initial_velocity is None else system.initial_velocity[system.free].copy()
        rhs = stepper.force_free(start.t) - system.K_free @ u
        if system.C_free is not None:
            rhs = rhs - system.C_free @ v
        if f_c is not None:
            rhs = rhs + f_c
        a = stepper.scheme.initial_acceleration(system, v, rhs, stepper.backend)
        inherited = [f"preload: {warning}" for warning in result.warnings] if ran_here else []
        return (StepState(start.t, u, v, a, start.contact, f_c, start.solution, internal_force=system.K_free @ u),
                inherited)

    def stepper(
        self, system: System, scheme: TimeScheme, backend: SolverBackend, coupling: ContactCoupling | None
    ) -> NewmarkStepper:
        """What advances the assembled system by one step under ``scheme``."""
        return NewmarkStepper(system, scheme, backend, coupling)

    def run(self, progress: Callable[[float], None] | None = None) -> Result:
        """Assemble, integrate, post-process (:meth:`compute`); ``progress(t)`` follows the
        simulated time. Each warning of the result is also a
        :class:`~fem2d.errors.Fem2dWarning`; with ``strict``, any warning raises
        (:func:`~fem2d.runs.result.finished`)."""
        return finished(self.compute(progress), type(self).__name__, self.strict)

    def compute(self, progress: Callable[[float], None] | None = None) -> Result:
        """The result of :meth:`run`, its warnings not yet given to Python's (what
        ``fem2d.run`` and a preload call). With ``stepping.extrapolate``, two runs
        combined (:mod:`fem2d.runs.extrapolation`)."""
        if self.stepping.extrapolate:
            from fem2d.runs.extrapolation import extrapolated_run

            return extrapolated_run(self, progress)
        run = self.integrate(progress)
        fields = DirectFields(self.model, run.system, run.final, run.report_dof, run.snapshots,
                              self.pressure(run.system, run.series))
        quantities = self.quantities(run.system, run.series)
        return Result(quantities, run.timing, run.series, fields, warnings=self.warnings(run, quantities, run.series),
                      notes=[*self.model.volumetric_choices()[0], *run.notes, *self.rest_notes(run.system, run.series)])

    def resolve_scheme(self, system: System) -> tuple[TimeScheme, list[str]]:
        """The scheme the run integrates with (the automatic choice made on ``system``,
        the modified mass applied) and the notes that say what was chosen."""
        scheme, notes = self.scheme, []
        if isinstance(scheme, ContactSchemeChoice):  # chosen on the assembled system, and said so
            if system.nonlinear is not None and not self.modified_mass:
                scheme = NewmarkScheme.generalized_alpha(NONLINEAR_RHO_INF)
                notes.append(f"auto scheme: {scheme.label}, implicit: bodies that turn or stretch (average "
                             "acceleration does not keep their energy: a spinning square's grew without bound)")
            elif self.modified_mass:  # asked for: the choice's implicit scheme, on the modified mass below
                scheme = scheme.implicit
            elif system.zones:
                scheme, note = scheme.choose(system, self.stepping.dt, contact_mass_nodes(system))
                notes.append(note)
            else:
                scheme = scheme.implicit
        if self.modified_mass:
            if not system.zones:
                raise ModelError(self, "modified_mass", "the modified mass method needs a contact zone")
            if not hasattr(scheme, "modified_mass"):
                raise ModelError(self, "scheme", f"{scheme.label} has no modified mass form")
            scheme = scheme.modified_mass(system, contact_mass_nodes(system))
        return scheme, notes

    def integrate(
        self, progress: Callable[[float], None] | None = None, scheme: TimeScheme | None = None
    ) -> Integration:
        """Assemble and march; ``scheme`` (already resolved, see :meth:`resolve_scheme`)
        replaces the analysis' own choice."""
        t_start = time.perf_counter()
        try:
            backend = get_solver(self.solver)
        except FieldError as exc:  # the solver names itself; the case layer names its key
            raise ModelError(self, "solver", exc.message) from None
        system = self.model.assemble(inertia=self.inertia)
        report_dof = self.report.dof(system.mesh)
        t_model = time.perf_counter() - t_start
        coupling = None
        for contact in self.model.contacts:
            if contact.wear is not None and contact.wear.master:
                raise ModelError(contact.wear, "surface", f"{contact.wear.surface!r}: the wear of a master surface "
                                 "is not computed; wear the slave surface (surface = \"slave\")")
        if self.model.contacts:
            # every zone with its own formulation, solved together on the union of their boundaries
            formulations = [self.formulation(contact) for contact in self.model.contacts]
            if getattr(self.scheme, "impulse_law", False) and any(getattr(f, "force_law", False) for f in formulations):
                raise ModelError(self, "scheme", f"{self.scheme.label} imposes contact as a velocity-level impulse "
                                 "law, which a penalty force of the gap is not: use exact contact (Lagrange or "
                                 "continuous) or another scheme")
            coupling = ContactCoupling(system, system.zones, formulations,
                                       wears=[contact.wear for contact in self.model.contacts])
        scheme, notes = (scheme, []) if scheme is not None else self.resolve_scheme(system)
        if system.nonlinear is not None and not isinstance(scheme, NewmarkScheme | StaticScheme):
            body = system.nonlinear.bodies[0]
            raise ModelError(self, "scheme", f"{scheme.label} does not take bodies that turn or stretch (body "
                             f"{body.group!r} is {body.kinematics!r}): use newmark, hht, generalized_alpha or "
                             "modified_mass")
        limit = scheme.critical_step(system)
        if self.stepping.dt > limit * (1.0 + 1e-9):  # before the march, not after it has blown up (round-off: equal)
            raise ModelError(self.stepping, "dt", f"{self.stepping.dt:g} s is above the stability limit "
                             f"{limit:.6g} s of {scheme.label} on this mesh (conditionally stable: the march would "
                             f"blow up); take a step <= {limit:.6g} s or an unconditionally stable scheme")
        stepper = self.stepper(system, scheme, backend, coupling)
        if stepper.newton is not None:  # how the bodies' tangent is kept
            stepper.newton.settings = dataclasses.replace(stepper.newton.settings, tangent=self.tangent,
                                                          refresh=float(self.tangent_refresh))
        current = self.current_surfaces(system)
        history = DirectHistory(system, report_dof, self.report.snapshots, stepper.force_free, scheme.mass(system),
                                stepper.mass_velocity,
                                np.concatenate([zone.slave_nodes for zone in system.zones]) if any(current) else None,
                                scheme)
        history.outside_at_start = outside_at_start(system.zones)  # a node off its master after the 1st step: left
        reactions = self.report.reaction_dofs(system.mesh, system.fixed)
        measures = MeasureRecorder(system, self.report.body_nodes(system.mesh), scheme.mass(system), reactions,
                                   coupling.boundary_nodes if coupling is not None else None,
                                   self.report.group_nodes(system.mesh), stepper.mass_velocity)
        rotations = BodyRotations(system, self.rotating_groups(system))
        state, inherited = self.start_state(stepper, system)
        # what is reported of the dofs without inertia (the modified mass's contact nodes): their rates
        rates = MasslessRates(scheme.mass(system) if scheme.weights(self.stepping.dt)[2] else system.M_free[:0, :0],
                              scheme.contact_velocity_lags)
        history.start(rates.start(state))
        if coupling is not None:
            coupling.start_wear(state.t)
        measures.start(state)
        rotations.start(state)

        # a run that blows up stops at the next check, not at the end (about 512 checks a run)
        watch = StateWatch(every=int(self.stepping.end / self.stepping.dt) // 512, owner=type(self).__name__)

        converged = [state]  # the last converged state (what a failed run's outputs end with)

        def on_step(previous: StepState, new: StepState) -> None:
            reported = rates.on_step(previous, new)
            history.on_step(previous, new, reported)
            measures.on_step(previous, reported)
            rotations.on_step(previous, reported)
            watch.on_step(new.t, new.u, reported.v)
            if coupling is not None:
                coupling.on_step(new.t, new.t - previous.t, new.solution)
            converged[0] = new

        st = self.stepping
        if st.events and coupling is None:
            raise ModelError(st, "events", "locating contact events needs a contact zone")
        events = EventLocator(min_step=st.dt / 2**12) if st.events else None
        friction = coupling is not None and any(contact.mu > 0.0 for contact in self.model.contacts)
        stick_slip = None
        if st.stick_slip and friction:
            stick_slip = StickSlipLocator(coupling, BodyTranslations(system, scheme.mass(system)))
        try:
            kinks = [t for load in system.loads for t in getattr(load.function, "breakpoints", ())]
            t_march = time.perf_counter()
            final = march(
                stepper, state, st.end, st.dt, on_step, st.cut_factor, self.smallest_step(), progress, events,
                stick_slip, kinks, max_step=limit, grow=not self.inertia and coupling is not None,
                advice=self.give_up_advice(),
            )
            t_march = time.perf_counter() - t_march
        except ConvergenceError as exc:
            left = left_master_warnings(history.arrays(), self.model.mesh.source, system.zones)
            # the likely cause, said with the failure; the converged steps kept with it
            failure = ConvergenceError(f"{exc}; before that, {left[0]}") if left else exc
            fields = DirectFields(self.model, system, converged[0], report_dof)
            raise converged_part(failure, fields, history.arrays()) from None
        series = history.arrays()
        measured = measures.arrays()
        if "work_motions" in measured:  # moving supports and obstacles work on the model: a term of the balance
            series["energy_residual"] = series["energy_residual"] - measured["work_motions"]
        series.update({k: v for k, v in measured.items() if k != "time"})
        series.update(rotations.arrays())
        if coupling is not None:
            series.update(wear_series(coupling.wear, system.zones))
        stepper.release()  # the factors are not needed for the post-processing
        counters = stepper.counters
        timing = {
            "steps": counters.steps,
            "step_cuts": counters.cuts,
            "events_impacts": events.impacts if events is not None else 0,
            "events_releases": events.releases if events is not None else 0,
            "events_reversals": stick_slip.reversals if stick_slip is not None else 0,
            "events_stops": stick_slip.stops if stick_slip is not None else 0,
            "events_trial_steps": stick_slip.trials if stick_slip is not None else 0,
            "newton_iterations": counters.newton_iterations,
            "factorizations": counters.factorizations,
            "refactorizations": counters.refactorizations,
            "step_sizes": stepper.step_sizes,
            "factorization_s": counters.factorization_s,
            "refactorization_s": counters.refactorization_s,
            "condensation_s": counters.condensation_s,
            "contact_s": counters.contact_s,
            "solves": counters.solves,
            "solve_s": counters.solve_s,
            "assembly_s": counters.assembly_s,
            "model_s": t_model,
            "integration_s": time.perf_counter() - t_start - t_model,
            # the steps themselves, factorisations included: integration_s less the one-time work
            # around them (the contact coupling, the initial state, the stick/slip locator's bodies)
            "march_s": t_march,
            "n_dofs": int(system.n_dofs),
            "n_free_dofs": int(len(system.free)),
            "n_slave": int(sum(zone.n_slave for zone in system.zones)),
        }
        if stepper.newton is not None:  # bodies that turn or stretch: their Newton iterations
            timing.update({"body_newton_iterations": stepper.newton.iterations,
                           "body_newton_most_iterations": stepper.newton.largest_iterations,
                           "body_tangent_updates": stepper.newton.tangent_updates})
        snapshots = history.snapshots() if history.snapshot_every else None
        final = rates.last if rates.last is not None and rates.last.t == final.t else final
        if counters.inversion_cuts:  # said: the run went on, on shorter steps
            notes.append(f"{counters.inversion_cuts} step(s) turned cells inside out and were cut into "
                         f"{self.stepping.cut_factor} (the shorter steps converged)")
        return Integration(system, scheme, series, timing, final, report_dof, snapshots, notes, inherited)

    def quantities(self, system: System, series: dict[str, np.ndarray]) -> dict[str, float]:
        """The run's quantities, all read from its histories ``series`` (what
        :meth:`integrate` recorded, or a combination of runs: the same function
        serves both, so every quantity follows the series it is read from)."""
        quantities = direct_quantities(self.report, series, any(zone.mu > 0.0 for zone in system.zones))
        r = self.report
        reactions = r.reaction_dofs(system.mesh, system.fixed)
        quantities.update(
            measured_quantities(series, list(r.bodies), [zone.name for zone in system.zones], list(r.at_times),
                                list(reactions), r.impact_threshold, r.impact_quiet, r.window,
                                groups=list(r.groups), n_extrema=r.extrema)
        )
        quantities.update(zone_chatter(series, [z.name for z in system.zones], zone_prefixes(system),
                                       r.impact_threshold)[0])
        if system.zones and "slave_normal_force" in series:
            quantities.update(pressure_quantities(system.zones, series["slave_normal_force"],
                                                  self.model.slave_thicknesses(), zone_prefixes(system),
                                                  slave_displacements(system.zones, series,
                                                                      self.current_surfaces(system))))
        quantities.update(wear_quantities(series, system.zones, zone_prefixes(system)))
        if self.report.modes:
            from fem2d.modal.basis import modal_basis

            for i, f in enumerate(modal_basis(system.K_free, system.M_free, self.report.modes).frequencies, start=1):
                quantities[f"f_{i}"] = float(f)
        return quantities

    def rest_notes(self, system: System, series: dict[str, np.ndarray]) -> list[str]:
        """Why ``t_rest`` is absent where the contact stopped sliding but the body did not come to rest."""
        if self.report.node is None or not any(zone.mu > 0.0 for zone in system.zones):
            return []
        note = rest_note(series["time"], series["u"], series["v"], sliding_records(series))
        return [] if note is None else [note]

    def pressure(self, system: System, series: dict[str, np.ndarray]) -> tuple[list[str], list[list]] | None:
        """The contact pressure at ``Report.pressure_at`` read from ``series`` (pressure.csv), or None."""
        if not self.report.pressure_at:
            return None
        if not system.zones:
            raise ModelError(self.report, "pressure_at", "the model has no contact zone")
        return pressure_rows(system.zones, series["time"], series["slave_normal_force"], self.model.slave_thicknesses(),
                             list(self.report.pressure_at),
                             slave_displacements(system.zones, series, self.current_surfaces(system)),
                             series.get("slave_wear_depth"))

    def rotating_groups(self, system: System) -> dict[str, list[CellBlock]]:
        """The cells of each body (by its group) and of each 2D group of ``report.bodies``,
        whose rigid rotation the run records (:mod:`fem2d.dynamics.rotation`)."""
        names = [body.group for body in self.model.bodies] + list(self.report.bodies)
        return {name: system.mesh.blocks(name) for name in dict.fromkeys(names)}

    def warnings(self, run: Integration, quantities: dict[str, float], series: dict[str, np.ndarray]) -> list[str]:
        """What the run distrusts in itself: its preload's warnings, its mesh's
        (:attr:`Mesh.warnings`), energy created, slave nodes off their master, a body
        turned beyond what the small-displacement model answers rightly."""
        small = [body.group for body in self.model.bodies if not body.nonlinear]
        turned = rotation_warnings(series, small)
        remedy = energy_remedy(run.scheme, self.stepping.events, any(zone.mu > 0.0 for zone in run.system.zones),
                               run.system.nonlinear is not None)
        if (self.model is not None and any(body.nonlinear for body in self.model.bodies)
                and isinstance(run.scheme, NewmarkScheme) and run.scheme.mass_matrix is None
                and not (run.scheme.alpha_m or run.scheme.alpha_f) and run.scheme.gamma == 0.5):
            remedy = (f"average acceleration does not keep the energy of bodies that turn or stretch: use "
                      f"time.scheme = \"generalized_alpha\" (rho_inf = {NONLINEAR_RHO_INF:g})")
        if turned and remedy not in (TO_AUTO, FRICTION_TO_AUTO, DAMP_CHATTER):
            # the energy came from a rotation taken for a strain, not from a scheme known to create it
            remedy = ("a body turned beyond the small-displacement model (see its warning), whose rotation is "
                      "taken for a strain: give it kinematics = \"corotational\" or \"finite\" "
                      "(materials[].kinematics) before changing the time scheme")
        warning = energy_warning(quantities, self.report.energy_tolerance, remedy)
        chattering = zone_chatter(series, [z.name for z in run.system.zones], zone_prefixes(run.system),
                                  self.report.impact_threshold,
                                  chatter_remedy(run.scheme, run.system.nonlinear is not None))[1]
        return [*run.inherited, *self.model.mesh.warnings, *self.model.volumetric_choices()[1],
                *([] if warning is None else [warning]),
                *left_master_warnings(series, self.model.mesh.source, run.system.zones), *turned,
                *penetration_warnings(series, run.system.mesh.points, run.system.zones), *chattering,
                *wear_warnings(series, run.system.zones)]


@dataclass
class Integration:
    """One march of a :class:`DirectAnalysis`, before its quantities: the
    assembled system, the scheme it ran (resolved), the histories (the
    reported dof, energies, contact, measures: :meth:`DirectHistory.arrays`
    and :meth:`MeasureRecorder.arrays` merged), the work counters, the final
    state and the snapshots."""

    system: System
    scheme: TimeScheme
    series: dict[str, np.ndarray]
    timing: dict[str, float]
    final: StepState
    report_dof: int | None
    snapshots: Snapshots | None
    notes: list[str]
    #: the warnings of the preload run before this one (``preload: ...``)
    inherited: list[str] = field(default_factory=list)


#: The automatic scheme's spectral radius at infinite frequency for bodies that turn or stretch:
#: a free square spinning at 2 rad/s (4 x 4 QUAD4, corotational, dt = 0.01 s) kept its energy
#: within 4e-4 through a turn at 0.9, where average acceleration's error grew to 1.6e5 times
#: the energy by half a turn (the trapezoidal rule keeps the energy of linear systems only).
NONLINEAR_RHO_INF = 0.9


def contact_mass_nodes(system: System) -> np.ndarray:
    """The contact zones' boundary nodes that carry mass (the modified mass method's nodes)."""
    nodes = np.unique(np.concatenate([zone.boundary_nodes for zone in system.zones]))
    # a rigid plane's two prescribed end nodes belong to no cell and carry no mass
    bodies = system.mesh.cells_of_dimension(2).values()
    in_cells = sorted_unique(np.concatenate([b.corners.ravel() for b in bodies]))
    return nodes[np.isin(nodes, in_cells)]


def zone_prefixes(system: System) -> list[str]:
    """The quantity prefix of each zone: none for a single zone, its name with several."""
    return [zone_prefix(zone.name) if len(system.zones) > 1 else "" for zone in system.zones]


