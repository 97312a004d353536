"""Diagnostics of contact runs: slave nodes leaving their master surface, and
statuses that agree with the forces for every method."""

import numpy as np
import pytest

from fem2d.contact.problem import OPEN
from fem2d.errors import ConvergenceError
from fem2d.runs.result import run

SHORT = {"mesh.params.support_length": 20.0, "time.end": 1.6}


def test_a_block_sliding_off_its_support_is_reported():
    """mu = 0.5, 3e5 Pa: the block passes the end of a 20 m support at 1.32 s
    (the rigid block reaches x = 19 m there)."""
    result = run("sdnv104_long", {**SHORT, "contact.method": "penalty"})
    assert result.quantities["n_left_master"] == 6
    assert result.histories["n_left_master"][0] == 0
    (warning,) = [w for w in result.warnings if "left their master surface" in w]
    assert "first at t = 1.32 s" in warning and "support_length" in warning
    assert "contact is not enforced there (zone 'LESC/LMAI')" in warning  # the zone named
    assert result.to_json()["warnings"] == result.warnings  # in result.json too


def test_a_failure_after_slave_nodes_left_says_so():
    with pytest.raises(ConvergenceError, match=r"no convergence .*; before that, 6 slave node\(s\) left their master"):
        run("sdnv104_long", {**SHORT, "time.end": 2.5})


DISC_ON_BLOCK = """
[case]
name = "disc_block"
kind = "direct"
[mesh]
file = "disc_block.msh"
[[materials]]
group = "DISC"
E = 2.0e8
nu = 0.3
rho = 1000.0
[[materials]]
group = "BLOCK"
E = 2.0e7
nu = 0.3
rho = 1000.0
[[supports]]
group = "BOTTOM"
dofs = ["dx", "dy"]
[[initial]]
group = "DISC"
velocity = [0.0, -2.0]
[contact]
slave = "ARC"
master = "TOP"
mu = 0.2
[time]
dt = 0.001
end = 0.02
[report]
node = "CROWN"
component = "dy"
at_times = []
extrema = 0
"""


def disc_on_block(path, half_width):
    """A disc R = 0.5 m (its lower half-arc ARC the slave) touching a block [-w, w] x [-1, 0]
    at the origin (its top TOP the master, 2 w wide), meshed by Gmsh with triangles."""
    import gmsh

    gmsh.initialize(readConfigFiles=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        geo, size = gmsh.model.geo, 0.1
        c = geo.addPoint(0, 0.5, 0, size)
        p = [geo.addPoint(x, y, 0, size) for x, y in ((0, 0), (0.5, 0.5), (0, 1), (-0.5, 0.5))]
        arcs = [geo.addCircleArc(p[i], c, p[(i + 1) % 4]) for i in range(4)]
        disc = geo.addPlaneSurface([geo.addCurveLoop(arcs)])
        b = [geo.addPoint(x, y, 0, size) for x, y in ((-half_width, -1), (half_width, -1), (half_width, 0),
                                                       (-half_width, 0))]
        sides = [geo.addLine(b[i], b[(i + 1) % 4]) for i in range(4)]
        block = geo.addPlaneSurface([geo.addCurveLoop(sides)])
        geo.synchronize()
        for dim, tags, name in ((2, [disc], "DISC"), (2, [block], "BLOCK"), (1, [arcs[3], arcs[0]], "ARC"),
                                (1, [sides[2]], "TOP"), (1, [sides[0]], "BOTTOM"), (0, [p[2]], "CROWN")):
            gmsh.model.addPhysicalGroup(dim, tags, name=name)
        gmsh.model.mesh.generate(2)
        gmsh.write(str(path))
    finally:
        gmsh.finalize()


def test_a_disc_pressed_into_a_wide_block_stays_on_its_master(tmp_path):
    """The dent the disc presses into the block has convex rims: the slave nodes beyond a
    rim face no segment, yet the master runs on past them (3 times the disc's width)."""
    disc_on_block(tmp_path / "disc_block.msh", 1.5)
    (tmp_path / "disc_block.toml").write_text(DISC_ON_BLOCK)
    result = run(str(tmp_path / "disc_block.toml"))
    assert result.quantities["max_penetration"] < 1e-9
    # the disc did press into the block: the contact stopped its momentum m v = pi R^2 rho v
    assert result.quantities["normal_impulse"] > np.pi * 0.25 * 1000.0 * 2.0
    assert result.quantities["n_left_master"] == 0
    assert not any("master surface" in w for w in result.warnings)


def test_a_slave_surface_passing_the_masters_end_is_reported_with_a_mesh_files_remedy(tmp_path):
    """The disc slides sideways off a block as wide as itself: the warning names the mesh file's remedy."""
    disc_on_block(tmp_path / "disc_block.msh", 0.5)
    (tmp_path / "disc_block.toml").write_text(DISC_ON_BLOCK.replace("[0.0, -2.0]", "[20.0, -2.0]"))
    result = run(str(tmp_path / "disc_block.toml"))
    assert result.quantities["n_left_master"] > 0
    (warning,) = [w for w in result.warnings if "left their master surface" in w]
    assert warning.endswith(f"extend the master edge group in the mesh ({tmp_path / 'disc_block.msh'})")


def test_on_the_long_support_nothing_leaves():
    result = run("sdnv104_long", {"time.end": 1.6})
    assert result.quantities["n_left_master"] == 0
    assert not any("master surface" in w for w in result.warnings)


@pytest.mark.parametrize("method", ["lagrange", "penalty", "continuous"])
def test_statuses_are_open_wherever_the_normal_force_is_not_compressive(method):
    """The bar leaves the wall: every method reports its nodes OPEN once the
    force is gone (Lagrange used to keep them STICK/SLIP), and the three agree
    on how many node-instants were in contact."""
    old_settings = {"time.scheme": "auto", "model.lumped_mass": False, "time.dt": 2.0e-6, "mesh.params.cells": 40}
    h = run("bar_wall", {"contact.method": method, **old_settings}).histories
    status, force = h["slave_status"], h["slave_normal_force"]
    assert not np.any((status != OPEN) & (force <= 0.0))
    assert np.count_nonzero(status != OPEN) == 398
