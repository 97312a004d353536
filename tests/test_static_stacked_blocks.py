"""Two elastic blocks stacked and crushed 30 % by an imposed displacement, static, with each contact
method, small and finite strain: the reaction over the levels against the exact answer.

The reference: the lower block (E1, height H1) on a fixed base, the upper one (E2, H2) on it through
a frictionless contact, both held laterally (dx = 0 on their sides), the upper top pushed down by
d(t). Every point is in uniaxial strain along y and both blocks carry the same force per unit width.

* small strain: sigma_yy = M eps_yy with the P-wave modulus M = E (1 - nu) / ((1 + nu)(1 - 2 nu)),
  the blocks in series: R = d / (H1 / M1 + H2 / M2) per unit width;
* finite strain, fem2d's neo-Hookean W = mu/2 (I1 - 3 - 2 ln J) + lambda/2 (ln J)^2 with
  F = diag(1, s): I1 = 2 + s^2, J = s, and the nominal stress is
  P(s) = dW/ds = mu (s - 1/s) + lambda ln(s) / s; the stretches s1, s2 of the blocks solve
  P1(s1) = P2(s2) and s1 H1 + s2 H2 = H1 + H2 - d (P increases with s: one root).

The upper block has twice the cells of the lower along the contact: its slave nodes sit at the
master's nodes and half-way between them, so the node-to-segment forces are those of a uniform
traction on the master and the homogeneous answer is the discrete one (to round-off). Penalty's
uniform penetration g takes its share of the crush: the blocks are compressed by d - g.
A 3 x 3 block on a 4 x 4 one (slave nodes at a third of the master's segments) is not reproduced
exactly by node-to-segment contact (its forces on the master are not a uniform traction's): it is
checked to converge at every level with each method, and in small strain to within 0.5 %.
"""

from __future__ import annotations

import time

import gridmesh
import numpy as np
import pytest
from scipy.optimize import brentq

E1, E2, NU, H1, H2, CRUSH = 1.0e6, 2.0e6, 0.3, 1.0, 1.0, 0.3
D = CRUSH * (H1 + H2)

CASE = """
[case]
name = "stacked"
kind = "static"
[mesh]
file = "{mesh}"
[model]
hypothesis = "plane_strain"
[[materials]]
group = "LOW"
E = {E1}
nu = {NU}
{law}
[[materials]]
group = "UP"
E = {E2}
nu = {NU}
{law}
[[supports]]
group = "LOW_BOTTOM"
dofs = ["dx", "dy"]
[[supports]]
group = "LOW_LEFT"
dofs = ["dx"]
[[supports]]
group = "LOW_RIGHT"
dofs = ["dx"]
[[supports]]
group = "UP_LEFT"
dofs = ["dx"]
[[supports]]
group = "UP_RIGHT"
dofs = ["dx"]
[[supports]]
group = "UP_TOP"
dofs = ["dy"]
value = {value}
function = "ramp"
[functions.ramp]
type = "piecewise_linear"
t = [0.0, 1.0]
values = [0.0, 1.0]
[contact]
method = "{method}"
slave = "UP_BOTTOM"
master = "LOW_TOP"
[time]
dt = 0.2
end = 1.0
[report]
reactions = ["UP_TOP"]
"""

LEVELS = np.array([0.2, 0.4, 0.6, 0.8, 1.0])


def lame(E):
    return E / (2.0 * (1.0 + NU)), E * NU / ((1.0 + NU) * (1.0 - 2.0 * NU))


def nominal(s, E):
    """P(s) = dW/ds of the neo-Hookean block in uniaxial strain (see the module docstring)."""
    mu, lam = lame(E)
    return mu * (s - 1.0 / s) + lam * np.log(s) / s


def exact_force(d, kinematics):
    """The force per unit width carried by the blocks at crush d (compressive, > 0)."""
    if kinematics == "small":
        M1, M2 = (E * (1.0 - NU) / ((1.0 + NU) * (1.0 - 2.0 * NU)) for E in (E1, E2))
        return d / (H1 / M1 + H2 / M2)

    def upper(s1):
        return brentq(lambda s: nominal(s, E2) - nominal(s1, E1), 1e-3, 1.0 + 1e-12)

    s1 = brentq(lambda s: s * H1 + upper(s) * H2 - (H1 + H2 - d), 1e-2, 1.0)
    return -nominal(s1, E1)


FLOOR = """[[supports]]
group = "LOW_BOTTOM"
dofs = ["dx", "dy"]
"""

ON_A_FLOOR = """[[contact]]
name = "FLOOR"
method = "{method}"
slave = "LOW_BOTTOM"
plane = {{ point = [0.0, 0.0], normal = [0.0, 1.0] }}
[[contact]]
name = "STACK"
"""


def run_stack(tmp_path, method, kinematics, n_upper, floor=False, discretization="node_to_segment"):
    """``floor``: the lower block rests on a rigid plane instead of its fixed base (two contact zones,
    the lower block held vertically by contact only)."""
    from fem2d.runs.result import run

    mesh = gridmesh.write(tmp_path / "stack.msh", {"LOW": (0.0, 0.0, 1.0, H1, 4, 4),
                                                   "UP": (0.0, H1, 1.0, H1 + H2, n_upper, n_upper)})
    law = 'kinematics = "finite"\nlaw = "neo_hookean"' if kinematics == "finite" else ""
    path = tmp_path / "stack.toml"
    text = CASE.format(mesh=mesh, E1=E1, E2=E2, NU=NU, law=law, value=-D, method=method)
    text = text.replace('slave = "UP_BOTTOM"', f'slave = "UP_BOTTOM"\ndiscretization = "{discretization}"')
    if floor:
        text = text.replace(FLOOR, "").replace("[contact]\n", ON_A_FLOOR.format(method=method))
    path.write_text(text)
    t0 = time.perf_counter()
    result = run(path)
    elapsed = time.perf_counter() - t0
    t = result.histories["time"]
    levels = np.isin(np.round(t, 12), np.round(LEVELS, 12))
    assert levels.sum() == len(LEVELS)  # every level reached (the ones between are grown-back cuts)
    reaction = -result.histories["UP_TOP:reaction_y"][levels]
    if floor:  # both zones' penetrations take their share of the crush
        gap = -(result.histories["FLOOR:min_gap"][levels] + result.histories["STACK:min_gap"][levels])
    else:
        gap = result.histories["penetration"][levels]
    return reaction, gap, elapsed


@pytest.mark.parametrize("kinematics", ["small", "finite"])
@pytest.mark.parametrize("method", ["lagrange", "penalty", "continuous"])
def test_two_stacked_blocks_crushed_30_percent_carry_the_exact_force_at_every_level(tmp_path, method, kinematics):
    reaction, g, elapsed = run_stack(tmp_path, method, kinematics, 8)
    if method == "penalty":
        assert np.all((g > 1e-5 * D * LEVELS) & (g < 1e-2 * D * LEVELS))
    else:
        assert np.all(np.abs(g) < 1e-10 * D)
        g = np.zeros_like(g)
    expected = np.array([exact_force(D * t - gap, kinematics) for t, gap in zip(LEVELS, g)])
    np.testing.assert_allclose(reaction, expected, rtol=1e-7)
    assert elapsed < 10.0


@pytest.mark.parametrize("method", ["lagrange", "penalty", "continuous"])
def test_a_3_by_3_block_on_a_4_by_4_block_converges_at_every_level(tmp_path, method):
    """Non-matching meshes whose nodes do not nest: small strain within 0.5 % of the exact force
    (measured 0.35 %, the node-to-segment error on such meshes), finite strain converges."""
    reaction, g, _ = run_stack(tmp_path, method, "small", 3)
    if method != "penalty":
        g = np.zeros_like(g)
    expected = np.array([exact_force(D * t - gap, "small") for t, gap in zip(LEVELS, g)])
    np.testing.assert_allclose(reaction, expected, rtol=5e-3)
    assert np.all(np.abs(reaction / expected - 1.0) > 1e-4)  # the node-to-segment error is there, not hidden
    reaction, _, _ = run_stack(tmp_path, method, "finite", 3)
    assert np.all(np.diff(reaction) > 0.0)


@pytest.mark.parametrize("method", ["lagrange", "penalty", "continuous"])
def test_two_blocks_stacked_on_a_rigid_floor_two_zones_strongly_coupled(tmp_path, method):
    """The lower block held vertically by its floor contact only: the two zones are coupled through its
    free motion (the sweeps over the zones contract by 1 - O(epsilon) and stalled at t = 0); small
    strain, the exact force to 1e-6 (measured 2e-7: the sweeps' and the proximal iterations'
    tolerances, which the regularisation weighs)."""
    reaction, g, _ = run_stack(tmp_path, method, "small", 8, floor=True)
    if method != "penalty":
        g = np.zeros_like(g)
    else:
        assert np.all(g > 0.0)
    expected = np.array([exact_force(D * t - gap, "small") for t, gap in zip(LEVELS, g)])
    np.testing.assert_allclose(reaction, expected, rtol=1e-6)


@pytest.mark.parametrize("kinematics", ["small", "finite"])
@pytest.mark.parametrize("method", ["lagrange", "penalty", "continuous"])
def test_the_3_by_3_block_on_the_4_by_4_one_carries_the_exact_force_with_mortar(tmp_path, method, kinematics):
    """Where node-to-segment is 0.35 % (small strain) to 4.4 % (finite strain) off, mortar contact
    transmits the uniform stress: the exact force at every level (penalty: its penetration off the crush)."""
    reaction, g, _ = run_stack(tmp_path, method, kinematics, 3, discretization="mortar")
    if method != "penalty":
        assert np.all(np.abs(g) < 1e-10 * D)
        g = np.zeros_like(g)
    expected = np.array([exact_force(D * t - gap, kinematics) for t, gap in zip(LEVELS, g)])
    np.testing.assert_allclose(reaction, expected, rtol=1e-7)
