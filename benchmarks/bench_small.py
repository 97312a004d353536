"""Small runs in one run of this script: where a ``fem2d run sdnd104`` process spends its time,
the twelve SDND104 runs one process each, and ``fem2d validate`` warm.

- **floor**: processes that only start Python and import what a modal run cannot avoid
  (NumPy; SciPy's sparse matrices, which hold the assembled model; numba, whose cached
  kernel loads in the run) -- best of 3 each;
- **sdnd104 process**: ``fem2d run sdnd104`` (best of 3), and one more under
  ``python -X importtime`` split into the imports of numpy / scipy / numba / fem2d / the rest
  (self times summed by top-level package) and the run's own ``timing.wall_s``;
- **twelve runs**: SDND104 at a0 = 15, 1.5, 1.01, 0.99 with euler, devogelaere and adapt,
  one ``fem2d run`` process each, one after the other (total wall time);
- **validate warm** (``--validate``): ``fem2d validate`` once to warm the caches, then
  timed, with its three longest runs.

The machine may be shared: the load (1-minute average) is printed before and after, and
every comparison is within one run of this script. Usage::

    python benchmarks/bench_small.py               # floor, sdnd104 process, twelve runs
    python benchmarks/bench_small.py --validate    # + fem2d validate warm
    python benchmarks/bench_small.py --json
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

AMPLITUDES = (15.0, 1.5, 1.01, 0.99)
INTEGRATORS = ("euler", "devogelaere", "adapt")


def timed(args: list[str], env: dict | None = None) -> float:
    """Wall time (s) of one process ``python args`` (output discarded; a failure raises)."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env)
    return time.perf_counter() - t0


def fem2d_args(case: str, out: str, overrides: tuple[str, ...] = ()) -> list[str]:
    args = ["-m", "fem2d.cli", "run", case, "--quiet", "--out", out]
    for item in overrides:
        args += ["--set", item]
    return args


def floor() -> dict:
    """Best-of-3 start-up of what a modal run cannot avoid."""
    steps = {"python": "pass", "numpy": "import numpy", "numpy+scipy.sparse": "import numpy, scipy.sparse",
             "numpy+scipy.sparse+numba": "import numpy, scipy.sparse, numba"}
    return {name: min(timed(["-c", code]) for _ in range(3)) for name, code in steps.items()}


def import_breakdown(case: str = "sdnd104") -> dict:
    """One ``fem2d run`` under ``-X importtime``: import self-times by top-level package, the run."""
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-X", "importtime", *fem2d_args(case, out)], check=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        process = time.perf_counter() - t0
        run_s = json.loads((Path(out) / "result.json").read_text())["timing"]["wall_s"]
    groups = {"numpy": 0.0, "scipy": 0.0, "numba": 0.0, "llvmlite": 0.0, "fem2d": 0.0, "other": 0.0}
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        fields = line[len("import time:"):].split("|")
        try:
            self_us = int(fields[0])
        except ValueError:  # the header line
            continue
        top = fields[2].strip().split(".")[0]
        groups[top if top in groups else "other"] += self_us * 1e-6
    return {"process_s": process, "run_wall_s": run_s, "imports_s": groups}


def twelve_runs() -> dict:
    """The twelve SDND104 runs, one process each (total and slowest)."""
    times = {}
    with tempfile.TemporaryDirectory() as out:
        for integrator in INTEGRATORS:
            for a0 in AMPLITUDES:
                args = fem2d_args("sdnd104", f"{out}/{integrator}_{a0}",
                                  (f"modal.integrator={integrator}", f"excitation.a0={a0}"))
                times[f"{integrator} a0={a0:g}"] = timed(args)
    return {"total_s": sum(times.values()), "runs": times}


def validate_warm() -> dict:
    """``fem2d validate`` after a warm-up pass: wall time and its three longest runs."""
    with tempfile.TemporaryDirectory() as out:
        cmd = ["-m", "fem2d.cli", "validate", "--quiet", "--out", out]
        timed(cmd)  # warms numba's cache and the exact references' cache
        wall = timed(cmd)
        runs = []
        for path in Path(out).glob("*/*/result.json"):
            runs.append((json.loads(path.read_text())["timing"]["wall_s"], str(path.parent.relative_to(out))))
    runs.sort(reverse=True)
    return {"wall_s": wall, "n_runs": len(runs), "runs_wall_s": sum(r[0] for r in runs),
            "longest": [{"run": name, "wall_s": s} for s, name in runs[:3]]}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--validate", action="store_true", help="also time fem2d validate (warm)")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args(argv)
    say = (lambda *a, **k: None) if args.json else print
    report: dict = {"cpus": os.cpu_count(), "load_before": os.getloadavg()[0]}
    say(f"{os.cpu_count()} cpus, load {report['load_before']:.2f}", flush=True)
    report["floor"] = f = floor()
    say("floor (best of 3): " + ", ".join(f"{k} {v:.3f} s" for k, v in f.items()), flush=True)
    with tempfile.TemporaryDirectory() as out:
        timed(fem2d_args("sdnd104", out))  # warms numba's cache and the exact reference's
        report["sdnd104_process_s"] = p = min(timed(fem2d_args("sdnd104", out)) for _ in range(3))
    b = report["breakdown"] = import_breakdown()
    say(f"`fem2d run sdnd104` (best of 3): {p:.3f} s; one under -X importtime: {b['process_s']:.3f} s, of which "
        f"run {b['run_wall_s']:.3f} s and imports " + ", ".join(f"{k} {v:.3f}" for k, v in b["imports_s"].items())
        + f"; process / floor {p / f['numpy+scipy.sparse+numba']:.2f}", flush=True)
    report["twelve"] = t = twelve_runs()
    slowest = max(t["runs"], key=t["runs"].get)
    say(f"twelve SDND104 runs, one process each: {t['total_s']:.2f} s (slowest {slowest}: "
        f"{t['runs'][slowest]:.3f} s)", flush=True)
    if args.validate:
        report["validate"] = v = validate_warm()
        say(f"fem2d validate (warm): {v['wall_s']:.1f} s for {v['n_runs']} runs (their walls sum to "
            f"{v['runs_wall_s']:.1f} s); longest: "
            + ", ".join(f"{x['run']} {x['wall_s']:.1f} s" for x in v["longest"]))
    report["load_after"] = os.getloadavg()[0]
    say(f"load {report['load_after']:.2f} after")
    if args.json:
        print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
