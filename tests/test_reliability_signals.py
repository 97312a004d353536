"""Faults from outside: Ctrl-C and SIGKILL at random moments, a full disk, a read-only
output directory, a read-only install.

The signal tests run the command line in a child process group, as a terminal
would. By default each runs twice at random moments; ``pytest -m slow`` runs
the ten repeats. The file-system faults mount a small tmpfs in a private mount
namespace (``unshare``); where that is not allowed they are skipped (the
patched-write versions in ``test_reliability.py`` still run).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

FEM2D = [sys.executable, "-m", "fem2d.cli"]
REPO = Path(__file__).resolve().parents[1]


def _spawn(args: list[str], **kwargs) -> subprocess.Popen:
    return subprocess.Popen([*FEM2D, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True, **kwargs)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _wait_group_gone(pgid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _group_alive(pgid):
            return True
        time.sleep(0.05)
    return False


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in root.rglob("*") if p.is_file()}


def _consistent_run_dirs(root: Path) -> None:
    """Every run directory holds a whole set: a result.json that parses, with the
    history.npz of the same run (its last time is the run's end)."""
    for result in root.rglob("result.json"):
        doc = json.loads(result.read_text())
        history = result.parent / "history.npz"
        assert history.is_file(), f"{result} without its history.npz"
        with np.load(history) as arrays:
            last = arrays["time [s]"][-1]
        assert float(last) == pytest.approx(doc["settings"]["time"]["end"], rel=1e-9)
    leftovers = [p for p in root.rglob("*fem2d-stage*")] + [p for p in root.rglob("*.tmp")]
    assert not leftovers, leftovers


@pytest.fixture
def study_args(write_tiny_case, tmp_path):
    case = write_tiny_case()
    grid = ",".join(f"{0.001 * (1 + k % 3):g}" for k in range(3))
    return ["study", case, "--grid", f"time.dt={grid}", "--grid", "mesh.refine=0,1", "--workers", "2",
            "--quiet", "--out", str(tmp_path / "study")]


def _sigint_study_once(study_args, out: Path, delay: float) -> None:
    proc = _spawn(study_args)
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the whole foreground group
    sent = time.monotonic()
    try:
        status = proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail(f"Ctrl-C at {delay:.2f} s: still running after 15 s")
    took = time.monotonic() - sent
    err = proc.stderr.read().decode()
    assert took < 5.0, f"Ctrl-C at {delay:.2f} s: exit after {took:.1f} s"
    assert "Traceback" not in err, err
    assert _wait_group_gone(proc.pid, 2.0), "worker processes outlived the interrupted study"
    last = err.strip().splitlines()[-1] if err.strip() else ""
    if status in (130, -signal.SIGINT):
        if last == "fem2d: interrupted; no result was written":  # before the first run started: true?
            assert not list(out.rglob("result.json")) if out.exists() else True
        elif last:
            assert last.startswith("fem2d: study interrupted after"), err
            said = int(last.split("interrupted after ", 1)[1].split(" ", 1)[0])
            assert said == len(list(out.rglob("result.json"))), err  # counted once the last one was written
    else:
        assert status in (0, 1), (status, err)  # it had finished before the signal
    if out.exists():
        before = _snapshot(out)
        time.sleep(0.5)
        assert _snapshot(out) == before, "files written after the interrupt"
        _consistent_run_dirs(out)


def test_sigint_on_a_study_stops_it_at_once(study_args, tmp_path):
    rng = random.Random()
    for _k in range(2):
        shutil.rmtree(tmp_path / "study", ignore_errors=True)
        _sigint_study_once(study_args, tmp_path / "study", rng.uniform(0.4, 3.0))


@pytest.mark.slow
def test_sigint_on_a_study_at_ten_random_moments(study_args, tmp_path):
    rng = random.Random(11)
    for _k in range(10):
        shutil.rmtree(tmp_path / "study", ignore_errors=True)
        _sigint_study_once(study_args, tmp_path / "study", rng.uniform(0.3, 5.0))


def _sigkill_parent_once(study_args, out: Path, delay: float) -> None:
    proc = _spawn(study_args)
    time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)  # the parent only: its workers must notice
    proc.wait()
    gone = _wait_group_gone(proc.pid, 3.0)
    if not gone:
        os.killpg(proc.pid, signal.SIGKILL)
    assert gone, f"SIGKILL of the parent at {delay:.2f} s: workers still alive 3 s later"
    if out.exists():
        _consistent_run_dirs(out)


def test_workers_die_with_their_parent(study_args, tmp_path):
    rng = random.Random()
    for _k in range(2):
        shutil.rmtree(tmp_path / "study", ignore_errors=True)
        _sigkill_parent_once(study_args, tmp_path / "study", rng.uniform(0.8, 3.0))


@pytest.mark.slow
def test_workers_die_with_their_parent_at_ten_random_moments(study_args, tmp_path):
    rng = random.Random(12)
    for _k in range(10):
        shutil.rmtree(tmp_path / "study", ignore_errors=True)
        _sigkill_parent_once(study_args, tmp_path / "study", rng.uniform(0.5, 5.0))


def _sigint_run_once(out: Path, delay: float) -> None:
    proc = _spawn(["run", "sdnd104", "--quiet", "--out", str(out), "--set", "time.end=8.0",
                   "--set", "post.window=[4.0, 8.0]"])
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGINT)
    status = proc.wait(timeout=15)
    assert "Traceback" not in proc.stderr.read().decode()
    assert status in (130, -signal.SIGINT, 0, 1)
    _consistent_run_dirs(out)  # the old set (end 0.5 s) or the new one (end 8 s), whole
    assert [p.name for p in out.parent.iterdir()] == [out.name]  # no staging directory left


def test_sigint_on_a_run_leaves_the_old_or_the_new_outputs(tmp_path):
    out = tmp_path / "o"
    subprocess.run([*FEM2D, "run", "sdnd104", "--quiet", "--out", str(out), "--set", "time.end=0.5",
                    "--set", "post.window=[0.1, 0.5]"], check=False, capture_output=True)
    _sigint_run_once(out, random.Random().uniform(0.5, 4.0))


@pytest.mark.slow
def test_sigint_on_a_run_at_ten_random_moments(tmp_path):
    out = tmp_path / "o"
    subprocess.run([*FEM2D, "run", "sdnd104", "--quiet", "--out", str(out), "--set", "time.end=0.5",
                    "--set", "post.window=[0.1, 0.5]"], check=False, capture_output=True)
    rng = random.Random(13)
    for _k in range(10):
        _sigint_run_once(out, rng.uniform(0.3, 5.0))


# --- file systems: a private tmpfs -------------------------------------------------------------------------


def _private_mounts() -> list[str] | None:
    """The command prefix that gives a shell its own mount namespace, or None."""
    for prefix in (["unshare", "-m"], ["unshare", "-rm"]):
        try:
            ok = subprocess.run([*prefix, "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt 2>/dev/null || "
                                 "mount -t tmpfs -o size=64k tmpfs \"$TMPDIR\""], capture_output=True,
                                timeout=20, env={**os.environ, "TMPDIR": "/tmp"}).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            ok = False
        if ok:
            return prefix
    return None


PRIVATE = _private_mounts()
needs_mounts = pytest.mark.skipif(PRIVATE is None, reason="cannot mount a tmpfs here (no unshare)")


def _in_namespace(script: str, tmp_path: Path, **env) -> subprocess.CompletedProcess:
    fem2d = " ".join(f"'{a}'" for a in FEM2D)
    environ = {k: v for k, v in {**os.environ, **env}.items() if v is not None}  # None: unset
    return subprocess.run([*PRIVATE, "sh", "-c", script.replace("FEM2D", fem2d)], capture_output=True,
                          text=True, timeout=300, cwd=tmp_path, env=environ)


@needs_mounts
def test_a_full_disk_keeps_the_old_outputs(tmp_path):
    """A 512 KiB tmpfs holds a short run's files; a longer run's history (~2 MB) fills it."""
    script = """
    set -e
    mkdir -p disk && mount -t tmpfs -o size=512k tmpfs disk
    FEM2D run sdnd104 --quiet --out disk/o --set time.end=0.5 --set 'post.window=[0.1,0.5]' > /dev/null || true
    md5sum disk/o/* > before.txt
    set +e
    FEM2D run sdnd104 --quiet --out disk/o --set time.end=2.0 --set 'post.window=[1.0,2.0]' 2> err.txt
    echo $? > status.txt
    md5sum disk/o/* > after.txt
    ls -a disk > listing.txt
    """
    proc = _in_namespace(script, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "status.txt").read_text().strip() == "2"
    err = (tmp_path / "err.txt").read_text()
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "disk/o" in err and "the disk is full" in err
    assert (tmp_path / "before.txt").read_text() == (tmp_path / "after.txt").read_text()
    assert (tmp_path / "listing.txt").read_text().split() == [".", "..", "o"]


@needs_mounts
def test_a_read_only_output_directory_fails_before_running(tmp_path):
    script = """
    mkdir -p ro && mount -t tmpfs -o ro,size=64k tmpfs ro
    start=$(date +%s.%N)
    FEM2D run sdnd104 --quiet --out ro/o 2> err.txt
    echo $? > status.txt
    FEM2D study sdnd101 --grid time.dt=0.001 --quiet --out ro/s 2> err_study.txt
    echo $? >> status.txt
    """
    proc = _in_namespace(script, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "status.txt").read_text().split() == ["2", "2"]
    for name, path in (("err.txt", "ro/o"), ("err_study.txt", "ro/s")):
        err = (tmp_path / name).read_text()
        assert err.strip().splitlines() == [f"fem2d: error: {path}: cannot write (Read-only file system); "
                                            "expected a writable directory with free space"]


@needs_mounts
def test_a_mount_point_and_a_read_only_folder_in_out_are_left_alone(tmp_path):
    """fem2d moves nothing of the user's, so what cannot be moved does not matter."""
    script = """
    set -e
    mkdir -p o/a_mnt o/z_mnt o/zz_readonly
    mount -t tmpfs -o size=64k tmpfs o/a_mnt && mount -t tmpfs -o size=64k tmpfs o/z_mnt
    echo first > o/a_mnt/inside.txt && echo last > o/z_mnt/inside.txt && echo ro > o/zz_readonly/kept.txt
    chmod 555 o/zz_readonly && echo mine > o/0_notes.txt
    set +e
    FEM2D run sdnd101 --quiet --out o > /dev/null 2> err.txt; echo $? > status.txt
    FEM2D run sdnd101 --quiet --out o > /dev/null 2>> err.txt; echo $? >> status.txt
    cat o/a_mnt/inside.txt o/z_mnt/inside.txt o/zz_readonly/kept.txt o/0_notes.txt > kept.txt
    mountpoint -q o/a_mnt && mountpoint -q o/z_mnt && echo mounted > mounted.txt
    ls -A o > listing.txt
    """
    proc = _in_namespace(script, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "status.txt").read_text().split() == ["0", "0"], (tmp_path / "err.txt").read_text()
    assert (tmp_path / "kept.txt").read_text().split() == ["first", "last", "ro", "mine"]
    assert (tmp_path / "mounted.txt").read_text().strip() == "mounted"
    assert (tmp_path / "listing.txt").read_text().split() == [
        ".fem2d-outputs.json", "0_notes.txt", "a_mnt", "history.npz", "impacts.csv", "result.json", "z_mnt",
        "zz_readonly"]


def _run_sdnd104_read_only(tmp_path: Path) -> list[str]:
    """``fem2d run sdnd104`` with the package and HOME read-only, TMPDIR = ``tmp_path``;
    asserts it exits 0 and returns its stderr lines."""
    package = REPO / "fem2d"
    script = f"""
    set -e
    mkdir -p home && mount -t tmpfs -o ro,size=64k tmpfs home
    mount --bind '{package}' '{package}' && mount -o remount,bind,ro '{package}'
    set +e
    FEM2D run sdnd104 --quiet --out out > /dev/null 2> err.txt
    echo $? > status.txt
    """
    proc = _in_namespace(script, tmp_path, HOME=str(tmp_path / "home"), XDG_CACHE_HOME=None,
                         NUMBA_CACHE_DIR=None, TMPDIR=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    err = (tmp_path / "err.txt").read_text()
    assert (tmp_path / "status.txt").read_text().strip() == "0", err
    return err.strip().splitlines()


@pytest.mark.slow
@needs_mounts
def test_a_read_only_install_still_runs_modal_cases(tmp_path):
    """The package (and its numba cache) read-only and HOME unwritable: the kernels are
    cached elsewhere, with a one-line notice, and the run succeeds (SDND104: long enough
    to be compiled; SDND101 runs in the interpreter)."""
    lines = _run_sdnd104_read_only(tmp_path)
    assert len(lines) == 1 and lines[0].startswith("fem2d: note: the install and the user cache are read-only")
    assert json.loads((tmp_path / "out" / "result.json").read_text())["case"] == "sdnd104"


@needs_mounts
@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown to another user needs root")
def test_a_planted_fallback_cache_runs_nothing(tmp_path):
    """The install and HOME read-only, so the kernels' cache would fall back to
    $TMPDIR/fem2d-numba-cache-<uid>; another user left it there, mode 0777, holding numba
    index files whose loading would create a marker. The run compiles without cache."""
    from numba.core.caching import _CacheLocator

    from fem2d.modal import integrators, jit, shocks

    planted = tmp_path / f"fem2d-numba-cache-{os.getuid()}"
    marker = tmp_path / "planted code ran"
    py = f"py{sys.version_info.major}{sys.version_info.minor}"
    plant = b"cbuiltins\nopen\n(V" + str(marker).encode() + b"\nVw\ntR."  # pickle: open(marker, "w")
    for module in (integrators, shocks):
        where = planted / _CacheLocator.get_suitable_cache_subpath(module.__file__)
        where.mkdir(parents=True, exist_ok=True)
        for f in vars(module).values():
            if hasattr(f, jit._SPEC):
                (where / f"{Path(module.__file__).stem}.{f.__qualname__}-{f.__code__.co_firstlineno}.{py}.nbi"
                 ).write_bytes(plant)
    for path in (planted, *planted.rglob("*")):
        os.chown(path, 65534, 65534)
        path.chmod(0o777)
    lines = _run_sdnd104_read_only(tmp_path)
    assert not marker.exists()
    assert len(lines) == 1 and lines[0].startswith(f"fem2d: note: {planted} belongs to user id 65534"), lines
    assert json.loads((tmp_path / "out" / "result.json").read_text())["case"] == "sdnd104"


_FINALISER_MEETS_SIGTERM = """
import os, signal, sys
from fem2d.studies import execution

execution._worker_init()
signal.signal(signal.SIGTERM, execution._raise_on_sigterm)  # as while a worker runs a case


class Factorisation:
    def __del__(self):  # garbage collected while the parent stops the worker
        os.kill(os.getpid(), signal.SIGTERM)
        sum(range(100000))  # the handler runs here, inside the finaliser


try:
    Factorisation()
    total = sum(range(10**7))
    print("went on")
except execution._Terminated:
    print("terminated")
"""


def test_a_sigterm_met_in_a_finaliser_still_ends_the_run():
    """A worker's SIGTERM raised inside a PARDISO factorisation's ``__del__`` was printed
    as an ignored exception (a Traceback on the study's stderr) and the run went on until
    it was killed; it is sent again and ends the run in the run's own code."""
    proc = subprocess.run([sys.executable, "-c", _FINALISER_MEETS_SIGTERM], capture_output=True, text=True,
                          timeout=60)
    assert proc.stdout.strip() == "terminated", (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and "ignored" not in proc.stderr, proc.stderr
