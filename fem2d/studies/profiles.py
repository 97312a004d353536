r"""The contact pressure profiles of a comparison: each run's last profile, its distance to the
exact one, and one figure with them all.

A run that keeps its pressure (``report.pressure_at``, ``pressure.csv``) has, at its last kept
instant, the pressure :math:`p_j` of each slave node at the abscissa :math:`s_j` along the
surface (:mod:`fem2d.post.pressure`). Where its checks hold Hertz's ``peak_pressure``
:math:`p_0` and ``contact_half_width`` :math:`a`, the exact profile is
:math:`p(s) = p_0 \sqrt{1 - (s - \bar s)^2 / a^2}`, centred on the computed distribution's mean
abscissa :math:`\bar s`, and the profile's relative :math:`L^2` error is

.. math::

    e = \left(\frac{\int (p_h - p)^2\, ds}{\int p^2\, ds}\right)^{1/2},

integrated by the trapezoidal rule on the nodes (:func:`profile_error`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from fem2d.studies.execution import RunRecord
from fem2d.studies.figures import read_pressure_csv


def last_profile(record: RunRecord) -> tuple[np.ndarray, np.ndarray] | None:
    """(s, p) of the first zone at the last instant of the run's ``pressure.csv``, sorted by s
    (None without one)."""
    if record.error is not None or not record.spec.out_dir:
        return None
    table = read_pressure_csv(Path(record.spec.out_dir) / "pressure.csv")
    if table is None or not table[1]:
        return None
    return table_profile(*table)


def table_profile(header: Sequence[str], rows: Sequence[Sequence]) -> tuple[np.ndarray, np.ndarray]:
    """(s, p) of the first zone at the last instant of a pressure table (``pressure.csv``'s, or a
    :class:`~fem2d.runs.result.Result`'s ``fields.pressure``), sorted by s."""
    col = {name: i for i, name in enumerate(header)}
    zone = rows[0][col["zone"]]
    end = max(float(r[col["time_s"]]) for r in rows if r[col["zone"]] == zone)
    kept = [r for r in rows if r[col["zone"]] == zone and float(r[col["time_s"]]) == end]
    s = np.array([r[col["s_m"]] for r in kept], dtype=float)
    p = np.array([r[col["pressure_Pa"]] for r in kept], dtype=float)
    order = np.argsort(s)
    return s[order], p[order]


def hertz_of(record: RunRecord) -> tuple[float, float] | None:
    """Hertz's (p0, a) of the run's checks, None when it has none."""
    reference = {c["quantity"]: c["reference"] for c in record.checks if c.get("reference") is not None}
    if "peak_pressure" in reference and "contact_half_width" in reference:
        return float(reference["peak_pressure"]), float(reference["contact_half_width"])
    return None


def centre_of(s: np.ndarray, p: np.ndarray) -> float:
    """The mean abscissa of the pressure p at s (0 without pressure)."""
    return float((s * p).sum() / p.sum()) if p.sum() > 0 else 0.0


def exact_profile(s: np.ndarray, p0: float, a: float, centre: float = 0.0) -> np.ndarray:
    """Hertz's profile at the abscissae s, centred on ``centre``.

    >>> exact_profile(np.array([-1.0, 0.0, 0.5]), 2.0, 1.0).round(6).tolist()
    [0.0, 2.0, 1.732051]
    """
    return p0 * np.sqrt(np.clip(1.0 - ((s - centre) / a) ** 2, 0.0, None))


def profile_error(s: np.ndarray, p: np.ndarray, exact: np.ndarray) -> float:
    """The relative L2 error of the profile p against ``exact`` (trapezoidal rule on s).

    >>> s = np.linspace(0.0, 1.0, 11)
    >>> round(profile_error(s, 1.01 * np.ones(11), np.ones(11)), 12)
    0.01
    """
    return float(np.sqrt(np.trapezoid((p - exact) ** 2, s) / np.trapezoid(exact**2, s)))


def pressure_errors(records: Sequence[RunRecord]) -> dict[str, float]:
    """Per run label, its last profile's relative L2 error against Hertz's (runs with both)."""
    out = {}
    for record in records:
        profile, hertz = last_profile(record), hertz_of(record)
        if profile is None or hertz is None:
            continue
        s, p = profile
        out[record.label] = profile_error(s, p, exact_profile(s, *hertz, centre_of(s, p)))
    return out


def compare_pressure_figure(records: Sequence[RunRecord], path: Path, title: str) -> Path | None:
    """Every run's last pressure profile on one plot, with Hertz's where the runs have it
    (None when no run kept a profile)."""
    from fem2d.io import plots

    profiles, exact, xlim = [], [], None
    for record in records:
        profile = last_profile(record)
        if profile is None:
            continue
        s, p = profile
        profiles.append((record.label, s, p))
        hertz = hertz_of(record)
        if hertz is not None and not exact:
            p0, a = hertz
            centre = centre_of(s, p)
            fine = np.linspace(centre - 1.25 * a, centre + 1.25 * a, 401)
            exact.append((f"exact (Hertz): p0 = {p0 / 1e6:.5g} MPa, a = {a * 1e3:.5g} mm", fine,
                          exact_profile(fine, p0, a, centre)))
            xlim = (centre - 1.5 * a, centre + 1.5 * a)
    if not profiles:
        return None
    return plots.plot_pressure_profiles(profiles, path, title, exact, xlim)
