"""Axisymmetric bodies (x the radius r, y the axis z) against exact answers: patch tests of
every element, Lamé's thick cylinder and sphere under internal pressure (with the observed
order of convergence), the mass of a solid of revolution, a free-free cylinder's axial
modes; and the refusals (r < 0, mixed hypotheses, continuous contact, thickness)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse.linalg as spla
from test_fe_patch import distorted

from fem2d.errors import InputError, ModelError
from fem2d.fe import (
    assemble_matrix,
    axisymmetric_cell_nodal_stresses,
    axisymmetric_gauss_stresses,
    axisymmetric_stiffness_matrices,
    elasticity_matrix,
    mass_matrices,
    node_dofs,
    pressure_load,
    traction_load,
)
from fem2d.mesh import Mesh, rectangle
from fem2d.mesh.mesh import CellBlock
from fem2d.model import Body, Contact, Model, PointForce, Pressure, RigidPlane, Support, TimeStepping
from fem2d.runs.static import StaticAnalysis

E, NU = 2.0e11, 0.3
ELEMENTS = ["tri3", "tri6", "quad4", "quad8", "quad9"]


# --- (a) patch tests ------------------------------------------------------------------------

A_R, B_Z = 1.0e-3, -2.0e-3  # u_r = A_R r, u_z = B_Z z: eps_rr = eps_tt = A_R, eps_zz = B_Z


def boundary_nodes(mesh):
    return np.unique(np.concatenate([mesh.group_nodes(g) for g in ("BOTTOM", "RIGHT", "TOP", "LEFT")]))


@pytest.mark.parametrize("element", ELEMENTS)
def test_patch_uniform_radial_and_axial_strain_is_exact(element):
    """A distorted patch 0 <= r <= 2 (its left side on the axis), boundary nodes at the exact
    u_r = a r, u_z = b z: every interior node and the stresses come out exact."""
    mesh = distorted(element)
    D = elasticity_matrix(E, NU, "axisymmetric")
    block = mesh.group("BODY")
    n = 2 * mesh.n_nodes
    K = assemble_matrix(axisymmetric_stiffness_matrices(mesh.points, block, D), node_dofs(block.nodes), n).tocsc()
    exact = np.column_stack([A_R * mesh.points[:, 0], B_Z * mesh.points[:, 1]]).ravel()
    fixed = node_dofs(boundary_nodes(mesh)[:, None]).ravel()
    free = np.setdiff1d(np.arange(n), fixed)
    u = exact.copy()
    u[free] = spla.spsolve(K[free][:, free], -K[free][:, fixed] @ exact[fixed])
    assert np.max(np.abs(u - exact)) < 1e-12 * np.max(np.abs(exact))
    sigma = D @ np.array([A_R, B_Z, 0.0, A_R])
    for stress in (axisymmetric_gauss_stresses(mesh.points, block, u, D),
                   axisymmetric_cell_nodal_stresses(mesh.points, block, u, D)):  # the axis nodes by the limit
        assert np.max(np.abs(stress - sigma)) < 1e-9 * np.max(np.abs(sigma))


@pytest.mark.parametrize("element", ["quad4", "quad8", "tri6"])
def test_patch_loaded_by_the_exact_tractions(element):
    """Traction patch test: the ring 0.5 <= r <= 2.5 loaded by the tractions of the uniform
    stress (sigma_rr = sigma_tt, sigma_zz), held only against the rigid z motion, gives
    u_r = a r exactly: the 2 pi r weights of the loads match those of the stiffness."""
    mesh = rectangle(2.0, 1.5, 4, 3, element, origin=(0.5, 0.0))
    D = elasticity_matrix(E, NU, "axisymmetric")
    s_rr, s_zz, _, _ = D @ np.array([A_R, B_Z, 0.0, A_R])
    block = mesh.group("BODY")
    n = 2 * mesh.n_nodes
    K = assemble_matrix(axisymmetric_stiffness_matrices(mesh.points, block, D), node_dofs(block.nodes), n).tocsc()
    f = (traction_load(mesh, "RIGHT", (s_rr, 0.0), axisymmetric=True)
         + traction_load(mesh, "LEFT", (-s_rr, 0.0), axisymmetric=True)
         + traction_load(mesh, "TOP", (0.0, s_zz), axisymmetric=True)
         + pressure_load(mesh, "BOTTOM", -s_zz, axisymmetric=True))  # traction -sigma_zz e_z: a pressure -sigma_zz
    fixed = np.array([2 * int(mesh.group_nodes("SW")[0]) + 1])  # u_z = 0 at one node of z = 0
    free = np.setdiff1d(np.arange(n), fixed)
    u = np.zeros(n)
    u[free] = spla.spsolve(K[free][:, free], f[free])
    exact = np.column_stack([A_R * mesh.points[:, 0], B_Z * mesh.points[:, 1]]).ravel()
    assert np.max(np.abs(u - exact)) < 1e-10 * np.max(np.abs(exact))


# --- (b) Lamé: thick cylinder and thick sphere under internal pressure -----------------------

P, A_IN, B_OUT = 1.0e8, 1.0, 2.0


def lame_cylinder(r):
    """Plane-strain thick cylinder: u_r = A r + B / r."""
    c = P * A_IN**2 * (1 + NU) / (E * (B_OUT**2 - A_IN**2))
    return c * (1 - 2 * NU) * r + c * B_OUT**2 / r


def lame_sphere(r):
    """Thick sphere: u(R) = p a^3 / (E (b^3 - a^3)) ((1 - 2 nu) R + (1 + nu) b^3 / (2 R^2))."""
    return P * A_IN**3 / (E * (B_OUT**3 - A_IN**3)) * ((1 - 2 * NU) * r + (1 + NU) * B_OUT**3 / (2 * r**2))


def static_u(model):
    result = StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0)).run()
    return result.fields.system.expand(result.fields.final_state.u)


@pytest.mark.parametrize("element", ELEMENTS)
def test_thick_cylinder_in_plane_strain_against_lame(element):
    """The section a <= r <= b of a long pipe, u_z = 0 held everywhere, pressure p inside."""
    mesh = rectangle(B_OUT - A_IN, 0.25, 8, 1, element, origin=(A_IN, 0.0))
    model = Model(mesh, bodies=[Body("BODY", E=E, nu=NU, rho=1.0, hypothesis="axisymmetric")],
                  supports=[Support("BODY", ("dy",))], loads=[Pressure("LEFT", P)])
    u = static_u(model)
    r = mesh.points[:, 0]
    tolerance = {"tri3": 1e-2, "quad4": 5e-3, "tri6": 3e-4}.get(element, 1e-4)  # 8 cells across the wall
    assert np.max(np.abs(u[0::2] - lame_cylinder(r))) < tolerance * lame_cylinder(A_IN)


def quarter_annulus(n_r, n_phi):
    """QUAD4 cells of a sphere's meridian section a <= R <= b, 0 <= phi <= pi/2 (x = R cos phi
    the radius, y = R sin phi the axis); groups BODY, INNER (edges), AXIS (x = 0) and
    EQUATOR (y = 0) nodes."""
    R, phi = np.meshgrid(np.linspace(A_IN, B_OUT, n_r + 1), np.linspace(0.0, np.pi / 2, n_phi + 1))
    points = np.column_stack([(R * np.cos(phi)).ravel(), (R * np.sin(phi)).ravel()])
    points[np.isclose(points[:, 0], 0.0, atol=1e-12), 0] = 0.0
    ids = np.arange(points.shape[0]).reshape(n_phi + 1, n_r + 1)
    cells = np.column_stack([ids[:-1, :-1].ravel(), ids[:-1, 1:].ravel(), ids[1:, 1:].ravel(), ids[1:, :-1].ravel()])
    inner = ids[::-1, 0]
    groups = {"BODY": CellBlock("quad4", cells), "INNER": CellBlock("seg2", np.column_stack([inner[:-1], inner[1:]])),
              "AXIS": CellBlock("point", ids[-1, :, None]), "EQUATOR": CellBlock("point", ids[0, :, None])}
    return Mesh(points, groups, "quarter annulus")


def sphere_error(n):
    mesh = quarter_annulus(n, 2 * n)
    model = Model(mesh, bodies=[Body("BODY", E=E, nu=NU, rho=1.0, hypothesis="axisymmetric")],
                  supports=[Support("EQUATOR", ("dy",))], loads=[Pressure("INNER", P)])  # u_r = 0 on the axis: held
    u = static_u(model)
    R = np.hypot(*mesh.points.T)
    u_radial = (u[0::2] * mesh.points[:, 0] + u[1::2] * mesh.points[:, 1]) / R
    return np.max(np.abs(u_radial - lame_sphere(R))) / lame_sphere(A_IN)


def test_thick_sphere_against_lame_and_its_order_of_convergence():
    """QUAD4 on the quarter meridian section, refined twice: within 0.5 % of Lamé on the
    finest, and the error falls as h^2 (observed order between 1.8 and 2.2)."""
    errors = [sphere_error(n) for n in (4, 8, 16)]
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert errors[-1] < 5e-3
    assert np.all((orders > 1.8) & (orders < 2.2)), (errors, orders)


# --- (c) the mass of a solid of revolution -----------------------------------------------------

@pytest.mark.parametrize("element", ELEMENTS)
@pytest.mark.parametrize("lumped", [False, True])
def test_mass_of_a_solid_cylinder_is_rho_times_its_volume(element, lumped):
    radius, length, rho = 0.3, 1.2, 7800.0
    mesh = rectangle(radius, length, 3, 4, element)
    M = Model(mesh, bodies=[Body("BODY", E=E, nu=NU, rho=rho, hypothesis="axisymmetric",
                                 lumped_mass=lumped)]).assemble().M
    axial = np.tile([0.0, 1.0], mesh.n_nodes)
    assert axial @ (M @ axial) == pytest.approx(rho * np.pi * radius**2 * length, rel=1e-12)
    if lumped:
        assert np.all(M.diagonal()[1::2] > 0)  # every node has inertia, those on the axis too


def test_mass_of_a_hollow_sphere_converges_to_rho_times_its_volume():
    volume = 4 / 3 * np.pi * (B_OUT**3 - A_IN**3) / 2  # the upper half: the quarter section about the axis
    mesh = quarter_annulus(4, 64)
    M = mass_matrices(mesh.points, mesh.group("BODY"), 1.0, axisymmetric=True)
    assert M.sum() / 2 == pytest.approx(volume, rel=1e-3)


# --- (d) a free-free cylinder's axial modes ----------------------------------------------------

def test_free_free_cylinder_axial_modes_on_the_modal_path():
    """nu = 0: the bar modes u_z = cos(k pi z / L), f_k = k c / (2 L), c = sqrt(E / rho), from
    the modes a ModalAnalysis projects the axisymmetric K and M on."""
    from fem2d.runs.modal import ModalAnalysis

    radius, length, rho = 0.05, 1.0, 7800.0
    mesh = rectangle(radius, length, 1, 40, "quad8")
    model = Model(mesh, bodies=[Body("BODY", E=E, nu=0.0, rho=rho, hypothesis="axisymmetric")])  # nothing held
    analysis = ModalAnalysis(model, TimeStepping(dt=1.0e-6, end=1.0e-5), n_modes=3)
    problem = analysis.problem(model.assemble())
    frequencies = np.sqrt(np.maximum(problem.stiffnesses / problem.masses, 0.0)) / (2 * np.pi)
    c = np.sqrt(E / rho)
    assert frequencies[0] < 1e-3 * c / length  # the rigid axial translation
    assert frequencies[1:] == pytest.approx([c / (2 * length), c / length], rel=1e-5)  # 40 QUAD8 along the bar


# --- the convention and the refusals -----------------------------------------------------------

def test_point_force_is_a_ring_force_and_reactions_are_totals():
    """A solid cylinder standing on its base, a total axial force F on the top: the base's
    reactions add up to -F (the whole circumference), the pressure F / (pi R^2) gives u_z = F L / (E pi R^2)."""
    radius, length, force = 0.2, 1.0, -1.0e6
    mesh = rectangle(radius, length, 2, 4, "quad4")
    pressure = -force / (np.pi * radius**2)
    model = Model(mesh, bodies=[Body("BODY", E=E, nu=0.0, rho=1.0, hypothesis="axisymmetric")],
                  supports=[Support("BOTTOM", ("dy",)), Support("LEFT", ("dx",))], loads=[Pressure("TOP", pressure)])
    system = model.assemble()
    assert system.loads[0].vector[1::2].sum() == pytest.approx(force, rel=1e-12)
    u = static_u(model)
    assert u[1::2][mesh.group_nodes("TOP")] == pytest.approx(force * length / (E * np.pi * radius**2), rel=1e-10)
    reaction = system.K @ u - system.loads[0].vector
    assert reaction[1::2][mesh.group_nodes("BOTTOM")].sum() == pytest.approx(-force, rel=1e-9)
    from fem2d.model import Report

    reported = StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0), report=Report(reactions=["BOTTOM"])).run()
    assert reported.quantities["BOTTOM_reaction_y"] == pytest.approx(-force, rel=1e-9)  # the whole ring's
    ring = Model(mesh, bodies=model.bodies, loads=[PointForce("NE", (0.0, force))]).assemble()
    assert ring.loads[0].vector[1::2].sum() == force  # a point force is the total of its ring


def test_u_r_on_the_axis_is_held_by_the_model():
    """The nodes on the axis get u_r = 0 without a support (a user's support of those dofs
    comes first): the Lamé sphere is the same with and without one, and a nonzero support
    value on the axis is the user's."""
    mesh = quarter_annulus(4, 8)
    bodies = [Body("BODY", E=E, nu=NU, rho=1.0, hypothesis="axisymmetric")]
    held = Model(mesh, bodies=bodies, supports=[Support("EQUATOR", ("dy",))], loads=[Pressure("INNER", P)])
    axis = mesh.group_nodes("AXIS")
    system = held.assemble()
    assert set(2 * axis) <= set(system.fixed.tolist()) and not set(2 * axis + 1) & set(system.fixed.tolist())
    supported = Model(mesh, bodies=bodies, supports=[Support("EQUATOR", ("dy",)), Support("AXIS", ("dx",))],
                      loads=[Pressure("INNER", P)])
    assert np.array_equal(static_u(held), static_u(supported))
    moved = Model(mesh, bodies=bodies, supports=[Support("AXIS", ("dx",), value=1e-6)]).assemble()
    assert moved.fixed_values[np.searchsorted(moved.fixed, 2 * axis)] == pytest.approx(1e-6)
    plane = Model(mesh, bodies=[Body("BODY", E=E, nu=NU, rho=1.0)]).assemble()
    assert len(plane.fixed) == 0


def test_node_at_negative_radius_is_refused():
    mesh = rectangle(1.0, 1.0, 2, 2, "quad4", origin=(-0.01, 0.0))
    model = Model(mesh, bodies=[Body("BODY", E=E, nu=NU, rho=1.0, hypothesis="axisymmetric")])
    with pytest.raises(ModelError, match=r"hypothesis: .*radius r >= 0.*x = -0\.01"):
        model.assemble()
    round_off = rectangle(1.0, 1.0, 2, 2, "quad4", origin=(-1e-14, 0.0))  # on the axis up to round-off: accepted
    Model(round_off, bodies=[Body("BODY", E=E, nu=NU, rho=1.0, hypothesis="axisymmetric")]).assemble()


def test_mixed_hypotheses_contact_thickness_and_modal_obstacles_are_refused():
    from gridmesh import compose

    mesh = compose({"A": (0.0, 0.0, 1.0, 1.0, 2, 2), "B": (2.0, 0.0, 3.0, 1.0, 2, 2)})
    axi = Body("A", E=E, nu=NU, rho=1.0, hypothesis="axisymmetric")
    with pytest.raises(ModelError, match=r"Body\('B'\)\.hypothesis: 'plane_strain' beside axisymmetric"):
        Model(mesh, bodies=[axi, Body("B", E=E, nu=NU, rho=1.0)]).assemble()
    from fem2d.contact.continuous import ContinuousFormulation

    contact = Contact("A_BOTTOM", RigidPlane((0.0, 0.0), (0.0, 1.0)), method=ContinuousFormulation())
    with pytest.raises(ModelError, match="method: the continuous contact method is available with axisymmetric bodies "
                                         "on the mortar"):
        Model(mesh, bodies=[axi], contacts=[contact]).assemble()
    with pytest.raises(ModelError, match="thickness: an axisymmetric body has no thickness"):
        Body("A", E=E, nu=NU, rho=1.0, hypothesis="axisymmetric", thickness=0.1)
    with pytest.raises(InputError, match="no thickness"):
        traction_load(mesh, "A_TOP", (0.0, 1.0), thickness=0.1, axisymmetric=True)
    from fem2d.model import NodalObstacle
    from fem2d.runs.modal import ModalAnalysis

    with pytest.raises(ModelError, match="obstacles: shocks on obstacles at nodes of an axisymmetric body"):
        ModalAnalysis(Model(mesh, bodies=[axi]), TimeStepping(dt=1e-4, end=1e-3), n_modes=2,
                      obstacles=[NodalObstacle("A_SW", kind="plane", normal=(0.0, 1.0), gap=1e-3, kn=1e8)])


# --- case files ----------------------------------------------------------------------------------

CASE = """
[case]
name = "column"
kind = "static"

[mesh]
{mesh}

[model]
hypothesis = "axisymmetric"
{model}

[[materials]]
group = "{body}"
E = 1.0e9
nu = 0.0
rho = 1.0

[[supports]]
group = "{bottom}"
dofs = ["dy"]

[[loads]]
type = "pressure"
group = "{top}"
value = 1.0e6

[time]
dt = 1.0
end = 1.0

[report]
node = "{node}"
component = "dy"
at_times = [1.0]
{extra}
"""

COLUMN = 'geometry = "rectangle"\nparams = { length = 0.2, height = 1.0, nx = 2, ny = 4 }'


def column_case(tmp_path, mesh=COLUMN, model="", extra="", names=("BODY", "BOTTOM", "TOP", "NE")):
    path = tmp_path / "column.toml"
    body, bottom, top, node = names
    path.write_text(CASE.format(mesh=mesh, model=model, extra=extra, body=body, bottom=bottom, top=top, node=node))
    return path


def test_axisymmetric_static_case_runs(tmp_path):
    """A solid column (nu = 0) on the axis under 1 MPa on its top shortens by p L / E."""
    from fem2d.runs.result import run

    result = run(column_case(tmp_path))
    assert result.quantities["x_at_1.00"] == pytest.approx(-1.0e6 * 1.0 / 1.0e9, rel=1e-10)
    assert any("totals over the whole circumference" in note for note in result.to_json()["notes"])


@pytest.mark.parametrize("what, key", [
    ("negative_radius", "model.hypothesis"),
    ("thickness", "model.thickness"),
    ("contact", "contact.method"),
])
def test_case_refusals_are_one_line_naming_the_key(tmp_path, what, key):
    from gridmesh import write

    if what == "negative_radius":
        mesh_file = write(tmp_path / "pipe.msh", {"PIPE": (-0.05, 0.0, 0.2, 1.0, 4, 4)})
        path = column_case(tmp_path, mesh=f'file = "{mesh_file}"', names=("PIPE", "PIPE_BOTTOM", "PIPE_TOP", "PIPE_SW"))
    elif what == "thickness":
        path = column_case(tmp_path, model="thickness = 0.5")
    else:
        path = column_case(tmp_path, extra='\n[contact]\nmethod = "continuous"\nslave = "RIGHT"\n'
                                           'plane = { point = [0.3, 0.0], normal = [-1.0, 0.0] }\n')
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}  # this checkout's fem2d
    proc = subprocess.run([sys.executable, "-m", "fem2d.cli", "run", str(path), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, env=env)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and f"{path}: {key}:" in lines[0], proc.stderr


def test_direct_run_impulse_is_the_ring_total_and_vtu_has_the_hoop_stress(tmp_path):
    """A free column (only u_r held on the axis, by the model) pulled by a total ring force F for T: its axial
    momentum is F T and its velocity F T over the whole ring's mass; the VTU snapshots carry
    sigma_theta, the nodal hoop stress."""
    import meshio

    from fem2d.fe.axisymmetric import axisymmetric_cell_nodal_stresses
    from fem2d.fe.elasticity import nodal_average
    from fem2d.io.vtu import write_vtu_series
    from fem2d.model import Report
    from fem2d.runs.direct import DirectAnalysis

    radius, force, rho, end = 0.1, -1.0e4, 7800.0, 1.0e-3
    mesh = rectangle(radius, 1.0, 1, 10, "quad4")
    body = Body("BODY", E=2.0e11, nu=0.3, rho=rho, hypothesis="axisymmetric")
    model = Model(mesh, bodies=[body], loads=[PointForce("NE", (0.0, force))])
    result = DirectAnalysis(model, TimeStepping(dt=1.0e-5, end=end),
                            report=Report("NE", "dy", at_times=[end], bodies=["BODY"], snapshots=50)).run()
    assert result.quantities["BODY_momentum_y"] == pytest.approx(force * end, rel=1e-10)
    mass = rho * np.pi * radius**2 * 1.0
    assert result.quantities["BODY_velocity_y"] == pytest.approx(force * end / mass, rel=1e-10)
    write_vtu_series(result, tmp_path)
    last = meshio.read(sorted((tmp_path / "vtu").glob("*.vtu"))[-1])
    u = result.fields.snapshots.u[-1][: 2 * mesh.n_nodes]
    block = mesh.group("BODY")
    hoop = nodal_average(mesh.n_nodes, block.nodes, axisymmetric_cell_nodal_stresses(mesh.points, block, u,
                                                                                      body.hooke))[:, 3]
    assert np.any(hoop) and np.allclose(last.point_data["sigma_theta"], hoop, rtol=1e-12, atol=1e-9)


def test_a_plane_exact_model_in_an_axisymmetric_case_is_refused(tmp_path):
    from fem2d.case.loading import load_case
    from fem2d.case.references import exact_reference

    case = load_case(column_case(tmp_path, extra='\n[exact]\nmodel = "bouncing_bar"\n'))
    with pytest.raises(InputError, match=r"column.toml: exact.model: 'bouncing_bar' is a plane-strain/plane-stress"):
        exact_reference(case)


@pytest.mark.parametrize("kind", ["tri3", "tri6"])
def test_axisymmetric_triangle_mass_is_integrated_exactly(kind):
    """The weight 2 pi r raises the consistent mass integrand's degree by one: the default
    rule gives the same matrix as a rule of much higher degree."""
    from fem2d.fe.mass import scalar_mass_matrices
    from fem2d.fe.quadrature import triangle_rule

    xy = np.array([[0.5, 0.0], [1.5, 0.2], [0.7, 1.1], [1.0, 0.1], [1.1, 0.65], [0.6, 0.55]])
    nodes = np.arange(3 if kind == "tri3" else 6)[None]
    default = scalar_mass_matrices(xy, CellBlock(kind, nodes), 1.0, axisymmetric=True)
    exact = scalar_mass_matrices(xy, CellBlock(kind, nodes), 1.0, rule=triangle_rule(8), axisymmetric=True)
    np.testing.assert_allclose(default, exact, rtol=1e-12, atol=1e-15)
