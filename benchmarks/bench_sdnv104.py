"""Benchmark of the direct path on SDNV104: factorisation, condensation and steps by mesh level and solver.

Every measurement is one fresh ``fem2d run`` (python -m fem2d.cli), so it
includes the imports and the meshing, as ``timing.wall_s`` does:

1. QUAD4 (case sdnv104a, Lagrange) at refine 0, 2, 4, 6 and QUAD8 (sdnv104d)
   at refine 0, 2, 4, with every installed registered direct solver: free
   dofs, slave nodes, the time of the one factorisation of K_eff, of the
   boundary condensation (one back-substitution per free boundary dof), the
   mean time per step (the run's integration time less the factorisation
   and the condensation, which the first step does, over its steps), the
   contact time per step, contact (Newton) iterations per step, and
   factorisations against distinct step sizes (equal: K_eff is factorised
   once per dt and never inside the Newton loop), peak memory. Levels 0-2
   run the case's 350 steps; finer levels fewer (``time.end``).
2. The five cases at level 0 with their default settings: ``timing.wall_s``
   of each and the sum.

Usage::

    python benchmarks/bench_sdnv104.py                  # full table (refine 6 takes ~0.5 min per solver)
    python benchmarks/bench_sdnv104.py --quick          # QUAD4 0, 2, 4 and QUAD8 0, 2; fewer steps
    python benchmarks/bench_sdnv104.py --solvers superlu --json

The CLI runs dense BLAS single-threaded (OPENBLAS_NUM_THREADS=1 unless set);
PARDISO factorises on MKL's threads (MKL_NUM_THREADS) and solves on one. The factorisation time of a
backend includes loading its library on first use (MKL: about
0.3 s, visible at level 0). The step mean includes the first step's one-time
work (the first pairing; at refine >= 5 the scipy.spatial import). Timings
on a shared machine are noisy: compare numbers from one run of the script.
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

#: (case, element, refine, time.end or None for the case's own 3.5 s)
FULL = [
    ("sdnv104a", "quad4", 0, None),
    ("sdnv104a", "quad4", 2, None),
    ("sdnv104a", "quad4", 4, 0.2),
    ("sdnv104a", "quad4", 6, 0.1),
    ("sdnv104d", "quad8", 0, None),
    ("sdnv104d", "quad8", 2, None),
    ("sdnv104d", "quad8", 4, 0.1),
]
QUICK = [
    ("sdnv104a", "quad4", 0, None),
    ("sdnv104a", "quad4", 2, None),
    ("sdnv104a", "quad4", 4, 0.05),
    ("sdnv104d", "quad8", 0, None),
    ("sdnv104d", "quad8", 2, 1.0),
]
CASES = ["sdnv104a", "sdnv104b", "sdnv104c", "sdnv104d", "sdnv104e"]


def fem2d_run(case: str, overrides: list[str]) -> dict:
    """One fresh ``fem2d run``: its result.json, the process's wall time and peak memory (MB)."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "fem2d.cli", "run", case, "--quiet", "--out", out]
        for item in overrides:
            cmd += ["--set", item]
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        stderr = proc.stderr.read().decode() if proc.stderr else ""
        if proc.returncode not in (0, 1):  # 1: a check failed (e.g. a shortened run), still timed
            raise RuntimeError(f"fem2d run {case} {' '.join(overrides)} failed:\n{stderr}")
        doc = json.loads((Path(out) / "result.json").read_text())
    return {**doc, "process_s": elapsed, "peak_mb": usage.ru_maxrss / 1024}


def installed_solvers() -> list[str]:
    from fem2d.linalg import solver_names

    return solver_names(installed_only=True)


def level_row(case: str, element: str, refine: int, end: float | None, solver: str) -> dict:
    overrides = [f"mesh.refine={refine}", f'solver.linear="{solver}"']
    if end is not None:
        overrides.append(f"time.end={end}")
    doc = fem2d_run(case, overrides)
    t = doc["timing"]
    steps = max(t["steps"], 1)
    stepping = t["integration_s"] - t["factorization_s"] - t["condensation_s"]
    return {
        "element": element,
        "refine": refine,
        "solver": solver,
        "free_dofs": t["n_free_dofs"],
        "slave": t.get("n_slave", 0),
        "factor_s": t["factorization_s"],
        "condensation_s": t["condensation_s"],
        "steps": t["steps"],
        "step_ms": 1e3 * stepping / steps,
        "contact_ms": 1e3 * t["contact_s"] / steps,
        "newton_per_step": t["newton_iterations"] / steps,
        "factorizations": t["factorizations"],
        "step_sizes": t.get("step_sizes", 1 + (t["step_cuts"] > 0)),
        "wall_s": t["wall_s"],
        "peak_mb": doc["peak_mb"],
    }


def case_row(case: str) -> dict:
    doc = fem2d_run(case, [])
    t = doc["timing"]
    return {
        "case": case,
        "wall_s": t["wall_s"],
        "process_s": doc["process_s"],
        "steps": t["steps"],
        "newton": t["newton_iterations"],
        "contact_ms": 1e3 * t["contact_s"] / max(t["steps"], 1),
        "passed": all(c["passed"] for c in doc["checks"]),
    }


LEVEL_HEAD = (
    f"{'element':7s} {'refine':>6s} {'solver':12s} {'free dofs':>9s} {'slave':>5s} {'factor s':>8s} "
    f"{'cond s':>7s} {'steps':>5s} {'step ms':>8s} {'contact ms':>10s} {'newton':>6s} {'fact/dt':>7s} "
    f"{'peak MB':>7s} {'wall s':>7s}"
)


def level_line(r: dict) -> str:
    ok = "ok" if r["factorizations"] == r["step_sizes"] else "NO"
    return (
        f"{r['element']:7s} {r['refine']:6d} {r['solver']:12s} {r['free_dofs']:9d} {r['slave']:5d} "
        f"{r['factor_s']:8.3f} {r['condensation_s']:7.2f} {r['steps']:5d} {r['step_ms']:8.2f} "
        f"{r['contact_ms']:10.3f} {r['newton_per_step']:6.2f} {r['factorizations']:>2d}/{r['step_sizes']:<1d} "
        f"{ok:2s} {r['peak_mb']:7.0f} {r['wall_s']:7.2f}"
    )


def print_cases(rows: list[dict]) -> None:
    head = f"{'case':9s} {'wall_s':>7s} {'process s':>9s} {'steps':>5s} {'newton':>6s} {'contact ms/step':>15s} passed"
    print(head)
    print("-" * len(head))
    for r in rows:
        print(
            f"{r['case']:9s} {r['wall_s']:7.3f} {r['process_s']:9.3f} {r['steps']:5d} {r['newton']:6d} "
            f"{r['contact_ms']:15.3f} {r['passed']}",
            flush=True,
        )
    print(f"{'sum':9s} {sum(r['wall_s'] for r in rows):7.3f} {sum(r['process_s'] for r in rows):9.3f}")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="QUAD4 0, 2, 4 and QUAD8 0, 2 with fewer steps")
    parser.add_argument("--solvers", default=None, help="comma-separated solver names (default: every installed)")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON instead of tables")
    args = parser.parse_args(argv)
    solvers = args.solvers.split(",") if args.solvers else installed_solvers()
    plan = QUICK if args.quick else FULL
    if not args.json:
        load = os.getloadavg()
        threads = {k: os.environ.get(k, "-") for k in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS")}
        print(f"{os.cpu_count()} cpus, load {load[0]:.2f} {load[1]:.2f}; {threads}; solvers {', '.join(solvers)}\n")
        print("Levels (step ms and contact ms are per step; fact/dt: factorisations / distinct step sizes;")
        print("factor s includes loading the solver's library: ~0.3 s for MKL)")
        print(LEVEL_HEAD)
        print("-" * len(LEVEL_HEAD))
    levels = []
    for case, element, refine, end in plan:
        for solver in solvers:
            levels.append(level_row(case, element, refine, end, solver))
            if not args.json:
                print(level_line(levels[-1]), flush=True)
    if not args.json:
        print("\nThe five cases at level 0, default settings (one fresh `fem2d run` each)")
    cases = [case_row(c) for c in CASES]
    if args.json:
        print(json.dumps({"levels": levels, "cases": cases}, indent=2))
    else:
        print_cases(cases)
    return {"levels": levels, "cases": cases}


if __name__ == "__main__":
    main()
