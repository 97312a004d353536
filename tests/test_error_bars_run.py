"""An error bar on a single run (report.error_bars) against Hertz's exact contact, its
two-level form and its input errors; fem2d.refine from Python; a time error beside the
mesh error bar in a refinement study extrapolated in time."""

import csv
import json
import math

import pytest

import fem2d
from fem2d.cli import main
from fem2d.errors import Fem2dError, InputError
from fem2d.exact.hertz import HertzLineContact

HERTZ = HertzLineContact(P=3.6e6, R=0.05, E=2.1e11, nu=0.3)
EXACT = {"peak_pressure": HERTZ.peak_pressure, "contact_half_width": HERTZ.half_width}


@pytest.mark.slow
def test_fem2d_run_with_error_bars_brackets_the_exact_hertz_values(tmp_path, capsys):
    """Level 3 with levels 1 and 2: p0 is 3.5e5 Pa from the run's 2.3001e9, inside its bar of
    +-7.7e5 (2.2 x the true error, Roache's Fs = 1.25 on an observed order 1.99); the
    half-width 6e-9 m from a, inside +-3e-7. result.json and the summary say value +- GCI."""
    out = tmp_path / "run"
    status = main(["run", "hertz", "--set", "mesh.refine=3", "--set", "report.error_bars=true", "--quiet",
                   "--out", str(out)])
    printed = capsys.readouterr().out
    assert status == 0
    bars = json.loads((out / "result.json").read_text())["error_bars"]
    for name, exact in EXACT.items():
        bar = bars[name]
        assert {"value", "extrapolated", "gci", "order", "asymptotic", "note", "band"} <= bar.keys()
        assert bar["levels"] == [1, 2, 3] and bar["kind"] == "monotone" and bar["safety_factor"] == 1.25
        assert abs(bar["value"] - exact) <= bar["band"], name
        assert bar["gci"] == pytest.approx(bar["band"] / abs(bar["value"]))
        assert f"  {name} = {bar['value']:.10g} +- {bar['band']:.2g} (GCI {bar['gci']:.2e}, monotone" in printed
    pressure = bars["peak_pressure"]
    assert pressure["band"] <= 3 * abs(pressure["value"] - EXACT["peak_pressure"])  # not a uselessly wide bar
    assert 1.8 < pressure["order"] < 2.2  # quadratic cells on a smooth pressure
    assert "error bars: mesh.refine levels 1-3 at time.dt = 0.5 s" in printed


def test_fem2d_run_says_value_plus_minus_gci_in_result_json_and_the_summary(tmp_path, capsys):
    """Level 1 of Hertz with level 0: each quantity's bar in result.json and printed, Hertz's
    p0 and a inside theirs."""
    out = tmp_path / "run"
    assert main(["run", "hertz", "--set", "mesh.refine=1", "--set", "report.error_bars=true", "--quiet",
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    document = json.loads((out / "result.json").read_text())
    for name, exact in EXACT.items():
        bar = document["error_bars"][name]
        assert bar["value"] == document["quantities"][name] and abs(bar["value"] - exact) <= bar["band"]
        assert f"  {name} = {bar['value']:.10g} +- {bar['band']:.2g} (GCI {bar['gci']:.2e}, two levels" in printed
    assert "error bars: mesh.refine levels 0-1 at time.dt = 0.5 s" in printed


def test_two_levels_take_a_safety_factor_of_3_and_say_so():
    """mesh.refine = 1 has one coarser level: the element's order 2 assumed, Fs = 3, a note;
    Hertz's p0 (9.6e6 Pa from level 1) and a (2.1e-6 m) are inside the bars (4.1e7, 7.5e-6)."""
    result = fem2d.run("hertz", {"mesh.refine": 1, "report.error_bars": True})
    for name, exact in EXACT.items():
        bar = result.error_bar(name)
        assert bar.kind == "two levels" and bar.levels == (0, 1) and bar.safety_factor == 3.0 and bar.order == 2.0
        assert "two levels: the formal order 2 of the element is assumed and Fs = 3" in bar.note
        assert bar.value == result.quantities[name] and bar.contains(exact), name
    with pytest.raises(Fem2dError, match="no error bar of 'nothing'"):
        result.error_bar("nothing")
    plain = fem2d.run("hertz", {"mesh.refine": 1})
    assert "error_bars" not in plain.to_json()
    with pytest.raises(Fem2dError, match="this run has no error bars: run the case with report.error_bars = true"):
        plain.error_bar("peak_pressure")
    from fem2d.runs.result import run as one_level

    with pytest.raises(Fem2dError, match="report.error_bars: this run is of one level"):
        one_level("hertz", {"mesh.refine": 1, "report.error_bars": True}).error_bar("peak_pressure")


@pytest.mark.parametrize("overrides, said", [
    ({"report.error_bars": 1}, "report.error_bars: expected true or false, got 1"),
    ({"report.error_bars": True, "mesh.refine": 0}, "report.error_bars: mesh.refine = 0 is the coarsest level"),
])
def test_bad_error_bars_settings_are_one_line_naming_the_file_and_the_key(overrides, said):
    with pytest.raises(InputError) as info:
        fem2d.run("hertz", overrides)
    assert str(info.value).startswith(f"{fem2d.load_case('hertz').where}: {said}")
    assert "\n" not in str(info.value)


def test_a_mesh_file_at_its_own_level_and_a_modal_case_have_no_coarser_mesh(tmp_path, capsys):
    from fem2d.mesh import BUILDERS
    from fem2d.mesh.io import write_mesh

    write_mesh(BUILDERS["sliding_block"](), tmp_path / "block.msh")
    path = tmp_path / "file.toml"
    path.write_text('[case]\nextends = "sdnv104a"\nname = "file"\n[mesh]\nfile = "block.msh"\n'
                    '[report]\nerror_bars = true\n')
    assert main(["run", str(path), "--quiet", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"fem2d: error: {path}: report.error_bars: mesh.refine = 0 is the coarsest level")
    assert len(err.splitlines()) == 1
    assert main(["run", "sdnd101", "--set", "report.error_bars=true", "--quiet", "--out", str(tmp_path / "m")]) == 2
    assert "sdnd101.toml: report.error_bars: a modal case runs on a basis of modes" in capsys.readouterr().err


def test_fem2d_refine_returns_the_study_as_fem2d_refine_prints_it(tmp_path, capsys):
    """The Python study is the command's: the same levels, values and error bars; a case that
    asks for error bars is run one level at a time (level 0 would refuse them)."""
    study = fem2d.refine("hertz", levels=[0, 1], overrides={"report.error_bars": True})
    header, rows = study.table()
    assert study.levels == [0, 1] and "gci" in header and study.exit_status == 0
    status = main(["refine", "hertz", "--levels", "0-1", "--set", "report.error_bars=true", "--quiet",
                   "--out", str(tmp_path / "r")])
    assert status == 0
    doc = json.loads((tmp_path / "r" / "refine.json").read_text())
    for name, exact in EXACT.items():
        assert doc["quantities"][name]["values"] == pytest.approx([r[3] for r in rows if r[0] == name], rel=1e-12)
        assert doc["quantities"][name]["convergence"]["band"] == pytest.approx(study[name].band, rel=1e-9)
        assert study[name].contains(exact)
    with pytest.raises(TypeError, match="fem2d.refine takes a case"):
        fem2d.refine(object())


def _beam():
    from fem2d.mesh import rectangle
    from fem2d.model import Body, Model, Support, Traction
    from fem2d.model.timefunctions import Sine

    return Model(rectangle(length=10.0, height=0.5, nx=10, ny=1),
                 bodies=[Body("BODY", E=2.1e11, nu=0.0, rho=7800.0, hypothesis="plane_stress")],
                 supports=[Support("LEFT")], loads=[Traction("RIGHT", (0.0, 2e4), Sine(1.0, 4 * math.pi))])


def test_the_time_error_of_each_quantity_is_the_dt2_runs_error():
    """A cantilever under a sine tip load: x(0.2) and the loads' work at dt/2 = 0.005 are
    4.8e-6 m and 0.026 J off a run at 2e-4; the extrapolated run at dt = 0.01 estimates
    5.3e-6 and 0.028 (|q(dt/2) - q(dt)| / 3)."""
    from fem2d.model import Report, TimeStepping
    from fem2d.runs.direct import DirectAnalysis

    beam = _beam()

    def tip(dt, extrapolate=False):
        return DirectAnalysis(beam, TimeStepping(dt=dt, end=0.2, extrapolate=extrapolate),
                              report=Report("NE", "dy", at_times=[0.2])).run()

    converged, half, extrapolated = tip(2e-4).quantities, tip(0.005).quantities, tip(0.01, True)
    for name in ("x_at_0.20", "work_loads"):
        true = abs(half[name] - converged[name])
        assert true / 1.5 < extrapolated.time_errors[name] < 1.5 * true, name
    assert extrapolated.to_json()["time_errors"] == extrapolated.time_errors
    assert tip(0.01).time_errors == {}


def test_refine_puts_the_time_error_beside_the_mesh_error_bar_and_says_which_dominates(tmp_path, capsys):
    """SDNV104 A to 1 s, extrapolated in time, levels 0-1 with --dt-with-h (dt = 0.02, 0.01):
    each level's time error of each quantity in refine.csv and refine.json, and at the finest
    level the mesh bar and the larger of the two, said in one line. The mesh bar is taken at
    one step (level 0's dt/2 run against level 1's dt run, both at 0.01): it is the bar of the
    unextrapolated levels 0-1 run at dt = 0.01, which has no time columns."""
    args = ["refine", "sdnv104a", "--levels", "0-1", "--set", "time.end=1.0", "--set", "report.at_times=[0.9]",
            "--quiet"]
    assert main([*args, "--dt-with-h", "--set", "time.dt=0.02", "--out", str(tmp_path / "t")]) == 0
    printed = capsys.readouterr().out
    doc = json.loads((tmp_path / "t" / "refine.json").read_text())
    with open(tmp_path / "t" / "refine.csv") as f:
        rows = list(csv.DictReader(f))
    q = doc["quantities"]["x_at_0.90"]
    band = q["mesh_bar"]
    assert len(q["time_errors"]) == 2 and all(t > 0 for t in q["time_errors"])
    assert q["dominant"] == ("time" if q["time_errors"][1] > band else "mesh")
    finest = next(r for r in rows if r["quantity"] == "x_at_0.90" and r["level"] == "1")
    assert float(finest["time error"]) == pytest.approx(q["time_errors"][1]) and finest["dominant"] == q["dominant"]
    assert float(finest["mesh bar"]) == pytest.approx(band)
    line = doc["time_and_mesh"]
    assert line.startswith("time against mesh at level 1 (time.dt halves with h: the mesh bar is of the levels' "
                           "changes at one time.dt") and line in printed
    said = f"x_at_0.90 ({q['time_errors'][1]:.2g} against +-{band:.2g})"
    assert said in line.split("the mesh error dominates" if q["dominant"] == "mesh" else "the time error dominates")[1]
    assert main([*args, "--set", "time.extrapolate=false", "--set", "time.dt=0.01", "--out", str(tmp_path / "p")]) == 0
    capsys.readouterr()
    plain = json.loads((tmp_path / "p" / "refine.json").read_text())
    assert plain["time_and_mesh"] is None and "time_errors" not in plain["quantities"]["x_at_0.90"]
    for name, c in plain["quantities"].items():
        if doc["quantities"][name].get("mesh_bar") is not None and c["convergence"]["band"] is not None:
            assert doc["quantities"][name]["mesh_bar"] == pytest.approx(c["convergence"]["band"], rel=1e-6,
                                                                        abs=1e-12), name


def test_a_run_with_error_bars_extrapolated_in_time_says_which_error_dominates(tmp_path, capsys):
    """SDNV104 A to 1 s at level 1 (levels 0-1 at one time.dt): the block's x(0.9) hardly moves
    with h (a mesh bar of 1e-7 m) while its time error at dt = 0.02 is 1.6e-4 m: the time
    error dominates, said beside the bar; result.json holds both."""
    out = tmp_path / "run"
    assert main(["run", "sdnv104a", "--set", "mesh.refine=1", "--set", "report.error_bars=true", "--set",
                 "time.dt=0.02", "--set", "time.end=1.0", "--set", "report.at_times=[0.9]", "--quiet",
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    document = json.loads((out / "result.json").read_text())
    bar, t = document["error_bars"]["x_at_0.90"], document["time_errors"]["x_at_0.90"]
    assert bar["band"] < 1e-3 * t  # the same dt at both levels: the bar is the mesh's alone
    assert f"x_at_0.90 = {bar['value']:.10g} +- {bar['band']:.2g} (" in printed
    assert f"time error {t:.2g}: the time error dominates" in printed


def test_fem2d_refine_of_an_analysis_composed_in_python_splits_its_mesh():
    """A QUAD8 cantilever 10 m x 1 m under a tip shear, static: level 2 of the study is the
    model meshed 40 x 4 (its 10 x 1 mesh split twice: the same value to 1e-12); the levels
    extrapolate to Timoshenko's P L^3 / (3 E I) + P L / (k G A) within 1e-4 (beam theory's own
    accuracy at L/h = 10 with a clamped end), and the bar is Roache's with three levels."""
    from fem2d.mesh import rectangle
    from fem2d.model import Body, Model, Report, Support, TimeStepping, Traction

    def analysis(nx, ny):
        beam = Model(rectangle(length=10.0, height=1.0, nx=nx, ny=ny, element="quad8"),
                     bodies=[Body("BODY", E=2.1e11, nu=0.0, rho=7800.0, hypothesis="plane_stress")],
                     supports=[Support("LEFT")], loads=[Traction("RIGHT", (0.0, 2e4))])
        return fem2d.StaticAnalysis(beam, TimeStepping(dt=1.0, end=1.0), report=Report("NE", "dy", at_times=[1.0]))

    study = fem2d.refine(analysis(10, 1), levels=[0, 1, 2])
    bar = study["x_at_1.00"]
    assert study.levels == [0, 1, 2] and bar.kind == "monotone" and bar.safety_factor == 1.25
    assert bar.value == pytest.approx(analysis(40, 4).run().quantities["x_at_1.00"], rel=1e-12)
    P, L, E, inertia = 2e4, 10.0, 2.1e11, 1.0 / 12.0
    timoshenko = P * L**3 / (3 * E * inertia) + P * L / (5.0 / 6.0 * E / 2.0 * 1.0)
    assert bar.extrapolated == pytest.approx(timoshenko, rel=1e-4)
    with pytest.raises(ValueError, match="takes levels only"):
        fem2d.refine(analysis(10, 1), levels=[0, 1], dt_with_h=True)
