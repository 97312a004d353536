"""The `fem2d run` contract: result.json fields, errors, atomicity."""

import json
import subprocess
import sys

import numpy as np
import pytest

import fem2d
from fem2d.cli import main


def _run(tmp_path, *args):
    return main(["run", "cantilever", "--quiet", "--out", str(tmp_path), *args])


def test_run_writes_result_json(tmp_path, capsys):
    assert _run(tmp_path) == 0
    doc = json.loads((tmp_path / "result.json").read_text())
    assert doc["case"] == "cantilever" and doc["version"] == fem2d.__version__
    assert doc["settings"]["time"]["dt"] == 5e-4
    assert {"x_at_0.05", "x_at_0.10", "x_at_0.15", "f_1", "f_2"} <= set(doc["quantities"])
    for check in doc["checks"]:
        assert {"quantity", "value", "reference", "source", "tolerance", "relative_error", "passed"} <= set(check)
        assert check["passed"]
    assert doc["timing"]["wall_s"] > 0 and doc["timing"]["steps"] == 400
    with np.load(tmp_path / "history.npz") as history:
        assert history.files[:3] == ["time [s]", "dt [s]", "u [m]"] and len(history["time [s]"]) == 401
    assert not (tmp_path / "history.csv").exists()  # CSV on request (--csv)
    out = capsys.readouterr().out
    assert "x_at_0.10" in out and "OK" in out


def test_set_overrides_reach_the_run(tmp_path):
    assert _run(tmp_path, "--set", "time.dt=0.001", "--set", "time.end=0.05") in (0, 1)
    doc = json.loads((tmp_path / "result.json").read_text())
    assert doc["timing"]["steps"] == 50 and doc["overrides"] == {"time.dt": 0.001, "time.end": 0.05}


@pytest.mark.parametrize(
    "args, message",
    [
        (["--set", "time.dt=-1"], "time.dt: expected a number > 0"),
        (["--set", "time.nope=1"], "--set time.nope: unknown key"),
        (["--set", "report.node=NOPE"], "report.node: .*no group named 'NOPE'"),
        (["--set", "loads.0.group=GHOST"], r"loads\[0\].group: .*no group named 'GHOST'"),
        (["--set", "solver.linear=mumps"], "unknown solver 'mumps'"),
        (["--set", 'mesh.geometry="spaceship"'], "mesh.geometry: unknown builder 'spaceship'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    assert _run(tmp_path, *args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.startswith("fem2d: error: ")
    import re

    assert re.search(message, err), err
    assert not (tmp_path / "result.json").exists()


def test_unknown_case_and_missing_mesh_file(tmp_path, capsys):
    assert main(["run", "nope", "--out", str(tmp_path)]) == 2
    assert "unknown case 'nope'" in capsys.readouterr().err
    case = tmp_path / "c.toml"
    case.write_text(
        '[case]\nname = "c"\nkind = "direct"\n[mesh]\nfile = "absent.msh"\n'
        '[[materials]]\ngroup = "B"\nE = 1.0\nnu = 0.0\nrho = 1.0\n[time]\ndt = 0.1\nend = 1.0\n'
    )
    assert main(["run", str(case), "--out", str(tmp_path)]) == 2
    assert "absent.msh: mesh file not found" in capsys.readouterr().err


def test_no_traceback_from_the_console_script(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "fem2d.cli", "run", "sdnv104a", "--set", "time.dt=abc%", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "cannot read 'abc%'" in proc.stderr


def test_interrupted_run_leaves_previous_result_intact(tmp_path, monkeypatch):
    assert _run(tmp_path) == 0
    before = (tmp_path / "result.json").read_text()

    import fem2d.runs.direct as direct

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(direct, "direct_quantities", interrupted)
    assert _run(tmp_path, "--set", "time.end=0.01") == 130
    assert (tmp_path / "result.json").read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".fem2d-outputs.json", "history.npz", "result.json"]


def test_ctrl_c_after_a_run_wrote_its_outputs_says_so(tmp_path, monkeypatch, capsys):
    import fem2d.io.tables as tables

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(tables, "format_quantities", interrupted)
    assert _run(tmp_path) == 130
    assert capsys.readouterr().err.strip() == f"fem2d: interrupted; {tmp_path} was written"
    assert json.loads((tmp_path / "result.json").read_text())["case"] == "cantilever"


@pytest.mark.parametrize("stage", ["table", "after_table"])
def test_ctrl_c_once_every_study_run_finished_says_what_was_kept(write_tiny_case, tmp_path, monkeypatch,
                                                                 capsys, stage):
    import fem2d.cli.study_commands as commands
    import fem2d.io.files as files

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    if stage == "table":
        monkeypatch.setattr(files, "write_table_csv", interrupted)
    else:
        monkeypatch.setattr(commands, "_print_failures", interrupted)
    out = tmp_path / "study"
    args = ["study", write_tiny_case(), "--grid", "time.dt=0.001,0.002", "--workers", "1", "--quiet",
            "--out", str(out)]
    assert main(args) == 130
    said = "was not written" if stage == "table" else "was written"
    assert capsys.readouterr().err.strip() == ("fem2d: study interrupted after 2 of 2 runs; every run kept its "
                                               f"result.json, study.csv {said}")
    assert len(list(out.rglob("result.json"))) == 2
    assert (out / "study.csv").exists() == (stage != "table")


def test_atomic_writer_removes_its_temporary_file(tmp_path):
    from fem2d.io.files import write_json

    target = tmp_path / "r.json"
    write_json(target, {"a": 1})
    with pytest.raises(TypeError):
        write_json(target, {"a": object()})
    assert json.loads(target.read_text()) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_csv_history_on_request_holds_the_binary_history_columns(tmp_path):
    import csv

    assert _run(tmp_path, "--csv") == 0
    with (tmp_path / "history.csv").open() as f:
        rows = list(csv.DictReader(f))
    with np.load(tmp_path / "history.npz") as history:
        columns = [k for k in history.files if history[k].ndim == 1]
        assert list(rows[0]) == columns and len(rows) == len(history["time [s]"]) == 401
        for k in columns:
            assert [float(r[k]) for r in rows] == history[k].tolist()  # repr round-trips every float


def test_the_console_script_exits_with_the_status_after_flushing(tmp_path):
    """`fem2d` ends by os._exit once the outputs are in place: the status and the printed
    table still arrive whole."""
    code = "import sys; sys.argv = ['fem2d'] + sys.argv[1:]; from fem2d.cli import script; script()"
    proc = subprocess.run([sys.executable, "-c", code, "run", "cantilever", "--quiet", "--out", str(tmp_path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and "x_at_0.10" in proc.stdout and proc.stdout.endswith("\n")
    assert (tmp_path / "result.json").is_file() and (tmp_path / "history.npz").is_file()
    bad = subprocess.run([sys.executable, "-c", code, "run", "cantilever", "--set", "time.dt=-1"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("fem2d: error:")


@pytest.mark.parametrize("closed", [1, 2], ids=["stdout", "stderr"])
def test_a_closed_stdout_or_stderr_does_not_fail_a_run(tmp_path, closed):
    """`fem2d run ... >&-` or `2>&-`: what would be said is dropped; the run's status is its own."""
    import os

    proc = subprocess.run([sys.executable, "-m", "fem2d.cli", "run", "sdnd101", "--out", str(tmp_path)],
                          capture_output=True, text=True, preexec_fn=lambda: os.close(closed))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert ("wrote" in proc.stdout) == (closed == 2)
    assert json.loads((tmp_path / "result.json").read_text())["case"] == "sdnd101"
