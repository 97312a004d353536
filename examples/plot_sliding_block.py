"""
The sliding block (SDNV104)
===========================

An elastic steel block is pressed on a rigid support by its weight
(7e4 N), pushed sideways by 2e5 N and pulled back by two springs
(2 x 12e3 N/m), with Coulomb friction mu = 0.3: code_aster's test SDNV104
(V5.03.104), composed here in Python instead of read from
``cases/sdnv104a.toml``. The block slides out, turns back at 1.73 s and
slides back.

The headline number is the horizontal position of node A at t = 1.70 s,
checked against the exact, event-driven rigid block
(:mod:`fem2d.exact.sliding_block`): x(1.70) = 14.898649 m.
"""

# %%
# Compose the model
# -----------------
# The builder :func:`fem2d.mesh.sliding_block` gives the block ``PATIN``, the
# support ``BATI``, the contact edges ``LESC`` (slave) and ``LMAI`` (master),
# the springs ``RESLAT`` and the reported node ``A``. The loads reach full
# value at 0.07 s.
import matplotlib.pyplot as plt
import numpy as np

import fem2d
from fem2d.exact.sliding_block import SlidingBlock, solve
from fem2d.io.plots import save_when_run

ramp = fem2d.PiecewiseLinear((0.0, 0.07), (0.0, 1.0))
model = fem2d.Model(
    fem2d.mesh.sliding_block(),
    bodies=[fem2d.Body("PATIN", E=2.1e11, nu=0.0, rho=7000.0), fem2d.Body("BATI", E=1e11, nu=0.0, rho=0.0)],
    supports=[fem2d.Support("BATI"), fem2d.Support("R1"), fem2d.Support("R2")],
    springs=[fem2d.Spring("RESLAT", k_axial=12e3)],
    loads=[fem2d.Pressure("FSUP", 7e4, ramp), fem2d.Pressure("FLAT", 2e5, ramp)],
    contacts=[fem2d.Contact("LESC", "LMAI", mu=0.3)],
)

# %%
# Run it
# ------
# Generalized-alpha (rho_inf = 0.7) at dt = 0.01 s, up to 2.5 s: past the
# block's turning point at 1.73 s, after which the springs pull it back.
analysis = fem2d.DirectAnalysis(
    model,
    fem2d.TimeStepping(dt=0.01, end=2.5),
    fem2d.NewmarkScheme.generalized_alpha(rho_inf=0.7),
    report=fem2d.Report(node="A", component="dx", at_times=[1.70]),
)
result = analysis.run()

# %%
# Compare with the exact rigid block
# ----------------------------------
# Mass 7000 kg, springs 24e3 N/m in all, normal force 7e4 N, push 2e5 N,
# both ramped like the model's loads.
block = SlidingBlock.with_ramp(0.07, mass=7000.0, stiffness=24e3, mu=0.3, ft=2e5, fn=7e4)
exact = solve(block, 2.5)
x_exact = float(exact.x(1.70))
headline = result.quantities["x_at_1.70"]
print(f"x(1.70) = {headline:.6f} m, exact rigid block {x_exact:.6f} m "
      f"(relative error {headline / x_exact - 1:+.1e})")
print(f"largest penetration {result.quantities['max_penetration']:.1e} m")

t = result.histories["time"]
fig, (ax1, ax2) = plt.subplots(2, 1, sharex=True, figsize=(7, 6))
ax1.plot(t, result.histories["u"], label="fem2d, node A")
ax1.plot(t, exact.x(t), "k--", label="exact rigid block")
ax1.axvline(1.70, color="0.6", lw=0.8)
ax1.set_ylabel("x [m]")
ax1.legend()
ax2.plot(t, np.abs(result.histories["u"] - exact.x(t)))
ax2.set_yscale("log")
ax2.set_xlabel("time [s]")
ax2.set_ylabel("|x - x_exact| [m]")
fig.tight_layout()

save_when_run(fig)  # run on its own: writes plot_sliding_block.png next to the script
