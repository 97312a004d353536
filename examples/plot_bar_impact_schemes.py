"""
Time schemes for impact: a bar hitting a rigid wall
===================================================

The Signorini bar (``cases/bar_wall.toml``): a steel bar 1 m long
(E = 2e11 Pa, rho = 8000 kg/m^3, section 0.05 m^2, on rollers) moving at
v0 = 1 m/s hits a rigid wall. The exact solution
(:func:`fem2d.exact.bars.bar_on_wall`) is a stress wave: the contact lasts
2 L / c = 0.4 ms with the constant force E A v0 / c = 2 MN, the bar leaves
at -1 m/s and its energy is unchanged.

Four time schemes for contact are compared on the force and on the energy.
The headline number is the peak contact force of the explicit
Paoli-Schatzman scheme on the lumped mass (the ``auto`` choice at this
step), checked against the exact plateau E A v0 / c = 2 MN.
"""

# %%
# Run the case with each scheme
# -----------------------------
# Plain Newmark (average acceleration with the contact as a constraint on the
# displacement) is left out: on impact it creates energy (fem2d warns, and
# ``fem2d run`` exits 1), which is why the schemes below exist.
import matplotlib.pyplot as plt
import numpy as np

import fem2d
from fem2d.exact.bars import bar_on_wall
from fem2d.io.plots import save_when_run

exact = bar_on_wall(length=1.0, young=2.0e11, density=8000.0, area=0.05, v0=1.0)

schemes = ("paoli_schatzman", "modified_mass", "moreau_jean", "stabilised_newmark")
results = {scheme: fem2d.run("bar_wall", {"time.scheme": scheme}) for scheme in schemes}

# %%
# Contact force and energy against the exact wave solution
# --------------------------------------------------------
# Paoli-Schatzman at Courant number 0.96 keeps the force near the plateau;
# the implicit schemes ring at the stress front and overshoot it. The
# modified mass (no inertia on the contact nodes, average acceleration)
# keeps the energy; the others lose a little of it at the impact.
for scheme, result in results.items():
    q = result.quantities
    print(f"{scheme:>18}: peak force {q['impact_1_f_max'] / 1e6:.3f} MN "
          f"(exact {exact.force / 1e6:.0f} MN), duration {q['impact_1_duration'] * 1e3:.4f} ms "
          f"(exact {exact.duration * 1e3:.1f} ms), energy drift {q['energy_drift']:+.2%}")
headline = results["paoli_schatzman"].quantities["impact_1_f_max"]

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
for scheme, result in results.items():
    h = result.histories
    ax1.plot(h["time"] * 1e3, h["normal_force"] / 1e6, label=scheme, lw=1)
    ax2.plot(h["time"] * 1e3, (h["kinetic"] + h["elastic"]) / exact.energy, label=scheme, lw=1)
t = np.linspace(0.0, 8e-4, 801)
ax1.plot(t * 1e3, exact.force_at(t) / 1e6, "k--", label="exact")
ax1.set_xlabel("time [ms]")
ax1.set_ylabel("contact force [MN]")
ax1.legend(fontsize="small")
ax2.axhline(1.0, color="k", ls="--")
ax2.set_xlabel("time [ms]")
ax2.set_ylabel("energy / initial energy")
fig.tight_layout()

save_when_run(fig)  # run on its own: writes plot_bar_impact_schemes.png next to the script
