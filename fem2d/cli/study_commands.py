"""The many-run commands: ``validate``, ``compare``, ``refine``, ``study``, and the
parsing of their ``--grid``, ``--levels`` and worker options."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fem2d.cli.interrupts import Interrupted, after_runs, said_on_interrupt
from fem2d.errors import FieldError, InputError, OverrideError


def _add_common(p, workers_default: int | None, workers_help: str) -> None:
    p.add_argument("--out", default=None, metavar="DIR", help="output directory")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--workers", type=int, default=workers_default, metavar="N", help=workers_help)


def _add_set(p) -> None:
    p.add_argument(
        "--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
        help="override a key of the case file for every run (value parsed as TOML)",
    )


def _add_strict(p) -> None:
    p.add_argument(
        "--strict", action="store_true",
        help="exit 1 when any run warned (a slave node leaving its master surface, ...); a run that created "
             "energy beyond post.energy_tolerance exits 1 without it",
    )


def _said_warnings(command: str, records, label=None) -> None:
    """Each run's warnings, one line each on stderr: ``fem2d COMMAND: warning: RUN: TEXT``
    (as ``fem2d run`` says them; their Python warnings are not shown, see fem2d.cli.main)."""
    for r in records:
        for text in r.warnings:
            print(f"fem2d {command}: warning: {label(r) if label else r.label}: {text}", file=sys.stderr)


def _exit_status(records, strict: bool) -> int:
    """The exit status of a many-run command, by the rule of ``fem2d run``: 1 when a run
    failed, a check was NOOK, a run created energy, or (``--strict``) a run warned; else 0."""
    if not all(r.passed for r in records) or any(r.energy_grew for r in records):
        return 1
    return 1 if strict and any(r.warnings for r in records) else 0


def _list(text: str | None) -> list[str]:
    return [v.strip() for v in text.split(",") if v.strip()] if text else []


def _workers(n: int | None) -> int | None:
    if n is not None and n < 1:
        raise InputError(f"--workers {n}: expected an integer >= 1")
    return n


class _RunsProgress:
    """A progress bar counting finished runs (runs of a study)."""

    def __init__(self, label: str, quiet: bool) -> None:
        self.label, self.quiet, self.bar = label, quiet, None

    def start(self, total: int) -> None:
        from fem2d.io.progress import ProgressBar

        self.bar = ProgressBar(f"{self.label} ({total} runs)", total, enabled=not self.quiet).__enter__()

    def done(self, n: int, record) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def _execute(specs, executor, label: str, quiet: bool, runner=None):
    """Run specs with a progress bar: on ``executor`` by run_all, or by
    ``runner(specs, on_done)`` (a Dask cluster)."""
    import time

    from fem2d.studies.execution import run_all

    progress = _RunsProgress(label, quiet)
    progress.start(len(specs))
    reported: set[str] = set()  # the runs reported finished, by output directory (or label)
    start_ns = time.time_ns()

    def on_done(n: int, record) -> None:
        reported.add(record.spec.out_dir or record.label)
        progress.done(n, record)

    try:
        return runner(specs, on_done) if runner is not None else run_all(specs, executor, on_done)
    except KeyboardInterrupt:
        # counted once every writer has stopped: a run may have written its result.json as the
        # signal came, before it was reported
        finished = reported | {s.out_dir for s in specs if _written_since(s.out_dir, start_ns)}
        raise Interrupted(f"fem2d: {label} interrupted after {len(finished)} of {len(specs)} runs; the finished "
                          "runs kept their result.json, the others and the summary table were not written") from None
    finally:
        progress.close()


def _written_since(out_dir: str | None, start_ns: int) -> bool:
    """Whether ``out_dir/result.json`` was written at or after ``start_ns`` (ns since the epoch)."""
    if out_dir is None:
        return False
    try:
        return (Path(out_dir) / "result.json").stat().st_mtime_ns >= start_ns
    except OSError:
        return False


def _add_validate(sub) -> None:
    p = sub.add_parser("validate", help="run every built-in case and variant that has references (TEST_RESU table)")
    p.add_argument("cases", nargs="*", metavar="CASE", help="only these cases (default: all built-in cases)")
    _add_common(p, None, "parallel processes (default: one per core; 1 runs in this process)")
    p.add_argument("--no-plots", action="store_true", help="write report.md without the plots")
    _add_strict(p)
    p.set_defaults(func=_cmd_validate)


def _cmd_validate(args) -> int:
    import time

    from fem2d.case.loading import case_path
    from fem2d.io.files import write_text_atomic
    from fem2d.io.outdir import check_output_dir
    from fem2d.io.tables import format_table
    from fem2d.studies.validate import HEADER, report_markdown, validate, write_report

    start = time.perf_counter()
    for name in args.cases:  # a name typed wrong is one line now; a broken case file is a FAILED row
        case_path(name)
    root = check_output_dir(Path(args.out) if args.out is not None else Path("results") / "validation")
    progress = _RunsProgress("validate", args.quiet)
    finished = [0, 0]

    def on_start(n: int) -> None:
        finished[1] = n
        progress.start(n)

    def on_done(n: int, record) -> None:
        finished[0] = n
        progress.done(n, record)

    try:
        try:
            result = validate(args.cases or None, root, workers=_workers(args.workers), on_start=on_start,
                              on_done=on_done, plots=not args.no_plots)
        finally:
            progress.close()
        print(format_table(HEADER, result.rows, max_width=48))
        for note in result.skipped:
            print(f"not run: {note}")
        for note in result.unavailable:
            print(f"fem2d validate: note: not run: {note}", file=sys.stderr)
        _print_failures(result.records)
        _said_warnings("validate", result.records, lambda r: f"{r.case} [{r.label}]")
        if args.no_plots:
            path = root / "report.md"
            write_text_atomic(path, report_markdown(result, {}, root))
        else:
            path = write_report(result, root)
    except KeyboardInterrupt:
        raise Interrupted(f"fem2d: validate interrupted after {finished[0]} of {finished[1]} runs; the finished "
                          "runs kept their result.json, report.md was not written") from None
    with said_on_interrupt(after_runs("validate", finished[1], "report.md", True)):
        print(result.summary())
        print(f"wrote {path} in {time.perf_counter() - start:.1f} s in all")
    return max(0 if result.passed else 1, _exit_status(result.records, args.strict))


def _add_compare(sub) -> None:
    p = sub.add_parser("compare", help="compare contact formulations, elements and solvers on one case")
    p.add_argument("case", help="built-in case name or TOML path")
    p.add_argument("--methods", default=None, help="contact methods, e.g. lagrange,penalty,continuous "
                   "(default: all three when the case has contact)")
    p.add_argument("--discretizations", default=None, help="contact discretizations, node_to_segment,mortar "
                   "(default: the case's)")
    p.add_argument("--elements", default=None, help="elements, e.g. quad4,quad8 (default: the case's)")
    p.add_argument("--solvers", default=None, help="direct solvers, e.g. superlu,pardiso (default: the case's)")
    p.add_argument("--schemes", default=None, help="time schemes, e.g. newmark,hht,generalized_alpha,modified_mass "
                   "(default: the case's)")
    _add_set(p)
    _add_common(p, None, "parallel processes (default: one per core; 1 runs in this process)")
    _add_strict(p)
    p.set_defaults(func=_cmd_compare)


def _cmd_compare(args) -> int:
    from fem2d.case.loading import load_case, parse_overrides
    from fem2d.case.schema import METHODS
    from fem2d.io.files import write_table_csv
    from fem2d.io.outdir import check_output_dir
    from fem2d.studies.profiles import compare_pressure_figure, pressure_errors
    from fem2d.studies.study import (
        compare_format,
        compare_specs,
        compare_table,
        curve_deviations,
        format_study,
    )

    overrides = parse_overrides(args.overrides)
    case = load_case(args.case, overrides)
    has_contact = case.has_contact
    methods = _list(args.methods)
    if methods and not has_contact:
        raise InputError(f"--methods: {case.name} has no contact zone; compare --elements or --solvers instead")
    discretizations = _list(args.discretizations)
    if discretizations and not has_contact:
        raise InputError(f"--discretizations: {case.name} has no contact zone; compare --elements or --solvers instead")
    schemes = _list(args.schemes)
    if schemes and case.kind != "direct":
        raise InputError(f"--schemes: {case.name} is a {case.kind} case; time schemes are those of direct runs")
    if args.methods is None and has_contact and not schemes and not discretizations:
        methods = list(METHODS)
    root = check_output_dir(Path(args.out) if args.out is not None else Path("results") / case.name / "compare")
    from fem2d.linalg import get_solver

    for name in _list(args.solvers):  # an unknown or absent backend is one line now, not a failed row per run
        try:
            get_solver(name)
        except FieldError as exc:  # --solvers sets each run's solver.linear
            raise InputError(f"{case.where}: solver.linear: {exc.message}") from None
    specs = compare_specs(args.case, methods, _list(args.elements), _list(args.solvers), overrides, root, schemes,
                          discretizations)
    for spec in specs:  # bad names fail here, once, rather than in every run
        load_case(args.case, spec.overrides)
    records = _run_local(specs, args, "compare")
    with said_on_interrupt(after_runs("compare", len(specs), "compare.csv", False)):
        header, rows = compare_table(records, curve_deviations(records), pressure_errors(records))
        print(format_study(header, rows, row_format=compare_format))
        csv_path = write_table_csv(root / "compare.csv", header, rows)
    with said_on_interrupt(after_runs("compare", len(specs), "compare.csv", True)):
        png = _history_plot(records, root / "compare.png", f"{case.name}: comparison")
        profiles = compare_pressure_figure(records, root / "compare_pressure.png", f"{case.name}: contact pressure")
        figures = [p for p in (png, profiles, *_impact_plots(records, root, case)) if p is not None]
        _print_failures(records)
        _said_warnings("compare", records)
        print(f"wrote {csv_path}" + (f" and {', '.join(str(p) for p in figures)}" if figures else ""))
    return _exit_status(records, args.strict)  # a NOOK row fails the comparison as it fails fem2d run


def _run_local(specs, args, label: str):
    from fem2d.studies.execution import local_executor

    executor = local_executor(_workers(args.workers) or min(len(specs), os.cpu_count() or 1))
    try:
        records = _execute(specs, executor, label, args.quiet)
    except BaseException:
        executor.shutdown(wait=False, cancel_futures=True)  # run_all stopped the workers already
        raise
    with said_on_interrupt(after_runs(label, len(specs), "the summary table", False)):
        executor.shutdown(wait=True)  # every run is done: its threads end now, not at interpreter exit
    return records


def _history_plot(records, path: Path, title: str) -> Path | None:
    """The reported displacement of every run against time, over the reference curve
    (modal runs: their first modal coordinate); None when no run finished."""
    from fem2d.case.references import reference_curve
    from fem2d.io import plots

    ok = [r for r in records if r.error is None and "u" in r.histories]
    if not ok:  # modal runs: their first modal coordinate
        modal = [r for r in records if r.error is None and "q_1" in r.histories]
        series = [(r.label, r.histories["time"], r.histories["q_1"]) for r in modal]
        return plots.plot_histories(series, path, None, "modal coordinate q_1", title) if series else None
    series = [(r.label, r.histories["time"], r.histories["u"]) for r in ok]
    case = ok[0].run_case
    return plots.plot_histories(series, path, reference_curve(case), case.reported_dof, title)


def _impact_plots(records, root: Path, case) -> list[Path]:
    """With contact: the contact force and the energy drift of every run
    overlaid on the exact curves (the bar cases' force, a constant energy).
    A run without an energy history (a modal run) is left out of the energy
    plot, which is not drawn when no run has one."""
    from fem2d.case.exact_impacts import exact_force_curve
    from fem2d.io import plots
    from fem2d.post.energy import energy_balance, energy_scale

    ok = [r for r in records if r.error is None and "normal_force" in r.histories]
    if not ok:
        return []
    forces = [(r.label, r.histories["time"], r.histories["normal_force"]) for r in ok]
    figures = [plots.plot_impact_forces(forces, root / "compare_force.png", f"{case.name}: contact force",
                                        exact=exact_force_curve(case))]
    drifts = []
    for r in ok:
        if not ENERGY_TERMS <= r.histories.keys():
            continue
        balance = energy_balance(r.histories)
        scale = energy_scale(balance) or 1.0
        drifts.append((r.label, r.histories["time"], balance["imbalance"] / scale))
    if drifts:
        figures.append(plots.plot_energy_drifts(drifts, root / "compare_energy.png", f"{case.name}: energy"))
    return figures


#: The histories the energy balance of a run is made of (a direct run has them, a modal run not).
ENERGY_TERMS = frozenset({"kinetic", "elastic", "springs", "work_loads"})


def _print_failures(records) -> None:
    for r in records:
        if r.error is not None:
            print(f"FAILED {r.label}: {r.error}", file=sys.stderr)


def _add_refine(sub) -> None:
    p = sub.add_parser("refine", help="mesh refinement study: errors, observed orders, wall time against dofs")
    p.add_argument("case", help="built-in case name or TOML path")
    p.add_argument("--levels", default="0-3", help="mesh.refine levels, e.g. 0-4 or 0,1,2 (default 0-3)")
    p.add_argument("--dt-with-h", action="store_true",
                   help="halve time.dt with h: level L runs the case's time.dt / 2^L")
    _add_set(p)
    _add_common(p, 1, "parallel processes (default 1: one run at a time, so wall times are not skewed)")
    _add_strict(p)
    p.set_defaults(func=_cmd_refine)


def _cmd_refine(args) -> int:
    from fem2d.case.loading import load_case, parse_overrides, refine_overrides
    from fem2d.io.outdir import check_output_dir
    from fem2d.io.plots import plot_refinement
    from fem2d.studies.study import refine_specs

    overrides = parse_overrides(args.overrides)
    levels = parse_levels(args.levels)
    case = load_case(args.case, {**overrides, **refine_overrides(levels[-1])})
    _check_refinable(case)
    root = check_output_dir(Path(args.out) if args.out is not None else Path("results") / case.name / "refine")
    dt = load_case(args.case, overrides).time_step if args.dt_with_h else None
    specs = refine_specs(args.case, levels, overrides, root, dt)
    records = _run_local(specs, args, "refine")
    with said_on_interrupt(after_runs("refine", len(specs), "refine.csv", False)):
        doc, written = _refine_outputs(records, root, args.dt_with_h, args.strict)
    with said_on_interrupt(after_runs("refine", len(specs), "refine.csv", True)):
        png = plot_refinement(doc, root / "refine.png", f"{case.name}: mesh refinement")
        _print_failures(records)
        _said_warnings("refine", records)
        print(f"wrote {written[0]}, {written[1]} and {png}")
    print(f"fem2d refine: {doc['verdict']}", file=sys.stderr)
    return doc["exit_status"]


def _refine_outputs(records, root: Path, dt_with_h: bool, strict: bool) -> tuple[dict, tuple[Path, Path]]:
    """Print the level table, each quantity's convergence and error bar, what is
    mesh-converged and which references stop holding; write refine.csv and refine.json."""
    from fem2d.io.files import write_json, write_table_csv
    from fem2d.studies import refine
    from fem2d.studies.study import format_study

    study = refine.RefineStudy.of(records, strict)
    conv, departures = study.convergence, study.departures
    header, rows = study.table()
    n = len(refine.LEVEL_COLUMNS)
    print(format_study(header[:n], [row[:n] for row in rows], columns=refine.FORMATS))
    c_header, c_rows = study.convergence_table()
    if c_rows:
        print()
        print(format_study(c_header, c_rows, columns=refine.FORMATS))
    for name, *_ in c_rows:  # a mesh-converged quantity's error does not come from h (unless said below)
        c = conv[name]
        hint = "; its error does not come from h" + ("" if dt_with_h else " (try --dt-with-h)")
        print(f"{name}: {c.kind}: {c.note}" + (hint if c.kind == "mesh-converged" and name not in departures else ""))
    constant = refine.constant_quantities(conv)
    if constant:
        print(f"the same at every level: {', '.join(constant)}")
    for line in departures.values():
        print(line)
    doc = study.document()
    if doc["time_and_mesh"] is not None:
        print(doc["time_and_mesh"])
    csv_path = write_table_csv(root / "refine.csv", header, rows)
    write_json(root / "refine.json", doc)
    return doc, (csv_path, root / "refine.json")


def _check_refinable(case) -> None:
    """A refinement study needs a mesh of cells whose size h halves with mesh.refine."""
    if case.kind == "modal":
        raise InputError(f"refine: {case.name} is a {case.kind} case on a basis of modes: "
                         "there is no mesh size h to refine (try fem2d study --grid time.dt=...)")


def _add_study(sub) -> None:
    p = sub.add_parser("study", help="sweep any --set keys (cartesian product) on local processes or Dask")
    p.add_argument("case", help="built-in case name or TOML path")
    p.add_argument("--grid", action="append", default=[], metavar="KEY=V1,V2,...", help="values of one key")
    _add_set(p)
    _add_common(p, None, "local processes (default: one per core; 1 runs in this process)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run on a Dask cluster: tcp://host:8786, or 'local' for a LocalCluster listening on 127.0.0.1 "
                   "only, without the dashboard (Dask's few status pages stay on 127.0.0.1) (needs fem2d[dask])")
    p.add_argument("--timeout", type=float, default=120.0, metavar="S",
                   help="with --scheduler: fail when the cluster has had no worker and finished nothing for S seconds")
    _add_strict(p)
    p.set_defaults(func=_cmd_study)


def _cmd_study(args) -> int:
    from fem2d.case.loading import load_case, parse_overrides
    from fem2d.io.files import write_table_csv
    from fem2d.io.outdir import check_output_dir
    from fem2d.studies.study import STUDY_FORMATS, format_study, grid_specs, sweep_table

    if not args.grid:
        raise InputError("study: give at least one --grid KEY=V1,V2,...")
    if not args.timeout > 0:  # nan too
        raise InputError(f"--timeout {args.timeout}: expected a number of seconds > 0")
    if args.scheduler is not None and args.workers is not None and args.scheduler != "local":
        raise InputError("study: give --workers (local processes) or --scheduler (a Dask cluster), not both")
    overrides = parse_overrides(args.overrides)
    grid = parse_grid(args.grid)
    case = load_case(args.case, overrides)
    root = Path(args.out) if args.out is not None else Path("results") / case.name / "study"
    specs = grid_specs(args.case, grid, overrides, root)
    _check_grid_values(args.case, specs, grid)
    check_output_dir(root)
    if args.scheduler == "local":  # as on a remote cluster: the client writes, nothing after a Ctrl-C
        from fem2d.studies.cluster import local_cluster, run_on_cluster

        records = None
        try:
            with local_cluster(_workers(args.workers)) as client:
                records = _execute(specs, None, "study", args.quiet,
                                   lambda s, done: run_on_cluster(s, client, done, args.timeout))
        except KeyboardInterrupt as exc:  # closing the cluster, once every run had finished?
            if records is None or isinstance(exc, Interrupted):
                raise
            raise Interrupted(after_runs("study", len(specs), "study.csv", False)) from None
    elif args.scheduler is not None:  # a cluster sharing nothing with us: cases by content, results back here
        from fem2d.studies.cluster import connect, run_on_cluster

        client = connect(args.scheduler)
        try:
            records = _execute(specs, None, "study", args.quiet,
                               lambda s, done: run_on_cluster(s, client, done, args.timeout))
        finally:
            client.close()
    else:
        records = _run_local(specs, args, "study")
    with said_on_interrupt(after_runs("study", len(specs), "study.csv", False)):
        header, rows = sweep_table(records, list(grid))
        print(format_study(header, rows, columns=STUDY_FORMATS))
        csv_path = write_table_csv(root / "study.csv", header, rows)
    with said_on_interrupt(after_runs("study", len(specs), "study.csv", True)):
        _print_failures(records)
        _said_warnings("study", records)
        nook = sum(r.error is None and not r.passed for r in records)
        print(f"wrote {csv_path} ({len(records)} runs, {sum(r.error is not None for r in records)} failed"
              + (f", {nook} with a NOOK check)" if nook else ")"))
    return _exit_status(records, args.strict)  # a NOOK row fails the study as it fails fem2d run


def _check_grid_values(case: str, specs, grid: dict[str, list[Any]]) -> None:
    """Load the case of every run of the grid before any runs: a key or a value the
    case cannot take is one line naming ``--grid`` and the value, not a failed run.
    (The fixed ``--set`` overrides were checked already, so the grid is at fault.)"""
    from fem2d.case.loading import load_case

    for spec in specs:
        try:
            load_case(case, spec.overrides)
        except OverrideError as exc:
            if exc.key in grid:
                raise InputError(exc.worded("--grid")) from None
            raise InputError(f"--grid {spec.label}: {exc.worded('--set')}") from None  # a --set key at this point
        except InputError as exc:
            raise InputError(f"--grid {spec.label}: {exc}") from None


# --- the text of --grid and --levels ----------------------------------------------------------------


def _split_top_level(text: str) -> list[str]:
    """Split on commas outside brackets and quotes: ``[1,2],[3,4]`` -> two items."""
    items, depth, quote, start = [], 0, "", 0
    for i, c in enumerate(text):
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
        elif c == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return [s.strip() for s in items]


def parse_grid(pairs: Sequence[str]) -> dict[str, list[Any]]:
    """``["time.dt=0.01,0.005", "contact.method=lagrange,penalty"]`` ->
    ``{"time.dt": [0.01, 0.005], "contact.method": ["lagrange", "penalty"]}``
    (values parsed as ``--set`` values)."""
    from fem2d.case.loading import parse_value

    grid: dict[str, list[Any]] = {}
    for pair in pairs:
        key, sep, values = pair.partition("=")
        key = key.strip()
        if not sep or not key or not values.strip():
            raise InputError(f"--grid {pair!r}: expected KEY=V1,V2,..., e.g. time.dt=0.01,0.005")
        if key in grid:
            raise InputError(f"--grid {key}: given twice")
        grid[key] = [parse_value(v) for v in _split_top_level(values)]
    return grid


def parse_levels(text: str) -> list[int]:
    """``"0-4"`` -> [0, 1, 2, 3, 4]; ``"0,2,3"`` -> [0, 2, 3]."""
    levels: list[int] = []
    try:
        for part in text.split(","):
            lo, sep, hi = part.strip().partition("-")
            levels += list(range(int(lo), int(hi) + 1)) if sep else [int(lo)]
    except ValueError:
        raise InputError(f"--levels {text!r}: expected a range such as 0-4 or a list such as 0,1,2") from None
    if not levels or min(levels) < 0 or sorted(set(levels)) != levels:
        raise InputError(f"--levels {text!r}: expected increasing levels >= 0")
    return levels
