"""Running a case from Python: ``fem2d.run(case, overrides) -> Result``.

This is what ``fem2d run`` does, without the command line: load and
validate the case, turn it into model objects (:mod:`fem2d.case.build`),
run the direct (Newmark + contact) or modal analysis, check the quantities
against the case's references. :class:`Result` is what every analysis returns,
composed in Python or read from a case.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

import fem2d
from fem2d.errors import ConvergenceError, Fem2dError, Fem2dWarning, NumericalError, StrictRunError
from fem2d.io.files import atomic_path, write_csv, write_json, write_table_csv
from fem2d.io.outdir import replaced_together

if TYPE_CHECKING:
    from fem2d.case.loading import Case
    from fem2d.case.reference_cache import ReferenceCache
    from fem2d.runs.direct import DirectFields
    from fem2d.runs.modal import ModalFields
    from fem2d.studies.convergence import Convergence


@dataclass
class Result:
    """What a run produced.

    ``quantities``: named numbers (the ``quantities`` of ``result.json``); ``timing``: wall time and
    work counters; ``histories``: equal-length time series (``time`` first)
    for CSV and plots, and ``slave_*`` per-node arrays; ``fields``: the model,
    its assembled system and what the path leaves besides numbers
    (:class:`~fem2d.runs.direct.DirectFields` or
    :class:`~fem2d.runs.modal.ModalFields`). A run of a case also carries the
    ``case`` and one ``checks`` record per applicable reference.
    ``warnings`` says what the run distrusts in itself (energy created...);
    ``fem2d run`` exits 1 when the energy grew, ``--strict`` on any warning.

    ``histories`` keep plain names (``"time"``, ``"u"``, ``"LESC/LMAI:normal_force"``),
    the names every figure, check and study reads; the files name each column with its
    unit, ``NAME [UNIT]`` (``"time [s]"``), and :attr:`columns` gives the same arrays
    under exactly those names (``np.load(".../history.npz")[k]`` is ``result.columns[k]``),
    :attr:`units` the unit of each history. :meth:`write`, :meth:`write_vtu` and
    :meth:`plot` save the run's files and figures as ``fem2d run`` does.
    """

    quantities: dict[str, float]
    timing: dict[str, Any]
    histories: dict[str, np.ndarray]
    fields: DirectFields | ModalFields
    case: Case | None = None
    checks: list[dict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: references that did not apply to these settings: ``{quantity, source, reason}``
    unchecked: list[dict] = field(default_factory=list)
    #: what the run chose by itself and why (the automatic time scheme...)
    notes: list[str] = field(default_factory=list)
    #: the mesh error bar of each quantity, with ``report.error_bars`` (:meth:`error_bar`); None: not computed
    error_bars: dict[str, Convergence] | None = None
    #: the time error estimate of each quantity of a run extrapolated in time (``time.extrapolate``):
    #: ``|q(dt/2) - q(dt)| / (2^p - 1)``, the dt/2 run's (:mod:`fem2d.runs.extrapolation`)
    time_errors: dict[str, float] = field(default_factory=dict)
    #: each quantity of a run extrapolated in time read from its dt and its dt/2 run: ``(q_dt, q_dt/2)``
    step_values: dict[str, tuple[float, float]] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """True when every check passed."""
        return all(c["passed"] for c in self.checks)

    @property
    def energy_grew(self) -> bool:
        """True when the run created energy beyond its tolerance (its numbers are not
        to be trusted: ``fem2d run`` exits 1)."""
        from fem2d.post.energy import ENERGY_GREW

        return any(w.startswith(ENERGY_GREW) for w in self.warnings)

    def error_bar(self, name: str) -> Convergence:
        """The mesh error bar of quantity ``name``: ``value +- band`` (``gci`` relative), its
        observed order, Richardson-extrapolated value, asymptotic-range indicator and note
        (:class:`~fem2d.studies.convergence.Convergence`). Computed by a run with
        ``report.error_bars = true`` (the run's mesh.refine level and the two coarser ones);
        any other run raises a :class:`~fem2d.errors.Fem2dError` saying so.

        >>> import fem2d
        >>> result = fem2d.run("hertz", {"mesh.refine": 1, "report.error_bars": True})
        >>> bar = result.error_bar("peak_pressure")
        >>> bar.kind, bar.levels, bar.safety_factor                  # two levels: Fs = 3
        ('two levels', (0, 1), 3.0)
        >>> from fem2d.exact.hertz import HertzLineContact
        >>> exact = HertzLineContact(P=3.6e6, R=0.05, E=2.1e11, nu=0.3).peak_pressure
        >>> abs(bar.value - exact) <= bar.band
        True
        """
        if self.error_bars is None:
            if self.case is not None and self.case.get("report.error_bars"):
                raise Fem2dError(f"{self.case.where}: report.error_bars: this run is of one level "
                                 "(fem2d.runs.result.run, or a study's run); fem2d.run and fem2d run run the coarser "
                                 "levels and the error bars")
            raise Fem2dError("this run has no error bars: run the case with report.error_bars = true (fem2d run, "
                             "fem2d.run) or a refinement study (fem2d.refine)")
        if name not in self.error_bars:
            raise Fem2dError(f"no error bar of {name!r}; the run's error bars are those of "
                             f"{', '.join(self.error_bars) or 'no quantity'}")
        return self.error_bars[name]

    @property
    def columns(self) -> dict[str, np.ndarray]:
        """The histories under the names ``history.npz`` and ``history.csv`` give them:
        ``NAME [UNIT]`` (``result.columns["time [s]"] is result.histories["time"]``,
        :mod:`fem2d.io.columns`).

        >>> import fem2d
        >>> result = fem2d.run("sdnv104a", {"time.end": 0.2, "time.dt": 0.01})
        >>> list(result.histories)[:3], list(result.columns)[:3]
        (['time', 'dt', 'u'], ['time [s]', 'dt [s]', 'u [m]'])
        """
        from fem2d.io.columns import labelled

        return labelled(self.histories)

    @property
    def units(self) -> dict[str, str]:
        """The unit of each history (``{"time": "s", "u": "m", "n_active": "-"}``;
        ``""`` for a series of unknown unit, which its file column names bare)."""
        from fem2d.io.columns import unit_of

        return {name: unit_of(name) or "" for name in self.histories}

    def write(self, directory: str | os.PathLike, csv: bool = False, vtu: bool | None = None) -> Path:
        """Write the files ``fem2d run`` writes into ``directory`` and return it:
        ``result.json``, ``history.npz``, ``pressure.csv`` when the run kept it,
        ``history.csv`` with ``csv``, and the VTU series (``<case>.pvd``, ``vtu/``) when
        the run kept displacement snapshots (``vtu=True`` requires them, ``vtu=False``
        leaves them out). The previous run's files there are replaced together; no other
        file is touched (:func:`write_result`).

        >>> import fem2d, tempfile
        >>> result = fem2d.run("sdnv104a", {"time.end": 0.2, "time.dt": 0.01})
        >>> out = result.write(tempfile.mkdtemp(), csv=True)
        >>> sorted(p.name for p in out.iterdir())
        ['.fem2d-outputs.json', 'history.csv', 'history.npz', 'result.json']
        """
        from fem2d.io.run_outputs import write_run

        return write_run(self, directory, csv=csv, vtu=vtu)

    def write_vtu(self, directory: str | os.PathLike) -> Path:
        """Write the VTU series (displacement, stresses, contact pressure) with its
        ``.pvd`` index into ``directory`` and return the ``.pvd`` path, for ParaView
        or ``meshio``. The run must have kept displacement snapshots
        (``fem2d.Report(snapshots=N)``, ``report.snapshots`` in a case), otherwise an
        :class:`~fem2d.errors.InputError` says so.

        >>> import fem2d, tempfile
        >>> result = fem2d.run("sdnv104a", {"time.end": 0.2, "time.dt": 0.01, "report.snapshots": 10})
        >>> result.write_vtu(tempfile.mkdtemp()).name
        'sdnv104a.pvd'
        """
        from fem2d.io.run_outputs import write_run_vtu

        return write_run_vtu(self, directory)

    def plot(self, directory: str | os.PathLike | None = None, which: Iterable[str] | None = None) -> list[Path]:
        """Draw the standard figures of the run as PNG files and return their paths: the
        reported dof against time with the exact curve when the case has one
        (``"history"``), the energy balance (``"energy"``), the contact forces
        (``"contact_forces"``)... (:data:`fem2d.io.run_outputs.FIGURES`); ``which`` picks
        some, by default every one the run has data for. They go into ``directory``, by
        default a new temporary directory (nothing of yours is overwritten); show one in
        a notebook with ``IPython.display.Image(path)``. ``fem2d run --plot`` draws the same.

        >>> import fem2d
        >>> result = fem2d.run("sdnv104a", {"time.end": 0.2, "time.dt": 0.01})
        >>> [path.name for path in result.plot(which=["history", "energy"])]
        ['sdnv104a_history.png', 'sdnv104a_energy.png']
        """
        from fem2d.io.run_outputs import plot_run

        return plot_run(self, directory, which)

    def mesh_record(self) -> dict[str, Any]:
        """The mesh that was run: node count and the kinds of its 2D cells (the
        elements actually used, whatever the settings asked for)."""
        mesh = self.fields.system.mesh
        kinds = sorted({block.kind for block in mesh.groups.values() if block.dimension == 2})
        return {"n_nodes": mesh.n_nodes, "elements": kinds}

    def to_json(self) -> dict[str, Any]:
        """The ``result.json`` document of a run: its settings, quantities, checks and timing.
        A model composed in Python has no case: it is named ``fem2d`` (as its VTU files)
        and has no settings."""
        from fem2d.io.run_outputs import COMPOSED

        case = self.case.document() if self.case is not None else {"case": COMPOSED, "settings": {}, "overrides": {}}
        return {
            "case": case["case"],
            "version": fem2d.__version__,
            "settings": case["settings"],
            "overrides": case["overrides"],
            "mesh": self.mesh_record(),
            "quantities": self.quantities,
            "checks": self.checks,
            "unchecked": self.unchecked,
            "timing": self.timing,
            "warnings": self.warnings,
            "notes": self.notes + self.convention_notes(),
            **({"error_bars": {name: c.as_dict() for name, c in self.error_bars.items()}}
               if self.error_bars is not None else {}),
            **({"time_errors": self.time_errors} if self.time_errors else {}),
        }

    def convention_notes(self) -> list[str]:
        """What the numbers of ``result.json`` are totals of, when it is not a plane model's
        unit thickness: for axisymmetric bodies, the whole circumference."""
        model = getattr(self.fields, "model", None)
        if model is None or not any(getattr(body, "axisymmetric", False) for body in model.bodies):
            return []
        return ["axisymmetric bodies (x the radius, y the axis): forces, reactions, impulses and energies are "
                "totals over the whole circumference (N, N s, J), a point force a total ring force; pressures "
                "and stresses are pressures and stresses (Pa)"]


def finished(result: Result, where: str, strict: bool = False) -> Result:
    """A run's result as it is handed to its caller in Python: each of its
    ``warnings`` also given to :func:`warnings.warn` as a
    :class:`~fem2d.errors.Fem2dWarning` (shown at the caller's line, outside
    fem2d), or with ``strict`` and any warning, a
    :class:`~fem2d.errors.StrictRunError` naming ``where`` and every warning
    (the command line's ``--strict``). The one place where a run's warnings
    become Python's."""
    if strict and result.warnings:
        raise StrictRunError(where, result.warnings, result)
    level = _caller_level()
    for text in result.warnings:
        warnings.warn(text, Fem2dWarning, stacklevel=level)
    return result


def _caller_level() -> int:
    """The ``stacklevel`` of :func:`warnings.warn` called in :func:`finished` that
    points at the first frame outside the fem2d package (the user's line: the same
    warning from two runs at two lines of a script is shown twice)."""
    frame, level = sys._getframe(1), 1  # finished()
    while frame is not None and frame.f_globals.get("__name__", "").partition(".")[0] == "fem2d":
        frame, level = frame.f_back, level + 1
    return level


def run(
    case: str | os.PathLike | Case,
    overrides: Mapping[str, Any] | Iterable[str] = (),
    progress: Callable[[float], None] | None = None,
    reference_cache: ReferenceCache | bool = True,
    strict: bool = False,
) -> Result:
    """Run a case (built-in name, TOML path or loaded :class:`Case`).

    ``overrides`` are ``--set`` pairs, as a mapping of dotted keys to values
    or as a list of ``"key=value"`` strings; a table as a value sets the keys it
    holds (``{"time": {"dt": 0.02}}`` is ``{"time.dt": 0.02}``), NumPy numbers are
    numbers (:func:`~fem2d.case.loading.override_pairs`). ``progress(t)`` is called as the
    simulated time advances. The case is turned into model objects by
    :func:`fem2d.case.build.build_analysis`; an error about one of them names
    the case file and the key it came from.

    Every failure is a :class:`~fem2d.errors.Fem2dError` (never SystemExit):
    :class:`~fem2d.errors.InputError` for the settings,
    :class:`~fem2d.errors.NumericalError` when the state became non-finite or grew
    without bound.

    Exact reference values are read from ``reference_cache`` when it holds them for
    these settings, mesh and code (True: the user's cache,
    :meth:`~fem2d.case.reference_cache.ReferenceCache.default`; False: computed every time).

    Each of the result's ``warnings`` is also a Python warning,
    :class:`~fem2d.errors.Fem2dWarning`; with ``strict`` (``fem2d run --strict``) a
    run with any warning raises :class:`~fem2d.errors.StrictRunError` naming the
    case file and each warning, the result attached (:func:`finished`).
    """
    from fem2d.case.build import build_analysis
    from fem2d.case.checks import likely_cause
    from fem2d.case.loading import Case, load_case
    from fem2d.case.references import checks_for
    from fem2d.runs.sanity import DivergenceError, check_state

    start = time.perf_counter()
    if not isinstance(case, Case):
        case = load_case(case, overrides)
    elif isinstance(overrides, str) or overrides:
        case = load_case(case.path or case.name, {**case.overrides, **_pairs(overrides)})
    built = build_analysis(case)
    try:
        with built.keys.translate():
            result = built.analysis.compute(progress)
    except DivergenceError as exc:  # stopped during the march: the same error as after it, nothing written
        key, cause = likely_cause(case)
        raise NumericalError(": ".join(part for part in (case.where, key, f"{exc.finding}; {cause}") if part)) from None
    except ConvergenceError as exc:  # a failed solve: its converged steps are the case's (fem2d.runs.failed)
        if isinstance(getattr(exc, "result", None), Result):
            exc.result = dataclasses.replace(exc.result, case=case, warnings=[*built.warnings, *exc.result.warnings],
                                             timing={"wall_s": time.perf_counter() - start, **exc.result.timing})
        raise
    except NumericalError as exc:  # stopped by a guard of the march (an unstable wear update): said in the case's name
        said = str(exc)
        raise NumericalError(said if said.startswith(case.where) else f"{case.where}: {said}") from None
    except SystemExit as exc:  # a library that exits instead of raising: fem2d.run never does
        raise Fem2dError(f"{case.where}: a library stopped the run (exit status {exc.code})") from None
    except (np.linalg.LinAlgError, FloatingPointError, ZeroDivisionError) as exc:
        raise NumericalError(f"{case.where}: the computation failed ({type(exc).__name__}: "
                             f"{' '.join(str(exc).split())}); likely cause: a body not held by supports or "
                             "a zero mass or stiffness") from None
    key, cause = likely_cause(case)
    check_state(case.where, result.histories, cause, key)  # non-finite or exploding: not a result
    timing = {"wall_s": time.perf_counter() - start, **result.timing}
    cache = reference_cache
    if isinstance(cache, bool):
        from fem2d.case.reference_cache import ReferenceCache

        cache = ReferenceCache.default() if cache else None
    checks, unchecked = checks_for(case, result.quantities, result.fields.system, cache)
    result = dataclasses.replace(result, timing=timing, case=case, checks=checks, unchecked=unchecked,
                                 warnings=[*built.warnings, *result.warnings])
    return finished(result, case.where, strict)


def _pairs(overrides: Mapping[str, Any] | Iterable[str]) -> Mapping[str, Any]:
    from fem2d.case.loading import override_pairs

    return override_pairs(overrides)


def default_output_dir(case: Case) -> Path:
    """``results/<case>/`` under the current directory; a case name that is a path (a
    :class:`Case` made without :func:`~fem2d.case.loading.load_case`) is an InputError."""
    from fem2d.case.loading import name_problem

    problem = name_problem(case.name)
    if problem is not None:
        raise case.error("case.name", problem)
    return Path("results") / case.name


def write_history_csv(result: Result, directory: Path) -> Path | None:
    """``history.csv``: the run's 1D time series (per-node arrays are not CSV
    columns), each column named with its unit (``time [s]``, :mod:`fem2d.io.columns`)."""
    from fem2d.io.columns import labelled

    columns = labelled({k: v for k, v in result.histories.items() if np.ndim(v) == 1})
    if not columns:
        return None
    write_csv(directory / "history.csv", columns)
    return directory / "history.csv"


def write_history_npz(result: Result, directory: Path) -> Path | None:
    """``history.npz``: every time series of the run (per-node arrays included), one
    uncompressed NumPy array each (``numpy.load``); 120001 rows of SDND104 in 5 ms where
    the CSV takes 0.5 s (:func:`write_history_csv` writes that on request). Each
    array is named with its unit (``time [s]``, :mod:`fem2d.io.columns`)."""
    from fem2d.io.columns import labelled

    if not result.histories:
        return None
    arrays = labelled(result.histories)
    with atomic_path(directory / "history.npz") as tmp, open(tmp, "wb") as f:
        np.savez(f, **arrays)
    return directory / "history.npz"


def write_pressure_csv(result: Result, directory: Path) -> Path | None:
    """``pressure.csv``: the contact pressure along each slave surface at the
    instants ``report.pressure_at`` (one row per zone, instant and slave node;
    :mod:`fem2d.post.pressure`), when the run kept it."""
    table = getattr(result.fields, "pressure", None)
    if not table:
        return None
    header, rows = table
    write_table_csv(directory / "pressure.csv", header, rows)
    return directory / "pressure.csv"


def write_impacts_csv(result: Result, directory: Path) -> Path | None:
    """``impacts.csv``: one row per contact the impact statistics found (its peak force, duration,
    impulse, arrival speed, elementary contacts and the energy balance after it;
    :func:`~fem2d.io.tables.impact_table`), when the run found any."""
    from fem2d.io.tables import impact_table

    header, rows = impact_table(result.quantities)
    if not rows:
        return None
    write_table_csv(directory / "impacts.csv", header, rows)
    return directory / "impacts.csv"


def write_result_json(result: Result, directory: Path) -> Path:
    """``result.json`` (strict JSON: a non-finite number is null)."""
    write_json(directory / "result.json", result.to_json())
    return directory / "result.json"


def write_vtu(result: Result, directory: Path) -> Path:
    """The VTU series of a direct run's snapshots, with its ``.pvd`` index."""
    from fem2d.io.vtu import write_vtu_series

    return write_vtu_series(result, directory)


#: The files of a run, in the order they are written into the staging directory
#: (:func:`fem2d.io.outdir.replaced_together` puts them in place as one). A writer
#: takes (result, directory) and returns the path it wrote, or None; another
#: history format plugs in here (its name must match ``io.outdir.RUN_OUTPUTS``).
RESULT_WRITERS: tuple[Callable[[Result, Path], Path | None], ...] = (
    write_history_npz,
    write_pressure_csv,
    write_impacts_csv,
    write_result_json,
)


def write_result(
    result: Result,
    out_dir: str | os.PathLike | None = None,
    extra: Iterable[Callable[[Result, Path], Path | None]] = (),
) -> Path:
    """Write a run's files into ``out_dir`` (default ``results/<case>/``), replacing the
    previous run's files together (all old or all new, never a mix), and return the
    directory.

    ``extra`` writers (e.g. :func:`write_vtu`) run after :data:`RESULT_WRITERS`.
    An interrupted or failed write leaves ``out_dir`` as it was.
    """
    out = Path(out_dir) if out_dir is not None else default_output_dir(result.case)
    with replaced_together(out) as stage:
        for writer in (*RESULT_WRITERS, *extra):
            writer(result, stage)
    return out
