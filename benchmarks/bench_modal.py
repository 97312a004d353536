"""Benchmark of the modal path: the twelve SDND104 runs (4 amplitudes x euler/devogelaere/adapt, 12 s at 1e-4 s).

Each measurement runs in a fresh interpreter so that it includes the imports
and the numba start-up: "cold" with an empty numba cache (compilation), "warm"
with the cache the cold run left. Also reports the steps per second of each
integrator against a minimal compiled loop (a numba-compiled forced harmonic
oscillator stepped with the same semi-implicit Euler), and the exact
integrator's time for the same four amplitudes.

Usage::

    python benchmarks/bench_modal.py            # prints a table, writes nothing
    python benchmarks/bench_modal.py --json     # the same numbers as JSON
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import time
t_start = time.perf_counter()
import json, math, sys
import numpy as np
from fem2d.modal.integrators import integrate_modal
from fem2d.modal.run import run_modal
from fem2d.modal.basis import Excitation, ModalProblem
from fem2d.model.timefunctions import Constant, PiecewiseLinear, Sine
from fem2d.modal.shocks import Obstacle
t_import = time.perf_counter() - t_start

def sdnd104(a0):
    plane = Obstacle(node_modes=np.array([[1.0], [0.0]]), kind="plan_z", normal=[0.0, 1.0], origin=[0.0, 1.0],
                     gap=0.5, kn=20.0, kt=9e6, mu_static=0.1)
    accel = Excitation(np.array([-1.0]), Sine(a0, 2.0 * math.pi))
    return ModalProblem(masses=[1.0], stiffnesses=[3e-5], excitations=(accel,), obstacles=(plane,))

runs = []
for scheme in sys.argv[1].split(","):
    for a0 in (15.0, 1.5, 1.01, 0.99):
        r = run_modal(sdnd104(a0), scheme, 1e-4, 12.0, window=(4.0, 12.0))
        runs.append({"scheme": scheme, "a0": a0, "wear_power": r.quantities["wear_power"], **r.timing})
total = time.perf_counter() - t_start
kernel = {}
for scheme in sys.argv[1].split(","):
    if scheme != "exact":  # integration alone (no post-processing), warm
        t = time.perf_counter()
        h = integrate_modal(sdnd104(15.0), scheme, 1e-4, 12.0)
        kernel[scheme] = {"s": time.perf_counter() - t, "steps": h.steps, "evaluations": h.evaluations}
print(json.dumps({"total_s": total, "import_s": t_import, "runs": runs, "kernel": kernel}))
"""

PLAIN = r"""
import math, time
from numba import njit

@njit
def plain_euler(n, dt, w2, a0, w):
    q = 0.0
    v = 0.0
    a = 0.0
    for i in range(1, n + 1):
        v += dt * a
        q += dt * v
        a = -a0 * math.sin(w * (i * dt)) - w2 * q
    return q

plain_euler(10, 1e-4, 3e-5, 15.0, 2 * math.pi)
t = time.perf_counter()
plain_euler(1_200_000, 1e-4, 3e-5, 15.0, 2 * math.pi)
print((time.perf_counter() - t))
"""


def _child(code: str, args: list[str], cache_dir: str) -> str:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()[-1]


def main() -> dict:
    """Run the benchmark and return its numbers."""
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    python_start = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as cache:
        cold = json.loads(_child(CHILD, ["euler,devogelaere,adapt"], cache))
        warm = json.loads(_child(CHILD, ["euler,devogelaere,adapt"], cache))
        exact = json.loads(_child(CHILD, ["exact"], cache))
        plain_s = float(_child(PLAIN, [], cache))
    rates, kernel_rates = {}, {}
    for scheme in ("euler", "devogelaere", "adapt"):
        rs = [r for r in warm["runs"] if r["scheme"] == scheme]
        rates[scheme] = sum(r["steps"] for r in rs) / sum(r["wall_s"] for r in rs)
        k = warm["kernel"][scheme]
        kernel_rates[scheme] = k["steps"] / k["s"]
    return {
        "python_start_s": python_start,
        "cold_total_s": cold["total_s"],
        "warm_total_s": warm["total_s"],
        "warm_import_s": warm["import_s"],
        "warm_runs_wall_s": sum(r["wall_s"] for r in warm["runs"]),
        "steps_per_s": rates,
        "integrate_steps_per_s": kernel_rates,
        "plain_loop_steps_per_s": 1_200_000 / plain_s,
        "exact_total_s": exact["total_s"],
        "runs": warm["runs"],
        "exact_runs": exact["runs"],
    }


if __name__ == "__main__":
    res = main()
    if "--json" in sys.argv:
        print(json.dumps(res, indent=2))
        sys.exit(0)
    print(f"python start-up             {res['python_start_s']:.3f} s")
    print(f"12 runs, cold numba cache   {res['cold_total_s']:.3f} s (imports + compilation + runs)")
    print(f"12 runs, warm numba cache   {res['warm_total_s']:.3f} s (imports {res['warm_import_s']:.3f} s, "
          f"runs {res['warm_runs_wall_s']:.3f} s)")
    print(f"4 exact runs                {res['exact_total_s']:.3f} s (with imports, sampled every 1e-4 s)")
    plain = res["plain_loop_steps_per_s"]
    print(f"plain compiled Euler loop   {plain / 1e6:.1f} M steps/s")
    for k, v in res["integrate_steps_per_s"].items():
        end = res["steps_per_s"][k]
        print(f"{k:<27} {v / 1e6:.1f} M steps/s integrating ({plain / v:.1f}x the plain loop's time per step); "
              f"{end / 1e6:.1f} M steps/s end to end (with post-processing)")
    print("scheme       a0     wear_power (W)        wall_s  steps   rejected")
    for r in res["runs"] + res["exact_runs"]:
        row = f"{r['scheme']:<12} {r['a0']:<6} {r['wear_power']:<20.13g}  {r['wall_s']:.4f}  {r['steps']:<7}"
        print(f"{row} {r['rejected']}")
