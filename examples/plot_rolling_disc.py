"""
A disc rolling down an incline: corotational against small kinematics
======================================================================

A rubber disc (R = 0.1 m, E = 3 MPa, nu = 0.3, rho = 1000 kg/m^3, plane
strain, QUAD8) is released on a 30 degree incline with Coulomb friction
mu = 0.5 (``cases/rolling_disc.toml``: gravity tilted over a horizontal rigid
plane, ramped over 0.05 s). Friction is enough to roll (mu above
tan(30) / 3 = 0.192), so the rigid disc's centre accelerates at
(2/3) g sin 30 and it turns by the distance over R
(:mod:`fem2d.exact.rolling`).

The case's body has ``kinematics = "corotational"``: Hooke's law in a frame
that turns with each cell, so that the rotation costs no strain. The same run
with ``kinematics = "small"`` takes the rotation for a strain, resists it,
and warns once the disc has turned by 0.05 rad. Both run to 0.3 s here
(the case itself runs to 0.95 s, more than two revolutions).

The headline number is the corotational disc's rotation at 0.3 s (rad,
counter-clockwise positive: rolling towards +x it turns clockwise), checked
against the rigid disc's.
"""

# %%
# Run the case, corotational and small
# ------------------------------------
# Only the body's kinematics differ: the small-kinematics run names the
# scheme the case's ``auto`` chooses for a body that turns (generalized-alpha,
# rho_inf = 0.9), which it would not choose for a linear body. Its rotation
# warning is caught and printed here.
import math
import warnings

import matplotlib.pyplot as plt
import numpy as np

import fem2d
from fem2d.case.exact_rolling import ramped_motion
from fem2d.exact.rolling import rolling_on_incline
from fem2d.io.plots import save_when_run

settings = {"time.end": 0.3, "report.at_times": [0.3]}
corotational = fem2d.run("rolling_disc", settings)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    small = fem2d.run("rolling_disc", {**settings, "materials.0.kinematics": "small",
                                       "time.scheme": "generalized_alpha"})
for warning in caught:
    print("small kinematics warns:", warning.message)

headline = corotational.quantities["DISC_rotation_at_0.30"]
print(f"rotation at 0.3 s: corotational {headline:.4f} rad, small {small.quantities['DISC_rotation_at_0.30']:.4f} rad")
timing = corotational.timing
print(f"corotational: {timing['steps']:.0f} steps, {timing['body_newton_iterations']:.0f} Newton iterations "
      f"(at most {timing['body_newton_most_iterations']:.0f} in a step), "
      f"{timing['body_tangent_updates']:.0f} tangents factorised")

# %%
# The rigid disc's rotation
# -------------------------
# The rigid disc under the load ramped over 0.05 s
# (:func:`fem2d.case.exact_rolling.ramped_motion`): the accelerations of the
# full load, :func:`fem2d.exact.rolling.rolling_on_incline` with
# I / (m R^2) = 1/2, times the ramp's integrals.
t = np.linspace(0.0, 0.3, 301)
unit = rolling_on_incline(1.0, math.radians(30.0), 0.5, 0.1, g=9.81, inertia_ratio=0.5)
exact = ramped_motion(t, 0.05, unit, mass=1000.0 * math.pi * 0.1**2, inertia=0.5 * 1000.0 * math.pi * 0.1**4)
exact_at_end = float(exact.rotation[-1])
print(f"rigid disc: {-exact_at_end:.4f} rad; corotational {headline / -exact_at_end - 1:+.1e}")

fig, ax = plt.subplots(figsize=(7, 4))
ax.plot(t, exact.rotation, "k-", lw=1, label="rigid disc (exact)")
for name, result, style in (("corotational", corotational, "-"), ("small", small, "--")):
    h = result.histories
    ax.plot(h["time"], -h["DISC:rotation"], style, label=f'kinematics = "{name}"')
ax.set_xlabel("t [s]")
ax.set_ylabel("rotation, rolling sense [rad]")
ax.legend()
fig.tight_layout()

save_when_run(fig)  # run on its own: writes plot_rolling_disc.png next to the script
