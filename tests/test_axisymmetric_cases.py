"""The built-in axisymmetric benchmarks against their closed forms, computed for each run's
settings: Lamé's thick sphere (and its observed order of convergence with h, QUAD4: 2), a free
sphere's breathing frequency (Lamb; the computed mode picked by its shape), a free-free
cylinder's axial modes; the refusals of an axisymmetric case (r < 0, a plane exact model)."""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest

from fem2d.case.loading import load_case
from fem2d.case.references import exact_reference
from fem2d.cli import main
from fem2d.errors import InputError
from fem2d.exact.axisymmetric import flat_punch, lame_sphere, sphere_breathing_frequencies
from fem2d.mesh.cylinder import graded_cylinder
from fem2d.mesh.sector import annulus_sector, quarter_disc
from fem2d.runs.result import run

E_STEEL, RHO_STEEL = 2.1e11, 7800.0
SPHERE = ("x_at_1.00", "INNER_START_dx_at_1.00", "OUTER_START_dx_at_1.00")


def checks_of(result) -> dict[str, dict]:
    return {c["quantity"]: c for c in result.checks}


@pytest.mark.parametrize("name, quantities", [
    ("thick_sphere", set(SPHERE)),
    ("sphere_modes", {"f_2"}),
    ("cylinder_modes", {"f_1", "f_2", "f_3"}),
    ("flat_punch", {"f_n_max", "BOTTOM_reaction_y_at_0.50", "BOTTOM_reaction_y_at_1.00", "contact_extent"}),
])
def test_builtin_axisymmetric_case_passes_its_checks(name, quantities):
    result = run(name)
    checks = checks_of(result)
    assert set(checks) == quantities and result.unchecked == []
    assert all(c["passed"] for c in checks.values()), checks


def test_thick_sphere_references_are_lames_for_the_runs_own_pressure():
    """Within 0.5 % on the case's mesh; doubling the pressure doubles the references (the
    exact model follows the run's settings): u_R(a) at the inner equator, u_R(b) at the
    outer equator (dx) and pole (dy)."""
    result = run("thick_sphere", {"loads.0.value": 2.0e8})
    exact = lame_sphere(0.1, 0.2, 2.0e8, 0.0, E_STEEL, 0.3)
    checks = checks_of(result)
    expected = {"x_at_1.00": exact.u_r(0.2), "INNER_START_dx_at_1.00": exact.u_r(0.1),
                "OUTER_START_dx_at_1.00": exact.u_r(0.2)}
    for quantity, value in expected.items():
        assert checks[quantity]["reference"] == pytest.approx(float(value), rel=1e-12)
        assert checks[quantity]["relative_error"] < 5e-3


def test_thick_sphere_refine_reports_an_observed_order_of_two(tmp_path):
    """`fem2d refine thick_sphere --levels 0-2`: QUAD4 cells, the radial displacements'
    errors fall as h^2 (QUAD8 would be faster): an order between 1.8 and 2.2 at each level on
    the equator; at the pole, a node on the axis, the order still rises towards 2 (1.5, 1.6)."""
    status = main(["refine", "thick_sphere", "--levels", "0-2", "--quiet", "--out",
                   str(tmp_path / "refine")])
    assert status == 0
    with (tmp_path / "refine" / "refine.csv").open(newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["quantity"] in SPHERE]
    orders = {(r["quantity"], r["level"]): float(r["order"]) for r in rows if r["order"] not in ("", "None")}
    assert set(orders) == {(q, level) for q in SPHERE for level in ("1", "2")}, rows
    equator = {k: v for k, v in orders.items() if k[0] != "x_at_1.00"}
    assert all(1.8 < order < 2.2 for order in equator.values()), orders
    pole = [orders["x_at_1.00", "1"], orders["x_at_1.00", "2"]]  # on the axis: towards 2 from below
    assert 1.4 < pole[0] < pole[1] < 2.2, orders


def test_sphere_breathing_mode_is_picked_by_its_shape():
    """Lamb's frequency goes to the computed mode whose shape is radial (f_2 here, f_1 being
    angular); with nu = 0.35 the breathing mode is f_4: f_2 is then left unchecked (said so),
    not compared with the wrong mode, and the source names the mode that matched."""
    result = run("sphere_modes")
    check = checks_of(result)["f_2"]
    assert check["reference"] == pytest.approx(sphere_breathing_frequencies(0.05, 7.0e10, 0.2, 2500.0)[0], rel=1e-12)
    assert check["relative_error"] < 1e-2
    assert result.quantities["f_1"] < 0.8 * check["reference"]  # an angular mode below it
    moved = run("sphere_modes", {"materials.0.nu": 0.35, "report.modes": 5})
    assert moved.checks == [] and [u["quantity"] for u in moved.unchecked] == ["f_2"]
    assert "breathing mode 1 = f_4" in moved.unchecked[0]["source"]
    lamb = sphere_breathing_frequencies(0.05, 7.0e10, 0.35, 2500.0)[0]
    assert moved.quantities["f_4"] == pytest.approx(lamb, rel=1e-2)
    few = run("sphere_modes", {"report.modes": 1})
    assert "none of the first 1 computed modes has the breathing shape" in few.unchecked[0]["reason"]


def test_cylinder_axial_modes_are_the_bar_modes():
    result = run("cylinder_modes", {"mesh.params.height": 2.0})
    checks = checks_of(result)
    c = math.sqrt(E_STEEL / RHO_STEEL)
    assert checks["f_2"]["reference"] == pytest.approx(c / 4.0, rel=1e-12)  # L = 2 m: c / 2L
    assert checks["f_3"]["reference"] == pytest.approx(c / 2.0, rel=1e-12)
    assert all(ch["passed"] for ch in checks.values()), checks
    poisson = run("cylinder_modes", {"materials.0.nu": 0.3})
    assert {u["quantity"] for u in poisson.unchecked} == {"f_1", "f_2", "f_3"}
    assert "nu = 0 only" in poisson.unchecked[0]["reason"]


def test_flat_punch_reference_follows_the_runs_modulus_and_indentation():
    """Sneddon's F = 2 a E delta / (1 - nu^2) for the run's own E and indentation: within 2 %
    (+0.5 %: the finite cylinder and the mesh), the base's reaction the same force, half of it
    at half the indentation, and the whole face r <= a in contact; a cylinder too small to stand
    for the half-space, or a punch with friction, has no reference, and says why."""
    result = run("flat_punch", {"materials.0.E": 2.1e11, "contact.plane.displacement": [0.0, -2.0e-5]})
    checks = checks_of(result)
    force = flat_punch(0.01, 2.1e11, 0.3).stiffness * 2.0e-5
    assert checks["f_n_max"]["reference"] == pytest.approx(force, rel=1e-12)
    assert checks["BOTTOM_reaction_y_at_1.00"]["reference"] == pytest.approx(force, rel=1e-12)
    assert checks["BOTTOM_reaction_y_at_0.50"]["reference"] == pytest.approx(force / 2, rel=1e-12)
    assert checks["contact_extent"]["reference"] == 0.01
    assert all(c["passed"] for c in checks.values()), checks
    assert 0.0 < checks["f_n_max"]["relative_error"] < 1e-2
    small = run("flat_punch", {"mesh.params.radius": 0.5, "mesh.params.height": 0.5})
    assert small.checks == [] and "stands for a half-space" in small.unchecked[0]["reason"]
    rough = run("flat_punch", {"contact.mu": 0.3})
    assert rough.checks == [] and "frictionless" in rough.unchecked[0]["reason"]


@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_graded_cylinder_puts_cells_under_the_punch_and_its_rim_on_a_node(element):
    mesh = graded_cylinder(element, 1, radius=1.0, height=0.5, punch_radius=0.1, cells_under=4, growth=1.5)
    assert len(mesh.group("PUNCH").nodes) == 8  # refine 1: twice the cells under the punch
    punch = mesh.points[np.unique(mesh.group("PUNCH").nodes)]
    assert punch[:, 1].tolist() == [0.0] * len(punch) and punch[:, 0].min() == 0.0 and punch[:, 0].max() == 0.1
    assert mesh.points[mesh.group("RIM").nodes[0, 0]].tolist() == [0.1, 0.0]
    assert mesh.points.min(axis=0).tolist() == [0.0, -0.5] and mesh.points.max(axis=0).tolist() == [1.0, 0.0]
    x = np.unique(mesh.points[mesh.group("BOTTOM").nodes[:, :2], 0])  # the cells' corners
    steps = np.diff(x[x > 0.125 + 1e-12])
    assert np.all(steps[1:-1] / steps[:-2] == pytest.approx(1.5**0.5, rel=1e-9))  # sqrt(growth) after refine 1
    from fem2d.errors import MeshError

    with pytest.raises(MeshError, match="radius = 0.1 and height = 1.0 must be at least 1.25 and 0.5 x punch_radius"):
        graded_cylinder(radius=0.1, height=1.0, punch_radius=0.1)
    with pytest.raises(MeshError, match="growth must be a number in"):
        graded_cylinder(growth=3.0)


def test_an_axisymmetric_exact_model_on_a_plane_case_is_one_line_naming_the_key():
    case = load_case("cylinder_modes", {"model.hypothesis": "plane_strain"})
    with pytest.raises(InputError, match=r"cylinder_modes.toml: exact.model: 'cylinder_axial_modes' is an "
                                         r"axisymmetric exact model; this case is plane_strain"):
        exact_reference(case)


def test_a_node_at_negative_radius_in_a_case_is_one_line_naming_the_file_and_key(tmp_path, capsys):
    """The sector opened to 120 degrees reaches x < 0: refused on model.hypothesis, exit 2."""
    source = load_case("thick_sphere").path
    text = source.read_text(encoding="utf-8").replace("angle = 90.0", "angle = 120.0")
    (tmp_path / "wide.toml").write_text(text, encoding="utf-8")
    status = main(["run", str(tmp_path / "wide.toml"), "--quiet", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1, err
    assert "wide.toml: model.hypothesis:" in err[0] and "r >= 0" in err[0] and "x = -0.1" in err[0]


@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_meridian_builders_put_their_arcs_on_the_circles(element):
    sector = annulus_sector(element, 1, inner_radius=0.1, outer_radius=0.2, radial_cells=2, arc_cells=3)
    for group, radius in (("INNER", 0.1), ("OUTER", 0.2)):
        nodes = np.unique(sector.group(group).nodes)
        assert np.allclose(np.hypot(*sector.points[nodes].T), radius, rtol=1e-14)
    assert len(sector.group("BODY").nodes) == 4 * 6  # refine 1: twice the cells each way
    assert np.all(sector.points[:, 0] >= 0.0)
    assert sector.points[sector.group("INNER_END").nodes[0, 0]].tolist() == [0.0, 0.1]
    disc = quarter_disc(element, 0, radius=0.05, cells=3)
    arc = np.unique(disc.group("ARC").nodes)
    assert np.allclose(np.hypot(*disc.points[arc].T), 0.05, rtol=1e-14)
    from fem2d.fe import integrate_over_cells  # the area: pi R^2 / 4, exactly for QUAD8 up to the arc's fit

    area = integrate_over_cells(disc.points, disc.group("BODY"), lambda x, y: np.ones_like(x)).sum()
    assert area == pytest.approx(np.pi * 0.05**2 / 4, rel=2e-2 if element == "quad4" else 1e-4)


def test_builder_parameters_are_checked():
    from fem2d.errors import MeshError

    with pytest.raises(MeshError, match="inner_radius = 2.0 must be below outer_radius = 1.0"):
        annulus_sector(inner_radius=2.0, outer_radius=1.0)
    with pytest.raises(MeshError, match="quarter_disc: cells must be an integer >= 1"):
        quarter_disc(cells=0)


def test_fem2d_cases_lists_them_aligned(capsys):
    assert main(["cases"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert {"thick_sphere", "sphere_modes", "cylinder_modes", "flat_punch"} <= set(lines)
    titles = {line.index(line.split(maxsplit=1)[1]) for line in lines.values()}
    assert len(titles) == 1  # every title starts in the same column, after the longest name


def test_a_cylinders_axial_modes_are_found_by_their_shape_not_their_rank(tmp_path):
    """A thick cylinder (radius 0.5 m, length 1 m) has a mode of another shape between the
    first two axial ones: the reference goes to the modes of axial shape only."""
    from fem2d.runs.result import run

    result = run("cylinder_modes", {"mesh.params.length": 0.5, "mesh.params.nx": 6, "report.modes": 4})
    checked = {c["quantity"]: c for c in result.checks}
    assert set(checked) == {"f_1", "f_2"} and result.passed
    assert "f_3" not in checked and 2600.0 < result.quantities["f_3"] < 2800.0  # not the bar's 5189 Hz
    assert any(note["quantity"] == "f_3" for note in result.unchecked)
