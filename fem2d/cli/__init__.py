"""fem2d: 2D finite-element contact dynamics, checked against exact solutions.

    fem2d run CASE [--set KEY=VALUE]... [--out DIR] [--quiet] [--vtu [STRIDE]] [--plot]
    fem2d plot RESULT_DIR [--out DIR]
    fem2d keys [SECTION]
    fem2d validate [CASE]... [--out DIR] [--workers N] [--quiet]
    fem2d compare CASE [--methods M,...] [--discretizations D,...]
                  [--elements E,...] [--solvers S,...] [--schemes T,...] [--set KEY=VALUE]...
    fem2d refine CASE --levels 0-4 [--set KEY=VALUE]...
    fem2d study CASE --grid KEY=V1,V2,... [--grid ...] [--workers N | --scheduler ADDRESS]
    fem2d cases

Errors in the input are reported as one line naming the file or key and
what was expected, with exit status 2; an interrupted run exits with 130 and
leaves no half-written result.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import warnings
from collections.abc import Sequence

import fem2d
from fem2d.cli.run_commands import _add_cases, _add_keys, _add_plot, _add_run
from fem2d.cli.study_commands import _add_compare, _add_refine, _add_study, _add_validate
from fem2d.errors import Fem2dError, Fem2dWarning, InputError, OverrideError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fem2d", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"fem2d {fem2d.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_run(sub)
    _add_keys(sub)
    _add_plot(sub)
    _add_validate(sub)
    _add_compare(sub)
    _add_refine(sub)
    _add_study(sub)
    _add_cases(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``fem2d`` console script.

    Exit status: 0 all checks passed; 1 a check failed, the run created energy beyond
    ``post.energy_tolerance`` (its outputs written, with the warning), or the computation
    failed (:class:`~fem2d.errors.NumericalError`); 2 the input is at fault (one line
    ``fem2d: error: <file>: <key>: <what was expected>``); 130 interrupted;
    141 the reader of the output went away (``| head``), quietly.
    """
    script = argv is None  # the console script, not a call from Python
    parser = build_parser()
    args = parser.parse_args(argv)
    # the dense contact solves are small: OpenBLAS threads only contend with each other
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    status = None
    try:
        with warnings.catch_warnings():
            # a run's warnings are printed by the command itself, one line each (fem2d run:
            # warning: ...), not a second time as Python's; workers forked here inherit this
            warnings.simplefilter("ignore", Fem2dWarning)
            if getattr(args, "out", None) is not None and not args.out.strip():
                # an empty name is no directory (it used to mean the current one, silently)
                raise InputError(f"--out {args.out!r}: expected a directory name (--out . for the current one)")
            status = args.func(args)
        if sys.stdout is not None:  # None: started with stdout closed, nothing to flush
            sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        if script:  # the work is done and said: a Ctrl-C now would only interrupt the interpreter's exit
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        return status
    except OverrideError as exc:
        print(f"fem2d: error: {_one_line(exc.worded('--set'))}", file=sys.stderr)
        return exc.exit_status
    except Fem2dError as exc:
        print(f"fem2d: error: {_one_line(exc)}", file=sys.stderr)
        return exc.exit_status
    except KeyboardInterrupt as exc:
        unsaid = "fem2d: interrupted; no result was written" if status is None else "fem2d: interrupted at exit"
        print(getattr(exc, "message", unsaid), file=sys.stderr)
        if script:  # leave now: the interpreter's exit would join a process pool's threads, which can hang
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(130)
        return 130
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except OSError as exc:  # the file system said no (outside the writers that name their file)
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"fem2d: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except MemoryError:
        print("fem2d: error: out of memory; expected a smaller model (mesh.refine) or fewer steps", file=sys.stderr)
        return 1


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split("\n")).strip()
    return text or type(exc).__name__


def _quiet_broken_pipe() -> int:
    # the reader is gone: point stdout at /dev/null so the interpreter's final flush is silent
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 141


def _reopen_closed_streams() -> None:
    """Point a standard stream the shell closed (``fem2d run ... >&-``) at the null device.

    Python then has ``sys.stdout`` (or ``sys.stderr``) set to None; what fem2d says there is
    dropped, as the user asked, and the run's exit status stays that of its work. The file
    descriptor itself is taken too, so no file the run opens becomes descriptor 1 or 2
    (where a library's own output would land in it).
    """
    for fd, name in ((1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
        except OSError:
            devnull = os.open(os.devnull, os.O_WRONLY)
            if devnull != fd:
                os.dup2(devnull, fd)
                os.close(devnull)
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, "w", closefd=False))  # noqa: SIM115 (the process's stream, never closed)


def script() -> None:
    """The ``fem2d`` console script: :func:`main`, then a fast exit.

    By the time :func:`main` returns, every output file is closed and renamed into
    place (:func:`fem2d.runs.result.write_result`) and worker pools are shut down;
    the interpreter's teardown after numba and MKL (0.25 s of a 0.5 s small run)
    is skipped once stdout and stderr are flushed.
    """
    _reopen_closed_streams()
    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        status = _quiet_broken_pipe()
    os._exit(status)


if __name__ == "__main__":  # pragma: no cover
    script()
