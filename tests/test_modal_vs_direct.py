"""A finite-element model reduced to modes with shocks at nodes, against the
direct Newmark solution with penalty contact.

An elastic bar (1 m x 0.1 m, 20 x 1 QUAD4, clamped at x = 0) is loaded at
t = 0 by an axial traction on its free end, which hits a rigid stop 50 microns
away. Direct: Newmark (average acceleration, dt = 5e-7 s) with node-to-segment
penalty contact (E_N = 1e10 N/m per node) against the stop's face. Modal: the
same System on its lowest modes, one code_aster shock (plane obstacle,
K_N = 1e10 N/m) per node of the end face, explicit Euler. With all 80 modes the
two agree to the direct scheme's own error; with fewer modes the first impact
converges as modes are added.
"""

import numpy as np
import pytest

import fem2d
from fem2d.mesh import CellBlock, Mesh, rectangle, write_mesh
from fem2d.post import impact_statistics

GAP = 5.0e-5
COMMON = """
[mesh]
file = "bar.msh"
[model]
hypothesis = "plane_stress"
[[materials]]
group = "BODY"
E = 2.1e11
nu = 0.0
rho = 7800.0
[[supports]]
group = "LEFT"
dofs = ["dx", "dy"]
[[supports]]
group = "STOP"
dofs = ["dx", "dy"]
[[loads]]
type = "traction"
group = "RIGHT"
vector = [1.0e7, 0.0]
[time]
end = 6.0e-4
dt = {dt}
"""
DIRECT = """
[case]
name = "bar_direct"
kind = "direct"
[contact]
method = "penalty"
slave = "RIGHT"
master = "STOPFACE"
e_n = 1.0e10
e_t = 1.0e10
[[materials]]
group = "STOP"
E = 2.1e11
nu = 0.0
rho = 7800.0
"""
MODAL = f"""
[case]
name = "bar_modal"
kind = "modal"
[modal]
integrator = "euler"
n_modes = 80
[obstacle]
type = "plane"
node = "RIGHT"
normal = [-1.0, 0.0]
origin = [1.0, 0.0]
gap = {GAP}
kn = 1.0e10
"""
KEYS = ("impact_1_f_max", "impact_1_t_peak", "impact_1_duration", "impact_1_impulse")


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bar")
    bar = rectangle(1.0, 0.1, 20, 1, "quad4")
    n = bar.n_nodes
    stop = np.array([[1 + GAP, -0.05], [1.1 + GAP, -0.05], [1.1 + GAP, 0.15], [1 + GAP, 0.15]])
    groups = {
        **bar.groups,
        "STOP": CellBlock("quad4", [[n, n + 1, n + 2, n + 3]]),
        "STOPFACE": CellBlock("seg2", [[n + 3, n]]),
    }
    write_mesh(Mesh(np.vstack([bar.points, stop]), groups, "bar and stop"), folder / "bar.msh")
    (folder / "direct.toml").write_text(DIRECT + COMMON.format(dt=5e-7) + 'scheme = "newmark"\n')
    (folder / "modal.toml").write_text(MODAL + COMMON.format(dt=1e-8))
    return folder


@pytest.fixture(scope="module")
def direct(cases):
    h = fem2d.run(cases / "direct.toml").histories
    # the two end nodes carry equal forces (nu = 0): compare one node's share
    return impact_statistics(h["time"], h["normal_force"] / 2, np.zeros_like(h["time"])).quantities()


def _errors(cases, direct, n_modes):
    q = fem2d.run(cases / "modal.toml", {"modal.n_modes": n_modes}).quantities
    assert q["n_impacts"] >= 1
    return {k: abs(q[k] / direct[k] - 1) for k in KEYS}


def test_full_modal_basis_matches_direct_newmark(cases, direct):
    assert direct["impact_1_f_max"] > 2e5  # a real impact: ~30 % of the applied 1e6 N per node
    errors = _errors(cases, direct, 80)
    assert max(errors.values()) < 3e-3, errors


def test_modal_truncation_converges(cases, direct):
    errors = [_errors(cases, direct, n) for n in (10, 20, 40, 80)]
    for key in ("impact_1_duration", "impact_1_impulse"):
        series = [e[key] for e in errors]
        assert all(a > b for a, b in zip(series, series[1:])), (key, series)
    assert errors[0]["impact_1_impulse"] > 0.03  # ten modes are visibly not enough
