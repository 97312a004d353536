"""
A block pressed on a plane and pushed sideways, on the defaults
===============================================================

An elastic block (0.2 m x 0.1 m, E = 2e9 Pa, nu = 0.3, rho = 2000 kg/m^3,
QUAD8, plane strain) is pressed on a rigid plane by 1e6 Pa on its top
(ramped over 0.01 s), then pushed by 8e5 Pa on its left face (ramped from
0.01 s to 0.02 s). With mu = 0.3 the push, 8e4 N/m, beats the friction
mu N = 6e4 N/m from 0.0175 s on and the block slides. Nothing but the step
and the end time is given: the time scheme is the automatic one.

The rigid block's motion is exact: at rest while F <= mu N, then
m x'' = F(t) - mu N. The elastic block follows it within its own elastic
strain (7e-4), its normal force stays at its static value (a scheme without
dissipation makes it chatter: see the time schemes page). The headline
number is x(0.05) of the corner SW over the rigid block's.
"""

# %%
# The model in a few lines
# ------------------------
import matplotlib.pyplot as plt
import numpy as np
from scipy.integrate import quad

import fem2d
from fem2d.io.plots import save_when_run

press = fem2d.PiecewiseLinear((0.0, 0.01), (0.0, 1.0))
push = fem2d.PiecewiseLinear((0.0, 0.01, 0.02), (0.0, 0.0, 1.0))
model = fem2d.Model(
    fem2d.mesh.rectangle(length=0.2, height=0.1, nx=8, ny=4, element="quad8"),
    bodies=[fem2d.Body("BODY", E=2e9, nu=0.3, rho=2000.0)],
    loads=[fem2d.Pressure("TOP", 1e6, press), fem2d.Pressure("LEFT", 8e5, push)],
    contacts=[fem2d.Contact("BOTTOM", fem2d.RigidPlane((0.0, 0.0), (0.0, 1.0)), mu=0.3)],
)
analysis = fem2d.DirectAnalysis(model, fem2d.TimeStepping(dt=1e-4, end=0.05),
                                report=fem2d.Report("SW", "dx", at_times=[0.05]))
result = analysis.run()
print("\n".join(result.notes))

# %%
# The exact rigid block
# ---------------------
mass, friction = 2000.0 * 0.2 * 0.1, 0.3 * 1e6 * 0.2


def excess(s):
    """F - mu N, N/m: the push beyond what friction holds."""
    return 8e5 * 0.1 * push(s) - friction * press(s)


def rigid(t):
    """x(t): m x'' = F - mu N once F > mu N (it never falls back: F grows, N is constant)."""
    return quad(lambda s: (t - s) * max(excess(s), 0.0) / mass, 0.0175, max(t, 0.0175), points=[0.02])[0]


q = result.quantities
headline = q["x_at_0.05"] / rigid(0.05)
print(f"x(0.05) = {q['x_at_0.05']:.6f} m, rigid block {rigid(0.05):.6f} m: ratio {headline:.5f}")
print(f"largest normal force {q['f_n_max']:.4g} N/m (static 2e5), energy created {q['energy_growth']:.1e}")

# %%
# The motion and the normal force
# -------------------------------
h = result.histories
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
ax1.plot(h["time"], h["u"], label="elastic block, corner SW")
ax1.plot(h["time"], [rigid(t) for t in h["time"]], "--", label="rigid block (exact)")
ax1.set_xlabel("time [s]")
ax1.set_ylabel("x [m]")
ax1.legend()
ax2.plot(h["time"], h["normal_force"], label="normal force")
ax2.plot(h["time"], np.abs(h["tangential_force"]), "--", label="|friction|")
ax2.set_xlabel("time [s]")
ax2.set_ylabel("contact force [N/m]")
ax2.legend()
fig.tight_layout()

save_when_run(fig)  # run on its own: writes plot_pushed_block.png next to the script
