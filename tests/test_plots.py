"""Figures: what is drawn (lines, labels, regimes), and that the PNGs are real images."""

import math

import matplotlib.image
import numpy as np
import pytest

import fem2d.io.plots as plots
from fem2d.case.loading import load_case
from fem2d.errors import InputError
from fem2d.exact.beam import tip_step_response


@pytest.fixture
def captured(monkeypatch):
    """Keep the figures instead of only saving them (and still save them)."""
    figures = []
    real_save = plots._save

    def save(fig, path):
        figures.append(fig)
        fig.canvas.draw()
        return real_save(fig, path)

    monkeypatch.setattr(plots, "_save", save)
    return figures


def _is_png(path, min_width=600):
    image = matplotlib.image.imread(path)
    return image.shape[1] >= min_width and float(np.std(image)) > 0.01


def test_reference_curve_from_the_case():
    """The case layer gives the curve (fem2d.case.references.reference_curve), the plots draw it."""
    from fem2d.case.loading import Case
    from fem2d.case.references import reference_curve

    label, curve = reference_curve(load_case("cantilever"))
    assert label == "Euler-Bernoulli beam, 60 modes"
    t = np.array([0.05, 0.1])
    expected = tip_step_response(t, P=1e4, E=2.1e11, inertia=0.5**3 / 12, rho_A=3900.0, L=10.0, n_modes=60)
    assert np.allclose(curve(t), expected, rtol=1e-12)
    label, curve = reference_curve(load_case("sdnv104a"))
    assert curve(np.array([1.70, 3.40])) == pytest.approx([14.898649, 3.513052], abs=1e-6)  # SDNV104's analytic model
    assert reference_curve(Case("c", {"report": {"curve": {"args": {}}}})) is None
    with pytest.raises(InputError, match="report.curve.function: 'numpy:frexp' is not a reference curve of fem2d"):
        reference_curve(Case("c", {"report": {"curve": {"function": "numpy:frexp"}}}))
    incline = {"gravity": 10.0, "theta": np.radians(45.0), "mu": 0.0}
    label, speed = reference_curve(Case("c", {"report": {"curve": {"function": "incline_velocity", "args": incline}}}))
    assert label == "reference" and speed(np.array([0.0, 1.0])) == pytest.approx([0.0, 10.0 * np.sqrt(0.5)])
    assert load_case("sdnv104a").reported_dof == "DX at node A (m)"
    assert plots.curve_deviation(t, expected + [0.0, 2e-3], ("ref", curve)) >= 0.0


def test_history_overlay_draws_every_run_and_the_difference(tmp_path, captured):
    t = np.linspace(0.0, 2.0, 201)
    curve = ("exact", np.sin)
    series = [("a", t, np.sin(t) + 1e-3), ("b", t, np.sin(t) - 2e-3)]
    path = plots.plot_histories(series, tmp_path / "h.png", curve, "DX at node A (m)", "title")
    assert _is_png(path)
    fig = captured[-1]
    top, bottom = fig.axes
    assert top.get_ylabel() == "DX at node A (m)" and bottom.get_xlabel() == "time t (s)"
    assert [text.get_text() for text in top.get_legend().get_texts()] == ["exact", "a", "b"]
    diffs = [line.get_ydata() for line in bottom.get_lines()[:2]]
    assert np.allclose(diffs[0], 1e-3) and np.allclose(diffs[1], -2e-3)
    assert plots.curve_deviation(t, np.sin(t) - 2e-3, curve) == pytest.approx(2e-3)
    plots.plot_histories(series, tmp_path / "no_curve.png")
    assert len(captured[-1].axes) == 1


def test_energy_balance(tmp_path, captured):
    t = np.linspace(0, 1, 11)
    h = {"time": t, "kinetic": 2e4 * t, "elastic": 0 * t, "springs": 1e4 * t, "friction_dissipation": 1e4 * t,
         "work_loads": 4e4 * t, "work_motions": 0 * t, "numerical_dissipation": 1e3 * t, "energy_residual": 1e-3 * t}
    assert _is_png(plots.plot_energy(h, tmp_path / "e.png"))
    ax, ax2 = captured[-1].axes
    assert ax.get_ylabel() == "energy (kJ per m of thickness)"
    lines = {line.get_label(): line.get_ydata() for line in ax.get_lines()}
    # each term of the balance a run has, none that stays zero (no strain, no imposed motion here)
    assert list(lines) == ["kinetic T", "springs U$_s$", "work of the loads W", "friction dissipation D",
                           "numerical dissipation D$_h$"]
    assert np.allclose(lines["work of the loads W"], 40 * t) and np.allclose(lines["numerical dissipation D$_h$"], t)
    assert ax2.get_ylabel() == "balance residual (J/m)"
    assert "2.50e-08" in ax2.texts[0].get_text()  # final residual / max(E0, |W + W_c|)


def test_contact_pressure_profile(tmp_path, captured):
    x = np.array([1.0, 0.0, 0.5])
    times = np.array([0.0, 1.0, 2.0])
    p = np.array([[0, 0, 0], [7e4, 7e4, 7e4], [1e5, 4e4, 7e4]], dtype=float)
    path = plots.plot_contact_pressure(x, times, p, tmp_path / "p.png", at=[1.0, 2.0], areas=np.array([.25, .25, .5]))
    assert _is_png(path)
    ax = captured[-1].axes[0]
    lines = ax.get_lines()
    assert np.array_equal(lines[1].get_xdata(), [0.0, 0.5, 1.0]) and np.allclose(lines[1].get_ydata(), [40, 70, 100])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["t = 1 s (mean 70 kPa)", "t = 2 s (mean 70 kPa)"]
    assert ax.get_ylabel() == "contact pressure (kPa)"


def test_refinement_plot_one_panel_per_quantity_with_its_slope_and_bar(tmp_path, captured):
    """q = 1 + 0.1 h^2 over levels 0-3: its panel shows the distances to the extrapolated
    value on the fitted slope 2 (labelled), the error against the reference and the finest
    level's error bar; a constant quantity gets no panel; the last panel is wall time."""
    from fem2d.studies.convergence import convergence

    levels = [0, 1, 2, 3]
    values = [1 + 0.1 * 4.0**-lv for lv in levels]
    c = convergence(levels, values)
    doc = {"levels": levels, "dofs": [100 * 4**lv for lv in levels], "wall_s": [0.1 * 4**lv for lv in levels],
           "quantities": {
               "q": {"values": values, "abs_errors": [v - 1 for v in values], "reference": 1.0,
                     "convergence": c.as_dict()},
               "n": {"values": [0.0] * 4, "abs_errors": [None] * 4, "reference": None,
                     "convergence": convergence(levels, [0.0] * 4).as_dict()}}}
    assert _is_png(plots.plot_refinement(doc, tmp_path / "r.png"))
    axes = [ax for ax in captured[-1].axes if ax.get_visible()]
    assert len(axes) == 2 and axes[0].get_title() == "q"
    ax, ax2 = axes
    assert ax.get_xscale() == ax.get_yscale() == "log"
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "fit: slope 2.00 (levels 0-3)" in labels and "error against the reference" in labels
    assert f"error bar of the finest level: +-{c.band:.2g}" in labels
    fit = next(line for line in ax.get_lines() if line.get_label().startswith("fit"))
    slope = np.diff(np.log(fit.get_ydata())) / np.diff(np.log(fit.get_xdata()))
    assert np.allclose(slope, 2.0)
    assert np.allclose(ax2.get_lines()[0].get_ydata(), [0.1, 0.4, 1.6, 6.4])
    assert ax2.get_ylabel() == "wall time per run (s)"


def test_wear_power_against_a0_shows_three_regimes(tmp_path, captured):
    from fem2d.exact.modal_references import ETA_STAR

    points = [("euler", a, p) for a, p in ((15.0, 15.267), (1.5, 0.40906), (1.01, 2.2616e-4), (0.99, 0.0))]
    points += [("exact", 15.0, 15.2671)]
    path = plots.plot_wear_power(points, tmp_path / "w.png", mu=0.1, weight=10.0, mass=1.0, omega=2 * math.pi)
    assert _is_png(path)
    ax = captured[-1].axes[0]
    spans = [p.get_x() for p in ax.patches]
    assert len(spans) == 3 and spans[1] == pytest.approx(1.0) and spans[2] == pytest.approx(1.0 / ETA_STAR)
    assert [t.get_text() for t in ax.texts] == ["P = 0", "stick\n(P = 0)", "stick-slip", "slip-slip"]
    assert ax.texts[0].xy == (0.99, pytest.approx(ax.get_ylim()[0]))  # the a0 = 0.99 point, on the bottom axis
    assert ax.get_xlabel() == "base acceleration amplitude $a_0$ (m/s$^2$)"
    assert ax.get_ylabel() == "mean wear power P (W)"
    euler = next(line for line in ax.get_lines() if line.get_label() == "euler")
    assert euler.get_ydata()[-1] == pytest.approx(ax.get_ylim()[0])  # zero power sits on the bottom axis
    closed = ax.get_lines()[1]  # slip-slip asymptote, P = m g a0 / (pi w) sqrt(4 - eta^2 pi^2)
    a0 = closed.get_xdata()[-1]
    eta = 1.0 / a0
    expected = 10 * a0 / (math.pi * 2 * math.pi) * math.sqrt(4 - (eta * math.pi) ** 2)
    assert closed.get_ydata()[-1] == pytest.approx(expected)


def test_impact_forces(tmp_path, captured):
    t = np.linspace(0, 0.1, 101)
    f = np.maximum(0.0, 9950.0 * np.sin(100.5 * t))
    assert _is_png(plots.plot_impact_forces([("euler", t, f), ("exact", t, f)], tmp_path / "i.png"))
    ax = captured[-1].axes[0]
    assert ax.get_ylabel() == "normal contact force F$_n$ (N)" and len(ax.get_lines()) == 2
