"""Several contact zones solved together (fem2d.dynamics.coupling): a bar
between two walls with a different Coulomb coefficient on each, a block whose
contact surface is split in two zones, and the ``[[contact]]`` case syntax."""

import subprocess
import sys

import gridmesh
import numpy as np
import pytest

from fem2d.case.loading import load_case
from fem2d.errors import InputError
from fem2d.runs.result import run

# A bar (E = 100 Pa, rho = 1, c = 10 m/s, plane stress, nu = 0) of 1 m x 0.1 m
# between two fixed walls 0.05 m away, thrown at (1, 2) m/s: it hits the right
# wall at t = 0.05 s, leaves it at 0.25 s, hits the left wall at 0.35 s and
# leaves it at 0.55 s, sliding up both walls.
BAR_BETWEEN_WALLS = """
[case]
name = "bar_walls"
kind = "direct"

[mesh]
file = "{mesh}"

[model]
hypothesis = "plane_stress"

[[materials]]
group = "BAR"
E = 100.0
nu = 0.0
rho = 1.0

[[materials]]
group = "LWALL"
E = 100.0
nu = 0.0
rho = 0.0

[[materials]]
group = "RWALL"
E = 100.0
nu = 0.0
rho = 0.0

[[supports]]
group = "LWALL"
dofs = ["dx", "dy"]

[[supports]]
group = "RWALL"
dofs = ["dx", "dy"]

[[initial]]
group = "BAR"
velocity = [1.0, 2.0]

[[contact]]
name = "right"
slave = "BAR_RIGHT"
master = "RWALL_LEFT"
mu = 0.1

[[contact]]
name = "left"
slave = "BAR_LEFT"
master = "LWALL_RIGHT"
mu = 0.2

[time]
scheme = "hht"   # damps the spurious contact oscillations of average acceleration
dt = 0.0025
end = 0.3

[report]
node = "BAR_SW"
extrema = 0
"""


@pytest.fixture
def bar_case(tmp_path):
    mesh = gridmesh.write(
        tmp_path / "bar_walls.msh",
        {
            "BAR": (0.0, 0.0, 1.0, 0.1, 20, 2),
            "LWALL": (-0.15, -1.0, -0.05, 2.5, 1, 1),
            "RWALL": (1.05, -1.0, 1.15, 2.5, 1, 1),
        },
    )
    path = tmp_path / "bar_walls.toml"
    path.write_text(BAR_BETWEEN_WALLS.format(mesh=mesh))
    return str(path)


def momentum(result) -> np.ndarray:
    """(P_x, P_y) of everything that moves (kg m/s per metre of thickness)."""
    system = result.fields.system
    p = system.expand(system.M_free @ result.fields.final_state.v, prescribed=False)
    return np.array([p[0::2].sum(), p[1::2].sum()])


def test_bar_between_two_walls_with_a_coulomb_coefficient_each(bar_case):
    """Each wall's friction impulse is its mu times its normal impulse: the
    transverse momentum lost at a wall is mu times the axial momentum the wall
    reversed (exact for the discrete system while every contact node slides,
    since the walls are the only external forces)."""
    mass = 0.1
    p0 = np.array([mass, 2 * mass])
    after_right = momentum(run(bar_case, {"time.end": 0.3}))
    after_left = momentum(run(bar_case, {"time.end": 0.6}))
    dp_right, dp_left = after_right - p0, after_left - after_right
    # the walls reverse the axial momentum (1-D waves: the bar leaves at -v0;
    # HHT's numerical damping keeps 90 % of it at this step)
    assert -2 * mass < dp_right[0] < -1.8 * mass
    assert 1.8 * mass * 0.9 < dp_left[0] < 2 * mass
    # each wall with its own mu
    assert dp_right[1] == pytest.approx(-0.1 * abs(dp_right[0]), rel=1e-6)
    assert dp_left[1] == pytest.approx(-0.2 * abs(dp_left[0]), rel=1e-6)


def test_each_zone_reports_its_own_forces(bar_case):
    result = run(bar_case, {"time.end": 0.3})
    assert result.timing["n_slave"] == 6  # three nodes on each end


def test_a_contact_surface_split_in_two_zones_gives_the_one_zone_answer(tmp_path):
    """A block pressed and pushed on a fixed base: its bottom as one zone, and
    as two zones (left and right halves) solved by Gauss-Seidel sweeps, give
    the same motion (the halves interact through the block's compliance)."""
    mesh = gridmesh.compose(
        {"BLOCK": (0.0, 0.0, 1.0, 0.5, 4, 2), "BASE": (-1.0, -0.2, 3.0, 0.0, 4, 1)}
    )
    from fem2d.mesh.mesh import CellBlock

    bottom = mesh.groups["BLOCK_BOTTOM"].nodes
    mesh.groups["HALF_L"] = CellBlock("seg2", bottom[:2])
    mesh.groups["HALF_R"] = CellBlock("seg2", bottom[2:])
    from fem2d.mesh.io import write_mesh

    write_mesh(mesh, tmp_path / "block.msh")
    common = f"""
[case]
name = "split"
kind = "direct"
[mesh]
file = "{tmp_path / 'block.msh'}"
[[materials]]
group = "BLOCK"
E = 1.0e6
nu = 0.3
rho = 1000.0
[[materials]]
group = "BASE"
E = 1.0e6
nu = 0.3
rho = 0.0
[[supports]]
group = "BASE"
dofs = ["dx", "dy"]
[[loads]]
type = "pressure"
group = "BLOCK_TOP"
value = 1.0e4
[[loads]]
type = "pressure"
group = "BLOCK_LEFT"
value = 4.0e3
[time]
dt = 0.005
end = 0.1
[report]
node = "BLOCK_SW"
extrema = 0
at_times = [0.05, 0.1]
"""
    one = tmp_path / "one.toml"
    one.write_text(common + '[contact]\nslave = "BLOCK_BOTTOM"\nmaster = "BASE_TOP"\nmu = 0.3\n')
    two = tmp_path / "two.toml"
    two.write_text(
        common
        + '[[contact]]\nslave = "HALF_L"\nmaster = "BASE_TOP"\nmu = 0.3\n'
        + '[[contact]]\nslave = "HALF_R"\nmaster = "BASE_TOP"\nmu = 0.3\n'
    )
    a, b = run(str(one)), run(str(two))
    ua = a.fields.final_state.u
    ub = b.fields.final_state.u
    assert np.abs(ua).max() > 1e-3  # it slid
    assert np.abs(ub - ua).max() <= 1e-8 * np.abs(ua).max()
    assert b.quantities["x_at_0.05"] == pytest.approx(a.quantities["x_at_0.05"], rel=1e-8)


def test_contact_overrides_address_one_zone_or_one_of_several(bar_case):
    case = load_case(bar_case, {"contact.1.mu": 0.4})
    assert [c["mu"] for c in case.settings["contact"]] == [0.1, 0.4]
    with pytest.raises(InputError, match=r"contact is a list of 2 tables; use contact.K.mu"):
        load_case(bar_case, {"contact.mu": 0.4})
    single = load_case("sdnv104a", {"contact.mu": 0.5})
    assert single.settings["contact"]["mu"] == 0.5
    with pytest.raises(InputError, match=r"contact is a single table; use contact.mu"):
        load_case("sdnv104a", {"contact.0.mu": 0.5})


@pytest.mark.parametrize(
    ("edit", "key"),
    [
        ('name = "right"', "contact[1].name"),  # two zones of one name
        ('slave = "NOPE"', "contact[1].slave"),
    ],
)
def test_bad_zone_input_is_one_line_naming_file_and_key(bar_case, tmp_path, edit, key):
    text = open(bar_case).read()
    first = text.index('name = "left"') if "name" in edit else text.index('slave = "BAR_LEFT"')
    end = text.index("\n", first)
    bad = tmp_path / "bad.toml"
    bad.write_text(text[:first] + edit + text[end:])
    proc = subprocess.run(
        [sys.executable, "-m", "fem2d.cli", "run", str(bad), "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and str(bad) in lines[0] and key in lines[0]


TWO_BARS = """
[case]
name = "two_free_bars"
kind = "direct"
[mesh]
file = "{mesh}"
[model]
hypothesis = "plane_stress"
[[materials]]
group = "STRIKER"
E = 100.0
nu = 0.0
rho = 1.0
[[materials]]
group = "STRUCK"
E = 100.0
nu = 0.0
rho = 1.0
[[initial]]
group = "STRIKER"
velocity = [1.0, 0.0]
[contact]
slave = "STRIKER_RIGHT"
master = "STRUCK_LEFT"
[time]
scheme = "hht"
dt = 0.0025
end = 0.3
[report]
node = "STRUCK_SW"
extrema = 0
"""


def test_two_free_bars_a_deformable_moving_master(tmp_path):
    """A bar at 1 m/s hits an identical free bar at rest 0.05 m away: no
    external force, so the total momentum stays m v0 to round-off; after the
    contact (t = 0.05 + 2 L / c = 0.25 s) the struck bar carries it (1-D waves:
    the striker stops), and the master surface moved 0.2 m without the slave
    leaving it."""
    mesh = gridmesh.write(
        tmp_path / "bars.msh", {"STRIKER": (0.0, 0.0, 1.0, 0.1, 20, 2), "STRUCK": (1.05, 0.0, 2.05, 0.1, 20, 2)}
    )
    path = tmp_path / "bars.toml"
    path.write_text(TWO_BARS.format(mesh=mesh))
    result = run(str(path))
    system, v = result.fields.system, result.fields.final_state.v
    p = system.expand(system.M_free @ v, prescribed=False)
    mass = 0.1
    struck = np.unique(system.mesh.group("STRUCK").nodes)
    assert p[0::2].sum() == pytest.approx(mass, rel=1e-10)
    assert abs(p[1::2].sum()) < 1e-12
    assert p[2 * struck].sum() == pytest.approx(mass, rel=0.06)  # HHT damping keeps 95 %
    assert result.histories["u"][-1] > 0.03  # the struck bar moved away
    assert result.histories["n_left_master"].max() == 0


def test_per_zone_and_per_body_quantities(bar_case):
    """Each wall's impulses and impact statistics under its name, the bar's
    momentum and mean velocity as quantities. The walls are the only external
    forces: the bar's momentum changes by exactly the walls' impulses (and,
    sliding all along, each wall's friction impulse is its mu times its normal
    impulse). The first impact: approach at 1 m/s, contact for 2 L / c = 0.2 s
    (1-D waves) to within the two sampling steps at its ends."""
    result = run(bar_case, {"time.end": 0.6, "report.bodies": ["BAR"], "time.scheme": "modified_mass"})
    q = result.quantities
    for zone, mu in (("right", 0.1), ("left", 0.2)):
        assert q[f"{zone}_normal_impulse"] > 0.15
        assert abs(q[f"{zone}_tangential_impulse"]) == pytest.approx(mu * q[f"{zone}_normal_impulse"], rel=1e-9)
        assert q[f"{zone}_n_impacts"] == 1
        assert q[f"{zone}_impact_1_impulse"] == pytest.approx(q[f"{zone}_normal_impulse"], rel=1e-12)
    assert q["right_impact_1_v_impact"] == pytest.approx(-1.0, rel=1e-9)
    assert q["right_impact_1_duration"] == pytest.approx(0.2, abs=2.5 * 0.0025)  # first and last samples
    assert q["right_impact_1_t_peak"] < q["left_impact_1_t_peak"]
    mass, (n_right, n_left) = 0.1, (q["right_normal_impulse"], q["left_normal_impulse"])
    assert q["BAR_momentum_x"] == pytest.approx(mass * 1.0 - n_right + n_left, rel=1e-10)
    assert q["BAR_momentum_y"] == pytest.approx(mass * 2.0 - 0.1 * n_right - 0.2 * n_left, rel=1e-10)
    assert q["BAR_velocity_x"] == pytest.approx(q["BAR_momentum_x"] / mass, rel=1e-10)
    assert "right:normal_force" in result.histories


@pytest.mark.parametrize("bodies", [["BAR_LEFT"], ["NOPE"]])
def test_bad_report_body_names_file_and_key(bar_case, bodies):
    with pytest.raises(InputError) as err:
        run(bar_case, {"report.bodies": bodies})
    assert str(err.value).startswith(f"{bar_case}: report.bodies[0]:") and "\n" not in str(err.value)


def test_the_readme_example_a_plane_and_a_penalty_wall(bar_case, tmp_path):
    """README's example: the right zone on a rigid plane at the right wall's
    face, the left zone by penalty; both walls act, each with its mu."""
    text = open(bar_case).read()
    text = text.replace(
        'master = "RWALL_LEFT"\nmu = 0.1\n', 'mu = 0.1\n[contact.plane]\npoint = [1.05, 0.0]\nnormal = [-1.0, 0.0]\n'
    )
    text = text.replace('master = "LWALL_RIGHT"\nmu = 0.2\n', 'master = "LWALL_RIGHT"\nmu = 0.2\nmethod = "penalty"\n')
    assert text.count("[contact.plane]") == 1 and 'method = "penalty"' in text
    path = tmp_path / "readme.toml"
    path.write_text(text)
    overrides = {"time.end": 0.6, "report.bodies": ["BAR"], "time.scheme": "modified_mass",
                 "report.groups": ["BAR_RIGHT"], "report.reactions": ["LWALL"]}
    q = run(str(path), overrides).quantities
    assert q["BAR_RIGHT_vx_max"] > 0.5 and q["BAR_RIGHT_vy_max"] > 1.5 and "LWALL_reaction_x" in q
    for zone, mu in (("right", 0.1), ("left", 0.2)):
        assert q[f"{zone}_normal_impulse"] > 0.15
        assert abs(q[f"{zone}_tangential_impulse"]) == pytest.approx(mu * q[f"{zone}_normal_impulse"], rel=1e-6)
    assert q["BAR_momentum_x"] == pytest.approx(0.1 - q["right_normal_impulse"] + q["left_normal_impulse"], rel=1e-9)


BLOCK_INTO_A_WALL = """
[case]
name = "block_wall"
kind = "direct"
[mesh]
geometry = "rectangle"
[mesh.params]
length = 1.0
height = 0.5
nx = 4
ny = 2
[model]
hypothesis = "plane_strain"
[[materials]]
group = "BODY"
E = 1.0e7
nu = 0.3
rho = 1000.0
[[loads]]
type = "body"
group = "BODY"
vector = [0.0, -9810.0]
[[loads]]
type = "pressure"
group = "LEFT"
value = 2.0e4
[[contact]]
name = "floor"
slave = "BOTTOM"
mu = 0.3
[contact.plane]
point = [0.0, 0.0]
normal = [0.0, 1.0]
[[contact]]
name = "wall"
slave = "RIGHT"
mu = 0.3
[contact.plane]
point = [1.05, 0.0]
normal = [-1.0, 0.0]
[time]
dt = 0.004
end = 0.1
[report]
node = "SE"
extrema = 0
bodies = ["BODY"]
"""


def test_a_corner_held_by_two_zones_does_not_stall_the_sweeps(tmp_path):
    """A block pushed over a frictional floor into a rigid wall, default settings: its
    corner SE is slave to both zones, and once it sticks on the floor against the wall
    its horizontal motion is held twice (floor friction, wall normal force). The split
    is not unique and the zones' Gauss-Seidel sweeps shifted force between them forever
    (each sweep 1.0e-10 of the largest force): the run failed at t = 0.0946 s. The
    sweeps stop when the boundary no longer moves; the run goes through the impact
    without creating energy."""
    path = tmp_path / "block_wall.toml"
    path.write_text(BLOCK_INTO_A_WALL)
    result = run(str(path))
    q, h = result.quantities, result.histories
    assert h["time"][-1] == pytest.approx(0.1) and h["wall:normal_force"][-1] > 0.0  # against the wall
    assert q["energy_growth"] < 0.01


def test_the_momentum_of_a_block_in_two_zones_is_the_impulse_of_its_loads(tmp_path):
    """The block pushed along the floor towards the wall, before it reaches the wall
    (t < 0.0766 s): the modified mass (with average acceleration, time.scheme =
    "modified_mass") takes the inertia off
    both zones' boundary nodes, and the average-acceleration step changes the momentum
    by exactly the trapezoidal impulse of the push (1e4 N), the weight (4905 N) and
    the floor's forces, step by step. The initial acceleration was the consistent
    mass's: where it differs between a contact node and its neighbour (the right side's
    nodes, massless through the wall zone) the modified mass turned it into 536 N less
    push over the first step, 1.07 N s of momentum missing for ever."""
    from scipy.integrate import cumulative_trapezoid

    path = tmp_path / "block_wall.toml"
    path.write_text(BLOCK_INTO_A_WALL)
    h = run(str(path), {"time.end": 0.07, "time.scheme": "modified_mass"}).histories
    t = h["time"]
    assert t[-1] == pytest.approx(0.07) and np.all(h["wall:normal_force"] == 0.0)
    px = 1.0e4 * t + cumulative_trapezoid(h["floor:tangential_force"], t, initial=0.0)
    py = -4905.0 * t + cumulative_trapezoid(h["floor:normal_force"], t, initial=0.0)
    assert np.abs(h["BODY:momentum_x"] - px).max() < 1e-9 * 700.0
    assert np.abs(h["BODY:momentum_y"] - py).max() < 1e-9 * 700.0
    assert h["BODY:momentum_x"][-1] == pytest.approx(599.3916, abs=1e-4)  # 598.5357 with the 1.07 N s missing


def test_a_friction_jump_at_a_corner_held_by_two_zones_is_the_zones_own(tmp_path, monkeypatch):
    """The block against the wall: its floor slip reverses at t = 0.0873 s and the
    stick/slip locator restarts the step there with the friction jump. The corner SE is
    slave to both zones; the jump along the floor's tangent was read from the corner's
    total force, wall normal force included, 14065 N where the floor's Coulomb friction
    can change by at most 2 mu F_n = 8640 N. Each zone's jump is its own force's."""
    from fem2d.dynamics import stickslip

    jumps = []
    restart = stickslip.StickSlipLocator.restart

    def spy(self, stepper, event, t_target):
        new = restart(self, stepper, event, t_target)
        s = stepper.system
        dma = stepper.scheme.mass(s) @ (new.a - event.a)
        x, y = s.free_index[0::2], s.free_index[1::2]
        floor, wall = event.solution.parts
        jumps.append((dma[x[x >= 0]].sum(), dma[y[y >= 0]].sum(), floor.normal_force.sum(), wall.normal_force.sum()))
        return new

    monkeypatch.setattr(stickslip.StickSlipLocator, "restart", spy)
    path = tmp_path / "block_wall.toml"
    path.write_text(BLOCK_INTO_A_WALL)
    run(str(path), {"time.end": 0.092, "time.scheme": "modified_mass"})  # the step the jump was measured on
    assert len(jumps) == 1
    jump_x, jump_y, floor_n, wall_n = jumps[0]
    assert floor_n > 1e4 and wall_n > 5e4
    assert 0.0 < jump_x <= 2 * 0.3 * floor_n  # the floor's friction along +x (it slid along -x)
    assert abs(jump_y) <= 2 * 0.3 * wall_n
    assert jump_x == pytest.approx(0.3 * floor_n, rel=1e-3)  # -mu F_n before, none after (the floor opens)
