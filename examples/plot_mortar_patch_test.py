"""
Mortar and node-to-segment contact on the patch test
====================================================

Two elastic blocks stacked, meshed independently (4 cells along the interface
below, 3 above), the lower one on a frictionless support, a uniform pressure
p = 10 MPa on the upper one's top. The exact interface pressure is p at every
point. ``contact.discretization`` chooses how the contact is discretised,
whatever ``contact.method`` enforces it:

* ``node_to_segment`` (the default): each slave node is projected on the
  master's segments; on non-matching meshes the nodal forces do not transmit a
  uniform pressure, and the error does not fall with refinement;
* ``mortar``: the weak form integrated over the slave edges cut where they face
  the master's nodes (:mod:`fem2d.contact.mortar`); the pressure passes
  exactly, to the solver's tolerance, with every method.

The headline is the largest relative pressure error of the mortar runs.
"""

# %%
# Two blocks on non-matching meshes
# ---------------------------------
import matplotlib.pyplot as plt
import numpy as np

import fem2d
from fem2d.contact.kinematics import slave_weights
from fem2d.io.plots import save_when_run
from fem2d.mesh.builders import rectangle
from fem2d.mesh.mesh import CellBlock, Mesh

P = 1.0e7


def stacked(element, n_low=4, n_up=3):
    """Lower block [0, 1] x [-0.5, 0] (groups LOW_*), upper block [0, 1] x [0, 0.5] (UP_*)."""
    low = rectangle(1.0, 0.5, n_low, 2, element, origin=(0.0, -0.5))
    up = rectangle(1.0, 0.5, n_up, 2, element, origin=(0.0, 0.0))
    groups = {f"LOW_{k}": v for k, v in low.groups.items()}
    groups.update({f"UP_{k}": CellBlock(v.kind, v.nodes + len(low.points)) for k, v in up.groups.items()})
    return Mesh(np.vstack([low.points, up.points]), groups, f"two {element} blocks")


def patch_test(element, method, discretization):
    """The interface pressure at the slave nodes (x, p): normal force over tributary length."""
    mesh = stacked(element)
    bodies = [fem2d.Body(f"{b}_BODY", E=2.0e11, nu=0.3, rho=0.0) for b in ("LOW", "UP")]
    supports = [fem2d.Support("LOW_BOTTOM", ("dy",)), fem2d.Support("LOW_LEFT", ("dx",)),
                fem2d.Support("UP_LEFT", ("dx",))]
    formulation = {"lagrange": fem2d.LagrangeFormulation, "penalty": fem2d.PenaltyFormulation,
                   "continuous": fem2d.ContinuousFormulation}[method](discretization=discretization)
    contact = fem2d.Contact("UP_BOTTOM", "LOW_TOP", method=formulation)
    model = fem2d.Model(mesh, bodies=bodies, supports=supports, loads=[fem2d.Pressure("UP_TOP", P)],
                        contacts=[contact])
    result = fem2d.StaticAnalysis(model, fem2d.TimeStepping(dt=1.0, end=1.0)).run()
    zone = contact.zone(mesh)
    pressure = result.histories["slave_normal_force"][-1] / slave_weights(zone)
    order = np.argsort(zone.reference[: zone.n_slave, 0])
    return zone.reference[: zone.n_slave, 0][order], pressure[order]


# %%
# Every method, both discretisations, linear and quadratic elements
# ------------------------------------------------------------------
errors = {}
profiles = {}
for element in ("quad4", "quad8"):
    for method in ("lagrange", "penalty", "continuous"):
        for discretization in ("node_to_segment", "mortar"):
            x, p = patch_test(element, method, discretization)
            errors[element, method, discretization] = float(np.max(np.abs(p / P - 1.0)))
            if method == "lagrange":
                profiles[element, discretization] = (x, p)
print(f"{'element':8} {'method':11} {'node_to_segment':>16} {'mortar':>10}")
for (element, method, discretization), error in errors.items():
    if discretization == "mortar":
        print(f"{element:8} {method:11} {errors[element, method, 'node_to_segment']:16.1e} {error:10.1e}")
headline = max(error for (_, _, d), error in errors.items() if d == "mortar")
print(f"largest mortar pressure error: {headline:.1e}")

# %%
# The pressure along the interface (Lagrange multipliers)
# -------------------------------------------------------
fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
for ax, element in zip(axes, ("quad4", "quad8")):
    for discretization, marker in (("node_to_segment", "o"), ("mortar", "s")):
        x, p = profiles[element, discretization]
        ax.plot(x, p / P, marker=marker, label=discretization)
    ax.axhline(1.0, color="k", lw=0.8, ls="--", label="exact")
    ax.set_title(f"{element}: 4 cells below, 3 above")
    ax.set_xlabel("x [m]")
axes[0].set_ylabel("p / p_applied")
axes[0].legend()
fig.tight_layout()

save_when_run(fig)  # run on its own: writes plot_mortar_patch_test.png next to the script
