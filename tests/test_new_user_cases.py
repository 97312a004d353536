"""Cases written as a new user would, from the README and docs/case-format.md alone,
checked against their exact solutions: a block on an incline over a rigid plane, and
a bar meshed with Gmsh's Python API (its surface drawn clockwise) hitting a wall."""

from __future__ import annotations

import textwrap

import pytest

from fem2d.case.loading import load_case
from fem2d.runs.result import run

INCLINE = """
# a 1 m x 0.5 m steel block on a 25 degree incline (gravity tilted), mu = 0.2, on a rigid plane
[case]
name = "incline_plane"
kind = "direct"

[mesh]
geometry = "rectangle"
params = { length = 1.0, height = 0.5, nx = 4, ny = 2 }

[[materials]]
group = "BODY"
E = 2.1e11
nu = 0.3
rho = 7800.0

[[loads]]
type = "body"
group = "BODY"
vector = [32337.4, -69347.4]   # 7800 x 9.81 x (sin 25, -cos 25)
function = "ramp"

[functions.ramp]
type = "piecewise_linear"
t = [0.0, 0.05]
values = [0.0, 1.0]

[contact]
slave = "BOTTOM"
mu = 0.2
[contact.plane]
point = [0.0, 0.0]
normal = [0.0, 1.0]

[time]
dt = 0.01
end = 1.0

[report]
node = "SW"
at_times = [0.5, 1.0]
extrema = 0

[exact]
model = "block_on_incline"

[[references]]
quantity = "x_at_1.00"
tolerance = 1.0e-3
"""


def test_a_block_on_an_incline_over_a_rigid_plane_meets_the_exact_slide(tmp_path):
    """The exact rigid block takes the rigid plane as its support (it needed a meshed
    master: "no reference for these settings"). The automatic scheme with friction
    (generalized-alpha at rho_inf = 0) is 1.8e-4 from g (sin t - mu cos t) at dt = 0.01 s,
    the 0.05 s ramp in 5 steps, and converges at second order: 4.4e-5 at dt = 0.005 s."""
    path = tmp_path / "incline.toml"
    path.write_text(INCLINE)
    result = run(load_case(path))
    (check,) = result.checks
    assert check["passed"] and check["relative_error"] < 2.5e-4
    (half,) = run(load_case(path, {"time.dt": 0.005})).checks
    assert check["relative_error"] / half["relative_error"] == pytest.approx(4.0, rel=0.1)
    # lifted 1 cm above the plane the block falls first: the exact slide does not apply
    lifted = run(load_case(path, {"contact.plane.point": [0.0, -0.01], "time.end": 0.1,
                                  "report.at_times": [0.1]}))
    assert not lifted.checks and any("does not rest on its support" in str(note) for note in lifted.unchecked)


MAKE_BAR = """
import gmsh

gmsh.initialize()
gmsh.option.setNumber("General.Terminal", 0)
geo = gmsh.model.geo
L, H, n = 1.0, 0.05, 80
p = [geo.addPoint(x, y, 0) for x, y in ((0, 0), (L, 0), (L, H), (0, H))]
lines = [geo.addLine(p[i], p[(i + 1) % 4]) for i in range(4)]
for line, k in zip(lines, (n, 1, n, 1)):
    geo.mesh.setTransfiniteCurve(line, k + 1)
loop = geo.addCurveLoop([-lines[3], -lines[2], -lines[1], -lines[0]])  # drawn clockwise
s = geo.addPlaneSurface([loop])
geo.mesh.setTransfiniteSurface(s)
geo.mesh.setRecombine(2, s)
geo.synchronize()
gmsh.model.addPhysicalGroup(2, [s], name="BAR")
gmsh.model.addPhysicalGroup(1, [lines[1]], name="END")
gmsh.model.addPhysicalGroup(0, [p[1]], name="TIP")
gmsh.model.mesh.generate(2)
gmsh.write(OUT)
gmsh.finalize()
"""

BAR = """
# a steel bar (1 m, 80 cells, plane stress) at 1 m/s hits a rigid wall at its end
[case]
name = "bar_gmsh"
kind = "direct"

[mesh]
file = "bar.msh"

[model]
hypothesis = "plane_stress"
lumped_mass = true

[[materials]]
group = "BAR"
E = 2.0e11
nu = 0.0
rho = 8000.0

[[supports]]
group = "BAR"
dofs = ["dy"]

[[initial]]
group = "BAR"
velocity = [1.0, 0.0]

[contact]
slave = "END"
[contact.plane]
point = [1.0, 0.0]
normal = [-1.0, 0.0]

[time]
scheme = "paoli_schatzman"
dt = 2.4e-6
end = 8.0e-4

[report]
node = "TIP"
extrema = 0

[post]
quiet = 1.0e-4

[[references]]
quantity = "impact_1_duration"
value = 4.0e-4          # 2 L / c, c = sqrt(E / rho) = 5000 m/s
source = "exact: 2 L / c"
tolerance = 0.01

[[references]]
quantity = "normal_impulse"
value = 800.0           # 2 m v0 = 2 x 400 kg x 1 m/s
source = "exact: 2 m v0"
tolerance = 0.01

[[references]]
quantity = "impact_1_f_max"
value = 2.0e6           # E A v0 / c, A = 0.05 m^2
source = "exact: E A v0 / c"
tolerance = 0.05
"""


def test_a_bar_meshed_clockwise_with_gmsh_hits_a_wall_as_the_exact_waves_say(tmp_path):
    """Every cell of the file is clockwise (negative Jacobians before they were turned on
    reading); duration 2L/c, impulse 2 m v0 and plateau E A v0 / c as on the builder's bar."""
    pytest.importorskip("gmsh")
    import meshio
    import numpy as np

    exec(textwrap.dedent(MAKE_BAR), {"OUT": str(tmp_path / "bar.msh")})  # the user's script, as written
    raw = meshio.read(tmp_path / "bar.msh")
    quads = next(c.data for c in raw.cells if c.type == "quad")
    x = raw.points[quads][:, :, :2]
    area = 0.5 * np.sum(x[:, :, 0] * np.roll(x[:, :, 1], -1, 1) - np.roll(x[:, :, 0], -1, 1) * x[:, :, 1], 1)
    assert (area < 0).all()  # the file is clockwise
    path = tmp_path / "bar.toml"
    path.write_text(BAR)
    result = run(load_case(path))
    assert len(result.checks) == 3 and all(check["passed"] for check in result.checks), result.checks
