"""Observed order in time of SDNV104 against the exact rigid block.

For each modelisation and step size: the largest error of DX(A) over the run
(every step, through both slip reversals), the errors of x(1.70) and x(3.40)
(the exact values computed for the run's settings, fem2d/case/exact_models.py),
and the order observed between consecutive step sizes. The default step sizes
divide the 0.07 s ramp of the loads.

Usage::

    python benchmarks/sdnv104_order.py                          # the five modelisations
    python benchmarks/sdnv104_order.py --cases sdnv104a --dts 0.014,0.007,0.0035,0.00175
    python benchmarks/sdnv104_order.py --set time.stick_slip=false   # the events not located
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
    args = parser.parse_args()
    overrides = {}
    for item in args.set:
        key, value = item.split("=", 1)
        overrides[key] = tomllib.loads(f"v = {value}")["v"]
    dts = [float(x) for x in args.dts.split(",")]
    print(f"{'case':<9} {'dt':>7} {'max error':>10} {'order':>6} {'x(1.70)':>10} {'x(3.40)':>10} "
          f"{'reversals':>9} {'wall s':>6}")
    for case in args.cases.split(","):
        previous = None
        for dt in dts:
            r = fem2d.run(case, {**overrides, "time.dt": dt})
            reference = sliding_block(r.case, r.fields.system)
            h = r.histories
            error = float(np.max(np.abs(h["u"] - reference.curve(h["time"]))))
            q = r.quantities
            e17 = q["x_at_1.70"] - reference.value("x_at_1.70")
            e34 = q["x_at_3.40"] - reference.value("x_at_3.40")
            order = np.log(previous[1] / error) / np.log(previous[0] / dt) if previous else float("nan")
            print(f"{case:<9} {dt:7.4g} {error:10.3e} {order:6.2f} {e17:+10.2e} {e34:+10.2e} "
                  f"{r.timing['events_reversals']:9d} {r.timing['wall_s']:6.1f}", flush=True)
            previous = (dt, error)


if __name__ == "__main__":
    main()
