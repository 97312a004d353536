"""Convergence rates of Hertz line contact for each discretisation x method x element.

Two problems with Hertz's exact answer, refined by ``mesh.refine`` (h halves per level):

* ``disc``: the built-in ``hertz`` case, a steel half disc R = 50 mm pressed on a rigid plane
  by P = 3.6e6 N/m;
* ``cylinders``: two such half discs meshed apart (8 and 6 cells across each half), the lower
  one turned upside down, the contact of a disc R / 2 with E / 2 on a rigid plane.

Per run: the relative errors of the peak pressure p0 and of the half-width a against Hertz's,
and the relative L2 error of the pressure profile (the run's last ``report.pressure_at``
profile against Hertz's, centred on the computed one's mean abscissa,
:func:`fem2d.studies.profiles.profile_error`); per pair of levels, their observed orders
log2(e_l / e_l+1). A run that fails prints its one line instead.

    PYTHONPATH=$PWD python benchmarks/hertz_rates.py
    PYTHONPATH=$PWD python benchmarks/hertz_rates.py --problems disc --methods lagrange --levels 0 1 2 3 4
"""

from __future__ import annotations

import argparse
import math
import warnings

import numpy as np

import fem2d
from fem2d.exact.hertz import HertzLineContact
from fem2d.mesh.disc import half_disc
from fem2d.mesh.mesh import CellBlock, Mesh
from fem2d.studies.profiles import centre_of, exact_profile, profile_error, table_profile

RADIUS, LOAD, E, NU = 0.05, 3.6e6, 2.1e11, 0.3
METHODS = {"lagrange": fem2d.LagrangeFormulation, "penalty": fem2d.PenaltyFormulation,
           "continuous": fem2d.ContinuousFormulation}


def errors(result: fem2d.Result, exact: HertzLineContact) -> tuple[float, float, float]:
    q = result.quantities
    s, p = table_profile(*result.fields.pressure)
    profile = profile_error(s, p, exact_profile(s, exact.peak_pressure, exact.half_width, centre_of(s, p)))
    return (abs(q["peak_pressure"] / exact.peak_pressure - 1.0),
            abs(q["contact_half_width"] / exact.half_width - 1.0), profile)


def disc(level: int, element: str, method: str, discretization: str) -> tuple[float, float, float]:
    overrides = {"mesh.refine": level, "mesh.element": element, "contact.method": method,
                 "contact.discretization": discretization}
    result = fem2d.run("hertz", overrides)
    return errors(result, HertzLineContact(P=LOAD, R=RADIUS, E=E, nu=NU))


def cylinders(level: int, element: str, method: str, discretization: str) -> tuple[float, float, float]:
    up = half_disc(element, level, radius=RADIUS, cells=8, radial_cells=8, focus=0.04)
    low = half_disc(element, level, radius=RADIUS, cells=6, radial_cells=8, focus=0.05)
    groups = {f"UP_{k}": v for k, v in up.groups.items()}
    groups.update({f"LOW_{k}": CellBlock(v.kind, v.nodes + len(up.points)) for k, v in low.groups.items()})
    mesh = Mesh(np.vstack([up.points, -low.points]), groups, "two half discs")  # the lower one turned over
    formulation = METHODS[method](discretization=discretization)
    model = fem2d.Model(
        mesh, bodies=[fem2d.Body(f"{b}_DISC", E=E, nu=NU, rho=0.0) for b in ("UP", "LOW")],
        supports=[fem2d.Support("UP_AXIS", ("dx",)), fem2d.Support("LOW_AXIS", ("dx",)), fem2d.Support("LOW_TOP")],
        loads=[fem2d.Pressure("UP_TOP", LOAD / (2 * RADIUS))],
        contacts=[fem2d.Contact("UP_CONTACT", "LOW_CONTACT", method=formulation)])
    report = fem2d.Report("UP_CENTER", pressure_at=(1.0,))
    result = fem2d.StaticAnalysis(model, fem2d.TimeStepping(dt=0.5, end=1.0), report=report).run()
    return errors(result, HertzLineContact(P=LOAD, R=RADIUS / 2, E=E / 2, nu=NU))


PROBLEMS = {"disc": disc, "cylinders": cylinders}


def orders(values: list[float | None]) -> str:
    out = []
    for a, b in zip(values, values[1:]):
        out.append(f"{math.log2(a / b):5.2f}" if a and b and a > 0 and b > 0 else "    -")
    return " ".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", nargs="+", default=list(PROBLEMS), choices=list(PROBLEMS))
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS))
    parser.add_argument("--elements", nargs="+", default=["quad4", "quad8"])
    parser.add_argument("--discretizations", nargs="+", default=["node_to_segment", "mortar"])
    parser.add_argument("--levels", type=int, nargs="+", default=[0, 1, 2, 3])
    args = parser.parse_args()
    names = ("p0", "a", "L2")
    for problem in args.problems:
        for element in args.elements:
            for method in args.methods:
                for discretization in args.discretizations:
                    table: list[tuple[float, float, float] | None] = []
                    notes = []
                    for level in args.levels:
                        try:
                            with warnings.catch_warnings():
                                warnings.simplefilter("ignore")
                                table.append(PROBLEMS[problem](level, element, method, discretization))
                        except Exception as exc:  # a run that fails: its one line, the others go on
                            table.append(None)
                            notes.append(f"level {level}: {str(exc).splitlines()[0][:100]}")
                    for k, name in enumerate(names):
                        values = [row[k] if row else None for row in table]
                        shown = " ".join(f"{v:8.1e}" if v is not None else "  failed" for v in values)
                        print(f"{problem:9} {element:5} {method:10} {discretization:15} {name:3} {shown}"
                              f"   orders {orders(values)}")
                    for note in notes:
                        print(f"{'':9} {note}")


if __name__ == "__main__":
    main()
