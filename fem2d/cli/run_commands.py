"""The single-run commands: ``run``, ``plot``, ``keys``, ``cases``."""

from __future__ import annotations

import sys
from pathlib import Path

from fem2d.cli.interrupts import said_on_interrupt
from fem2d.errors import ConvergenceError, InputError


def _add_run(sub) -> None:
    p = sub.add_parser("run", help="run one case and write DIR/result.json")
    p.add_argument("case", help="built-in case name (see `fem2d cases`) or path of a TOML case file")
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a key of the case file (value parsed as TOML), e.g. --set time.dt=0.005",
    )
    p.add_argument("--out", default=None, metavar="DIR", help="output directory (default results/<case>/)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--all", dest="every", action="store_true",
                   help="print every quantity (by default a direct run's contact, impact and energy diagnostics "
                        "are summed up in one line; result.json holds them all)")
    p.add_argument(
        "--strict", action="store_true",
        help="exit 1 on any warning (a slave node leaving its master surface, ...); energy created beyond "
             "post.energy_tolerance exits 1 without it",
    )
    p.add_argument(
        "--csv", action="store_true", help="also write the history as DIR/history.csv (always: DIR/history.npz)"
    )
    p.add_argument(
        "--vtu",
        nargs="?",
        type=_stride,
        const="auto",
        default=None,
        metavar="STRIDE",
        help="also write a VTU time series with a .pvd index (every STRIDE steps; default: about 200 frames)",
    )
    p.add_argument("--plot", action="store_true",
                   help="also draw the run's figures (PNG) in DIR: reported dof with the exact curve, forces, energy")
    p.set_defaults(func=_cmd_run)


def _stride(text: str) -> int | str:
    """The value of ``--vtu``: a number of steps, or "auto" (what a bare ``--vtu`` means)."""
    import argparse

    try:
        return text if text == "auto" else int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of steps >= 1, got {text!r}") from None


def _cmd_run(args) -> int:
    from fem2d.case.loading import load_case
    from fem2d.io.outdir import check_output_dir
    from fem2d.io.progress import ProgressBar
    from fem2d.runs.result import default_output_dir, write_history_csv, write_result, write_vtu
    from fem2d.studies.error_bars import run

    case = load_case(args.case, args.overrides)
    if args.vtu is not None:
        stride = 0 if args.vtu == "auto" else args.vtu  # 0: automatic, only when no stride is given
        if args.vtu != "auto" and args.vtu < 1:
            raise InputError(f"--vtu {args.vtu}: expected a stride >= 1 (or none for automatic)")
        if case.kind == "modal":
            raise InputError(f"--vtu: {case.name} is a {case.kind} case; VTU output needs a direct or static "
                             "(finite-element) run")
        from fem2d.io.vtu import auto_stride

        case = case.with_snapshots(stride or case.snapshots or auto_stride(case))
    out = Path(args.out) if args.out is not None else default_output_dir(case)
    check_output_dir(out)  # a directory that cannot be written fails now, not after the run
    extra = ((write_history_csv,) if args.csv else ()) + ((write_vtu,) if args.vtu is not None else ())
    try:
        with ProgressBar(case.name, case.end_time, enabled=not args.quiet) as bar:
            result = run(case, progress=bar.update)
    except ConvergenceError as exc:  # the converged steps are written, and the failure said (exit 1)
        from fem2d.runs.failed import stopped_at

        if getattr(exc, "result", None) is None:
            raise
        write_result(exc.result, out, extra=(write_history_csv,) if args.csv else ())
        raise ConvergenceError(f"{exc}; {out} holds the converged steps, up to t = "
                               f"{stopped_at(exc.result.histories):.9g} s") from None
    write_result(result, out, extra=extra)
    with said_on_interrupt(f"fem2d: interrupted; {out} was written"):
        return _said_run(args, case, result, out)


def _said_run(args, case, result, out: Path) -> int:
    """Figures on request, then what ``fem2d run`` prints once the outputs are written."""
    import numpy as np

    from fem2d.io.tables import format_checks, format_quantities

    written = [out / "result.json"]
    if result.histories:
        written.append(out / "history.npz")
    if getattr(result.fields, "pressure", None):
        written.append(out / "pressure.csv")
    if (out / "impacts.csv").exists():
        written.append(out / "impacts.csv")
    if args.csv and any(np.ndim(v) == 1 for v in result.histories.values()):
        written.append(out / "history.csv")
    if args.plot:
        from fem2d.studies.figures import record_of_run, run_figures

        written += [path for _, path in run_figures(record_of_run(result), out)]
    for note in result.notes:
        print(note)
    print(format_quantities(result, every=args.every))
    if result.error_bars is not None:
        from fem2d.studies.error_bars import format_error_bars

        print(format_error_bars(result.error_bars, result.time_errors))
    if result.checks:
        print(format_checks([result]))
    for note in result.unchecked:
        print(f"no reference for these settings: {note['quantity']} ({note['source']}): {note['reason']}")
    if not result.checks:
        print("no reference for these settings: nothing checked")
    if args.vtu is not None:
        print(f"wrote {out / (case.name + '.pvd')} ({len(result.fields.snapshots)} VTU files)")
    print(f"wall time {result.timing['wall_s']:.3f} s; wrote {', '.join(str(p) for p in written)}")
    for warning in result.warnings:
        print(f"fem2d run: warning: {case.name}: {warning}", file=sys.stderr)
    if result.energy_grew or (args.strict and result.warnings):
        return 1  # the numbers are written, and said to be untrustworthy: never exit 0 with them
    return 0 if result.passed else 1


def _add_plot(sub) -> None:
    p = sub.add_parser("plot", help="draw the figures of a run directory written by fem2d run")
    p.add_argument("result_dir", metavar="RESULT_DIR", help="a run directory (result.json, history.npz)")
    p.add_argument("--out", default=None, metavar="DIR", help="where the figures go (default RESULT_DIR)")
    p.set_defaults(func=_cmd_plot)


def _cmd_plot(args) -> int:
    from fem2d.studies.figures import record_from_dir, run_figures

    record = record_from_dir(args.result_dir)
    figures = run_figures(record, Path(args.out) if args.out is not None else Path(args.result_dir))
    for caption, path in figures:
        print(f"wrote {path} ({caption})")
    if not figures:
        print(f"{args.result_dir}: nothing to draw (no history.npz or history.csv?)")
    return 0


def _add_keys(sub) -> None:
    p = sub.add_parser("keys", help="list the keys of a case file: type, default, unit, meaning")
    p.add_argument("section", nargs="?", default=None, help="one section (time, contact, materials, ...)")
    p.set_defaults(func=_cmd_keys)


def _cmd_keys(args) -> int:
    from fem2d.case.keys import did_you_mean, format_keys, sections

    if args.section is not None and args.section not in sections():
        hint = did_you_mean(args.section, sections())
        raise InputError(f"keys: unknown section {args.section!r}{hint} (sections: {', '.join(sections())})")
    print(format_keys(args.section))
    return 0


def _add_cases(sub) -> None:
    p = sub.add_parser("cases", help="list the built-in cases")
    p.set_defaults(func=_cmd_cases)


def _cmd_cases(args) -> int:
    from fem2d.case.loading import builtin_cases, load_case

    names = builtin_cases()
    width = max(map(len, names), default=0)
    for name in names:
        print(f"{name:<{width}s} {load_case(name).title}")
    return 0


# --- studies: validate, compare, refine, study ------------------------------------------------------
