"""Small runs in one run of this script: where a ``fem2d run sdnd104`` process spends its time,
the twelve SDND104 runs one process each, and ``fem2d validate`` warm.

- **floor**: processes that only start Python and import what a modal run cannot avoid
  (NumPy; llvmlite's binding, which loads the compiled kernel's kept machine code,
  fem2d/modal/native.py) -- best of 3 each; and, for comparison, NumPy with scipy.sparse,
  which a modal run of a small model no longer imports (it is assembled densely and its
  exact reference read from the cache: ``scipy`` in the breakdown below is then 0);
- **sdnd104 process**: ``fem2d run sdnd104`` (best of 3), and one more under
  ``python -X importtime`` split into the imports of numpy / scipy / numba / llvmlite / fem2d / the rest
  (self times summed by top-level package) and the run's own ``timing.wall_s``;
- **phases** of one such process (best of 3 per phase): interpreter start, the run path's
  imports, case, the run (its model assembly, the compiled kernel's start -- its kept machine
  code loaded by llvmlite, or numba's import and cache, measured as the first call minus a
  warm one --, the integration, the
  rest: build and checks), write, report, exit; the same calls as ``fem2d run``, in a child
  that ends with ``os._exit`` as the console script does;
- **twelve runs**: SDND104 at a0 = 15, 1.5, 1.01, 0.99 with euler, devogelaere and adapt,
  one ``fem2d run`` process each, one after the other (total wall time), against the
  targets (one process under 0.5 s, the twelve under 6 s);
- **break-even** (``--break-even``): the interpreter's cost per force evaluation against the
  compiled kernel's fixed start, i.e. from how many evaluations a fresh process should
  compile (:data:`fem2d.modal.jit.BREAK_EVEN_EVALUATIONS`);
- **validate warm** (``--validate``): ``fem2d validate`` once to warm the caches, then
  timed, with its three longest runs and the bound its runs set (the longest run, or the sum
  of the runs' walls over the workers, whichever is larger).

The machine may be shared: the load (1-minute average) is printed before and after, and
every comparison is within one run of this script. The processes it times may write
Python's bytecode cache (``PYTHONDONTWRITEBYTECODE`` is dropped from their environment,
and said so): an installed fem2d has its ``.pyc`` files (pip writes them, and an
editable install writes them at its first import), and without them every process
compiles fem2d's modules from source again (0.05-0.1 s here). Usage::

    python benchmarks/bench_small.py               # floor, sdnd104 process, twelve runs
    python benchmarks/bench_small.py --validate    # + fem2d validate warm
    python benchmarks/bench_small.py --break-even  # + the interpreter / compiled break-even
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
TARGET_PROCESS_S, TARGET_TWELVE_S = 0.5, 6.0  # seconds: one process, the twelve runs

#: The child of :func:`phases`: ``fem2d run CASE --quiet --out OUT`` as cli/run_commands.py
#: does it, with a timestamp after each phase, then the console script's os._exit.
PHASES_CHILD = """
import time
first = time.time()
import json, os, sys
spawned, case_name, out = float(sys.argv[1]), sys.argv[2], sys.argv[3]
marks = [("start", first - spawned)]
def mark(name, since=[time.perf_counter()]):
    now = time.perf_counter()
    marks.append((name, now - since[0]))
    since[0] = now
import numpy as np
from fem2d.case.build import build_analysis
from fem2d.case.loading import load_case
from fem2d.io.tables import format_checks, format_quantities
from fem2d.runs.result import run, write_result
import fem2d.case.checks, fem2d.case.references, fem2d.runs.modal, fem2d.runs.sanity
import fem2d.modal.integrators, fem2d.modal.basis, fem2d.post.impacts, fem2d.post.wear
mark("imports")
case = load_case(case_name)
mark("case")
result = run(case)
mark("run")
write_result(result, out)
mark("write")
sys.stdout.write(format_quantities(result) + "\\n" + format_checks([result]) + "\\n")
sys.stdout.flush()
mark("report")
t = result.timing
warm = build_analysis(case).analysis.run().timing["integrator_s"]  # the kernel loaded: steps and statistics
phases = dict(marks)
run_s = phases.pop("run")
phases_run = {"model": t["model_s"], "kernel start": t["integrator_s"] - warm, "integrate": warm,
              "build and checks": run_s - t["model_s"] - t["integrator_s"]}
sys.stderr.write(json.dumps({"phases": phases, "run": phases_run, "ended": time.time()}) + "\\n")
sys.stderr.flush()
os._exit(0)
"""


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
    steps = {"python": "pass", "numpy": "import numpy", "numpy+llvmlite": "import numpy, llvmlite.binding",
             "numpy+scipy.sparse (not on the modal path)": "import numpy, scipy.sparse"}
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


def phases(case: str = "sdnd104", repeat: int = 3) -> dict:
    """Where one ``fem2d run`` process spends its time (best of ``repeat`` per phase, s)."""
    best: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as out:
        for _ in range(repeat):
            spawned = time.time()
            proc = subprocess.run([sys.executable, "-c", PHASES_CHILD, repr(spawned), case, out], check=True,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            ended = time.time()
            record = json.loads(proc.stderr.strip().splitlines()[-1])
            measured = {**record["phases"], **{f"run: {k}": v for k, v in record["run"].items()},
                        "exit": ended - record["ended"]}
            for name, value in measured.items():
                best[name] = min(best.get(name, float("inf")), value)
    return best


def break_even(case: str = "sdnd104") -> dict:
    """The interpreter's cost per force evaluation (one process, 1 s of SDND104's euler: below the
    break-even) against the compiled kernel's start in a fresh process (:func:`phases`)."""
    code = ("import time, fem2d\n"
            "from fem2d.case.build import build_analysis\n"
            "from fem2d.case.loading import load_case\n"
            "from fem2d.modal.integrators import integrate_modal\n"
            f"case = load_case({case!r}, {{'time.end': 1.0, 'post.window': [0.0, 1.0]}})\n"
            "a = build_analysis(case).analysis\n"
            "p = a.problem(a.model.assemble())\n"
            "best = {False: 1.0, True: 1.0}\n"
            "for compiled in (False, False, False, True, True, True):  # the first compiled call loads it\n"
            "    t0 = time.perf_counter(); h = integrate_modal(p, 'euler', a.stepping.dt, 1.0, compiled=compiled)\n"
            "    best[compiled] = min(best[compiled], (time.perf_counter() - t0) / h.evaluations)\n"
            "print(best[False], best[True])\n")
    python_s, compiled_s = (float(x) for x in subprocess.run([sys.executable, "-c", code], check=True,
                                                              capture_output=True, text=True).stdout.split())
    start_s = phases(case)["run: kernel start"]
    from fem2d.modal.jit import BREAK_EVEN_EVALUATIONS

    return {"python_s_per_evaluation": python_s, "compiled_s_per_evaluation": compiled_s,
            "compiled_start_s": start_s, "break_even_evaluations": start_s / (python_s - compiled_s),
            "BREAK_EVEN_EVALUATIONS": BREAK_EVEN_EVALUATIONS}


def twelve_runs() -> dict:
    """The twelve SDND104 runs, one process each (total and slowest), warm: a first,
    untimed pass compiles each integrator's kernels and computes each amplitude's exact
    reference once (both cached on disk), as they are after a first use of new code."""
    times = {}
    with tempfile.TemporaryDirectory() as out:
        for timing in (False, True):
            for integrator in INTEGRATORS:
                for a0 in AMPLITUDES:
                    args = fem2d_args("sdnd104", f"{out}/{integrator}_{a0}",
                                      (f"modal.integrator={integrator}", f"excitation.a0={a0}"))
                    seconds = timed(args)
                    if timing:
                        times[f"{integrator} a0={a0:g}"] = seconds
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
    total = sum(r[0] for r in runs)
    workers = min(len(runs), os.cpu_count() or 1)
    # no schedule of these runs on these workers ends before the longest run nor before their sum / workers
    bound = max(runs[0][0], total / workers) if runs else 0.0
    return {"wall_s": wall, "n_runs": len(runs), "runs_wall_s": total, "workers": workers, "runs_bound_s": bound,
            "longest": [{"run": name, "wall_s": s} for s, name in runs[:3]]}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--validate", action="store_true", help="also time fem2d validate (warm)")
    parser.add_argument("--break-even", action="store_true",
                        help="also measure the interpreter / compiled kernel break-even")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args(argv)
    say = (lambda *a, **k: None) if args.json else print
    no_bytecode = os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None  # the children inherit it
    report: dict = {"cpus": os.cpu_count(), "load_before": os.getloadavg()[0], "dropped_dont_write_bytecode":
                    no_bytecode}
    say(f"{os.cpu_count()} cpus, load {report['load_before']:.2f}"
        + ("; PYTHONDONTWRITEBYTECODE dropped for the timed processes" if no_bytecode else ""), flush=True)
    report["floor"] = f = floor()
    say("floor (best of 3): " + ", ".join(f"{k} {v:.3f} s" for k, v in f.items()), flush=True)
    with tempfile.TemporaryDirectory() as out:
        timed(fem2d_args("sdnd104", out))  # warms numba's cache and the exact reference's
        report["sdnd104_process_s"] = p = min(timed(fem2d_args("sdnd104", out)) for _ in range(3))
    b = report["breakdown"] = import_breakdown()
    say(f"`fem2d run sdnd104` (best of 3): {p:.3f} s; one under -X importtime: {b['process_s']:.3f} s, of which "
        f"run {b['run_wall_s']:.3f} s and imports " + ", ".join(f"{k} {v:.3f}" for k, v in b["imports_s"].items())
        + f"; process / floor (numpy+llvmlite) {p / f['numpy+llvmlite']:.2f}", flush=True)
    ph = report["phases"] = phases()
    say("phases of one `fem2d run sdnd104` process (best of 3 each): "
        + ", ".join(f"{k} {v:.3f}" for k, v in ph.items()) + f" s; sum {sum(ph.values()):.3f} s", flush=True)
    say(f"target: one process under {TARGET_PROCESS_S} s: {p:.3f} s, "
        f"{'met' if p < TARGET_PROCESS_S else 'not met'}", flush=True)
    report["twelve"] = t = twelve_runs()
    slowest = max(t["runs"], key=t["runs"].get)
    say(f"twelve SDND104 runs, one process each: {t['total_s']:.2f} s (slowest {slowest}: "
        f"{t['runs'][slowest]:.3f} s); target under {TARGET_TWELVE_S} s: "
        f"{'met' if t['total_s'] < TARGET_TWELVE_S else 'not met'}", flush=True)
    if args.break_even:
        report["break_even"] = e = break_even()
        say(f"break-even: interpreter {e['python_s_per_evaluation'] * 1e6:.1f} us per force evaluation, compiled "
            f"{e['compiled_s_per_evaluation'] * 1e6:.2f} us, compiled start {e['compiled_start_s']:.3f} s: "
            f"compile from {e['break_even_evaluations']:.0f} evaluations (fem2d.modal.jit uses "
            f"{e['BREAK_EVEN_EVALUATIONS']})", flush=True)
    if args.validate:
        report["validate"] = v = validate_warm()
        say(f"fem2d validate (warm): {v['wall_s']:.1f} s for {v['n_runs']} runs (their walls sum to "
            f"{v['runs_wall_s']:.1f} s: on {v['workers']} workers no schedule ends before {v['runs_bound_s']:.1f} s, "
            "the rest is start, suite, records, figures, report); longest: "
            + ", ".join(f"{x['run']} {x['wall_s']:.1f} s" for x in v["longest"]))
    report["load_after"] = os.getloadavg()[0]
    say(f"load {report['load_after']:.2f} after")
    if args.json:
        print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
