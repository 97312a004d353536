"""
A mesh refinement study with its observed order and error bar
=============================================================

The Hertz contact of ``cases/hertz.toml`` (a steel half disc on a rigid
plane, see the Hertz example) on four meshes, each cell split in four from
one level to the next (``mesh.refine`` = 0, 1, 2, 3; h halves). The error of
the peak contact pressure against Hertz's p0 = 2 P / (pi a) = 2.2997 GPa
falls like h^2, and the order can be observed without the exact answer, from
the differences between successive levels.

The headline number is the Richardson extrapolation of the peak pressure
with the reference-free observed order (a least-squares fit over the levels,
Eca & Hoekstra 2014), checked against Hertz's p0; the finest level carries
Roache's GCI as its error bar (Fs = 1.25, Celik et al. 2008), which holds p0.
This is what ``fem2d refine hertz --levels 0-3`` tabulates from the command line.
"""

# %%
# Run the levels
# --------------

import matplotlib.pyplot as plt
import numpy as np

import fem2d
from fem2d.exact.hertz import HertzLineContact
from fem2d.io.plots import save_when_run
from fem2d.studies.convergence import convergence
from fem2d.studies.study import observed_order

p0 = HertzLineContact(P=3.6e6, R=0.05, E=2.1e11, nu=0.3).peak_pressure
levels = [0, 1, 2, 3]
peaks, dofs = [], []
for level in levels:
    result = fem2d.run("hertz", {"mesh.refine": level})
    peaks.append(result.quantities["peak_pressure"])
    dofs.append(2 * result.fields.system.mesh.n_nodes)
errors = [abs(p / p0 - 1) for p in peaks]

# %%
# Observed orders
# ---------------
# Against the exact answer: log2(e_k / e_{k+1}). Without it: the ratio of
# successive changes, log2((p_{k} - p_{k-1}) / (p_{k+1} - p_k)).
print(" level   dofs   peak [GPa]   error vs Hertz   order")
for k, (level, n, p, e) in enumerate(zip(levels, dofs, peaks, errors)):
    order = observed_order(errors[k - 1], e) if k else None
    shown = f"{order:.2f}" if order is not None else "-"
    print(f"{level:6d} {n:6d} {p / 1e9:12.6f} {e:16.2e} {shown:>7}")

# %%
# Order, extrapolation and error bar
# ----------------------------------
# :func:`fem2d.studies.convergence.convergence` fits p_max = p_inf + a h^p over the
# asymptotic range (levels whose changes keep one sign and shrink: here all four),
# extrapolates to h = 0 and puts Roache's GCI on the finest level:
# ``GCI = 1.25 |e_21| / (2^p - 1)``, ``e_21`` the relative change of the finest two.
c = convergence(levels, peaks)
p_free, headline, bar = c.order, c.extrapolated, c.band
print(f"{c.kind}, order {p_free:.2f} fitted over levels {c.fit_levels[0]}-{c.fit_levels[-1]} ({c.note})")
print(f"extrapolated peak pressure {headline / 1e9:.6f} GPa (Hertz {p0 / 1e9:.6f} GPa, {headline / p0 - 1:+.1e})")
print(f"level {levels[-1]}: {peaks[-1] / 1e9:.6f} +- {bar / 1e9:.6f} GPa (GCI {c.gci:.1e}); "
      f"|p_max - p0| = {abs(peaks[-1] - p0) / 1e9:.6f} GPa")

fig, (ax, ax2) = plt.subplots(1, 2, figsize=(10, 4))
h = 2.0 ** -np.array(levels)
ax.loglog(h, errors, "o-", label="|p_max / p0 - 1|")
ax.loglog(h, errors[-1] * (h / h[-1]) ** p_free, "k--", label=f"fitted slope {p_free:.2f}")
ax.set_xlabel("relative cell size h / h_0")
ax.set_ylabel("relative error of the peak pressure")
ax.legend()
ax2.plot(h[:-1], np.array(peaks[:-1]) / 1e9, "o", color="C0", label="coarser levels")
ax2.errorbar([h[-1]], [peaks[-1] / 1e9], yerr=[bar / 1e9], fmt="o", color="C3", capsize=4,
             label=f"level {levels[-1]} +- GCI")
ax2.axhline(p0 / 1e9, color="0.2", ls="--", lw=1, label="Hertz p0")
ax2.axhline(headline / 1e9, color="C2", ls=":", lw=1.2, label="extrapolated")
ax2.set_xscale("log")
ax2.set_ylim((min(p0, peaks[-1] - bar) - 2 * bar) / 1e9, (peaks[-2] + 2 * bar) / 1e9)  # levels 2 and 3
ax2.set_xlabel("relative cell size h / h_0")
ax2.set_ylabel("peak pressure (GPa)")
ax2.legend(fontsize=8)
fig.tight_layout()

save_when_run(fig)  # run on its own: writes plot_refinement_study.png next to the script

# %%
# One run with its error bar
# --------------------------
# ``report.error_bars = true`` puts the bar on a single run: ``fem2d.run`` (as
# ``fem2d run``) runs the case at its own level and at the two coarser levels of its
# mesh family, same time step, and gives each quantity as value +- GCI
# (``error_bars`` in result.json, :meth:`~fem2d.runs.result.Result.error_bar` here).
# Level 3 takes levels 1-3: the bar is the one above, from the three finest levels.
single = fem2d.run("hertz", {"mesh.refine": 3, "report.error_bars": True})
single_bar = single.error_bar("peak_pressure")
print(f"fem2d.run at level 3: peak pressure {single_bar.value / 1e9:.6f} +- {single_bar.band / 1e9:.6f} GPa "
      f"(levels {single_bar.levels[0]}-{single_bar.levels[-1]}, order {single_bar.order:.2f}; Hertz inside: "
      f"{single_bar.contains(p0)})")

# %%
# A reference that stops holding: the sliding block
# -------------------------------------------------
# SDNV104's reference is the *rigid* block (:mod:`fem2d.exact.sliding_block`); the meshed
# block is elastic, and as its mesh is refined its answer converges to the elastic block's,
# not the rigid one's. :func:`fem2d.refine` (``fem2d refine sdnv104a --levels 0-2``) says
# so: the levels converge while the rigid block's distance to them grows, and the finest
# level's x(1.70) carries the mesh's own error bar.
sliding = fem2d.refine("sdnv104a", levels=[0, 1, 2])
x_bar = sliding["x_at_1.70"]
print(f"x(1.70): {x_bar.kind}, finest {x_bar.value:.8f} +- {x_bar.band:.1e} m")
print(sliding.document()["quantities"]["x_at_1.70"]["reference_stops_holding"])
