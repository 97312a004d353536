"""Dynamics from a static preload (settle the weight, then push): the Python API and [preload]."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fem2d.errors import InputError, ModelError
from fem2d.mesh import rectangle
from fem2d.model import Body, BodyForce, Contact, InitialCondition, Model, Report, RigidPlane, Support, TimeStepping
from fem2d.runs.direct import DirectAnalysis
from fem2d.runs.result import run
from fem2d.runs.static import StaticAnalysis

WEIGHT = 1000.0 * 9.81 * 0.5  # rho g x area, N per metre of thickness


def resting_block() -> Model:
    return Model(rectangle(1.0, 0.5, 4, 2), bodies=[Body("BODY", E=1e7, nu=0.0, rho=1000.0)],
                 supports=[Support("LEFT", ("dx",))], loads=[BodyForce("BODY", (0.0, -9.81e3))],
                 contacts=[Contact("BOTTOM", RigidPlane((0.0, 0.0), (0.0, 1.0)))])


def test_a_settled_block_stays_at_rest():
    """After a static preload the block under its weight does not move (the weight is
    already carried); released from the undeformed state it drops to twice the static
    sag (a suddenly applied load)."""
    model = resting_block()
    static = StaticAnalysis(model, TimeStepping(dt=0.5, end=1.0), report=Report("NE", "dy", at_times=[1.0]))
    settled = static.run()
    sag = settled.quantities["x_at_1.00"]
    assert sag == pytest.approx(-1000.0 * 9.81 * 0.5**2 / 2 / 1e7, rel=1e-9)  # rho g H^2 / (2 E)
    dynamic = DirectAnalysis(model, TimeStepping(dt=1e-3, end=1.05), report=Report("NE", "dy", at_times=[1.05]),
                             modified_mass=True, initial=settled).run()
    h = dynamic.histories
    assert h["time"][0] == 1.0 and h["time"][-1] == pytest.approx(1.05)
    assert np.max(np.abs(h["u"] - sag)) < 1e-8 * abs(sag)
    assert np.allclose(h["normal_force"], WEIGHT, rtol=1e-8)
    # the same from the analysis object, run first
    again = DirectAnalysis(model, TimeStepping(dt=1e-3, end=1.05), report=Report("NE", "dy", at_times=[1.05]),
                           modified_mass=True, initial=static).run()
    assert again.quantities["x_at_1.05"] == dynamic.quantities["x_at_1.05"]
    cold = DirectAnalysis(model, TimeStepping(dt=1e-3, end=0.05), report=Report("NE", "dy"), modified_mass=True).run()
    assert np.min(cold.histories["u"]) == pytest.approx(2 * sag, rel=0.05)


def test_initial_state_of_another_model_or_too_late_is_refused():
    settled = StaticAnalysis(resting_block(), TimeStepping(dt=1.0, end=1.0)).run()
    with pytest.raises(ModelError, match="initial: expected a static or direct run of this analysis' own Model"):
        DirectAnalysis(resting_block(), TimeStepping(dt=1e-3, end=1.1), initial=settled).run()
    with pytest.raises(ModelError, match=r"initial: it ends at t = 1 s, not before the end of this run \(0.5 s\)"):
        DirectAnalysis(settled.fields.model, TimeStepping(dt=1e-3, end=0.5), initial=settled).run()


CASE = """
[case]
name = "settle_then_push"
kind = "direct"

[mesh]
geometry = "rectangle"
params = {{ length = 1.0, height = 0.5, nx = 4, ny = 2 }}

[[materials]]
group = "BODY"
E = 1.0e7
nu = 0.0
rho = 1000.0

[[supports]]
group = "LEFT"
dofs = ["dx"]

[[loads]]
type = "body"
group = "BODY"
vector = [0.0, -9810.0]

[contact]
slave = "BOTTOM"
plane = {{ point = [0.0, 0.0], normal = [0.0, 1.0] }}

{preload}

[time]
dt = 0.001
end = 1.05

[report]
node = "NE"
component = "dy"
at_times = [{at}]
"""


def write(tmp_path: Path, preload: str = "[preload]\nend = 1.0\ndt = 0.5", at: str = "1.05", extra: str = "") -> Path:
    path = tmp_path / "settle.toml"
    path.write_text(CASE.format(preload=preload, at=at) + extra)
    return path


def test_preload_case_is_the_python_composition(tmp_path):
    result = run(write(tmp_path))
    sag = -1000.0 * 9.81 * 0.5**2 / 2 / 1e7
    assert result.quantities["x_at_1.05"] == pytest.approx(sag, rel=1e-8)
    assert result.histories["time"][0] == 1.0


@pytest.mark.parametrize(
    ("preload", "at", "extra", "key"),
    [
        ("[preload]\nend = 1.05", "1.05", "", "preload.end"),
        ("[preload]\nend = 1.0\ndt = 2.0", "1.05", "", "preload.dt"),
        ("[preload]\ndt = 0.5", "1.05", "", "preload.end"),
        ("[preload]\nend = -1.0", "1.05", "", "preload.end"),
        ("[preload]\nend = 1.0", "0.5", "", "report.at_times"),
        ("[preload]\nend = 1.0\nstart = 0.0", "1.05", "", "preload.start"),
        ("", "1.05", "\n[solver]\nregularization = 1e-3\n", "solver.regularization"),
    ],
)
def test_bad_preload_input_names_the_key(tmp_path, preload, at, extra, key):
    path = write(tmp_path, preload, at, extra)
    with pytest.raises(InputError) as info:
        run(path)
    assert str(info.value).startswith(f"{path}: {key}"), str(info.value)
    assert "\n" not in str(info.value)


def test_preload_in_a_static_case_is_an_error(tmp_path):
    path = write(tmp_path)
    path.write_text(path.read_text().replace('kind = "direct"', 'kind = "static"').replace("dt = 0.001", "dt = 0.05"))
    with pytest.raises(InputError, match=r"settle.toml: preload: a static case does not use \[preload\]"):
        run(path)


def test_preload_of_a_free_model_names_supports(tmp_path):
    path = write(tmp_path)
    zone = '[contact]\nslave = "BOTTOM"\nplane = { point = [0.0, 0.0], normal = [0.0, 1.0] }\n'
    text = path.read_text().replace(zone, "")
    path.write_text(text)
    with pytest.raises(InputError, match=r"settle.toml: supports: 1 rigid-body motion"):
        run(path)


MU, G, V0 = 0.2, 9.81, 1.0
LAUNCHED = """
[case]
name = "settle_then_slide"
kind = "direct"

[mesh]
geometry = "rectangle"
params = { length = 1.0, height = 0.5, nx = 4, ny = 2 }

[[materials]]
group = "BODY"
E = 1.0e9
nu = 0.0
rho = 1000.0

[[loads]]
type = "body"
group = "BODY"
vector = [0.0, -9810.0]

[[initial]]
group = "BODY"
velocity = [1.0, 0.0]

[contact]
slave = "BOTTOM"
mu = 0.2
plane = { point = [0.0, 0.0], normal = [0.0, 1.0] }

[preload]
end = 1.0

[time]
dt = 0.001
end = 1.7

[report]
node = "NE"
component = "dx"
at_times = [1.1, 1.3, 1.5, 1.7]
"""


def test_a_settled_block_launched_at_its_initial_velocity_slides_as_the_rigid_block(tmp_path):
    """With a preload, the initial velocity is the velocity the dynamics start with, on the
    settled state: a block on a floor (Coulomb mu) launched at v0 slides
    x(t) = v0 t - mu g t^2 / 2 and stops at v0^2 / (2 mu g) (it used to stay where it was)."""
    model = Model(rectangle(1.0, 0.5, 4, 2), bodies=[Body("BODY", E=1e9, nu=0.0, rho=1000.0)],
                  loads=[BodyForce("BODY", (0.0, -1000.0 * G))],
                  initial=[InitialCondition("BODY", velocity=(V0, 0.0))],
                  contacts=[Contact("BOTTOM", RigidPlane((0.0, 0.0), (0.0, 1.0)), mu=MU)])
    times = [1.1, 1.3, 1.5, 1.7]
    launched = DirectAnalysis(model, TimeStepping(dt=1e-3, end=1.7), report=Report("NE", "dx", at_times=times),
                              initial=StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0))).run()
    stop = V0 / (MU * G)  # 0.51 s after the launch
    for t in times:
        tau = min(t - 1.0, stop)
        assert launched.quantities[f"x_at_{t:.2f}"] == pytest.approx(V0 * tau - MU * G * tau**2 / 2, abs=1e-3)
    assert launched.histories["time"][0] == 1.0 and launched.histories["v"][0] == V0
    path = tmp_path / "slide.toml"
    path.write_text(LAUNCHED)
    assert run(path).quantities == launched.quantities  # the case file means the same


def test_an_initial_displacement_with_a_preload_is_refused(tmp_path):
    """The preload finds the displacement the dynamics start from: an initial displacement
    as well has no meaning, and is named with the preload (file and both keys)."""
    path = tmp_path / "slide.toml"
    path.write_text(LAUNCHED.replace("velocity = [1.0, 0.0]", "velocity = [1.0, 0.0]\ndisplacement = [0.0, 1e-3]"))
    with pytest.raises(InputError, match=rf"^{path}: initial\[0\].displacement: the static preload "
                       r"\(preload.end = 1 s\) finds the displacement"):
        run(path)
    model = resting_block()
    model = Model(model.mesh, model.bodies, model.supports, model.loads, initial=[InitialCondition("BODY",
                  displacement=(0.0, 1e-3))], contacts=model.contacts)
    with pytest.raises(ModelError, match=r"^InitialCondition\('BODY'\).displacement: a static preload"):
        DirectAnalysis(model, TimeStepping(dt=1e-3, end=1.01),
                       initial=StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0))).run()


def test_the_warnings_of_a_preload_run_here_are_the_runs(monkeypatch):
    """A StaticAnalysis given as ``initial`` runs inside the direct run: what it distrusts
    is said with the direct run's warnings (``preload: ...``), once, as a Python warning too."""
    import fem2d

    monkeypatch.setattr(StaticAnalysis, "warnings", lambda self, run, quantities, series: ["settled badly"])
    model = resting_block()
    analysis = DirectAnalysis(model, TimeStepping(dt=1e-3, end=1.01), modified_mass=True,
                              initial=StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0)))
    with pytest.warns(fem2d.Fem2dWarning) as caught:
        result = analysis.run()
    assert result.warnings == ["preload: settled badly"] == [str(w.message) for w in caught]
