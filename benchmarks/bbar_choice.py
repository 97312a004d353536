"""The measurement behind ``materials[].volumetric = "bbar"``: B-bar against selective reduced
integration, and the pressure space of each element, on Lamé's thick cylinder (plane strain) and
thick sphere (axisymmetric) of radii 1 and 2 under internal pressure, at nu = 0.4999.

Prints the largest nodal error of the radial displacement relative to u(a), for n = 2, 4, 8 cells
across the wall (2 n around the quarter), and the observed orders::

    PYTHONPATH=$PWD python benchmarks/bbar_choice.py
"""

from __future__ import annotations

from unittest import mock

import numpy as np

import fem2d.fe.bbar as bbar
from fem2d.exact.axisymmetric import lame_cylinder, lame_sphere
from fem2d.fe.axisymmetric import radial_weights
from fem2d.fe.geometry import cell_geometry
from fem2d.fe.quadrature import QuadratureRule, gauss_rule
from fem2d.mesh import Mesh, rectangle
from fem2d.model import Body, Model, Pressure, Support, TimeStepping
from fem2d.runs.static import StaticAnalysis

E, P, A_IN, B_OUT, NU = 2.0e11, 1.0e8, 1.0, 2.0, 0.4999


def quarter_annulus(element: str, n_r: int, n_phi: int) -> Mesh:
    flat = rectangle(B_OUT - A_IN, np.pi / 2, n_r, n_phi, element, origin=(A_IN, 0.0))
    R, phi = flat.points.T
    points = np.column_stack([R * np.cos(phi), R * np.sin(phi)])
    points[np.isclose(phi, np.pi / 2), 0] = 0.0
    groups = dict(flat.groups)
    groups["INNER"], groups["XAXIS"], groups["YAXIS"] = groups["LEFT"], groups["BOTTOM"], groups["TOP"]
    return Mesh(points, groups, f"quarter annulus of {element}")


def radial_error(element: str, n: int, hypothesis: str) -> float:
    mesh = quarter_annulus(element, n, 2 * n)
    supports = [Support("XAXIS", ("dy",))]
    if hypothesis == "plane_strain":
        supports.append(Support("YAXIS", ("dx",)))
        exact = lame_cylinder(A_IN, B_OUT, P, 0.0, E=E, nu=NU, plane="strain")
    else:
        exact = lame_sphere(A_IN, B_OUT, P, 0.0, E=E, nu=NU)
    body = Body("BODY", E=E, nu=NU, rho=1.0, hypothesis=hypothesis, volumetric="bbar")
    model = Model(mesh, bodies=[body], supports=supports, loads=[Pressure("INNER", P)])
    result = StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0)).run()
    u = result.fields.system.expand(result.fields.final_state.u)
    R = np.hypot(*mesh.points.T)
    u_radial = (u[0::2] * mesh.points[:, 0] + u[1::2] * mesh.points[:, 1]) / R
    return float(np.max(np.abs(u_radial - exact.u_r(R))) / exact.u_r(A_IN))


def reduced_integration(points, block, E, nu, hypothesis="plane_strain", thickness=1.0, group=None):
    """Selective reduced integration: the deviatoric part by the full rule, the bulk part
    kappa (m^T B)^2 by the reduced one (QUAD4 centroid, QUAD8 2 x 2, TRI6 one point)."""
    axi = hypothesis == "axisymmetric"
    mu, kappa, m = E / (2 * (1 + nu)), E / (3 * (1 - 2 * nu)), np.array([1.0, 1.0, 0.0, 1.0])
    geo = cell_geometry(points, block, None, group)
    B = bbar._strains(geo, axi)
    dev = B - m[None, None, :, None] * np.einsum("m,cqmj->cqj", m, B)[:, :, None, :] / 3
    dv = geo.dx * (radial_weights(geo.x) if axi else thickness)
    K = np.einsum("cqmi,mn,cqnj,cq->cij", dev, np.diag([2 * mu, 2 * mu, mu, 2 * mu]), dev, dv)
    reduced = {"quad4": QuadratureRule(np.zeros((1, 2)), np.array([4.0])), "quad8": gauss_rule("quad8", 2),
               "tri6": gauss_rule("tri6", 1)}[block.kind]
    geo = cell_geometry(points, block, reduced, group)
    b = np.einsum("m,cqmj->cqj", m, bbar._strains(geo, axi))
    return K + kappa * np.einsum("cqi,cqj,cq->cij", b, b, geo.dx * (radial_weights(geo.x) if axi else thickness))


def row(label: str, element: str, hypothesis: str) -> None:
    errors = np.array([radial_error(element, n, hypothesis) for n in (2, 4, 8)])
    orders = np.log2(errors[:-1] / errors[1:])
    print(f"{label:<28} {element:<6} {hypothesis:<13} " + " ".join(f"{e:9.3e}" for e in errors)
          + "   orders " + " ".join(f"{o:4.2f}" for o in orders), flush=True)


def main() -> None:
    for hypothesis in ("plane_strain", "axisymmetric"):
        for element in ("quad4", "quad8", "tri6"):
            row("B-bar (as shipped)", element, hypothesis)
            with mock.patch("fem2d.model.bodies.bbar_stiffness_matrices", reduced_integration):
                row("selective reduced", element, hypothesis)
        other = {"tri6": bbar._linear, "quad8": bbar._constant}
        for element, basis in other.items():
            with mock.patch.dict(bbar.PRESSURE_BASIS, {element: basis}):
                row(f"B-bar, {basis.__name__[1:]} pressure", element, hypothesis)


if __name__ == "__main__":
    main()
