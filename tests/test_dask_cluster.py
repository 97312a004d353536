"""A study on a real Dask cluster: a scheduler and a worker started as separate
processes on 127.0.0.1, in another directory than the client's."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from fem2d.cli import main  # noqa: E402

DASK = str(Path(sys.executable).parent / "dask")


def _start(args, cwd):
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    return subprocess.Popen([DASK, *args], cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _scheduler_address(info: Path, deadline: float) -> str:
    """The address in the scheduler's file, once it is written whole (it appears empty first)."""
    while True:
        try:
            return json.loads(info.read_text())["address"]
        except (OSError, ValueError, KeyError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.fixture
def cluster(tmp_path):
    elsewhere = tmp_path / "worker_dir"
    elsewhere.mkdir()
    info = tmp_path / "scheduler.json"
    procs = [_start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--dashboard-address", ":0",
                     "--scheduler-file", str(info)], elsewhere)]
    try:
        address = _scheduler_address(info, time.monotonic() + 60)
        procs.append(_start(["worker", address, "--nworkers", "1", "--nthreads", "1", "--host", "127.0.0.1",
                             "--no-dashboard"], elsewhere))
        from distributed import Client

        with Client(address, timeout="30s") as client:
            client.wait_for_workers(1, timeout=60)
        yield address, procs, elsewhere
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def test_study_on_a_real_cluster_writes_on_the_client(cluster, tmp_path, monkeypatch, capsys):
    address, procs, elsewhere = cluster
    client_dir = tmp_path / "client"
    (client_dir / "my").mkdir(parents=True)
    (client_dir / "my" / "stop.toml").write_text('[case]\nextends = "sdnd101"\nname = "stop"\n')
    monkeypatch.chdir(client_dir)
    args = ["study", "my/stop.toml", "--grid", "obstacle.gap=1.0,1.001", "--scheduler", address,
            "--out", "out", "--quiet"]
    assert main(args) == 0
    runs = sorted(p for p in (client_dir / "out").iterdir() if p.is_dir())
    assert len(runs) == 2
    for run in runs:
        doc = json.loads((run / "result.json").read_text())
        assert doc["checks"] and all(c["passed"] for c in doc["checks"])
        assert (run / "history.npz").stat().st_size > 1000
    assert (client_dir / "out" / "study.csv").is_file()
    assert not (elsewhere / "out").exists() and not (elsewhere / "results").exists()
    # the cluster loses its only worker: the study fails after the timeout, with one line
    procs[1].terminate()
    procs[1].wait(timeout=20)
    capsys.readouterr()
    start = time.monotonic()
    assert main([*args[:-3], "--out", "out2", "--timeout", "3", "--quiet"]) != 0
    assert time.monotonic() - start < 60
    assert "no worker and no finished run for 3 s" in capsys.readouterr().err
