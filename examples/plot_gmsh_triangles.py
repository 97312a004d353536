"""
A user mesh of triangles from gmsh: a block sliding down a slope
=================================================================

A steel block meshed with six-node triangles by gmsh's Python API, written to
a ``.msh`` file, read back with :func:`fem2d.read_mesh` and put on a rigid
plane with Coulomb friction (mu = 0.3). Gravity is tilted by 30 degrees, so
the plane is a slope: the block slides down it with the constant acceleration
g (sin 30 - mu cos 30) = 2.356287 m/s^2 once the weight, ramped over 0.07 s,
is on. The headline number is the distance slid at t = 1.0 s, checked
against that exact rigid-block motion (:mod:`fem2d.exact.incline`).
"""

# %%
# Build the mesh with gmsh
# ------------------------
# A 0.4 m x 0.2 m rectangle with an unstructured triangle mesh. Physical
# groups name what the model refers to: the body ``BLOCK``, its bottom edge
# ``BOTTOM`` (the contact surface) and the corner node ``A`` whose motion is
# reported. The file goes to a temporary directory, read back with
# :func:`fem2d.read_mesh` (a mesh in memory needs no file once read).
import math
import tempfile
from pathlib import Path

import gmsh
import matplotlib.pyplot as plt

import fem2d
from fem2d.exact.incline import incline_displacement
from fem2d.io.plots import save_when_run


def write_block_mesh(path: Path) -> None:
    """A 0.4 m x 0.2 m block of six-node triangles, written to ``path`` by gmsh."""
    gmsh.initialize(interruptible=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.model.add("block")
        occ = gmsh.model.occ
        corners = [occ.addPoint(x, y, 0.0, 0.06) for x, y in ((0, 0), (0.4, 0), (0.4, 0.2), (0, 0.2))]
        lines = [occ.addLine(corners[i], corners[(i + 1) % 4]) for i in range(4)]
        surface = occ.addPlaneSurface([occ.addCurveLoop(lines)])
        occ.synchronize()
        gmsh.model.addPhysicalGroup(2, [surface], name="BLOCK")
        gmsh.model.addPhysicalGroup(1, [lines[0]], name="BOTTOM")
        gmsh.model.addPhysicalGroup(0, [corners[0]], name="A")
        gmsh.model.mesh.generate(2)
        gmsh.model.mesh.setOrder(2)  # six-node triangles, three-node edges
        gmsh.option.setNumber("Mesh.MshFileVersion", 4.1)
        gmsh.write(str(path))
    finally:
        gmsh.finalize()


with tempfile.TemporaryDirectory(prefix="fem2d-gmsh-") as workdir:
    msh = Path(workdir) / "block_tri6.msh"
    write_block_mesh(msh)
    mesh = fem2d.read_mesh(msh)
cells = {block.kind: len(block) for block in mesh.groups.values() if block.dimension == 2}
print(f"{mesh.n_nodes} nodes, cells: {cells}")

# %%
# The model: gravity at 30 degrees, a rigid plane, friction
# ---------------------------------------------------------
# The plane y = 0 is a :class:`fem2d.RigidPlane` (outward normal +y towards
# the block). The weight rho g is tilted so that its component along the plane
# is rho g sin 30: the same as a slope of 30 degrees.
G, THETA, MU, RHO = 9.81, math.radians(30.0), 0.3, 7800.0
ramp = fem2d.PiecewiseLinear((0.0, 0.07), (0.0, 1.0))
weight = (RHO * G * math.sin(THETA), -RHO * G * math.cos(THETA))

model = fem2d.Model(
    mesh,
    bodies=[fem2d.Body("BLOCK", E=2.1e11, nu=0.3, rho=RHO, hypothesis="plane_strain")],
    loads=[fem2d.BodyForce("BLOCK", weight, ramp)],
    contacts=[fem2d.Contact("BOTTOM", fem2d.RigidPlane((0.0, 0.0), (0.0, 1.0)), mu=MU)],
)
analysis = fem2d.DirectAnalysis(
    model,
    fem2d.TimeStepping(dt=0.01, end=1.0),
    fem2d.NewmarkScheme.generalized_alpha(rho_inf=0.7),
    report=fem2d.Report(node="A", component="dx", at_times=[1.0], extrema=0),
)
result = analysis.run()

# %%
# Compare with the exact sliding motion
# -------------------------------------
t = result.histories["time"]
exact_curve = incline_displacement(t, G, THETA, MU, t_ramp=0.07)
exact = float(incline_displacement(1.0, G, THETA, MU, t_ramp=0.07))
headline = result.quantities["x_at_1.00"]
print(f"slid at 1.0 s: {headline:.6f} m (exact {exact:.6f} m, relative error {headline / exact - 1:+.1e})")

node_a = int(mesh.groups["A"].nodes.ravel()[0])
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
tri = mesh.groups["BLOCK"].corners
ax1.triplot(mesh.points[:, 0], mesh.points[:, 1], tri, lw=0.5, color="0.4")
ax1.plot(*mesh.points[node_a], "o", color="C3", label="node A")
ax1.axhline(0.0, color="k", lw=2)
ax1.set_aspect("equal")
ax1.set_title("gmsh triangles on the rigid plane")
ax1.legend(loc="upper right")
ax2.plot(t, result.histories["u"], label="fem2d, node A")
ax2.plot(t, exact_curve, "k--", label="exact rigid block")
ax2.set_xlabel("time [s]")
ax2.set_ylabel("distance slid [m]")
ax2.legend()
fig.tight_layout()

save_when_run(fig)  # run on its own: writes plot_gmsh_triangles.png next to the script
