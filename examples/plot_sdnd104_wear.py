"""
Wear power on the modal path (SDND104)
======================================

code_aster's test SDND104 (V5.01.104): a 1 kg mass rests on a rigid plane
that vibrates with the acceleration a0 sin(2 pi t); Coulomb friction
mu = 0.1 under g = 10 m/s^2 (normal force 10 N). The mass is one node on a
one-mode modal basis, the plane an obstacle with normal and tangential
stiffness (``cases/sdnd104.toml``, integrated by explicit Euler at
dt = 1e-4 s). With eta = mu g / a0 between eta* = 2 / sqrt(pi^2 + 4) and 1
the mass sticks and slips once per half period, and the mean wear power
(friction force times sliding speed) has a closed form
(:func:`fem2d.exact.modal_references.sdnd104_stick_slip_power`).

The headline number is the wear power at a0 = 1.5 m/s^2, checked against
that exact value, 0.409062 W.
"""

# %%
# Run a few amplitudes in the stick-slip range
# --------------------------------------------
# 5 s of motion, the wear power averaged over [1, 5] s (four periods; the
# motion is periodic from the start).
import matplotlib.pyplot as plt
import numpy as np

import fem2d
from fem2d.exact.modal_references import ETA_STAR, sdnd104_stick_slip_power
from fem2d.io.plots import save_when_run

settings = {"time.end": 5.0, "post.window": [1.0, 5.0], "post.blocks": 4}
amplitudes = [1.1, 1.3, 1.5, 1.7]
results = {a0: fem2d.run("sdnd104", {**settings, "excitation.a0": a0}) for a0 in amplitudes}

for a0, result in results.items():
    power, exact = result.quantities["wear_power"], sdnd104_stick_slip_power(a0)
    print(f"a0 = {a0:.1f} m/s^2: wear power {power:.6f} W (exact {exact:.6f} W, {power / exact - 1:+.1e})")
headline = results[1.5].quantities["wear_power"]

# %%
# Stick and slip, and the wear power against the exact curve
# ----------------------------------------------------------
# The mass sticks (sliding speed zero, friction force below mu N = 1 N) and
# slips (friction force at 1 N) in turn.
h = results[1.5].histories
shown = (h["time"] >= 1.0) & (h["time"] <= 3.0)
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
ax1.plot(h["time"][shown], h["sliding_velocity"][shown], label="sliding speed [m/s]")
ax1.plot(h["time"][shown], h["tangential_force"][shown], label="friction force [N]")
ax1.set_xlabel("time [s]")
ax1.set_title("a0 = 1.5 m/s^2")
ax1.legend(fontsize="small")
mu_g = 0.1 * 10.0  # stick-slip for eta* < mu g / a0 < 1
a = np.linspace(1.001 * mu_g, 0.999 * mu_g / ETA_STAR, 200)
ax2.plot(a, [sdnd104_stick_slip_power(x) for x in a], "k-", lw=1, label="exact (stick-slip)")
ax2.plot(amplitudes, [r.quantities["wear_power"] for r in results.values()], "o", label="fem2d, modal Euler")
ax2.set_xlabel("a0 [m/s^2]")
ax2.set_ylabel("wear power [W]")
ax2.legend()
fig.tight_layout()

save_when_run(fig)  # run on its own: writes plot_sdnd104_wear.png next to the script
