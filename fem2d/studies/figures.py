"""Figures of one run, at the end of ``fem2d run --plot`` or later from its
directory (``fem2d plot RESULT_DIR``): the reported quantity against time with
the exact curve when the case has one, the contact forces, the energy balance,
the contact pressure along the interface (``--plot`` only: it needs the
slave nodes' areas), the pressure along each slave surface at the instants of
``report.pressure_at`` (``pressure.csv``) with the exact Hertz profile when the
run has one, the impact forces. Titles and legends name the overrides.
"""

from __future__ import annotations

import csv
import json
import os
import tempfile
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from fem2d.errors import InputError
from fem2d.studies.execution import RunRecord, RunSpec


def overrides_label(overrides: Mapping[str, Any]) -> str:
    """``{"contact.mu": 0.5}`` -> ``"contact.mu=0.5"``; none: ``"as in the case file"``.

    >>> overrides_label({"contact.mu": 0.5, "contact.method": "penalty"})
    'contact.mu=0.5, contact.method=penalty'
    """
    return ", ".join(f"{k}={v}" for k, v in overrides.items()) or "as in the case file"


def record_of_run(result) -> RunRecord:
    """The record of a finished :class:`~fem2d.runs.result.Result`, labelled by its
    overrides (a model composed in Python: named ``fem2d``)."""
    from fem2d.io.run_outputs import COMPOSED
    from fem2d.studies.execution import record_of

    case = result.case
    if case is None:  # a model composed in Python
        return record_of(result, RunSpec(COMPOSED, {}, "composed in Python"))
    spec = RunSpec(str(case.path or case.name), dict(case.overrides), overrides_label(case.overrides))
    return record_of(result, spec)


def record_from_dir(path: str | os.PathLike) -> RunRecord:
    """A record from a run directory's ``result.json`` and ``history.npz`` (or ``history.csv``)."""
    path = Path(path)
    try:
        doc = json.loads((path / "result.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no result.json (expected a directory written by fem2d run)") from None
    except (OSError, ValueError) as exc:
        raise InputError(f"{path / 'result.json'}: cannot read ({exc})") from None
    from fem2d.io.columns import without_unit

    histories: dict[str, np.ndarray] = {}
    if (path / "history.npz").is_file():
        histories = {without_unit(name): column for name, column in read_history_npz(path / "history.npz").items()}
    elif (path / "history.csv").is_file():
        histories = {without_unit(name): column for name, column in read_history_csv(path / "history.csv").items()}
    overrides = doc.get("overrides") or {}
    from fem2d.io.run_outputs import COMPOSED

    composed = doc.get("case") == COMPOSED and not doc.get("settings")  # written by Result.write of a model
    spec = RunSpec(doc.get("case", path.name), dict(overrides),
                   "composed in Python" if composed else overrides_label(overrides))
    pressure = read_pressure_csv(path / "pressure.csv")
    return RunRecord(spec, doc.get("case", path.name), doc.get("quantities", {}), doc.get("checks", []),
                     doc.get("timing", {}), doc.get("settings", {}), histories, mesh=doc.get("mesh") or {},
                     extras={"pressure": pressure} if pressure else {}, warnings=list(doc.get("warnings") or []))


def run_figures(record: RunRecord, out_dir: str | os.PathLike,
                which: Iterable[str] | None = None) -> list[tuple[str, Path]]:
    """Draw the figures of one run into ``out_dir``; (caption, path) pairs.

    ``which`` keeps only the figures of those kinds, the name that ends their file
    ``<case>_<kind>.png`` (:data:`fem2d.io.run_outputs.FIGURES`); None draws them all."""
    from fem2d.io import plots

    out = Path(out_dir)
    wanted = None if which is None else set(which)
    figures = _case_figures(record, out, wanted)
    h = record.histories
    title = f"{record.run_case.title or record.case} [{record.label}]"
    if "time" in h and "normal_force" in h and (wanted is None or "contact_forces" in wanted):
        series = [(name.replace("_", " "), h["time"], h[name]) for name in ("normal_force", "tangential_force")
                  if name in h]
        path = plots.plot_histories(series, out / f"{record.case}_contact_forces.png", None, "force (N)", title)
        figures.append(("contact forces against time", path))
    table = record.extras.get("pressure")
    if table and (wanted is None or "pressure_profile" in wanted):
        path = pressure_figure(record, table, out)
        figures.append(("contact pressure along the slave surfaces (pressure.csv)", path))
    if "time" in h and "u" not in h and "q_1" in h and (wanted is None or "modal" in wanted):
        path = plots.plot_histories([(record.label, h["time"], h["q_1"])], out / f"{record.case}_modal.png",
                                    None, "modal coordinate q_1", title)
        figures.append(("first modal coordinate against time", path))
    return figures


def _case_figures(record: RunRecord, out: Path, wanted: set[str] | None) -> list[tuple[str, Path]]:
    """The figures :func:`fem2d.studies.validate.case_plots` draws for this one run, only
    the ``wanted`` kinds kept (drawn aside and the others dropped; None: all of them)."""
    from fem2d.studies.validate import case_plots

    if wanted is None:
        return case_plots(record.case, [record], out)
    if not wanted & {"history", "energy", "pressure", "impacts"}:
        return []
    prefix = f"{record.case}_"
    out.mkdir(parents=True, exist_ok=True)
    kept = []
    with tempfile.TemporaryDirectory(prefix=".fem2d-figures-", dir=out) as aside:
        for caption, path in case_plots(record.case, [record], aside):
            if path.name.startswith(prefix) and path.name[len(prefix):].removesuffix(".png") in wanted:
                os.replace(path, out / path.name)
                kept.append((caption, out / path.name))
    return kept


def read_history_npz(path: Path) -> dict[str, np.ndarray]:
    """The columns of a ``history.npz`` written by fem2d run: numeric arrays, never
    unpickled. Anything else (text, pickled objects, a broken archive) is an
    :class:`~fem2d.errors.InputError` naming the file."""
    try:
        with path.open("rb") as f:
            if f.read(4) != b"PK\x03\x04":
                raise InputError(f"{path}: not a fem2d history (not a NumPy .npz archive)")
        with np.load(path, allow_pickle=False) as data:
            columns = {name: data[name] for name in data.files}
    except InputError:
        raise
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise InputError(f"{path}: not a fem2d history ({_one_line(exc)})") from None
    for name, column in columns.items():
        if column.dtype.kind not in "biuf":
            raise InputError(f"{path}: not a fem2d history (column {name!r} holds {column.dtype}, not numbers)")
    return columns


def read_history_csv(path: Path) -> dict[str, np.ndarray]:
    """The columns of a ``history.csv`` (a header row, then numbers); a file that is
    not one is an :class:`~fem2d.errors.InputError` naming it."""
    try:
        with path.open(newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        if not rows:
            return {}
        data = np.array(rows[1:], dtype=float).reshape(len(rows) - 1, len(rows[0]))
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not a fem2d history ({_one_line(exc)})") from None
    return {name: data[:, i] for i, name in enumerate(rows[0])}


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def read_pressure_csv(path: str | os.PathLike) -> tuple[list[str], list[list]] | None:
    """The rows of a run directory's ``pressure.csv`` (None without one)."""
    path = Path(path)
    if not path.is_file():
        return None
    try:
        with path.open(newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        header = rows[0]
        parsed = [[row[0], *(float(v) for v in row[1:])] for row in rows[1:]]
    except (OSError, ValueError, IndexError) as exc:
        raise InputError(f"{path}: cannot read ({exc})") from None
    return header, parsed


def pressure_figure(record: RunRecord, table: tuple[list[str], list[list]], out: Path) -> Path:
    """The pressure along each slave surface at each kept instant, with the exact
    Hertz profile :math:`p_0 \\sqrt{1 - (s - \\bar s)^2/a^2}` at the end when the
    run's checks hold an exact ``peak_pressure`` and ``contact_half_width``
    (centred on the computed distribution's mean abscissa)."""
    from fem2d.io import plots

    header, rows = table
    col = {name: i for i, name in enumerate(header)}
    groups: dict[tuple[str, float], list[list]] = {}
    for row in rows:
        groups.setdefault((row[col["zone"]], float(row[col["time_s"]])), []).append(row)
    profiles, exact, xlim = [], [], None
    end = max(t for _, t in groups)
    several = len({zone for zone, _ in groups}) > 1
    reference = {c["quantity"]: c["reference"] for c in record.checks if c.get("reference") is not None}
    for (zone, t), zone_rows in groups.items():
        s = np.array([r[col["s_m"]] for r in zone_rows])
        p = np.array([r[col["pressure_Pa"]] for r in zone_rows])
        profiles.append(((f"{zone}, " if several else "") + f"t = {t:g} s", s, p))
        prefix = next((k[: -len("peak_pressure")] for k in reference if k.endswith("peak_pressure")
                       and (several or k == "peak_pressure")), None)
        if t != end or prefix is None or f"{prefix}contact_half_width" not in reference:
            continue
        p0, a = reference[f"{prefix}peak_pressure"], reference[f"{prefix}contact_half_width"]
        centre = float((s * p).sum() / p.sum()) if p.sum() > 0 else 0.0
        fine = np.linspace(centre - 1.25 * a, centre + 1.25 * a, 401)
        ratio = (fine - centre) / a
        exact.append((f"exact (Hertz): p0 = {p0 / 1e6:.5g} MPa, a = {a * 1e3:.5g} mm",
                      fine, p0 * np.sqrt(np.clip(1.0 - ratio**2, 0.0, None))))
        xlim = (centre - 1.5 * a, centre + 1.5 * a)  # zoom on the strip and its surroundings
    title = f"{record.run_case.title or record.case} [{record.label}]: contact pressure"
    return plots.plot_pressure_profiles(profiles, out / f"{record.case}_pressure_profile.png", title, exact, xlim)
