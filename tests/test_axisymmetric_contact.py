"""Contact in axisymmetry (x the radius r, y the axis z) against exact answers: a rigid
flat-ended cylindrical punch on a large cylinder standing for the half-space (Boussinesq /
Sneddon stiffness and pressure), a sphere on a rigid plane and a rigid sphere in a large
cylinder (Hertz: approach, contact radius and peak pressure, Lagrange and penalty), the patch
check that a uniform pressure goes through a flat interface as itself (the 2 pi r weights of
the contact match those of the loads), an impact (the Signorini bar as a solid cylinder), a
case file, and the refusal of the continuous method."""

from __future__ import annotations

import numpy as np
import pytest
from gridmesh import compose

from fem2d.contact.kinematics import slave_weights
from fem2d.errors import ModelError
from fem2d.exact.axisymmetric import flat_punch, hertz_sphere
from fem2d.mesh.cylinder import graded_cylinder
from fem2d.mesh.disc import quarter_disc
from fem2d.model import Body, Contact, Model, Pressure, Report, RigidPlane, Support, TimeStepping
from fem2d.post.pressure import disc_radius
from fem2d.runs.static import StaticAnalysis


def static(model, **report):
    return StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0), report=Report(**report)).run()


def axi(group, E=1.0e9, nu=0.3):
    return Body(group, E=E, nu=nu, rho=1.0, hypothesis="axisymmetric")


# --- the weights ------------------------------------------------------------------------------------

@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_slave_weights_are_ring_areas(element):
    """The ring areas of a flat face 0.5 <= r <= 2 add up to pi (r2^2 - r1^2); a SEG2 node's
    is 2 pi int phi r ds (exact), the plane lengths add up to the face's length."""
    from fem2d.mesh import rectangle

    mesh = rectangle(1.5, 1.0, 3, 2, element, origin=(0.5, 0.0))
    contact = Contact("BOTTOM", RigidPlane((0.0, 0.0), (0.0, 1.0)))
    model = Model(mesh, bodies=[axi("BODY")], contacts=[contact])
    zone = model.assemble().zones[0]
    assert zone.axisymmetric
    w = slave_weights(zone)
    assert w.sum() == pytest.approx(np.pi * (2.0**2 - 0.5**2), rel=1e-10)
    plane = Model(mesh, bodies=[Body("BODY", E=1e9, nu=0.3, rho=1.0)], contacts=[contact]).assemble().zones[0]
    assert not plane.axisymmetric and slave_weights(plane).sum() == pytest.approx(1.5, rel=1e-12)
    if element == "quad4":
        r = zone.reference[: zone.n_slave, 0]
        h = 0.5
        inner = (r > 0.5) & (r < 2.0)
        assert w[inner] == pytest.approx(2 * np.pi * r[inner] * h, rel=1e-10)  # (r - h/2 .. r + h/2) ring
        assert w[r == 0.5] == pytest.approx(2 * np.pi * (0.5 * h / 2 + h**2 / 6), rel=1e-10)


# --- (c) a uniform pressure through contact is itself -----------------------------------------------

@pytest.mark.parametrize("method", ["lagrange", "penalty"])
def test_uniform_pressure_through_a_flat_interface_is_the_applied_pressure(method):
    """A solid cylinder (radius 1 m) of two stacked bodies, 1 MPa on its top, the lower one
    held axially at its base: every slave node of the node-to-segment interface reads 1 MPa,
    the contact force is the whole ring's p pi R^2, and the contact is a disc of radius
    sqrt(5/4) R by the second moment (a uniform pressure), its extent R."""
    p = 1.0e6
    mesh = compose({"LOW": (0.0, 0.0, 1.0, 1.0, 4, 3), "UP": (0.0, 1.0, 1.0, 2.0, 4, 3)})
    from fem2d.contact import make_formulation

    name, _, discretization = method.partition("/")
    formulation = make_formulation(name, discretization=discretization or "node_to_segment")
    model = Model(mesh, bodies=[axi("LOW"), axi("UP")], supports=[Support("LOW_BOTTOM", ("dy",))],
                  loads=[Pressure("UP_TOP", p)], contacts=[Contact("LOW_TOP", "UP_BOTTOM", method=formulation)])
    result = static(model, pressure_at=[1.0], reactions=["LOW_BOTTOM"])
    q = result.quantities
    assert q["f_n_max"] == pytest.approx(p * np.pi, rel=1e-9)  # the whole ring's
    assert q["LOW_BOTTOM_reaction_y"] == pytest.approx(p * np.pi, rel=1e-9)
    rows = result.fields.pressure[1]
    assert [row[-1] for row in rows] == pytest.approx([p] * 5, rel=1e-9 if method == "lagrange" else 1e-6)
    assert q["peak_pressure"] == pytest.approx(p, rel=1e-6)
    assert q["contact_extent"] == pytest.approx(1.0)
    # nodal ring forces p w_j at r = 0, 1/4, ... 1 give the disc radius of the discrete distribution
    zone = model.assemble().zones[0]
    r = zone.reference[: zone.n_slave, 0]
    assert q["contact_half_width"] == pytest.approx(disc_radius(r, p * slave_weights(zone)), rel=1e-6)
    assert q["contact_half_width"] == pytest.approx(np.sqrt(1.25), rel=0.05)


def test_a_ring_band_of_contact_has_the_plane_half_width_of_its_line_forces():
    """A tube 1 <= r <= 2 pressed on a rigid plane by 1 MPa: 1 MPa at every node, the force
    p pi (r2^2 - r1^2), and the band's half-width and extent those of its line forces
    F_j / (2 pi r_j): near those of a plane uniform strip of half-length 0.5 m."""
    from fem2d.post.pressure import half_width

    p = 1.0e6
    mesh = compose({"TUBE": (1.0, 0.0, 2.0, 1.0, 4, 2)})
    model = Model(mesh, bodies=[axi("TUBE")], loads=[Pressure("TUBE_TOP", p)],
                  contacts=[Contact("TUBE_BOTTOM", RigidPlane((0.0, 0.0), (0.0, 1.0)))])
    result = static(model, pressure_at=[1.0])
    q = result.quantities
    assert q["f_n_max"] == pytest.approx(p * np.pi * 3.0, rel=1e-9)
    assert [row[-1] for row in result.fields.pressure[1]] == pytest.approx([p] * 5, rel=1e-9)
    assert q["contact_extent"] == pytest.approx(0.5)
    zone = model.assemble().zones[0]
    r = zone.reference[: zone.n_slave, 0]
    assert q["contact_half_width"] == pytest.approx(half_width(r, p * slave_weights(zone) / (2 * np.pi * r)), rel=1e-9)
    plane = half_width(np.linspace(1.0, 2.0, 5), np.array([1, 2, 2, 2, 1.0]))
    assert q["contact_half_width"] == pytest.approx(plane, rel=0.01)


# --- (a) the flat-ended punch -------------------------------------------------------------------------

def punch_model(a: float, cells_under: int, size: float, E: float, nu: float, delta: float) -> Model:
    """A cylinder of radius and height ``size`` a (held at its base), its top face r <= a the
    slave of a rigid plane pushed down by ``delta``: a frictionless flat-ended punch."""
    mesh = graded_cylinder("quad8", 0, size * a, size * a, a, cells_under)
    return Model(mesh, bodies=[axi("BODY", E, nu)], supports=[Support("BOTTOM", ("dx", "dy"))],
                 contacts=[Contact("PUNCH", RigidPlane((0.0, 0.0), (0.0, -1.0), displacement=(0.0, -delta)))])


def test_flat_punch_stiffness_and_pressure_against_sneddon():
    """The rigid flat punch (radius a) pushed by delta into a cylinder of 200 a standing for the
    half-space: F / delta within 1.5 % of 2 a E / (1 - nu^2) (and closer on the finer mesh),
    F the whole ring's contact force (= the base's reaction), and p(r) sqrt(a^2 - r^2)
    = F / (2 pi a) within 2 % for r <= 0.6 a."""
    a, E, nu, delta = 0.01, 7.0e10, 0.3, 1.0e-6
    exact = flat_punch(a, E, nu)
    errors = []
    for cells_under in (16, 32):
        result = static(punch_model(a, cells_under, 200.0, E, nu, delta), reactions=["BOTTOM"], pressure_at=[1.0])
        force = result.quantities["f_n_max"]
        assert result.quantities["BOTTOM_reaction_y"] == pytest.approx(force, rel=1e-6)
        errors.append(force / delta / exact.stiffness - 1.0)
    assert 0.0 < errors[1] < errors[0] < 0.015, errors  # from above (a displacement method), converging
    assert abs(errors[1]) < 0.01
    rows = np.array([[row[3], row[-1]] for row in result.fields.pressure[1]])
    inside = (rows[:, 0] > 0.0) & (rows[:, 0] <= 0.6 * a)  # the SEG3 corner on the axis has no ring area
    shape = rows[inside, 1] * np.sqrt(a**2 - rows[inside, 0] ** 2)
    assert shape == pytest.approx(force / (2 * np.pi * a), rel=0.02)
    assert rows[inside, 1] == pytest.approx(exact.pressure(rows[inside, 0], force), rel=0.02)
    assert result.quantities["contact_extent"] == pytest.approx(a)


# --- (b) a sphere on a rigid plane ----------------------------------------------------------------------

@pytest.mark.parametrize("method, tolerance", [("lagrange", (0.005, 0.01)), ("penalty", (0.005, 0.015)),
                                               ("lagrange/mortar", (0.01, 0.01)), ("penalty/mortar", (0.01, 0.015)),
                                               ("continuous/mortar", (0.01, 0.01))])
def test_sphere_on_a_rigid_plane_against_hertz(method, tolerance):
    """A steel ball (R = 10 mm, QUAD8, a graded meridian mesh) pressed on a rigid plane by 2 kN
    (a pressure on its equator's disc): the contact radius (second moment of the ring forces)
    and the peak pressure against Hertz's a = (3 F R / 4 E*)^(1/3), p0 = 3 F / (2 pi a^2).
    Mortar (the continuous method too, which node-to-segment refuses in axisymmetry): p0 within
    7e-4 (node-to-segment 4.4e-3), the radius 5.9e-3 wide on this mesh (its pressure reaches the
    first node past the edge; 7.7e-4 one level finer)."""
    R, E, nu, F = 0.01, 2.1e11, 0.3, 2.0e3
    hertz = hertz_sphere(R, E, nu, np.inf, 0.0, F)
    from fem2d.contact import make_formulation

    name, _, discretization = method.partition("/")
    formulation = make_formulation(name, discretization=discretization or "node_to_segment")
    model = Model(quarter_disc("quad8", 1, R, cells=8, radial_cells=8, focus=0.05), bodies=[axi("DISC", E, nu)],
                  loads=[Pressure("TOP", F / (np.pi * R**2))],
                  contacts=[Contact("CONTACT", RigidPlane((0.0, 0.0), (0.0, 1.0)), method=formulation)])
    q = static(model).quantities
    assert q["f_n_max"] == pytest.approx(F, rel=1e-6)  # the whole ring's
    assert q["contact_half_width"] == pytest.approx(hertz.contact_radius, rel=tolerance[0])
    assert q["peak_pressure"] == pytest.approx(hertz.peak_pressure, rel=tolerance[1])


# --- what stays refused ----------------------------------------------------------------------------------

def test_continuous_node_to_segment_contact_with_an_axisymmetric_body_is_refused():
    """(With mortar it runs: the sphere above.)"""
    from fem2d.contact.continuous import ContinuousFormulation

    mesh = compose({"A": (0.0, 0.0, 1.0, 1.0, 2, 2)})
    contact = Contact("A_BOTTOM", RigidPlane((0.0, 0.0), (0.0, 1.0)), method=ContinuousFormulation())
    with pytest.raises(ModelError, match="method: the continuous contact method is available with axisymmetric "
                                         "bodies on the mortar discretization only"):
        Model(mesh, bodies=[axi("A")], contacts=[contact]).assemble()


# --- an impact: the dynamics see the ring totals too ------------------------------------------------------

def test_solid_cylinder_dropped_on_a_rigid_plane_is_the_signorini_bar():
    """A steel cylinder (nu = 0: a one-dimensional bar, section 0.05 m^2, 1 m long, lumped
    mass) hitting a rigid plane at 1 m/s: the contact lasts 2 L / c, its force is the whole
    section's E A v0 / c = 2 MN (to the 3.5 % overshoot of the plane bar's explicit run) and
    its impulse the whole body's 2 m v0 = 800 N s."""
    from fem2d.exact.bars import bar_on_wall
    from fem2d.mesh import rectangle
    from fem2d.model import InitialCondition
    from fem2d.runs.direct import DirectAnalysis

    area, length, v0 = 0.05, 1.0, 1.0
    mesh = rectangle(np.sqrt(area / np.pi), length, 2, 80, "quad4")
    model = Model(mesh, bodies=[Body("BODY", E=2.0e11, nu=0.0, rho=8000.0, hypothesis="axisymmetric",
                                     lumped_mass=True)],
                  initial=[InitialCondition("BODY", velocity=(0.0, -v0))],
                  contacts=[Contact("BOTTOM", RigidPlane((0.0, 0.0), (0.0, 1.0)))])
    exact = bar_on_wall(length, 2.0e11, 8000.0, area, v0)
    q = DirectAnalysis(model, TimeStepping(dt=2.4e-6, end=8.0e-4),
                       report=Report(node="NE", component="dy", extrema=0)).run().quantities
    assert q["impact_1_duration"] == pytest.approx(exact.duration, rel=0.02)
    assert q["impact_1_f_max"] == pytest.approx(exact.force, rel=0.05)
    assert q["impact_1_impulse"] == pytest.approx(2 * 8000.0 * area * length * v0, rel=0.01)


# --- a case file ---------------------------------------------------------------------------------------------

def test_case_with_contact_on_an_axisymmetric_column(tmp_path):
    """A case: a solid column (radius 0.2 m) under 1 MPa on a rigid plane, penalty contact: the
    contact force is p pi R^2 (the whole ring's), pressure.csv and the VTU snapshots read 1 MPa."""
    import meshio

    from fem2d.runs.result import run

    path = tmp_path / "column.toml"
    path.write_text("""
[case]
name = "column"
kind = "static"
[mesh]
geometry = "rectangle"
params = { length = 0.2, height = 1.0, nx = 2, ny = 4 }
[model]
hypothesis = "axisymmetric"
[[materials]]
group = "BODY"
E = 1.0e9
nu = 0.0
rho = 1.0
[[loads]]
type = "pressure"
group = "TOP"
value = 1.0e6
[contact]
method = "penalty"
slave = "BOTTOM"
plane = { point = [0.0, 0.0], normal = [0.0, 1.0] }
[time]
dt = 1.0
end = 1.0
[report]
node = "NE"
component = "dy"
at_times = [1.0]
pressure_at = [1.0]
snapshots = 1
""")
    result = run(path)
    assert result.quantities["f_n_max"] == pytest.approx(1.0e6 * np.pi * 0.2**2, rel=1e-9)
    assert [row[-1] for row in result.fields.pressure[1]] == pytest.approx([1.0e6] * 3, rel=1e-6)
    pvd = result.write_vtu(tmp_path / "vtu")
    last = meshio.read(sorted(pvd.parent.glob("**/column_0*.vtu"))[-1])
    base = np.isclose(last.points[:, 1], 0.0)
    assert last.point_data["contact_pressure"][base] == pytest.approx([1.0e6] * 3, rel=1e-6)


def test_rigid_sphere_indenting_a_large_cylinder_against_hertz():
    """A rigid sphere (a RigidCircle centred on the axis, R = 10 mm) pushed by delta = 25 um into
    a cylinder of 200 a standing for an elastic half-space: with the computed (whole-ring)
    force F, Hertz's approach a^2 / R, contact radius and peak pressure within 1 %."""
    import math

    from fem2d.model import RigidCircle

    R, E, nu, delta = 0.01, 7.0e10, 0.3, 2.5e-5
    a = math.sqrt(R * delta)
    mesh = graded_cylinder("quad8", 0, 200 * a, 200 * a, 2 * a, 32)  # cells a / 16 out to 2.5 a, down to a
    model = Model(mesh, bodies=[axi("BODY", E, nu)], supports=[Support("BOTTOM", ("dx", "dy"))],
                  contacts=[Contact("PUNCH", RigidCircle((0.0, R), R, displacement=(0.0, -delta)))])
    q = static(model, reactions=["BOTTOM"]).quantities
    hertz = hertz_sphere(R, math.inf, 0.0, E, nu, q["f_n_max"])
    assert q["BOTTOM_reaction_y"] == pytest.approx(q["f_n_max"], rel=1e-3)
    assert delta == pytest.approx(hertz.approach, rel=0.01)
    assert q["contact_half_width"] == pytest.approx(hertz.contact_radius, rel=0.01)
    assert q["peak_pressure"] == pytest.approx(hertz.peak_pressure, rel=0.01)
