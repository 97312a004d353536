"""Energies with prescribed displacements, and energy_drift of a run that
starts with no energy: exact values."""

import gridmesh
import numpy as np
import pytest

from fem2d.runs.result import run

E, H, L, NX = 100.0, 0.1, 1.0, 20

BAR = """
[case]
name = "bar"
kind = "direct"
[mesh]
file = "{mesh}"
[model]
hypothesis = "plane_stress"
lumped_mass = true
[[materials]]
group = "BAR"
E = 100.0
nu = 0.0
rho = 1.0
[[supports]]
group = "BAR_LEFT"
dofs = ["dx", "dy"]
{extra}
[time]
scheme = "newmark"
dt = 0.005
end = {end}
[report]
extrema = 0
"""


def write(tmp_path, extra: str, end: float = 1.0, name: str = "bar") -> str:
    mesh = gridmesh.write(tmp_path / f"{name}.msh", {"BAR": (0.0, 0.0, L, H, NX, 2)})
    path = tmp_path / f"{name}.toml"
    path.write_text(BAR.format(mesh=mesh, extra=extra, end=end))
    return str(path)


def test_a_support_displaced_from_the_start_stores_the_strain_of_its_cells(tmp_path):
    """The right end held at dx = delta while the bar starts undeformed: the
    last column of cells (length h = L / NX) is stretched uniformly (nu = 0),
    so the run starts with U(0) = E H delta^2 / (2 h); nothing works on the bar
    (the support does not move), and average acceleration keeps T + U equal
    to it at every step."""
    delta = 0.01
    result = run(write(tmp_path, f'[[supports]]\ngroup = "BAR_RIGHT"\ndofs = ["dx"]\nvalue = {delta}\n'))
    h = result.histories
    exact = E * H * delta**2 / (2 * L / NX)
    assert h["elastic"][0] == pytest.approx(exact, rel=1e-12)
    np.testing.assert_allclose(h["kinetic"] + h["elastic"], exact, rtol=1e-10)
    assert h["kinetic"].max() > 0.3 * exact  # it did vibrate
    assert np.abs(h["work_loads"]).max() < 1e-12 * exact
    assert abs(result.quantities["energy_drift"]) < 1e-10


def test_the_work_of_a_moving_support_is_its_reaction_work(tmp_path):
    """The right end pulled to delta by a slow ramp (T = 1 s, ten times the
    bar's first period 4 L / c) then held: the support's reaction work is what
    the bar holds, exactly (average acceleration and the trapezoidal reaction
    work close the balance to round-off), and quasi-statically the static
    energy k delta^2 / 2, k = E H / L, up to the vibration the ramp leaves."""
    delta = 0.01
    extra = (f'[[supports]]\ngroup = "BAR_RIGHT"\ndofs = ["dx"]\nvalue = {delta}\nfunction = "ramp"\n'
             '[functions.ramp]\ntype = "piecewise_linear"\nt = [0.0, 1.0, 2.0]\nvalues = [0.0, 1.0, 1.0]\n')
    result = run(write(tmp_path, extra, end=2.0))
    h = result.histories
    static = 0.5 * E * H / L * delta**2
    energy = h["kinetic"] + h["elastic"]
    np.testing.assert_allclose(energy, h["work_motions"], atol=1e-12 * static)
    assert abs(result.quantities["energy_drift"]) < 1e-10
    assert h["elastic"][-1] == pytest.approx(static, rel=0.02)
    assert h["work_motions"][-1] == pytest.approx(static, rel=0.02)
    assert np.abs(h["work_loads"]).max() == 0.0  # no load: the support's work is the imposed motion's


def test_energy_drift_of_a_run_set_moving_by_created_energy_is_not_zero(tmp_path):
    """A bar started 1 mm inside a rigid plane, at rest and unloaded:
    E(0) = W = 0. Contact pushes it out, creating all the energy it then
    holds: energy_drift = (E(end) + D(end)) / max(E + D) (about 1 once it has
    left the plane, average acceleration keeping its energy), it warns."""
    extra = '[contact]\nslave = "BAR_RIGHT"\n[contact.plane]\npoint = [0.999, 0.0]\nnormal = [-1.0, 0.0]\n'
    held = '[[supports]]\ngroup = "BAR_LEFT"\ndofs = ["dx", "dy"]\n'
    text = open(write(tmp_path, extra, end=0.5)).read().replace(held, "")
    path = tmp_path / "inside.toml"
    path.write_text(text)
    result = run(str(path))
    h = result.histories
    energy = h["kinetic"] + h["elastic"] + h["friction_dissipation"]
    assert energy[0] == 0.0 and h["work_loads"][-1] == 0.0 and energy.max() > 1e-6
    assert result.quantities["energy_drift"] == pytest.approx(energy[-1] / energy.max(), rel=1e-12)
    assert result.quantities["energy_drift"] > 0.5
    assert result.quantities["energy_growth"] == pytest.approx(1.0, rel=1e-12)
    assert any("energy grew" in w for w in result.warnings)
    # at rest, nothing moves: 0
    rest = run(write(tmp_path, "", end=0.05, name="rest"))
    assert rest.quantities["energy_drift"] == 0.0 and rest.quantities["energy_growth"] == 0.0


def test_a_moving_support_groups_motion_is_its_prescribed_history(tmp_path):
    """[report] groups on the moved end: its mean displacement and velocity
    are the prescribed ramp's, delta t / T and delta / T, then delta and 0."""
    delta = 0.01
    extra = (f'[[supports]]\ngroup = "BAR_RIGHT"\ndofs = ["dx"]\nvalue = {delta}\nfunction = "ramp"\n'
             '[functions.ramp]\ntype = "piecewise_linear"\nt = [0.0, 1.0, 2.0]\nvalues = [0.0, 1.0, 1.0]\n'
             '[report]\ngroups = ["BAR_RIGHT", "BAR_LEFT"]\nat_times = [0.5, 1.5]\n')
    path = write(tmp_path, extra, end=2.0)
    text = open(path).read().replace("[report]\nextrema = 0\n", "")
    open(path, "w").write(text)
    q = run(path).quantities
    assert q["BAR_RIGHT_dx_at_0.50"] == pytest.approx(0.5 * delta, rel=1e-12)
    assert q["BAR_RIGHT_vx_at_0.50"] == pytest.approx(delta, rel=1e-6)
    assert q["BAR_RIGHT_dx_at_1.50"] == pytest.approx(delta, rel=1e-12) and q["BAR_RIGHT_vx_at_1.50"] == 0.0
    assert q["BAR_LEFT_dx_at_1.50"] == 0.0 and q["BAR_LEFT_vx_max"] == 0.0
