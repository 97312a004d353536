"""The static large-deflection and finite-strain built-in cases: the elastica (a cantilever
under a dead tip load) and the plane-strain compression of a block, against their exact
models (fem2d/case/exact_static.py), and the models' own checks."""

from __future__ import annotations

import numpy as np
import pytest

from fem2d.case.build import build_system
from fem2d.case.exact_static import cantilever_elastica, plane_strain_compression
from fem2d.case.loading import load_case
from fem2d.case.references import NoExactSolution
from fem2d.exact.elastica import cantilever_tip
from fem2d.runs.result import run


def _reference(name: str, overrides: dict | None = None):
    case = load_case(name, overrides or {})
    model = cantilever_elastica if name == "elastica" else plane_strain_compression
    return model(case, build_system(case))


# --- compression ----------------------------------------------------------------------------


@pytest.mark.parametrize("overrides", [
    {},
    {"materials.0.nu": 0.49},
    {"materials.0.nu": 0.4999},
    {"materials.0.law": "saint_venant_kirchhoff"},
    {"materials.0.kinematics": "corotational", "materials.0.law": "hooke"},
    {"materials.0.kinematics": "small", "materials.0.law": "hooke"},
])
def test_the_compressed_block_matches_the_homogeneous_solution_to_round_off(overrides):
    result = run("compression", overrides)
    assert result.checks and all(c["passed"] for c in result.checks), result.checks
    assert max(abs(c["relative_error"]) for c in result.checks) < 1e-7


def test_the_force_on_the_top_is_the_neo_hookean_nominal_stress_times_the_width():
    """nu = 0: the block keeps its width and P_yy = mu (b - 1/b), mu = E / 2: -3.642857e6 N at
    b = 0.7 on a 1 m wide block; the top is not pushed sideways (a reaction of the body's
    linear stiffness alone, K u, would be off by 30 % and push sideways by 7e4 N); to Newton's
    tolerance, 1e-8 of the largest force."""
    result = run("compression", {"materials.0.nu": 0.0})
    mu = 1e7 / 2.0
    assert result.quantities["TOP_reaction_y"] == pytest.approx(mu * (0.7 - 1.0 / 0.7), rel=1e-8)
    assert result.quantities["TOP_reaction_y_at_0.50"] == pytest.approx(mu * (0.85 - 1.0 / 0.85), rel=1e-8)
    assert abs(result.quantities["TOP_reaction_x"]) < 1e-6
    assert abs(result.quantities["x_at_1.00"]) < 1e-12


def test_the_compression_model_follows_the_settings():
    ref = _reference("compression", {"supports.2.value": -0.1, "mesh.params.length": 2.0,
                                     "report.reactions": ["TOP", "BOTTOM"], "model.thickness": 1.0})
    assert ref.parameters["stretch"] == pytest.approx(0.9, abs=1e-15)
    # neo-Hookean, nu = 0.3, E = 1e7: P_yy from the lateral stretch that frees the sides
    from fem2d.exact.compression import uniaxial_plane_strain

    response = uniaxial_plane_strain(0.9, "neo_hookean", 1e7, 0.3)
    assert ref.value("TOP_reaction_y") == pytest.approx(2.0 * response.nominal_stress, rel=1e-14)
    assert ref.value("BOTTOM_reaction_y") == pytest.approx(-2.0 * response.nominal_stress, rel=1e-14)
    assert ref.value("x_at_1.00") == pytest.approx(2.0 * (response.lateral_stretch - 1.0), rel=1e-14)
    small = _reference("compression", {"materials.0.kinematics": "small", "materials.0.law": "hooke"})
    assert small.value("TOP_reaction_y") == pytest.approx(-1e7 / (1 - 0.09) * 0.3, rel=1e-14)


@pytest.mark.parametrize("overrides, why", [
    ({"supports.1.dofs": ["dx", "dy"]}, "held in dx on its side"),
    ({"loads": [{"type": "pressure", "group": "RIGHT", "value": 1.0}]}, "loaded"),
    ({"case.kind": "direct", "time.scheme": "newmark"}, "static"),
])
def test_the_compression_model_refuses_what_is_not_a_free_homogeneous_compression(overrides, why):
    with pytest.raises(NoExactSolution, match=why):
        _reference("compression", overrides)


# --- elastica -------------------------------------------------------------------------------


def test_the_elastica_model_reads_the_beam_and_its_load_from_the_run():
    """EI = E h^3 / 12 (nu = 0), P from the tractions on the tip: P L^2/EI = 10 at the end;
    plane strain with nu = 0.3 stiffens the strip by 1 / (1 - nu^2)."""
    ref = _reference("elastica")
    assert ref.parameters["EI"] == pytest.approx(2.1e11 * 0.02**3 / 12, rel=1e-14)
    assert ref.value("x_at_0.50") == pytest.approx(-cantilever_tip(5.0).deflection, rel=1e-12)
    strip = _reference("elastica", {"materials.0.nu": 0.3})
    assert strip.parameters["load_parameter"] == pytest.approx(10.0 * (1 - 0.09), rel=1e-12)
    shortening = _reference("elastica", {"report.component": "dx"})
    assert shortening.value("x_at_1.00") == pytest.approx(-cantilever_tip(10.0).shortening, rel=1e-12)
    small = _reference("elastica", {"materials.0.kinematics": "small"})
    assert small.value("x_at_0.10") == pytest.approx(-1.0 / 3.0, rel=1e-12)  # P L^3 / 3EI at P L^2/EI = 1


def test_a_node_off_the_centre_line_turns_with_the_tip_section():
    """The tip's top corner NE, h/2 above the centre line: the centre's displacement plus
    (h/2)(sin theta, cos theta - 1) for a load along -y; one level, P L^2/EI = 1."""
    overrides = {"report.node": "NE", "time.end": 0.1, "time.dt": 0.1, "report.at_times": [0.1]}
    tip = cantilever_tip(1.0)
    ref = _reference("elastica", overrides | {"report.component": "dx"})
    assert ref.value("x_at_0.10") == pytest.approx(-tip.shortening + 0.01 * np.sin(tip.rotation), rel=1e-12)
    for component in ("dx", "dy"):
        result = run("elastica", overrides | {"report.component": component})
        assert result.checks and all(c["passed"] for c in result.checks), result.checks


@pytest.mark.parametrize("overrides, why", [
    ({"supports.0.dofs": ["dy"]}, "held in dx and dy"),
    ({"report.node": "NW"}, "not on the tip section"),
    ({"loads.0.vector": [1e6, -7e7]}, "along y on the tip section"),
    ({"model.hypothesis": "axisymmetric", "materials.0.kinematics": "small"}, "plane body"),
])
def test_the_elastica_model_refuses_what_is_not_a_cantilever_under_a_tip_load(overrides, why):
    with pytest.raises(NoExactSolution, match=why):
        _reference("elastica", overrides)


def test_the_cantilever_follows_the_elastica_to_p_l2_ei_10():
    """20 x 1 QUAD8 cells, L/h = 50: within 6e-4 of the elastica at P L^2/EI = 1, 2, 5, 10
    (measured 1.9e-4, 3.7e-4, 5.1e-4, 4.8e-4) with finite strain."""
    result = run("elastica")
    errors = [abs(c["relative_error"]) for c in result.checks]
    assert len(errors) == 4 and max(errors) < 6e-4, result.checks


@pytest.mark.slow
def test_the_corotational_cantilever_and_the_tip_shortening():
    """The same strip of "corotational" cells (measured within 5.3e-4), and the tip's
    shortening of the finite-strain one (within 1.4e-3: 0.554 L at P L^2/EI = 10)."""
    corotational = run("elastica", {"materials.0.kinematics": "corotational"})
    assert max(abs(c["relative_error"]) for c in corotational.checks) < 6e-4, corotational.checks
    shortening = run("elastica", {"report.component": "dx"})
    assert max(abs(c["relative_error"]) for c in shortening.checks) < 1.5e-3, shortening.checks


@pytest.mark.slow
def test_the_tip_deflection_converges_with_h_and_does_not_depend_on_the_load_levels():
    """nx = 10, 20, 40 QUAD8 cells along the strip at P L^2/EI = 10: the change from one mesh
    to the next falls by more than 8 per halving (measured 1.04e-2, then 8.7e-4: 12; the
    next, to nx = 80, 6e-5: 14), towards the continuum's own answer within 1e-3 of the elastica
    (axial stretch, shear and the clamp, O((h/L)^2): 6.6e-4 at nx = 80). The equilibrium does not depend
    on the load levels that reach it: 10 levels or 20 agree to 1e-9."""
    tips = [run("elastica", {"mesh.params.nx": nx, "time.dt": 0.1}).quantities["x_at_1.00"] for nx in (10, 20, 40)]
    changes = np.abs(np.diff(tips))
    assert changes[0] / changes[1] > 8.0, tips
    exact = -cantilever_tip(10.0).deflection
    assert abs(tips[-1] / exact - 1.0) < 1e-3
    assert run("elastica").quantities["x_at_1.00"] == pytest.approx(
        run("elastica", {"time.dt": 0.1}).quantities["x_at_1.00"], rel=1e-9)
