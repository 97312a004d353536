"""Static analyses with contact: equilibrium, bodies held only by contact, bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from fem2d.contact import make_formulation
from fem2d.errors import InputError, ModelError
from fem2d.mesh import rectangle
from fem2d.model import (
    Body,
    Contact,
    Model,
    Pressure,
    Report,
    RigidPlane,
    Support,
    TimeStepping,
    Traction,
)
from fem2d.runs.direct import DirectAnalysis
from fem2d.runs.result import run
from fem2d.runs.static import StaticAnalysis

E, H = 1.0e7, 1.0


def pressed_block(supports=(), mu=0.0, push=0.0, method="lagrange"):
    """A 1 m block of nu = 0 pressed by 1e4 Pa on a rigid plane, optionally pushed sideways."""
    loads = [Pressure("TOP", 1.0e4)]
    if push:
        loads.append(Traction("LEFT", (push, 0.0)))
    return Model(rectangle(1.0, H, 4, 4), bodies=[Body("BODY", E=E, nu=0.0, rho=1.0)], supports=list(supports),
                 loads=loads, contacts=[Contact("BOTTOM", RigidPlane((0.0, 0.0), (0.0, 1.0)), mu=mu,
                                           method=make_formulation(method))])


@pytest.mark.parametrize("method", ["lagrange", "penalty", "continuous"])
def test_block_held_only_by_contact_in_y(method):
    model = pressed_block([Support("LEFT", ("dx",))], method=method)
    result = StaticAnalysis(model, TimeStepping(dt=0.5, end=1.0), report=Report("NE", "dy", at_times=[1.0])).run()
    exact = -1.0e4 * H / E
    penetration = result.quantities["max_penetration"]  # the penalty method's, 0 for the others
    assert result.quantities["x_at_1.00"] == pytest.approx(exact - penetration, rel=1e-8, abs=1e-13)
    assert result.quantities["f_n_max"] == pytest.approx(1.0e4, rel=1e-8)
    assert not any(k.startswith(("energy", "impact", "n_impacts")) for k in result.quantities)


def test_answer_does_not_depend_on_the_regularisation():
    """Held by nothing but contact and friction in x, y and rotation: pushed sideways
    below the friction limit, the block sticks; every regularisation gives the same state."""
    states = []
    for eps in (1e-2, 1e-4, 1e-6):
        analysis = StaticAnalysis(pressed_block(mu=0.5, push=2.0e3), TimeStepping(dt=0.25, end=1.0),
                                  report=Report("NE", "dx", at_times=[1.0]), regularization=eps)
        result = analysis.run()
        sol = result.fields.final_state.solution
        assert np.sum(sol.tangential_force) == pytest.approx(-2.0e3, rel=1e-8)  # friction balances the push
        assert np.sum(sol.normal_force) == pytest.approx(1.0e4, rel=1e-8)
        states.append(result.fields.final_state.u)
    scale = np.max(np.abs(states[0]))
    for u in states[1:]:
        assert np.max(np.abs(u - states[0])) < 1e-7 * scale


def test_pushed_beyond_friction_limit_fails():
    from fem2d.errors import ConvergenceError

    analysis = StaticAnalysis(pressed_block(mu=0.1, push=2.0e3), TimeStepping(dt=0.5, end=1.0, min_dt=0.1))
    with pytest.raises(ConvergenceError):
        analysis.run()


def test_supported_model_is_one_solve_of_k():
    """Fully supported: no regularisation, u = K^-1 f at the level."""
    model = Model(rectangle(4.0, 1.0, 8, 2), bodies=[Body("BODY", E=2e11, nu=0.3, rho=1.0)],
                  supports=[Support("LEFT")], loads=[Traction("RIGHT", (0.0, -1e6))])
    result = StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0), report=Report("SE", "dy", at_times=[1.0])).run()
    system = result.fields.system
    import scipy.sparse.linalg as spla

    u = spla.spsolve(system.K_free.tocsc(), system.force_free(1.0))
    assert np.allclose(result.fields.final_state.u, u, rtol=0, atol=1e-12 * np.max(np.abs(u)))


def test_free_model_without_contact_is_an_error():
    model = Model(rectangle(1.0, 1.0, 2, 2), bodies=[Body("BODY", E=1e7, nu=0.3, rho=1.0)],
                  supports=[Support("LEFT", ("dx",))], loads=[Pressure("TOP", 1e4)])
    with pytest.raises(ModelError, match="supports: 1 rigid-body motion"):
        StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0)).run()


def test_static_analysis_refuses_dynamic_settings():
    from fem2d.dynamics.schemes import NewmarkScheme

    model = pressed_block([Support("LEFT", ("dx",))])
    with pytest.raises(ModelError, match="scheme"):
        StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0), scheme=NewmarkScheme())
    with pytest.raises(ModelError, match="regularization"):
        StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0), regularization=0.0)
    with pytest.raises(ModelError, match="events"):
        StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0, events=True))
    assert isinstance(DirectAnalysis(model, TimeStepping(dt=1.0, end=1.0)), DirectAnalysis)


STATIC_CASE = """
[case]
name = "pressed"
kind = "static"

[mesh]
geometry = "rectangle"
params = {{ length = 1.0, height = 1.0, nx = 2, ny = 2 }}

[model]
hypothesis = "plane_stress"

[[materials]]
group = "BODY"
E = 1.0e7
nu = 0.0
rho = 1.0

{supports}

[[loads]]
type = "pressure"
group = "TOP"
value = 1.0e4
function = "ramp"

[functions.ramp]
type = "piecewise_linear"
t = [0.0, 1.0]
values = [0.0, 1.0]

{contact}

[time]
dt = 0.25
end = 1.0

[report]
node = "NE"
component = "dy"
at_times = [0.5, 1.0]
{extra}
"""

CONTACT = """
[contact]
slave = "BOTTOM"
plane = { point = [0.0, 0.0], normal = [0.0, 1.0] }
"""

SUPPORT_X = """
[[supports]]
group = "LEFT"
dofs = ["dx"]
"""


def write_case(tmp_path: Path, supports=SUPPORT_X, contact=CONTACT, extra="") -> Path:
    path = tmp_path / "pressed.toml"
    path.write_text(STATIC_CASE.format(supports=supports, contact=contact, extra=extra))
    return path


def test_static_case_follows_the_load_path(tmp_path):
    result = run(write_case(tmp_path))
    assert result.quantities["x_at_0.50"] == pytest.approx(-0.5e-3, rel=1e-9)
    assert result.quantities["x_at_1.00"] == pytest.approx(-1.0e-3, rel=1e-9)


@pytest.mark.parametrize(
    ("supports", "contact", "extra", "key"),
    [
        ("", "", "", "supports"),
        (SUPPORT_X, CONTACT, "[time]\nscheme = 'newmark'", "time.scheme"),
        (SUPPORT_X, CONTACT, "[time]\nevents = true", "time.events"),
        (SUPPORT_X, CONTACT, "[time]\nbeta = 0.3", "time.beta"),
        (SUPPORT_X, CONTACT, "[time]\nrestitution = 0.5", "time.restitution"),
        (SUPPORT_X, CONTACT, "[solver]\nregularization = 0.0", "solver.regularization"),
        (SUPPORT_X, CONTACT, "[solver]\nregularization = 0.9", "solver.regularization"),
        (SUPPORT_X, CONTACT, "[[initial]]\ngroup = 'BODY'\nvelocity = [1.0, 0.0]", "initial[0].velocity"),
        (SUPPORT_X, CONTACT, "[obstacle]\nnode = 'NE'", "obstacle"),
    ],
)
def test_bad_static_input_names_the_key(tmp_path, supports, contact, extra, key):
    text = STATIC_CASE.format(supports=supports, contact=contact, extra="")
    if extra.startswith("[time]"):
        text = text.replace("[time]\n", extra + "\n")
    else:
        text += "\n" + extra + "\n"
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(InputError) as info:
        run(path)
    message = str(info.value)
    assert message.startswith(f"{path}: {key}:"), message
    assert "\n" not in message


def test_regularisation_in_a_direct_case_is_an_error(tmp_path):
    text = STATIC_CASE.format(supports=SUPPORT_X, contact=CONTACT, extra="").replace('kind = "static"',
                                                                                      'kind = "direct"')
    path = tmp_path / "direct.toml"
    path.write_text(text + "\n[solver]\nregularization = 1e-3\n")
    with pytest.raises(InputError, match=r"direct.toml: solver.regularization: a direct case does not use it"):
        run(path)


def test_cli_free_static_model_exits_2_with_one_line(tmp_path):
    path = write_case(tmp_path, supports="", contact="")
    fem2d = str(Path(sys.executable).parent / "fem2d")
    proc = subprocess.run([fem2d, "run", str(path), "--out", str(tmp_path / "out")], capture_output=True, text=True)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{path}: supports:" in lines[0], proc.stderr
