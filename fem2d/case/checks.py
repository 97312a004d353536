"""Checks of a case's settings that need no model: ranges across keys, stable schemes.

:func:`check_settings` runs after the schema (which checks each key alone) and
before anything is computed, so a meaningless setting is one
:class:`~fem2d.errors.InputError` line naming the file and the key, exit 2,
instead of a silently wrong number or a failure after the whole run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fem2d.contact import check_options
from fem2d.errors import FieldError

if TYPE_CHECKING:
    from fem2d.case.loading import Case

#: The smallest relative tolerance an iterative solve can meet in double precision
#: (about 45 machine epsilons); below it the iteration never converges, runs to its
#: maximum and hands back whatever it has.
ROUND_OFF_TOLERANCE = 1e-14


def _inside_run(case: Case, key: str, times: list[float]) -> None:
    end = case.settings["time"]["end"]
    slack = 1e-9 * end
    outside = [t for t in times if not -slack <= t <= end + slack]
    if outside:
        shown = times if key == "post.window" else outside
        raise case.error(key, f"{shown} outside the run; expected times in [0, time.end = {end:g}] s")


def fit_report_to_run(settings: dict, overrides: dict) -> dict:
    """Settings where a run shortened by ``--set time.end`` reports only what it reaches:
    the ``report.at_times`` before the end (the others are not computed, so their
    checks fail as not computed instead of comparing a NaN) and a ``post.window`` cut
    at the end (recorded so in result.json). Times the user set beyond the end, in the
    file with its own end or by ``--set``, stay and are an error of :func:`check_settings`.

    >>> s = {"time": {"end": 1.0}, "report": {"at_times": [0.5, 1.7]}, "post": {"window": [0.5, 2.0]}}
    >>> fitted = fit_report_to_run(s, {"time.end": 1.0})
    >>> fitted["report"]["at_times"], fitted["post"]["window"]
    ([0.5], [0.5, 1.0])
    """
    end = settings["time"].get("end")
    if "time.end" not in overrides or end is None:
        return settings
    settings = dict(settings)
    if "report.at_times" not in overrides:
        kept = [t for t in settings["report"]["at_times"] if t <= end * (1 + 1e-9)]
        settings["report"] = {**settings["report"], "at_times": kept}
    window = settings.get("post", {}).get("window")
    if "post.window" not in overrides and window is not None and window[0] < end < window[1]:
        settings["post"] = {**settings["post"], "window": [window[0], end]}
    return settings


#: The keys of a contact table that are options of its method (checked by fem2d.contact).
CONTACT_OPTIONS = ("e_n", "e_t", "integration", "rho_n", "rho_t", "max_iter", "tolerance", "discretization")


def likely_cause(case: Case) -> tuple[str, str]:
    """(key, text): the setting most likely at fault when a run's state blows up
    (:func:`fem2d.runs.sanity.check_state` says it after what it found)."""
    time = case.settings["time"]
    if case.kind == "modal":
        integrator = case.settings["modal"]["integrator"]
        return "time.dt", (f"{time['dt']:g} s is likely above the stability limit of the explicit {integrator!r} "
                           "integrator with the shock stiffness obstacle.kn engaged; expected a smaller time.dt")
    if time.get("scheme") == "newmark" and time["beta"] < time["gamma"] / 2:
        return "time.beta", (f"{time['beta']:g} < gamma/2 makes Newmark conditionally stable and time.dt = "
                             f"{time['dt']:g} s is likely above its limit; expected beta >= gamma/2 or a smaller "
                             "time.dt")
    return "time.dt", (f"{time['dt']:g} s may be too large for the stiffest contact or material of the model; "
                       "expected a smaller time.dt (or a softer contact.e_n)")


def check_settings(case: Case) -> None:
    """Reject settings whose meaning cannot be what the user wants.

    Times of ``report.at_times`` and ``post.window`` inside [0, ``time.end``];
    contact slave and master distinct groups; no ``contact.wear`` in a modal case; ``contact.tolerance`` above
    round-off; an obstacle with a positive normal stiffness; Newmark's
    ``time.gamma`` at least 1/2 (below, every mode grows, whatever the step);
    an ``exact.model`` that fem2d has.
    """
    s = case.settings
    _inside_run(case, "report.at_times", list(s["report"]["at_times"]))
    _inside_run(case, "report.pressure_at", list(s["report"]["pressure_at"]))
    window = s["post"].get("window")
    if window is not None:
        _inside_run(case, "post.window", list(window))
    zones = s["contact"] if isinstance(s["contact"], list) else [s["contact"]]
    for i, zone in enumerate(zones):
        key = f"contact[{i}]" if isinstance(s["contact"], list) else "contact"
        if zone.get("slave") is not None and zone.get("slave") == zone.get("master"):
            raise case.error(f"{key}.master", f"{zone['master']!r} is also {key}.slave; expected two distinct "
                             "edge groups (the contact would be switched off)")
        options = {k: zone[k] for k in CONTACT_OPTIONS if zone.get(k) is not None}
        try:
            check_options(**options)  # the contact layer's rules, whatever the method
        except FieldError as exc:
            raise case.error(f"{key}.{exc.field}", exc.message) from None
        if zone.get("wear") is not None and s["case"]["kind"] == "modal":
            raise case.error(f"{key}.wear", "a modal case does not wear its contact zones; Archard wear is computed "
                             "in direct and static runs (the modal path's wear power: post.blocks)")
        if zone.get("tolerance", ROUND_OFF_TOLERANCE) < ROUND_OFF_TOLERANCE:
            raise case.error(f"{key}.tolerance", f"{zone['tolerance']:g} is below round-off; expected a relative "
                             f"tolerance >= {ROUND_OFF_TOLERANCE:g}")
    obstacle = s["obstacle"]
    if s["case"]["kind"] == "modal" and obstacle.get("node") is not None and not obstacle["kn"] > 0.0:
        raise case.error("obstacle.kn", f"{obstacle['kn']:g} N/m: an obstacle is declared on "
                         f"{obstacle['node']!r}; expected a shock stiffness > 0")
    time = s["time"]
    if s["case"]["kind"] == "direct" and time["scheme"] == "newmark" and time["gamma"] < 0.5:
        raise case.error("time.gamma", f"{time['gamma']:g} < 1/2 makes Newmark amplify every mode (unstable "
                         "at any step); expected gamma >= 0.5")
    model = s["exact"].get("model")
    if model is not None:
        from fem2d.case.exact_models import EXACT_MODELS  # the models import the case layer

        if model not in EXACT_MODELS:
            raise case.error("exact.model", f"unknown exact model {model!r}; expected one of "
                             f"{', '.join(sorted(EXACT_MODELS))}")
    _check_static_settings(case)


def _check_static_settings(case: Case) -> None:
    """A setting the static path ignores (time scheme, events, inertia and
    damping, initial velocities) is an error in a static case, and the static
    regularisation is one in any other."""
    from fem2d.case.schema import SCHEMA

    s = case.settings
    scheme_keys = ("beta", "gamma", "alpha", "rho_inf", "theta", "restitution")
    defaults = {name: SCHEMA.fields["time"].fields[name].default for name in scheme_keys}
    _check_preload(case)
    if s["case"]["kind"] != "static":
        for i, mat in enumerate(s["materials"]):
            if mat.get("rho") is None:
                raise case.error(f"materials[{i}].rho", f"missing; the density (kg/m^3), which a {s['case']['kind']} "
                                 "case needs (only a static case goes without)")
        preloaded = s["preload"].get("end") is not None
        if not preloaded and s["solver"]["regularization"] != SCHEMA.fields["solver"].fields["regularization"].default:
            raise case.error("solver.regularization", f"a {s['case']['kind']} case does not use it (static cases only)")
        return
    time = s["time"]
    if time["scheme"] != "auto":
        raise case.error("time.scheme", f"{time['scheme']!r}: a static case has no time scheme (leave it out)")
    if time["events"]:
        raise case.error("time.events", "a static case has no contact events to locate (leave it out)")
    for name, default in defaults.items():
        if time.get(name) != default:
            raise case.error(f"time.{name}", "a static case has no time scheme (leave it out)")
    for i, mat in enumerate(s["materials"]):
        if any(mat["rayleigh"]):
            raise case.error(f"materials[{i}].rayleigh", "a static case has no damping (leave it out)")
    for i, init in enumerate(s["initial"]):
        if any(init["velocity"]):
            raise case.error(f"initial[{i}].velocity", "a static case has no velocity (leave it out)")


def _check_preload(case: Case) -> None:
    """``[preload]``: an end before ``time.end``, a step within it, reported
    instants after it (the dynamics start there), and no initial displacement
    (the preload finds the displacement the dynamics start from; the initial
    velocities are given to the settled state)."""
    s = case.settings
    preload = s["preload"]
    if preload.get("end") is None:
        if preload.get("dt") is not None:
            raise case.error("preload.end", "missing; the end of the static phase (s)")
        return
    end = preload["end"]
    if not end < s["time"]["end"]:
        raise case.error("preload.end", f"{end:g} s is not before time.end = {s['time']['end']:g} s")
    if preload.get("dt") is not None and preload["dt"] > end:
        raise case.error("preload.dt", f"{preload['dt']:g} is larger than preload.end = {end:g}")
    early = [t for t in s["report"]["at_times"] if t < end]
    if early:
        raise case.error("report.at_times", f"{early} before the dynamics start at preload.end = {end:g} s")
    for i, init in enumerate(s["initial"]):
        if any(init["displacement"]):
            raise case.error(f"initial[{i}].displacement", f"the static preload (preload.end = {end:g} s) finds the "
                             "displacement the dynamics start from; give no initial displacement with it")
