"""What the stick/slip locator costs when nothing slips: two blocks that never move on their support.

- **rest**: a steel block (1 m x 0.5 m, nu = 0.3) under its weight on a rigid plane, mu = 0.3,
  settled by a static preload (``initial=`` a :class:`~fem2d.runs.static.StaticAnalysis`, the
  Python form of ``[preload]``), then marched; its slip rates are round-off, and its corners,
  pushed out by the Poisson effect, hold their friction limit;
- **shaken**: the same block on a plane moved along itself by ``A cos(omega t)``, A = 0.2 mm at
  10 Hz: the plane's acceleration, A omega^2 = 0.79 m/s^2, stays below mu g = 2.94 m/s^2, so
  the block follows it without slipping (its corners creep at their friction limit).

Neither should locate a stick/slip event, solve a trial step or factorise a matrix for a step
size other than ``dt``. Per situation the script prints the events (stops, reversals), the
trial steps, the factorisations and refactorisations, and the wall time of the run; the
same run with the locator off (``stick_slip=False``) gives the wall time of the steps alone.
``tests/test_stickslip.py`` builds the same two models from this script (over shorter runs).

Usage::

    python benchmarks/bench_stickslip_idle.py             # 1 s of motion each
    python benchmarks/bench_stickslip_idle.py --end 0.2
"""

from __future__ import annotations

import argparse
import math
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the CLI

#: preload end (s) of each situation: the dynamics start there
PRELOAD = {"rest": 1.0, "shaken": 0.1}
AMPLITUDE, FREQUENCY, MU, G = 2e-4, 10.0, 0.3, 9.81


def block(situation: str):
    """The Model of ``situation`` ('rest' or 'shaken')."""
    from fem2d.mesh import rectangle
    from fem2d.model import Body, BodyForce, Contact, Model, RigidPlane
    from fem2d.model.timefunctions import Sine

    omega = 2.0 * math.pi * FREQUENCY
    if situation == "rest":
        plane = RigidPlane((0.0, 0.0), (0.0, 1.0))
    else:  # A cos(omega t): at rest at the preload's end (omega * 0.1 s = 2 pi)
        assert AMPLITUDE * omega**2 < MU * G  # the block never slips
        plane = RigidPlane((0.0, 0.0), (0.0, 1.0), displacement=(AMPLITUDE, 0.0),
                           function=Sine(1.0, omega, math.pi / 2))
    rho = 7800.0
    return Model(rectangle(1.0, 0.5, 4, 2), bodies=[Body("BODY", E=2.1e11, nu=0.3, rho=rho)],
                 loads=[BodyForce("BODY", (0.0, -G * rho))], contacts=[Contact("BOTTOM", plane, mu=MU)])


def run(situation: str, end: float = 1.0, dt: float = 1e-3, stick_slip: bool = True):
    """The Result of ``situation`` marched ``end`` seconds after its static preload."""
    from fem2d.model import Report, TimeStepping
    from fem2d.runs.direct import DirectAnalysis
    from fem2d.runs.static import StaticAnalysis

    model, t0 = block(situation), PRELOAD[situation]
    settled = StaticAnalysis(model, TimeStepping(dt=t0, end=t0), report=Report("NE", "dx"))
    stepping = TimeStepping(dt=dt, end=t0 + end, stick_slip=stick_slip)
    return DirectAnalysis(model, stepping, report=Report("NE", "dx"), modified_mass=True, initial=settled).run()


def measure(situation: str, end: float = 1.0) -> dict:
    """Events, trial steps, factorisations and wall times (s) of ``situation`` (after a
    short run of it: imports and first calls are not timed)."""
    run(situation, 0.01)
    start = time.perf_counter()
    timing = run(situation, end).timing
    wall = time.perf_counter() - start
    start = time.perf_counter()
    run(situation, end, stick_slip=False)
    wall_off = time.perf_counter() - start
    keys = ("steps", "events_stops", "events_reversals", "events_trial_steps", "factorizations", "refactorizations")
    return {key: timing[key] for key in keys} | {"wall_s": wall, "wall_without_locator_s": wall_off}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--end", type=float, default=1.0, help="seconds of motion after the preload (default 1)")
    args = parser.parse_args()
    print(f"{'situation':10} {'steps':>6} {'stops':>6} {'reversals':>9} {'trials':>7} {'factor.':>8} "
          f"{'refactor.':>9} {'wall s':>7} {'no locator s':>12}")
    for situation in PRELOAD:
        m = measure(situation, args.end)
        print(f"{situation:10} {m['steps']:6d} {m['events_stops']:6d} {m['events_reversals']:9d} "
              f"{m['events_trial_steps']:7d} {m['factorizations']:8d} {m['refactorizations']:9d} "
              f"{m['wall_s']:7.2f} {m['wall_without_locator_s']:12.2f}")


if __name__ == "__main__":
    main()
