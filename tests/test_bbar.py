"""Nearly incompressible bodies without volumetric locking: B-bar (``volumetric = "bbar"``)
against closed forms, in plane strain and in axisymmetry."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse.linalg as spla
from test_fe_patch import boundary_nodes, distorted

from fem2d.errors import InputError, ModelError
from fem2d.exact.axisymmetric import lame_cylinder, lame_sphere
from fem2d.fe import assemble_matrix, node_dofs
from fem2d.fe.axisymmetric import axisymmetric_elasticity_matrix
from fem2d.fe.bbar import bbar_cell_nodal_stresses, bbar_gauss_strains, bbar_stiffness_matrices
from fem2d.mesh import Mesh, rectangle
from fem2d.model import Body, Model, Pressure, Support, TimeStepping
from fem2d.runs.static import StaticAnalysis

E, P, A_IN, B_OUT = 2.0e11, 1.0e8, 1.0, 2.0


# --- (a) patch tests -----------------------------------------------------------------------------


@pytest.mark.parametrize("element", ["quad4", "quad8", "quad9", "tri6"])
@pytest.mark.parametrize("hypothesis", ["plane_strain", "axisymmetric"])
def test_patch_test_is_exact_with_bbar(element, hypothesis):
    """A distorted patch (curved edges for the quadratic cells), boundary nodes at a linear field
    (u_r = a r, u_z = b z in axisymmetry, its left side on the axis): the interior nodes and the
    stresses at every node come out exact at nu = 0.4999."""
    nu = 0.4999
    mesh = distorted(element, curved=element != "quad4")
    block = mesh.group("BODY")
    n = 2 * mesh.n_nodes
    x, y = mesh.points.T
    if hypothesis == "axisymmetric":
        a, b = 1.0e-3, -2.0e-3
        exact, strain = np.column_stack([a * x, b * y]).ravel(), np.array([a, b, 0.0, a])
    else:
        exact = np.column_stack([1e-3 * x + 2e-3 * y, -5e-4 * x + 3e-3 * y]).ravel()
        strain = np.array([1e-3, 3e-3, 1.5e-3, 0.0])
    K = assemble_matrix(bbar_stiffness_matrices(mesh.points, block, E, nu, hypothesis), node_dofs(block.nodes), n)
    fixed = node_dofs(boundary_nodes(mesh)[:, None]).ravel()
    free = np.setdiff1d(np.arange(n), fixed)
    u = exact.copy()
    K = K.tocsc()
    u[free] = spla.spsolve(K[free][:, free], -K[free][:, fixed] @ exact[fixed])
    assert np.max(np.abs(u - exact)) < 1e-9 * np.max(np.abs(exact))
    sigma = axisymmetric_elasticity_matrix(E, nu) @ strain
    stress = bbar_cell_nodal_stresses(mesh.points, block, u, E, nu, hypothesis)
    assert np.max(np.abs(stress - sigma)) < 1e-6 * np.max(np.abs(sigma))


# --- (b)-(e) thick cylinder and thick sphere under internal pressure -------------------------------


def quarter_annulus(element, n_r, n_phi):
    """The quarter a <= R <= b, 0 <= phi <= pi/2 of ``element`` cells, mapped from a rectangle
    (its quadratic nodes on the arcs); INNER the edges at R = a, XAXIS the nodes at y = 0,
    YAXIS those at x = 0."""
    flat = rectangle(B_OUT - A_IN, np.pi / 2, n_r, n_phi, element, origin=(A_IN, 0.0))
    R, phi = flat.points.T
    points = np.column_stack([R * np.cos(phi), R * np.sin(phi)])
    points[np.isclose(phi, np.pi / 2), 0] = 0.0
    groups = dict(flat.groups)
    groups["INNER"], groups["XAXIS"], groups["YAXIS"] = groups["LEFT"], groups["BOTTOM"], groups["TOP"]
    return Mesh(points, groups, f"quarter annulus of {element}")


def radial_error(element, n, nu, volumetric, hypothesis="plane_strain"):
    """The largest error of the radial displacement at the nodes, relative to u(a), of a thick
    cylinder (plane strain) or sphere (axisymmetric) of radii 1 and 2 under the pressure P inside,
    meshed with n cells across the wall and 2 n around the quarter."""
    mesh = quarter_annulus(element, n, 2 * n)
    supports = [Support("XAXIS", ("dy",))]
    if hypothesis == "plane_strain":
        supports.append(Support("YAXIS", ("dx",)))  # (the axisymmetric model holds u_r = 0 on the axis)
        exact = lame_cylinder(A_IN, B_OUT, P, 0.0, E=E, nu=nu, plane="strain")
    else:
        exact = lame_sphere(A_IN, B_OUT, P, 0.0, E=E, nu=nu)
    body = Body("BODY", E=E, nu=nu, rho=1.0, hypothesis=hypothesis, volumetric=volumetric)
    model = Model(mesh, bodies=[body], supports=supports, loads=[Pressure("INNER", P)])
    result = StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0)).run()
    u = result.fields.system.expand(result.fields.final_state.u)
    R = np.hypot(*mesh.points.T)
    u_radial = (u[0::2] * mesh.points[:, 0] + u[1::2] * mesh.points[:, 1]) / R
    return float(np.max(np.abs(u_radial - exact.u_r(R))) / exact.u_r(A_IN))


@pytest.mark.parametrize("nu", [0.3, 0.49, 0.4999])
def test_thick_cylinder_in_plane_strain_locks_with_full_and_not_with_bbar(nu):
    """QUAD4, 4 cells across the wall: "full" locks as nu nears 1/2 (its error grows to over
    10 % at nu = 0.4999: the wall barely moves), "bbar" stays within 1 % of Lamé at every nu."""
    full, bbar = radial_error("quad4", 4, nu, "full"), radial_error("quad4", 4, nu, "bbar")
    assert bbar < 1e-2, bbar
    if nu == 0.3:
        assert full < 2e-2, full
    if nu == 0.4999:
        assert full > 0.1, full  # locking: shown, then cured
        assert full > 10 * bbar


def test_thick_sphere_in_axisymmetry_with_bbar_at_nu_4999():
    """The axisymmetric meridian section of a thick sphere, QUAD4, 8 x 16 cells, nu = 0.4999:
    within 1 % of Lamé with "bbar", where "full" is off by far more than 10 %."""
    assert radial_error("quad4", 8, 0.4999, "bbar", "axisymmetric") < 1e-2
    assert radial_error("quad4", 8, 0.4999, "full", "axisymmetric") > 0.1


@pytest.mark.parametrize("hypothesis", ["plane_strain", "axisymmetric"])
def test_bbar_quad4_converges_as_h_squared_at_nu_4999(hypothesis):
    """The nodal radial-displacement error of B-bar QUAD4 at nu = 0.4999 falls as h^2
    (observed orders between 1.8 and 2.2 over three meshes)."""
    errors = np.array([radial_error("quad4", n, 0.4999, "bbar", hypothesis) for n in (2, 4, 8)])
    orders = np.log2(errors[:-1] / errors[1:])
    assert np.all((orders > 1.8) & (orders < 2.2)), (errors, orders)


@pytest.mark.parametrize("element", ["quad8", "tri6"])
@pytest.mark.parametrize("hypothesis", ["plane_strain", "axisymmetric"])
def test_quadratic_cells_with_bbar_at_nu_4999(element, hypothesis):
    """QUAD8 (linear pressure per cell) and TRI6 (constant pressure per cell), 4 x 8 cells, at
    nu = 0.4999: within 1 % of Lamé with "bbar", and better than "full" by a factor 10 or more."""
    bbar = radial_error(element, 4, 0.4999, "bbar", hypothesis)
    assert bbar < 1e-2
    assert radial_error(element, 4, 0.4999, "full", hypothesis) > 10 * bbar


def test_full_is_unchanged_and_bbar_changes_only_the_volumetric_part():
    """At nu = 0.3 the default ("auto") is "full" (the stiffness of today); B-bar's stiffness differs
    from it, but both give the same energy to a field without dilatation (a pure shear u = (y, 0))."""
    mesh = distorted("quad4")
    block = mesh.group("BODY")
    body = Body("BODY", E=E, nu=0.3, rho=1.0)
    assert body.volumetric == "auto" and body.volumetric_of("quad4") == "full"
    k_full = body.element_matrices(mesh)[0][0]
    assert np.array_equal(k_full, Body("BODY", E=E, nu=0.3, rho=1.0, volumetric="full").element_matrices(mesh)[0][0])
    k_bbar = Body("BODY", E=E, nu=0.3, rho=1.0, volumetric="bbar").element_matrices(mesh)[0][0]
    shear = np.column_stack([mesh.points[:, 1], 0 * mesh.points[:, 1]]).ravel()[node_dofs(block.nodes)]
    assert np.allclose(np.einsum("ci,cij,cj->c", shear, k_full, shear),
                       np.einsum("ci,cij,cj->c", shear, k_bbar, shear), rtol=1e-12)
    assert not np.allclose(k_full, k_bbar)


def test_pressure_is_the_bulk_modulus_times_the_averaged_dilatation():
    """The mean stress recovered at a B-bar cell's nodes is kappa times its projected dilatation
    (for QUAD4: the cell's mean dilatation, the same at each of its nodes)."""
    mesh = distorted("quad4")
    block = mesh.group("BODY")
    u = np.random.default_rng(1).normal(size=2 * mesh.n_nodes) * 1e-4
    nu = 0.45
    stress = bbar_cell_nodal_stresses(mesh.points, block, u, E, nu)
    strain = bbar_gauss_strains(mesh.points, block, u)
    theta = strain[..., [0, 1, 3]].sum(axis=-1)
    assert np.allclose(theta, theta[:, :1])  # a constant per cell
    kappa = E / (3 * (1 - 2 * nu))
    assert np.allclose(stress[..., [0, 1, 3]].sum(axis=-1) / 3, kappa * theta[:, :1], rtol=1e-10)


@pytest.mark.parametrize("element", ["quad4", "quad8", "tri6"])
def test_the_vtu_pressure_of_the_thick_cylinder_at_nu_4999(element):
    """The mean stress of the VTU snapshots' nodal stresses, -(sxx + syy + szz) / 3, on the
    thick cylinder at nu = 0.4999 (8 x 16 cells): Lamé's pressure -2 A (1 + nu) / 3 within
    0.2 % of p with "bbar", where "full" gives it wrong by more than p itself."""
    from fem2d.io.vtu import nodal_stress_field

    nu = 0.4999
    exact = lame_cylinder(A_IN, B_OUT, P, 0.0, E=E, nu=nu, plane="strain")
    errors = {}
    for volumetric in ("full", "bbar"):
        mesh = quarter_annulus(element, 8, 16)
        model = Model(mesh, bodies=[Body("BODY", E=E, nu=nu, rho=1.0, volumetric=volumetric)],
                      supports=[Support("XAXIS", ("dy",)), Support("YAXIS", ("dx",))], loads=[Pressure("INNER", P)])
        result = StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0)).run()
        stress = nodal_stress_field(model, result.fields.system.expand(result.fields.final_state.u))
        pressure = -(stress[:, 0] + stress[:, 1] + stress[:, 3]) / 3
        errors[volumetric] = np.max(np.abs(pressure + 2 * exact.A * (1 + nu) / 3)) / P
    assert errors["bbar"] < 2e-3 and errors["full"] > 1.0, errors


def test_bad_volumetric_values_are_refused():
    mesh = rectangle(1.0, 1.0, 2, 2, "tri3")
    with pytest.raises(ModelError, match=r"volumetric: expected one of 'auto', 'full', 'bbar', got 'mixed'"):
        Body("BODY", E=E, nu=0.3, rho=1.0, volumetric="mixed")
    with pytest.raises(ModelError, match=r"volumetric: B-bar serves plane_strain and axisymmetric bodies"):
        Body("BODY", E=E, nu=0.3, rho=1.0, hypothesis="plane_stress", volumetric="bbar")
    with pytest.raises(ModelError, match=r"volumetric: group 'BODY': TRI3 cells cannot be freed"):
        Body("BODY", E=E, nu=0.3, rho=1.0, volumetric="bbar").element_matrices(mesh)
    with pytest.raises(ModelError, match=r"nu: 0.4999 on the TRI3 cells of group 'BODY': above 0.49"):
        Body("BODY", E=E, nu=0.4999, rho=1.0).element_matrices(mesh)
    Body("BODY", E=E, nu=0.4999, rho=1.0, hypothesis="plane_stress").element_matrices(mesh)  # no locking there
    with pytest.raises(InputError, match="TRI3 cells cannot"):
        bbar_stiffness_matrices(mesh.points, mesh.group("BODY"), E, 0.3)


CASE = """
[case]
name = "column"
kind = "static"

[mesh]
geometry = "rectangle"
element = "{element}"
params = {{ length = 0.2, height = 1.0, nx = 2, ny = 4 }}

[model]
hypothesis = "axisymmetric"

[[materials]]
group = "BODY"
E = 1.0e9
nu = {nu}
rho = 1.0
volumetric = "{volumetric}"

[[supports]]
group = "BOTTOM"
dofs = ["dy"]

[[loads]]
type = "pressure"
group = "TOP"
value = 1.0e6

[time]
dt = 1.0
end = 1.0

[report]
node = "NE"
component = "dy"
at_times = [1.0]
"""


def column_case(tmp_path, element="quad4", nu=0.4999, volumetric="bbar"):
    path = tmp_path / "column.toml"
    path.write_text(CASE.format(element=element, nu=nu, volumetric=volumetric))
    return path


def test_a_bbar_case_runs_and_a_column_at_nu_4999_shortens_by_p_l_over_e(tmp_path):
    """A solid column on the axis, nu = 0.4999, ``volumetric = "bbar"``, 1 MPa on its top: it
    shortens by p L / E (uniaxial stress, free to bulge), exactly."""
    from fem2d.runs.result import run

    result = run(column_case(tmp_path))
    assert result.quantities["x_at_1.00"] == pytest.approx(-1.0e6 * 1.0 / 1.0e9, rel=1e-9)


@pytest.mark.parametrize("element, nu, volumetric, key", [
    ("quad4", 0.3, "mixed", "materials[0].volumetric"),
    ("tri3", 0.3, "bbar", "materials[0].volumetric"),
    ("tri3", 0.4999, "full", "materials[0].nu"),
])
def test_case_refusals_are_one_line_naming_the_key(tmp_path, element, nu, volumetric, key):
    import os
    import subprocess
    import sys
    from pathlib import Path

    path = column_case(tmp_path, element, nu, volumetric)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}  # this checkout's fem2d
    proc = subprocess.run([sys.executable, "-m", "fem2d.cli", "run", str(path), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, env=env)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and f"{path}: {key}:" in lines[0], proc.stderr
