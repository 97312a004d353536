"""The gain of the explicit wear update (fem2d.contact.wear_gain): measured against the runs.

The reference: Archard's steady state of a block pressed by P on a plane tilted by 1 um over its
width, which slides along itself (the block held from turning by its sides, free to go down). A
step feeds back the depth it wore; the error of the forces goes as (I - K D)^n, so the update
converges while the gain mu = lambda_max(D^1/2 K D^1/2) is below 2 and grows beyond. With
8 x 4 QUAD4 cells, E = 1e9 Pa and k = 1e-9 /Pa over a slide of 0.1 m, mu = 40 / steps; the
largest K of the slave nodes is that of their node-to-node mode.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import fem2d
import fem2d.dynamics.coupling as coupling
from fem2d.cli import main
from fem2d.contact.kinematics import slave_weights
from fem2d.errors import NumericalError
from fem2d.mesh.builders import rectangle
from fem2d.model.timefunctions import PiecewiseLinear
from fem2d.runs.static import StaticAnalysis

P, V, T, L, H, E, RISE, K = 1e6, 0.1, 1.0, 0.02, 0.01, 1e9, 1e-6, 1e-9


def tilted(steps: int, acceleration: float = 1.0, update: bool = True):
    normal = np.array([-RISE / L, 1.0]) / np.hypot(RISE / L, 1.0)
    along = np.array([normal[1], -normal[0]])
    plane = fem2d.RigidPlane((0.0, 0.0), tuple(normal), displacement=tuple(V * T * along),
                             function=PiecewiseLinear((0.0, T), (0.0, 1.0)))
    wear = fem2d.Wear(K / acceleration, acceleration=acceleration, update=update)
    model = fem2d.Model(rectangle(L, H, 8, 4), bodies=[fem2d.Body("BODY", E=E, nu=0.0, rho=1.0)],
                        supports=[fem2d.Support("LEFT", ("dx",)), fem2d.Support("RIGHT", ("dx",))],
                        loads=[fem2d.Pressure("TOP", P)], contacts=[fem2d.Contact("BOTTOM", plane, wear=wear)])
    return StaticAnalysis(model, fem2d.TimeStepping(dt=T / steps, end=T), report=fem2d.Report("SW", "dy")).run()


def spread(result) -> np.ndarray:
    pressure = result.histories["slave_normal_force"][1:] / slave_weights(result.fields.system.zones[0])
    return np.ptp(pressure, axis=1) / P


def test_the_gain_is_proportional_to_the_step_and_to_the_acceleration():
    """mu = a k |ds| lambda_max(K) / w: 40 / steps at every step; the same with a = 2 and k / 2."""
    for steps, acceleration in ((45, 1.0), (60, 1.0), (60, 2.0)):
        result = tilted(steps, acceleration)
        gain = result.histories["wear_gain"][1:]
        assert gain == pytest.approx(np.full(len(gain), 40.0 / steps), rel=1e-4)
        assert result.quantities["wear_update_gain"] == pytest.approx(40.0 / steps, rel=1e-4)


def test_below_a_gain_of_2_the_update_converges_above_it_grows(monkeypatch):
    """22 steps (mu = 1.82): the pressure's spread falls from 7.7 % to 0.1 %, with a warning that the
    pressure oscillates from node to node; 18 steps (mu = 2.22) with the guard lifted: it grows
    above its start; with the guard the run stops at its first wearing step, naming the zone and
    the settings to change."""
    with pytest.warns(fem2d.Fem2dWarning, match=r"wear update's gain reached 1.82"):
        converging = tilted(22)
    assert spread(converging)[0] > 0.07 and spread(converging)[-1] < 2e-3
    with pytest.raises(NumericalError, match=r"zone 'BOTTOM/plane': the explicit wear update is unstable at "
                       r"t = 0.0555556 s: its gain a k \|ds\| / \(w C\) is 2.22 > 2 .*take a step 4.44 times "
                       r"shorter \(time.dt\)"):
        tilted(18)
    monkeypatch.setattr(coupling, "UNSTABLE", np.inf)
    with pytest.warns(fem2d.Fem2dWarning):
        growing = tilted(18)
    assert spread(growing)[-1] > 3.0 * spread(growing)[0]


def test_without_update_nothing_is_fed_back_and_the_gain_is_zero():
    result = tilted(10, update=False)
    assert result.quantities["wear_update_gain"] == 0.0
    assert spread(result) == pytest.approx(np.full(10, spread(result)[0]), rel=1e-6)


def test_a_case_whose_update_is_unstable_exits_1_naming_the_key(tmp_path, capsys):
    from tests.test_wear_case import _case

    path = _case(tmp_path)
    out = tmp_path / "out"
    assert main(["run", str(path), "--quiet", "--out", str(out), "--set", "contact.wear.coefficient=1e-8"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(path) in err[0]
    assert "times shorter (time.dt) or a smaller contact.wear.coefficient" in err[0]
    assert main(["run", str(path), "--quiet", "--out", str(out)]) == 0
    gain = json.loads((out / "result.json").read_text())["quantities"]["wear_update_gain"]
    assert 0.0 < gain < 0.01
