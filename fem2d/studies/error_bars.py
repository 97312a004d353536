"""An error bar on a single run (``report.error_bars = true``): the run's own mesh level
and the coarser levels of its mesh family, each quantity reported as ``value +- GCI``.

A case at ``mesh.refine = L`` is run at L, L-1 and L-2 (each level halves h; a mesh file
has every cell split in four per level, a builder doubles its cell counts), all at the
case's own ``time.dt``: the differences between levels are the mesh's, the time error
the same at each level. Each quantity's convergence over those levels
(:func:`fem2d.studies.convergence.convergence`: observed order, Richardson
extrapolation, Roache's GCI of level L with a safety factor 1.25) is the error bar of the
run's value. At ``L = 1`` only one coarser level exists: the GCI takes the element's
formal order and a safety factor of 3, and its note says so.

Hertz's line contact at level 3 (levels 1, 2 and 3 run), as the gallery's refinement
study shows it (``examples/plot_refinement_study.py``)::

    result = fem2d.run("hertz", {"mesh.refine": 3, "report.error_bars": True})
    bar = result.error_bar("peak_pressure")   # monotone, order 1.99, 2.3001e9 +- 7.7e5 Pa
                                              # Hertz's p0 3.5e5 Pa away: 2.2 x the true error
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from fem2d.studies.convergence import Convergence
from fem2d.studies.execution import InlineExecutor, RunSpec, record_of, run_all
from fem2d.studies.time_mesh import dominant

if TYPE_CHECKING:
    from fem2d.case.loading import Case
    from fem2d.case.reference_cache import ReferenceCache
    from fem2d.runs.result import Result

#: how many levels coarser than the run's own an error bar takes (three levels in all)
COARSER = 2


def error_bar_levels(level: int) -> list[int]:
    """The levels an error bar of a run at ``mesh.refine = level`` runs, coarsest first.

    >>> error_bar_levels(3), error_bar_levels(1)
    ([1, 2, 3], [0, 1])
    """
    return list(range(max(0, level - COARSER), level + 1))


def run(
    case: str | os.PathLike | Case,
    overrides: Mapping[str, Any] | Iterable[str] = (),
    progress: Callable[[float], None] | None = None,
    reference_cache: ReferenceCache | bool = True,
    strict: bool = False,
) -> Result:
    """Run a case, as :func:`fem2d.runs.result.run` (the same arguments, the same
    :class:`~fem2d.runs.result.Result`); with ``report.error_bars = true`` the coarser
    levels of its mesh family too, the result then carrying each quantity's error bar
    (:meth:`Result.error_bar <fem2d.runs.result.Result.error_bar>`, ``error_bars`` in
    result.json). ``progress`` follows the run's own level, which runs first."""
    from fem2d.case.loading import Case, load_case, override_pairs
    from fem2d.runs import result as single

    if not isinstance(case, Case):
        case = load_case(case, overrides)
    elif isinstance(overrides, str) or overrides:
        case = load_case(case.path or case.name, {**case.overrides, **override_pairs(overrides)})
    result = single.run(case, (), progress, reference_cache, strict)
    if not case.get("report.error_bars"):
        return result
    barred = with_error_bars(result, case)
    said = barred.warnings[len(result.warnings):]
    if said:  # the coarser levels' warnings, as the run's own were: Python warnings, or with strict an error
        single.finished(dataclasses.replace(barred, warnings=said), case.where, strict)
    return barred


def with_error_bars(result: Result, case: Case) -> Result:
    """``result`` (of ``case`` at its own level) with the error bar of each quantity,
    from the coarser levels run here, in this process, nothing written. A coarser level
    that failed or warned is said in the result's warnings (``report.error_bars: level
    L: ...``); the bars are then those of the levels that ran."""
    from fem2d.case.loading import STUDY_KEYS
    from fem2d.studies import refine

    level = int(case.get("mesh.refine"))
    source = str(case.path) if case.path is not None else case.name
    specs = [RunSpec(source, {**case.overrides, STUDY_KEYS["refine"]: lv, "report.error_bars": False},
                     f"level {lv}") for lv in error_bar_levels(level)[:-1]]
    records = [*run_all(specs, InlineExecutor()),
               record_of(result, RunSpec(source, {**case.overrides, STUDY_KEYS["refine"]: level}, f"level {level}"))]
    failed = [f"level {refine.level_of(r)} ({r.error})" for r in records if r.error is not None]
    conv = refine.study_convergence(records)
    used = [refine.level_of(r) for r in records if r.error is None]
    span = f"{used[0]}-{used[-1]}" if len(used) > 1 else str(used[0])
    notes = [f"error bars: mesh.refine levels {span} at time.dt = {case.time_step:g} s; each quantity +- the GCI "
             "of level " + f"{level} (Roache's grid convergence index)"]
    warnings = [f"report.error_bars: {'; '.join(failed)} failed: the error bars are of the levels that ran "
                f"({span})"] if failed else []
    warnings += [f"report.error_bars: level {refine.level_of(r)}: {text}" for r in records[:-1] for text in r.warnings]
    return dataclasses.replace(result, error_bars=conv, notes=[*result.notes, *notes],
                               warnings=[*result.warnings, *warnings])


def format_error_bars(error_bars: Mapping[str, Convergence], time_errors: Mapping[str, float] | None = None) -> str:
    """The printed lines of a run's error bars: ``name = value +- band`` with the GCI, the
    order, the extrapolated value and the convergence's note, one quantity a line; with
    ``time_errors`` (a run extrapolated in time) each quantity's time error beside it, and
    which of the two dominates (:func:`fem2d.studies.time_mesh.dominant`).

    >>> from fem2d.studies.convergence import convergence
    >>> print(format_error_bars({"x": convergence([1, 2], [1.04, 1.01])}))
    error bars (mesh):
      x = 1.01 +- 0.03 (GCI 2.97e-02, two levels, order 2, extrapolated 1): two levels: the formal order 2 \
of the element is assumed and Fs = 3 (Roache); a third level measures the order
    """
    lines = ["error bars (mesh):"]
    for name, c in error_bars.items():
        if c.kind == "mesh-converged" and not c.band:
            continue  # the same at every level: a count, a zero
        if c.band is None:
            lines.append(f"  {name} = {c.value:.10g}: no error bar ({c.kind}): {c.note}")
            continue
        said = [f"GCI {c.gci:.2e}" if c.gci is not None else "GCI -", c.kind]
        if c.order is not None:
            said.append(f"order {c.order:.3g}")
        if c.extrapolated is not None:
            said.append(f"extrapolated {c.extrapolated:.10g}")
        if c.asymptotic is not None:
            said.append("asymptotic" if c.asymptotic else "not asymptotic")
        t = (time_errors or {}).get(name)
        if t is not None:
            said.append(f"time error {t:.2g}: the {dominant(c.band, t) or 'mesh'} error dominates")
        lines.append(f"  {name} = {c.value:.10g} +- {c.band:.2g} ({', '.join(said)})" + (f": {c.note}" if c.note
                                                                                          else ""))
    return "\n".join(lines)
