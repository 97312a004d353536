"""The time schemes on a block pressed on a rigid plane and pushed sideways beyond mu N:
the motion, the energy created, the contacts counted and the largest normal force, per
scheme and variant (the table of docs/theory/time-schemes.md, "Sliding under load").

    PYTHONPATH=$PWD python benchmarks/auto_scheme_battery.py
    PYTHONPATH=$PWD python benchmarks/auto_scheme_battery.py --variants "time.dt=1e-5" "mesh.element=quad4"

The block: 0.2 x 0.1 m, E = 2e9 Pa, nu = 0.3, rho = 2000, QUAD8 8 x 4 cells, 1e6 Pa on its
top ramped over 0.01 s, 8e5 Pa on its left face ramped from 0.01 to 0.02 s, mu = 0.3,
dt = 1e-4 s to 0.05 s. The rigid block reaches x(0.05) = 0.244271 m.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from dataclasses import replace
from pathlib import Path

from fem2d.case.build import build_analysis
from fem2d.case.loading import load_case
from fem2d.dynamics.schemes import NewmarkScheme

CASE = """
[case]
name = "push_block"
kind = "direct"
[mesh]
geometry = "rectangle"
element = "quad8"
params = { length = 0.2, height = 0.1, nx = 8, ny = 4 }
[[materials]]
group = "BODY"
E = 2.0e9
nu = 0.3
rho = 2000.0
[[loads]]
type = "pressure"
group = "TOP"
value = 1.0e6
function = "press"
[[loads]]
type = "pressure"
group = "LEFT"
value = 8.0e5
function = "push"
[functions.press]
type = "piecewise_linear"
t = [0.0, 0.01]
values = [0.0, 1.0]
[functions.push]
type = "piecewise_linear"
t = [0.0, 0.01, 0.02]
values = [0.0, 0.0, 1.0]
[contact]
slave = "BOTTOM"
plane = { point = [0.0, 0.0], normal = [0.0, 1.0] }
mu = 0.3
[time]
dt = 1.0e-4
end = 0.05
[report]
node = "SW"
component = "dx"
at_times = [0.05]
"""

#: label -> (scheme or None for the case's own time.scheme, on the modified mass, overrides)
SCHEMES = {
    "auto": (None, False, []),
    "average acceleration, modified mass": (None, False, ['time.scheme="modified_mass"']),
    "the same, events": (None, False, ['time.scheme="modified_mass"', "time.events=true"]),
    "generalized-alpha 0.9": (NewmarkScheme.generalized_alpha(0.9), False, []),
    "generalized-alpha 0.7": (NewmarkScheme.generalized_alpha(0.7), False, []),
    "generalized-alpha 0.5": (NewmarkScheme.generalized_alpha(0.5), False, []),
    "generalized-alpha 0.3, modified mass": (NewmarkScheme.generalized_alpha(0.3), True, []),
    "generalized-alpha 0, modified mass": (NewmarkScheme.generalized_alpha(0.0), True, []),
}


def measure(path: Path, scheme, modified: bool, overrides: list[str]) -> dict:
    analysis = build_analysis(load_case(path, overrides)).analysis
    if scheme is not None:
        analysis = replace(analysis, scheme=scheme, modified_mass=modified)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = analysis.run()
    q = result.quantities
    return {"x": q["x_at_0.05"], "created": q["energy_growth"], "contacts": int(q.get("n_impacts", 0)),
            "force": q["f_n_max"] / 2e5, "chatter": int(q.get("chatter_openings", 0)),
            "wall": time.perf_counter() - start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="*", default=[""], help="--set pairs, comma-separated, per variant")
    parser.add_argument("--schemes", nargs="*", default=list(SCHEMES), help="labels of SCHEMES")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "push_block.toml"
        path.write_text(CASE)
        print("| variant | scheme | x(0.05) | energy created / work | contacts | chatter openings "
              "| largest normal force / static | wall s |")
        print("|---|---|---|---|---|---|---|---|")
        for variant in args.variants:
            sets = [s for s in variant.split(",") if s]
            for label in args.schemes:
                scheme, modified, own = SCHEMES[label]
                m = measure(path, scheme, modified, [*own, *sets])
                print(f"| {variant or 'as given'} | {label} | {m['x']:.6f} | {m['created']:.2g} | {m['contacts']} "
                      f"| {m['chatter']} | {m['force']:.3g} | {m['wall']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
