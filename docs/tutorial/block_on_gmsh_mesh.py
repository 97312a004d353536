"""A block sliding on a support, meshed with Gmsh triangles, run and plotted."""

import gmsh
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import fem2d

# 1. The mesh: a 1 m x 1 m block on a 20 m support, Gmsh's default triangles.
gmsh.initialize()
gmsh.option.setNumber("General.Terminal", 0)
gmsh.option.setNumber("Mesh.MeshSizeMax", 0.2)
geo = gmsh.model.geo


def rectangle(x0, y0, x1, y1):
    """Corner points, edges (bottom, right, top, left) and surface of a rectangle."""
    p = [geo.addPoint(x, y, 0) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    lines = [geo.addLine(p[i], p[(i + 1) % 4]) for i in range(4)]
    return p, lines, geo.addPlaneSurface([geo.addCurveLoop(lines)])


corner, edge, block = rectangle(0.0, 0.0, 1.0, 1.0)
_, support_edge, support = rectangle(-0.1, -0.1, 20.0, 0.0)
r1, r2 = geo.addPoint(1.1, 0.0, 0), geo.addPoint(1.1, 1.0, 0)
springs = [geo.addLine(corner[1], r1), geo.addLine(corner[2], r2)]
for spring in springs:
    geo.mesh.setTransfiniteCurve(spring, 2)  # one SEG2 cell per spring
geo.synchronize()
for dim, tags, name in [(2, [block], "PATIN"), (2, [support], "BATI"), (1, [edge[0]], "LESC"),
                        (1, [support_edge[2]], "LMAI"), (1, [edge[2]], "FSUP"), (1, [edge[3]], "FLAT"),
                        (1, springs, "RESLAT"), (0, [corner[0]], "A"), (0, [r1], "R1"), (0, [r2], "R2")]:
    gmsh.model.addPhysicalGroup(dim, tags, name=name)
gmsh.model.mesh.generate(2)
gmsh.write("block.msh")
gmsh.finalize()

# 2. The model: bodies, supports, springs, loads ramped over 0.07 s, one contact zone.
mesh = fem2d.read_mesh("block.msh")
ramp = fem2d.PiecewiseLinear((0.0, 0.07), (0.0, 1.0))
model = fem2d.Model(
    mesh,
    bodies=[fem2d.Body("PATIN", E=2.1e11, nu=0.0, rho=7000.0), fem2d.Body("BATI", E=1e11, nu=0.0, rho=0.0)],
    supports=[fem2d.Support("BATI"), fem2d.Support("R1"), fem2d.Support("R2")],
    springs=[fem2d.Spring("RESLAT", k_axial=12e3)],
    loads=[fem2d.Pressure("FSUP", 7e4, ramp), fem2d.Pressure("FLAT", 2e5, ramp)],
    contacts=[fem2d.Contact("LESC", "LMAI", mu=0.3)],
)

# 3. The analysis: generalized-alpha, report the horizontal displacement of node A.
result = fem2d.DirectAnalysis(
    model,
    fem2d.TimeStepping(dt=0.01, end=3.5),
    fem2d.NewmarkScheme.generalized_alpha(rho_inf=0.7),
    report=fem2d.Report("A", "dx", at_times=[1.70]),
).run()
print(f"x(1.70) = {result.quantities['x_at_1.70']:.4f} m")  # the exact rigid block: 14.8986 m

# 4. The plots: the displacement of A and the energies against time.
h = result.histories
fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(6, 5))
top.plot(h["time"], h["u"])
top.set_ylabel("DX of A (m)")
for name in ("kinetic", "elastic", "friction_dissipation", "work_loads"):
    bottom.plot(h["time"], h[name], label=name)
bottom.set_xlabel("time (s)")
bottom.set_ylabel("energy (J)")
bottom.legend()
fig.savefig("block_on_gmsh_mesh.png", dpi=100)
