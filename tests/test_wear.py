"""Archard wear inside direct runs, against exact answers.

The reference: an elastic block (nu = 0) pressed by a uniform pressure P on a rigid
frictionless plane that slides under it at the constant speed V. The pressure on the
plane is P everywhere, so Archard's law wears the slave surface uniformly,
h(t2) - h(t1) = k P V (t2 - t1), and the worn area per unit thickness is h times the
block's width. The load is applied at t = 0, so the first steps carry the block's
transient (the time scheme annihilates it in three steps): the wear is checked over the
second half of the run, where the pressure is P to 1e-6.
"""

from __future__ import annotations

import numpy as np
import pytest

import fem2d
from fem2d.contact.archard import archard_increment
from fem2d.errors import ModelError
from fem2d.mesh.builders import rectangle
from fem2d.model.timefunctions import PiecewiseLinear

P, V, T, K, L, H = 1e6, 0.1, 1.0, 1e-12, 0.02, 0.01


def block(wear, element="quad4", method=None, dt=0.05, nx=4, end=T):
    mesh = rectangle(L, H, nx, 2, element)
    plane = fem2d.RigidPlane((0.0, 0.0), (0.0, 1.0), displacement=(V * T, 0.0),
                             function=PiecewiseLinear((0.0, T), (0.0, 1.0)))
    model = fem2d.Model(mesh, bodies=[fem2d.Body("BODY", E=1e9, nu=0.0, rho=1.0)],
                        supports=[fem2d.Support("TOP", components=("dx",))], loads=[fem2d.Pressure("TOP", P)],
                        contacts=[fem2d.Contact("BOTTOM", plane, mu=0.0, wear=wear, method=method)])
    return fem2d.DirectAnalysis(model, fem2d.TimeStepping(dt=dt, end=end), fem2d.NewmarkScheme.generalized_alpha(0.0),
                                report=fem2d.Report("SW", "dy")).run()


def depth_history(result) -> np.ndarray:
    return result.histories["slave_wear_depth"]


def second_half(result, series: np.ndarray) -> np.ndarray:
    i = int(np.searchsorted(result.histories["time"], 0.5 * T - 1e-9))
    return series[-1] - series[i]


METHODS = {"lagrange": None, "mortar": lambda: fem2d.LagrangeFormulation(discretization="mortar"),
           "penalty": fem2d.PenaltyFormulation, "continuous": fem2d.ContinuousFormulation}


# the continuous method's energy balance of the sudden load's transient (the same without wear) is no wear's
@pytest.mark.filterwarnings("ignore:energy grew")
@pytest.mark.parametrize("element", ["quad4", "quad8"])
@pytest.mark.parametrize("method", sorted(METHODS))
@pytest.mark.parametrize("update", [True, False])
def test_a_block_sliding_under_a_uniform_pressure_wears_uniformly_by_k_p_v_t(element, method, update):
    """Every slave node's depth grows by k P V dt to the transient's 1e-6 (1e-4 allowed: a factor of a
    weight, a pressure, a slip or a step would be 2 to 100 % off); the worn area is the depth times
    the width to 1e-7 (the nodal forces sum to P L exactly); on a rigid plane under a uniform pressure
    the update only moves the block down by h, which changes nothing."""
    make = METHODS[method]
    result = block(fem2d.Wear(K, update=update), element, make() if make else None)
    exact = K * P * V * 0.5 * T
    assert second_half(result, depth_history(result)) == pytest.approx(np.full(9 if element == "quad8" else 5, exact),
                                                                      rel=1e-4)
    assert second_half(result, result.histories["worn_area"]) == pytest.approx(exact * L, rel=1e-7)
    q = result.quantities
    assert q["worn_area"] == pytest.approx(result.histories["worn_area"][-1])
    assert q["max_wear_depth"] == pytest.approx(depth_history(result)[-1].max())
    # code_aster's wear power: the mean |F_n v_t| over the run, P L V once the load is on
    assert second_half(result, np.cumsum(result.histories["wear_power"] * result.histories["dt"])) == pytest.approx(
        P * L * V * 0.5 * T, rel=1e-7)


def test_the_update_moves_the_block_down_by_the_worn_depth():
    """With the update the worn surface sits h lower: the block's corner goes down by the depth more
    than without it. The gaps of a step add the depth worn before it (the wear of a step is taken
    from its solution), so the end of the run is lower by the depth before its last step."""
    k = 1e-10  # h = k P V T = 1e-5 m at the end, as large as the elastic approach
    worn, kept = block(fem2d.Wear(k)), block(fem2d.Wear(k, update=False))
    depth = depth_history(worn)[-1]
    assert depth == pytest.approx(depth_history(kept)[-1], rel=1e-4)
    drop = kept.histories["u"][-1] - worn.histories["u"][-1]
    assert drop == pytest.approx(depth_history(worn)[-2][0], rel=1e-4)
    assert abs(drop - depth[0]) == pytest.approx(k * P * V * 0.05, rel=1e-3)  # one step's wear, 5 % of the depth


def test_the_acceleration_multiplies_the_wear_of_a_steady_problem():
    """Acceleration a: the same motion wears a times as much (the depth grows linearly in time), exactly
    up to the forces' round-off."""
    one, ten = block(fem2d.Wear(K)), block(fem2d.Wear(K, acceleration=10.0))
    assert depth_history(ten)[-1] == pytest.approx(10.0 * depth_history(one)[-1], rel=1e-9)
    assert ten.quantities["worn_area"] == pytest.approx(10.0 * one.quantities["worn_area"], rel=1e-9)
    assert ten.quantities["wear_power"] == pytest.approx(one.quantities["wear_power"], rel=1e-9)


def test_a_zone_that_does_not_wear_reports_no_wear_and_a_zero_coefficient_changes_nothing():
    plain, zero = block(None), block(fem2d.Wear(0.0))
    assert "worn_area" not in plain.quantities and "worn_area" not in plain.histories
    assert zero.quantities["worn_area"] == 0.0
    for name, value in plain.quantities.items():
        assert zero.quantities[name] == value, name


def test_the_archard_increment_is_k_p_slip():
    inc = archard_increment(2e-12, np.array([10.0, 10.0, 0.0, 4.0]), np.array([0.5, 0.25, 1.0, 0.0]),
                            np.array([1e-3, -2e-3, 1.0, 1.0]), 3.0)
    assert inc.tolist() == pytest.approx([3.0 * 2e-12 * 20.0 * 1e-3, 3.0 * 2e-12 * 40.0 * 2e-3, 0.0, 0.0], rel=1e-15)


@pytest.mark.parametrize("arguments, message", [
    ({"coefficient": -1e-13}, "Wear.coefficient: expected a finite wear coefficient >= 0"),
    ({"coefficient": float("nan")}, "Wear.coefficient: expected a finite wear coefficient >= 0"),
    ({"coefficient": 1e-13, "acceleration": 0.5}, "Wear.acceleration: expected a finite factor >= 1"),
    ({"coefficient": 1e-13, "surface": "top"}, "Wear.surface: expected one of slave, master, both"),
    ({"coefficient": 1e-13, "update": "yes"}, "Wear.update: expected true or false"),
])
def test_bad_wear_settings_are_refused(arguments, message):
    with pytest.raises(ModelError, match=message):
        fem2d.Wear(**arguments)


@pytest.mark.parametrize("surface", ["master", "both"])
def test_a_rigid_master_does_not_wear(surface):
    with pytest.raises(ModelError, match="Contact.wear: surface = .*: a rigid master does not wear"):
        fem2d.Contact("BOTTOM", fem2d.RigidPlane((0.0, 0.0), (0.0, 1.0)), wear=fem2d.Wear(K, surface=surface))


def test_a_static_run_wears_by_the_slip_of_its_load_steps():
    """Quasi-static sliding (load steps of 0.1 s): no transient, so the depth is k P V T to round-off;
    with the update the bottom, held on the plane, sinks by the depth worn before the last step."""
    from fem2d.runs.static import StaticAnalysis

    plane = fem2d.RigidPlane((0.0, 0.0), (0.0, 1.0), displacement=(V * T, 0.0),
                             function=PiecewiseLinear((0.0, T), (0.0, 1.0)))
    sunk = {}
    for update in (True, False):
        model = fem2d.Model(rectangle(L, H, 4, 2), bodies=[fem2d.Body("BODY", E=1e9, nu=0.0, rho=1.0)],
                            supports=[fem2d.Support("TOP", components=("dx",))], loads=[fem2d.Pressure("TOP", P)],
                            contacts=[fem2d.Contact("BOTTOM", plane, wear=fem2d.Wear(K, update=update))])
        result = StaticAnalysis(model, fem2d.TimeStepping(dt=0.1, end=T), report=fem2d.Report("SW", "dy")).run()
        assert depth_history(result)[-1] == pytest.approx(np.full(5, K * P * V * T), rel=1e-9)
        assert result.quantities["worn_area"] == pytest.approx(K * P * V * T * L, rel=1e-9)
        assert result.quantities["max_wear_depth"] == pytest.approx(K * P * V * T, rel=1e-9)
        sunk[update] = -result.histories["u"][-1]
    assert sunk[False] == 0.0
    assert sunk[True] == pytest.approx(0.9 * K * P * V * T, rel=1e-9)


def pressed_block(wear, steps, method=None, element="quad8"):
    """The block's top held down by D (a rigid punch), the plane sliding under it at V: static."""
    from fem2d.runs.static import StaticAnalysis

    plane = fem2d.RigidPlane((0.0, 0.0), (0.0, 1.0), displacement=(V * T, 0.0),
                             function=PiecewiseLinear((0.0, T), (0.0, 1.0)))
    model = fem2d.Model(rectangle(L, H, 4, 2, element), bodies=[fem2d.Body("BODY", E=E_BLOCK, nu=0.0, rho=1.0)],
                        supports=[fem2d.Support("TOP", ("dx",)), fem2d.Support("TOP", ("dy",), value=-D)],
                        contacts=[fem2d.Contact("BOTTOM", plane, wear=wear, method=method)])
    return StaticAnalysis(model, fem2d.TimeStepping(dt=T / steps, end=T), report=fem2d.Report("SW", "dy")).run()


E_BLOCK, D = 1e9, 1e-5
#: the rate of the pressure's decay, E k V / H, is 1/T with this coefficient
K_FAST = H / (E_BLOCK * V * T)


@pytest.mark.parametrize("method", ["lagrange", "mortar"])
def test_the_update_relieves_a_block_held_down_as_it_wears(method):
    """The top held D down, the pressure p = E (D - h) / H falls as the surface wears: dh/dt = k V p
    gives p = p0 exp(-lambda t), lambda = E k V / H. The run adds the depth worn before each step to
    its gaps, so its pressure is exactly the explicit recurrence p_n = p0 (1 - lambda dt)^(n-1)
    (to 1e-9), within lambda dt / 2 of the exponential; without the update it stays p0."""
    make = METHODS[method]
    steps = 20
    worn = pressed_block(fem2d.Wear(K_FAST), steps, make() if make else None)
    force = worn.histories["normal_force"]
    f0 = E_BLOCK * D / H * L
    lam_dt = E_BLOCK * K_FAST * V / H * T / steps
    assert force[1:] == pytest.approx(f0 * (1.0 - lam_dt) ** np.arange(steps), rel=1e-9)
    exact = f0 * np.exp(-1.0)
    assert abs(force[-1] / exact - 1.0) < 0.6 * lam_dt
    kept = pressed_block(fem2d.Wear(K_FAST, update=False), steps, make() if make else None)
    assert kept.histories["normal_force"][1:] == pytest.approx(np.full(steps, f0), rel=1e-9)
    assert kept.quantities["max_wear_depth"] == pytest.approx(K_FAST * f0 / L * V * T, rel=1e-9)


def test_the_acceleration_error_on_a_relieving_block_is_first_order_in_a_lambda_dt():
    """Acceleration a over T stands for a T of wear: the exact depth is D (1 - exp(-a lambda T)). The
    error is that of the explicit step a lambda dt: below a lambda dt / 2, halved when dt is halved."""
    errors = {}
    for a in (1.0, 2.0, 4.0):
        exact = D * (1.0 - np.exp(-a))
        for steps in (20, 40):
            depth = pressed_block(fem2d.Wear(K_FAST, acceleration=a), steps, element="quad4")
            errors[a, steps] = abs(depth.quantities["max_wear_depth"] / exact - 1.0)
            assert errors[a, steps] < 0.5 * a / steps
        assert 1.8 < errors[a, 20] / errors[a, 40] < 2.2


@pytest.mark.parametrize("discretization", ["node_to_segment", "mortar"])
def test_a_block_on_a_moving_mesh_master_wears_by_the_relative_slip(discretization):
    """SDNV104's mesh, statically: the block pressed by P on its support, whose nodes are moved by -s
    along x (a master of mesh edges, not matching the block's); the block held in x. Its slip relative
    to the master is s, the pressure P: the depth is k P s, uniform, to round-off."""
    from fem2d.mesh.builders import sliding_block
    from fem2d.runs.static import StaticAnalysis

    s, pressure, k = 2.0, 7e4, 1e-12
    ramp = PiecewiseLinear((0.0, T), (0.0, 1.0))
    model = fem2d.Model(sliding_block(support_cells=(20, 1)),
                        bodies=[fem2d.Body("PATIN", E=2.1e11, nu=0.0, rho=7000.0),
                                fem2d.Body("BATI", E=1e11, nu=0.0, rho=0.0)],
                        supports=[fem2d.Support("BATI", ("dx",), value=-s, function=ramp),
                                  fem2d.Support("BATI", ("dy",)), fem2d.Support("FSUP", ("dx",)),
                                  fem2d.Support("R1"), fem2d.Support("R2")],  # the springs' free ends
                        loads=[fem2d.Pressure("FSUP", pressure)],
                        contacts=[fem2d.Contact("LESC", "LMAI", wear=fem2d.Wear(k),
                                                method=fem2d.LagrangeFormulation(discretization=discretization))])
    result = StaticAnalysis(model, fem2d.TimeStepping(dt=0.25, end=T), report=fem2d.Report("A", "dy")).run()
    assert result.histories["slave_wear_depth"][-1] == pytest.approx(np.full(6, k * pressure * s), rel=1e-9)
    assert result.quantities["worn_area"] == pytest.approx(k * pressure * s * 1.0, rel=1e-9)


def test_an_axisymmetric_sleeve_wears_a_volume_with_2_pi_r():
    """A sleeve (a < r < b) squeezed by an outer pressure onto a rigid shaft r = a that slides along
    the axis at V (nu = 0: the axial direction is decoupled, the pressure uniform along the bore).
    The forces and the worn area are the whole ring's: the worn volume is k s sum_k F_k dt_k V
    (m^3), and 2 pi a H times the uniform depth. With the update the bore moves out of the shaft by
    the depth, which relieves the ring: its force falls at every step (without, it stays)."""
    from fem2d.runs.static import StaticAnalysis

    a, b, height, k, steps = 0.05, 0.06, 0.02, 1e-12, 4
    shaft = fem2d.RigidPlane((a, 0.0), (1.0, 0.0), displacement=(0.0, V * T),
                             function=PiecewiseLinear((0.0, T), (0.0, 1.0)))
    forces = {}
    for update in (True, False):
        model = fem2d.Model(rectangle(b - a, height, 2, 4, origin=(a, 0.0)),
                            bodies=[fem2d.Body("BODY", E=1e9, nu=0.0, rho=1.0, hypothesis="axisymmetric")],
                            supports=[fem2d.Support("RIGHT", ("dy",))], loads=[fem2d.Pressure("RIGHT", P)],
                            contacts=[fem2d.Contact("LEFT", shaft, wear=fem2d.Wear(k, update=update))])
        result = StaticAnalysis(model, fem2d.TimeStepping(dt=T / steps, end=T), report=fem2d.Report("SW", "dx")).run()
        depth = depth_history(result)[-1]
        force = result.histories["normal_force"][1:]
        assert depth == pytest.approx(np.full(5, depth.mean()), rel=1e-9)
        assert result.quantities["worn_area"] == pytest.approx(2.0 * np.pi * a * height * depth.mean(), rel=1e-9)
        assert result.quantities["worn_area"] == pytest.approx(k * V * T / steps * force.sum(), rel=1e-9)
        forces[update] = force
    assert np.all(np.diff(forces[True]) < 0.0)
    assert forces[False] == pytest.approx(np.full(steps, forces[False][0]), rel=1e-9)


def test_the_example_of_the_wear_page_prints_what_its_comment_says(capsys):
    """docs/theory/wear.md, "An example": its run and its printed line."""
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "theory" / "wear.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"## An example.*?```python\n(.*?)```", page, flags=re.S)
    exec(compile(block, "docs/theory/wear.md", "exec"), {"__name__": "__main__"})
    assert capsys.readouterr().out.strip() == re.search(r"# (h = .*)", block).group(1)


def test_a_depth_beyond_a_tenth_of_the_slave_edges_is_warned():
    """Edges of 5 mm: a worn depth of 1e-3 m (k 100 times the relief's, no update) passes 10 % of them."""
    with pytest.warns(fem2d.Fem2dWarning, match="the worn depth .* passes 10% of the shortest slave edge"):
        pressed_block(fem2d.Wear(100.0 * K_FAST, update=False), 4)
    result = pressed_block(fem2d.Wear(K_FAST, update=False), 4)  # 1e-5 m: 0.2 % of the edges
    assert not [w for w in result.warnings if "worn depth" in w]


def test_two_zones_wear_each_by_its_own_slip():
    """The block pressed by P on a floor sliding at V and by P / 2 against a fixed wall (nu = 0: the
    pressures are uniform, P and P / 2; no update): the floor's zone wears k P V T, the wall's next
    to none (no slip along it but the block's elastic shortening), and each zone has its own worn area."""
    from fem2d.runs.static import StaticAnalysis

    floor = fem2d.RigidPlane((0.0, 0.0), (0.0, 1.0), displacement=(V * T, 0.0),
                             function=PiecewiseLinear((0.0, T), (0.0, 1.0)))
    wall = fem2d.RigidPlane((0.0, 0.0), (1.0, 0.0))
    model = fem2d.Model(rectangle(L, H, 4, 2), bodies=[fem2d.Body("BODY", E=E_BLOCK, nu=0.0, rho=1.0)],
                        loads=[fem2d.Pressure("TOP", P), fem2d.Pressure("RIGHT", 0.5 * P)],
                        contacts=[fem2d.Contact("LEFT", wall, name="wall", wear=fem2d.Wear(K, update=False)),
                                  fem2d.Contact("BOTTOM", floor, name="floor", wear=fem2d.Wear(K, update=False))])
    result = StaticAnalysis(model, fem2d.TimeStepping(dt=0.1 * T, end=T), report=fem2d.Report("SW", "dy")).run()
    depth = result.histories["slave_wear_depth"][-1]
    n_wall = result.fields.system.zones[0].n_slave
    # the first load step shortens the block by P x / 2E along the floor (<= 1e-5 m of the 0.1 m): slip too
    assert depth[n_wall:] == pytest.approx(np.full(5, K * P * V * T), rel=2e-4)
    q = result.quantities
    assert q["floor_worn_area"] == pytest.approx(K * P * V * T * L, rel=2e-4)
    assert 0.0 < q["wall_worn_area"] < 1e-4 * q["floor_worn_area"]  # the wall's slip: the block's shortening
    assert q["worn_area"] == pytest.approx(q["floor_worn_area"] + q["wall_worn_area"], rel=1e-12)


def test_sdnv104_with_wear_rubs_its_friction_dissipation_over_mu_and_without_update_moves_as_before():
    """SDNV104 A (the block pushed along its support with mu = 0.3), dt = 0.01 s. A sliding node's
    friction force is mu F_n against its slip, a stuck one does not slip: the Archard energy
    sum F_n |ds| = wear_power T is the friction dissipation over mu (to 1.3e-4: the steps where the
    slip reverses). Without the update the wear changes nothing else: every other quantity is the
    run's without wear, to the last digit."""
    plain = fem2d.run("sdnv104a", {"time.dt": 0.01}).quantities
    worn = fem2d.run("sdnv104a", {"time.dt": 0.01, "contact.wear.coefficient": 1e-13, "contact.wear.update": False})
    q = worn.quantities
    duration = worn.histories["time"][-1] - worn.histories["time"][0]
    assert q["wear_power"] * duration == pytest.approx(q["friction_dissipation"] / 0.3, rel=1e-3)
    assert q["worn_area"] > 0.0
    assert {name: q[name] for name in plain} == plain


def test_a_punch_on_a_tilted_plane_wears_to_a_uniform_pressure():
    """Archard's steady state: the block (held from turning by its sides, free to go down) pressed
    by P on a plane tilted by 1 um over its width, which slides along itself. The tilt makes the
    pressure 7.7 % uneven; the surface wears where it is pressed most until it lies on the plane:
    with the update the pressure's spread falls at every step, to 0.2 % by E k V T / H = 10 (45 steps), and the
    worn profile is the tilt, d(x) - d(0) = theta x, to 5 % of theta L; without it the spread stays."""
    from fem2d.contact.kinematics import slave_weights
    from fem2d.runs.static import StaticAnalysis

    rise, k, steps = 1e-6, 1e-9, 45  # the update's gain 40 / steps (tests/test_wear_gain.py)
    normal = np.array([-rise / L, 1.0]) / np.hypot(rise / L, 1.0)
    along = np.array([normal[1], -normal[0]])
    spreads = {}
    for update in (True, False):
        plane = fem2d.RigidPlane((0.0, 0.0), tuple(normal), displacement=tuple(V * T * along),
                                 function=PiecewiseLinear((0.0, T), (0.0, 1.0)))
        model = fem2d.Model(rectangle(L, H, 8, 4), bodies=[fem2d.Body("BODY", E=E_BLOCK, nu=0.0, rho=1.0)],
                            supports=[fem2d.Support("LEFT", ("dx",)), fem2d.Support("RIGHT", ("dx",))],
                            loads=[fem2d.Pressure("TOP", P)],
                            contacts=[fem2d.Contact("BOTTOM", plane, wear=fem2d.Wear(k, update=update))])
        result = StaticAnalysis(model, fem2d.TimeStepping(dt=T / steps, end=T), report=fem2d.Report("SW", "dy")).run()
        zone = result.fields.system.zones[0]
        pressure = result.histories["slave_normal_force"][1:] / slave_weights(zone)
        assert result.histories["normal_force"][1:] == pytest.approx(np.full(steps, P * L), rel=1e-8)
        spreads[update] = np.ptp(pressure, axis=1) / P
        if update:
            x = zone.reference[: zone.n_slave, 0]
            depth = result.histories["slave_wear_depth"][-1]
            profile = depth - depth[np.argmin(x)]
    assert spreads[False] == pytest.approx(np.full(steps, spreads[False][0]), rel=1e-6)
    assert spreads[True][0] == pytest.approx(spreads[False][0], rel=1e-9) and spreads[True][0] > 0.07
    assert np.all(np.diff(spreads[True]) < 0.0) and spreads[True][-1] < 0.003
    assert profile == pytest.approx(rise * x / L, abs=0.05 * rise)


def test_the_vtu_series_and_pressure_csv_hold_the_worn_depth(tmp_path):
    """The static block of k P V t: the last VTU snapshot's wear_depth on the slave nodes, and
    pressure.csv's wear_depth_m at each report.pressure_at instant next to the pressure."""
    import meshio

    from fem2d.io.vtu import write_vtu_series

    mesh = rectangle(L, H, 4, 2)
    plane = fem2d.RigidPlane((0.0, 0.0), (0.0, 1.0), displacement=(V * T, 0.0),
                             function=PiecewiseLinear((0.0, T), (0.0, 1.0)))
    model = fem2d.Model(mesh, bodies=[fem2d.Body("BODY", E=1e9, nu=0.0, rho=1.0)],
                        supports=[fem2d.Support("TOP", components=("dx",))], loads=[fem2d.Pressure("TOP", P)],
                        contacts=[fem2d.Contact("BOTTOM", plane, wear=fem2d.Wear(K))])
    result = fem2d.StaticAnalysis(model, fem2d.TimeStepping(dt=0.25, end=T),
                                  report=fem2d.Report("SW", "dy", snapshots=1, pressure_at=[0.5, 1.0])).run()
    header, rows = result.fields.pressure
    assert header[-2:] == ["pressure_Pa", "wear_depth_m"] and len(rows) == 10
    for row in rows:
        assert row[-2] == pytest.approx(P, rel=1e-9)
        assert row[-1] == pytest.approx(K * P * V * row[1], rel=1e-9)
    write_vtu_series(result, tmp_path)
    last = meshio.read(sorted((tmp_path / "vtu").glob("fem2d_0*.vtu"))[-1])
    slave = result.fields.system.zones[0].slave_nodes
    assert last.point_data["wear_depth"][slave] == pytest.approx(np.full(5, K * P * V * T), rel=1e-9)
    assert np.count_nonzero(last.point_data["wear_depth"]) == 5
