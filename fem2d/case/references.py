"""Which references a run is checked against, and their values for its settings.

A ``[[references]]`` row either stores a number (``value``: code_aster's
printed result, a value from a paper) or leaves ``value`` out and takes it
from the case's exact model (``[exact] model``), computed for the run's own
settings. A stored number was computed for the case file's settings: it
applies when its ``when`` conditions hold *and* no physical setting was
overridden away from the file's value (code_aster's numbers for mu = 0.3 say
nothing about a run with mu = 0.5). Settings that only choose how the answer
is computed (:data:`NUMERICAL`: time scheme, step, mesh, solver, contact
method...) do not void a stored number; its ``when`` says which of them it
depends on.

An exact model is a function ``(case, system) -> ExactReference`` registered
in :data:`EXACT_MODELS`; it reads the physics from the assembled
:class:`~fem2d.model.system.System` and the settings, and raises
:class:`NoExactSolution` (with the reason) when the settings leave the
solution's assumptions. A new case with an exact solution adds one function
here and names it in its ``[exact]`` table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from fem2d.case.loading import Case, load_case
from fem2d.case.reference_cache import CachedReference, ReferenceCache

if TYPE_CHECKING:
    from fem2d.model.system import System

#: Dotted keys (or prefixes ending with ".") that choose how the answer is
#: computed, not what the answer is: overriding them keeps stored values.
NUMERICAL = (
    "case.",
    "time.scheme",
    "time.beta",
    "time.gamma",
    "time.alpha",
    "time.rho_inf",
    "time.theta",
    "time.restitution",
    "time.dt",
    "time.end",
    "time.cut_factor",
    "time.min_dt",
    "time.extrapolate",
    "solver.",
    "mesh.element",
    "mesh.refine",
    "model.lumped_mass",
    "contact.method",
    "contact.e_n",
    "contact.e_t",
    "contact.integration",
    "contact.rho_n",
    "contact.rho_t",
    "contact.max_iter",
    "contact.tolerance",
    "modal.integrator",
    "modal.n_modes",
    "modal.archive",
    "obstacle.kt",
    "obstacle.ct",
    "post.blocks",
    "report.",
    "references",
    "references.",
    "exact.",
    "validation",
    "validation.",
)


class NoExactSolution(Exception):
    """The exact model does not hold for these settings (the message says why)."""


@dataclass(frozen=True)
class ExactReference:
    """Exact values for one run's settings.

    ``value(quantity)`` is the exact value of a reported quantity, or None when
    the model does not give that quantity; ``curve(t)`` the exact reported dof
    at times ``t`` (None: no curve); ``source`` names the model and its
    parameters for the checks table; ``contact_force(t)`` the exact contact
    force history of an impact model (None: none), which ``fem2d compare``
    overlays on the computed ones.
    """

    source: str
    value: Callable[[str], float | None]
    curve: Callable[[np.ndarray], np.ndarray] | None = None
    curve_label: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)
    contact_force: Callable[[np.ndarray], np.ndarray] | None = None


ExactModel = Callable[[Case, "System"], ExactReference]


def _numerical(key: str) -> bool:
    return any(key == n or (n.endswith(".") and key.startswith(n)) for n in NUMERICAL)


def _same(actual: Any, expected: Any) -> bool:
    if isinstance(expected, float | int) and isinstance(actual, float | int) and not isinstance(actual, bool):
        return math.isclose(float(actual), float(expected), rel_tol=1e-12, abs_tol=1e-300)
    if isinstance(expected, list) and isinstance(actual, list):
        return len(actual) == len(expected) and all(_same(a, e) for a, e in zip(actual, expected))
    return actual == expected


def _matches(case: Case, when: Mapping[str, Any]) -> bool:
    """Every ``when`` key holds: equal to the value, or one of a list of values
    (for a setting that is not itself a list)."""
    for key, expected in when.items():
        actual = case.get(key)
        if isinstance(expected, list) and not isinstance(actual, list):
            if not any(_same(actual, e) for e in expected):
                return False
        elif not _same(actual, expected):
            return False
    return True


def changed_physics(case: Case, base: Case | None = None) -> dict[str, Any]:
    """Overridden physical settings whose value differs from the case file's:
    ``{key: the file's value}``; ``base``: the case file loaded without overrides
    (default: read again from ``case.path``)."""
    physical = [k for k in case.overrides if not _numerical(k)]
    if not physical or case.path is None:
        return {}
    if base is None:
        base = load_case(case.path)
    return {k: base.get(k) for k in physical if not _same(case.get(k), base.get(k))}


def same_physics(a: Case, b: Case) -> bool:
    """Whether two runs of a case file differ only in how the answer is computed
    (their physical overrides agree), so one exact curve is both runs'."""
    keys = {k for k in (*a.overrides, *b.overrides) if not _numerical(k)}
    return all(_same(a.get(k), b.get(k)) for k in keys)


def applicable(case: Case, base: Case | None = None) -> tuple[list[dict], list[dict]]:
    """The reference rows that apply to this case's settings, and the stored
    rows that do not because a physical setting changed (``base``: the case file
    without overrides, as :func:`changed_physics` takes it) or because the run's
    ``mesh.refine`` is outside the levels a row states (its ``refine``).

    Among rows of the same quantity and kind (stored with the same source,
    or exact), the most specific one (most ``when`` conditions) wins: it is how
    a case tightens a tolerance for one integrator or scheme. Values are not
    computed here (cheap: no model is built).
    """
    changed = changed_physics(case, base)
    best: dict[tuple[str, str], dict] = {}
    void: list[dict] = []
    level = int(case.get("mesh.refine") or 0)
    for ref in case.settings["references"]:
        when = ref.get("when", {})
        if not _matches(case, when):
            continue
        stored = ref.get("value") is not None
        levels = ref.get("refine")
        if levels is not None and not levels[0] <= level <= levels[1]:
            tolerance = f"{ref['tolerance']:g}{'' if ref['relative'] else ' abs'}"
            void.append({"quantity": ref["quantity"],
                         "source": ref["source"] if stored else f"exact: {case.get('exact.model')}",
                         "reason": f"references do not apply at mesh.refine = {level} (tolerance {tolerance} stated "
                                   f"for mesh.refine {levels[0]} to {levels[1]})"})
            continue
        if stored:
            stale = {k: v for k, v in changed.items() if k not in when}
            if stale:
                reason = ", ".join(f"{k} was {v!r}" for k, v in stale.items())
                void.append({"quantity": ref["quantity"], "source": ref["source"],
                             "reason": f"stored for other settings ({reason})"})
                continue
        key = (ref["quantity"], ref["source"] if stored else "(exact)")
        if key not in best or len(when) > len(best[key].get("when", {})):
            best[key] = ref
    kept = {(v["quantity"], v["source"]) for v in best.values() if v.get("value") is not None}
    void = [v for v in void if (v["quantity"], v["source"]) not in kept]
    return list(best.values()), void


def exact_reference(case: Case, system: System | None = None) -> ExactReference:
    """The case's exact model evaluated for its settings (raises NoExactSolution)."""
    from fem2d.case.exact_models import EXACT_MODELS  # the models use this module's types

    name = case.settings["exact"].get("model")
    if name is None:
        raise NoExactSolution("the case names no [exact] model")
    if name not in EXACT_MODELS:
        raise case.error("exact.model", f"unknown exact model {name!r}; expected one of {sorted(EXACT_MODELS)}")
    from fem2d.case.exact_axisymmetric import AXISYMMETRIC_MODELS

    hypothesis = case.settings["model"]["hypothesis"]
    if (hypothesis == "axisymmetric") != (name in AXISYMMETRIC_MODELS):
        kind = "an axisymmetric" if name in AXISYMMETRIC_MODELS else "a plane-strain/plane-stress"
        raise case.error("exact.model", f"{name!r} is {kind} exact model; this case is {hypothesis} "
                                        "(model.hypothesis)")
    if system is None:
        from fem2d.case.build import build_system

        system = build_system(case)
    return EXACT_MODELS[name](case, system)


def references_for(case: Case, system: System | None = None) -> list[dict]:
    """The references that apply to this case, each with its ``value``
    (exact ones computed for the settings; those the exact model cannot give
    are left out: see :func:`resolve`)."""
    return resolve(case, system)[0]


def exact_values(case: Case, quantities: list[str], system: System | None = None,
                 cache: ReferenceCache | None = None) -> CachedReference:
    """The exact model's values of ``quantities`` for the case's settings (None: the
    model does not give that quantity), or the reason it does not hold.

    With a ``cache`` and the run's ``system`` (whose mesh is part of the key), a
    computation done before for the same settings, mesh and code is read back
    (:mod:`fem2d.case.reference_cache`) instead of computed again.
    """
    key = None
    if cache is not None and system is not None:
        key = cache.key(str(case.settings["exact"].get("model")), case.settings, system.mesh, quantities)
        stored = cache.get(key)
        if stored is not None:
            return stored
    try:
        exact = exact_reference(case, system)
    except NoExactSolution as exc:
        computed = CachedReference(f"exact: {case.settings['exact'].get('model')}", {}, str(exc))
    else:
        values = {q: exact.value(q) for q in quantities}
        computed = CachedReference(exact.source, {q: None if v is None else float(v) for q, v in values.items()})
    if key is not None:
        cache.put(key, computed)
    return computed


def resolve(case: Case, system: System | None = None,
            cache: ReferenceCache | None = None) -> tuple[list[dict], list[dict]]:
    """(references with values, unchecked notes ``{quantity, source, reason}``); exact
    values come from ``cache`` when it holds them (see :func:`exact_values`)."""
    rows, unchecked = applicable(case)
    out = [dict(r) for r in rows if r.get("value") is not None]
    wanted = [r for r in rows if r.get("value") is None]
    if wanted:
        exact = exact_values(case, [r["quantity"] for r in wanted], system, cache)
        if exact.reason is not None:
            unchecked += [{"quantity": r["quantity"], "source": exact.source, "reason": exact.reason} for r in wanted]
        else:
            for r in wanted:
                value = exact.values[r["quantity"]]
                if value is None:
                    unchecked.append({"quantity": r["quantity"], "source": exact.source,
                                      "reason": "the exact solution has no such quantity for these settings"})
                else:
                    out.append({**r, "value": value, "source": exact.source})
    return out, unchecked


def check(ref: Mapping[str, Any], value: float | None) -> dict:
    """One TEST_RESU-like record; a quantity the run did not produce fails (value None)."""
    ref_value = ref["value"]
    if value is None or not math.isfinite(value):
        error, passed = None, False
    elif ref["relative"]:
        error = abs(value - ref_value) / abs(ref_value) if ref_value != 0 else abs(value)
        passed = error <= ref["tolerance"]
    else:
        error = abs(value - ref_value)
        passed = error <= ref["tolerance"]
    return {
        "quantity": ref["quantity"],
        "value": value,
        "reference": ref_value,
        "source": ref["source"],
        "tolerance": ref["tolerance"],
        "relative": ref["relative"],
        "relative_error": error,
        "passed": bool(passed),
    }


def checks_for(
    case: Case, quantities: Mapping[str, float], system: System | None = None, cache: ReferenceCache | None = None
) -> tuple[list[dict], list[dict]]:
    """(check records, unchecked notes) of a run's quantities (exact values from ``cache``
    when it holds them)."""
    refs, unchecked = resolve(case, system, cache)
    return [check(r, quantities.get(r["quantity"])) for r in refs], unchecked


def make_checks(case: Case, quantities: Mapping[str, float], system: System | None = None) -> list[dict]:
    """One TEST_RESU-like record per applicable reference."""
    return checks_for(case, quantities, system)[0]


def reference_curve(case: Case, system: System | None = None) -> tuple[str, Callable] | None:
    """The exact curve of the reported dof as ``(label, f)`` with ``f(t)`` in m,
    or None when the case has none.

    It is the case's exact model (``[exact] model``) computed for these
    settings, or else an explicit ``[report.curve]``: ``function`` names one of
    fem2d's reference curves (:data:`fem2d.exact.curves.CURVES`, checked when the
    case is loaded; a :class:`Case` made otherwise is checked here), called as
    ``f(t, **args)``.
    """
    from fem2d.exact.curves import curve_function, curve_name, unknown_curve

    spec = case.get("report.curve") or {}
    target = spec.get("function")
    if not target:
        return exact_curve(case, system)
    if curve_name(target) is None:
        raise case.error("report.curve.function", unknown_curve(target))
    fn = curve_function(target)
    args = dict(spec.get("args") or {})

    def curve(t: np.ndarray) -> np.ndarray:
        return np.asarray(fn(np.asarray(t, dtype=float), **args), dtype=float)

    return spec.get("label") or "reference", curve


def exact_curve(case: Case, system: System | None = None) -> tuple[str, Callable] | None:
    """``(label, f)`` with ``f(t)`` the exact reported dof, or None."""
    if case.get("exact.model") is None:
        return None
    try:
        exact = exact_reference(case, system)
    except NoExactSolution:
        return None
    return None if exact.curve is None else (exact.curve_label, exact.curve)

