"""
SDNV104 composed in Python
==========================

An elastic block pushed along a rigid support
with Coulomb friction, pulled back by two springs (code_aster V5.03.104).

The same model as ``cases/sdnv104a.toml``, without the case file. The block's
position at t = 1.70 s is compared with the exact rigid block
(:mod:`fem2d.exact.sliding_block`, event-driven).

Run: ``python examples/sdnv104.py``
"""

import fem2d
from fem2d.exact.sliding_block import SlidingBlock, solve

ramp = fem2d.PiecewiseLinear((0.0, 0.07), (0.0, 1.0))  # the loads reach full value at 0.07 s
model = fem2d.Model(
    fem2d.mesh.sliding_block(),
    bodies=[fem2d.Body("PATIN", E=2.1e11, nu=0.0, rho=7000.0), fem2d.Body("BATI", E=1e11, nu=0.0, rho=0.0)],
    supports=[fem2d.Support("BATI"), fem2d.Support("R1"), fem2d.Support("R2")],
    springs=[fem2d.Spring("RESLAT", k_axial=12e3)],
    loads=[fem2d.Pressure("FSUP", 7e4, ramp), fem2d.Pressure("FLAT", 2e5, ramp)],
    contacts=[fem2d.Contact("LESC", "LMAI", mu=0.3)],
)
analysis = fem2d.DirectAnalysis(
    model,
    fem2d.TimeStepping(dt=0.01, end=3.5),
    fem2d.NewmarkScheme.generalized_alpha(rho_inf=0.7),
    report=fem2d.Report(node="A", component="dx", at_times=[1.70]),
)
result = analysis.run()

# the exact rigid block: mass 7000 kg, springs 2 x 12e3 N/m, weight 7e4 N, push 2e5 N
exact = float(solve(SlidingBlock(mass=7000.0, stiffness=24e3, mu=0.3, ft=2e5, fn=7e4), 1.8).x(1.70))
computed = result.quantities["x_at_1.70"]

if __name__ == "__main__":
    print(f"DX(A) at 1.70 s: {computed:.6f} m (exact rigid block {exact:.6f} m, "
          f"relative error {abs(computed - exact) / exact:.1e})")
    print(f"largest penetration {result.quantities['max_penetration']:.1e} m, "
          f"friction dissipation {result.quantities['friction_dissipation']:.4g} J")
