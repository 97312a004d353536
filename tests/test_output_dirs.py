"""An output directory: fem2d replaces only what it wrote, whatever happens.

Each test plants a user's files in the output directory (names sorting before
and after fem2d's, a folder, a link, a read-only folder, a file named like a
staging directory of an older fem2d), then makes the fault happen: an error
while writing, Ctrl-C, SIGKILL then a second run, two runs at once, ``--out``
equal to the current folder, its parent or empty. Every planted file must be
there afterwards, byte for byte.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from fem2d.cli import main
from fem2d.errors import OutputError
from fem2d.io.outdir import MANIFEST, STAGE_PREFIX, replaced_together

FEM2D = [sys.executable, "-m", "fem2d.cli"]
FAST = ["run", "sdnd101", "--quiet"]  # about a second, writes result + history


def plant(directory: Path, many: int = 0) -> dict[str, bytes]:
    """A user's entries in ``directory``; returns {relative path: content}."""
    rng = random.Random(7)
    files = {
        "#autosave#": b"autosave",
        "(backup).txt": b"backup",
        "+1.txt": b"plus one",
        "- draft.txt": b"draft",
        ".hidden": b"dot file",
        "aaa_thesis/ch1.tex": b"\\chapter{One}",
        "my_notes.txt": b"notes",
        "history.txt": b"my own history, not fem2d's",
        "results.json": b"{}",
        "zz.txt": b"last",
        "read_only/kept.txt": b"in a read-only folder",
    }
    files.update({f"many/user_{k:05d}.dat": rng.randbytes(16) for k in range(many)})
    for name, content in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    (directory / "read_only").chmod(0o555)
    os.symlink("my_notes.txt", directory / "link_to_notes")
    return files


def assert_intact(directory: Path, planted: dict[str, bytes]) -> None:
    missing = [name for name in planted if not (directory / name).is_file()]
    assert not missing, f"{len(missing)} user files lost, e.g. {missing[:5]}"
    changed = [name for name, content in planted.items() if (directory / name).read_bytes() != content]
    assert not changed, changed[:5]
    assert (directory / "link_to_notes").is_symlink()
    assert os.readlink(directory / "link_to_notes") == "my_notes.txt"


def assert_whole(out: Path, dt: float = 5e-4) -> None:
    """A whole set of fem2d's files: result.json and the history of the same run, no staging left."""
    doc = json.loads((out / "result.json").read_text())
    assert doc["settings"]["time"]["dt"] == pytest.approx(dt)
    with np.load(out / "history.npz") as history:
        times = history["time [s]"]
    assert times[1] - times[0] == pytest.approx(dt)
    assert not [p for p in out.iterdir() if p.name.startswith(STAGE_PREFIX) or p.name.endswith(".tmp")]


# --- the writer itself --------------------------------------------------------------------------------------


def test_a_failing_write_keeps_everything(tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    planted = plant(out)
    with replaced_together(out) as stage:
        (stage / "result.json").write_text("old")
    with pytest.raises(OutputError, match="the disk is full"), replaced_together(out) as stage:
        (stage / "result.json").write_text("new")
        raise OSError(28, "No space left on device")
    assert_intact(out, planted)
    assert (out / "result.json").read_text() == "old"


def test_old_outputs_not_written_again_are_removed_only_if_fem2d_wrote_them(tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    planted = plant(out)
    (out / "history.csv").write_text("a user's file of an output name, written before fem2d's first run")
    with replaced_together(out) as stage:
        (stage / "result.json").write_text("1")
        (stage / "vtu").mkdir()
        (stage / "vtu" / "c_0000.vtu").write_text("frame")
        (stage / "c.pvd").write_text("index")
    with replaced_together(out) as stage:
        (stage / "result.json").write_text("2")
    names = {p.name for p in out.iterdir()}
    assert "vtu" not in names and "c.pvd" not in names  # fem2d's, listed in its manifest
    assert (out / "history.csv").is_file()  # not fem2d's: kept
    assert list(json.loads((out / MANIFEST).read_text())["outputs"]) == ["result.json"]
    assert_intact(out, planted)


def test_a_users_folder_named_like_an_output_is_refused_not_replaced(tmp_path, capsys):
    out = tmp_path / "o"
    (out / "vtu").mkdir(parents=True)
    (out / "vtu" / "mine.txt").write_text("mine")
    with pytest.raises(OutputError, match="vtu: a folder fem2d did not write"), replaced_together(out) as stage:
        (stage / "vtu").mkdir()
    assert (out / "vtu" / "mine.txt").read_text() == "mine"
    status = main(["run", "sdnv104a", "--quiet", "--vtu", "50", "--out", str(out)])
    assert status == 2 and "vtu: a folder fem2d did not write" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["vtu"]  # refused before the run


_KILLED_WRITER = """
import os, sys
from pathlib import Path
import fem2d.io.outdir as outdir

limit, renames = int(sys.argv[2]), [0]
real = os.rename

def rename(src, dst):
    if renames[0] == limit:
        os._exit(9)  # as SIGKILL: no undo, no clean-up
    renames[0] += 1
    real(src, dst)

outdir.os.rename = rename
with outdir.replaced_together(sys.argv[1]) as stage:
    for name in ("result.json", "history.npz", "c.pvd"):
        (stage / name).write_text("new")
    (stage / "vtu").mkdir()
    (stage / "vtu" / "c_0000.vtu").write_text("new")
"""


@pytest.mark.parametrize("renames", range(0, 10))
def test_a_swap_cut_by_sigkill_is_finished_or_dropped_by_the_next_writer(tmp_path, renames):
    """The writer dies after each number of its renames; the next writer, before its own
    swap, leaves a whole set (all old or all new) and every user file as it was."""
    out = tmp_path / "o"
    out.mkdir()
    planted = plant(out)
    with replaced_together(out) as stage:
        for name in ("result.json", "history.npz", "history.csv"):
            (stage / name).write_text("old")
    killed = subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(out), str(renames)], capture_output=True)
    assert killed.returncode in (0, 9), killed.stderr
    with pytest.raises(OutputError), replaced_together(out):  # the next writer fails: what it found stays
        raise OSError(28, "No space left on device")
    names = {p.name for p in out.iterdir()} - set(planted) - {"aaa_thesis", "read_only", "link_to_notes"}
    kept = {name: (out / name).read_text() for name in ("result.json", "history.npz") if (out / name).is_file()}
    if kept["result.json"] == "old":
        assert names == {MANIFEST, "result.json", "history.npz", "history.csv"}
        assert set(kept.values()) == {"old"}
    else:
        assert names == {MANIFEST, "result.json", "history.npz", "c.pvd", "vtu"}
        assert set(kept.values()) == {"new"} and (out / "vtu" / "c_0000.vtu").read_text() == "new"
    assert_intact(out, planted)


def test_a_finished_swap_is_never_applied_again(tmp_path, monkeypatch):
    """A writer killed while removing its staging directory, after its swap: the next
    writer drops that directory and touches none of the newest outputs."""
    import fem2d.io.outdir as outdir

    out = tmp_path / "o"
    with replaced_together(out) as stage:
        (stage / "result.json").write_text("A")
        (stage / "history.npz").write_text("A")
    monkeypatch.setattr(outdir._Staging, "discard", lambda self: None)  # its clean-up never happens
    with replaced_together(out) as stage:
        (stage / "result.json").write_text("B")
        (stage / "history.npz").write_text("B")
    monkeypatch.undo()
    with pytest.raises(OutputError), replaced_together(out):
        raise OSError(28, "No space left on device")
    assert (out / "result.json").read_text() == "B" and (out / "history.npz").read_text() == "B"
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "history.npz", "result.json"]


def test_names_in_a_manifest_or_a_plan_never_reach_outside(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "paper.pvd").write_text("mine")
    (tmp_path / "thesis").mkdir()
    (tmp_path / "thesis" / "ch1.tex").write_text("mine")
    (out / "result.json").write_text("{}")
    (out / MANIFEST).write_text(json.dumps({"outputs": {"../paper.pvd": {"id": None}, "..": {"id": None}}}))
    stage = out / f"{STAGE_PREFIX}4000000-x"
    stage.mkdir()
    (stage / ".complete").write_text(json.dumps({"trash": [["../thesis", None], ["..", None]], "add": ["../x"],
                                                 "manifest_before": None}))
    with replaced_together(out) as new:
        (new / "result.json").write_text("new")
    assert (tmp_path / "paper.pvd").read_text() == "mine" and (tmp_path / "thesis" / "ch1.tex").is_file()
    assert (out / "result.json").read_text() == "new"


def test_a_file_put_into_fems_vtu_folder_keeps_the_folder(tmp_path):
    out = tmp_path / "o"
    with replaced_together(out) as stage:
        (stage / "result.json").write_text("1")
        (stage / "vtu").mkdir()
        (stage / "vtu" / "c_0000.vtu").write_text("frame")
    (out / "vtu" / "view.pvsm").write_text("my camera")
    with replaced_together(out) as stage:  # no VTU this time: fem2d's folder would go, but it holds a user file
        (stage / "result.json").write_text("2")
    assert (out / "vtu" / "view.pvsm").read_text() == "my camera"
    with pytest.raises(OutputError, match="vtu: a folder fem2d did not write"), replaced_together(out) as stage:
        (stage / "vtu").mkdir()
    assert (out / "vtu" / "view.pvsm").read_text() == "my camera"


def test_a_folder_made_again_at_fems_place_is_the_users(tmp_path):
    import shutil

    out = tmp_path / "o"
    with replaced_together(out) as stage:
        (stage / "result.json").write_text("1")
        (stage / "vtu").mkdir()
        (stage / "vtu" / "c_0000.vtu").write_text("frame")
    shutil.rmtree(out / "vtu")
    (out / "vtu").mkdir()
    (out / "vtu" / "c_0000.vtu").write_text("another program's frame")  # the name fem2d listed, not its file
    with replaced_together(out) as stage:
        (stage / "result.json").write_text("2")
    assert (out / "vtu" / "c_0000.vtu").read_text() == "another program's frame"


def test_folders_of_names_no_run_writes_do_not_block_a_run(tmp_path, capsys):
    out = tmp_path / "o"
    (out / "history.2024").mkdir(parents=True)
    (out / "old.pvd").mkdir()
    assert main([*FAST, "--out", str(out)]) == 0
    assert (out / "history.2024").is_dir() and (out / "old.pvd").is_dir()


# --- the command line, with faults -------------------------------------------------------------------------


def _run(args: list[str], cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*FEM2D, *args], cwd=cwd, capture_output=True, text=True, timeout=120, **kwargs)


@pytest.mark.parametrize("where", [".", "", ".."])
def test_out_the_current_folder_its_parent_or_empty(tmp_path, where):
    parent = tmp_path / "p"
    work = parent / "work"
    work.mkdir(parents=True)
    planted_work = plant(work)
    if where == "":  # no directory name: refused, nothing written (it used to mean the current folder)
        proc = _run([*FAST, "--out", where], cwd=work)
        assert proc.returncode == 2 and proc.stderr.startswith("fem2d: error: --out '': "), proc.stderr
        assert_intact(work, planted_work)
        return
    planted_parent = {"aaa_thesis/ch1.tex": b"thesis", "b_notes.txt": b"notes", "zzz.txt": b"z"}
    for name, content in planted_parent.items():
        (parent / name).parent.mkdir(parents=True, exist_ok=True)
        (parent / name).write_bytes(content)
    proc = _run([*FAST, "--out", where], cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert_whole(work if where != ".." else parent)
    assert_intact(work, planted_work)
    for name, content in planted_parent.items():
        assert (parent / name).read_bytes() == content
    proc = _run([*FAST, "--out", where, "--set", "time.dt=2.5e-4"], cwd=work)  # a second run replaces the first
    assert proc.returncode == 0, proc.stderr
    assert_whole(work if where != ".." else parent, 2.5e-4)
    assert_intact(work, planted_work)


def test_an_error_after_the_run_keeps_everything(tmp_path, capsys):
    out = tmp_path / "o"
    out.mkdir()
    planted = plant(out)
    assert main([*FAST, "--out", str(out)]) == 0
    (out / "vtu").mkdir()  # the user's folder of an output's name, made during the next run
    (out / "vtu" / "a.txt").write_text("mine")
    status = main(["run", "sdnv104a", "--quiet", "--set", "time.end=0.2", "--vtu", "5", "--out", str(out)])
    err = capsys.readouterr().err
    assert status == 2 and "vtu: a folder fem2d did not write" in err, err
    assert_intact(out, planted)
    assert_whole(out)


def _kill_during(out: Path, planted: dict[str, bytes], sig: int, delay: float) -> None:
    proc = subprocess.Popen([*FEM2D, "run", "sdnv104a", "--quiet", "--vtu", "1", "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(delay)
    os.killpg(proc.pid, sig)
    status = proc.wait(timeout=30)
    err = proc.stderr.read().decode()
    assert "Traceback" not in err, err
    assert status in (0, 130, -sig), (status, err)
    assert_intact(out, planted)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_an_interrupted_run_then_a_rerun_keep_every_user_file(tmp_path, sig):
    out = tmp_path / "o"
    out.mkdir()
    planted = plant(out, many=3000)
    rng = random.Random()
    for delay in (rng.uniform(0.5, 2.5), rng.uniform(2.5, 5.0)):
        _kill_during(out, planted, sig, delay)
    proc = _run([*FAST, "--out", str(out)], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert_intact(out, planted)
    assert_whole(out)


def test_two_runs_into_one_folder_at_once(tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    planted = plant(out, many=2000)
    procs = []
    for dt in (5e-4, 2.5e-4):
        procs.append(subprocess.Popen([*FEM2D, *FAST, "--set", f"time.dt={dt}", "--out", str(out)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
        time.sleep(0.05)
    for proc in procs:
        assert proc.wait(timeout=120) == 0, proc.stderr.read().decode()
    assert_intact(out, planted)
    assert_whole(out, json.loads((out / "result.json").read_text())["settings"]["time"]["dt"])


def test_a_symlinked_out_writes_into_its_target(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    planted = plant(real)
    os.symlink("real", tmp_path / "link")
    proc = _run([*FAST, "--out", "link"], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "link").is_symlink()
    assert_whole(real)
    assert_intact(real, planted)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real"]


def test_a_case_name_that_is_a_path_is_refused(tmp_path):
    case = tmp_path / "mycase.toml"
    source = Path(__file__).resolve().parents[1] / "cases" / "sdnd101.toml"
    text = source.read_text()
    planted = plant(tmp_path)
    for name in ("..", "/abs/victim", "../../x", "."):
        case.write_text(text.replace('name = "sdnd101"', f'name = "{name}"', 1) if 'name = "sdnd101"' in text
                        else f'[case]\nname = "{name}"\nextends = "{source}"\n')
        proc = _run(["run", str(case), "--quiet"], cwd=tmp_path)
        assert proc.returncode == 2, (name, proc.stdout, proc.stderr)
        assert "case.name" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert case.is_file()
        assert_intact(tmp_path, planted)
    assert not Path("/abs/victim").exists()


def test_a_failed_study_run_keeps_its_previous_result(tmp_path):
    from fem2d.studies.execution import InlineExecutor, RunSpec, run_all

    out = tmp_path / "r"
    out.mkdir()
    planted = plant(out)
    good = run_all([RunSpec("sdnd101", {"time.end": 0.1}, "ok", str(out))], executor=InlineExecutor())
    assert good[0].error is None
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    bad = run_all([RunSpec("sdnd101", {"time.dt": 0.05}, "unstable", str(out))], executor=InlineExecutor())
    assert bad[0].status == "FAILED"
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert_intact(out, planted)
