"""The workflow commands: validate, compare, refine, study, run --vtu; exit codes, tables, Ctrl-C."""

import csv
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from conftest import TINY_CASE

from fem2d.cli import main
from fem2d.linalg import solver_names

TINY_EXTRA = """
[[validation]]
label = "default"
"""


@pytest.fixture
def tiny(write_tiny_case):
    return write_tiny_case(TINY_EXTRA)


def _rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def test_validate_prints_the_table_and_exits_by_the_checks(tiny, tmp_path, capsys):
    out = tmp_path / "v"
    assert main(["validate", tiny, "--out", str(out), "--workers", "1", "--quiet"]) == 0
    text = capsys.readouterr().out
    header, rule, row = text.splitlines()[:3]
    assert header.split() == ["case", "variant", "quantity", "reference", "source", "computed", "error", "tolerance",
                              "status"]
    assert row.startswith("tinybeam") and "x_at_0.01" in row and "0.05 rel" in row and row.endswith("OK")
    assert "validate: 1 runs, 1 checks, 0 NOOK, 0 failed runs" in text
    assert (out / "report.md").is_file() and (out / "plots" / "tinybeam_history.png").is_file()
    assert main(["validate", tiny, "--out", str(out), "--workers", "1", "--no-plots"]) == 0
    capsys.readouterr()
    strict = tmp_path / "strict.toml"
    strict.write_text((TINY_CASE + TINY_EXTRA).replace("tolerance = 0.05", "tolerance = 1e-9"))
    assert main(["validate", str(strict), "--out", str(out), "--workers", "1", "--no-plots"]) == 1
    assert capsys.readouterr().out.splitlines()[2].endswith("NOOK")


def test_compare_table_across_elements_and_solvers(tiny, tmp_path, capsys):
    solvers = solver_names(installed_only=True)[:2]
    args = ["compare", tiny, "--elements", "quad4,quad8", "--solvers", ",".join(solvers), "--out", str(tmp_path / "c")]
    assert main([*args, "--workers", "1", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    labels = [f"{e}/{s}" for e in ("quad4", "quad8") for s in solvers]
    assert lines[0].split() == ["quantity", "reference", *labels]
    rows = {r["quantity"]: r for r in _rows(tmp_path / "c" / "compare.csv")}
    assert set(rows) >= {"x_at_0.01", "  rel. error", "x_at_0.02", "max |u - reference curve| (m)",
                         "Newton iterations", "wall time (s)", "energy_drift", "status"}
    assert float(rows["x_at_0.01"]["reference"]) == 1.0078e-4
    values = [float(rows["x_at_0.01"][label]) for label in labels]
    assert values[0] != values[-1]  # the element matters
    if len(solvers) == 2:  # the direct solvers agree
        assert values[0] == pytest.approx(values[1], rel=1e-9) and values[2] == pytest.approx(values[3], rel=1e-9)
    assert all(float(rows["  rel. error"][label]) < 0.05 for label in labels)
    deviation = [float(rows["max |u - reference curve| (m)"][label]) for label in labels]
    assert max(deviation[:2]) < 1.5e-5 and max(deviation[2:]) < 3e-6  # of a 2.9e-4 m deflection
    assert [rows["status"][label] for label in labels] == ["OK"] * 4
    assert [rows["mesh run"][label].split(",")[0] for label in labels] == [label.split("/")[0] for label in labels]
    assert (tmp_path / "c" / "compare.png").stat().st_size > 10_000
    assert main(["compare", tiny, "--methods", "penalty"]) == 2  # no contact zone in this case
    assert "has no contact zone" in capsys.readouterr().err


def test_compare_contact_methods_on_the_sliding_block(tmp_path, capsys):
    out = tmp_path / "c"
    assert main(["compare", "sdnv104a", "--methods", "lagrange,penalty", "--set", "time.end=0.5",
                 "--out", str(out), "--quiet"]) == 0
    rows = {r["quantity"]: r for r in _rows(out / "compare.csv")}
    assert float(rows["max penetration (m)"]["lagrange"]) < 1e-12 < float(rows["max penetration (m)"]["penalty"])
    assert int(rows["Newton iterations"]["lagrange"]) >= 50  # 50 steps, at least one iteration each
    assert float(rows["max |u - reference curve| (m)"]["lagrange"]) < 1e-3


def test_compare_a_modal_case_plots_what_its_runs_have(tmp_path, capsys):
    out = tmp_path / "c"
    assert main(["compare", "sdnd101", "--out", str(out), "--quiet"]) == 0
    assert (out / "compare.csv").is_file()
    assert (out / "compare.png").stat().st_size > 0 and (out / "compare_force.png").stat().st_size > 0
    assert not (out / "compare_energy.png").exists()  # a modal run has no energy history
    assert "compare_force.png" in capsys.readouterr().out.splitlines()[-1]


def test_refine_table_levels_dofs_and_plot(tiny, tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["refine", tiny, "--levels", "0-1", "--set", "mesh.element=quad4", "--out", str(out), "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0].split() == [
        "quantity", "level", "dofs", "value", "abs_error", "rel_error", "tolerance", "status", "order", "change",
        "change", "order", "wall_s"
    ]
    assert captured.err.strip().splitlines()[-1].startswith("fem2d refine: the finest level 1 ")
    rows = _rows(out / "refine.csv")
    x = [r for r in rows if r["quantity"] == "x_at_0.01"]
    assert [r["level"] for r in x] == ["0", "1"]
    assert int(x[1]["dofs"]) > 3 * int(x[0]["dofs"])
    assert x[0]["order"] == "" and x[1]["order"] != "" and float(x[1]["change"]) > 0
    assert float(x[1]["rel_error"]) < float(x[0]["rel_error"])  # quad4 converges towards the beam
    assert x[1]["convergence"] == "two levels" and x[0]["convergence"] == ""  # on the finest row only
    assert float(x[1]["abs_error"]) == pytest.approx(float(x[1]["rel_error"]) * abs(float(x[1]["value"])), rel=0.2)
    doc = json.loads((out / "refine.json").read_text())
    assert doc["levels"] == [0, 1] and doc["exit_status"] == 0
    assert doc["quantities"]["x_at_0.01"]["convergence"]["safety_factor"] == 3.0
    assert all(float(r["wall_s"]) > 0 for r in rows)
    assert (out / "refine.png").is_file()
    for level in (0, 1):
        doc = json.loads((out / f"level-{level}" / "result.json").read_text())
        assert doc["settings"]["mesh"]["refine"] == level


def test_study_keeps_going_after_a_failed_run(tiny, tmp_path, capsys):
    out = tmp_path / "s"
    # Newmark with beta = 0.1 is only conditionally stable: at this dt the state grows without bound
    assert main(["study", tiny, "--grid", "time.beta=0.25,0.1", "--set", "time.dt=1e-3", "--set", "time.end=0.04",
                 "--out", str(out), "--workers", "1", "--quiet"]) == 1
    captured = capsys.readouterr()
    assert "wrote" in captured.out and "(2 runs, 1 failed)" in captured.out
    assert "FAILED time.beta=0.1" in captured.err
    rows = _rows(out / "study.csv")
    assert [r["time.beta"] for r in rows] == ["0.25", "0.1"] and [r["status"] for r in rows] == ["OK", "FAILED"]
    assert "grows without bound" in rows[1]["error"] and rows[1]["x_at_0.01"] == ""
    assert (out / "000_time.beta=0.25" / "result.json").is_file()
    assert not (out / "001_time.beta=0.1" / "result.json").exists()


def test_study_refuses_a_grid_value_the_case_cannot_take_before_running(tiny, tmp_path, capsys):
    out = tmp_path / "s"
    for grid, said in (("time.dt=0.001,abc", r"--grid time\.dt=abc: .*time\.dt: expected a number > 0, got 'abc'"),
                       ("time.dt=0.001,10", r"--grid time\.dt=10: .*time\.dt: 10(\.0)? is larger than time\.end"),
                       ("nosuch.key=1,2", r"tinybeam\.toml: --grid nosuch\.key: unknown key"),
                       ("time=1,2", r"--grid time: time is a table; set one of its keys, e.g\. time\.dt")):
        assert main(["study", tiny, "--grid", grid, "--out", str(out), "--workers", "1", "--quiet"]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and re.search(said, err), err
        assert not out.exists()  # nothing ran
    assert main(["study", tiny, "--grid", "time.dt=0.001", "--set", "time.nope=1", "--out", str(out)]) == 2
    assert "--set time.nope: unknown key" in capsys.readouterr().err
    args = ["study", tiny, "--set", "time.scheme=hht", "--set", "time.alpha=-0.1", "--grid", "time.scheme=hht,newmark"]
    assert main([*args, "--out", str(out)]) == 2  # a --set key that one grid point does not use
    assert re.search(r"--grid time\.scheme=newmark: .*--set time\.alpha: .*does not use it", capsys.readouterr().err)
    assert not out.exists()


def test_a_study_with_a_nook_row_exits_1_as_fem2d_run_does(tiny, tmp_path, capsys):
    out = tmp_path / "s"
    args = ["study", tiny, "--grid", "time.dt=0.001,0.002", "--set", "references.0.tolerance=1e-9", "--out",
            str(out), "--workers", "1", "--quiet"]
    assert main(args) == 1
    assert "(2 runs, 0 failed, 2 with a NOOK check)" in capsys.readouterr().out
    assert [r["status"] for r in _rows(out / "study.csv")] == ["NOOK", "NOOK"]
    assert main(args[:4] + ["--out", str(tmp_path / "t")] + args[8:]) == 0  # within the references' tolerance


def test_study_without_dask_says_how_to_get_it(tiny, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    assert main(["study", tiny, "--grid", "time.dt=0.001", "--scheduler", "tcp://nowhere:8786"]) == 2
    assert "pip install 'fem2d[dask]'" in capsys.readouterr().err


def test_run_vtu_writes_a_series(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "cantilever", "--set", "time.end=0.01", "--set", "report.modes=0", "--set",
                 "report.at_times=[]", "--vtu", "5", "--out", str(out), "--quiet"]) == 1  # references not computed
    assert "wrote" in capsys.readouterr().out
    assert sorted(p.name for p in (out / "vtu").iterdir()) == [f"cantilever_{k:04d}.vtu" for k in range(5)]
    assert (out / "cantilever.pvd").read_text().count("<DataSet") == 5
    assert json.loads((out / "result.json").read_text())["settings"]["report"]["snapshots"] == 5
    assert main(["run", "sdnd101", "--vtu", "--out", str(tmp_path / "modal")]) == 2
    assert "sdnd101 is a modal case" in capsys.readouterr().err
    assert not (tmp_path / "modal").exists()


def test_ctrl_c_in_a_parallel_study_leaves_only_finished_results(tiny, tmp_path):
    out = tmp_path / "s"
    proc = subprocess.Popen(
        [sys.executable, "-m", "fem2d.cli", "study", tiny, "--grid", "time.end=0.02,30,30", "--workers", "2",
         "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    first = out / "000_time.end=0.02" / "result.json"
    deadline = time.time() + 60
    while not first.exists() and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole process group
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "interrupted after 1 of 3 runs" in err and "Traceback" not in err
    assert json.loads(first.read_text())["overrides"] == {"time.end": 0.02}
    assert not list(out.glob("00[12]*/result.json"))
    assert not list(out.rglob("*.tmp")) and not (out / "study.csv").exists()


def test_ctrl_c_in_a_study_on_a_local_dask_cluster_writes_nothing_after_its_message(tiny, tmp_path):
    """The runs still computing on the Dask workers at the Ctrl-C are discarded: no result.json
    comes after the message (which counts the ones on disk), and Dask says nothing."""
    pytest.importorskip("distributed", reason="dask's distributed is the fem2d[dask] extra")
    out = tmp_path / "s"
    proc = subprocess.Popen(
        [sys.executable, "-m", "fem2d.cli", "study", tiny, "--grid", "time.end=0.02,30,30", "--scheduler", "local",
         "--workers", "2", "--quiet", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    first = out / "000_time.end=0.02" / "result.json"
    deadline = time.time() + 60
    while not first.exists() and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert err.strip() == ("fem2d: study interrupted after 1 of 3 runs; the finished runs kept their result.json, "
                           "the others and the summary table were not written"), err
    time.sleep(1.0)  # a run the workers were computing would be written by now
    assert [p.parent.name for p in out.rglob("result.json")] == ["000_time.end=0.02"]
    assert not list(out.rglob("*.tmp")) and not (out / "study.csv").exists()


def test_the_count_of_an_interrupted_study_includes_a_run_written_as_the_signal_came(tiny, tmp_path, capsys):
    """A run whose result.json was in place, but not yet reported, when Ctrl-C came is counted."""
    from fem2d.cli.interrupts import Interrupted
    from fem2d.cli.study_commands import _execute
    from fem2d.studies.execution import execute
    from fem2d.studies.study import grid_specs

    specs = grid_specs(tiny, {"time.dt": [1e-3, 2e-3, 4e-3]}, root=tmp_path / "s")

    def runner(specs, on_done):
        on_done(1, execute(specs[0]))
        execute(specs[1])  # written; Ctrl-C before the parent hears of it
        raise KeyboardInterrupt

    with pytest.raises(Interrupted, match="interrupted after 2 of 3 runs"):
        _execute(specs, None, "study", True, runner)
    assert len(list((tmp_path / "s").rglob("result.json"))) == 2
