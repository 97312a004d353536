"""
Two contact zones, each with its own friction
=============================================

An elastic bar (1 m x 0.1 m, E = 1e4 Pa, rho = 1 kg/m^3, wave speed
c = 100 m/s, plane stress) flies between two rigid walls 10 mm from its
ends, thrown at (1, 2) m/s. It hits the right wall (Coulomb mu = 0.1),
bounces back, hits the left wall (mu = 0.2), sliding up each wall while in
contact. The two walls are two contact zones of one model, solved together.

Each wall reverses the bar's axial momentum, m v_x = 0.1 kg m/s (per metre
of thickness), so its normal impulse is about 2 m v_x; while the contact
nodes slide, Coulomb's law makes each wall's friction impulse exactly its
own mu times its normal impulse. The headline number is that ratio for the
left wall, the size of its friction impulse over its normal impulse, checked
against mu = 0.2 (the right wall's must be 0.1).
"""

# %%
# The model: one bar, two rigid planes, two zones
# -----------------------------------------------
# A :class:`fem2d.Contact` per wall, each named so that its results are
# reported under its own prefix (``right_...``, ``left_...``).
import matplotlib.pyplot as plt

import fem2d
from fem2d.io.plots import save_when_run

GAP = 0.01
mesh = fem2d.mesh.rectangle(length=1.0, height=0.1, nx=20, ny=2)
right_wall = fem2d.RigidPlane((1.0 + GAP, 0.0), (-1.0, 0.0))  # normal towards the bar
left_wall = fem2d.RigidPlane((-GAP, 0.0), (1.0, 0.0))
model = fem2d.Model(
    mesh,
    bodies=[fem2d.Body("BODY", E=1e4, nu=0.0, rho=1.0, hypothesis="plane_stress")],
    initial=[fem2d.InitialCondition("BODY", velocity=(1.0, 2.0))],
    contacts=[
        fem2d.Contact("RIGHT", right_wall, mu=0.1, name="right"),
        fem2d.Contact("LEFT", left_wall, mu=0.2, name="left"),
    ],
)

# %%
# Run it
# ------
# Each contact lasts 2 L / c = 20 ms. ``Report(bodies=...)`` records the
# bar's momentum and rigid rotation (the friction on the end faces turns it a
# little: it must stay small for the small-displacement model to hold).
analysis = fem2d.DirectAnalysis(
    model,
    fem2d.TimeStepping(dt=2.5e-4, end=0.08),
    report=fem2d.Report(None, bodies=["BODY"]),
)
result = analysis.run()
print("\n".join(result.notes))

q = result.quantities
for zone, mu in (("right", 0.1), ("left", 0.2)):
    ratio = abs(q[f"{zone}_tangential_impulse"]) / q[f"{zone}_normal_impulse"]
    print(f"{zone:>5} wall: normal impulse {q[f'{zone}_normal_impulse']:.5f} N s, "
          f"friction / normal = {ratio:.8f} (mu = {mu})")
headline = abs(q["left_tangential_impulse"]) / q["left_normal_impulse"]
print(f"transverse velocity at the end: {q['BODY_velocity_y']:.4f} m/s "
      f"(2 - 2 (0.1 + 0.2) v_x = 1.4 m/s for a perfect reversal at both walls)")
print(f"largest rigid rotation of the bar: {abs(q['BODY_rotation_min']):.3f} rad")

# %%
# The forces of each zone and the bar's momentum
# ----------------------------------------------
h = result.histories
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
for zone in ("right", "left"):
    ax1.plot(h["time"], h[f"{zone}:normal_force"], label=f"{zone}: normal")
    ax1.plot(h["time"], h[f"{zone}:tangential_force"], "--", label=f"{zone}: friction")
ax1.set_xlabel("time [s]")
ax1.set_ylabel("contact force [N]")
ax1.legend(fontsize="small")
ax2.plot(h["time"], h["BODY:momentum_x"], label="p_x")
ax2.plot(h["time"], h["BODY:momentum_y"], label="p_y")
ax2.set_xlabel("time [s]")
ax2.set_ylabel("momentum [kg m/s]")
ax2.legend()
fig.tight_layout()

save_when_run(fig)  # run on its own: writes plot_two_contact_zones.png next to the script
