"""Executing runs: one case with overrides per :class:`RunSpec`, on any executor.

:func:`run_all` submits :func:`execute` for every spec to a
:class:`concurrent.futures.Executor`: local processes
(:func:`local_executor`, one single-threaded worker per core), a Dask cluster
(:func:`dask_executor`, ``distributed.Client.get_executor()``), or this process
(:class:`InlineExecutor`). Each run writes its own directory through
:func:`fem2d.runs.result.write_result` (atomic files) and comes back as a small,
picklable :class:`RunRecord`; a run that raises becomes a record with an
``error``. On Ctrl-C, pending runs are cancelled and running ones stopped
before they write anything.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, InvalidStateError, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from fem2d.errors import Fem2dError, InputError

if TYPE_CHECKING:
    from fem2d.case.loading import Case


@dataclass(frozen=True)
class RunSpec:
    """One run of a study: ``case`` (built-in name or TOML path) with
    ``overrides`` (dotted key -> value); ``out_dir`` is where
    its ``result.json`` (and ``history.npz`` unless ``write_history`` is
    False) go (None: nothing written)."""

    case: str
    overrides: dict[str, Any] = field(default_factory=dict)
    label: str = ""
    out_dir: str | None = None
    write_history: bool = True  # False: result.json only (no history.npz)
    #: the history columns its :class:`RunRecord` carries back (None: all of them); a record
    #: is pickled from the worker to the caller, and SDND104's 120001 samples of 10 columns
    #: are 9.6 MB where the validation figures read one
    keep_histories: tuple[str, ...] | None = None


@dataclass
class RunRecord:
    """What came back from one run (small, picklable; no matrices).

    ``histories`` are the run's time series (``slave_*`` per-node arrays
    included), ``extras`` what plots need beyond them (slave node abscissae
    ``slave_x``, tributary areas ``slave_area`` and the SEG3 corners on the axis ``slave_axis``,
    :func:`~fem2d.post.pressure.axis_corners`). ``warnings`` are the run's
    (:attr:`fem2d.runs.result.Result.warnings`: energy created, a body that turns...),
    carried back from the worker that ran it.
    """

    spec: RunSpec
    case: str
    quantities: dict[str, float] = field(default_factory=dict)
    checks: list[dict] = field(default_factory=list)
    timing: dict[str, Any] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    histories: dict[str, np.ndarray] = field(default_factory=dict)
    extras: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    #: the mesh the run used: ``n_nodes`` and its 2D cell kinds ``elements``
    mesh: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    #: the references that did not apply to the run, and why (``{quantity, source, reason}``)
    unchecked: list[dict] = field(default_factory=list)
    #: each quantity's time error estimate, of a run extrapolated in time (``Result.time_errors``)
    time_errors: dict[str, float] = field(default_factory=dict)
    #: each quantity read from the dt and the dt/2 run of a run extrapolated in time (``Result.step_values``)
    step_values: dict[str, tuple[float, float]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.spec.label or self.case

    @property
    def passed(self) -> bool:
        """No error and every check passed."""
        return self.error is None and all(c["passed"] for c in self.checks)

    @property
    def energy_grew(self) -> bool:
        """True when the run created energy beyond its tolerance (its numbers are not to be
        trusted: as ``fem2d run``, a study command exits 1)."""
        from fem2d.post.energy import ENERGY_GREW

        return any(w.startswith(ENERGY_GREW) for w in self.warnings)

    @property
    def status(self) -> str:
        """``FAILED`` (the run raised), ``NOOK``, ``OK``, or ``-`` (no reference applies)."""
        if self.error is not None:
            return "FAILED"
        if not self.checks:
            return "-"
        return "OK" if self.passed else "NOOK"

    @property
    def run_case(self) -> Case:
        """The run's case with its resolved settings (as result.json records them), to ask
        it what it is (:class:`fem2d.case.loading.Case`: title, kind, reported dof...)."""
        from fem2d.case.loading import Case

        # a case file's path locates its relative mesh.file (the exact curve rebuilds the system)
        path = Path(self.spec.case) if self.spec.case.endswith(".toml") else None
        return Case(self.case, self.settings, path, overrides=dict(self.spec.overrides))


def _interface(result) -> dict[str, Any]:
    """Slave-node abscissae (m) and tributary areas (m^2) of the first contact zone."""
    system = result.fields.system
    if not system.zones:
        return {}
    from fem2d.io.vtu import slave_areas
    from fem2d.post.pressure import axis_corners

    zone = system.zones[0]
    return {
        "slave_x": system.mesh.points[zone.slave_nodes, 0].copy(),
        "slave_area": slave_areas(result.fields.model, system),
        "slave_axis": axis_corners(zone),
    }


def penalty_coefficients(result) -> str | None:
    """The normal penalty coefficient each penalty zone of the run used (N/m), as the run froze
    it in its contact state at the first step: ``"2.1e+08 given"``, or for a default (shared out
    over the slave nodes by their weights, :mod:`fem2d.contact.penalty`) the mean over the nodes,
    ``"2.52e+13 default (mean)"``; with mortar the pressure per metre of penetration it acts as,
    ``"3.4e+16 Pa/m default (mean)"``; zones joined by ``"; "``. None without a penalty zone."""
    final = getattr(result.fields, "final_state", None)
    contacts = result.fields.model.contacts
    states = getattr(final, "contact", None)
    states = () if states is None else (states,) if len(contacts) == 1 else tuple(states)  # one zone: its own state
    said = []
    for contact, state in zip(contacts, states):
        e_n = getattr(state, "e_n", None)
        if e_n is None:
            continue
        given = getattr(contact.formulation(), "e_n", None) is not None
        # mortar: the pressure per metre of penetration the coefficient acts as
        unit = " Pa/m" if getattr(contact.formulation(), "discretization", "") == "mortar" else ""
        said.append(f"{float(np.mean(e_n)):.3g}{unit} {'given' if given else 'default (mean)'}")
    return "; ".join(said) or None


def record_of(result, spec: RunSpec) -> RunRecord:
    """A :class:`RunRecord` from a :class:`fem2d.runs.result.Result` (of a model composed
    in Python too: named :data:`~fem2d.io.run_outputs.COMPOSED`, no settings)."""
    from fem2d.io.run_outputs import COMPOSED

    extras = _interface(result)
    if (e_n := penalty_coefficients(result)) is not None:
        extras["e_n"] = e_n
    pressure = getattr(result.fields, "pressure", None)
    if pressure:  # the pressure.csv table, for the pressure figure
        extras["pressure"] = pressure
    return RunRecord(
        spec=spec,
        case=result.case.name if result.case is not None else COMPOSED,
        quantities=dict(result.quantities),
        checks=list(result.checks),
        timing=dict(result.timing),
        settings=result.case.document()["settings"] if result.case is not None else {},
        histories={k: v for k, v in result.histories.items()
                   if spec.keep_histories is None or k in spec.keep_histories},
        extras=extras,
        mesh=result.mesh_record(),
        warnings=list(result.warnings),
        unchecked=list(result.unchecked),
        time_errors=dict(result.time_errors),
        step_values=dict(result.step_values),
    )


def _message(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return text if isinstance(exc, Fem2dError) else f"{type(exc).__name__}: {text}"


class _Terminated(BaseException):
    """SIGTERM in a worker while it runs a case (see :func:`_worker_init`)."""


def _exit_on_sigterm(signum, frame) -> None:
    os._exit(128 + signum)  # an idle worker: nothing to clean up


def _raise_on_sigterm(signum, frame) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second one (parent death is signalled twice) must not
    raise _Terminated  # unwinds through the atomic writers, which remove their temporary files


def _terminate_later(unraisable) -> None:
    """A SIGTERM whose :class:`_Terminated` was raised inside a finaliser (a
    factorisation's ``__del__`` during garbage collection) cannot unwind the run from
    there: Python would print it as ignored and the run would go on. It is raised again
    a millisecond later, by an alarm, in the run's own code (a signal sent now would be
    handled inside this hook); any other unraisable exception goes to Python's hook."""
    if isinstance(unraisable.exc_value, _Terminated):
        signal.signal(signal.SIGALRM, _raise_on_sigterm)
        signal.setitimer(signal.ITIMER_REAL, 1e-3)
        return
    sys.__unraisablehook__(unraisable)


#: one thread per worker process: the processes already fill the cores, and idle OpenMP threads
#: spinning after a PARDISO solve in one worker were slowing the others several times over
_SINGLE_THREAD = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS")


def _worker_init() -> None:
    """Worker processes ignore Ctrl-C (the parent decides; see :func:`run_all`),
    end a run cleanly on SIGTERM, die with their parent, and run their libraries on
    one thread."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    sys.unraisablehook = _terminate_later
    _die_with_parent(os.getppid())
    for name in _SINGLE_THREAD:
        os.environ.setdefault(name, "1")


_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """SIGTERM this process when ``parent`` dies, even by SIGKILL: the kernel's
    parent-death signal on Linux, and everywhere a watchdog thread that notices the
    process was re-parented. SIGTERM ends a running case before it writes (the
    staged outputs are discarded)."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)

    if os.getppid() != parent:  # the parent died before the signal was armed
        os.kill(os.getpid(), signal.SIGTERM)
    threading.Thread(target=watch, name="fem2d-parent-watch", daemon=True).start()


def execute(spec: RunSpec) -> RunRecord:
    """Run one spec (in whatever process the executor chose) and write its
    directory. Errors become a record; Ctrl-C and termination are not caught,
    so an interrupted run writes nothing (the writes are atomic)."""
    # a worker (see _worker_init) exits at once on SIGTERM when idle, and unwinds while it runs
    # a case; the process's handler says which, so no flag outside it is needed
    worker = threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) in (
        _exit_on_sigterm,
        _raise_on_sigterm,
    )
    if worker:
        signal.signal(signal.SIGTERM, _raise_on_sigterm)
    try:
        return _execute(spec)
    except _Terminated:
        os._exit(128 + signal.SIGTERM)
    finally:
        if worker:
            signal.signal(signal.SIGTERM, _exit_on_sigterm)


def _execute(spec: RunSpec) -> RunRecord:
    from fem2d.runs.result import run, write_result

    out = Path(spec.out_dir) if spec.out_dir else None
    start = time.perf_counter()
    try:
        result = run(spec.case, spec.overrides)
        if out is not None:
            write_result(result if spec.write_history else dataclasses.replace(result, histories={}), out)
        return record_of(result, spec)
    except Exception as exc:  # a failed run is a row of the table; its directory keeps what it held (as fem2d run)
        name = Path(spec.case).stem if spec.case.endswith(".toml") else spec.case
        return RunRecord(spec, name, timing={"wall_s": time.perf_counter() - start}, error=_message(exc))


class InlineExecutor(Executor):
    """Runs each task at submission, in this process (one worker)."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:
            future.set_exception(exc)
        return future


def _warm_imports() -> None:
    # forked workers inherit the parent's modules: import the heavy ones once, here
    import fem2d.runs.direct  # noqa: F401
    import fem2d.runs.result  # noqa: F401

    with contextlib.suppress(ImportError):
        import fem2d.runs.modal  # noqa: F401


def local_executor(workers: int | None = None) -> Executor:
    """Local processes (``workers`` of them, default the number of cores), or
    in-process when ``workers == 1``."""
    workers = workers or os.cpu_count() or 1
    _warm_imports()  # also keeps import time out of the first in-process run's wall time
    if workers == 1:
        return InlineExecutor()
    return ProcessPoolExecutor(max_workers=workers, initializer=_worker_init)


@contextlib.contextmanager
def dask_executor(address: str, workers: int | None = None) -> Iterator[Executor]:
    """An executor on a Dask distributed cluster (``distributed``, the
    ``fem2d[dask]`` extra): ``address`` is a scheduler address
    (``tcp://host:8786``), or ``local`` for a LocalCluster of ``workers``
    processes on this machine, reachable from it only: the scheduler and the workers
    listen on 127.0.0.1 and no dashboard is served (Dask's serves the workers, their
    logs and call stacks to anyone who can reach the port, unauthenticated); the
    scheduler's few remaining status pages are on 127.0.0.1 too."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError(
            "a Dask cluster needs dask's distributed package: pip install 'fem2d[dask]' (or pip install distributed)"
        ) from None
    cluster = None
    try:
        if address == "local":
            cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, host="127.0.0.1",
                                   dashboard_address=None, worker_dashboard_address=None)
            client = Client(cluster)
        else:
            client = Client(address, timeout="10s")
    except (OSError, ValueError, TypeError) as exc:  # refused, timed out, or not an address at all
        raise InputError(f"Dask scheduler {address}: cannot connect ({exc}); expected "
                         "tcp://host:port or 'local'") from None
    try:
        yield client.get_executor()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_all(
    specs: Sequence[RunSpec],
    executor: Executor | None = None,
    on_done: Callable[[int, RunRecord], None] | None = None,
) -> list[RunRecord]:
    """Execute ``specs`` on ``executor`` (default: local processes) and return
    their records in the order of ``specs``.

    ``on_done(n_done, record)`` is called as runs finish. On Ctrl-C the runs
    not yet started are cancelled, the local worker processes of a
    :class:`~concurrent.futures.ProcessPoolExecutor` are terminated (their
    running cases stop without writing anything) and KeyboardInterrupt
    propagates; the runs that had finished keep their directories.
    """
    own = executor is None
    pool = local_executor(min(len(specs), os.cpu_count() or 1)) if own else executor
    records: list[RunRecord | None] = [None] * len(specs)
    futures: dict[Future, int] = {}
    try:
        for i, spec in enumerate(specs):
            futures[pool.submit(execute, spec)] = i
        for n, future in enumerate(as_completed(futures), start=1):
            i = futures[future]
            try:
                records[i] = future.result()
            except Exception as exc:  # the worker itself died (crash, pickling)
                records[i] = RunRecord(specs[i], specs[i].case, error=_message(exc))
            if on_done is not None:
                on_done(n, records[i])
    except BaseException:
        for future in futures:
            future.cancel()
        _stop(pool)
        raise
    if own:
        pool.shutdown()
    return [r for r in records if r is not None]


def _quiet_pool_manager() -> None:
    """The pool's manager thread, finding its workers terminated, marks the futures we
    cancelled as broken and (Python 3.11) dies of InvalidStateError, or of a pipe a
    killed worker closed, with a traceback on stderr; once we stop a pool that thread's
    end is expected, so its traceback is not printed."""
    previous = threading.excepthook
    if getattr(previous, "fem2d_quiet", False):
        return

    def hook(args) -> None:
        if type(args.thread).__name__ == "_ExecutorManagerThread" and isinstance(
            args.exc_value, InvalidStateError | OSError | EOFError | ValueError
        ):
            return
        previous(args)

    hook.fem2d_quiet = True  # type: ignore[attr-defined]
    threading.excepthook = hook


def _stop(pool: Executor, grace: float = 2.0) -> None:
    """Stop an executor's running work now (after Ctrl-C), in at most about ``grace``
    seconds for local processes."""
    if isinstance(pool, ProcessPoolExecutor):
        _quiet_pool_manager()
        # the workers ignore SIGINT; SIGTERM ends their runs through the staged writers' cleanup
        processes = list((getattr(pool, "_processes", None) or {}).values())
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        deadline = time.monotonic() + grace
        for process in processes:
            with contextlib.suppress(Exception):
                process.join(max(0.0, deadline - time.monotonic()))
                if process.is_alive():
                    process.kill()  # stuck outside Python (a solver call): no file of it is in place yet
                    process.join(0.5)
        # never wait on the pool's manager thread: it can sit in recv() on a pipe a killed worker held
        pool.shutdown(wait=False, cancel_futures=True)
    else:
        with contextlib.suppress(Exception):
            pool.shutdown(wait=False, cancel_futures=True)
