"""The ``fem2d`` command.

    fem2d run CASE [--set KEY=VALUE]... [--out DIR] [--quiet]
    fem2d cases

Errors in the input are reported as one line naming the file or key and
what was expected, with exit status 2; an interrupted run exits with 130 and
leaves no half-written result.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import fem2d
from fem2d.errors import Fem2dError


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
    p.set_defaults(func=_cmd_run)


def _cmd_run(args) -> int:
    from fem2d.cases import load_case
    from fem2d.progress import ProgressBar
    from fem2d.report import format_checks, format_quantities
    from fem2d.runner import run, write_result

    case = load_case(args.case, args.overrides)
    with ProgressBar(case.name, case.settings["time"]["end"], enabled=not args.quiet) as bar:
        result = run(case, progress=bar.update)
    out = write_result(result, args.out)
    print(format_quantities(result))
    if result.checks:
        print(format_checks([result]))
    print(f"wall time {result.timing['wall_s']:.3f} s; wrote {out / 'result.json'}")
    return 0 if result.passed else 1


def _add_cases(sub) -> None:
    p = sub.add_parser("cases", help="list the built-in cases")
    p.set_defaults(func=_cmd_cases)


def _cmd_cases(args) -> int:
    from fem2d.cases import builtin_cases, load_case

    for name in builtin_cases():
        print(f"{name:<12s} {load_case(name).settings['case']['title']}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fem2d", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"fem2d {fem2d.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_run(sub)
    _add_cases(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``fem2d`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except Fem2dError as exc:
        print(f"fem2d: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("fem2d: interrupted; no result was written", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
