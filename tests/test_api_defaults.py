"""The Python API has the case files' safe defaults: the automatic time scheme with
contact, warnings a script sees, a strict mode, arguments checked where they are given."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import numpy as np
import pytest

import fem2d
from fem2d.errors import ArgumentError, ModelError, OverrideError, StrictRunError
from fem2d.mesh.builders import bars
from fem2d.mesh.disc import half_disc

DISC_CASE = """
[case]
name = "disc_drop"
kind = "direct"

[mesh]
geometry = "half_disc"
element = "quad4"
params = { radius = 0.05, cells = 4, radial_cells = 4 }

[[materials]]
group = "DISC"
E = 1.0e7
nu = 0.3
rho = 1000.0

[[initial]]
group = "DISC"
velocity = [0.0, -0.443]   # dropped from 1 cm: sqrt(2 g h)

[contact]
slave = "ARC"
plane = { point = [0.0, -1.0e-4], normal = [0.0, 1.0] }

[time]
dt = 1.0e-4
end = 0.02
events = true

[report]
node = "CENTER"
component = "dy"
bodies = ["DISC"]
"""


def disc_drop() -> fem2d.Model:
    """The case above, composed in Python."""
    return fem2d.Model(half_disc(radius=0.05, cells=4, radial_cells=4),
                       bodies=[fem2d.Body("DISC", E=1e7, nu=0.3, rho=1000.0)],
                       initial=[fem2d.InitialCondition("DISC", velocity=(0.0, -0.443))],
                       contacts=[fem2d.Contact("ARC", fem2d.RigidPlane((0.0, -1e-4), (0.0, 1.0)))])


def bar_on_wall() -> fem2d.Model:
    """The built-in case bar_wall, composed in Python."""
    mesh = bars(lengths=[1.0], height=0.05, cells=80, walls="end")
    steel = {"E": 2e11, "nu": 0.0, "hypothesis": "plane_stress"}
    return fem2d.Model(mesh, bodies=[fem2d.Body("BAR1", rho=8000.0, lumped_mass=True, **steel),
                                     fem2d.Body("WALL_END", rho=0.0, lumped_mass=True, **steel)],
                       supports=[fem2d.Support("WALL_END"), fem2d.Support("BARS", ("dy",))],
                       initial=[fem2d.InitialCondition("BARS", velocity=(1.0, 0.0))],
                       contacts=[fem2d.Contact("BAR1_END", "WALL_END_FACE")])


def test_a_disc_dropped_from_python_runs_the_case_files_automatic_scheme(tmp_path):
    """No scheme named: the same choice as a case file without time.scheme (the modified
    mass here, a consistent mass), the same numbers, and the disc leaves the plane no
    faster than it came (plain average acceleration sends it up at hundreds of m/s)."""
    path = tmp_path / "disc_drop.toml"
    path.write_text(DISC_CASE)
    from_case = fem2d.run(path)
    composed = fem2d.DirectAnalysis(disc_drop(), fem2d.TimeStepping(dt=1e-4, end=0.02, events=True),
                                    report=fem2d.Report("CENTER", "dy", bodies=("DISC",))).run()
    assert composed.notes == from_case.notes and "modified-mass" in composed.notes[0]
    assert composed.histories["u"].tolist() == from_case.histories["u"].tolist()
    assert composed.quantities == from_case.quantities
    q = composed.quantities
    assert q["n_impacts"] == 1 and abs(q["energy_drift"]) < 1e-6 and not composed.warnings
    assert 0.0 < q["DISC_velocity_y"] <= 0.443


def test_a_bar_hitting_a_wall_from_python_runs_the_built_in_cases_scheme():
    """bar_wall composed in Python with no scheme named: Paoli-Schatzman (lumped mass, the step
    within its limit) as the case runs it, the same numbers, the exact force plateau E A v0 / c
    = 2 MN within 10 % and the energy kept (plain average acceleration: 7.9 times the force)."""
    from_case = fem2d.run("bar_wall")
    composed = fem2d.DirectAnalysis(bar_on_wall(), fem2d.TimeStepping(dt=2.4e-6, end=8e-4),
                                    report=fem2d.Report("BAR1_S", "dx", extrema=0, impact_quiet=1e-4)).run()
    assert composed.notes == from_case.notes and "paoli-schatzman" in composed.notes[0]
    assert composed.quantities == from_case.quantities
    q = composed.quantities
    assert q["impact_1_f_max"] == pytest.approx(2e6, rel=0.1)
    assert abs(q["energy_drift"]) < 1e-2 and not composed.warnings


def plain_newmark_drop(**options) -> fem2d.DirectAnalysis:
    """The disc dropped with plain average acceleration: it creates energy at the impact."""
    return fem2d.DirectAnalysis(disc_drop(), fem2d.TimeStepping(dt=1e-4, end=0.02), fem2d.NewmarkScheme(),
                                report=fem2d.Report("CENTER", "dy"), **options)


def test_a_run_that_created_energy_warns_in_python(tmp_path):
    """Each entry of ``result.warnings`` is a Python warning, once, shown at the caller's line,
    from a composed analysis and from ``fem2d.run``."""
    with pytest.warns(fem2d.Fem2dWarning, match=r"^energy grew by") as caught:
        result = plain_newmark_drop().run()
    assert issubclass(fem2d.Fem2dWarning, UserWarning) and fem2d.errors.Fem2dWarning is fem2d.Fem2dWarning
    assert [str(w.message) for w in caught] == result.warnings and len(result.warnings) == 1
    assert caught[0].filename == __file__
    path = tmp_path / "disc_drop.toml"
    path.write_text(DISC_CASE)
    with pytest.warns(fem2d.Fem2dWarning) as caught:
        result = fem2d.run(path, {"time.scheme": "newmark", "time.events": False})
    assert [str(w.message) for w in caught] == result.warnings and result.energy_grew


def test_the_command_line_prints_each_warning_once(tmp_path):
    path = tmp_path / "disc_drop.toml"
    path.write_text(DISC_CASE)
    proc = subprocess.run([sys.executable, "-m", "fem2d.cli", "run", str(path), "--set", 'time.scheme="newmark"',
                           "--set", "time.events=false", "--quiet", "--out", str(tmp_path / "out")],
                          capture_output=True, text=True)
    assert proc.returncode == 1  # energy created: never exit 0 with these numbers
    said = json.loads((tmp_path / "out" / "result.json").read_text())["warnings"]
    assert proc.stderr.splitlines() == [f"fem2d run: warning: disc_drop: {warning}" for warning in said] and said


def test_strict_raises_naming_every_warning_with_the_result(tmp_path):
    """``strict=True`` is ``fem2d run --strict``: a run with warnings raises (the result
    attached); ``warnings.simplefilter("error", Fem2dWarning)`` raises at the first one."""
    with pytest.raises(StrictRunError, match=r"^DirectAnalysis: strict: the run finished with 1 warning\(s\): "
                       r"energy grew by") as err:
        plain_newmark_drop(strict=True).run()
    assert err.value.exit_status == 1 and err.value.warnings == err.value.result.warnings
    path = tmp_path / "disc_drop.toml"
    path.write_text(DISC_CASE)
    with pytest.raises(StrictRunError, match=rf"^{path}: strict: .*energy grew by"):
        fem2d.run(path, {"time.scheme": "newmark", "time.events": False}, strict=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", fem2d.Fem2dWarning)
        with pytest.raises(fem2d.Fem2dWarning, match="^energy grew by"):
            plain_newmark_drop().run()
    quiet = fem2d.DirectAnalysis(disc_drop(), fem2d.TimeStepping(dt=1e-4, end=0.02, events=True), strict=True)
    assert quiet.run().warnings == []  # nothing to distrust: the result


@pytest.mark.parametrize("analysis", [fem2d.DirectAnalysis, fem2d.StaticAnalysis, fem2d.ModalAnalysis])
def test_analyses_check_their_arguments_where_they_are_given(analysis):
    """A wrong argument is an error of the constructor naming it (a ModelError and a
    TypeError), not an AttributeError from deep inside run()."""
    model, stepping = disc_drop(), fem2d.TimeStepping(dt=1e-3, end=0.01)
    with pytest.raises(ArgumentError, match=rf"^{analysis.__name__}\.stepping: expected a fem2d.TimeStepping, "
                       "got None") as err:
        analysis(model, None)
    assert isinstance(err.value, ModelError | TypeError) and err.value.field == "stepping"
    with pytest.raises(ArgumentError, match=rf"^{analysis.__name__}\.model: expected a fem2d.Model, got 'disc'"):
        analysis("disc", stepping)
    with pytest.raises(TypeError, match=rf"^{analysis.__name__}\.strict: expected True or False, got 'yes'"):
        analysis(model, stepping, strict="yes")


def test_direct_analysis_names_its_other_arguments():
    model, stepping = disc_drop(), fem2d.TimeStepping(dt=1e-3, end=0.01)
    with pytest.raises(ArgumentError, match=r"^DirectAnalysis\.scheme: expected a time scheme"):
        fem2d.DirectAnalysis(model, stepping, None)
    with pytest.raises(ArgumentError, match=r"^DirectAnalysis\.report: expected a fem2d.Report, got 'CENTER'"):
        fem2d.DirectAnalysis(model, stepping, report="CENTER")
    with pytest.raises(ArgumentError, match=r"^DirectAnalysis\.initial: expected None, a Result or"):
        fem2d.DirectAnalysis(model, stepping, initial=0.0)
    with pytest.raises(ArgumentError, match=r"^ModalAnalysis\.n_modes: expected an integer >= 1, got 2.5"):
        fem2d.ModalAnalysis(model, stepping, n_modes=2.5)


def test_a_body_given_a_string_names_the_field():
    with pytest.raises(ArgumentError, match=r"^Body\('PATIN'\)\.E: expected a Young's modulus > 0 \(Pa\), got 'big'"):
        fem2d.Body("PATIN", E="big", nu=0, rho=1)
    with pytest.raises(ModelError, match=r"^Body\('PATIN'\)\.rayleigh: expected \(a_M, a_K\) >= 0, got 'x'"):
        fem2d.Body("PATIN", E=1e9, nu=0, rho=1, rayleigh=(0.0, "x"))
    body = fem2d.Body("PATIN", E=np.float32(2e11), nu=np.int64(0), rho=7000)
    assert body == fem2d.Body("PATIN", E=float(np.float32(2e11)), nu=0.0, rho=7000.0)


def test_a_result_keeps_the_model_it_ran():
    """A list of the model changed after a run does not change what the result says it ran
    (tests/test_preload.py: a run from that result, initial=, still knows the model)."""
    dropped = disc_drop()
    model = fem2d.Model(dropped.mesh, dropped.bodies, loads=[fem2d.BodyForce("DISC", (0.0, -9810.0))],
                        contacts=dropped.contacts)
    ran = fem2d.StaticAnalysis(model, fem2d.TimeStepping(dt=1.0, end=1.0)).run()
    model.loads[0] = fem2d.BodyForce("DISC", (0.0, -1.0))
    assert ran.fields.model.loads == (fem2d.BodyForce("DISC", (0.0, -9810.0)),)
    assert ran.fields.model.contacts == tuple(model.contacts) and ran.fields.model.mesh is model.mesh


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"mesh.refine": np.int64(1)}, {"mesh.refine": 1}),
        ({"time.dt": np.float32(0.25), "time.events": np.bool_(True)}, {"time.dt": 0.25, "time.events": True}),
        ({"time": {"dt": 0.02}}, {"time.dt": 0.02}),
        ({"contact": {"mu": 0.1, "method": "penalty"}}, {"contact.mu": 0.1, "contact.method": "penalty"}),
    ],
)
def test_overrides_take_numpy_numbers_and_tables(overrides, expected):
    """NumPy numbers are numbers; a table as a value sets the keys it holds and leaves the
    table's others (it used to replace the whole [time] table by {dt})."""
    case = fem2d.load_case("sdnv104a", overrides)
    assert case.overrides == expected and all(type(v) is type(expected[k]) for k, v in case.overrides.items())
    for key, value in expected.items():
        assert case.get(key) == value
    assert case.get("time.end") == 3.5 and case.get("time.scheme") == "generalized_alpha"


def test_one_string_of_overrides_is_refused():
    with pytest.raises(OverrideError, match=r"^override 'time.dt=0.02': overrides are a mapping .* or a list of "
                       r"'key=value' strings, not one string \(give it in a list\)"):
        fem2d.run("sdnv104a", "time.dt=0.02")
    assert fem2d.load_case("sdnv104a", ["time.dt=0.02"]).get("time.dt") == 0.02


def test_report_times_without_a_reported_node_give_no_nan_displacement():
    """``report.at_times`` with no ``report.node`` serve the groups' quantities: no
    ``x_at_T`` of nan is reported."""
    import math

    import fem2d

    ramp = fem2d.PiecewiseLinear((0.0, 0.07), (0.0, 1.0))
    model = fem2d.Model(
        fem2d.mesh.sliding_block(),
        bodies=[fem2d.Body("PATIN", E=2.1e11, nu=0.0, rho=7000.0), fem2d.Body("BATI", E=1e11, nu=0.0, rho=0.0)],
        supports=[fem2d.Support("BATI"), fem2d.Support("R1"), fem2d.Support("R2")],
        springs=[fem2d.Spring("RESLAT", k_axial=12e3)],
        loads=[fem2d.Pressure("FSUP", 7e4, ramp), fem2d.Pressure("FLAT", 2e5, ramp)],
        contacts=[fem2d.Contact("LESC", "LMAI", mu=0.3)],
    )
    report = fem2d.Report(at_times=[0.1], groups=["PATIN"])
    result = fem2d.DirectAnalysis(model, fem2d.TimeStepping(dt=0.01, end=0.2), report=report).run()
    assert "x_at_0.10" not in result.quantities
    assert all(math.isfinite(v) for k, v in result.quantities.items() if k.startswith("PATIN_"))
    assert any(k.startswith("PATIN_") for k in result.quantities)
