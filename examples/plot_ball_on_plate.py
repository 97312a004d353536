"""
A ball pressed on a plate: Hertz contact of a sphere in axisymmetry
===================================================================

A steel ball (R = 10 mm, E = 2.1e11 Pa, nu = 0.3) is pressed on a rigid plate
by a force F, applied as a uniform pressure F / (pi R^2) on its equator's
disc. The ball is a solid of revolution: with ``hypothesis="axisymmetric"``
the mesh is its meridian, x the radius r and y the axis, and every force
fem2d reports is the whole ring's (here the whole ball's). Hertz's theory
(:mod:`fem2d.exact.axisymmetric`) gives a disc of contact of radius
a = (3 F R / (4 E*))^(1/3), E* = E / (1 - nu^2), under the pressure
p0 sqrt(1 - r^2 / a^2), p0 = 3 F / (2 pi a^2).

The headline number is the computed contact radius at F = 2 kN (from the
second moment of the ring contact forces, :mod:`fem2d.post.pressure`),
checked against Hertz's a.
"""

# %%
# The model
# ---------
# The meridian of the lower hemisphere (:func:`fem2d.mesh.disc.quarter_disc`):
# quadratic cells graded toward the contact point, the arc within 45 degrees
# of it the slave of a rigid plane y = 0. Nothing else holds the ball: the
# contact does, and u_r = 0 on the axis is held by the model. A static run.
import matplotlib.pyplot as plt
import numpy as np

import fem2d
from fem2d.exact.axisymmetric import hertz_sphere
from fem2d.io.plots import save_when_run
from fem2d.mesh.disc import quarter_disc

R, E, NU = 0.01, 2.1e11, 0.3
mesh = quarter_disc("quad8", refine=1, radius=R, cells=8, radial_cells=8, focus=0.05)


def press(force: float) -> fem2d.Result:
    """The ball pressed by ``force`` (N, the whole ball's) on the rigid plate."""
    model = fem2d.Model(
        mesh,
        bodies=[fem2d.Body("DISC", E=E, nu=NU, rho=7800.0, hypothesis="axisymmetric")],
        loads=[fem2d.Pressure("TOP", force / (np.pi * R**2))],
        contacts=[fem2d.Contact("CONTACT", fem2d.RigidPlane((0.0, 0.0), (0.0, 1.0)))],
    )
    return fem2d.StaticAnalysis(model, fem2d.TimeStepping(dt=1.0, end=1.0),
                                report=fem2d.Report(pressure_at=[1.0])).run()


forces = [250.0, 500.0, 1000.0, 2000.0]
results = {force: press(force) for force in forces}
hertz = hertz_sphere(R, E, NU, np.inf, 0.0, forces[-1])
q = results[forces[-1]].quantities
headline = q["contact_half_width"]
print(f"contact radius a = {headline * 1e3:.5f} mm (Hertz {hertz.contact_radius * 1e3:.5f} mm, "
      f"{headline / hertz.contact_radius - 1:+.1e})")
print(f"peak pressure p0 = {q['peak_pressure'] / 1e9:.4f} GPa (Hertz {hertz.peak_pressure / 1e9:.4f} GPa, "
      f"{q['peak_pressure'] / hertz.peak_pressure - 1:+.1e})")
print(f"contact force = {q['f_n_max']:.6g} N: the whole ball's")

# %%
# Pressure and contact radius
# ---------------------------
# Left: the nodal pressures (ring force over ring area 2 pi r ds) against
# Hertz's ellipse. Right: the contact radius grows as F^(1/3).
header, rows = results[forces[-1]].fields.pressure
col = {name: i for i, name in enumerate(header)}
r = np.array([row[col["x_m"]] for row in rows])
p = np.array([row[col["pressure_Pa"]] for row in rows])
near = (r > 0.0) & (r < 1.5 * hertz.contact_radius)  # a quadratic edge's node on the axis has no ring area
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
left.plot(r[near] * 1e3, p[near] / 1e9, "o", ms=4, label="fem2d")
rs = np.linspace(0.0, 1.5 * hertz.contact_radius, 400)
left.plot(rs * 1e3, hertz.pressure(rs) / 1e9, "k-", lw=1, label="Hertz")
left.set_xlabel("r [mm]")
left.set_ylabel("contact pressure [GPa]")
left.legend()
radii = [results[force].quantities["contact_half_width"] for force in forces]
fs = np.linspace(forces[0], forces[-1], 200)
right.plot(fs, [hertz_sphere(R, E, NU, np.inf, 0.0, f).contact_radius * 1e3 for f in fs], "k-", lw=1, label="Hertz")
right.plot(forces, np.array(radii) * 1e3, "o", label="fem2d")
right.set_xlabel("F [N]")
right.set_ylabel("contact radius a [mm]")
right.legend()
fig.tight_layout()

save_when_run(fig)  # run on its own: writes plot_ball_on_plate.png next to the script
