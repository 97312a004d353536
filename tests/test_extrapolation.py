"""Richardson extrapolation in time (``time.extrapolate``, fem2d/runs/extrapolation.py):
SDNV104's default runs within 1e-5 m of the exact rigid block at dt = 0.01, the observed
order of the extrapolated scheme, and the paths where it does not apply (different events,
impacts, located impacts, modal and static runs)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import fem2d
from fem2d.case.build import build_analysis
from fem2d.case.loading import load_case
from fem2d.cli import main
from fem2d.errors import InputError, ModelError
from fem2d.exact.sliding_block import SlidingBlock, solve
from fem2d.runs.direct import DirectAnalysis
from fem2d.runs.extrapolation import combine


def test_the_cli_runs_sdnv104a_extrapolated_within_1e_5_of_the_exact_block(tmp_path, capsys):
    """SDNV104 A within 1e-5 m of the exact block through the command line: default settings, dt = 0.01."""
    assert main(["run", "sdnv104a", "--out", str(tmp_path), "--quiet"]) == 0
    doc = json.loads((tmp_path / "result.json").read_text())
    exact = solve(SlidingBlock(), 3.5)
    for t in (1.70, 3.40):
        assert abs(doc["quantities"][f"x_at_{t:.2f}"] - exact.x(t)) <= 1e-5  # measured 4.4e-6, 1.7e-6
    checks = {c["quantity"]: c for c in doc["checks"]}
    assert checks["x_at_1.70"]["tolerance"] == 1e-5 and not checks["x_at_1.70"]["relative"]
    assert all(c["passed"] for c in doc["checks"]) and not doc["warnings"]
    timing = doc["timing"]
    assert timing["steps"] == timing["steps_dt"] + timing["steps_dt2"] and timing["steps_dt"] >= 350
    assert timing["steps_dt2"] >= 2 * 350
    assert any("Richardson extrapolation of order 2 of runs at dt = 0.01 s and dt/2 = 0.005 s" in n
               for n in doc["notes"])
    # the a-posteriori estimate of the dt/2 run's error: max |u(dt/2) - u(dt)| / 3 over the run
    assert 1e-5 < doc["quantities"]["time_error"] < 1e-3
    history = np.load(tmp_path / "history.npz")
    assert np.all(history["n_active [-]"] == np.round(history["n_active [-]"]))  # counts stay counts


def test_the_observed_order_of_the_extrapolated_scheme_on_sdnv104():
    """x(1.70) of SDNV104 A (after the ramp, before the first reversal) at dt = 0.035, 0.0175,
    0.00875 (the ramp's end on each grid): the differences between successive extrapolated
    values shrink at order 3 (measured 2.98; one run: 2), so a combination that left a dt^2
    term (wrong weights, instants read off by a step) fails. The distance to the rigid block
    settles at the elastic block's own ~4e-6 m."""
    values = [fem2d.run("sdnv104a", {"time.dt": dt, "time.end": 1.75, "report.at_times": [1.70],
                                     "report.extrema": 0}).quantities["x_at_1.70"]
              for dt in (0.035, 0.0175, 0.00875)]
    d = np.diff(values)
    assert np.log2(abs(d[0] / d[1])) > 2.5
    assert abs(values[-1] - solve(SlidingBlock(), 3.5).x(1.70)) < 1e-5


def test_runs_that_met_different_events_give_the_dt2_run_with_a_warning(monkeypatch, tmp_path, capsys):
    """Never silently wrong: when the two runs count different stick/slip events the result is
    the dt/2 run, unextrapolated, and says so (--strict exits 1)."""
    integrate = DirectAnalysis.integrate

    def one_more_reversal_at_dt2(self, progress=None, scheme=None):
        run = integrate(self, progress, scheme)
        if scheme is not None:  # the dt/2 run is given the scheme the dt run resolved
            run.timing["events_reversals"] += 1
        return run

    monkeypatch.setattr(DirectAnalysis, "integrate", one_more_reversal_at_dt2)
    short = {"time.end": 0.5, "report.at_times": [0.5], "report.extrema": 0}
    result = fem2d.run("sdnv104a", short)
    assert len(result.warnings) == 1
    assert result.warnings[0].startswith("time.extrapolate: not extrapolated (the runs met different events: "
                                         "events_reversals 0 at dt, 1 at dt/2")
    assert "time_error" not in result.quantities
    monkeypatch.setattr(DirectAnalysis, "integrate", integrate)
    half = fem2d.run("sdnv104a", {**short, "time.dt": 0.005, "time.extrapolate": False})
    assert result.quantities["x_at_0.50"] == half.quantities["x_at_0.50"]
    monkeypatch.setattr(DirectAnalysis, "integrate", one_more_reversal_at_dt2)
    args = ["run", "sdnv104a", "--strict", "--quiet", "--out", str(tmp_path)] + [
        a for k, v in short.items() for a in ("--set", f"{k}={v}")]
    assert main(args) == 1
    assert "not extrapolated" in capsys.readouterr().err


def test_a_run_whose_time_error_is_large_says_so(tmp_path, capsys):
    """sdnv104a at dt = 1 s: its own estimate, time_error = 1.08 m, is 7 % of the block's 15 m
    motion (x_ext_1 0.16 m off, x_ext_2 missing); above 1 % it warns, naming the estimate and
    the remedy, and --strict exits 1. At dt = 0.1 s the estimate is 0.13 %: no warning."""
    coarse = fem2d.run("sdnv104a", {"time.dt": 1.0})
    assert coarse.quantities["time_error"] > 0.01 * 14.9
    assert len(coarse.warnings) == 1
    assert coarse.warnings[0].startswith("time.dt: the run's own estimate of its time error on dx of A "
                                         "(time_error = 1.08 m) is 7.3 % of its largest value")
    assert coarse.warnings[0].endswith("take a smaller time.dt")
    assert fem2d.run("sdnv104a", {"time.dt": 0.1, "time.end": 1.0, "report.at_times": [1.0]}).warnings == []
    # without references (nothing NOOK): exit 0, and 1 with --strict
    case = tmp_path / "noref.toml"
    case.write_text('references = []\nvalidation = []\n[case]\nextends = "sdnv104a"\nname = "noref"\n'
                    "[time]\ndt = 1.0\n")
    assert main(["run", str(case), "--quiet", "--out", str(tmp_path / "a")]) == 0
    assert "time_error = 1.08 m" in capsys.readouterr().err
    assert main(["run", str(case), "--strict", "--quiet", "--out", str(tmp_path / "b")]) == 1


def test_an_impact_gives_the_dt2_run_and_the_scheme_is_chosen_once(tmp_path):
    """bar_wall at twice its step: auto picks the modified mass at dt (above the explicit
    limit) and keeps it at dt/2, where it would pick the explicit scheme; the contact opens
    during the run (the release), so the result is the dt/2 run, with a warning."""
    result = fem2d.run("bar_wall", {"time.dt": 4.8e-6, "time.end": 5e-4, "time.extrapolate": True})
    assert any("the dt/2 run kept the scheme chosen at dt (modified-mass newmark)" in n for n in result.notes)
    assert result.warnings[0].startswith("time.extrapolate: not extrapolated (the contact of ")
    assert "closed or opened during the run" in result.warnings[0]


def test_the_combination_on_given_series():
    t_c, t_f = np.linspace(0.0, 1.0, 5), np.linspace(0.0, 1.0, 9)
    exact = np.sin
    coarse = {"time": t_c, "u": exact(t_c) + 0.4 * t_c, "v": np.cos(t_c), "n_active": np.full(5, 2.0)}
    fine = {"time": t_f, "u": exact(t_f) + 0.1 * t_f, "v": np.cos(t_f), "n_active": np.full(9, 3.0)}
    series, error = combine(coarse, fine, order=2)
    np.testing.assert_allclose(series["u"], exact(t_c), atol=1e-15)
    np.testing.assert_allclose(error["u"], -0.1 * t_c, atol=1e-15)
    assert series["n_active"].tolist() == [3.0] * 5  # the contact law's: the dt/2 run's sample, not combined
    first_order = combine(coarse, fine, order=1)[0]
    np.testing.assert_allclose(first_order["u"], exact(t_c) - 0.2 * t_c, atol=1e-15)


def test_extrapolation_is_refused_where_it_cannot_hold(tmp_path, capsys):
    # located impacts (bar_bounce counts 75 impacts at dt, 72 at dt/2)
    with pytest.raises(InputError, match=r"bar_bounce\.toml: time\.extrapolate: refused with located impacts"):
        fem2d.run("bar_bounce", {"time.extrapolate": True, "time.end": 0.01})
    # a first-order scheme is extrapolated at its own order; a scheme of unknown order is refused
    with pytest.raises(InputError, match=r"time\.extrapolate: the order in time of .* is not known"):
        fem2d.run("bar_wall", {"time.scheme": "stabilised_newmark", "time.extrapolate": True, "time.end": 1e-5})
    # composed in Python, the modal and static analyses refuse it themselves
    modal = build_analysis(load_case("sdnd101")).analysis
    with pytest.raises(ModelError, match="TimeStepping.extrapolate: a modal analysis does not extrapolate"):
        dataclasses.replace(modal, stepping=dataclasses.replace(modal.stepping, extrapolate=True)).run()
    static = build_analysis(load_case("hertz")).analysis
    with pytest.raises(ModelError, match="TimeStepping.extrapolate: a static analysis has no time-discretisation"):
        dataclasses.replace(static, stepping=dataclasses.replace(static.stepping, extrapolate=True))
