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
from fem2d.errors import StrictRunError
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
