"""
Three contact formulations on the sliding block
===============================================

The same sliding block (SDNV104) run with each of fem2d's contact
formulations, chosen with the case key ``contact.method``:

* ``lagrange``: discrete Lagrange multipliers, no penetration
  (:class:`fem2d.LagrangeFormulation`, code_aster's LAGRANGIEN);
* ``penalty``: a stiff normal and tangential spring, a small penetration
  (:class:`fem2d.PenaltyFormulation`);
* ``continuous``: an augmented Lagrangian on the contact surface
  (:class:`fem2d.ContinuousFormulation`).

All three must follow the exact rigid block. The headline number is the
largest relative deviation of the three positions x(1.70) from the exact
rigid block's 14.898649 m (:mod:`fem2d.exact.sliding_block`).
"""

# %%
# Run the case file once per formulation
# --------------------------------------
# :func:`fem2d.run` reads ``cases/sdnv104a.toml`` and applies the overrides,
# as ``fem2d run sdnv104a --set contact.method=penalty`` does.
import matplotlib.pyplot as plt

import fem2d
from fem2d.exact.sliding_block import SlidingBlock, solve
from fem2d.io.plots import save_when_run

exact = solve(SlidingBlock.with_ramp(0.07, mass=7000.0, stiffness=24e3, mu=0.3, ft=2e5, fn=7e4), 1.8)
x_exact = float(exact.x(1.70))

results = {}
for method in ("lagrange", "penalty", "continuous"):
    results[method] = fem2d.run("sdnv104a", {"contact.method": method, "time.dt": 0.01, "time.end": 1.8})

# %%
# Position, penetration and friction dissipation
# ----------------------------------------------
# The penalty method lets the block sink into the support by a few
# nanometres (its default normal stiffness is 100 times the block's local stiffness); the two
# multiplier methods hold the gap at zero to round-off.
for method, result in results.items():
    q = result.quantities
    print(f"{method:>10}: x(1.70) = {q['x_at_1.70']:.6f} m ({q['x_at_1.70'] / x_exact - 1:+.1e}), "
          f"max penetration {q['max_penetration']:.1e} m, friction dissipation {q['friction_dissipation']:.5g} J")
headline = max(abs(r.quantities["x_at_1.70"] / x_exact - 1) for r in results.values())
print(f"largest relative deviation from the exact rigid block: {headline:.1e}")

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
for method, result in results.items():
    t = result.histories["time"]
    ax1.plot(t, result.histories["u"] - exact.x(t), label=method)
    ax2.plot(t, result.histories["normal_force"], label=method)
ax1.set_xlabel("time [s]")
ax1.set_ylabel("x - x_exact [m]")
ax1.legend()
ax2.set_xlabel("time [s]")
ax2.set_ylabel("normal contact force [N]")
ax2.legend()
fig.tight_layout()

save_when_run(fig)  # run on its own: writes plot_contact_formulations.png next to the script
