"""Bodies that turn and stretch: ``kinematics`` and ``law`` of a body, their refusals, and exact
rigid motions that the small-displacement model gets wrong."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from test_rotation_guard import spinning_square

from fem2d.cli import main
from fem2d.dynamics.rotation import ROTATED
from fem2d.errors import Fem2dWarning, ModelError
from fem2d.model import Body, Report, TimeStepping
from fem2d.runs.direct import DirectAnalysis
from fem2d.runs.result import run


@pytest.mark.parametrize(("given", "key", "words"), [
    ({"kinematics": "large"}, "kinematics", "expected one of 'small', 'corotational', 'finite'"),
    ({"law": "mooney"}, "law", "expected one of 'hooke'"),
    ({"law": "neo_hookean"}, "law", "needs kinematics = \"finite\""),
    ({"law": "saint_venant_kirchhoff", "kinematics": "corotational"}, "law", "needs kinematics = \"finite\""),
    ({"kinematics": "finite", "hypothesis": "plane_stress", "law": "neo_hookean", "volumetric": "bbar"}, "volumetric",
     "plane_stress does not lock"),
    ({"kinematics": "corotational", "hypothesis": "axisymmetric"}, "kinematics", "plane bodies"),
    ({"kinematics": "corotational", "volumetric": "bbar"}, "volumetric", "for \"small\" and \"finite\" kinematics"),
    ({"kinematics": "corotational", "rayleigh": (0.0, 1e-4)}, "rayleigh", "rigid rotation"),
])
def test_a_combination_a_body_cannot_take_is_refused_naming_its_key(given, key, words):
    with pytest.raises(ModelError) as info:
        Body("DISC", E=1e6, nu=0.3, rho=1000.0, **given)
    assert f".{key}:" in str(info.value) and words in str(info.value)


def test_a_solid_of_revolution_can_take_finite_strain():
    body = Body("SEAL", E=1e6, nu=0.45, rho=1000.0, hypothesis="axisymmetric", kinematics="finite",
                law="neo_hookean")
    assert body.nonlinear and body.axisymmetric and body.finite_law == "neo_hookean"


def test_finite_with_hooke_is_saint_venant_kirchhoff():
    body = Body("DISC", E=1e6, nu=0.3, rho=1000.0, kinematics="finite")
    assert body.nonlinear and body.finite_law == "saint_venant_kirchhoff"
    assert not Body("DISC", E=1e6, nu=0.3, rho=1000.0).nonlinear


@pytest.mark.parametrize(("case", "setting", "key"), [
    ("sdnv104a", "time.scheme=paoli_schatzman", "time.scheme"),
    ("sdnv104a", "materials.0.nu=0.5", "materials[0].nu"),
    ("sdnv104a", "materials.0.law=neo_hookean", "materials[0].law"),
])
def test_bad_input_is_one_line_naming_the_file_and_the_key(case, setting, key, capsys, tmp_path):
    extra = [] if "kinematics" in setting or "law" in setting else ["--set", "materials.0.kinematics=finite"]
    status = main(["run", case, "--set", setting, *extra, "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2, err
    assert len(err) == 1 and err[0].startswith("fem2d: error:") and key in err[0] and ".toml" in err[0], err


@pytest.mark.parametrize(("element", "measured"), [("quad9", "17 %")])
def test_fbar_on_quadratic_cells_is_refused_in_one_line_naming_the_key(element, measured, capsys, tmp_path):
    """The compression case (finite strain) with volumetric = "bbar" (F-bar) on QUAD9 cells
    (QUAD8 takes it): refused, naming the file, materials[0].volumetric, the cells and the
    compression at which their F-bar tangent turns indefinite."""
    status = main(["run", "compression", "--set", f"mesh.element={element}", "--set", "materials.0.volumetric=bbar",
                   "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1, err
    for words in ("compression.toml", "materials[0].volumetric", f"on {element.upper()} cells", f"from {measured}"):
        assert words in err[0], err


@pytest.mark.parametrize("element", ["tri6", "quad8"])
def test_fbar_in_axisymmetry_is_refused_off_quad4_cells_naming_the_key(element, capsys, tmp_path):
    """The cylinder's compression (axisymmetric, finite strain) with F-bar on TRI6 or QUAD8 rings:
    one line naming the file, materials[0].volumetric and the cells it is for."""
    status = main(["run", "cylinder_compression", "--set", f"mesh.element={element}", "--set",
                   "materials.0.volumetric=bbar", "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1, err
    for words in ("cylinder_compression.toml", "materials[0].volumetric", "in axisymmetry is for QUAD4 cells"):
        assert words in err[0], err


def test_kinematics_on_a_modal_case_is_refused(capsys, tmp_path):
    from fem2d.case.loading import case_path

    text = case_path("sdnd101").read_text() + (
        '\n[[materials]]\ngroup = "NO1"\nE = 1.0e6\nnu = 0.3\nrho = 1000.0\nkinematics = "corotational"\n')
    case = tmp_path / "modal.toml"
    case.write_text(text)
    status = main(["run", str(case), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1, err
    assert "modal.toml" in err[0] and "materials[0].kinematics" in err[0] and "modal" in err[0], err


def test_newton_that_cannot_converge_cuts_then_stops_writing_only_what_converged(capsys, tmp_path):
    # the elastica's whole load in one level, and no room to cut it: Newton from the straight
    # strip on a kept tangent cannot reach P L^2 / EI = 10 in 25 iterations (refreshed at every
    # iteration, it does)
    status = main(["run", "elastica", "--set", "time.dt=1.0", "--set", "time.end=1.0", "--set", "time.min_dt=0.5",
                   "--set", "solver.tangent=kept", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 1 and "Newton" in err and "no convergence" in err and len(err.splitlines()) == 1, err
    assert err.rstrip().endswith("out holds the converged steps, up to t = 0 s"), err
    # what converged is written (the initial state only), no numbers of the unconverged level
    written = json.loads((tmp_path / "out" / "result.json").read_text())
    assert written["quantities"] == {} and written["checks"] == []
    assert written["warnings"][0].startswith("the computation failed (no convergence at t = 0 s")
    assert np.load(tmp_path / "out" / "history.npz")["time [s]"].tolist() == [0.0]


@pytest.mark.parametrize("kinematics", ["corotational", "finite"])
def test_a_free_spinning_square_turns_at_its_initial_rate_and_keeps_its_energy(kinematics):
    """A steel square spinning at 2 rad/s with nothing on it: the rigid rotation 2 t (its
    centrifugal strain is 4e-8), through more than half a turn, on the automatic scheme."""
    model = spinning_square(2.0)
    model.bodies = [replace(model.bodies[0], kinematics=kinematics)]
    result = DirectAnalysis(model, TimeStepping(dt=0.02, end=1.7), report=Report(bodies=["BODY"])).run()
    t, theta = result.histories["time"], result.histories["BODY:rotation"]
    assert theta[-1] > 3.3
    assert np.max(np.abs(theta - 2.0 * t)) < 2e-3  # the small-displacement model: atan(2 t), 2 rad short
    energy = result.histories["kinetic"] + result.histories["elastic"]
    assert np.max(np.abs(energy - energy[0])) < 2e-3 * energy[0]
    assert result.warnings == []
    assert result.timing["body_newton_most_iterations"] <= 25


@pytest.mark.slow  # 10 s; the gallery's rolling disc checks the same in the default run
def test_the_rolling_disc_rolls_with_corotational_kinematics_and_not_with_small_ones():
    overrides = {"time.end": 0.3, "report.at_times": [0.3]}
    turning = run("rolling_disc", overrides)
    with pytest.warns(Fem2dWarning, match="materials"):
        small = run("rolling_disc", {**overrides, "materials.0.kinematics": "small"})
    exact = turning.checks
    assert len(exact) == 2 and all(check["passed"] for check in exact), exact  # x and the rotation at 0.30 s
    assert turning.warnings == []
    rotation = {c["quantity"]: c["reference"] for c in exact}["DISC_rotation_at_0.30"]
    assert math.isclose(turning.quantities["DISC_rotation_at_0.30"], rotation, rel_tol=1e-2)
    # linear strain takes the turn for a stretch of the rim: well short of the exact turn, and said
    assert abs(small.quantities["DISC_rotation_at_0.30"] - rotation) > 0.1 * abs(rotation)
    assert any(ROTATED in w and "materials[].kinematics" in w for w in small.warnings)


@pytest.mark.parametrize("kinematics", ["corotational", "finite"])
def test_contact_between_two_turning_bodies_slides_as_the_exact_block(kinematics):
    """The incline: a block slides down its deformable support (the master surface), both bodies
    corotational or finite, at g (sin 30 - mu cos 30) with the load ramp: the exact distances
    at 1 s and 2 s to the tolerance of the small run, and the small run's numbers to 1e-8 m
    (neither body turns)."""
    both = {"materials.0.kinematics": kinematics, "materials.1.kinematics": kinematics}
    turning, small = run("incline", both), run("incline", {})
    assert len(turning.checks) == 2 and all(check["passed"] for check in turning.checks), turning.checks
    for check in turning.checks:
        assert abs(check["relative_error"]) < 1e-4
        assert abs(turning.quantities[check["quantity"]] - small.quantities[check["quantity"]]) < 1e-8
    assert turning.timing["body_newton_iterations"] > 0 and turning.warnings == []
