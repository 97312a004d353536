"""``fem2d.refine``: a mesh refinement study from Python, of a case or of an analysis
composed in Python, returned as the tables ``fem2d refine`` prints
(:class:`~fem2d.studies.refine.RefineStudy`)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from typing import Any

from fem2d.studies.execution import RunRecord, RunSpec, local_executor, record_of, run_all
from fem2d.studies.refine import RefineStudy


def refine(case: Any, levels: Sequence[int] = (0, 1, 2, 3), overrides: Mapping[str, Any] | None = None,
           dt_with_h: bool = False, workers: int | None = 1, out: str | os.PathLike | None = None,
           strict: bool = False) -> RefineStudy:
    """Run ``case`` at each refinement level of ``levels`` and return the study, as ``fem2d refine``.

    ``case`` is a built-in name, a TOML path or a loaded :class:`~fem2d.case.loading.Case`
    (level L is ``mesh.refine = L`` with ``overrides``; ``dt_with_h``: ``time.dt / 2**L``, the
    command's ``--dt-with-h``; ``workers`` processes, 1 in this process; ``out``: each level's
    directory ``out/level-L``, nothing written without), or an analysis composed in Python
    (:class:`~fem2d.runs.direct.DirectAnalysis`, :class:`~fem2d.runs.static.StaticAnalysis`):
    level L is its model's mesh with every cell split in four L times (its groups kept), run in
    this process; a composed model has no references, so the study has self-convergence only.

    >>> import fem2d
    >>> study = fem2d.refine("hertz", levels=[0, 1, 2])
    >>> bar = study["contact_half_width"]
    >>> bar.kind, bar.fit_levels, study.exit_status
    ('monotone', (0, 1, 2), 0)
    >>> from fem2d.exact.hertz import HertzLineContact
    >>> exact = HertzLineContact(P=3.6e6, R=0.05, E=2.1e11, nu=0.3).half_width
    >>> abs(bar.extrapolated - exact) <= bar.band
    True
    """
    levels = [int(lv) for lv in levels]
    if not levels or min(levels) < 0 or sorted(set(levels)) != levels:
        raise ValueError(f"levels {levels}: expected increasing levels >= 0")
    if hasattr(case, "model") and callable(getattr(case, "run", None)):
        if overrides or dt_with_h or out is not None:
            raise ValueError("fem2d.refine of an analysis composed in Python takes levels only (overrides, "
                             "dt_with_h and out are a case's)")
        return RefineStudy.of(_analysis_levels(case, levels), strict)
    from fem2d.case.loading import Case, load_case
    from fem2d.studies.study import refine_specs

    if isinstance(case, Case):
        overrides = {**case.overrides, **(overrides or {})}
        case = str(case.path) if case.path is not None else case.name
    elif not isinstance(case, str | os.PathLike):
        raise TypeError(f"fem2d.refine takes a case (a built-in name, a TOML path or a Case) or an analysis "
                        f"(fem2d.DirectAnalysis, fem2d.StaticAnalysis), not a {type(case).__name__}: the levels "
                        "are those of its mesh")
    overrides = dict(overrides or {})
    loaded = load_case(str(case), overrides)
    if loaded.kind == "modal":
        raise loaded.error("case.kind", "a modal case runs on a basis of modes: there is no mesh size h to refine")
    dt = loaded.time_step if dt_with_h else None
    specs = refine_specs(str(case), levels, overrides, out, dt)
    executor = local_executor(workers or min(len(specs), os.cpu_count() or 1))
    try:
        records = run_all(specs, executor)
    finally:
        executor.shutdown(wait=True)
    return RefineStudy.of(records, strict)


def _analysis_levels(analysis: Any, levels: Sequence[int]) -> list[RunRecord]:
    """One record per level of a composed analysis: its model on the mesh split ``level`` times."""
    from fem2d.case.loading import STUDY_KEYS
    from fem2d.mesh.refine import split_uniform

    records = []
    for level in levels:
        model = analysis.model
        if level:
            model = dataclasses.replace(model, mesh=split_uniform(model.mesh, level))
        result = dataclasses.replace(analysis, model=model).run()
        records.append(record_of(result, RunSpec("fem2d", {STUDY_KEYS["refine"]: level}, f"level {level}")))
    return records
