"""Output folders: fem2d removes only the staging folders it can prove it made, and a
writer that finds the folder locked says so once and gives up after a stated time."""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
import sys
import time

import pytest

from fem2d.cli import main
from fem2d.errors import OutputError
from fem2d.io import dirlock
from fem2d.io.outdir import STAGE_MARKER, STAGE_PREFIX, replaced_together, staging_pids


def test_a_users_folder_named_like_a_staging_folder_is_kept(tmp_path, capsys):
    out = tmp_path / "D"
    mine = out / f"{STAGE_PREFIX}mine"
    mine.mkdir(parents=True)
    (mine / "thesis.tex").write_text("t")
    forged = out / f"{STAGE_PREFIX}{os.getpid()}-abcd1234"  # fem2d's name, but no marker fem2d wrote
    forged.mkdir()
    (forged / "notes.txt").write_text("n")
    wrong = out / f"{STAGE_PREFIX}1-backup.d"  # a marker that does not match the name
    wrong.mkdir()
    (wrong / STAGE_MARKER).write_text(json.dumps({"pid": 1, "token": "other"}))
    assert main(["run", "sdnd101", "--quiet", "--out", str(out)]) == 0
    assert main(["run", "sdnd101", "--quiet", "--out", str(out)]) == 0
    assert (mine / "thesis.tex").read_text() == "t"
    assert (forged / "notes.txt").read_text() == "n"
    assert (wrong / STAGE_MARKER).exists()
    assert staging_pids(out) == []


def test_the_staging_folder_carries_its_process_id_and_token(tmp_path):
    out = tmp_path / "D"
    with replaced_together(out) as stage:
        marker = json.loads((stage / STAGE_MARKER).read_text())
        assert stage.name == f"{STAGE_PREFIX}{os.getpid()}-{marker['token']}" and marker["pid"] == os.getpid()
        assert re.fullmatch(r"[0-9a-f]{16}", marker["token"])
        assert staging_pids(out) == [os.getpid()]
        (stage / "result.json").write_text("{}")
    assert sorted(p.name for p in out.iterdir()) == [".fem2d-outputs.json", "result.json"]


HOLD = "import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDONLY); fcntl.flock(fd, fcntl.LOCK_EX); " \
       "print('held', flush=True); time.sleep(60)"


def test_a_writer_waiting_for_the_lock_says_so_once_and_gives_up_naming_the_holder(tmp_path, capsys, monkeypatch):
    out = tmp_path / "D"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        monkeypatch.setattr(dirlock, "LOCK_WAIT", 0.5)
        start = time.monotonic()
        status = main(["run", "sdnd101", "--quiet", "--out", str(out)])
        assert time.monotonic() - start < 30
        err = capsys.readouterr().err.strip().splitlines()
        assert status == 2, err
        assert err[0] == f"fem2d: waiting for the lock on {out}, held by process {holder.pid} (up to 0.5 s)"
        assert len(err) == 2 and err[1] == (
            f"fem2d: error: {out}: process {holder.pid} has held the lock on this output directory for 0.5 s; "
            "expected it to finish writing (if it is stopped or stuck, end it) or another output directory"), err
        assert not (out / "result.json").exists()
    finally:
        holder.kill()
        holder.wait()
    assert main(["run", "sdnd101", "--quiet", "--out", str(out)]) == 0  # the lock is free again
    assert capsys.readouterr().err == ""


def test_the_lock_is_taken_only_to_write(tmp_path, monkeypatch):
    """A run computes without the lock: the folder is locked only while the outputs are swapped in."""
    import fem2d

    out = tmp_path / "D"
    out.mkdir()
    seen = []
    real = dirlock.directory_lock

    def spy(path, *args, **kwargs):
        fd = os.open(path, os.O_RDONLY)
        try:  # nobody holds it when the writer asks for it
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(fd, fcntl.LOCK_UN)
            seen.append("free")
        finally:
            os.close(fd)
        return real(path, *args, **kwargs)

    monkeypatch.setattr("fem2d.io.outdir.directory_lock", spy)
    result = fem2d.run("sdnd101")
    assert seen == []  # computing took no lock
    result.write(out)
    assert seen == ["free"]


def test_without_another_writer_the_lock_is_silent(tmp_path, capsys):
    with dirlock.directory_lock(tmp_path, wait=0.1) as held:
        assert held
    with pytest.raises(OutputError, match=r"process \d+ has held the lock"):
        with dirlock.directory_lock(tmp_path, wait=0.1), dirlock.directory_lock(tmp_path, wait=0.2):
            pass
    assert capsys.readouterr().err.count("waiting for the lock") == 1


def test_an_empty_out_is_an_error(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for command in (["run", "sdnd101", "--quiet"], ["validate", "sdnd101"]):
        assert main([*command, "--out", ""]) == 2
        err = capsys.readouterr().err
        assert err == "fem2d: error: --out '': expected a directory name (--out . for the current one)\n", err
    assert list(tmp_path.iterdir()) == []


def test_a_reference_cache_file_edited_by_hand_is_computed_anew(tmp_path, monkeypatch, capsys):
    """The cache file carries the checksum of its content: every value set to 15.0 no longer
    matches it, and the run computes the exact reference again (and stores it again)."""
    import fem2d

    cache = tmp_path / "cache"
    monkeypatch.setenv("FEM2D_CACHE_DIR", str(cache))
    first = fem2d.run("sdnd104")
    [stored] = list(cache.glob("*.json"))
    data = json.loads(stored.read_text())
    assert len(data["checksum"]) == 64
    data["values"] = {name: 15.0 for name in data["values"]}
    stored.write_text(json.dumps(data))
    assert first.checks
    again = fem2d.run("sdnd104")
    assert [c["reference"] for c in again.checks] == [c["reference"] for c in first.checks]
    assert all(c["reference"] != 15.0 for c in again.checks)
    assert json.loads(stored.read_text())["values"] != data["values"]  # replaced by the recomputed values


def test_a_dangling_or_looping_link_as_out_is_said_so(tmp_path, capsys):
    (tmp_path / "L").symlink_to(tmp_path / "nowhere")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    for name in ("L", "loop"):
        assert main(["run", "sdnd101", "--quiet", "--out", str(tmp_path / name)]) == 2
        err = capsys.readouterr().err
        assert err == (f"fem2d: error: {tmp_path / name}: a link that leads to no directory (its target is missing, "
                       "or the links loop); expected an output directory\n"), err
    assert not (tmp_path / "nowhere").exists()


def test_writing_or_plotting_into_a_bad_place_is_an_output_error(tmp_path):
    import fem2d

    result = fem2d.run("sdnd101")
    (tmp_path / "file").write_text("x")
    for call in (lambda: result.write("a\0b"), lambda: result.plot("a\0b"), lambda: result.plot(tmp_path / "file")):
        with pytest.raises(OutputError, match=r"NUL character|is a file"):
            call()
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "ro"
        locked.mkdir(mode=0o500)
        with pytest.raises(OutputError, match=r"cannot write"):
            result.plot(locked)
