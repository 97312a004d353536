"""The small-displacement model's guard: each body's rigid rotation recorded, a warning past 0.05 rad."""

import json
import math
import re

import gridmesh
import numpy as np
import pytest

from fem2d.case.loading import builtin_cases, load_case
from fem2d.cli import main
from fem2d.dynamics.rotation import ROTATED, ROTATION_LIMIT
from fem2d.io.columns import unit_of
from fem2d.mesh.mesh import CellBlock
from fem2d.model import Body, InitialCondition, Model, Report, TimeStepping
from fem2d.runs.direct import DirectAnalysis
from fem2d.runs.result import run


def spinning_square(omega: float) -> Model:
    """A free unit square (4 x 4 QUAD4, no support, no load) whose nodes start with the
    velocity of a rotation omega about its centre, v = omega x r (one point group per node)."""
    mesh = gridmesh.compose({"BODY": (-0.5, -0.5, 0.5, 0.5, 4, 4)})
    initial = []
    for i, (x, y) in enumerate(mesh.points):
        mesh.groups[f"N{i}"] = CellBlock("point", [[i]])
        initial.append(InitialCondition(f"N{i}", velocity=(-omega * y, omega * x)))
    return Model(mesh, bodies=[Body("BODY", E=2.1e11, nu=0.3, rho=7800.0)], initial=initial)


def test_a_spinning_body_is_measured_and_warned_about_once():
    omega = 2.0
    model = spinning_square(omega)
    result = DirectAnalysis(model, TimeStepping(dt=1e-3, end=0.05), report=Report(bodies=["BODY"])).run()
    t, theta = result.histories["time"], result.histories["BODY:rotation"]
    # the small-displacement model moves every node along its initial velocity, u = t v0 (a
    # linearised rotation is strain-free to it): the body turns by atan(omega t), omega t while small
    assert np.allclose(theta, np.arctan(omega * t), rtol=0.0, atol=1e-10)
    small = omega * t < 0.02
    assert np.allclose(theta[small], omega * t[small], rtol=2e-4, atol=0.0)
    assert unit_of("BODY:rotation") == "rad"
    q = result.quantities
    assert q["BODY_rotation"] == theta[-1] and q["BODY_rotation_max"] == theta.max() > ROTATION_LIMIT
    assert q["BODY_rotation_min"] == 0.0
    warned = [w for w in result.warnings if ROTATED in w]
    assert len(warned) == 1 and len(result.warnings) == 1, result.warnings
    assert "'BODY'" in warned[0] and "small-displacement model" in warned[0] and "materials[].kinematics" in warned[0]
    t_over = float(re.search(r"from t = ([0-9.e+-]+) s", warned[0]).group(1))
    assert t_over == pytest.approx(math.tan(ROTATION_LIMIT) / omega, abs=1e-6)  # 0.05 / omega to 4e-5 s
    assert f"up to {theta.max():.4g} rad at t = 0.05 s" in warned[0]


def test_below_the_limit_no_warning():
    result = DirectAnalysis(spinning_square(0.5), TimeStepping(dt=1e-3, end=0.05)).run()
    assert result.histories["BODY:rotation"][-1] == pytest.approx(math.atan(0.025), abs=1e-10)
    assert result.warnings == []


QUICK = ("sdnv104a", "sdnv104b", "hertz", "cantilever", "incline", "two_bars", "bar_wall")


@pytest.mark.parametrize(
    "name",
    [name if name in QUICK else pytest.param(name, marks=pytest.mark.slow)
     for name in builtin_cases() if load_case(name).get("case.kind") != "modal"
     and all(m["kinematics"] == "small" for m in load_case(name).get("materials"))],
)
def test_no_builtin_case_turns_a_body_beyond_the_limit(name):
    """Each body of the built-in direct and static cases of small kinematics stays far below the
    limit (the largest, SDNV104 B's block rocking on its penalty springs, 5.6e-4 rad); the cases
    whose bodies are made to turn ("corotational" or "finite") are left out."""
    result = run(name)
    rotations = {k: v for k, v in result.histories.items() if k.endswith(":rotation")}
    assert {k.split(":")[0] for k in rotations} == {m["group"] for m in result.case.settings["materials"]}
    assert all(np.abs(v).max() < ROTATION_LIMIT / 10 for v in rotations.values()), rotations
    assert not [w for w in result.warnings if ROTATED in w]


TURNED = """
[case]
name = "turned"
kind = "direct"

[mesh]
file = "square.msh"

[[materials]]
group = "BODY"
E = 2.1e11
nu = 0.3
rho = 7800.0

# a couple: shear tractions on the top and bottom faces turn the free square,
# angular acceleration 6 tau / (rho a^2) = 20 rad/s^2: 0.05 rad at t = 0.0707 s
[[loads]]
type = "traction"
group = "BODY_TOP"
vector = [-26000.0, 0.0]

[[loads]]
type = "traction"
group = "BODY_BOTTOM"
vector = [26000.0, 0.0]

[time]
dt = 0.005
end = 0.1

[report]
bodies = ["BODY"]
"""


@pytest.mark.parametrize("strict", [False, True])
def test_the_cli_says_it_and_strict_exits_1(tmp_path, capsys, strict):
    gridmesh.write(tmp_path / "square.msh", {"BODY": (-0.5, -0.5, 0.5, 0.5, 4, 4)})
    (tmp_path / "turned.toml").write_text(TURNED)
    out = tmp_path / "out"
    status = main(["run", str(tmp_path / "turned.toml"), "--quiet", "--out", str(out)]
                  + (["--strict"] if strict else []))
    assert status == (1 if strict else 0)
    err = capsys.readouterr().err
    assert err.count(ROTATED) == 1 and "fem2d run: warning: turned: body 'BODY'" in err
    doc = json.loads((out / "result.json").read_text())  # the numbers are written with the warning
    assert doc["quantities"]["BODY_rotation"] == pytest.approx(0.5 * 20.0 * 0.1**2, rel=0.02)
    with np.load(out / "history.npz") as history:
        assert "BODY:rotation [rad]" in history.files


def test_a_body_turned_by_its_supports_counts_their_displacement():
    """The rotation is the body's whole motion, prescribed dofs included: a static square
    whose boundary nodes are held at the displacement of a rigid rotation by 0.02 rad (a
    linear field: its inner nodes follow exactly) turns by 0.02 rad."""
    from fem2d.model import Support
    from fem2d.runs.static import StaticAnalysis

    theta = 0.02
    mesh = gridmesh.compose({"BODY": (0.0, 0.0, 2.0, 1.0, 4, 4)})
    supports = []
    for i, (x, y) in enumerate(mesh.points):
        if 0.0 < x < 2.0 and 0.0 < y < 1.0:
            continue
        mesh.groups[f"N{i}"] = CellBlock("point", [[i]])
        ux, uy = (np.cos(theta) - 1) * x - np.sin(theta) * y, np.sin(theta) * x + (np.cos(theta) - 1) * y
        supports += [Support(f"N{i}", ("dx",), value=ux), Support(f"N{i}", ("dy",), value=uy)]
    model = Model(mesh, bodies=[Body("BODY", E=2.1e11, nu=0.3, rho=1.0)], supports=supports)
    result = StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0)).run()
    # (the initial record has the boundary turned and the inner nodes not yet moved)
    assert result.histories["BODY:rotation"][-1] == pytest.approx(theta, rel=0.0, abs=1e-14)
    assert result.warnings == []


@pytest.mark.parametrize("shuffled", [False, True])
def test_the_recorded_rotation_is_the_best_fit_of_the_nodes(shuffled):
    """Two bodies, a random displacement with some dofs held: each body's recorded rotation
    is rigid_rotation of its nodes weighted by their areas, whether its dofs are numbered
    together (a slice of the state) or among the other body's (gathered)."""
    from fem2d.dynamics.rotation import BodyRotations, node_areas, rigid_rotation
    from fem2d.dynamics.stepper import StepState
    from fem2d.mesh.mesh import Mesh
    from fem2d.model import Support

    mesh = gridmesh.compose({"A": (0.0, 0.0, 2.0, 1.0, 4, 2), "B": (3.0, 0.0, 4.0, 3.0, 2, 6)})
    if shuffled:  # the nodes renumbered at random: each body's dofs spread over the whole state
        order = np.random.default_rng(1).permutation(mesh.n_nodes)
        new = np.argsort(order)
        mesh = Mesh(mesh.points[order], {k: CellBlock(b.kind, new[b.nodes]) for k, b in mesh.groups.items()})
    model = Model(mesh, bodies=[Body("A", E=1e9, nu=0.3, rho=1.0), Body("B", E=1e9, nu=0.3, rho=1.0)],
                  supports=[Support("B_BOTTOM", value=0.1)])
    system = model.assemble()
    u = np.random.default_rng(2).normal(scale=0.2, size=system.n_dofs)
    u[system.fixed] = 0.1
    rotations = BodyRotations(system, {"A": mesh.group("A"), "B": mesh.group("B")})
    state = StepState(0.0, u[system.free], 0 * u[system.free], 0 * u[system.free])
    for name in ("A", "B"):
        nodes, areas = node_areas(mesh.points, mesh.group(name))
        expected = rigid_rotation(mesh.points[nodes], mesh.points[nodes] + u.reshape(-1, 2)[nodes], areas)
        assert rotations.rotation(name, state, system.prescribed_at(0.0)) == pytest.approx(expected, abs=1e-14)
        assert abs(expected) > 1e-3  # (a displacement that turns the body)
    assert isinstance(rotations._terms["A"][1], slice) != shuffled
