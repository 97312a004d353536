"""The default volumetric strain (``volumetric = "auto"``): a nearly incompressible body is right
on the defaults, against Lamé's thick cylinder, and what was right before keeps its numbers."""

import warnings

import numpy as np
import pytest

import fem2d
from fem2d.case.schema import MATERIAL
from fem2d.exact.axisymmetric import lame_cylinder
from fem2d.mesh import rectangle
from fem2d.model import Body, Model, Pressure, Support, TimeStepping
from fem2d.runs.static import StaticAnalysis

A, B, E, P = 0.1, 0.2, 2.1e11, 1.0e8

CASE = """
[case]
name = "thick_cylinder"
title = "Lame thick cylinder a = 0.1 m, b = 0.2 m, internal pressure, plane strain in z (axisymmetric)"
kind = "static"

[mesh]
geometry = "rectangle"
element = "{element}"
params = {{ length = 0.1, height = 0.025, nx = 8, ny = 2, origin = [0.1, 0.0] }}

[model]
hypothesis = "axisymmetric"

[[materials]]
group = "BODY"
E = 2.1e11
nu = {nu}
rho = 7800.0

[[supports]]
group = "BOTTOM"
dofs = ["dy"]

[[supports]]
group = "TOP"
dofs = ["dy"]

[[loads]]
type = "pressure"
group = "LEFT"
value = 1.0e8

[time]
dt = 1.0
end = 1.0

[report]
node = "SW"
component = "dx"
groups = ["SE"]
at_times = [1.0]
extrema = 0
"""


def cylinder(nu: float, element: str = "quad4", **given):
    """The thick cylinder a = 0.1 m, b = 0.2 m under 1e8 Pa inside, between two smooth planes
    (u_z = 0: Lamé's plane strain), as a solid of revolution: 8 cells across the wall, 2 along."""
    mesh = rectangle(B - A, 0.025, 8, 2, element, origin=(A, 0.0))
    body = Body("BODY", E=E, nu=nu, rho=7800.0, hypothesis="axisymmetric", **given)
    model = Model(mesh, bodies=[body], supports=[Support("BOTTOM", ("dy",)), Support("TOP", ("dy",))],
                  loads=[Pressure("LEFT", P)])
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        result = StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0)).run()
    u = result.fields.system.expand(result.fields.final_state.u)[0::2]
    x = mesh.points[:, 0]
    return u[np.isclose(x, A)], u[np.isclose(x, B)], result, [str(w.message) for w in said]


@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_a_nearly_incompressible_thick_cylinder_is_lames_on_the_defaults(element):
    """nu = 0.4999, nothing said about the volumetric strain: u(a) and u(b) within 0.5 % of Lamé
    (measured 0.11 % on QUAD4, 2e-6 on QUAD8), where the full cells are 80 % (QUAD4) and 0.65 %
    (QUAD8) short; the run's notes say that B-bar was taken, and why."""
    exact = lame_cylinder(A, B, P, 0.0, E=E, nu=0.4999, plane="strain")
    u_a, u_b, result, said = cylinder(0.4999, element)
    assert np.abs(u_a / exact.u_r(A) - 1).max() < 5e-3 and np.abs(u_b / exact.u_r(B) - 1).max() < 5e-3
    assert not said and any('takes "bbar" (B-bar)' in note and "nu = 0.4999" in note for note in result.notes)
    locked_a, _, full, _ = cylinder(0.4999, element, volumetric="full")
    assert np.abs(locked_a / exact.u_r(A) - 1).max() > (0.3 if element == "quad4" else 3e-3)
    assert not any("volumetric" in note for note in full.notes)


def test_below_the_threshold_the_default_is_the_full_element_to_the_last_digit():
    """nu = 0.3 (and 0.449): "auto" is "full", every number as it was, and nothing is noted."""
    for nu in (0.3, 0.449):
        auto_a, auto_b, result, _ = cylinder(nu)
        full_a, full_b, _, _ = cylinder(nu, volumetric="full")
        assert np.array_equal(auto_a, full_a) and np.array_equal(auto_b, full_b) and not result.notes
    assert Body("B", E=1.0, nu=0.45, rho=1.0, hypothesis="plane_stress").volumetric_of("quad4") == "full"


def test_a_case_file_takes_the_same_default(tmp_path):
    """The case format's default is "auto" too: the same cylinder written as a case file, on the
    defaults, is within 0.5 % of Lamé at the inner (SW) and outer (SE) radius."""
    assert MATERIAL.fields["volumetric"].default == "auto"
    path = tmp_path / "thick_cylinder.toml"
    path.write_text(CASE.format(element="quad4", nu=0.4999))
    result = fem2d.run(path)
    exact = lame_cylinder(A, B, P, 0.0, E=E, nu=0.4999, plane="strain")
    assert abs(result.quantities["x_at_1.00"] / exact.u_r(A) - 1) < 5e-3
    assert abs(result.quantities["SE_dx_at_1.00"] / exact.u_r(B) - 1) < 5e-3
    assert any('takes "bbar"' in note for note in result.notes)


def test_a_body_left_to_lock_is_warned_of_naming_the_key():
    """A "corotational" body has no B-bar: at nu = 0.49 in plane strain its run warns, naming
    materials[].volumetric; the same body with volumetric = "full" said is not warned of."""
    mesh = rectangle(1.0, 0.2, 4, 2)
    for volumetric, warned in (("auto", True), ("full", False)):
        body = Body("BODY", E=1e7, nu=0.49, rho=1000.0, kinematics="corotational", volumetric=volumetric)
        model = Model(mesh, bodies=[body], supports=[Support("LEFT")], loads=[Pressure("TOP", 1e3)])
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0)).run()
        messages = [str(w.message) for w in said if issubclass(w.category, fem2d.Fem2dWarning)]
        assert any("locks" in m and "materials[].volumetric" in m and "corotational" in m
                   for m in messages) == warned, messages
