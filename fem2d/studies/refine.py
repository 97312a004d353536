"""The tables of a mesh refinement study: one row per (quantity, level) with its status,
the convergence of each quantity (:mod:`fem2d.studies.convergence`), the references
that stop holding as h falls, and the study's verdict.

Errors against a reference are given twice, never mixed in one column: ``abs_error``
``|f - f_ref|`` and ``rel_error`` ``|f - f_ref| / |f_ref|``; ``tolerance`` says which of
the two the level's check judged (``1e-05 abs``, ``0.01 rel``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fem2d.studies.convergence import Convergence, convergence
from fem2d.studies.execution import RunRecord
from fem2d.studies.study import DIAGNOSTICS, observed_order, quantity_names
from fem2d.studies.time_mesh import (
    TIME_COLUMNS,
    dominant,
    formal_order,
    mesh_bars,
    time_and_mesh,
    time_error,
    timed,
)

Table = tuple[list[str], list[list[Any]]]

#: the per-level columns of :func:`level_table`, then the convergence columns filled on each
#: quantity's finest level (refine.csv)
LEVEL_COLUMNS = ["quantity", "level", "dofs", "value", "abs_error", "rel_error", "tolerance", "status",
                 "order", "change", "change order", "wall_s"]
CONVERGENCE_COLUMNS = ["convergence", "fit levels", "observed order", "extrapolated", "gci", "error bar",
                       "indicator"]

#: number formats of the columns of the refinement tables
FORMATS = {"abs_error": ".2e", "rel_error": ".2e", "order": ".3g", "change": ".2e", "change order": ".3g",
           "wall_s": ".3g", "observed order": ".3g", "gci": ".2e", "error bar": ".2e", "indicator": ".3g",
           "ref. error": ".2e", "extrap. ref. error": ".2e", "time error": ".2e", "mesh bar": ".2e"}


def level_of(record: RunRecord) -> int:
    """The ``mesh.refine`` level a run was made at."""
    from fem2d.case.loading import refine_level

    return refine_level(record.spec.overrides)


def _check(record: RunRecord, name: str) -> dict | None:
    return next((c for c in record.checks if c["quantity"] == name), None)


def _errors(check: dict | None) -> tuple[float | None, float | None]:
    if check is None or check["value"] is None or check["reference"] is None:
        return None, None
    err = abs(check["value"] - check["reference"])
    return err, (err / abs(check["reference"]) if check["reference"] != 0 else None)


def _status(record: RunRecord, check: dict | None, name: str) -> str:
    if record.error is not None:
        return f"FAILED: {record.error}"
    if check is not None:
        return "OK" if check["passed"] else "NOOK"
    void = next((u for u in record.unchecked if u["quantity"] == name), None)
    if void is None:
        return "-"
    return "out of range" if void["reason"].startswith("references do not apply at mesh.refine") else "unchecked"


def quantities(records: Sequence[RunRecord]) -> list[str]:
    """The quantities of the study's runs (diagnostics left out), in order of appearance."""
    return [n for n in quantity_names([r for r in records if r.error is None]) if n not in DIAGNOSTICS]


def study_convergence(records: Sequence[RunRecord]) -> dict[str, Convergence]:
    """:func:`~fem2d.studies.convergence.convergence` of every quantity over the runs that finished."""
    ok = sorted((r for r in records if r.error is None), key=level_of)
    p = formal_order(ok)
    return {name: convergence([level_of(r) for r in ok], [r.quantities.get(name) for r in ok], p)
            for name in quantities(ok)}


def level_table(records: Sequence[RunRecord], conv: dict[str, Convergence] | None = None) -> Table:
    """One row per (quantity, level): dofs, value, errors against the reference (absolute
    and relative), the tolerance judged and its kind, the status (OK, NOOK, FAILED: why,
    ``out of range`` when the reference states levels that exclude this one, ``unchecked``
    when it does not apply otherwise, ``-`` with no reference), the order of the absolute errors, the change
    from the previous level and the order of those changes, wall time (s); with ``conv``,
    each quantity's convergence on its finest row (:data:`CONVERGENCE_COLUMNS`).

    Between levels i and j, h shrinks by ``2 ** (j - i)``.
    """
    runs = sorted(records, key=level_of)
    with_time = conv is not None and timed(runs)
    header = list(LEVEL_COLUMNS) + (list(CONVERGENCE_COLUMNS) if conv is not None else [])
    header += list(TIME_COLUMNS) if with_time else []
    bars = mesh_bars(runs, conv) if with_time else {}
    rows: list[list[Any]] = []
    for name in quantities(runs):
        c = (conv or {}).get(name)
        previous: tuple[int, float | None, float | None] | None = None  # level, value, abs error
        prev_change: float | None = None
        finest = max((level_of(r) for r in runs if r.error is None), default=None)
        for r in runs:
            level, check = level_of(r), _check(r, name)
            value = r.quantities.get(name) if r.error is None else None
            abs_err, rel_err = _errors(check)
            tol = None if check is None else f"{check['tolerance']:g} {'rel' if check['relative'] else 'abs'}"
            order = change = change_order = None
            if previous is not None and value is not None:
                ratio = 2.0 ** (level - previous[0])
                order = observed_order(previous[2], abs_err, ratio)
                change = None if previous[1] is None else abs(value - previous[1])
                change_order = observed_order(prev_change, change, ratio)
            if c is not None and c.kind == "mesh-converged":  # orders of changes at round-off are noise
                order = change_order = None
            row = [name, level, r.timing.get("n_dofs"), value, abs_err, rel_err, tol, _status(r, check, name),
                   order, change, change_order, r.timing.get("wall_s")]
            if conv is not None:
                fill = c is not None and level == finest and r.error is None
                row += _convergence_cells(c) if fill else [None] * len(CONVERGENCE_COLUMNS)
                if with_time:
                    t = r.time_errors.get(name) if r.error is None else None
                    row += [t, bars.get(name), dominant(bars.get(name), t)] if fill else [t, None, None]
            rows.append(row)
            if r.error is None:
                previous, prev_change = (level, value, abs_err), change
    return header, rows


def _convergence_cells(c: Convergence) -> list[Any]:
    fit = f"{c.fit_levels[0]}-{c.fit_levels[-1]}" if c.fit_levels else None
    return [c.kind, fit, c.order, c.extrapolated, c.gci, c.band, c.indicator]


def reference_departures(records: Sequence[RunRecord], conv: dict[str, Convergence]) -> dict[str, str]:
    """Quantities whose reference stops holding as h falls: ``{name: one line}``.

    A reference stops holding when the levels self-converge (``conv`` monotone or
    mesh-converged) to a value whose error bar excludes the reference, and its absolute
    error grows at every level from a level ``L0`` (whose check passed) to the finest:
    the levels tend to another value than the reference's model (a rigid block's against
    an elastic block's motion, the half-space theory against a finite disc). The line
    names the first of those levels whose error exceeds the strictest tolerance any
    level's check stated ("stops holding from level L"), else ``L0`` ("departs from the
    levels from level L0")."""
    runs = sorted((r for r in records if r.error is None), key=level_of)
    out: dict[str, str] = {}
    for name, c in conv.items():
        checks = [_check(r, name) for r in runs]
        if c.kind not in ("monotone", "mesh-converged") or c.band is None or len(runs) < 3 \
                or any(k is None for k in checks):
            continue
        errors = np.array([_errors(k)[0] for k in checks], dtype=float)
        if not np.all(np.isfinite(errors)) or not errors[-1] > errors[-2]:
            continue
        start = len(errors) - 2
        while start > 0 and errors[start] > errors[start - 1]:
            start -= 1
        reference = checks[-1]["reference"]
        distance = abs(c.value - reference)  # the bar is the finest level's
        if distance <= c.band or not checks[start]["passed"]:
            continue
        tolerances = [k["tolerance"] * (abs(k["reference"]) if k["relative"] else 1.0) for k in checks]
        strict = min(tolerances)
        tightest = checks[tolerances.index(strict)]
        said = f"{tightest['tolerance']:g} {'rel' if tightest['relative'] else 'abs'}"
        levels = [level_of(r) for r in runs]
        above = [lv for lv, e in zip(levels[start:], errors[start:]) if e > strict]
        verb = (f"stops holding from level {above[0]}" if above else
                f"departs from the levels from level {levels[start]}")
        beyond = f", above {said} from level {above[0]}" if above else f", within {said} at every level"
        out[name] = (f"{name}: the reference ({checks[-1]['source']}) {verb}: its error grows with refinement "
                     f"({errors[start]:.2e} at level {levels[start]} to {errors[-1]:.2e} at level {levels[-1]}"
                     f"{beyond}) while the levels converge ({c.kind}): the finest is {c.value:.10g} +- "
                     f"{c.band:.2g}, {distance:.2g} from it")
    return out


def convergence_table(records: Sequence[RunRecord], conv: dict[str, Convergence]) -> Table:
    """One row per quantity that changes with h or has a reference: its convergence
    (kind, fit levels, observed order, extrapolated value, GCI, the error bar's
    half-width, indicator) and, with a reference, the finest level's error and the
    extrapolated value's distance to it (both absolute); with runs extrapolated in time,
    the finest level's time error beside the mesh error bar and which dominates
    (:data:`TIME_COLUMNS`)."""
    runs = sorted((r for r in records if r.error is None), key=level_of)
    with_time = timed(runs)
    header = ["quantity", *CONVERGENCE_COLUMNS, "finest", "ref. error", "extrap. ref. error"]
    header += list(TIME_COLUMNS) if with_time else []
    bars = mesh_bars(runs, conv) if with_time else {}
    rows = []
    for name, c in conv.items():
        check = _check(runs[-1], name) if runs else None
        if check is None and c.kind == "mesh-converged" and not c.band:
            continue  # the same at every level (a count, a zero)
        ref_err = _errors(check)[0]
        extrap = None
        if check is not None and c.extrapolated is not None and check["reference"] is not None:
            extrap = abs(c.extrapolated - check["reference"])
        row = [name, *_convergence_cells(c), c.value, ref_err, extrap]
        if with_time:
            t = time_error(runs, name)
            row += [t, bars.get(name), dominant(bars.get(name), t)]
        rows.append(row)
    return header, rows


def constant_quantities(conv: dict[str, Convergence]) -> list[str]:
    """The quantities that are the same at every level."""
    return [n for n, c in conv.items() if c.kind == "mesh-converged" and not c.band]


def verdict(records: Sequence[RunRecord], departures: dict[str, str], strict: bool = False) -> tuple[int, str]:
    """The study's exit status and its one line: 0 when the runs finished and the
    finest level passes its checks (a reference that stops holding as h falls is not
    counted against it), 1 when the finest level failed, failed a check, or a run
    created energy (or, ``strict``, warned)."""
    if not records:
        return 1, "no level ran"
    runs = sorted(records, key=level_of)
    finest = runs[-1]
    level = level_of(finest)
    if finest.error is not None:
        return 1, f"the finest level {level} failed: {finest.error}"
    failed = [c["quantity"] for c in finest.checks if not c["passed"] and c["quantity"] not in departures]
    if failed:
        return 1, f"the finest level {level} fails its checks: {', '.join(failed)} NOOK"
    grew = [str(level_of(r)) for r in runs if r.energy_grew]
    if grew:
        return 1, f"level {', '.join(grew)} created energy: its numbers are not to be trusted"
    if strict and any(r.warnings for r in runs):
        return 1, "a level warned (--strict)"
    others = [f"{level_of(r)} ({r.status})" for r in runs[:-1] if r.status in ("NOOK", "FAILED")]
    said = f"; coarser level {', '.join(others)}" if others else ""
    kept = f"; {len(departures)} reference(s) stop holding (said above)" if departures else ""
    outside = [u["quantity"] for u in finest.unchecked if _status(finest, None, u["quantity"]) == "out of range"]
    checked = ("passes its checks" if finest.checks else
               f"is outside the levels its references state ({', '.join(outside)})" if outside else
               "has no reference to pass")
    return 0, f"the finest level {level} {checked}{said}{kept}"


def refine_document(records: Sequence[RunRecord], conv: dict[str, Convergence],
                    departures: dict[str, str], status: tuple[int, str]) -> dict[str, Any]:
    """The refine.json document: levels, each quantity's values, errors, statuses and
    convergence, the references that stop holding, and the verdict."""
    runs = sorted(records, key=level_of)
    doc: dict[str, Any] = {
        "levels": [level_of(r) for r in runs],
        "dofs": [r.timing.get("n_dofs") for r in runs],
        "wall_s": [r.timing.get("wall_s") for r in runs],
        "runs": [{"level": level_of(r), "status": r.status, "error": r.error} for r in runs],
        "quantities": {},
        "exit_status": status[0],
        "verdict": status[1],
        "time_and_mesh": time_and_mesh(runs, conv),
    }
    bars = mesh_bars(runs, conv) if timed(runs) else {}
    for name, c in conv.items():
        checks = [_check(r, name) for r in runs]
        doc["quantities"][name] = {
            "values": [r.quantities.get(name) if r.error is None else None for r in runs],
            "abs_errors": [_errors(k)[0] for k in checks],
            "rel_errors": [_errors(k)[1] for k in checks],
            "status": [_status(r, k, name) for r, k in zip(runs, checks)],
            "reference": next((k["reference"] for k in reversed(checks) if k is not None), None),
            "convergence": c.as_dict(),
            "reference_stops_holding": departures.get(name),
        }
        if timed(runs):
            doc["quantities"][name]["time_errors"] = [r.time_errors.get(name) if r.error is None else None
                                                     for r in runs]
            doc["quantities"][name]["mesh_bar"] = bars.get(name)
            doc["quantities"][name]["dominant"] = dominant(bars.get(name), time_error(runs, name))
    return doc


@dataclass(frozen=True)
class RefineStudy:
    """A mesh refinement study's runs and tables, as ``fem2d refine`` prints and writes them:
    ``study[name]`` is a quantity's :class:`~fem2d.studies.convergence.Convergence` (its
    error bar at the finest level), :meth:`table` the level table (refine.csv),
    :meth:`convergence_table` one row per quantity, :meth:`document` refine.json;
    ``departures`` the references that stop holding as h falls, ``exit_status`` and
    ``verdict`` the study's (:func:`verdict`)."""

    records: tuple[RunRecord, ...]
    convergence: dict[str, Convergence]
    departures: dict[str, str]
    exit_status: int
    verdict: str

    @classmethod
    def of(cls, records: Sequence[RunRecord], strict: bool = False) -> RefineStudy:
        """The study of ``records`` (one run per level)."""
        conv = study_convergence(records)
        departures = reference_departures(records, conv)
        status, line = verdict(records, departures, strict)
        return cls(tuple(records), conv, departures, status, line)

    def __getitem__(self, name: str) -> Convergence:
        if name not in self.convergence:
            raise KeyError(f"{name!r}: the study's quantities are {', '.join(self.convergence)}")
        return self.convergence[name]

    @property
    def levels(self) -> list[int]:
        """The levels run, coarsest first."""
        return sorted(level_of(r) for r in self.records)

    def table(self) -> Table:
        """:func:`level_table` with each quantity's convergence on its finest row (refine.csv)."""
        return level_table(self.records, self.convergence)

    def convergence_table(self) -> Table:
        """:func:`convergence_table`: one row per quantity."""
        return convergence_table(self.records, self.convergence)

    def document(self) -> dict[str, Any]:
        """:func:`refine_document`: refine.json."""
        return refine_document(self.records, self.convergence, self.departures, (self.exit_status, self.verdict))

