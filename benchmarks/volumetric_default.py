"""The measurement behind ``materials[].volumetric = "auto"``: where the full element locks, and
where B-bar is no worse than it, by element, hypothesis and Poisson's ratio.

Lamé's thick cylinder of radii 1 and 2 under an internal pressure, in plane strain (a quarter
annulus, n cells across the wall and 2 n around) and in axisymmetry (the meridian rectangle
1 <= r <= 2, 0 <= z <= 0.5, n cells across and n / 2 along, u_z = 0 on both ends), and Lamé's
thick sphere (axisymmetric, the quarter annulus). Prints, for the full element and for B-bar, the
largest nodal error of the radial displacement relative to u(a)::

    PYTHONPATH=$PWD python benchmarks/volumetric_default.py          # n = 4
    PYTHONPATH=$PWD python benchmarks/volumetric_default.py 8        # n = 8
"""

from __future__ import annotations

import sys

import numpy as np

from fem2d.exact.axisymmetric import lame_cylinder, lame_sphere
from fem2d.mesh import Mesh, rectangle
from fem2d.model import Body, Model, Pressure, Support, TimeStepping
from fem2d.runs.static import StaticAnalysis

E, P, A_IN, B_OUT = 2.0e11, 1.0e8, 1.0, 2.0
NUS = (0.3, 0.4, 0.45, 0.49, 0.499, 0.4999)


def quarter_annulus(element: str, n_r: int, n_phi: int) -> Mesh:
    flat = rectangle(B_OUT - A_IN, np.pi / 2, n_r, n_phi, element, origin=(A_IN, 0.0))
    R, phi = flat.points.T
    points = np.column_stack([R * np.cos(phi), R * np.sin(phi)])
    points[np.isclose(phi, np.pi / 2), 0] = 0.0
    groups = dict(flat.groups)
    groups["INNER"], groups["XAXIS"], groups["YAXIS"] = groups["LEFT"], groups["BOTTOM"], groups["TOP"]
    return Mesh(points, groups, f"quarter annulus of {element}")


def radial_error(problem: str, element: str, n: int, nu: float, volumetric: str) -> float:
    if problem == "cylinder, axisymmetric":
        mesh = rectangle(B_OUT - A_IN, 0.5, n, max(n // 2, 1), element, origin=(A_IN, 0.0))
        supports, loads = [Support("BOTTOM", ("dy",)), Support("TOP", ("dy",))], [Pressure("LEFT", P)]
        exact, hypothesis = lame_cylinder(A_IN, B_OUT, P, 0.0, E=E, nu=nu, plane="strain"), "axisymmetric"
    else:
        mesh = quarter_annulus(element, n, 2 * n)
        supports, loads = [Support("XAXIS", ("dy",))], [Pressure("INNER", P)]
        if problem == "cylinder, plane strain":
            supports.append(Support("YAXIS", ("dx",)))
            exact, hypothesis = lame_cylinder(A_IN, B_OUT, P, 0.0, E=E, nu=nu, plane="strain"), "plane_strain"
        else:
            exact, hypothesis = lame_sphere(A_IN, B_OUT, P, 0.0, E=E, nu=nu), "axisymmetric"
    body = Body("BODY", E=E, nu=nu, rho=1.0, hypothesis=hypothesis, volumetric=volumetric)
    model = Model(mesh, bodies=[body], supports=supports, loads=loads)
    result = StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0)).run()
    u = result.fields.system.expand(result.fields.final_state.u)
    if problem == "cylinder, axisymmetric":
        R, u_radial = mesh.points[:, 0], u[0::2]
    else:
        R = np.hypot(*mesh.points.T)
        u_radial = (u[0::2] * mesh.points[:, 0] + u[1::2] * mesh.points[:, 1]) / R
    return float(np.max(np.abs(u_radial - exact.u_r(R))) / exact.u_r(A_IN))


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    print(f"n = {n} cells across the wall; largest |u_r - exact| / u_r(a), full / bbar")
    print(f"{'problem':<24} {'element':<6} " + " ".join(f"{'nu = ' + str(nu):>17}" for nu in NUS), flush=True)
    for problem in ("cylinder, axisymmetric", "cylinder, plane strain", "sphere, axisymmetric"):
        for element in ("quad4", "quad8", "quad9", "tri6"):
            cells = []
            for nu in NUS:
                full, bbar = (radial_error(problem, element, n, nu, v) for v in ("full", "bbar"))
                cells.append(f"{full:8.2e}/{bbar:8.2e}")
            print(f"{problem:<24} {element:<6} " + " ".join(cells), flush=True)


if __name__ == "__main__":
    main()
