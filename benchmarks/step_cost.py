"""What a step costs per kinematics, against the small-strain step and against the limit.

The problem: the disc rolling on the 30 degree incline (case ``rolling_disc``: QUAD8, Lagrange
contact with Coulomb friction on a rigid plane, the auto scheme), over its first steps
(``time.end`` shortened, ``--end``), the disc ``"small"``, ``"corotational"`` or ``"finite"``
(``materials.0.kinematics``), the bodies' tangent ``"kept"`` or ``"refreshed"``
(``solver.tangent``, :mod:`fem2d.dynamics.newton`) and, kept, refactorised at two contraction
rates (``solver.tangent_refresh`` 0.1, the default, and 0.5). The small disc does not turn
right (its rotation is taken for a strain): it is the cost to reach, not an answer.

Per run and step, read from ``result.timing``: the factorisations, the linear solves (one per
linear step, one per Newton iteration of the bodies, the contact problem solved on the
condensed boundary inside each), the assembly (the turning cells' internal forces and
tangents), the contact (the formulation's solves and the condensation of its boundary), the
Newton iterations of the bodies and the wall time of the march. Ratios:

- to the small-strain step (``/ small``);
- to the limit (``/ limit``): one solve per step for small and corotational bodies; for finite
  strain one factorisation and one solve per iteration of Newton's method (the iterations of
  the ``"refreshed"`` run, what a code that factorises its tangent at every iteration pays).
  The factorisation and the solve are those of the run's effective matrix at its step, timed in
  this process (:meth:`fem2d.dynamics.stepper.NewmarkStepper.factor`, no contact boundary).

The runs are interleaved and repeated (``--repeats``); each time is the median of its repeats
(the machine is shared: read the ratios, made side by side, not the times). The first steps of
each kinematics run once first, untimed (numba's compilation of the corotational cells).
Then x of the disc's centre at the end of each run, and the difference of the kept tangent's
from the refreshed one's (the same answer to the Newton tolerance). Last, the static
finite-strain cases (:data:`STATIC`: their levels are large steps) with each tangent: levels,
cuts, factorisations, Newton iterations and wall time, and the kept run's time over the
refreshed one's.

Usage::

    PYTHONPATH=$PWD python benchmarks/step_cost.py                # ~2 min
    PYTHONPATH=$PWD python benchmarks/step_cost.py --end 0.3 --repeats 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the CLI

CASE = "rolling_disc"
#: (label, kinematics, solver.tangent, solver.tangent_refresh)
VARIANTS = [
    ("small", "small", "kept", 0.1),
    ("corotational kept", "corotational", "kept", 0.1),
    ("corotational kept 0.5", "corotational", "kept", 0.5),
    ("corotational refreshed", "corotational", "refreshed", 0.1),
    ("finite kept", "finite", "kept", 0.1),
    ("finite kept 0.5", "finite", "kept", 0.5),
    ("finite refreshed", "finite", "refreshed", 0.1),
]


#: the static finite-strain built-in cases (name, overrides)
STATIC = [("elastica", {}), ("elastica", {"materials.0.kinematics": "corotational"}), ("compression", {}),
          ("cylinder_compression", {})]


def static_runs(repeats: int) -> list:
    """Per static case: its label and, per tangent, (timing, median march s) over ``repeats`` runs."""
    import fem2d

    rows = []
    for name, extra in STATIC:
        row = {}
        for tangent in ("kept", "refreshed"):
            times = []
            for _ in range(repeats):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", fem2d.Fem2dWarning)
                    result = fem2d.run(name, extra | {"solver.tangent": tangent}, reference_cache=False)
                times.append(result.timing["march_s"])
            row[tangent] = (result.timing, statistics.median(times))
        label = name + "".join(f", {v}" for v in extra.values())
        rows.append((label, row))
    return rows


def overrides(kinematics: str, tangent: str, refresh: float, end: float) -> dict:
    """The run's overrides: the disc's ``kinematics``, the tangent, ``time.end`` (x reported there)."""
    return {"materials.0.kinematics": kinematics, "solver.tangent": tangent, "solver.tangent_refresh": refresh,
            "time.end": end, "report.at_times": [end]}


def march(kinematics: str, tangent: str, refresh: float, end: float):
    """One run: its Result."""
    import fem2d

    with warnings.catch_warnings():  # a shortened (or small-strain) run's checks are not what is measured
        warnings.simplefilter("ignore", fem2d.Fem2dWarning)
        return fem2d.run(CASE, overrides(kinematics, tangent, refresh, end), reference_cache=False)


def factor_and_solve(result, end: float) -> tuple[float, float]:
    """Wall times (s) of one factorisation of the run's K_eff at its step and of one solve on it."""
    import numpy as np

    from fem2d.case.build import build_analysis
    from fem2d.case.loading import load_case
    from fem2d.dynamics.stepper import NewmarkStepper
    from fem2d.linalg import get_solver

    analysis = build_analysis(load_case(CASE, overrides("small", "kept", 0.1, end))).analysis
    system = result.fields.system
    scheme, _ = analysis.resolve_scheme(system)
    stepper = NewmarkStepper(system, scheme, get_solver(analysis.solver), None)
    t0 = time.perf_counter()
    factor = stepper.factor(analysis.stepping.dt)
    t1 = time.perf_counter()
    factor.solve(np.ones(system.K_free.shape[0]))
    t2 = time.perf_counter()
    stepper.release()
    return t1 - t0, t2 - t1


def per_step(timing: dict) -> dict:
    """The counts and times (ms) per step of a run's ``timing``."""
    n = timing["steps"]
    return {
        "factorizations": (timing["factorizations"] + timing["refactorizations"]) / n,
        "solves": timing["solves"] / n,
        "assembly": 1e3 * timing["assembly_s"] / n,
        "contact": 1e3 * (timing["contact_s"] + timing["condensation_s"]) / n,
        "newton": timing.get("body_newton_iterations", 0) / n,
        "wall": 1e3 * timing["march_s"] / n,
    }


def measure(end: float, repeats: int) -> dict:
    """{label: (medians per step, the last run's Result)}, and the factorisation's and solve's medians (ms)."""
    for kinematics in ("small", "corotational", "finite"):  # imports and first calls, not timed
        march(kinematics, "kept", 0.1, 0.01)
    samples: dict = {label: [] for label, *_ in VARIANTS}
    last: dict = {}
    factor, solve = [], []
    for _ in range(repeats):
        for label, kinematics, tangent, refresh in VARIANTS:
            result = march(kinematics, tangent, refresh, end)
            samples[label].append(per_step(result.timing))
            last[label] = result
        f, s = factor_and_solve(last["small"], end)
        factor.append(1e3 * f)
        solve.append(1e3 * s)
    medians = {label: ({key: statistics.median(row[key] for row in rows) for key in rows[0]}, last[label])
               for label, rows in samples.items()}
    return {"runs": medians, "factor": statistics.median(factor), "solve": statistics.median(solve)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--end", type=float, default=0.15, help="time.end of the runs (s; default 0.15, 48 steps)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    out = measure(args.end, args.repeats)
    runs, factor, solve = out["runs"], out["factor"], out["solve"]
    small = runs["small"][0]["wall"]
    newton = runs["finite refreshed"][0]["newton"]
    some = runs["small"][1].timing
    print(f"{CASE}, time.end = {args.end:g} s: {some['steps']} steps, {some['n_free_dofs']} free dofs, "
          f"{some['n_slave']} contact nodes; medians of {args.repeats} interleaved runs\n")
    print(f"one factorisation of K_eff {factor:.2f} ms, one solve {solve:.3f} ms (a ratio of {factor / solve:.0f}); "
          f"Newton's method (finite, refreshed) {newton:.2f} iterations a step\n")
    print("| run | factorisations / step | solves / step | assembly ms / step | contact ms / step "
          "| Newton it. / step | wall ms / step | / small | / limit |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, (m, _) in runs.items():
        limit = newton * (factor + solve) if label.startswith("finite") else solve
        print(f"| {label} | {m['factorizations']:.3f} | {m['solves']:.2f} | {m['assembly']:.2f} | "
              f"{m['contact']:.2f} | {m['newton']:.2f} | {m['wall']:.2f} | {m['wall'] / small:.2f} | "
              f"{m['wall'] / limit:.1f} |")
    print(f"\n## x of the disc's centre at t = {args.end:g} s\n")
    print("| run | x m | kept - refreshed m |")
    print("|---|---:|---:|")
    key = f"x_at_{args.end:.2f}"
    for label, (_, result) in runs.items():
        x = result.quantities[key]
        kinematics = label.split()[0]
        base = runs.get(f"{kinematics} refreshed")
        diff = f"{x - base[1].quantities[key]:+.2e}" if base is not None else ""
        print(f"| {label} | {x:.9f} | {diff} |")
    print("\n## Static finite-strain cases, each tangent\n")
    print("| case | tangent | levels | cuts | factorisations | Newton it. | march s | kept / refreshed |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for label, row in static_runs(args.repeats):
        ratio = row["kept"][1] / row["refreshed"][1]
        for tangent, (t, wall) in row.items():
            print(f"| {label} | {tangent} | {t['steps']} | {t['step_cuts']} | {t['factorizations']} | "
                  f"{t['body_newton_iterations']} | {wall:.2f} | {f'{ratio:.2f}' if tangent == 'kept' else ''} |")


if __name__ == "__main__":
    main()
