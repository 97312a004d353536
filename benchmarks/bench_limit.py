"""fem2d against its own limit, in one run: step and setup by mesh level, peak memory, small-run breakdown.

For SDNV104 A (QUAD4, Lagrange) at levels 3-6 (``--levels``):

- **limit**, measured here in this process on the level's K_eff: the fastest
  installed backend's single factorisation and single forward/back solve, and
  the factorisation with the contact boundary's Schur complement (where a
  backend has one). Step limit = fastest solve + fem2d's own contact time per
  step (the contact problem is the same work whatever the linear algebra);
  setup limit = factorisation with Schur complement (or, without one, fastest
  factorisation). The solve is also measured **cold** (``cold ms``, ``step/cold``):
  the median of solves that each follow 1 ms of a busy wait (:func:`after_pause`),
  as a step's solve follows its other work. The best-of-3 limit runs its solves back
  to back with the factors in cache, which no time step can: on this shared machine
  1 ms away from them is enough to double a level-4 solve.
- **fem2d**: one fresh ``fem2d run`` with the default solver: its mean step
  (the march, ``timing.march_s``, less factorisation and condensation, over the
  steps), its setup (factorisation + condensation), the one-time work around the
  march (``integration_s - march_s``: the contact coupling, the initial state, the
  stick/slip locator's bodies and its first import of ``scipy.sparse.csgraph``,
  shown in its own column: at level 5's 30 steps it was a quarter of a mean step
  taken over the whole integration), the process's peak RSS; the ratios to the limit.

Then one end-to-end run (level 6, the case's 350 steps, ``--full``; or
``--e2e-level``), and the per-process breakdown of a small run
(``fem2d run sdnd104``, see ``bench_small.py``): the floor of the imports a modal run
cannot avoid, the process with its imports by package and its run, and the twelve SDND104
runs one process each.

Usage::

    python benchmarks/bench_limit.py                # levels 3-6, small-run breakdown
    python benchmarks/bench_limit.py --full         # + level 6 end to end (350 steps)
    python benchmarks/bench_limit.py --levels 3,4   # quicker
    python benchmarks/bench_limit.py --levels '' --e2e-level 7 --no-small   # level 7 end to end alone

The machine may be shared: every ratio is taken within one run of this script.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the CLI: the dense contact solves are small

import numpy as np  # noqa: E402

#: time.end per level: enough steps that the first step's one-time work is a small part and a noisy stretch
#: of the machine is averaged (50 to 100 steps; level 6 had 15, and one run's row gave 96 ms a step where
#: the same run's 351 steps end to end gave 77 ms), and no stick/slip event (the first comes after t = 1.5 s)
END = {3: 1.0, 4: 1.0, 5: 0.6, 6: 0.5, 7: 0.05}


def fem2d_run(case: str, overrides: list[str]) -> dict:
    """One fresh ``fem2d run``: its result.json, the process's wall time and peak RSS (MB)."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "fem2d.cli", "run", case, "--quiet", "--out", out]
        for item in overrides:
            cmd += ["--set", item]
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - t0
        code = os.waitstatus_to_exitcode(status)
        stderr = proc.stderr.read().decode() if proc.stderr else ""
        if code not in (0, 1):  # 1: a check failed (a shortened run), still timed
            raise RuntimeError(f"fem2d run {case} {' '.join(overrides)} failed:\n{stderr}")
        doc = json.loads((Path(out) / "result.json").read_text())
    return {**doc, "process_s": elapsed, "peak_mb": usage.ru_maxrss / 1024}


def k_eff_and_boundary(level: int):
    """K_eff of SDNV104 A at ``level`` and the free rows of its contact boundary."""
    from fem2d.case.build import build_system, scheme_of
    from fem2d.case.loading import load_case

    case = load_case("sdnv104a", [f"mesh.refine={level}"])
    system = build_system(case)
    dt = case.settings["time"]["dt"]
    k_eff = (system.K_free + system.M_free * (scheme_of(case).mass_factor / dt**2)).tocsr()
    zone = system.zones[0]
    index = system.free_index[(2 * zone.boundary_nodes[:, None] + np.arange(2)).ravel()]
    return k_eff, index[index >= 0]


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def sweeps_after_products(sweeps, k_eff, rhs: np.ndarray, repeat: int = 15) -> float:
    """The sweeps' time (median of ``repeat``) when each follows three products with K_eff,
    the memory traffic of a step's other work (the scheme's right-hand side, K du, the
    history's M v): a step never runs its sweeps back to back with the factor in cache,
    as the limit's best-of-3 does."""
    times = []
    for _ in range(repeat):
        for _ in range(3):
            k_eff @ rhs
        t0 = time.perf_counter()
        sweeps()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


#: the busy wait before each "cold" solve: about what a step's other work takes at levels 4-5
PAUSE_S = 1e-3


def busy_wait(seconds: float = PAUSE_S) -> None:
    """Keep the CPU busy for ``seconds`` without touching a solver's data."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        pass


def after_pause(fn, pause: float = PAUSE_S, repeat: int = 15) -> float:
    """``fn``'s time (median of ``repeat``) when each call follows ``pause`` seconds of a busy
    wait that touches none of its data: what a solve costs inside a time step, whose other work
    (the contact problem, the products, the history) keeps the solver away from its factors
    for about that long. On this shared machine the factors are then no longer all in cache:
    at level 4 such a wait slows a solve of 1 ms back to back by a third to a half."""
    times = []
    for _ in range(repeat):
        busy_wait(pause)
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def split_sweeps(factor, rhs: np.ndarray, pause: float = PAUSE_S, repeat: int = 15) -> float:
    """The forward and backward sweeps of a Schur factorisation as a step runs them: a busy
    wait of ``pause`` before the forward sweep and another between the two (where a step
    solves its contact problem); their time (median of ``repeat``), the waits left out."""
    times = []
    for _ in range(repeat):
        busy_wait(pause)
        t0 = time.perf_counter()
        work = factor.forward(rhs)
        t1 = time.perf_counter()
        busy_wait(pause)
        t2 = time.perf_counter()
        factor.backward(work)
        times.append(t1 - t0 + time.perf_counter() - t2)
    return float(np.median(times))


def limit(level: int) -> dict:
    """Fastest factorisation and solve of K_eff over the installed backends; Schur factorisation."""
    from fem2d.linalg import get_solver, solver_names

    k_eff, rows = k_eff_and_boundary(level)
    rhs = np.random.default_rng(0).standard_normal(k_eff.shape[0])
    out = {"level": level, "free_dofs": k_eff.shape[0], "boundary_dofs": len(rows), "backends": {}}
    for name in solver_names(installed_only=True):
        backend = get_solver(name)
        if not backend.symmetric and name != "superlu":  # the LU backends: never the fastest here
            continue
        backend.factorize(k_eff[:50, :50] + 0)  # load the library before timing
        t0 = time.perf_counter()
        factor = backend.factorize(k_eff)
        row = {"factor_s": time.perf_counter() - t0, "solve_s": best_of(lambda f=factor: f.solve(rhs), 3),
               "solve_cold_s": after_pause(lambda f=factor: f.solve(rhs))}
        del factor
        if backend.schur:
            t0 = time.perf_counter()
            factor = backend.factorize(k_eff, rows)
            row["factor_schur_s"] = time.perf_counter() - t0
            y = factor.forward(rhs)

            def sweeps(f=factor, y=y):
                work = f.forward(rhs)
                work[f.boundary] = y[f.boundary]
                f.backward(work)

            row["sweeps_s"] = best_of(sweeps, 3)
            row["sweeps_in_step_s"] = sweeps_after_products(sweeps, k_eff, rhs)
            row["sweeps_cold_s"] = after_pause(sweeps)
            row["sweeps_split_s"] = split_sweeps(factor, rhs)
            del factor
        out["backends"][name] = row
    rows_ = out["backends"].values()
    out["factor_s"] = min(r["factor_s"] for r in rows_)
    out["solve_s"] = min(r["solve_s"] for r in rows_)
    out["solve_cold_s"] = min(r["solve_cold_s"] for r in rows_)
    out["setup_s"] = min([r["factor_schur_s"] for r in rows_ if "factor_schur_s" in r] or [out["factor_s"]])
    return out


def limit_in_child(level: int) -> dict:
    """:func:`limit` in a fresh process: this one stays small, because a child's peak RSS
    (``ru_maxrss``) starts from its parent's (Linux keeps the high-water mark across exec)."""
    cmd = [sys.executable, __file__, "--limit-of", str(level)]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def fem2d_level(level: int, end: float | None = None) -> dict:
    # one integration: sdnv104a extrapolates in time by default (runs at dt and dt/2), which
    # would time two runs' steps and setups against one factorisation and one solve
    overrides = [f"mesh.refine={level}", "time.extrapolate=false"] + ([f"time.end={end}"] if end is not None else [])
    doc = fem2d_run("sdnv104a", overrides)
    t = doc["timing"]
    steps = max(t["steps"], 1)
    setup = t["factorization_s"] + t["condensation_s"]
    march = t.get("march_s", t["integration_s"])  # (a result.json from before march_s: the whole integration)
    return {
        "level": level,
        "solver": doc.get("settings", {}).get("solver", {}).get("linear", "default"),
        "steps": t["steps"],
        "step_s": (march - setup) / steps,
        "one_time_s": t["integration_s"] - march,
        "contact_s": t["contact_s"] / steps,
        "setup_s": setup,
        "wall_s": t["wall_s"],
        "process_s": doc["process_s"],
        "peak_mb": doc["peak_mb"],
        "factorizations": t["factorizations"],
        # of the setup: the stick/slip locator's trial steps, each of its own size, and the steps
        # back to dt after an event refactorise K_eff on the kept analysis
        "refactorizations": t.get("refactorizations", 0),
        "refactorization_s": t.get("refactorization_s", 0.0),
        "model_s": t["model_s"],
    }


def small_run_breakdown(case: str = "sdnd104") -> dict:
    """Where a small run's process time goes (:mod:`bench_small`): the floor of the imports a
    modal run cannot avoid, ``fem2d run sdnd104`` (best of 2 after a warm-up, peak RSS) with its imports by
    package and its phases, and the twelve SDND104 runs one process each."""
    from bench_small import floor, import_breakdown, phases, twelve_runs

    runs = [fem2d_run(case, []) for _ in range(3)]  # the first also warms the caches
    best = min(runs[1:], key=lambda d: d["process_s"])
    return {
        "case": case,
        "process_s": best["process_s"],
        "peak_mb": best["peak_mb"],
        "floor": floor(),
        "breakdown": import_breakdown(case),
        "phases": phases(case),
        "twelve": twelve_runs(),
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="3,4,5,6", help="comma-separated mesh levels (default 3,4,5,6)")
    parser.add_argument("--full", action="store_true", help="add level 6 end to end (the case's 350 steps)")
    parser.add_argument("--e2e-level", type=int, default=None, help="end-to-end run at this level instead of 6")
    parser.add_argument("--no-small", action="store_true", help="without the small-run breakdown")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    parser.add_argument("--limit-of", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.limit_of is not None:
        print(json.dumps(limit(args.limit_of)))
        return {}
    levels = [int(x) for x in args.levels.split(",") if x.strip()]
    report: dict = {"levels": [], "cpus": os.cpu_count(), "load": os.getloadavg()[0]}
    say = (lambda *a, **k: None) if args.json else print
    say(f"{os.cpu_count()} cpus, load {report['load']:.2f}; "
        f"MKL_NUM_THREADS={os.environ.get('MKL_NUM_THREADS', '-')}; ratios within this run\n")
    head = (f"{'level':>5s} {'free dofs':>9s} {'bdofs':>5s} {'solve ms':>8s} {'cold ms':>7s} {'factor s':>8s} "
            f"{'f+schur s':>9s} | {'step ms':>8s} {'contact':>7s} {'step/lim':>8s} {'step/cold':>9s} {'setup s':>7s} "
            f"{'setup/lim':>9s} {'once s':>6s} {'peak MB':>7s}")
    say(head)
    say("-" * len(head))
    for level in levels:
        lim = limit_in_child(level)
        run = fem2d_level(level, END.get(level))
        step_limit = lim["solve_s"] + run["contact_s"]
        row = {**run, "limit": lim, "step_ratio": run["step_s"] / step_limit,
               "step_cold_ratio": run["step_s"] / (lim["solve_cold_s"] + run["contact_s"])}
        row["setup_ratio"] = run["setup_s"] / lim["setup_s"]
        report["levels"].append(row)
        say(f"{level:5d} {lim['free_dofs']:9d} {lim['boundary_dofs']:5d} {1e3 * lim['solve_s']:8.2f} "
            f"{1e3 * lim['solve_cold_s']:7.2f} {lim['factor_s']:8.3f} {lim['setup_s']:9.3f} | "
            f"{1e3 * run['step_s']:8.2f} {1e3 * run['contact_s']:7.3f} {row['step_ratio']:8.2f} "
            f"{row['step_cold_ratio']:9.2f} {run['setup_s']:7.3f} {row['setup_ratio']:9.2f} "
            f"{run['one_time_s']:6.3f} {run['peak_mb']:7.0f}", flush=True)
    for level in levels:
        backends = report["levels"][levels.index(level)]["limit"]["backends"]
        say(f"  level {level}: " + "; ".join(
            f"{n} factor {b['factor_s']:.3f} s solve {1e3 * b['solve_s']:.2f} ms ({1e3 * b['solve_cold_s']:.2f} cold)"
            + (f" (with Schur {b['factor_schur_s']:.3f} s, sweeps {1e3 * b['sweeps_s']:.2f} ms back to back, "
               f"{1e3 * b['sweeps_in_step_s']:.2f} ms after three K_eff products, "
               f"{1e3 * b['sweeps_cold_s']:.2f} ms cold, {1e3 * b['sweeps_split_s']:.2f} ms with a wait between them)"
               if "sweeps_s" in b else "")
            for n, b in backends.items()))
    e2e = args.e2e_level if args.e2e_level is not None else (6 if args.full else None)
    if e2e is not None:
        run = fem2d_level(e2e)
        report["end_to_end"] = run
        say(f"\nlevel {e2e} end to end ({run['steps']} steps): process {run['process_s']:.1f} s, "
            f"setup {run['setup_s']:.2f} s, step {1e3 * run['step_s']:.1f} ms, peak RSS {run['peak_mb']:.0f} MB")
        say(f"  setup = first factorisation and condensation {run['setup_s'] - run['refactorization_s']:.2f} s "
            f"+ {run['refactorizations']} refactorisations {run['refactorization_s']:.2f} s (stick/slip trial "
            f"steps and the steps back to dt); assembly {run['model_s']:.2f} s; one-time work around the march "
            f"{run['one_time_s']:.2f} s; the rest of the process {run['process_s'] - run['wall_s']:.2f} s (imports, "
            "outputs, exit)")
    if args.no_small:
        if args.json:
            print(json.dumps(report, indent=2))
        return report
    small = small_run_breakdown()
    report["small_run"] = small
    b, f = small["breakdown"], small["floor"]
    say(f"\n`fem2d run {small['case']}` (best of 2, warm): process {small['process_s']:.3f} s, peak RSS "
        f"{small['peak_mb']:.0f} MB; floor: " + ", ".join(f"{k} {v:.3f} s" for k, v in f.items()))
    say(f"  one under -X importtime: {b['process_s']:.3f} s, run {b['run_wall_s']:.3f} s, imports "
        + ", ".join(f"{k} {v:.3f}" for k, v in b["imports_s"].items()))
    say("  phases (best of 3 each): " + ", ".join(f"{k} {v:.3f}" for k, v in small["phases"].items()) + " s")
    say(f"  the twelve SDND104 runs, one process each: {small['twelve']['total_s']:.2f} s")
    if args.json:
        print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
