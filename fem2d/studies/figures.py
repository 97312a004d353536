"""Figures of one run, at the end of ``fem2d run --plot`` or later from its
directory (``fem2d plot RESULT_DIR``): the reported quantity against time with
the exact curve when the case has one, the contact forces, the energy balance,
the contact pressure along the interface (``--plot`` only: it needs the
slave nodes' areas), the impact forces. Titles and legends name the overrides.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Mapping
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
    """The record of a finished :class:`~fem2d.runs.result.Result`, labelled by its overrides."""
    from fem2d.studies.execution import record_of

    case = result.case
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
    csv_path = path / "history.csv"
    if (path / "history.npz").is_file():
        with np.load(path / "history.npz") as data:
            histories = {without_unit(name): data[name] for name in data.files}
    elif csv_path.is_file():
        with csv_path.open(newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        if rows:
            data = np.array(rows[1:], dtype=float).reshape(len(rows) - 1, len(rows[0]))
            histories = {without_unit(name): data[:, i] for i, name in enumerate(rows[0])}
    overrides = doc.get("overrides") or {}
    spec = RunSpec(doc.get("case", path.name), dict(overrides), overrides_label(overrides))
    return RunRecord(spec, doc.get("case", path.name), doc.get("quantities", {}), doc.get("checks", []),
                     doc.get("timing", {}), doc.get("settings", {}), histories, mesh=doc.get("mesh") or {})


def run_figures(record: RunRecord, out_dir: str | os.PathLike) -> list[tuple[str, Path]]:
    """Draw the figures of one run into ``out_dir``; (caption, path) pairs."""
    from fem2d.io import plots
    from fem2d.studies.validate import case_plots

    out = Path(out_dir)
    figures = case_plots(record.case, [record], out)
    h = record.histories
    title = f"{record.run_case.title or record.case} [{record.label}]"
    if "time" in h and "normal_force" in h:
        series = [(name.replace("_", " "), h["time"], h[name]) for name in ("normal_force", "tangential_force")
                  if name in h]
        path = plots.plot_histories(series, out / f"{record.case}_contact_forces.png", None, "force (N)", title)
        figures.append(("contact forces against time", path))
    if "time" in h and "u" not in h and "q_1" in h:
        path = plots.plot_histories([(record.label, h["time"], h["q_1"])], out / f"{record.case}_modal.png",
                                    None, "modal coordinate q_1", title)
        figures.append(("first modal coordinate against time", path))
    return figures
