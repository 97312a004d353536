"""A run's files and figures from Python: what :meth:`Result.write
<fem2d.runs.result.Result.write>`, :meth:`~fem2d.runs.result.Result.write_vtu` and
:meth:`~fem2d.runs.result.Result.plot` do.

They write what ``fem2d run`` writes, with the same writers
(:data:`fem2d.runs.result.RESULT_WRITERS`, replaced together by
:func:`fem2d.io.outdir.replaced_together`), and draw what ``fem2d run --plot``
and ``fem2d plot`` draw (:func:`fem2d.studies.figures.run_figures`).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from fem2d.errors import InputError

#: The name of a run of a model composed in Python (it has no case) in its files and figures.
COMPOSED = "fem2d"

#: The figures :func:`plot_run` can draw, by the name that ends their file
#: (``<case>_<name>.png``); each is drawn only when the run recorded what it needs.
FIGURES: dict[str, str] = {
    "history": "the reported dof against time, with the exact curve when the case has one",
    "energy": "the energy balance (kinetic, elastic, work of the loads, dissipation)",
    "contact_forces": "the total normal and tangential contact forces against time",
    "pressure": "the contact pressure along the interface against time",
    "pressure_profile": "the pressure along each slave surface at the instants of report.pressure_at",
    "impacts": "the impact forces",
    "modal": "the first modal coordinate against time (a modal run)",
}


def no_snapshots(result) -> InputError:
    """The error of a VTU series asked of a run that kept no displacement snapshots."""
    if not hasattr(result.fields, "snapshots"):
        return InputError("no VTU series: a modal run has no finite-element displacement field; "
                          "VTU output needs a direct or static run")
    how = ("fem2d.Report(snapshots=N)" if result.case is None
           else f"fem2d.run({result.case.name!r}, {{'report.snapshots': N}}) (fem2d run {result.case.name} --vtu)")
    return InputError("no VTU series: the run kept no displacement snapshots; run again with "
                      f"{how} to keep one every N records")


def kept_snapshots(result) -> bool:
    """True when the run kept displacement snapshots (a VTU series can be written)."""
    snapshots = getattr(result.fields, "snapshots", None)
    return snapshots is not None and len(snapshots) > 0


def write_run(result, directory: str | os.PathLike, csv: bool = False, vtu: bool | None = None) -> Path:
    """Write ``result`` into ``directory`` as ``fem2d run`` does and return the directory.

    ``vtu``: None writes the VTU series when the run kept snapshots, True requires it
    (:func:`no_snapshots` otherwise), False never writes it; ``csv`` adds
    ``history.csv`` (``fem2d run --csv``).
    """
    from fem2d.runs.result import write_history_csv, write_result, write_vtu

    if vtu and not kept_snapshots(result):
        raise no_snapshots(result)
    with_vtu = kept_snapshots(result) if vtu is None else vtu
    extra = ((write_history_csv,) if csv else ()) + ((write_vtu,) if with_vtu else ())
    return write_result(result, directory, extra=extra)


def write_run_vtu(result, directory: str | os.PathLike) -> Path:
    """Write the VTU series of ``result`` (``<case>.pvd`` and ``vtu/<case>_NNNN.vtu``) into
    ``directory``, each file atomically, and return the ``.pvd`` path. Nothing else in
    ``directory`` is touched (:func:`write_run` with ``vtu=True`` writes the series with the
    run's other files, all replaced together)."""
    from fem2d.runs.result import write_vtu

    if not kept_snapshots(result):
        raise no_snapshots(result)
    return write_vtu(result, Path(directory))


def plot_run(result, directory: str | os.PathLike | None = None, which: Iterable[str] | None = None) -> list[Path]:
    """Draw the figures of ``result`` (``which`` of :data:`FIGURES`, default all that apply)
    into ``directory`` (default: a new temporary directory) and return their paths."""
    from fem2d.studies.figures import record_of_run, run_figures

    if isinstance(which, str):
        which = [which]
    if which is not None:
        unknown = sorted(set(which) - set(FIGURES))
        if unknown:
            raise InputError(f"plot: no figure named {', '.join(map(repr, unknown))} "
                             f"(one of {', '.join(FIGURES)})")
    from fem2d.errors import OutputError
    from fem2d.io.files import _output_error

    if directory is not None and "\0" in os.fspath(directory):
        raise OutputError(f"{os.fspath(directory)!r}: a name with a NUL character; expected a directory name")
    out = Path(directory) if directory is not None else Path(tempfile.mkdtemp(prefix="fem2d-figures-"))
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out}: is a file; expected a directory for the figures")
    try:  # a read-only place or a full disk: an OutputError naming it, as Result.write's
        return [path for _, path in run_figures(record_of_run(result), out, which)]
    except OSError as exc:
        raise _output_error(out, exc) from None
