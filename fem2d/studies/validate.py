"""The validation suite: every built-in case and variant that has references.

Each case file lists what ``fem2d validate`` runs in its ``[[validation]]``
tables: a ``label``, fixed overrides ``set``, an optional ``grid`` (dotted
key -> list of values; one run per combination) and ``solvers =
"installed"`` for one run per installed direct solver. A variant to which no
reference applies is skipped, and one on a solver that is not installed is not
run (both said in the report; the command line notes the second on stderr). The runs go to a
:mod:`concurrent.futures` executor (local processes by default); the result is
code_aster's TEST_RESU table (reference, source, computed value, error,
tolerance, OK/NOOK) and ``report.md`` with the table and the plots.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from fem2d.errors import Fem2dError
from fem2d.io.tables import check_cells
from fem2d.studies.execution import RunRecord, RunSpec, run_all

HEADER = ["case", "variant", "quantity", "reference", "source", "computed", "error", "tolerance", "status"]

#: the history columns :func:`case_plots` reads (the rest stay in the workers)
PLOT_HISTORIES = ("time", "u", "fn", "normal_force", "f_n", "kinetic", "elastic", "springs", "friction_dissipation",
                  "work_loads", "work_motions", "damping_dissipation", "numerical_dissipation", "normal_contact_work",
                  "energy_residual", "slave_normal_force")


@dataclass
class Suite:
    """The variants to run, as :class:`RunSpec` (``label`` = variant label),
    plus ``skipped`` notes (variants to which no reference applies) and
    ``unavailable`` ones (variants of ``solvers = "installed"`` on a registered
    solver whose package is not installed). A case file or a variant that does
    not load is kept: its run fails with the loading error, so the suite reports
    it as a FAILED row."""

    specs: list[RunSpec] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    unavailable: list[str] = field(default_factory=list)


def _short(key: str, value: Any) -> str:
    """``excitation.a0 = 15.0`` -> ``a0=15``; a string value stands alone (``euler``)."""
    if isinstance(value, str):
        return value
    shown = format(value, "g") if isinstance(value, float) else str(value)
    return f"{key.rsplit('.', 1)[-1]}={shown}"


def suite(cases: Sequence[str] | None = None, root: str | os.PathLike | None = None) -> Suite:
    """The validation runs of ``cases`` (default: every built-in case), from
    their ``[[validation]]`` tables; each run's ``result.json`` goes to
    ``root/<case>/<variant>/`` (the histories feed the plots; ``fem2d run``
    writes them as CSV)."""
    from fem2d.case.loading import builtin_cases, read_case, solver_override
    from fem2d.case.references import applicable
    from fem2d.linalg import get_solver, solver_names
    from fem2d.studies.study import _slug

    out = Suite()
    known, installed = solver_names(), solver_names(installed_only=True)
    for name in cases or builtin_cases():
        try:
            source = read_case(name)  # read once; each variant's settings from it
            base_case = source.load()
        except Fem2dError:  # the run fails with the same message: a FAILED row, not a silent skip
            out.specs.append(RunSpec(name, {}, "(case file)", None))
            continue
        case_name = base_case.name
        for variant in base_case.validation_variants():
            base, grid = variant.label, variant.grid
            solvers = known if variant.every_solver else [None]
            for values in itertools.product(*grid.values()):
                point = dict(zip(grid, values))
                for solver in solvers:
                    overrides = {**variant.overrides, **point}
                    parts = [base, *(_short(k, v) for k, v in point.items())]
                    if solver is not None:
                        overrides |= solver_override(solver)
                        parts.append(solver)
                    label = ", ".join(parts)
                    run_dir = str(Path(root) / case_name / _slug(label.replace(", ", "_"))) if root else None
                    try:
                        # which rows apply; values come with the run
                        refs = applicable(source.load(overrides), base_case)[0]
                    except Fem2dError:  # bad overrides: the run reports it as a FAILED row
                        refs = None
                    if refs == []:
                        out.skipped.append(f"{case_name} [{label}]: no reference applies")
                        continue
                    if solver is not None and solver not in installed:
                        out.unavailable.append(f"{case_name} [{label}]: linear solver {solver!r} is not installed; "
                                               f"{get_solver(solver).install}")
                        continue
                    out.specs.append(RunSpec(name, overrides, label, run_dir, write_history=False,
                                             keep_histories=PLOT_HISTORIES))
    return out


def table_rows(records: Sequence[RunRecord]) -> list[list[str]]:
    """TEST_RESU rows, one per check; a run that failed gives one FAILED row
    with its error message in the source column."""
    rows = []
    for r in records:
        if r.error is not None:
            rows.append([r.case, r.label, "(run)", "-", r.error, "-", "-", "-", "FAILED"])
            continue
        rows += [[r.case, r.label, *check_cells(c)] for c in r.checks]
    return rows


@dataclass
class Validation:
    """The outcome: records in suite order, the skipped notes, wall time (s), the
    variants not run for want of their solver."""

    records: list[RunRecord]
    skipped: list[str]
    wall_s: float
    workers: int | str
    #: per case, the (caption, path) of its figures when they were drawn during the runs
    figures: dict[str, list[tuple[str, Path]]] | None = None
    unavailable: list[str] = field(default_factory=list)

    @property
    def rows(self) -> list[list[str]]:
        return table_rows(self.records)

    @property
    def n_checks(self) -> int:
        return sum(len(r.checks) for r in self.records)

    @property
    def n_failed_checks(self) -> int:
        return sum(not c["passed"] for r in self.records for c in r.checks)

    @property
    def n_failed_runs(self) -> int:
        return sum(r.error is not None for r in self.records)

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.records) and bool(self.records)

    def summary(self) -> str:
        """One line: runs, checks, NOOK, failures, wall time."""
        verdict = "all OK" if self.passed else "FAILURES"
        return (
            f"validate: {len(self.records)} runs, {self.n_checks} checks, {self.n_failed_checks} NOOK, "
            f"{self.n_failed_runs} failed runs; runs took {self.wall_s:.1f} s on {self.workers} workers: {verdict}"
        )


def validate(
    cases: Sequence[str] | None = None,
    root: str | os.PathLike | None = "results/validation",
    executor: Executor | None = None,
    workers: int | None = None,
    on_start: Callable[[int], None] | None = None,
    on_done: Callable[[int, RunRecord], None] | None = None,
    plots: bool = False,
) -> Validation:
    """Run the suite of ``cases`` (default all) on ``executor`` (default
    ``workers`` local processes, one per core); run directories go under
    ``root/<case>/``. ``on_start(n_runs)`` and ``on_done(n_done, record)``
    report progress. With ``plots``, each case's figures are drawn into
    ``root/plots/`` as soon as its last run is in: by a worker of the local
    process pool (the parent only collects), or in this process with another
    executor (a Dask cluster's workers may not see this file system)."""
    from fem2d.errors import InputError
    from fem2d.studies.execution import local_executor

    start = time.perf_counter()
    s = suite(cases, root)
    if not s.specs:
        raise InputError("validate: nothing to run (no [[validation]] variant to which a reference applies)")
    if on_start is not None:
        on_start(len(s.specs))
    n = workers or min(len(s.specs), os.cpu_count() or 1)
    pool = local_executor(n) if executor is None else executor
    plotter = None
    if plots and root is not None:
        local = pool if isinstance(pool, ProcessPoolExecutor) else None
        plotter = _Plotter(s.specs, Path(root) / "plots", s.skipped, local)

    def done(n_done: int, record: RunRecord) -> None:
        if plotter is not None:
            plotter.add(record)
        if on_done is not None:
            on_done(n_done, record)

    try:
        order = longest_first(s.specs)  # submitted so; reported in suite order
        ran = run_all([s.specs[i] for i in order], pool, done)
        records = [record for _, record in sorted(zip(order, ran, strict=True), key=lambda pair: pair[0])]
        figures = plotter.finish() if plotter is not None else None
    finally:
        if executor is None:
            pool.shutdown(wait=False, cancel_futures=True)
    workers_used = n if executor is None else type(executor).__name__
    return Validation(records, s.skipped, time.perf_counter() - start, workers_used, figures, s.unavailable)


def longest_first(specs: Sequence[RunSpec]) -> list[int]:
    """The order in which to submit ``specs`` (indices): longest first, by the wall time
    each run took when it last wrote its ``result.json`` in its own directory, so that no
    long run starts last while the other workers have nothing left; runs never timed there
    come first, in suite order (the suite lists the longest case first).

    >>> longest_first([RunSpec("a"), RunSpec("b")])  # nothing timed: suite order
    [0, 1]
    """
    import json

    def last_wall(spec: RunSpec) -> float:
        if spec.out_dir is None:
            return float("inf")
        try:
            return float(json.loads((Path(spec.out_dir) / "result.json").read_text())["timing"]["wall_s"])
        except (OSError, ValueError, KeyError, TypeError):  # not run there yet, or not readable: unknown
            return float("inf")

    walls = [last_wall(spec) for spec in specs]
    return sorted(range(len(specs)), key=lambda i: -walls[i])


class _Plotter:
    """Draws a case's figures once all of its runs are in (see :func:`validate`): on
    ``pool`` when given (:meth:`finish` collects them), otherwise at once, here."""

    def __init__(self, specs: Sequence[RunSpec], out: Path, notes: list[str],
                 pool: ProcessPoolExecutor | None = None) -> None:
        self.out, self.notes, self.pool = out, notes, pool
        self.drawing: dict[str, Future] = {}
        self.specs = list(specs)  # records come back as copies (pickled): match them by value
        self.left: dict[str, int] = {}
        for spec in specs:
            self.left[spec.case] = self.left.get(spec.case, 0) + 1
        self.done: dict[str, list[tuple[int, RunRecord]]] = {}
        self.figures: dict[str, list[tuple[str, Path]]] = {}

    def add(self, record: RunRecord) -> None:
        key = record.spec.case
        index = next((i for i, spec in enumerate(self.specs) if spec == record.spec), len(self.specs))
        self.done.setdefault(key, []).append((index, record))
        self.left[key] -= 1
        if self.left[key] == 0:
            records = [r for _, r in sorted(self.done.pop(key), key=lambda pair: pair[0])]
            if self.pool is not None:
                self.drawing[record.case] = self.pool.submit(case_plots, record.case, records, self.out)
                return
            try:
                self.figures[record.case] = case_plots(record.case, records, self.out)
            except Exception as exc:  # a plotting problem must not hide the validation table
                self.notes.append(f"{record.case}: plots failed ({type(exc).__name__}: {exc})")

    def finish(self) -> dict[str, list[tuple[str, Path]]]:
        """Every case's figures (waiting for those the pool is drawing)."""
        for case, future in self.drawing.items():
            try:
                self.figures[case] = future.result()
            except Exception as exc:  # a plotting problem (or a lost worker) must not hide the table
                self.notes.append(f"{case}: plots failed ({type(exc).__name__}: {exc})")
        self.drawing.clear()
        return self.figures


# --- the report -------------------------------------------------------------------------------------


def _by_case(records: Sequence[RunRecord]) -> dict[str, list[RunRecord]]:
    groups: dict[str, list[RunRecord]] = {}
    for r in records:
        groups.setdefault(r.case, []).append(r)
    return groups


def _finite(u: np.ndarray) -> bool:
    return bool(len(u)) and bool(np.all(np.isfinite(u)))


def _opens(histories: dict) -> bool:
    """The normal force history shows separate impacts (it returns to zero)."""
    key = _normal_force_key(histories)
    return key is not None and bool(np.any(histories[key] > 0)) and bool(np.any(histories[key] <= 0))


def _normal_force_key(histories: dict) -> str | None:
    return next((k for k in ("fn", "normal_force", "f_n") if k in histories and np.ndim(histories[k]) == 1), None)


def case_plots(case: str, records: Sequence[RunRecord], out_dir: str | os.PathLike) -> list[tuple[str, Path]]:
    """The figures of one case's validation runs, chosen by what the runs
    recorded: the reported dof against its reference curve, the energy
    balance, contact pressure along the interface, wear power against a0,
    impact forces. Returns (caption, path) pairs."""
    from fem2d.case.references import reference_curve, same_physics
    from fem2d.io import plots
    from fem2d.io.vtu import contact_pressure
    from fem2d.post.pressure import extrapolated_to_axis

    out = Path(out_dir)
    ok = [r for r in records if r.error is None]
    if not ok:
        return []
    first = ok[0]
    title = first.run_case.title or case
    if len(ok) == 1 and first.spec.overrides:  # one run: say what it changed
        title = f"{title} [{first.label}]"
    figures: list[tuple[str, Path]] = []
    series = [(r.label, r.histories["time"], r.histories["u"]) for r in ok if _finite(r.histories.get("u", []))]
    if series:
        # one exact curve under every run, when it is every run's (not for a variant that changes the physics)
        same = all(same_physics(first.run_case, r.run_case) for r in ok)
        curve = reference_curve(first.run_case) if same else None
        label = first.run_case.reported_dof
        path = plots.plot_histories(series, out / f"{case}_history.png", curve, label, title)
        figures.append((f"{label.rsplit(' (', 1)[0]} against time" + (f", with the {curve[0]}" if curve else ""), path))
    if "kinetic" in first.histories and "work_loads" in first.histories:
        path = plots.plot_energy(first.histories, out / f"{case}_energy.png", f"{case} [{first.label}]: energy balance")
        figures.append((f"energy balance ({first.label})", path))
    if "slave_normal_force" in first.histories and "slave_area" in first.extras:
        h, area = first.histories, first.extras["slave_area"]
        pressure = extrapolated_to_axis(first.extras["slave_x"], first.extras.get("slave_axis", ()),
                                        contact_pressure(h["slave_normal_force"], area))
        path = plots.plot_contact_pressure(
            first.extras["slave_x"], h["time"], pressure, out / f"{case}_pressure.png",
            title=f"{case} [{first.label}]: contact pressure", areas=area,
        )
        figures.append((f"contact pressure along the interface ({first.label})", path))
    wear = [r for r in ok if "wear_power" in r.quantities and r.run_case.base_excitation is not None]
    if len({r.run_case.base_excitation for r in wear}) >= 2:
        path = _wear_plot(case, wear, out, title)
        if path is not None:
            figures.append(("wear power against the base acceleration, three regimes", path))
    impacts = [r for r in ok if r.quantities.get("n_impacts") and _opens(r.histories)]
    if impacts:
        series = [(r.label, r.histories["time"], r.histories[_normal_force_key(r.histories)]) for r in impacts]
        path = plots.plot_impact_forces(series, out / f"{case}_impacts.png", title)
        figures.append(("impact force histories", path))
    return figures


def _wear_plot(case: str, records: Sequence[RunRecord], out: Path, title: str) -> Path | None:
    """Wear power against a0; the regime bounds need mu, the normal force
    (from the run's normal-force history), the mass and the excitation pulsation."""
    from fem2d.io import plots

    r = records[0]
    key = _normal_force_key(r.histories)
    mass, mu, (_, omega) = r.run_case.point_mass, r.run_case.obstacle_mu, r.run_case.base_excitation
    if key is None or not mass or not mu or not omega:
        return None
    fn = r.histories[key]
    weight = float(np.median(fn[fn > 0])) if np.any(fn > 0) else None
    if not weight:
        return None
    points = [(str(x.run_case.modal_integrator or x.label), x.run_case.base_excitation[0], x.quantities["wear_power"])
              for x in records]
    return plots.plot_wear_power(points, out / f"{case}_wear.png", mu, weight, mass, omega, title)


def report_markdown(result: Validation, figures: dict[str, list[tuple[str, Path]]], base: Path) -> str:
    """``report.md``: summary, the TEST_RESU table, skipped variants, plots."""
    import fem2d

    lines = [
        "# fem2d validation report",
        "",
        f"fem2d {fem2d.__version__}. {result.summary()}.",
        "",
        "Command: `fem2d validate`. Errors are relative unless the tolerance says `abs`.",
        "",
        "| " + " | ".join(HEADER) + " |",
        "|" + "|".join("---" for _ in HEADER) + "|",
    ]
    for row in result.rows:
        cells = [c.replace("|", "\\|") for c in row]
        if cells[-1] != "OK":
            cells[-1] = f"**{cells[-1]}**"
        lines.append("| " + " | ".join(cells) + " |")
    if result.skipped or result.unavailable:
        lines += ["", "Not run:", ""] + [f"- {s}" for s in [*result.unavailable, *result.skipped]]
    for case, figs in figures.items():
        if not figs:
            continue
        lines += ["", f"## {case}", ""]
        for caption, path in figs:
            lines += [f"![{caption}]({path.relative_to(base).as_posix()})", "", f"*{caption}*", ""]
    return "\n".join(lines).rstrip() + "\n"


def write_report(result: Validation, root: str | os.PathLike = "results/validation") -> Path:
    """Write ``root/report.md`` (and ``root/plots/*.png``, ``root/validation.csv``); all atomic."""
    from fem2d.io.files import write_table_csv, write_text_atomic

    base = Path(root)
    figures = result.figures
    if figures is None:
        figures = {case: case_plots(case, recs, base / "plots") for case, recs in _by_case(result.records).items()}
    write_table_csv(base / "validation.csv", HEADER, result.rows)
    path = base / "report.md"
    write_text_atomic(path, report_markdown(result, figures, base))
    return path
