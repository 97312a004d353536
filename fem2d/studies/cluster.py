"""Runs on a Dask cluster whose workers share nothing with the client.

Case files travel by content: the client packs each case file, the files it
``extends`` and its ``mesh.file``; a worker unpacks them in a temporary
directory, runs the case there, and sends the results back. The client writes
every run's ``result.json`` and ``history.npz`` where the user asked (``--out``
is relative to the client's directory, never a worker's). A cluster that stops
making progress (no worker, scheduler gone) fails after ``timeout`` seconds
with one line. Ctrl-C cancels the futures: the scheduler drops every run and
those not started never start (a run already computing on a worker finishes
there and is discarded: Dask cannot stop a thread); the client writes nothing
more (tests/test_dask_cluster.py). ``--scheduler local`` takes the same path on a
LocalCluster of this machine (:func:`local_cluster`).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
import tomllib
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from fem2d.errors import Fem2dError, Fem2dWarning, InputError
from fem2d.studies.execution import RunRecord, RunSpec, _message, record_of

#: seconds without any finished run and without a live worker before a study fails
DEFAULT_TIMEOUT = 120.0


@dataclass(frozen=True)
class CaseFiles:
    """A case file and everything it reads, by content: ``files`` maps paths
    relative to a common root to bytes; ``entry`` is the case file's."""

    entry: str
    files: dict[str, bytes]

    def unpack(self, directory: str | os.PathLike) -> Path:
        """Write the files under ``directory``; returns the case file's path."""
        root = Path(directory)
        for rel, data in self.files.items():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        return root / self.entry


def _toml_chain(path: Path, seen: list[Path]) -> None:
    """``path`` and the local files it extends, recursively."""
    from fem2d.case.loading import case_path

    path = path.resolve()
    if path in seen:
        return
    seen.append(path)
    try:
        parent = tomllib.loads(path.read_text(encoding="utf-8")).get("case", {}).get("extends")
    except (OSError, tomllib.TOMLDecodeError):
        return  # load_case reports it, on the worker as here
    if isinstance(parent, str):
        local = path.parent / parent
        _toml_chain(local if local.suffix == ".toml" and local.is_file() else case_path(parent), seen)


def pack_case(case: str | os.PathLike) -> CaseFiles:
    """The files a case needs: the TOML chain and the mesh file (relative to the case file)."""
    from fem2d.case.loading import case_path, load_case

    entry = case_path(case).resolve()
    chain: list[Path] = []
    _toml_chain(entry, chain)
    paths = list(chain)
    mesh = load_case(entry).mesh_file
    if mesh is not None:
        if not mesh.is_file():
            raise InputError(f"{entry}: {mesh}: mesh file not found")  # as reading the case's mesh says
        paths.append(mesh.resolve())
    root = Path(os.path.commonpath([p.parent for p in paths]))
    return CaseFiles(str(entry.relative_to(root)), {str(p.relative_to(root)): p.read_bytes() for p in paths})


def run_packed(spec: RunSpec, files: CaseFiles) -> tuple[RunRecord, dict | None]:
    """On a worker: unpack, run, return the record (histories included) and the
    ``result.json`` document; nothing is written on the worker."""
    from fem2d.runs.result import run

    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="fem2d-") as tmp, warnings.catch_warnings():
        # the run's warnings travel in its result.json, not to the worker's stderr
        warnings.simplefilter("ignore", Fem2dWarning)
        try:
            result = run(files.unpack(tmp), spec.overrides)
            return record_of(result, spec), result.to_json()
        except Exception as exc:  # a failed run is a row of the table
            name = Path(files.entry).stem
            return RunRecord(spec, name, timing={"wall_s": time.perf_counter() - start}, error=_message(exc)), None


def write_run(record: RunRecord, document: dict | None, spec: RunSpec) -> None:
    """On the client: the run's files under ``spec.out_dir``, replaced together as
    ``fem2d run`` replaces them; a failed run leaves the directory as it was."""
    from fem2d.io.files import write_json
    from fem2d.io.outdir import replaced_together

    if spec.out_dir is None or document is None:  # a failed run: its directory keeps what it held
        return
    with replaced_together(spec.out_dir) as stage:
        if record.histories and spec.write_history:  # as fem2d run writes it (runs.result.write_history_npz)
            from fem2d.io.columns import labelled

            with open(stage / "history.npz", "wb") as f:
                np.savez(f, **labelled(record.histories))
        write_json(stage / "result.json", document)


def run_on_cluster(
    specs: Sequence[RunSpec],
    client,
    on_done: Callable[[int, RunRecord], None] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> list[RunRecord]:
    """Run ``specs`` on a ``distributed.Client``; records in the order of ``specs``."""
    from distributed import wait

    packs: dict[str, CaseFiles] = {}
    for spec in specs:
        if spec.case not in packs:
            packs[spec.case] = pack_case(spec.case)
    futures = {client.submit(run_packed, replace(spec, out_dir=None), packs[spec.case], pure=False): i
               for i, spec in enumerate(specs)}
    records: list[RunRecord | None] = [None] * len(specs)
    pending = set(futures)
    last_progress = time.monotonic()
    n_done = 0
    try:
        while pending:
            try:
                finished = wait(list(pending), timeout=min(timeout, 2.0), return_when="FIRST_COMPLETED")
                done, pending = set(finished.done), set(finished.not_done)
            except TimeoutError:
                done = set()
            for future in done:
                i = futures[future]
                try:
                    record, document = future.result()
                except Exception as exc:  # the task itself was lost (worker died repeatedly)
                    record, document = RunRecord(specs[i], specs[i].case, error=_message(exc)), None
                write_run(record, document, specs[i])
                records[i] = replace(record, spec=specs[i])
                n_done += 1
                if on_done is not None:
                    on_done(n_done, records[i])
            if done:
                last_progress = time.monotonic()
            elif time.monotonic() - last_progress > timeout and not _has_workers(client):
                raise Fem2dError(
                    f"Dask cluster {client.scheduler.address}: no worker and no finished run for {timeout:g} s; "
                    f"{len(pending)} of {len(specs)} runs unfinished"
                )
    except BaseException:
        with contextlib.suppress(Exception):
            client.cancel(list(futures))
        raise
    return [r for r in records if r is not None]


@contextlib.contextmanager
def local_cluster(workers: int | None = None) -> Iterator:
    """A client on a LocalCluster of ``workers`` processes on this machine
    (:func:`~fem2d.studies.execution.dask_executor`'s), for :func:`run_on_cluster`:
    the client writes every run's files, so after a Ctrl-C nothing more is written.

    The workers are started with Ctrl-C ignored (it reaches the terminal's whole
    process group; the client decides, as with local processes): a Ctrl-C in the
    second or two the cluster takes to start is not seen. The workers print no log
    lines (a failed run reaches the client as its record); the client's Dask log
    prints errors only, and nothing once the study was interrupted (the cancelled
    tasks, the workers stopped at close).
    """
    import logging
    import signal

    from fem2d.studies.execution import dask_executor

    # the workers' own loggers (read as they start): a run's failure reaches the client as its
    # record, so a worker's log lines are noise; its heartbeat to a scheduler closing after a
    # Ctrl-C logs at ERROR level
    quiet = {"DASK_LOGGING__DISTRIBUTED": "critical"}
    saved = {name: os.environ.get(name) for name in quiet}
    os.environ.update(quiet)
    # ignored while the workers are spawned: they inherit it (a Python handler would not pass on)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        context = dask_executor("local", workers)
        context.__enter__()
    finally:
        signal.signal(signal.SIGINT, previous)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    from distributed import default_client

    logger = logging.getLogger("distributed")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield default_client()
    except BaseException:
        logger.setLevel(logging.CRITICAL + 1)  # the close of a cluster whose tasks were cancelled
        with contextlib.suppress(Exception):
            context.__exit__(None, None, None)
        raise
    else:
        context.__exit__(None, None, None)
    finally:
        logger.setLevel(level)


def _has_workers(client) -> bool:
    """Whether the scheduler answers and has a worker."""
    if client.status != "running":
        return False
    try:
        return bool(client.nthreads())
    except Exception:  # the scheduler itself is gone
        return False


def connect(address: str, timeout: float = 10.0):
    """A ``distributed.Client`` on a running scheduler; one-line errors."""
    try:
        from distributed import Client
    except ImportError:
        raise InputError(
            "--scheduler needs dask's distributed package: pip install 'fem2d[dask]' (or pip install distributed)"
        ) from None
    try:
        return Client(address, timeout=f"{timeout:g}s")
    except (OSError, TimeoutError, ValueError, TypeError) as exc:  # refused, timed out, or not an address
        raise InputError(f"--scheduler {address}: cannot connect to a Dask scheduler ({exc})") from None
