"""A static case crushed by an imposed displacement, with each contact method: the support's
reaction over the levels against its closed form, with penalty's own penetration taken off.

The reference: a block of width W and height H on a frictionless rigid plane, its left side a
symmetry (dx = 0), its top pushed down by d(t) (dy imposed, dx free). Every point is in uniaxial
stress sigma_yy with sigma_xx = 0, in plane strain sigma_yy = E / (1 - nu^2) d / H, so the top's
reaction per unit thickness is exactly R_y(t) = -E / (1 - nu^2) d(t) W / H, at every level.
"""

from __future__ import annotations

import numpy as np
import pytest

E, NU, W, H, D = 2.0e11, 0.3, 0.2, 0.1, 1.0e-4

CASE = """
[case]
name = "pressed"
kind = "static"

[mesh]
geometry = "rectangle"
element = "{element}"
params = {{ length = 0.2, height = 0.1, nx = 4, ny = 2 }}

[model]
hypothesis = "plane_strain"

[[materials]]
group = "BODY"
E = 2.0e11
nu = 0.3
{rho}

[[supports]]
group = "LEFT"
dofs = ["dx"]

[[supports]]
group = "TOP"
dofs = ["dy"]
value = -1.0e-4
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
reactions = ["TOP"]
"""


def exact_reaction(t):
    """The top's reaction at pseudo-time t (the ramp d(t) = D t)."""
    return -E / (1.0 - NU**2) * D * np.asarray(t) * W / H


@pytest.mark.parametrize("rho", ["rho = 7800.0", "rho = 0.0", ""], ids=["dense", "massless", "no-density"])
@pytest.mark.parametrize("method", ["lagrange", "penalty", "continuous"])
def test_a_ramped_support_displacement_drives_a_static_case_with_or_without_density(tmp_path, rho, method):
    from fem2d.runs.result import run

    path = tmp_path / "pressed.toml"
    path.write_text(CASE.format(element="quad4", rho=rho, method=method))
    result = run(path)
    t = result.histories["time"]
    np.testing.assert_allclose(t, [0.0, 0.25, 0.5, 0.75, 1.0])
    reaction = result.histories["TOP:reaction_y"]
    # penalty's penetration g (uniform here) takes its share of the crush: the block is compressed
    # by d - g, exactly; the exact contact methods leave none
    g = result.histories["penetration"][1:]
    if method == "penalty":
        assert np.all((g > 1e-4 * D * t[1:]) & (g < 1e-2 * D * t[1:]))
    else:
        assert np.all(np.abs(g) < 1e-12 * D)
    np.testing.assert_allclose(reaction[1:], exact_reaction(t[1:]) * (1.0 - g / (D * t[1:])), rtol=1e-9)
    assert result.quantities["TOP_reaction_y"] == pytest.approx(reaction[-1], rel=1e-12)
