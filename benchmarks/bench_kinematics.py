"""What a body's kinematics cost on SDNV104 A (the block sliding on its support, QUAD4,
Lagrange contact with Coulomb friction), one run, no extrapolation in time
(``time.extrapolate = false``), the block (``materials.0``) ``"small"``, ``"corotational"``
or ``"finite"`` (Saint Venant-Kirchhoff, Hooke's law on the Green-Lagrange strain).

1. **Cost per step** at ``mesh.refine`` 3, 4, 5 (the step halves with the cells,
   :func:`fem2d.case.loading.refine_overrides`), over a shortened march (``time.end`` per
   level in :data:`ENDS`: the first steps of the run, in the load ramp; the mean includes the
   first step's one-time work): the wall time of the march per step,
   ``timing["march_s"] / timing["steps"]``, of each kinematics, and

   - (a) corotational / small, target at most 1.3;
   - (b) finite / (one factorisation + one solve): the factorisation of the run's effective matrix
     :math:`K_{eff} = w_K K + w_M M` (no contact boundary condensed) by the run's solver
     (:meth:`fem2d.dynamics.stepper.NewmarkStepper.factor`) and one solve on it, timed directly;
   - Newton's iterations of the bodies per step and the tangents refactorised.

   The runs are interleaved (level by level, the kinematics and the factorisation one after
   the other) and repeated; each number is the median over the repeats (the machine is shared).
2. **Accuracy**: x(1.70) and x(3.40) of the block's node A over the full 3.5 s of each
   kinematics at one level (``--accuracy-level``, default 2: level 3 takes minutes), and
   their difference from ``"small"`` (the block slides rigidly under small strains: the
   kinematics must not change them by 1e-6 m).

Usage::

    PYTHONPATH=$PWD python benchmarks/bench_kinematics.py                 # ~3 min
    PYTHONPATH=$PWD python benchmarks/bench_kinematics.py --levels 3 4 --repeats 3 --accuracy-level 2
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the CLI

CASE = "sdnv104a"
KINEMATICS = ("small", "corotational", "finite")
#: time.end of the timed marches per mesh level (s): the step is 0.01 / 2**level
ENDS = {2: 0.5, 3: 0.2, 4: 0.05, 5: 0.02}
DT0 = 0.01
TARGET_COROTATIONAL = 1.3
TOLERANCE_X = 1e-6


def overrides(level: int, kinematics: str, end: float | None) -> dict:
    """The run's overrides: ``level`` of refinement, the block's ``kinematics``, ``time.end``."""
    from fem2d.case.loading import refine_overrides

    out = {"time.extrapolate": False, **refine_overrides(level, DT0), "materials.0.kinematics": kinematics}
    if end is not None:
        out["time.end"] = end
    return out


def march(level: int, kinematics: str, end: float | None):
    """One run: its Result."""
    import fem2d

    with warnings.catch_warnings():  # a shortened march's energy balance is not what is measured
        warnings.simplefilter("ignore", fem2d.Fem2dWarning)
        return fem2d.run(CASE, overrides(level, kinematics, end), reference_cache=False)


def factor_and_solve(level: int, result) -> tuple[float, float]:
    """Wall times (s) of one factorisation of the run's K_eff at its step and of one solve on it."""
    import numpy as np

    from fem2d.case.build import build_analysis
    from fem2d.case.loading import load_case
    from fem2d.dynamics.stepper import NewmarkStepper
    from fem2d.linalg import get_solver

    analysis = build_analysis(load_case(CASE, overrides(level, "small", None))).analysis
    system = result.fields.system
    scheme, _ = analysis.resolve_scheme(system)
    stepper = NewmarkStepper(system, scheme, get_solver(analysis.solver), None)
    dt = DT0 / 2**level
    t0 = time.perf_counter()
    factor = stepper.factor(dt)
    t1 = time.perf_counter()
    factor.solve(np.ones(system.K_free.shape[0]))
    t2 = time.perf_counter()
    stepper.release()
    return t1 - t0, t2 - t1


def per_step(result) -> float:
    return result.timing["march_s"] / result.timing["steps"]


def timed(levels: list[int], repeats: int) -> dict:
    """Medians over ``repeats`` interleaved runs, per level."""
    samples: dict = {level: {"factor": [], "solve": [], **{k: [] for k in KINEMATICS}} for level in levels}
    counts: dict = {level: {} for level in levels}
    for kinematics in KINEMATICS:  # imports (numba's, for the corotational cells) and first calls, not timed
        march(levels[0], kinematics, 2 * DT0 / 2 ** levels[0])
    for _ in range(repeats):
        for level in levels:
            for kinematics in KINEMATICS:
                result = march(level, kinematics, ENDS[level])
                samples[level][kinematics].append(per_step(result))
                counts[level][kinematics] = result.timing
            factor, solve = factor_and_solve(level, result)
            samples[level]["factor"].append(factor)
            samples[level]["solve"].append(solve)
    medians = {level: {key: statistics.median(v) for key, v in samples[level].items()} for level in levels}
    return {level: (medians[level], counts[level]) for level in levels}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[3, 4, 5], choices=sorted(ENDS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--accuracy-level", type=int, default=2, help="mesh.refine of the full runs (default 2)")
    args = parser.parse_args()

    print(f"## Cost per step (median of {args.repeats} interleaved runs; march wall time / steps)\n")
    print("| refine | cells | time.end s | steps | small ms | corot. ms | finite ms | factor ms | solve ms "
          "| (a) corot./small | (b) finite/(factor+solve) | Newton it./step corot., finite "
          "| most it. | tangent updates |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|")
    misses = []
    for level, (m, counts) in timed(args.levels, args.repeats).items():
        ratio_a = m["corotational"] / m["small"]
        ratio_b = m["finite"] / (m["factor"] + m["solve"])
        c, f = counts["corotational"], counts["finite"]
        steps = f["steps"]
        cells = 25 * 4**level  # the block's QUAD4 cells (5 x 5 at level 0)
        print(f"| {level} | {cells} | {ENDS[level]:g} | {steps} | {1e3 * m['small']:.2f} | "
              f"{1e3 * m['corotational']:.2f} | {1e3 * m['finite']:.2f} | {1e3 * m['factor']:.2f} | "
              f"{1e3 * m['solve']:.2f} | {ratio_a:.2f} | {ratio_b:.2f} | "
              f"{c['body_newton_iterations'] / c['steps']:.2f}, {f['body_newton_iterations'] / steps:.2f} | "
              f"{c['body_newton_most_iterations']}, {f['body_newton_most_iterations']} | "
              f"{c['body_tangent_updates']}, {f['body_tangent_updates']} |", flush=True)
        if ratio_a > TARGET_COROTATIONAL:
            misses.append(f"refine {level}: corotational / small = {ratio_a:.2f} > {TARGET_COROTATIONAL}")
    print()
    for line in misses:
        print(f"- target missed: {line}")

    dt = DT0 / 2**args.accuracy_level
    print(f"\n## x of node A over the full run (refine {args.accuracy_level}, dt = {dt:g} s)\n")
    print("| kinematics | x(1.70) m | x(3.40) m | x(1.70) - small | x(3.40) - small | march s | steps |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    base = None
    for kinematics in KINEMATICS:
        result = march(args.accuracy_level, kinematics, None)
        x = (result.quantities["x_at_1.70"], result.quantities["x_at_3.40"])
        base = base or x
        d = (x[0] - base[0], x[1] - base[1])
        flag = "" if max(map(abs, d)) < TOLERANCE_X else f" (over {TOLERANCE_X:g} m)"
        print(f"| {kinematics} | {x[0]:.9f} | {x[1]:.9f} | {d[0]:+.2e} | {d[1]:+.2e}{flag} | "
              f"{result.timing['march_s']:.1f} | {result.timing['steps']} |", flush=True)


if __name__ == "__main__":
    main()
