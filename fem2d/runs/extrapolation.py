r"""Richardson extrapolation in time of a direct run (``time.extrapolate``).

A one-step scheme of order :math:`p` marched with step :math:`h` over a
solution that is smooth between the instants where the march stops on its
own (the load's kinks, the stick/slip stops and reversals located by
:class:`~fem2d.dynamics.stickslip.StickSlipLocator`) has a global error with
an asymptotic expansion

.. math::

    X_h(t) = X(t) + C(t)\, h^p + O(h^{p+1}),

:math:`C` independent of :math:`h` (Hairer, Norsett & Wanner, *Solving ODEs
I*, section II.8; the few irregular steps next to an event add
:math:`O(h^{p+1})` each). Two runs, at :math:`h` and :math:`h/2`, then give

.. math::

    X_R(t) = \frac{2^p X_{h/2}(t) - X_h(t)}{2^p - 1} = X(t) + O(h^{p+1}),
    \qquad
    \varepsilon_{h/2}(t) \approx \frac{X_{h/2}(t) - X_h(t)}{2^p - 1},

the second the a-posteriori error estimate of the :math:`h/2` run
(quantity ``time_error``: its maximum over the run for the reported dof). Each
quantity read from the two runs' own histories gives its own estimate
:math:`|q_{h/2} - q_h| / (2^p - 1)` (``Result.time_errors``, :func:`step_values`),
which a refinement study sets beside its mesh error bar (:mod:`fem2d.studies.time_mesh`).
Why it works through friction events: without locating them a step that
holds a stop or a reversal is first order (its error depends on where the
event falls in the step, which differs between the two grids: no common
:math:`C`); located, both grids have a step end at the event (up to the
locator's own error), the error between events is the smooth one, and the
expansion holds. SDNV104 A at dt = 0.01 (generalized-alpha, rho_inf 0.7):
x(1.70) -3.1e-4 -> +4.4e-6, x(3.40) +3.4e-4 -> +1.7e-6 (docs/theory/time-schemes.md).

The combined histories are at the coarse run's instants. The motion and
the energies (displacements, velocities, momenta, kinetic, elastic and
spring energies, the works and the friction dissipation) are :math:`X_R`,
the :math:`h/2` run read at the coarse instants: its own sample where the
instants coincide (all of the coarse grid, up to the located event instants
and the steps cut after a failure), else a cubic Hermite interpolant in
:math:`(u, v)` for a displacement with its velocity and linear
interpolation for the others (between located events the solution is
smooth; a located event is a sample of both runs, so no interpolation
straddles it). The contact law's unknowns (contact forces, gaps, statuses,
the counts of active and sliding nodes) and the support reactions are the
:math:`h/2` run's sample nearest each instant, not extrapolated: they jump
when a node sticks, slips or opens, and carry the block's unresolved
contact vibration, which has no expansion in :math:`h` (SDNV104 A,
extrapolated: the normal force 4.4e-3 of the weight off instead of 1e-3,
and sliding nodes 18 % off Coulomb's cone at the reversals' instants); one
sample's forces, gaps and statuses obey the contact law together. The
grid columns (``dt``, Newton iterations: :data:`GRID`) are the coarse
run's. Every quantity is then read from the combined histories by
:meth:`DirectAnalysis.quantities <fem2d.runs.direct.DirectAnalysis.quantities>`,
as for one run.

Never silently wrong: when the two runs met different events (counted
impacts, releases, stick/slip stops or reversals, step cuts), or a contact
closed or opened during the run (an impact or a release: there the error
has no expansion in powers of dt; measured on bar_wall and two_bars, the
impulse error of the extrapolation is three times the dt run's), the combination
could be worse than either run; the result is then the :math:`h/2` run,
unextrapolated, with a warning (``fem2d run --strict`` exits 1) rather than
a refusal, since that run is still a valid run of the case at a finer step
and whether a contact opens is known only after the run. A scheme whose
order is not known here (:func:`scheme_order`), and located impacts
(``time.events``), are refused before any run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from fem2d.dynamics.choice import ContactSchemeChoice
from fem2d.dynamics.schemes import NewmarkScheme, TimeScheme
from fem2d.errors import ModelError
from fem2d.post.extrema import hermite
from fem2d.runs.result import Result

if TYPE_CHECKING:
    from fem2d.model.report import Report
    from fem2d.runs.direct import DirectAnalysis, Integration

#: The grid and the work of each step: the coarse run's.
GRID = ("time", "dt", "newton_iterations")

#: The contact law's unknowns (forces, gaps, statuses, the counts of active, sliding and
#: stray nodes) and the support reactions: one run's sample, never extrapolated.
CONTACT_LAW = ("penetration", "normal_force", "tangential_force", "n_active", "n_sliding", "n_left_master")
CONTACT_LAW_SUFFIXES = (":normal_force", ":tangential_force", ":min_gap", ":reaction_x", ":reaction_y")


def contact_law(key: str) -> bool:
    """Whether a history column belongs to the contact law or the reactions
    (read from the dt/2 run's nearest sample, see the module docstring).

    >>> contact_law("slave_status"), contact_law("LESC/LMAI:normal_force"), contact_law("kinetic")
    (True, True, False)
    """
    return key in CONTACT_LAW or key.startswith("slave_") or key.endswith(CONTACT_LAW_SUFFIXES)

#: Timing counters of events: two runs with different counts met different events.
EVENT_COUNTERS = ("events_impacts", "events_releases", "events_reversals", "events_stops", "step_cuts")


def scheme_order(scheme: TimeScheme) -> int | None:
    r"""The order in time of ``scheme`` on a smooth solution, or None when not known.

    The Newmark family (modified mass, HHT, generalized-alpha included) is
    second order when :math:`\gamma = \tfrac12 - \alpha_m + \alpha_f`, else
    first (code_aster's HHT, :math:`\gamma = \tfrac12 - \alpha`); Paoli-Schatzman's
    theta form is second order, Moreau-Jean second order at theta = 1/2.

    >>> scheme_order(NewmarkScheme.generalized_alpha(0.7)), scheme_order(NewmarkScheme.hht(-0.3))
    (2, 1)
    """
    if isinstance(scheme, NewmarkScheme):
        second = abs(scheme.gamma - (0.5 - scheme.alpha_m + scheme.alpha_f)) <= 1e-12
        return 2 if second else 1
    kind = type(scheme).__name__
    if kind == "PaoliSchatzman":
        return 2
    if kind == "MoreauJean":
        return 2 if scheme.theta == 0.5 else 1
    return None


def velocity_of(key: str, series: dict[str, np.ndarray]) -> str | None:
    """The velocity column of a displacement column (``u`` -> ``v``,
    ``G:dx`` -> ``G:vx``), None for the other columns.

    >>> velocity_of("G:dy", {"G:dy": 0, "G:vy": 0}), velocity_of("kinetic", {})
    ('G:vy', None)
    """
    partner = "v" if key == "u" else key[:-2] + "v" + key[-1] if key.endswith((":dx", ":dy")) else None
    return partner if partner in series else None


def read_at(times: np.ndarray, series: dict[str, np.ndarray], instants: np.ndarray) -> dict[str, np.ndarray]:
    """The columns of ``series`` (samples at ``times``) but :data:`GRID` at
    ``instants`` in ``[times[0], times[-1]]``: the sample itself at an
    instant within 1e-9 of the smallest step of one; else the nearest sample
    for the :func:`contact_law` columns (forces, gaps and statuses of one
    sample obey the contact law together), a cubic Hermite interpolant in
    (u, v) for a displacement with a velocity column (:func:`velocity_of`),
    linear interpolation for the others.

    >>> t = np.linspace(0.0, 1.0, 11)
    >>> s = {"time": t, "u": t**3, "v": 3 * t**2, "kinetic": t**2, "normal_force": t}
    >>> out = read_at(t, s, np.array([0.3, 0.36]))
    >>> [round(float(x), 12) for x in out["u"]], [round(float(x), 4) for x in out["kinetic"]]
    ([0.027, 0.046656], [0.09, 0.132])
    >>> out["normal_force"].round(12).tolist()
    [0.3, 0.4]
    """
    k = np.clip(np.searchsorted(times, instants, side="right") - 1, 0, len(times) - 2)
    h = times[k + 1] - times[k]
    w = (instants - times[k]) / h
    tol = 1e-9 * float(np.min(np.diff(times)))
    w[np.abs(instants - times[k]) <= tol] = 0.0
    w[np.abs(instants - times[k + 1]) <= tol] = 1.0
    out = {}
    nearest = np.where(w < 0.5, k, k + 1)
    for key, values in series.items():
        if key in GRID:
            continue
        if contact_law(key):
            out[key] = values[nearest]
            continue
        weight = w.reshape(-1, *([1] * (values.ndim - 1)))
        out[key] = (1.0 - weight) * values[k] + weight * values[k + 1]
        partner = velocity_of(key, series)
        if partner is not None:
            v = series[partner]
            out[key] = hermite(times[k], times[k + 1], values[k], values[k + 1], v[k], v[k + 1], times[k] + w * h)
    return out


def combine(
    coarse: dict[str, np.ndarray], fine: dict[str, np.ndarray], order: int
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    r"""The histories of :math:`X_R = (2^p X_f - X_c) / (2^p - 1)` at the coarse
    instants, and the fine run's error estimate :math:`(X_f - X_c) / (2^p - 1)`
    of each extrapolated column. :data:`GRID` columns are the coarse run's,
    :func:`contact_law` columns the fine run's (:func:`read_at`); a sample
    that is not finite in either run stays the coarse run's.

    >>> t_c, t_f = np.linspace(0, 1, 3), np.linspace(0, 1, 5)
    >>> exact = lambda t: np.exp(t)
    >>> c = {"time": t_c, "x": exact(t_c) + 0.04 * t_c}      # error C h^2, h = 0.5
    >>> f = {"time": t_f, "x": exact(t_f) + 0.01 * t_f}      # h = 0.25
    >>> series, error = combine(c, f, order=2)
    >>> np.allclose(series["x"], exact(t_c)), np.allclose(error["x"], -0.01 * t_c)
    (True, True)
    """
    factor = 2.0**order
    at_coarse = read_at(fine["time"], fine, coarse["time"])
    series, error = dict(coarse), {}
    for key, x_f in at_coarse.items():
        if contact_law(key):
            series[key] = x_f
            continue
        x_c = coarse[key]
        finite = np.isfinite(x_c) & np.isfinite(x_f)
        with np.errstate(invalid="ignore"):  # inf - inf where a sample is not finite: not used
            series[key] = np.where(finite, (factor * x_f - x_c) / (factor - 1.0), x_c)
            error[key] = np.where(finite, (x_f - x_c) / (factor - 1.0), 0.0)
    return series, error


def mismatch(coarse: Integration, fine: Integration) -> str | None:
    """Why two runs cannot be combined (they met different events, or their
    histories differ in shape), or None.

    The sentence names the counters that differ, e.g. ``the runs met different
    events: events_reversals 3 at dt, 2 at dt/2``.
    """
    differ = [f"{key} {coarse.timing[key]} at dt, {fine.timing[key]} at dt/2" for key in EVENT_COUNTERS
              if coarse.timing.get(key, 0) != fine.timing.get(key, 0)]
    if set(coarse.series) != set(fine.series):
        differ.append("their histories have different columns")
    elif any(coarse.series[k].shape[1:] != fine.series[k].shape[1:] for k in coarse.series):
        differ.append("their per-node histories have different widths")
    if coarse.series["time"][-1] != fine.series["time"][-1] or coarse.series["time"][0] != fine.series["time"][0]:
        differ.append("they span different times")
    return f"the runs met different events: {'; '.join(differ)}" if differ else None


def impacts_or_releases(series: dict[str, np.ndarray], zones: list[str]) -> str | None:
    """The contact zones whose contact closed or opened during the run (their
    normal force vanished or appeared after the first step: an impact or a
    release), or None. After such an event the error of a run has no
    expansion in powers of dt (docs/theory/time-schemes.md: on bar_wall and two_bars
    the extrapolation's impulse error is three times the dt run's).

    >>> impacts_or_releases({"W:normal_force": np.array([0.0, 0.0, 5.0, 5.0])}, ["W"])
    'the contact of W closed or opened during the run'
    >>> impacts_or_releases({"W:normal_force": np.array([0.0, 1.0, 5.0, 5.0])}, ["W"]) is None
    True
    """
    changed = []
    for zone in zones:
        force = series.get(f"{zone}:normal_force")
        if force is None or len(force) < 2:
            continue
        open_ = force[1:] == 0.0  # the first instant has no contact solution
        if open_.any() and not open_.all():
            changed.append(zone)
    if not changed:
        return None
    return f"the contact of {', '.join(changed)} closed or opened during the run"


def combined_timing(coarse: Integration, fine: Integration) -> dict[str, float]:
    """The work of both runs: counters and times summed; the events met
    (the same in both runs when they are combined) and the sizes of the
    problem once; each run's steps and integration time apart (``*_dt``,
    ``*_dt2``)."""
    timing = {}
    for key, value in fine.timing.items():
        once = key.startswith("n_") or (key.startswith("events_") and key != "events_trial_steps")
        timing[key] = value if once else coarse.timing[key] + value
    timing.update(steps_dt=coarse.timing["steps"], steps_dt2=fine.timing["steps"],
                  integration_dt_s=coarse.timing["integration_s"], integration_dt2_s=fine.timing["integration_s"])
    return timing


#: A run warns when its own time-error estimate exceeds this fraction of the largest reported displacement.
TIME_ERROR_FRACTION = 0.01


def time_error_warning(time_error: float, u: np.ndarray, report: Report) -> str | None:
    """A warning when ``time_error`` (the dt/2 run's estimated error on the reported displacement ``u``)
    exceeds :data:`TIME_ERROR_FRACTION` of the largest ``|u|``: the motion's quantities (x_at_T,
    x_ext_k, t_ext_k, t_rest...) may be that far off, and an extremum may be missing.

    >>> from fem2d.model.report import Report
    >>> time_error_warning(1e-4, np.array([0.0, 15.0]), Report("A", "dx")) is None
    True
    >>> print(time_error_warning(1.08, np.array([0.0, 15.0]), Report("A", "dx")))
    time.dt: the run's own estimate of its time error on dx of A (time_error = 1.08 m) is 7.2 % of its \
largest value (15 m), above 1 %: its displacements, extrema and times may be off by as much; take a smaller time.dt
    """
    scale = float(np.max(np.abs(u))) if len(u) else 0.0
    if not time_error > TIME_ERROR_FRACTION * scale:
        return None
    return (f"time.dt: the run's own estimate of its time error on {report.component} of {report.node} "
            f"(time_error = {time_error:.3g} m) is {100.0 * time_error / scale:.2g} % of its largest value "
            f"({scale:.3g} m), above "
            f"{100.0 * TIME_ERROR_FRACTION:g} %: its displacements, extrema and times may be off by as much; "
            "take a smaller time.dt")


def extrapolated_run(analysis: DirectAnalysis, progress: Callable[[float], None] | None = None) -> Result:
    """Run ``analysis`` at ``stepping.dt`` and ``dt/2`` with one scheme and
    combine them (see the module docstring).

    The scheme is resolved once, on the coarse run (an automatic choice is not
    made again at dt/2, where the explicit scheme could become stable). The
    result's histories and quantities are the combination's (:func:`combine`:
    the contact law's columns, so the pressure rows, are the dt/2 run's); its
    final state and system (``fields``, what a following run starts from) the
    dt/2 run's; its displacement snapshots the dt run's (they index the
    histories' instants, which are the dt run's). ``notes`` say so.

    A cantilever under a tip load that follows a sine, the tip's deflection at
    0.2 s against a run at a fifty times smaller step:

    >>> import math
    >>> from fem2d.mesh import rectangle
    >>> from fem2d.model import Body, Model, Report, Support, TimeStepping, Traction
    >>> from fem2d.model.timefunctions import Sine
    >>> from fem2d.runs.direct import DirectAnalysis
    >>> beam = Model(rectangle(length=10.0, height=0.5, nx=10, ny=1),
    ...              bodies=[Body("BODY", E=2.1e11, nu=0.0, rho=7800.0, hypothesis="plane_stress")],
    ...              supports=[Support("LEFT")], loads=[Traction("RIGHT", (0.0, 2e4), Sine(1.0, 4 * math.pi))])
    >>> def tip(dt, extrapolate=False):
    ...     stepping = TimeStepping(dt=dt, end=0.2, extrapolate=extrapolate)
    ...     return DirectAnalysis(beam, stepping, report=Report("NE", "dy", at_times=[0.2])).run()
    >>> converged = tip(2e-4).quantities["x_at_0.20"]
    >>> plain, extrapolated = tip(0.01), tip(0.01, extrapolate=True)
    >>> errors = [abs(r.quantities["x_at_0.20"] - converged) for r in (plain, extrapolated)]
    >>> errors[1] < errors[0] / 10, extrapolated.timing["steps_dt"], extrapolated.timing["steps_dt2"]
    (True, 20, 40)
    """
    stepping = analysis.stepping
    end = stepping.end
    if stepping.events:  # bar_bounce: 75 impacts and 96 releases located at dt, 72 and 75 at dt/2
        raise ModelError(stepping, "extrapolate", "refused with located impacts and releases (events): "
                         "the error after an impact has no expansion in powers of dt (docs: theory, time schemes)")

    def part(share: float, offset: float) -> Callable[[float], None] | None:
        return None if progress is None else (lambda t: progress(offset + share * t))

    coarse = analysis.integrate(part(1.0 / 3.0, 0.0))
    order = scheme_order(coarse.scheme)
    if order is None:
        raise ModelError(stepping, "extrapolate", f"the order in time of {coarse.scheme.label} is not known "
                         "here: Richardson extrapolation needs it")
    half = dataclasses.replace(stepping, dt=stepping.dt / 2.0, extrapolate=False)
    fine_analysis = dataclasses.replace(analysis, stepping=half)
    fine = fine_analysis.integrate(part(2.0 / 3.0, end / 3.0), scheme=coarse.scheme)
    timing = combined_timing(coarse, fine)
    notes = [*analysis.model.volumetric_choices()[0], *coarse.notes]
    if isinstance(analysis.scheme, ContactSchemeChoice) and coarse.system.zones:
        notes.append(f"the dt/2 run kept the scheme chosen at dt ({coarse.scheme.label})")
    dt = f"dt = {stepping.dt:g} s and dt/2 = {half.dt:g} s"
    why = mismatch(coarse, fine) or impacts_or_releases(coarse.series, [z.name for z in coarse.system.zones])
    if why is not None:
        series, error = fine.series, {}  # no error estimate either: it assumes the same expansion
        warnings = [f"time.extrapolate: not extrapolated ({why}; runs at {dt}): the result is the dt/2 run's"]
        notes.append(f"the dt/2 run ({half.dt:g} s), unextrapolated: {why}")
        snapshots = fine.snapshots
    else:
        series, error = combine(coarse.series, fine.series, order)
        warnings = []
        notes.append(f"Richardson extrapolation of order {order} of runs at {dt}: at the dt run's instants, "
                     "motion and energies (2^p X(dt/2) - X(dt)) / (2^p - 1); contact forces, gaps, statuses, "
                     "reactions (so pressure rows) and the final state the dt/2 run's; snapshots the dt run's")
        snapshots = coarse.snapshots
    from fem2d.runs.direct import DirectFields

    quantities = analysis.quantities(fine.system, series)
    steps = {} if why is not None else step_values(analysis, coarse, fine, quantities)
    time_errors = {name: abs(b - a) / (2.0**order - 1.0) for name, (a, b) in steps.items()}
    if "u" in error and np.isfinite(error["u"]).all():
        quantities["time_error"] = float(np.max(np.abs(error["u"])))
        warning = time_error_warning(quantities["time_error"], series["u"], analysis.report)
        if warning is not None:
            warnings.append(warning)
    fields = DirectFields(analysis.model, fine.system, fine.final, fine.report_dof, snapshots,
                          analysis.pressure(fine.system, series))
    warnings += analysis.warnings(fine, quantities, series)
    notes += analysis.rest_notes(fine.system, series)
    return Result(quantities, timing, series, fields, warnings=warnings, notes=notes, time_errors=time_errors,
                  step_values=steps)


def step_values(analysis: DirectAnalysis, coarse: Integration, fine: Integration,
                quantities: dict[str, float]) -> dict[str, tuple[float, float]]:
    r"""Each of ``quantities`` read from the dt run's and from the dt/2 run's own histories,
    ``(q_h, q_{h/2})``: the time error estimate of a quantity is
    :math:`|q_{h/2} - q_h| / (2^p - 1)` (the dt/2 run's error, as ``time_error`` is for the
    reported displacement; the extrapolated value's is smaller, :math:`O(h^{p+1})`). A quantity
    missing or not finite in either run has none; the natural frequencies (``report.modes``)
    do not depend on the step and are not read again."""
    plain = analysis
    if analysis.report.modes:
        plain = dataclasses.replace(analysis, report=dataclasses.replace(analysis.report, modes=0))
    q_coarse = plain.quantities(coarse.system, coarse.series)
    q_fine = plain.quantities(fine.system, fine.series)
    out = {}
    for name in quantities:
        a, b = q_coarse.get(name), q_fine.get(name)
        if a is not None and b is not None and np.isfinite(a) and np.isfinite(b):
            out[name] = (float(a), float(b))
    return out
