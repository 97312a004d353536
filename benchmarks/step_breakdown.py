"""Where a step of SDNV104 A goes, part by part, at one mesh level.

Runs ``sdnv104a`` (``time.extrapolate=false``) in this process with a timer around each
part of a step and prints, per part, the median time of one call and the total per
accepted step. The parts: the sweeps of the factorisation with the Schur complement
(``forward``, ``backward``), the contact problem (``contact``: the formulation's solve),
the scheme's prediction, right-hand side and correction, the history, the measures, the
stick/slip locator, and ``step`` (all of a step, the rest included: K du, the coupling's
condensation and expansion). The first step holds the factorisation: the medians are
the figures to read. Then, in the same process, on the same factors and the last step's
right-hand side, the two sweeps back to back (``--repeat`` times, medians): what they
take when nothing runs between them, against what they take inside the steps.

Usage::

    python benchmarks/step_breakdown.py 5          # level 5, 60 steps
    python benchmarks/step_breakdown.py 4 --end 1.0

The timers cost about a microsecond a call: nothing at these levels.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict
from contextlib import contextmanager

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the CLI

import numpy as np  # noqa: E402

#: (module, class, method, label) of the timed parts
PARTS = [
    ("fem2d.linalg.pardiso", "PardisoFactorization", "forward", "forward"),
    ("fem2d.linalg.pardiso", "PardisoFactorization", "backward", "backward"),
    ("fem2d.contact.lagrange", "LagrangeFormulation", "solve", "contact"),
    ("fem2d.dynamics.schemes", "NewmarkScheme", "predict", "predict"),
    ("fem2d.dynamics.schemes", "NewmarkScheme", "right_hand_side", "right-hand side"),
    ("fem2d.dynamics.schemes", "TimeScheme", "end_of_step", "correct"),
    ("fem2d.dynamics.stepper", "NewmarkStepper", "step", "step"),
    ("fem2d.dynamics.history", "DirectHistory", "on_step", "history"),
    ("fem2d.dynamics.measures", "MeasureRecorder", "on_step", "measures"),
    ("fem2d.dynamics.stickslip", "StickSlipLocator", "locate", "stick/slip locator"),
]

#: time.end by level: 50 to 100 steps, before the first stick/slip event
END = {3: 1.0, 4: 1.0, 5: 0.6, 6: 0.5}


@contextmanager
def timed_parts(parts=PARTS):
    """Wrap each part's method with a timer; yields {label: [seconds, ...]}; unwraps on exit.

    The stepper keeps its factors when the march ends (``release`` does nothing), and the
    last sweep's factorisation and input are kept under ``times["last forward"]``."""
    import importlib

    from fem2d.dynamics.stepper import NewmarkStepper

    times: dict[str, list] = defaultdict(list)
    saved = [(NewmarkStepper, "release", NewmarkStepper.__dict__["release"])]
    NewmarkStepper.release = lambda self: None
    for module, cls_name, method, label in parts:
        cls = getattr(importlib.import_module(module), cls_name)
        original = cls.__dict__[method]

        def wrapper(*args, _f=original, _label=label, **kwargs):
            if _label == "forward":
                times["last forward"] = [args]  # (factorisation, right-hand side)
            t0 = time.perf_counter()
            try:
                return _f(*args, **kwargs)
            finally:
                times[_label].append(time.perf_counter() - t0)

        setattr(cls, method, wrapper)
        saved.append((cls, method, original))
    try:
        yield times
    finally:
        for cls, method, original in saved:
            setattr(cls, method, original)


def back_to_back(factor, rhs: np.ndarray, repeat: int) -> tuple[float, float]:
    """Medians (ms) of ``factor``'s forward and backward sweeps of ``rhs``, run ``repeat``
    times back to back."""
    forward, backward = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        work = factor.forward(rhs)
        t1 = time.perf_counter()
        factor.backward(work)
        forward.append(t1 - t0)
        backward.append(time.perf_counter() - t1)
    return 1e3 * float(np.median(forward)), 1e3 * float(np.median(backward))


def breakdown(level: int, end: float | None = None, repeat: int = 40) -> dict:
    """{label: (median ms per call, total ms per accepted step, calls)}, the steps, and the
    sweeps back to back (medians, ms) on the last step's factors and right-hand side."""
    from fem2d.case.build import build_analysis
    from fem2d.case.loading import load_case

    end = END.get(level, 0.5) if end is None else end
    case = load_case("sdnv104a", [f"mesh.refine={level}", f"time.end={end}", "time.extrapolate=false"])
    analysis = build_analysis(case).analysis
    with timed_parts() as times:
        result = analysis.integrate()
    last = times.pop("last forward", None)
    steps = result.timing["steps"]
    parts = {label: (1e3 * float(np.median(t)), 1e3 * sum(t) / steps, len(t)) for label, t in times.items()}
    sweeps = back_to_back(*last[0], repeat) if last and last[0][0].alive else None
    if last:
        last[0][0].free()
    return {"level": level, "steps": steps, "parts": parts, "timing": result.timing, "back_to_back": sweeps}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("level", type=int)
    parser.add_argument("--end", type=float, default=None, help="time.end (default: 50 to 100 steps)")
    parser.add_argument("--repeat", type=int, default=40, help="sweeps back to back after the run (default 40)")
    args = parser.parse_args(argv)
    out = breakdown(args.level, args.end, args.repeat)
    print(f"level {out['level']}: {out['steps']} steps, {out['timing']['n_free_dofs']} free dofs")
    print(f"{'part':20s} {'median ms':>10s} {'ms / step':>10s} {'calls':>6s}")
    for label, (median, per_step, calls) in out["parts"].items():
        print(f"{label:20s} {median:10.3f} {per_step:10.3f} {calls:6d}")
    if out["back_to_back"] is not None:
        forward, backward = out["back_to_back"]
        print(f"the same sweeps back to back, same factors and right-hand side: forward {forward:.3f} ms, "
              f"backward {backward:.3f} ms (medians of {args.repeat})")


if __name__ == "__main__":
    main()
