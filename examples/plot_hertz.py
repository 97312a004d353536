"""
Hertz line contact: a half disc pressed on a rigid plane
========================================================

A steel half disc (R = 50 mm, E = 2.1e11 Pa, nu = 0.3, plane strain) is
pressed on a rigid plane by the line load P = 3.6e6 N/m, applied as a
uniform pressure on its flat side (``cases/hertz.toml``, a static run in two
load levels). Hertz's theory (:mod:`fem2d.exact.hertz`) gives an elliptical
pressure on a strip of half-width a = sqrt(4 P R / (pi E*)) = 0.9966 mm with
the peak p0 = 2 P / (pi a) = 2.30 GPa, E* = E / (1 - nu^2).

The headline number is the computed contact half-width (the half-width of
the elliptical distribution with the same resultant and second moment as the
nodal contact forces, :mod:`fem2d.post.pressure`), checked against Hertz's a.
"""

# %%
# Run the case
# ------------
# Level 2 of the mesh (``mesh.refine = 2``): 16 quadratic cells across the
# contact strip. ``report.pressure_at`` keeps the pressure along the contact
# surface at both load levels.
import matplotlib.pyplot as plt
import numpy as np

import fem2d
from fem2d.exact.hertz import HertzLineContact
from fem2d.io.plots import save_when_run

result = fem2d.run("hertz", {"mesh.refine": 2})
hertz = HertzLineContact(P=3.6e6, R=0.05, E=2.1e11, nu=0.3)

headline = result.quantities["contact_half_width"]
p_peak = result.quantities["peak_pressure"]
print(f"half-width a = {headline * 1e3:.5f} mm (Hertz {hertz.half_width * 1e3:.5f} mm, "
      f"{headline / hertz.half_width - 1:+.1e})")
print(f"peak pressure p0 = {p_peak / 1e9:.4f} GPa (Hertz {hertz.peak_pressure / 1e9:.4f} GPa, "
      f"{p_peak / hertz.peak_pressure - 1:+.1e})")

# %%
# The pressure distribution
# -------------------------
# ``result.fields.pressure`` holds the rows of ``pressure.csv``: zone, time,
# node, x, y, abscissa s along the surface, pressure. At half the load the
# strip is narrower by sqrt(2) and the peak lower by sqrt(2).
header, rows = result.fields.pressure
col = {name: i for i, name in enumerate(header)}
fig, ax = plt.subplots(figsize=(7, 4))
for level, marker in ((0.5, "s"), (1.0, "o")):
    mine = [r for r in rows if abs(r[col["time_s"]] - level) < 1e-9]
    x = np.array([r[col["x_m"]] for r in mine])
    p = np.array([r[col["pressure_Pa"]] for r in mine])
    ax.plot(x * 1e3, p / 1e9, marker, ms=4, label=f"fem2d, {level:g} P")
    exact = HertzLineContact(P=level * 3.6e6, R=0.05, E=2.1e11, nu=0.3)
    xs = np.linspace(-1.5 * hertz.half_width, 1.5 * hertz.half_width, 400)
    ax.plot(xs * 1e3, exact.pressure(xs) / 1e9, "k-" if level == 1.0 else "k--", lw=1,
            label=f"Hertz, {level:g} P")
ax.set_xlim(-1.5 * hertz.half_width * 1e3, 1.5 * hertz.half_width * 1e3)
ax.set_xlabel("x [mm]")
ax.set_ylabel("contact pressure [GPa]")
ax.legend()
fig.tight_layout()

save_when_run(fig)  # run on its own: writes plot_hertz.png next to the script
