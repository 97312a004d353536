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


def _scheduler_tasks(address: str) -> tuple[int, int]:
    """(tasks the scheduler knows, tasks processing on a worker)."""
    from distributed import Client

    with Client(address, timeout="30s") as client:
        known = client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
        processing = sum(len(keys) for keys in client.processing().values())
    return known, processing


def test_ctrl_c_cancels_the_futures_and_leaves_nothing_half_written(cluster, tmp_path):
    """SIGINT to a `fem2d study` client while its first run computes on the worker: the client
    exits 130 within seconds with one line, the scheduler forgets every task (the queued runs
    never start) and the output directory holds no result, table or staging file."""
    import signal

    address, _, _ = cluster
    client_dir = tmp_path / "client"
    client_dir.mkdir()
    fem2d = str(Path(sys.executable).parent / "fem2d")
    # three runs of several seconds each on the one worker thread: one runs, two wait
    args = [fem2d, "study", "sdnv104a", "--grid", "time.dt=0.0005,0.00051,0.00052", "--scheduler", address,
            "--out", "out", "--quiet"]
    client = subprocess.Popen(args, cwd=client_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "OMP_NUM_THREADS": "1"})
    try:
        deadline = time.monotonic() + 120
        while _scheduler_tasks(address)[1] == 0:  # the first run is computing on the worker
            assert client.poll() is None, client.communicate()
            assert time.monotonic() < deadline, "no run started on the worker"
            time.sleep(0.3)
        known, _ = _scheduler_tasks(address)
        assert known == 3
        start = time.monotonic()
        client.send_signal(signal.SIGINT)
        out, err = client.communicate(timeout=60)
        elapsed = time.monotonic() - start
    finally:
        if client.poll() is None:
            client.kill()
    assert client.returncode == 130, (out, err)
    assert elapsed < 15.0, elapsed
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines == ["fem2d: study interrupted after 0 of 3 runs; the finished runs kept their result.json, "
                     "the others and the summary table were not written"], err
    deadline = time.monotonic() + 30
    while _scheduler_tasks(address)[0] != 0:  # the client's futures are cancelled: the scheduler drops them
        assert time.monotonic() < deadline, "the scheduler still holds the study's tasks"
        time.sleep(0.3)
    written = [p for p in (client_dir / "out").rglob("*") if p.is_file()] if (client_dir / "out").exists() else []
    assert written == [], written


def test_the_local_cluster_listens_on_loopback_only():
    """``--scheduler local``: the scheduler, its HTTP server and the workers accept
    connections from this machine only (no dashboard on 0.0.0.0:8787)."""
    import ipaddress

    import psutil

    from fem2d.studies.execution import dask_executor

    me = psutil.Process()
    with dask_executor("local", 1) as executor:
        assert executor.submit(abs, -3).result(timeout=60) == 3
        listening = [conn.laddr for p in (me, *me.children(recursive=True))
                     for conn in p.net_connections(kind="inet") if conn.status == psutil.CONN_LISTEN]
    assert len(listening) >= 2  # the scheduler's and the worker's
    assert all(ipaddress.ip_address(addr.ip).is_loopback for addr in listening), listening
