"""Rigid plane obstacles as contact masters in direct runs, imposed motion,
initial displacements and Rayleigh damping."""

import gridmesh
import numpy as np
import pytest

from fem2d.case.loading import load_case
from fem2d.contact.problem import OPEN
from fem2d.errors import InputError
from fem2d.runs.result import run

BAR = """
[case]
name = "bar_plane"
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
{extra}
[time]
scheme = "hht"
dt = 0.0025
end = 0.3
[report]
node = "BAR_SW"
extrema = 0
at_times = [0.1, 0.2, 0.3]
"""

WALL = """
[[materials]]
group = "RWALL"
E = 100.0
nu = 0.0
rho = 0.0
[[supports]]
group = "RWALL"
dofs = ["dx", "dy"]
[contact]
slave = "BAR_RIGHT"
master = "RWALL_LEFT"
mu = 0.1
"""

PLANE = """
[contact]
slave = "BAR_RIGHT"
mu = 0.1
[contact.plane]
point = [1.05, 0.3]
normal = [-1.0, 0.0]
{motion}
"""


def write_case(tmp_path, extra: str, velocity=(1.0, 2.0), name="c") -> str:
    bodies = {"BAR": (0.0, 0.0, 1.0, 0.1, 20, 2)}
    if "RWALL" in extra:
        bodies["RWALL"] = (1.05, -1.0, 1.15, 2.5, 1, 1)
    mesh = gridmesh.write(tmp_path / f"{name}.msh", bodies)
    init = f"[[initial]]\ngroup = \"BAR\"\nvelocity = [{velocity[0]}, {velocity[1]}]\n" if any(velocity) else ""
    path = tmp_path / f"{name}.toml"
    path.write_text(BAR.format(mesh=mesh, extra=extra + init))
    return str(path)


def test_a_bar_on_a_plane_obstacle_moves_as_on_a_meshed_wall(tmp_path):
    """The same bar hitting (and sliding up) a fixed meshed wall and a rigid
    plane at the wall's face: the same motion to round-off."""
    wall = run(write_case(tmp_path, WALL, name="wall"))
    plane = run(write_case(tmp_path, PLANE.format(motion=""), name="plane"))
    u_wall, u_plane = wall.fields.final_state.u, plane.fields.final_state.u
    assert wall.histories["normal_force"].max() > 0.5  # it hit (E A v0 / c = 1 N)
    assert np.abs(plane.fields.final_state.v - wall.fields.final_state.v).max() < 1e-9
    assert np.abs(u_plane - u_wall).max() < 1e-11
    for t in ("0.10", "0.20", "0.30"):
        assert plane.quantities[f"x_at_{t}"] == pytest.approx(wall.quantities[f"x_at_{t}"], abs=1e-11)


def test_a_moving_plane_is_the_fixed_plane_seen_from_a_moving_frame(tmp_path):
    """A plane moving at -1 m/s onto a bar at rest is, in the plane's frame,
    the bar thrown at +1 m/s onto a fixed plane: Newmark moves rigid
    translations exactly, so the two runs differ by the frame's motion only."""
    fixed = run(write_case(tmp_path, PLANE.format(motion=""), velocity=(1.0, 0.0), name="fixed"))
    motion = 'displacement = [-1.0, 0.0]\nfunction = "towards"\n[functions.towards]\n'
    motion += 'type = "piecewise_linear"\nt = [0.0, 1.0]\nvalues = [0.0, 1.0]\n'
    moving = run(write_case(tmp_path, PLANE.format(motion=motion), velocity=(0.0, 0.0), name="moving"))
    assert fixed.histories["normal_force"].max() > 0.5
    np.testing.assert_allclose(moving.histories["normal_force"], fixed.histories["normal_force"], atol=1e-9)
    for t in (0.1, 0.2, 0.3):
        label = f"x_at_{t:.2f}"
        assert moving.quantities[label] == pytest.approx(fixed.quantities[label] - t, abs=1e-10)


def test_obstacle_table_in_a_direct_case_is_an_error(tmp_path):
    path = write_case(tmp_path, WALL + "\n[obstacle]\nkn = 1.0\n")
    with pytest.raises(InputError, match=r"c.toml: obstacle: a direct case does not use \[obstacle\]"):
        load_case(path)


@pytest.mark.parametrize(
    ("extra", "key"),
    [
        (PLANE.format(motion="").replace("[-1.0, 0.0]", "[0.0, 0.0]"), "contact.plane.normal"),
        (PLANE.format(motion='displacement = [1.0, 0.0]\nfunction = "nope"'), "contact.plane.function"),
        (PLANE.format(motion="").replace('slave = "BAR_RIGHT"', 'slave = "BAR_RIGHT"\nmaster = "BAR_LEFT"'),
         "contact.plane"),
        (PLANE.format(motion="").replace("point = [1.05, 0.3]", "point = [1.05]"), "contact.plane.point"),
    ],
)
def test_bad_plane_input_names_file_and_key(tmp_path, extra, key):
    path = write_case(tmp_path, extra)
    with pytest.raises(InputError) as err:
        run(path)
    message = str(err.value)
    assert message.startswith(f"{path}: {key}") and "\n" not in message


def test_an_initial_displacement_is_the_obstacle_moved_the_other_way(tmp_path):
    """The bar starting 0.02 m closer to the plane (initial displacement) hits
    it as the bar at rest position hits the plane 0.02 m closer."""
    shifted = PLANE.format(motion="").replace("point = [1.05, 0.3]", "point = [1.03, 0.3]")
    closer = run(write_case(tmp_path, shifted, name="closer"))
    start = '[[initial]]\ngroup = "BAR"\ndisplacement = [0.02, 0.0]\nvelocity = [1.0, 2.0]\n'
    moved = run(write_case(tmp_path, PLANE.format(motion="") + start, velocity=(0, 0), name="moved"))
    assert closer.histories["normal_force"].max() > 0.5
    np.testing.assert_allclose(moved.histories["normal_force"], closer.histories["normal_force"], atol=1e-9)
    assert moved.quantities["x_at_0.30"] == pytest.approx(closer.quantities["x_at_0.30"] + 0.02, abs=1e-11)


def test_mass_proportional_rayleigh_damping_slows_a_free_body_as_the_trapezoidal_rule_says(tmp_path):
    """C = a_M M on a free body thrown at v0: M v' = -a_M M v, whose
    trapezoidal (average acceleration) solution is v_n = v0 r^n with
    r = (1 - a_M dt / 2) / (1 + a_M dt / 2); K-proportional damping does not
    act on a rigid motion. The damping dissipation is the kinetic energy lost,
    T(0) (1 - r^(2n))."""
    a_m, dt, steps = 2.0, 0.0025, 120
    extra = "[[materials]]\ngroup = \"BAR\"\nE = 100.0\nnu = 0.0\nrho = 1.0\nrayleigh = [2.0, 0.01]\n"
    path = write_case(tmp_path, "", velocity=(1.0, 0.0))
    text = open(path).read().replace('[[materials]]\ngroup = "BAR"\nE = 100.0\nnu = 0.0\nrho = 1.0\n', extra)
    text = text.replace('scheme = "hht"', 'scheme = "newmark"')
    open(path, "w").write(text)
    result = run(path)
    r = (1 - a_m * dt / 2) / (1 + a_m * dt / 2)
    assert result.histories["v"][-1] == pytest.approx(r**steps, rel=1e-10)
    assert result.histories["elastic"].max() < 1e-12 * result.histories["kinetic"][0]  # round-off
    # the kinetic energy the damping takes is its dissipation, D_c: the balance's residual stays at round-off
    h = result.histories
    assert h["damping_dissipation"][-1] == pytest.approx(h["kinetic"][0] * (1.0 - r ** (2 * steps)), rel=1e-9)
    assert np.abs(h["energy_residual"]).max() < 1e-12 * h["kinetic"][0]
    assert result.quantities["damping_dissipation"] == h["damping_dissipation"][-1]


def test_a_support_moving_with_a_displacement_history_drags_the_body_rigidly(tmp_path):
    """The bar thrown at 1 m/s whose left end is moved at 1 m/s
    (u = t, a piecewise-linear history): it translates without strain."""
    support = (
        '[[supports]]\ngroup = "BAR_LEFT"\ndofs = ["dx"]\nvalue = 1.0\nfunction = "move"\n'
        '[functions.move]\ntype = "piecewise_linear"\nt = [0.0, 1.0]\nvalues = [0.0, 1.0]\n'
        "[model]\nhypothesis = \"plane_stress\"\nlumped_mass = true\n"
    )
    path = write_case(tmp_path, support, velocity=(1.0, 0.0))
    text = open(path).read().replace('[model]\nhypothesis = "plane_stress"\n[[materials]]', "[[materials]]", 1)
    open(path, "w").write(text)
    result = run(path)
    for t in (0.1, 0.2, 0.3):
        assert result.quantities[f"x_at_{t:.2f}"] == pytest.approx(t, abs=1e-12)
    system, final = result.fields.system, result.fields.final_state
    u = system.expand(final.u, prescribed=False) + system.prescribed_at(final.t)
    assert np.abs(u[0::2] - 0.3).max() < 1e-12 and np.abs(u[1::2]).max() < 1e-12
    # with a consistent mass the moving dofs' inertia would be lost: refused
    open(path, "w").write(text.replace("lumped_mass = true", "lumped_mass = false"))
    with pytest.raises(InputError, match=r"supports\[0\].function: a displacement history needs a massless"):
        run(path)


@pytest.mark.parametrize(
    ("extra", "key"),
    [
        (
            '[[materials]]\ngroup = "BAR"\nE = 1.0\nnu = 0.0\nrho = 1.0\nrayleigh = [-1.0, 0.0]\n',
            "materials[1].rayleigh[0]",
        ),
        ('[[initial]]\ngroup = "BAR"\ndisplacement = [0.1]\n', "initial[0].displacement"),
        ('[[supports]]\ngroup = "BAR_LEFT"\ndofs = ["dx"]\nfunction = "nope"\n', "supports[0].function"),
    ],
)
def test_bad_motion_and_damping_input_names_file_and_key(tmp_path, extra, key):
    path = write_case(tmp_path, extra, velocity=(0.0, 0.0))
    with pytest.raises(InputError) as err:
        run(path)
    assert str(err.value).startswith(f"{path}: {key}") and "\n" not in str(err.value)


def test_the_work_of_a_moving_plane_closes_the_energy_balance(tmp_path):
    """The energy balance's residual E - E(0) - W - W_c + D counts the work of prescribed
    motions W_c: the moving plane's run and the fixed plane's (the same motion
    seen from another frame) leave the same imbalance to round-off, for a
    scheme that loses energy at impacts (average acceleration) and one that
    nearly does not (modified mass)."""
    from fem2d.post.energy import energy_balance

    motion = 'displacement = [-1.0, 0.0]\nfunction = "towards"\n[functions.towards]\n'
    motion += 'type = "piecewise_linear"\nt = [0.0, 1.0]\nvalues = [0.0, 1.0]\n'
    for scheme in ("newmark", "modified_mass"):
        moving = run(write_case(tmp_path, PLANE.format(motion=motion), (0.0, 0.0), "moving"), {"time.scheme": scheme})
        fixed = run(write_case(tmp_path, PLANE.format(motion=""), (1.0, 0.0), "fixed"), {"time.scheme": scheme})
        gap_moving = energy_balance(moving.histories)["imbalance"][-1]
        gap_fixed = energy_balance(fixed.histories)["imbalance"][-1]
        assert gap_moving == pytest.approx(gap_fixed, rel=1e-6, abs=1e-12)
        assert moving.quantities["work_motions"] > 0.19  # the plane set the bar moving


CIRCLE = """
[contact]
slave = "BAR_RIGHT"
mu = {mu}
[contact.circle]
centre = [{cx}, {cy}]
radius = {radius}
{motion}
"""


def circle_case(radius: float, mu: float = 0.0, motion: str = "", y: float = 0.05) -> str:
    """A circle whose leftmost point is (1.05, y), where the plane of PLANE stands."""
    return CIRCLE.format(mu=mu, cx=repr(1.05 + radius), cy=y, radius=repr(radius), motion=motion)


def test_the_circle_search_measures_the_exact_distance_and_normal():
    """Closed form against points placed at known distances and directions."""
    from fem2d.contact.search import project_on_circle

    rng = np.random.default_rng(1)
    angle, distance = rng.uniform(0.0, 2 * np.pi, 50), rng.uniform(0.1, 3.0, 50)
    centre, radius = np.array([0.3, -1.2]), 1.1
    points = centre + distance[:, None] * np.column_stack([np.cos(angle), np.sin(angle)])
    proj = project_on_circle(centre, radius, points, np.array([7]))
    np.testing.assert_allclose(proj.gap, distance - radius, atol=1e-14)
    np.testing.assert_allclose(proj.normal, np.column_stack([np.cos(angle), np.sin(angle)]), atol=1e-14)
    cross = proj.tangent[:, 0] * proj.normal[:, 1] - proj.tangent[:, 1] * proj.normal[:, 0]
    np.testing.assert_allclose(cross, 1.0, atol=1e-14)  # (t, n) right-handed
    assert (proj.master_nodes == 7).all() and (proj.weights == 1.0).all() and not proj.outside.any()


def test_a_bar_on_a_huge_circle_moves_as_on_the_plane_tangent_to_it(tmp_path):
    """A circle of radius R tangent to the plane departs from it by d^2 / (2 R)
    at a distance d along the plane: with R = 1e6 m and the bar's face within
    0.05 m of the tangent point, 1.25e-9 m, so the two runs agree to that."""
    plane = run(write_case(tmp_path, PLANE.format(motion="").replace("0.3]", "0.05]"), (1.0, 0.0), "plane"))
    circle = run(write_case(tmp_path, circle_case(1e6), (1.0, 0.0), "circle"))
    assert plane.histories["normal_force"].max() > 0.5
    diff_force = np.abs(circle.histories["normal_force"] - plane.histories["normal_force"]).max()
    diff_u = np.abs(circle.fields.final_state.u - plane.fields.final_state.u).max()
    assert diff_force < 1e-5 and diff_u < 5e-9  # observed 1.1e-6 N (of 0.5 N) and 1.4e-9 m
    # a small circle is another obstacle: the same bar answers differently
    small = run(write_case(tmp_path, circle_case(0.2), (1.0, 0.0), "small"))
    assert np.abs(small.fields.final_state.u - plane.fields.final_state.u).max() > 1e-3


def test_the_nodes_that_touch_a_circle_lie_on_it(tmp_path):
    """The bar thrown at the circle of centre (1.25, 0.15), R = 0.2, whose
    axis misses the bar's face: Lagrange enforces g = |x - c| - R = 0 on every
    node in contact, so every node with a contact force lies on the circle
    (positions from the displacements, not from the search), at the foot of
    the radius through it, and its reported gap is that distance."""
    path = write_case(tmp_path, circle_case(0.2, y=0.15), (1.0, 0.0))
    text = open(path).read().replace("extrema = 0", "extrema = 0\nsnapshots = 1")
    open(path, "w").write(text)
    result = run(path)
    system, snaps = result.fields.system, result.fields.snapshots
    zone = system.zones[0]
    centre = system.mesh.points[zone.boundary_nodes[-1]]
    assert np.allclose(centre, [1.25, 0.15]) and len(snaps) == len(result.histories["time"])
    force = result.histories["slave_normal_force"]
    steps, nodes = np.nonzero(force > 1e-9)
    assert len(np.unique(steps)) > 10  # it hit and stayed a while
    mesh_nodes = zone.slave_nodes[nodes]
    u = np.column_stack([snaps.u[steps, 2 * mesh_nodes], snaps.u[steps, 2 * mesh_nodes + 1]])
    x = system.mesh.points[mesh_nodes] + u
    assert np.abs(np.hypot(*(x - centre).T) - 0.2).max() < 1e-12
    assert np.abs(result.histories["slave_gap"][steps, nodes]).max() < 1e-12
    # the bar was pushed off the circle's axis: down (the contact point is below the centre)
    assert result.fields.final_state.v[1::2].mean() < -0.05


def test_a_moving_circle_is_the_fixed_circle_seen_from_a_moving_frame(tmp_path):
    """As for the plane: the circle moving at -1 m/s onto the bar at rest,
    against the bar thrown at +1 m/s onto the fixed circle (off-axis, with
    friction, so that the contact point slides along the circle)."""
    motion = 'displacement = [-1.0, 0.0]\nfunction = "towards"\n[functions.towards]\n'
    motion += 'type = "piecewise_linear"\nt = [0.0, 1.0]\nvalues = [0.0, 1.0]\n'
    fixed = run(write_case(tmp_path, circle_case(0.2, mu=0.2, y=0.15), (1.0, 0.0), "fixed"))
    moving = run(write_case(tmp_path, circle_case(0.2, mu=0.2, y=0.15, motion=motion), (0.0, 0.0), "moving"))
    assert fixed.histories["normal_force"].max() > 0.1 and np.abs(fixed.histories["tangential_force"]).max() > 0.01
    np.testing.assert_allclose(moving.histories["normal_force"], fixed.histories["normal_force"], atol=1e-9)
    np.testing.assert_allclose(moving.histories["tangential_force"], fixed.histories["tangential_force"], atol=1e-9)
    for t in (0.1, 0.2, 0.3):
        label = f"x_at_{t:.2f}"
        assert moving.quantities[label] == pytest.approx(fixed.quantities[label] - t, abs=1e-10)


@pytest.mark.parametrize("method", ["penalty", "continuous"])
def test_every_contact_method_keeps_the_bar_out_of_the_circle(tmp_path, method):
    """The other two formulations on the same circle: the continuous method
    (nodal contact points, augmented Lagrangian) gives Lagrange's motion to
    round-off; the penalty its motion up to its small penetration
    (observed: 1.1e-4 m, velocities within 4.6e-3 m/s of 1 m/s)."""
    lagrange = run(write_case(tmp_path, circle_case(0.2, y=0.15), (1.0, 0.0), "lagrange"))
    result = run(write_case(tmp_path, circle_case(0.2, y=0.15), (1.0, 0.0)), {"contact.method": method})
    v, v_ref = result.fields.final_state.v, lagrange.fields.final_state.v
    assert result.histories["normal_force"].max() > 1.0
    # statuses agree with the forces: a node without a compressive force is OPEN
    status, force = result.histories["slave_status"], result.histories["slave_normal_force"]
    assert not np.any((status != OPEN) & (force <= 0.0)) and np.any(status != OPEN)
    if method == "continuous":
        assert np.abs(v - v_ref).max() < 1e-9 and result.quantities["max_penetration"] < 1e-10
    else:
        assert np.abs(v - v_ref).max() < 2e-2 and 1e-6 < result.quantities["max_penetration"] < 1e-3


@pytest.mark.parametrize(
    ("extra", "key"),
    [
        (circle_case(0.0), "contact.circle.radius"),
        (circle_case(0.2).replace("centre = [1.25, 0.05]", "centre = [1.25]"), "contact.circle.centre"),
        (circle_case(0.2, motion='displacement = [1.0, 0.0]\nfunction = "nope"'), "contact.circle.function"),
        (circle_case(0.2).replace("[contact.circle]", "[contact.plane]\npoint = [0.0, 0.0]\nnormal = [1.0, 0.0]\n"
                                  "[contact.circle]"), "contact.circle"),
        (circle_case(0.2).replace('slave = "BAR_RIGHT"', 'slave = "BAR_RIGHT"\nmaster = "BAR_LEFT"'),
         "contact.circle"),
        (circle_case(0.2).replace('slave = "BAR_RIGHT"\n', ""), "contact.slave"),
        (circle_case(0.2).replace("radius = 0.2", 'radius = "big"'), "contact.circle.radius"),
    ],
)
def test_bad_circle_input_names_file_and_key(tmp_path, extra, key):
    path = write_case(tmp_path, extra)
    with pytest.raises(InputError) as err:
        run(path)
    message = str(err.value)
    assert message.startswith(f"{path}: {key}") and "\n" not in message, message


def test_a_slave_node_leaving_a_short_wall_is_reported_on_stderr_and_in_result_json(tmp_path, capsys):
    """The bar sliding up (2 m/s) along a wall that ends at y = 0.15: its top
    node passes the wall's end at t = 0.025 s (reported at the next step,
    0.0275 s), its three face nodes by the end; counted in the history,
    warned on stderr and kept in result.json."""
    import json

    from fem2d.cli import main

    path = write_case(tmp_path, WALL)
    text = open(path).read()
    mesh = gridmesh.write(tmp_path / "short.msh", {"BAR": (0.0, 0.0, 1.0, 0.1, 20, 2),
                                                   "RWALL": (1.05, -1.0, 1.15, 0.15, 1, 1)})
    text = text.replace(text.split('file = "')[1].split('"')[0], mesh)
    open(path, "w").write(text)
    assert main(["run", path, "--out", str(tmp_path / "out"), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "slave node(s) left their master surface (first at t = 0.0275 s)" in err
    doc = json.loads((tmp_path / "out" / "result.json").read_text())
    assert any("left their master surface" in w for w in doc["warnings"])
    assert doc["quantities"]["n_left_master"] == 3
    with np.load(tmp_path / "out" / "history.npz") as history:
        t, left = history["time [s]"], history["n_left_master [-]"]
    assert left[np.isclose(t, 0.025)] == 0 and left[np.isclose(t, 0.0275)] == 1


@pytest.mark.parametrize("obstacle", ["plane", "circle"])
def test_a_run_against_a_rigid_obstacle_writes_its_vtu_series(tmp_path, obstacle):
    """The obstacle's prescribed nodes come after the model's: the stresses
    are the bodies' (they used to fail on the longer displacement vector)."""
    import meshio

    from fem2d.io.vtu import write_vtu_series

    extra = PLANE.format(motion="") if obstacle == "plane" else circle_case(0.2, y=0.15)
    result = run(write_case(tmp_path, extra, (1.0, 0.0)), {"report.snapshots": 40, "time.end": 0.1})
    pvd = write_vtu_series(result, tmp_path / "out")
    files = sorted((tmp_path / "out" / "vtu").glob("*.vtu"))
    bodies = [f for f in files if "_obstacles_" not in f.name]
    assert pvd.is_file() and len(bodies) == 2
    last = meshio.read(bodies[-1])
    assert np.abs(last.point_data["sigma_xx"]).max() > 0.0  # the bar pressed on the obstacle
    assert np.isfinite(last.point_data["von_mises"]).all()
    # the bodies' files hold the bodies only: ParaView frames the bar, not a 100 m plane
    mesh = result.fields.model.mesh
    for f in bodies:
        xy = meshio.read(f).points[:, :2]
        assert np.array_equal(xy.min(axis=0), mesh.points.min(axis=0))
        assert np.array_equal(xy.max(axis=0), mesh.points.max(axis=0))
    # the obstacle is a series of its own, within the bodies' size
    obstacles = [f for f in files if "_obstacles_" in f.name]
    assert len(obstacles) == 2 and (tmp_path / "out" / f"{pvd.stem}_obstacles.pvd").is_file()
    drawn = meshio.read(obstacles[0]).points[:, :2]
    size = np.hypot(*np.ptp(mesh.points, axis=0))
    assert np.ptp(drawn, axis=0).max() <= size + 1e-12
    if obstacle == "circle":
        assert np.allclose(np.hypot(*(drawn - [1.25, 0.15]).T), 0.2)


def test_a_circle_composed_in_python_is_the_case_files(tmp_path):
    """fem2d.RigidCircle in a Model gives the [contact.circle] run, number for number."""
    import fem2d
    from fem2d.mesh.io import read_mesh

    path = write_case(tmp_path, circle_case(0.2, mu=0.1, y=0.15), (1.0, 2.0))
    from_file = run(path)
    model = fem2d.Model(
        read_mesh(str(tmp_path / "c.msh")),
        bodies=[fem2d.Body("BAR", E=100.0, nu=0.0, rho=1.0, hypothesis="plane_stress")],
        initial=[fem2d.InitialCondition("BAR", velocity=(1.0, 2.0))],
        contacts=[fem2d.Contact("BAR_RIGHT", fem2d.RigidCircle((1.25, 0.15), 0.2), mu=0.1)],
    )
    composed = fem2d.DirectAnalysis(model, fem2d.TimeStepping(dt=0.0025, end=0.3), fem2d.NewmarkScheme.hht(-0.3),
                                    report=fem2d.Report("BAR_SW", extrema=0, at_times=[0.1, 0.2, 0.3])).run()
    assert composed.histories["normal_force"].max() > 0.1
    np.testing.assert_array_equal(composed.histories["normal_force"], from_file.histories["normal_force"])
    assert composed.quantities == from_file.quantities


def test_a_bar_pushed_onto_a_circle_settles_where_the_geometry_says_with_the_load_as_reaction(tmp_path):
    """A traction P = 2 Pa on the bar's left end (resultant P H = 0.2 N) pushes
    it, damped (C = 20 M), onto the circle of centre (1.25, 0.05), R = 0.2:
    at rest the contact is the mid-face node alone, at the circle's leftmost
    point (1.05, 0.05) with normal -x, carrying the whole load: F_n = P H
    (the circle's reaction is the applied load), no tangential force."""
    load = ('[[loads]]\ntype = "traction"\ngroup = "BAR_LEFT"\nvector = [2.0, 0.0]\n'
            '[[materials]]\ngroup = "BAR"\nE = 100.0\nnu = 0.0\nrho = 1.0\nrayleigh = [20.0, 0.0]\n')
    path = write_case(tmp_path, circle_case(0.2) + load, (0.0, 0.0))
    text = open(path).read().replace('[[materials]]\ngroup = "BAR"\nE = 100.0\nnu = 0.0\nrho = 1.0\n\n', "", 1)
    text = text.replace('[[materials]]\ngroup = "BAR"\nE = 100.0\nnu = 0.0\nrho = 1.0\n[contact]', "[contact]", 1)
    text = text.replace("end = 0.3", "end = 4.0").replace("dt = 0.0025", "dt = 0.01")
    open(path, "w").write(text)
    result = run(path)
    h = result.histories
    assert h["normal_force"][-1] == pytest.approx(2.0 * 0.1, rel=1e-6)
    assert abs(h["tangential_force"][-1]) < 1e-12
    zone = result.fields.system.zones[0]
    points = result.fields.system.mesh.points[zone.slave_nodes]
    mid = np.flatnonzero(np.isclose(points[:, 1], 0.05))[0]
    assert h["slave_normal_force"][-1, mid] == pytest.approx(0.2, rel=1e-6)
    assert np.abs(np.delete(h["slave_normal_force"][-1], mid)).max() == 0.0
    system, node = result.fields.system, zone.slave_nodes[mid]
    x = system.mesh.points[node] + result.fields.final_state.u[system.free_index[[2 * node, 2 * node + 1]]]
    assert x == pytest.approx([1.05, 0.05], abs=1e-12)
    assert np.abs(result.fields.final_state.v).max() < 1e-9  # at rest


def test_a_circle_refuses_an_orientation_it_would_ignore():
    from fem2d.contact.problem import make_zone
    from fem2d.contact.surface import master_surface
    from fem2d.errors import InputError
    from fem2d.mesh.mesh import CellBlock

    points = np.array([[0.0, 1.5], [1.0, 1.5], [0.0, 0.0]])
    zone = make_zone(points, CellBlock("seg2", [[0, 1]]), CellBlock("point", [[2]]), 0.0, "top", master_radius=1.0)
    assert master_surface(zone).kind == "circle" and master_surface(zone).radius == 1.0
    with pytest.raises(InputError, match="a circle master has no orientation to set"):
        master_surface(zone, "left")
