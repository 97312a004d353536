"""
A mesh refinement study with its observed order
===============================================

The Hertz contact of ``cases/hertz.toml`` (a steel half disc on a rigid
plane, see the Hertz example) on four meshes, each cell split in four from
one level to the next (``mesh.refine`` = 0, 1, 2, 3; h halves). The error of
the peak contact pressure against Hertz's p0 = 2 P / (pi a) = 2.2997 GPa
falls like h^2, and the order can be observed without the exact answer, from
the differences between successive levels.

The headline number is the Richardson extrapolation of the peak pressure
from the three finest levels with that reference-free observed order,
checked against Hertz's p0. This is what ``fem2d refine hertz --levels 0-3``
tabulates from the command line.
"""

# %%
# Run the levels
# --------------
import math

import matplotlib.pyplot as plt
import numpy as np

import fem2d
from fem2d.exact.hertz import HertzLineContact
from fem2d.io.plots import save_when_run
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
changes = np.diff(peaks)
p_free = math.log2(changes[-2] / changes[-1])
headline = peaks[-1] + changes[-1] / (2.0**p_free - 1.0)
print(f"reference-free order from levels 1-3: {p_free:.2f}")
print(f"extrapolated peak pressure {headline / 1e9:.6f} GPa (Hertz {p0 / 1e9:.6f} GPa, {headline / p0 - 1:+.1e})")

fig, ax = plt.subplots(figsize=(6, 4))
h = 2.0 ** -np.array(levels)
ax.loglog(h, errors, "o-", label="|p_max / p0 - 1|")
ax.loglog(h, errors[0] * h**2, "k--", label="slope 2")
ax.set_xlabel("relative cell size h / h_0")
ax.set_ylabel("relative error of the peak pressure")
ax.legend()
fig.tight_layout()

save_when_run(fig)  # run on its own: writes plot_refinement_study.png next to the script
