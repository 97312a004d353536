"""Rigid plane obstacles as contact masters in direct runs, imposed motion,
initial displacements and Rayleigh damping."""

import gridmesh
import numpy as np
import pytest

from fem2d.case.loading import load_case
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
    act on a rigid motion."""
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
    """The energy balance E + D - W - E(0) counts the work of prescribed
    motions: the moving plane's run and the fixed plane's (the same motion
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
        assert moving.quantities["work_loads"] > 0.19  # the plane set the bar moving
