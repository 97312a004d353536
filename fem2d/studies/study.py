"""Many runs of one case: formulation comparison, refinement studies, sweeps.

Every study is a list of :class:`~fem2d.studies.execution.RunSpec` (a case and its
``--set`` overrides) executed by :func:`~fem2d.studies.execution.run_all` on any
:class:`concurrent.futures.Executor` (local processes by default, a Dask
cluster, or in-process); each run writes its own directory and a failed run
becomes a row. The tables are plain ``(header, rows)`` pairs, written as CSV
and printed as text.

    >>> from fem2d.studies.study import grid_specs, run_all
    >>> specs = grid_specs("sdnv104a", {"time.dt": [0.01, 0.005]})
    >>> records = run_all(specs)            # local processes
    >>> [(r.label, round(r.quantities["x_at_1.70"], 4)) for r in records]
    [('time.dt=0.01', 14.8987), ('time.dt=0.005', 14.8987)]
"""

from __future__ import annotations

import itertools
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from fem2d.studies import convergence as convergence_module
from fem2d.studies.execution import (  # noqa: F401  (re-exported: the study API in one place)
    InlineExecutor,
    RunRecord,
    RunSpec,
    dask_executor,
    execute,
    local_executor,
    record_of,
    run_all,
)

Table = tuple[list[str], list[list[Any]]]


# --- sweeps -------------------------------------------------------------------------------------


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=+-]+", "-", text).strip("-") or "run"


def _show(value: Any) -> str:
    return format(value, "g") if isinstance(value, float) else str(value)


def grid_specs(
    case: str,
    grid: Mapping[str, Sequence[Any]],
    overrides: Mapping[str, Any] | None = None,
    root: str | os.PathLike | None = None,
) -> list[RunSpec]:
    """The cartesian product of ``grid`` over ``case`` (with fixed ``overrides``);
    run ``i`` writes ``root/<i>_<key=value>.../`` when ``root`` is given."""
    keys = list(grid)
    specs = []
    for i, values in enumerate(itertools.product(*(grid[k] for k in keys))):
        point = dict(zip(keys, values))
        label = ",".join(f"{k}={_show(v)}" for k, v in point.items())
        run_id = f"{i:03d}_" + _slug("_".join(f"{k}={_show(v)}" for k, v in point.items()))
        out = str(Path(root) / run_id) if root is not None else None
        specs.append(RunSpec(str(case), {**(overrides or {}), **point}, label or case, out))
    return specs


def quantity_names(records: Sequence[RunRecord]) -> list[str]:
    """The union of the records' quantity names, in order of first appearance."""
    names: dict[str, None] = {}
    for r in records:
        names.update(dict.fromkeys(r.quantities))
    return list(names)


def sweep_table(records: Sequence[RunRecord], keys: Sequence[str]) -> Table:
    """One row per run: run id, the grid values, every quantity, check status,
    wall time (s), error message."""
    names = quantity_names(records)
    header = ["run", *keys, *names, "max_rel_error", "status", "wall_s", "error"]
    rows = []
    for r in records:
        run_id = Path(r.spec.out_dir).name if r.spec.out_dir else r.label
        row = [run_id, *(r.spec.overrides.get(k) for k in keys)]
        row += [r.quantities.get(n) for n in names]
        # each run against its own references (exact ones computed for its settings)
        errors = [c["relative_error"] for c in r.checks if c["relative"] and c["relative_error"] is not None]
        row += [max(errors) if errors else None, r.status, r.timing.get("wall_s"), r.error or ""]
        rows.append(row)
    return header, rows


# --- formulation comparison -----------------------------------------------------------------------

DIAGNOSTICS = ("max_penetration", "work_loads", "friction_dissipation")

#: number formats of the diagnostic rows of :func:`compare_table`
COMPARE_FORMATS = {
    "max |u - reference curve| (m)": ".2e",
    "max penetration (m)": ".2e",
    "wall time (s)": ".3g",
    "energy balance error": ".2e",
}


def compare_format(row: Sequence[Any]) -> str | None:
    """Number format of a :func:`compare_table` row: errors and diagnostics
    short, quantities the default."""
    return ".2e" if str(row[0]).startswith("  ") else COMPARE_FORMATS.get(row[0])


#: number formats of the columns of :func:`sweep_table`
STUDY_FORMATS = {"max_rel_error": ".2e", "wall_s": ".3g"}



def compare_specs(
    case: str,
    methods: Sequence[str] = (),
    elements: Sequence[str] = (),
    solvers: Sequence[str] = (),
    overrides: Mapping[str, Any] | None = None,
    root: str | os.PathLike | None = None,
    schemes: Sequence[str] = (),
    discretizations: Sequence[str] = (),
) -> list[RunSpec]:
    """One run per combination of contact method x contact discretization x element x linear
    solver x time scheme (an empty list leaves that setting as the case has it)."""
    from fem2d.case.loading import STUDY_KEYS

    axes = [
        (STUDY_KEYS["method"], list(methods)),
        (STUDY_KEYS["discretization"], list(discretizations)),
        (STUDY_KEYS["element"], list(elements)),
        (STUDY_KEYS["solver"], list(solvers)),
        (STUDY_KEYS["scheme"], list(schemes)),
    ]
    axes = [(k, v) for k, v in axes if v]
    if not axes:
        return [RunSpec(str(case), dict(overrides or {}), str(case), str(Path(root) / "default") if root else None)]
    specs = []
    for values in itertools.product(*(v for _, v in axes)):
        label = "/".join(str(v) for v in values)
        point = {k: v for (k, _), v in zip(axes, values)}
        out = str(Path(root) / _slug(label.replace("/", "-"))) if root is not None else None
        specs.append(RunSpec(str(case), {**(overrides or {}), **point}, label, out))
    return specs


def _error(check: dict) -> float | None:
    return check["relative_error"]


def compare_table(records: Sequence[RunRecord], curve_errors: Mapping[str, float] | None = None,
                  pressure_errors: Mapping[str, float] | None = None) -> Table:
    """Quantities down, variants across: each quantity's value, its error
    against the reference and the tolerance that error is judged against (each
    run's own), then the mesh each run used (its elements and node
    count: the element actually run), max penetration (m), the penalty coefficient
    ``contact.e_n`` each penalty run used (given, or its default), Newton iterations,
    wall time (s), energy balance error (relative to the work of the loads),
    the largest deviation from the reference curve, the relative L2 error of the contact pressure
    profile against the exact one (``pressure_errors``, :mod:`fem2d.studies.profiles`), and the
    check status."""
    header = ["quantity", "reference", *(r.label for r in records)]
    rows: list[list[Any]] = []
    refs: dict[str, dict] = {}
    for r in records:
        for c in r.checks:
            refs.setdefault(c["quantity"], c)
    names = [n for n in quantity_names(records) if n not in DIAGNOSTICS]
    for name in names:
        ref = refs.get(name)
        rows.append([name, ref["reference"] if ref else None, *(r.quantities.get(name) for r in records)])
        if ref is not None:
            checks = [next((c for c in r.checks if c["quantity"] == name), None) for r in records]
            kinds = {"rel." if c["relative"] else "abs." for c in checks if c is not None}
            kind = kinds.pop() if len(kinds) == 1 else "rel./abs."
            rows.append([f"  {kind} error", None, *(None if c is None else _error(c) for c in checks)])
            # each column is judged against its own check's tolerance (a variant may carry its own)
            rows.append(["  tolerance", None, *(None if c is None else c["tolerance"] for c in checks)])
    if curve_errors:
        rows.append(["max |u - reference curve| (m)", None, *(curve_errors.get(r.label) for r in records)])
    if pressure_errors:
        rows.append(["pressure profile L2 error (rel.)", None, *(pressure_errors.get(r.label) for r in records)])
    rows.append(["mesh run", None, *(_mesh_run(r) for r in records)])
    rows.append(["max penetration (m)", None, *(r.quantities.get("max_penetration") for r in records)])
    if any(r.extras.get("e_n") for r in records):
        rows.append(["contact.e_n (N/m)", None, *(r.extras.get("e_n") for r in records)])
    rows.append(["Newton iterations", None, *(r.timing.get("newton_iterations") for r in records)])
    rows.append(["wall time (s)", None, *(r.timing.get("wall_s") for r in records)])
    rows.append(["status", None, *(r.error or r.status for r in records)])
    return header, rows


def _mesh_run(record: RunRecord) -> str | None:
    """What the run meshed: its element kinds and node count (e.g. ``tri6, 914 nodes``)."""
    if not record.mesh:
        return None
    return f"{'+'.join(record.mesh['elements']) or 'no cells'}, {record.mesh['n_nodes']} nodes"


def curve_deviations(records: Sequence[RunRecord]) -> dict[str, float]:
    """Largest |u(t_k) - reference curve(t_k)| (m) of each run whose case
    declares a ``[report.curve]``, by label."""
    from fem2d.case.references import reference_curve
    from fem2d.io.plots import curve_deviation

    out = {}
    for r in records:
        if r.error is None and "u" in r.histories:
            curve = reference_curve(r.run_case)
            if curve is not None:
                out[r.label] = curve_deviation(r.histories["time"], r.histories["u"], curve)
    return out


# --- refinement -------------------------------------------------------------------------------------


def refine_specs(
    case: str,
    levels: Sequence[int],
    overrides: Mapping[str, Any] | None = None,
    root: str | os.PathLike | None = None,
    dt: float | None = None,
) -> list[RunSpec]:
    """One run per ``mesh.refine`` level (each level halves h); with ``dt``
    (the step at level 0), ``time.dt`` halves with h too: ``dt / 2**level``. A case with
    ``report.error_bars`` runs each level alone (the study is its error bars)."""
    from fem2d.case.loading import load_case, refine_overrides

    fixed = dict(overrides or {})
    if load_case(case, fixed).get("report.error_bars"):
        fixed["report.error_bars"] = False
    specs = []
    for level in levels:
        point = {**fixed, **refine_overrides(level, dt)}
        out = str(Path(root) / f"level-{level}") if root is not None else None
        specs.append(RunSpec(str(case), point, f"level {level}", out))
    return specs


def observed_order(e_coarse: float | None, e_fine: float | None, ratio: float = 2.0) -> float | None:
    """``log(e_i / e_{i+1}) / log(h_i / h_{i+1})``; None when undefined (a zero or missing error)."""
    if e_coarse is None or e_fine is None or not (e_coarse > 0 and e_fine > 0):
        return None
    if not (math.isfinite(e_coarse) and math.isfinite(e_fine)):
        return None
    return math.log(e_coarse / e_fine) / math.log(ratio)


MESH_CONVERGED = convergence_module.MESH_CONVERGED


def mesh_converged(records: Sequence[RunRecord], tolerance: float = MESH_CONVERGED) -> dict[str, float]:
    """Quantities that do not change with h: ``{name: largest change / |value|}``
    for those whose every level-to-level change is at most ``tolerance`` of the
    value (a rigid block's motion, a time-step-limited error). Their observed
    orders would be noise; the refinement table (:mod:`fem2d.studies.refine`) leaves them out.

    >>> from fem2d.studies.execution import RunRecord, RunSpec
    >>> runs = [RunRecord(RunSpec("c", {"mesh.refine": lv}), "c", {"x": 2.0 + 1e-9 * lv, "y": 2.0 ** -lv})
    ...         for lv in range(3)]
    >>> {k: round(v, 12) for k, v in mesh_converged(runs).items()}
    {'x': 5e-10}
    """
    ok = [r for r in records if r.error is None]
    out: dict[str, float] = {}
    if len(ok) < 2:
        return out
    for name in quantity_names(ok):
        values = [r.quantities.get(name) for r in ok]
        if any(v is None or not math.isfinite(v) for v in values):
            continue
        scale = max(abs(v) for v in values)
        worst = max(abs(b - a) for a, b in itertools.pairwise(values))
        if scale > 0 and worst <= tolerance * scale:
            out[name] = worst / scale
    return out


# --- writing and printing tables ---------------------------------------------------------------------


def format_study(
    header: Sequence[str],
    rows: Sequence[Sequence[Any]],
    fmt: str = ".10g",
    columns: Mapping[str, str] | None = None,
    row_format: Callable[[Sequence[Any]], str | None] | None = None,
) -> str:
    """A fixed-width text table: numbers by ``fmt``, or ``columns[name]`` for a
    column, or ``row_format(row)`` for a whole row."""
    from fem2d.io.tables import cell, format_table

    columns = columns or {}
    out = []
    for row in rows:
        f_row = row_format(row) if row_format is not None else None
        out.append([cell(v, f_row or columns.get(h, fmt)) for h, v in zip(header, row)])
    return format_table(list(header), out, max_width=70)
