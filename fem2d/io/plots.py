"""Matplotlib figures of runs and studies (PNG, written atomically).

Every function takes plain arrays or :class:`fem2d.studies.study.RunRecord` lists and
a path, draws with the non-interactive Agg backend, labels axes with units and
returns the path. Nothing here runs a case.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from fem2d.io.files import atomic_path

Curve = tuple[str, Callable[[np.ndarray], np.ndarray]]

_COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"]


def _pyplot():
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


def _save(fig, path: str | os.PathLike) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=110)  # laid out by tight_layout: no second draw to crop
    _pyplot().close(fig)
    return path


def save_when_run(fig) -> Path | None:
    """Write ``fig`` next to the script being run as a PNG (``python examples/plot_hertz.py``
    writes ``examples/plot_hertz.png``), and show it too when Matplotlib's backend is an
    interactive one; returns the PNG's path. The script is the ``__main__`` module's file when
    it is also the program (``sys.argv[0]``): imported, or run by a docs build (sphinx-gallery
    keeps its own copies of the figures) or by a test under another program, it does nothing
    and returns None."""
    import sys

    script = getattr(sys.modules.get("__main__"), "__file__", None)
    if not script or not sys.argv or not sys.argv[0] or Path(sys.argv[0]).resolve() != Path(script).resolve():
        return None
    import matplotlib
    from matplotlib.backends import BackendFilter, backend_registry

    path = Path(script).resolve().with_suffix(".png")
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=110)
    if matplotlib.get_backend().lower() in backend_registry.list_builtin(BackendFilter.INTERACTIVE):
        import matplotlib.pyplot as plt

        plt.show()
    return path


def _finish(ax, title: str | None) -> None:
    """Grid, legend and title, the same on every figure."""
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    if title:
        ax.set_title(title, fontsize=10)


def plot_histories(
    series: Sequence[tuple[str, np.ndarray, np.ndarray]],
    path: str | os.PathLike,
    curve: Curve | None = None,
    ylabel: str = "displacement (m)",
    title: str = "",
) -> Path:
    """Overlay of reported-dof histories ``(label, t, u)`` with the reference
    curve; with a curve, a second panel shows each history minus the curve."""
    plt = _pyplot()
    series = [s for s in series if len(s[1])]
    rows = 2 if curve is not None and series else 1
    fig, axes = plt.subplots(
        rows, 1, figsize=(8, 6.4 if rows == 2 else 4.4), sharex=True, squeeze=False,
        gridspec_kw={"height_ratios": [3, 2] if rows == 2 else [1]},
    )
    ax = axes[0, 0]
    t_all = np.concatenate([s[1] for s in series]) if series else np.linspace(0.0, 1.0, 2)
    if curve is not None:
        t_ref = np.linspace(float(t_all.min()), float(t_all.max()), 2001)
        ax.plot(t_ref, curve[1](t_ref), color="0.55", lw=4.5, alpha=0.55, label=curve[0], zorder=1)
    styles = ["-", "--", "-.", ":"]
    for i, (label, t, u) in enumerate(series):
        # line styles too, so that identical runs (e.g. two solvers) stay visible on top of each other
        ax.plot(t, u, styles[i % 4], color=_COLORS[i % len(_COLORS)], lw=1.3, label=label, zorder=2)
    ax.set_ylabel(ylabel)
    _finish(ax, title)
    if rows == 2:
        ax2 = axes[1, 0]
        for i, (label, t, u) in enumerate(series):
            ax2.plot(t, u - curve[1](t), styles[i % 4], color=_COLORS[i % len(_COLORS)], lw=1.1, label=label)
        ax2.axhline(0.0, color="0.4", lw=0.8)
        ax2.set_ylabel("computed - reference (m)")
        ax2.grid(True, alpha=0.3)
    axes[-1, 0].set_xlabel("time t (s)")
    fig.tight_layout()
    return _save(fig, path)


def curve_deviation(t: np.ndarray, u: np.ndarray, curve: Curve) -> float:
    """Largest ``|u(t_k) - f(t_k)|`` over the samples (m)."""
    return float(np.max(np.abs(np.asarray(u) - curve[1](np.asarray(t))))) if len(t) else float("nan")


ENERGY_TERMS = (
    ("kinetic", "kinetic T"),
    ("elastic", "strain U (bodies)"),
    ("springs", "springs U$_s$"),
    ("work_loads", "work of the loads W"),
    ("work_motions", "work of the imposed motions W$_c$"),
    ("friction_dissipation", "friction dissipation D"),
    ("damping_dissipation", "damping dissipation D$_c$"),
    ("numerical_dissipation", "numerical dissipation D$_h$"),
)


def plot_energy(histories: Mapping[str, np.ndarray], path: str | os.PathLike, title: str = "") -> Path:
    r"""The energy balance (:mod:`fem2d.post.energy`) term by term over time (J per metre
    of thickness): kinetic and strain energy, the work of the loads and of the imposed
    motions, the friction, damping and numerical dissipation (a term a history does not
    hold, or holds at zero throughout, is not drawn), and in its own panel the residual
    :math:`\rho = T + U + U_s - E_0 - W - W_c + D + D_c + D_h`, the one term a run judges,
    with its final value relative to :math:`\max(E_0, \max |W + W_c|)` (``energy_drift``)."""
    plt = _pyplot()
    t = histories["time"]
    drawn = [(k, label) for k, label in ENERGY_TERMS if k in histories and np.any(histories[k])]
    peak = max([float(np.max(np.abs(histories[k]))) for k, _ in drawn] + [1.0])
    scale, unit = next((f, u) for f, u in ((1e6, "MJ"), (1e3, "kJ"), (1.0, "J")) if peak >= 10 * f or f == 1.0)
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(8, 6.4), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    for key, label in drawn:
        i = [k for k, _ in ENERGY_TERMS].index(key)
        ax.plot(t, histories[key] / scale, color=_COLORS[i % len(_COLORS)], lw=1.4, label=label)
    ax.set_ylabel(f"energy ({unit} per m of thickness)")
    _finish(ax, title)
    residual = histories.get("energy_residual", np.zeros_like(t))
    ax2.plot(t, residual, color="k", lw=1.0,
             label="residual T + U + U$_s$ - E$_0$ - W - W$_c$ + D + D$_c$ + D$_h$")
    work = histories.get("work_loads", np.zeros_like(t)) + histories.get("work_motions", np.zeros_like(t))
    stored = sum(histories[k] for k in ("kinetic", "elastic", "springs") if k in histories)
    reference = max(float(stored[0]) if np.ndim(stored) else 0.0, float(np.max(np.abs(work), initial=0.0)))
    if len(residual) and reference > 0.0:
        ax2.text(0.01, 0.95, f"final residual / max(E$_0$, |W + W$_c$|) = {residual[-1] / reference:.2e}",
                 transform=ax2.transAxes, va="top", fontsize=8)
    ax2.legend(fontsize=8, loc="lower right")
    ax2.set_ylabel("balance residual (J/m)")
    ax2.set_xlabel("time t (s)")
    ax2.grid(True, alpha=0.3)
    fig.tight_layout()
    return _save(fig, path)


def plot_energy_drifts(
    series: Sequence[tuple[str, np.ndarray, np.ndarray]], path: str | os.PathLike, title: str = ""
) -> Path:
    """Energy drift histories ``(label, t, drift)``: the energy balance's residual over
    ``max(E(0), max |W + W_c|)`` (see :mod:`fem2d.post.energy`) against time, with the exact value, zero (the
    energy of an elastic impact is constant)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.4))
    t_all = np.concatenate([s[1] for s in series]) if series else np.linspace(0.0, 1.0, 2)
    ax.plot([t_all.min(), t_all.max()], [0.0, 0.0], color="0.55", lw=4.5, alpha=0.55, label="exact: constant energy")
    styles = ["-", "--", "-.", ":"]
    for i, (label, t, drift) in enumerate(series):
        ax.plot(t, drift, styles[i % 4], color=_COLORS[i % len(_COLORS)], lw=1.3, label=label, zorder=2)
    ax.set_xlabel("time t (s)")
    ax.set_ylabel("energy drift: residual / max(E$_0$, |W + W$_c$|)")
    spread = max([float(np.max(np.abs(d))) for _, _, d in series if len(d)] + [1e-12])
    if spread > 10.0:
        ax.set_yscale("symlog", linthresh=1e-2)
    _finish(ax, title)
    fig.tight_layout()
    return _save(fig, path)


def plot_contact_pressure(
    x: np.ndarray,
    times: np.ndarray,
    pressure: np.ndarray,
    path: str | os.PathLike,
    at: Sequence[float] | None = None,
    title: str = "",
    reference: float | None = None,
    areas: np.ndarray | None = None,
) -> Path:
    """Contact pressure (Pa) along the interface, at the recorded instants
    nearest to ``at`` (default: five instants spread over the run).

    ``x`` (n_slave,) are the slave nodes' reference abscissae, ``pressure``
    (n_times, n_slave); ``reference`` draws a horizontal line (e.g. the
    applied pressure); with the nodes' tributary ``areas`` the legend gives
    each instant's mean pressure (total normal force / contact area)."""
    plt = _pyplot()
    order = np.argsort(x)
    if at is None:
        at = np.linspace(times[0], times[-1], 6)[1:]
    fig, ax = plt.subplots(figsize=(8, 4.4))
    for i, t in enumerate(at):
        k = int(np.argmin(np.abs(times - t)))
        label = f"t = {times[k]:.3g} s"
        if areas is not None:
            label += f" (mean {np.sum(pressure[k] * areas) / np.sum(areas) / 1e3:.4g} kPa)"
        ax.plot(x[order], pressure[k, order] / 1e3, "o-", color=_COLORS[i % len(_COLORS)], ms=3.5, lw=1.2,
                label=label)
    if reference is not None:
        ax.axhline(reference / 1e3, color="0.4", ls="--", lw=1.0, label=f"{reference / 1e3:g} kPa (applied)")
    ax.set_xlabel("position along the slave surface, reference x (m)")
    ax.set_ylabel("contact pressure (kPa)")
    _finish(ax, title)
    fig.tight_layout()
    return _save(fig, path)


def plot_pressure_profiles(
    profiles: Sequence[tuple[str, np.ndarray, np.ndarray]],
    path: str | os.PathLike,
    title: str = "",
    exact: Sequence[tuple[str, np.ndarray, np.ndarray]] = (),
    xlim: tuple[float, float] | None = None,
) -> Path:
    """Contact pressure (Pa) against the abscissa along the slave surface (m):
    one marked line per (label, s, p) profile, and each exact profile (e.g.
    Hertz's :math:`p_0\\sqrt{1 - s^2/a^2}`) as a dashed line."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.4))
    for i, (label, s, p) in enumerate(profiles):
        ax.plot(s, np.asarray(p) / 1e6, "o-", color=_COLORS[i % len(_COLORS)], ms=3.0, lw=1.0, label=label)
    for label, s, p in exact:
        ax.plot(s, np.asarray(p) / 1e6, "--", color="0.15", lw=1.3, label=label)
    if xlim is not None:
        ax.set_xlim(*xlim)
    ax.set_xlabel("position along the slave surface s (m)")
    ax.set_ylabel("contact pressure (MPa)")
    _finish(ax, title)
    fig.tight_layout()
    return _save(fig, path)


#: at most this many quantities get a panel of the refinement figure (those with a reference first)
REFINE_PANELS = 6


def plot_refinement(doc: Mapping[str, Any], path: str | os.PathLike, title: str = "") -> Path:
    """One log-log panel per quantity against the relative cell size h / h_0 = 2^-level,
    from the refine.json document (:func:`fem2d.studies.refine.refine_document`):
    the distance of each level to the extrapolated value with the fitted slope
    ``p`` drawn through it and labelled (else the changes between levels), the error
    against the reference where there is one, and the finest level's error bar
    (its half-width, in the quantity's units) as a vertical bar; then wall time
    against dofs. Quantities the same at every level get no panel."""
    plt = _pyplot()
    levels = np.asarray(doc["levels"], float)
    names = [n for n, q in doc["quantities"].items() if q["convergence"]["band"] or q["reference"] is not None]
    names = sorted(names, key=lambda n: doc["quantities"][n]["reference"] is None)[:REFINE_PANELS]
    n = len(names) + 1
    cols = min(n, 3)
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.6 * rows), squeeze=False)
    flat = list(axes.ravel())
    for ax, name in zip(flat, names):
        _refinement_panel(ax, name, doc["quantities"][name], levels)
    ax = flat[len(names)]
    timing = sorted({(d, r) for d, r in zip(doc["dofs"], doc.get("wall_s", [])) if d and r})
    if timing:
        d, w = (np.asarray(v, float) for v in zip(*timing))
        ax.loglog(d, w, "o-", color="k", lw=1.2, ms=4, label="wall time")
        ax.loglog(d, w[-1] * d / d[-1], ":", color="0.5", label="slope 1 (linear in dofs)")
        ax.legend(fontsize=7, loc="best")
    ax.set_xlabel("degrees of freedom")
    ax.set_ylabel("wall time per run (s)")
    ax.grid(True, which="both", alpha=0.3)
    for extra in flat[len(names) + 1:]:
        extra.set_visible(False)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return _save(fig, path)


def _refinement_panel(ax, name: str, q: Mapping[str, Any], levels: np.ndarray) -> None:
    c = q["convergence"]
    done = np.array([v is not None for v in q["values"]])
    h = 2.0 ** -levels[done]
    f = np.asarray([v for v in q["values"] if v is not None], float)
    if c["extrapolated"] is not None and c["kind"] == "monotone":
        dist = np.abs(f - c["extrapolated"])
        keep = dist > 0
        ax.loglog(h[keep], dist[keep], "o", color=_COLORS[0], ms=4, label="|f - f_extrapolated|")
        fit = np.isin(levels[done], c["fit_levels"])
        h_fit, x = h[fit], h[fit] ** c["order"]
        a = np.sum((f[fit] - c["extrapolated"]) * x) / np.sum(x * x)  # the fit's f - f_0 = a h^p
        ax.loglog(h_fit, abs(a) * x, "-", color=_COLORS[0], lw=1.0,
                  label=f"fit: slope {c['order']:.2f} (levels {c['fit_levels'][0]}-{c['fit_levels'][-1]})")
    elif f.size > 1:
        changes = np.abs(np.diff(f))
        keep = changes > 0
        ax.loglog(h[1:][keep], changes[keep], "s--", color=_COLORS[0], mfc="none", ms=4,
                  label=f"change from the previous level ({c['kind']})")
    errors = np.asarray([e for e, ok in zip(q["abs_errors"], done) if ok], dtype=object)
    has = np.array([e is not None and e > 0 for e in errors], bool)
    if has.any():
        ax.loglog(h[has], errors[has].astype(float), "^:", color=_COLORS[1], ms=4, label="error against the reference")
    if c["band"]:
        ax.errorbar([h[-1]], [c["band"]], yerr=[[c["band"] * 0.9], [0.0]], fmt="_", color="k", capsize=3,
                    label=f"error bar of the finest level: +-{c['band']:.2g}")
    ax.set_title(name, fontsize=9)
    from matplotlib.ticker import NullFormatter

    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("relative cell size h / h_0")
    ax.set_ylabel("absolute difference (units of the quantity)", fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6, loc="best")


def plot_wear_power(
    points: Sequence[tuple[str, float, float]],
    path: str | os.PathLike,
    mu: float,
    weight: float,
    mass: float,
    omega: float,
    title: str = "",
) -> Path:
    r"""Mean wear power (W) against the base acceleration amplitude a0 (m/s^2),
    computed points ``(label, a0, P)`` over the closed-form curves, with the
    three regimes shaded: stick (:math:`a_0 \le \mu g`), stick-slip, and
    slip-slip (:math:`a_0 \ge \mu g / \eta^*`). ``weight`` = m g (N) is the
    normal force. Zero powers (stick) sit on the bottom axis."""
    from fem2d.exact.modal_references import ETA_STAR, sdnd104_asymptotic_power, sdnd104_stick_slip_power

    plt = _pyplot()
    g = weight / mass
    a_stick, a_slip = mu * g, mu * g / ETA_STAR
    a_max = max([a for _, a, _ in points] + [2.5 * a_slip])
    fig, ax = plt.subplots(figsize=(8, 4.8))
    a_ss = np.geomspace(a_stick * (1 + 1e-9), a_slip * (1 - 1e-9), 200)
    p_ss = [sdnd104_stick_slip_power(a, mass, mu, g, omega) for a in a_ss]
    a_sl = np.geomspace(a_slip, a_max * 1.2, 200)
    p_sl = [sdnd104_asymptotic_power(a, mass, mu, g, omega) for a in a_sl]
    ax.plot(a_ss, p_ss, color="0.35", lw=2.5, alpha=0.6, label="periodic stick-slip (closed form)")
    ax.plot(a_sl, p_sl, color="0.35", lw=2.5, alpha=0.6, ls="--", label="slip-slip, asymptotic (closed form)")
    positive = [p for _, _, p in points if p > 0] + p_ss[1:] + p_sl
    floor = 10 ** math.floor(math.log10(min(p for p in positive if p > 0))) / 10
    labels = list(dict.fromkeys(lbl for lbl, _, _ in points))
    markers = "osD^vP*X"
    for i, lbl in enumerate(labels):
        mine = [(a, p) for lab, a, p in points if lab == lbl]
        a, p = np.array(mine).T
        ax.plot(a, np.where(p > 0, p, floor), markers[i % len(markers)], color=_COLORS[i % len(_COLORS)], ms=7,
                mfc="none", mew=1.5, label=lbl, clip_on=False, zorder=3)
    zeros = sorted({a for _, a, p in points if p <= 0})
    for a in zeros:
        ax.annotate("P = 0", (a, floor), xytext=(6, 10), textcoords="offset points", fontsize=8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(floor, None)
    x0 = min([a for _, a, _ in points] + [a_stick]) * 0.8
    ax.set_xlim(x0, a_max * 1.25)
    ax.axvspan(x0, a_stick, color="#9ecae1", alpha=0.35, lw=0)
    ax.axvspan(a_stick, a_slip, color="#fdd0a2", alpha=0.35, lw=0)
    ax.axvspan(a_slip, a_max * 1.25, color="#c7e9c0", alpha=0.35, lw=0)
    for x, text in ((math.sqrt(x0 * a_stick), "stick\n(P = 0)"), (math.sqrt(a_stick * a_slip), "stick-slip"),
                    (math.sqrt(a_slip * a_max * 1.25), "slip-slip")):
        ax.text(x, 0.97, text, transform=ax.get_xaxis_transform(), ha="center", va="top", fontsize=9)
    ax.set_xlabel(r"base acceleration amplitude $a_0$ (m/s$^2$)")
    ax.set_ylabel("mean wear power P (W)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return _save(fig, path)


def _impact_windows(t: np.ndarray, f: np.ndarray, most: int) -> list[tuple[float, float]]:
    """(start, end) times of the first ``most`` intervals where ``f > 0``."""
    on = np.asarray(f) > 0
    edges = np.flatnonzero(np.diff(on.astype(np.int8)))
    starts = ([0] if on[0] else []) + [i + 1 for i in edges if not on[i]]
    ends = [i + 1 for i in edges if on[i]] + ([len(f) - 1] if on[-1] else [])
    return [(float(t[max(a - 1, 0)]), float(t[min(b, len(t) - 1)])) for a, b in zip(starts, ends)][:most]


def plot_impact_forces(
    series: Sequence[tuple[str, np.ndarray, np.ndarray]],
    path: str | os.PathLike,
    title: str = "",
    zooms: int = 3,
    exact: Curve | None = None,
) -> Path:
    """Normal impact force histories ``(label, t, F_n)`` (N against s): the
    whole run on top, and below a close-up of each of the first ``zooms``
    impacts (found in the first series); ``exact = (label, F(t))`` is drawn
    under them."""
    plt = _pyplot()
    windows = _impact_windows(series[0][1], series[0][2], zooms) if series else []
    fig = plt.figure(figsize=(8, 6.4 if windows else 4.4))
    grid = fig.add_gridspec(2 if windows else 1, max(len(windows), 1), height_ratios=[3, 2] if windows else [1])
    ax = fig.add_subplot(grid[0, :])
    t_all = np.concatenate([s[1] for s in series]) if series else np.linspace(0.0, 1.0, 2)
    if exact is not None:
        t_ref = np.linspace(float(t_all.min()), float(t_all.max()), 20001)
        ax.plot(t_ref, exact[1](t_ref), color="0.55", lw=4.5, alpha=0.55, label=exact[0], zorder=1)
    for i, (label, t, f) in enumerate(series):
        ax.plot(t, f, color=_COLORS[i % len(_COLORS)], lw=1.2, ls="-" if i == 0 else "--", label=label)
    ax.set_xlabel("time t (s)")
    ax.set_ylabel("normal contact force F$_n$ (N)")
    _finish(ax, title)
    for k, (a, b) in enumerate(windows):
        zoom = fig.add_subplot(grid[1, k])
        pad = 0.1 * (b - a)
        if exact is not None:
            t_ref = np.linspace(a - pad, b + pad, 2001)
            zoom.plot(t_ref, exact[1](t_ref), color="0.55", lw=3.5, alpha=0.55, zorder=1)
        for i, (_, t, f) in enumerate(series):
            sel = (t >= a - pad) & (t <= b + pad)
            zoom.plot(t[sel], f[sel], ".-" if i == 0 else "--", color=_COLORS[i % len(_COLORS)], lw=1.0, ms=3)
        zoom.set_title(f"impact {k + 1}", fontsize=9)
        zoom.set_xlabel("t (s)", fontsize=9)
        zoom.tick_params(labelsize=8)
        zoom.grid(True, alpha=0.3)
        if k == 0:
            zoom.set_ylabel("F$_n$ (N)")
    fig.tight_layout()
    return _save(fig, path)
