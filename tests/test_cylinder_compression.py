"""Finite-strain solids of revolution in runs: the axial compression of a cylinder
(cases/cylinder_compression.toml) against the homogeneous solution
(fem2d/exact/cylinder_compression.py) and its exact model's own checks
(fem2d/case/exact_cylinder.py), a thick sphere, and a punch pressed into one by contact."""

from __future__ import annotations

import numpy as np
import pytest

from fem2d.case.build import build_system
from fem2d.case.exact_cylinder import cylinder_compression
from fem2d.case.loading import load_case
from fem2d.case.references import NoExactSolution
from fem2d.exact.cylinder_compression import uniaxial_cylinder
from fem2d.runs.result import run

E, NU = 1.0e7, 0.3


def _reference(overrides: dict | None = None):
    case = load_case("cylinder_compression", overrides or {})
    return cylinder_compression(case, build_system(case))


@pytest.mark.parametrize("overrides", [
    {},
    {"materials.0.nu": 0.49},
    {"materials.0.law": "saint_venant_kirchhoff"},
    {"materials.0.nu": 0.4999, "materials.0.volumetric": "bbar"},
    {"mesh.element": "quad8"},
    {"materials.0.kinematics": "small", "materials.0.law": "hooke"},
])
def test_the_compressed_cylinder_matches_the_homogeneous_solution(overrides):
    """Measured within 1.3e-8 (the Newton tolerance), against a tolerance of 1e-6."""
    result = run("cylinder_compression", overrides)
    assert len(result.checks) == 4 and all(c["passed"] for c in result.checks), result.checks
    assert max(abs(c["relative_error"]) for c in result.checks) < 1e-7


def test_the_force_is_the_whole_rings_and_the_energy_the_laws():
    """nu = 0: the radius stays and P_zz = mu (b - 1/b), times the end's area pi R^2 (the whole
    ring, not one radian); the strain energy is W = mu/2 (b^2 - 1 - 2 ln b) + lam/2 (ln b)^2 times
    the volume pi R^2 H, with lam = 0; the force to Newton's tolerance (1e-8 of the largest force)."""
    result = run("cylinder_compression", {"materials.0.nu": 0.0})
    mu, b, area = E / 2.0, 0.7, np.pi * 0.25
    assert result.quantities["TOP_reaction_y"] == pytest.approx(mu * (b - 1.0 / b) * area, rel=1e-8)
    assert abs(result.quantities["x_at_1.00"]) < 1e-12
    W = 0.5 * mu * (b**2 - 1.0 - 2.0 * np.log(b))
    assert result.histories["elastic"][-1] == pytest.approx(W * area * 1.0, rel=1e-9)


def test_the_model_follows_the_settings():
    """A stretch of 10 % on a tube 0.2 < R < 0.5: the force on the top is P_zz pi (0.5^2 - 0.2^2)."""
    supports = [{"group": "BOTTOM", "dofs": ["dy"]},
                {"group": "TOP", "dofs": ["dy"], "value": 0.1, "function": "ramp"}]  # no axis
    ref = _reference({"supports": supports, "mesh.params.origin": [0.2, 0.0], "mesh.params.length": 0.3,
                      "report.reactions": ["TOP", "BOTTOM"]})
    response = uniaxial_cylinder(1.1, "neo_hookean", E, NU)
    area = np.pi * (0.25 - 0.04)
    assert ref.parameters["stretch"] == pytest.approx(1.1, abs=1e-15)
    assert ref.value("TOP_reaction_y") == pytest.approx(response.nominal_stress * area, rel=1e-14)
    assert ref.value("BOTTOM_reaction_y") == pytest.approx(-response.nominal_stress * area, rel=1e-14)
    assert ref.value("x_at_1.00") == pytest.approx(0.5 * (response.lateral_stretch - 1.0), rel=1e-14)


@pytest.mark.parametrize("law", ["neo_hookean", "saint_venant_kirchhoff"])
def test_the_radial_stretch_frees_the_lateral_surface(law):
    """P_rr = 0 at the radial stretch found, from the closed forms of the nominal stress."""
    mu, lam = E / (2 * (1 + NU)), E * NU / ((1 + NU) * (1 - 2 * NU))
    for b in (0.5, 0.7, 1.3):
        r = uniaxial_cylinder(b, law, E, NU)
        F = np.diag([r.lateral_stretch, b, r.lateral_stretch])
        if law == "neo_hookean":
            Fit = np.linalg.inv(F).T
            P = mu * (F - Fit) + lam * np.log(np.linalg.det(F)) * Fit
        else:
            Eg = 0.5 * (F.T @ F - np.eye(3))
            P = F @ (lam * np.trace(Eg) * np.eye(3) + 2 * mu * Eg)
        assert abs(P[0, 0]) < 1e-14 * E and abs(P[2, 2]) < 1e-14 * E
        assert r.nominal_stress == pytest.approx(P[1, 1], rel=1e-14)


@pytest.mark.parametrize("overrides, why", [
    ({"supports.1.dofs": ["dx", "dy"]}, "held in dy on its base and top"),
    ({"loads": [{"type": "pressure", "group": "RIGHT", "value": 1.0}]}, "loaded"),
    ({"case.kind": "direct", "time.scheme": "newmark"}, "static"),
])
def test_the_model_refuses_what_is_not_a_free_homogeneous_compression(overrides, why):
    with pytest.raises(NoExactSolution, match=why):
        _reference(overrides)


def test_the_vtu_holds_the_moved_top_and_the_exact_cauchy_stresses(tmp_path):
    """The last snapshot: the top moved by its support (-0.3 m), and at every node the Cauchy
    stresses of the homogeneous solution, sigma_zz = P_zz / a^2, sigma_rr = sigma_tt = 0."""
    import meshio

    result = run("cylinder_compression", {"report.snapshots": 1})
    result.write_vtu(tmp_path)
    last = meshio.read(sorted((tmp_path / "vtu").glob("*.vtu"))[-1])
    top = result.fields.system.mesh.group_nodes("TOP")
    assert np.allclose(last.point_data["displacement"][top, 1], -0.3, rtol=0, atol=1e-15)
    exact = uniaxial_cylinder(0.7, "neo_hookean", E, NU)
    assert np.abs(last.point_data["sigma_yy"] / exact.cauchy_stress - 1.0).max() < 1e-8
    for name in ("sigma_xx", "sigma_theta", "sigma_xy"):
        assert np.abs(last.point_data[name]).max() < 1e-8 * abs(exact.cauchy_stress)


@pytest.mark.parametrize("nu, within", [(0.3, 5e-4), (0.4999, 3e-3)])
def test_a_finite_strain_thick_sphere_under_a_small_pressure_is_lames(nu, within):
    """A deformation that is not homogeneous, with the hoop stretch varying through the wall: the
    thick sphere (QUAD8) made finite and neo-Hookean, under its small pressure (strains of 1e-4),
    is Lamé's (measured 2.2e-4 at nu = 0.3, 2.4e-3 at nu = 0.4999, where QUAD4 cells lock: 76 %). The
    full QUAD8 cells are said outright: F-bar has no QUAD8 cells in axisymmetry, and "auto" would
    warn that they lock."""
    result = run("thick_sphere", {"materials.0.kinematics": "finite", "materials.0.law": "neo_hookean",
                                  "materials.0.nu": nu, "mesh.element": "quad8", "materials.0.volumetric": "full"})
    assert result.checks and max(abs(c["relative_error"]) for c in result.checks) < within, result.checks


def test_a_rigid_punch_presses_a_finite_strain_half_space_by_contact():
    """The flat punch (QUAD8, Lagrange contact on the deformed surface) with a neo-Hookean body:
    its strains are small, so Sneddon's force holds as for the small body (measured 5.2e-3, the
    finite cylinder standing for the half-space), and the contact radius is the punch's."""
    result = run("flat_punch", {"materials.0.kinematics": "finite", "materials.0.law": "neo_hookean"})
    errors = {c["quantity"]: abs(c["relative_error"]) for c in result.checks}
    assert len(errors) == 4 and all(c["passed"] for c in result.checks), result.checks
    assert max(errors.values()) < 6e-3 and errors["contact_extent"] < 1e-12
