"""A finite-strain block that only contact holds, static: pressed by a dead load on a rigid plane.

The reference: a neo-Hookean block (fem2d's W = mu/2 (I1 - 3 - 2 ln J) + lambda/2 (ln J)^2, plane
strain) of width W and height H, its left side a symmetry (dx = 0), nothing holding it vertically but
a frictionless rigid plane under it, its top loaded by a traction -p (per unit reference length: a
dead load, nominal stress P_yy = -p). The state is homogeneous, F = diag(a, s), with the sides free:

    P_xx = mu (a - 1/a) + lambda ln(a s) / a = 0,   P_yy = mu (s - 1/s) + lambda ln(a s) / s = -p,

so the top moves by (s - 1) H and the plane carries p W. Penalty's uniform penetration g moves the
whole block down by g more. Small strain would say -p (1 - nu^2) H / E (16 % more at p = 0.2 E).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import fsolve

E, NU, P, W, H = 1.0e6, 0.3, 2.0e5, 1.0, 1.0

CASE = """
[case]
name = "held"
kind = "static"
[mesh]
geometry = "rectangle"
params = {{ length = 1.0, height = 1.0, nx = 2, ny = 2 }}
[model]
hypothesis = "plane_strain"
[[materials]]
group = "BODY"
E = 1.0e6
nu = 0.3
kinematics = "finite"
law = "neo_hookean"
[[supports]]
group = "LEFT"
dofs = ["dx"]
[[loads]]
type = "traction"
group = "TOP"
vector = [0.0, -2.0e5]
function = "ramp"
[functions.ramp]
type = "piecewise_linear"
t = [0.0, 1.0]
values = [0.0, 1.0]
[contact]
method = "{method}"
slave = "BOTTOM"
plane = {{ point = [0.0, 0.0], normal = [0.0, 1.0] }}
[time]
dt = 0.25
end = 1.0
[report]
node = "NE"
component = "dy"
at_times = [0.25, 0.5, 0.75, 1.0]
"""


def exact_stretches(p):
    """(a, s) of the block under the nominal stress -p (see the module docstring)."""
    mu, lam = E / (2.0 * (1.0 + NU)), E * NU / ((1.0 + NU) * (1.0 - 2.0 * NU))

    def equations(x):
        a, s = x
        return [mu * (a - 1.0 / a) + lam * np.log(a * s) / a, mu * (s - 1.0 / s) + lam * np.log(a * s) / s + p]

    return fsolve(equations, [1.0, 1.0], xtol=1e-13)


@pytest.mark.parametrize("method", ["lagrange", "penalty", "continuous"])
def test_a_finite_strain_block_held_only_by_contact_settles_at_the_neo_hookean_stretch(tmp_path, method):
    from fem2d.runs.result import run

    path = tmp_path / "held.toml"
    path.write_text(CASE.format(method=method))
    result = run(path)
    g = result.histories["penetration"][1:]
    if method == "penalty":
        assert np.all((g > 0.0) & (g < 1e-3 * H))
    else:
        assert np.all(np.abs(g) < 1e-12 * H)
        g = np.zeros_like(g)
    levels = np.array([0.25, 0.5, 0.75, 1.0])
    top = np.array([result.quantities[f"x_at_{t:.2f}"] for t in levels])
    expected = np.array([(exact_stretches(P * t)[1] - 1.0) * H for t in levels]) - g
    np.testing.assert_allclose(top, expected, rtol=1e-7)
    np.testing.assert_allclose(result.histories["normal_force"][1:], P * W * levels, rtol=1e-8)
    assert abs(top[-1] / (-P * (1.0 - NU**2) * H / E) - 1.0) > 0.1  # the finite strain is what is seen
