"""Observed order in time of SDNV104 against the exact rigid block.

For each modelisation and step size: the largest error of DX(A) over the run
(every step, through both slip reversals), the errors of x(1.70) and x(3.40)
(the exact values computed for the run's settings, fem2d/case/exact_models.py),
and the order observed between consecutive step sizes. The default step sizes
divide the 0.07 s ramp of the loads.

Each step size is run once (``extrapolated`` no: ``time.extrapolate = false``)
and Richardson-extrapolated from it and its half (yes: the cases' default,
three times the steps); ``--extrapolate off|on`` keeps one of them. The
extrapolated error settles at the finite-element block's own distance to the
rigid one (its elastic strain, ~4e-6 m at 1.70 s), so its order is also
observed on the change of x(1.70) between consecutive step sizes
(``change order``), which that distance does not enter.

Usage::

    python benchmarks/sdnv104_order.py                          # the five modelisations
    python benchmarks/sdnv104_order.py --cases sdnv104a --dts 0.014,0.007,0.0035,0.00175
    python benchmarks/sdnv104_order.py --set time.stick_slip=false   # the events not located
    python benchmarks/sdnv104_order.py --extrapolate on --dts 0.035,0.0175,0.00875
"""

from __future__ import annotations

import argparse
import tomllib

import numpy as np

import fem2d
import fem2d.case.loading  # noqa: F401  (loads the case layer before its exact models)
from fem2d.case.exact_models import sliding_block


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="sdnv104a,sdnv104b,sdnv104c,sdnv104d,sdnv104e")
    parser.add_argument("--dts", default="0.014,0.01,0.007,0.005")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--extrapolate", choices=("off", "on", "both"), default="both",
                        help="one run per step size (off), Richardson-extrapolated (on), or both")
    args = parser.parse_args()
    overrides = {}
    for item in args.set:
        key, value = item.split("=", 1)
        overrides[key] = tomllib.loads(f"v = {value}")["v"]
    dts = [float(x) for x in args.dts.split(",")]
    modes = {"off": [False], "on": [True], "both": [False, True]}[args.extrapolate]
    print(f"{'case':<9} {'extrapolated':>12} {'dt':>7} {'max error':>10} {'order':>6} {'x(1.70)':>10} "
          f"{'x(3.40)':>10} {'change order':>12} {'reversals':>9} {'steps':>6} {'wall s':>6}")
    for case in args.cases.split(","):
        for extrapolate in modes:
            previous, changes = None, []
            for dt in dts:
                r = fem2d.run(case, {**overrides, "time.dt": dt, "time.extrapolate": extrapolate})
                reference = sliding_block(r.case, r.fields.system)
                h = r.histories
                error = float(np.max(np.abs(h["u"] - reference.curve(h["time"]))))
                q = r.quantities
                e17 = q["x_at_1.70"] - reference.value("x_at_1.70")
                e34 = q["x_at_3.40"] - reference.value("x_at_3.40")
                order = np.log(previous[1] / error) / np.log(previous[0] / dt) if previous else float("nan")
                changes.append((dt, q["x_at_1.70"]))
                change_order = float("nan")
                if len(changes) >= 3:  # |x(h1) - x(h2)| / |x(h2) - x(h3)| against h1 / h2
                    (h1, x1), (h2, x2), (_, x3) = changes[-3:]
                    change_order = np.log(abs((x1 - x2) / (x2 - x3))) / np.log(h1 / h2)
                print(f"{case:<9} {'yes' if extrapolate else 'no':>12} {dt:7.4g} {error:10.3e} {order:6.2f} "
                      f"{e17:+10.2e} {e34:+10.2e} {change_order:12.2f} {r.timing['events_reversals']:9d} "
                      f"{r.timing['steps']:6d} {r.timing['wall_s']:6.1f}", flush=True)
                for warning in r.warnings:
                    print(f"  warning: {warning}")
                previous = (dt, error)


if __name__ == "__main__":
    main()
