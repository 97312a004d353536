"""The energy balance of a direct run, term by term: kinetic + strain = work of the loads +
work of the imposed motions - friction, damping and numerical dissipation + residual, the
residual alone judged; the central difference's energy of the half steps."""

from __future__ import annotations

import numpy as np
import pytest

from fem2d.dynamics.schemes import NewmarkScheme
from fem2d.errors import Fem2dWarning
from fem2d.mesh import rectangle
from fem2d.model import Body, Model, Report, Support, TimeStepping, Traction
from fem2d.post.energy import energy_balance, energy_scale
from fem2d.runs.direct import DirectAnalysis
from fem2d.runs.result import run

SCHEMES = [NewmarkScheme(), NewmarkScheme.hht(-0.3), NewmarkScheme.hht_alpha(-0.3),
           NewmarkScheme.generalized_alpha(0.7), NewmarkScheme.generalized_alpha(0.0)]


def stored(h: dict[str, np.ndarray]) -> np.ndarray:
    return h["kinetic"] + h["elastic"] + h["springs"]


@pytest.mark.parametrize("scheme", SCHEMES, ids=lambda s: s.label)
def test_numerical_dissipation_is_the_energy_each_newmark_scheme_removes(scheme):
    """A cantilever under a sudden tip load: E - E(0) - W + D_h is zero to round-off for
    every scheme of the Newmark family (the algorithmic energy identity, generalized-alpha's
    unbalanced end-of-step force included); D_h is zero for average acceleration only."""
    beam = Model(rectangle(length=10.0, height=0.5, nx=20, ny=2),
                 bodies=[Body("BODY", E=2.1e11, nu=0.0, rho=7800.0, hypothesis="plane_stress")],
                 supports=[Support("LEFT")], loads=[Traction("RIGHT", (0.0, 2e4))])
    result = DirectAnalysis(beam, TimeStepping(dt=5e-4, end=0.1), scheme, solver="superlu",
                            report=Report("EAST", "dy")).run()
    h = result.histories
    work = np.abs(h["work_loads"]).max()
    assert work > 1.0
    np.testing.assert_allclose(stored(h) - stored(h)[0] - h["work_loads"] + h["numerical_dissipation"], 0.0,
                               atol=1e-10 * work)
    assert np.abs(h["energy_residual"]).max() < 1e-10 * work
    dissipated = result.quantities["numerical_dissipation"]
    if scheme.gamma == 0.5 and not (scheme.alpha_m or scheme.alpha_f):
        assert dissipated == 0.0
    else:  # 1e-4 (hht-alpha) to 8e-3 (code_aster's hht) of the work here
        assert dissipated > 1e-4 * work


PUSHED = """
# a block on rollers pushed by its left side, displaced 5 mm over 0.1 s, then held
[case]
name = "pushed_block"
kind = "direct"
[mesh]
geometry = "rectangle"
params = { length = 0.2, height = 0.1, nx = 4, ny = 2 }
[model]
hypothesis = "plane_strain"
lumped_mass = true
[[materials]]
group = "BODY"
E = 1.0e7
nu = 0.3
rho = 1000.0
[[supports]]
group = "LEFT"
dofs = ["dx"]
value = 0.005
function = "push"
[functions.push]
type = "piecewise_linear"
t = [0.0, 0.1, 0.2]
values = [0.0, 1.0, 1.0]
[[supports]]
group = "BOTTOM"
dofs = ["dy"]
[time]
dt = 1.0e-3
end = 0.2
[report]
node = "SE"
extrema = 0
"""


@pytest.mark.parametrize("scheme", ["newmark", "hht", "generalized_alpha"])
def test_a_block_pushed_by_an_imposed_displacement_raises_no_energy_alarm(tmp_path, scheme):
    """All the block's energy comes from the support that pushes it: the work of the imposed
    motion, W_c (its reaction's work), is a term of the balance, reported apart from the loads'
    (none here), and the residual stays at round-off with the schemes that dissipate too."""
    path = tmp_path / "pushed.toml"
    path.write_text(PUSHED)
    result = run(str(path), {"time.scheme": scheme}, reference_cache=False)
    h, q = result.histories, result.quantities
    assert result.warnings == []
    assert q["work_loads"] == 0.0 and q["work_motions"] > 1e-3
    np.testing.assert_allclose(stored(h) + h["numerical_dissipation"], h["work_motions"],
                               atol=1e-10 * q["work_motions"])
    assert abs(q["energy_growth"]) < 1e-9
    # without that term the same run would have created all its energy
    balance = energy_balance(h)
    assert (balance["imbalance"] + h["work_motions"]).max() / energy_scale(balance) > 0.99


def test_central_difference_on_its_stability_limit_keeps_its_energy_in_free_flight():
    """A bar moving rigidly toward a wall it does not reach, at Courant number 1 (dt = h / c,
    the explicit limit, lumped mass): its energy of the half steps is constant."""
    result = run("bar_wall", {"mesh.params.wall_gap": 0.01, "time.dt": 2.5e-6, "time.end": 4e-4},
                 reference_cache=False)
    h = result.histories
    assert "paoli-schatzman" in result.notes[0] and h["normal_force"].max() == 0.0
    energy = stored(h)
    assert energy[0] == pytest.approx(0.5 * 8000.0 * 0.05 * 1.0, rel=1e-12)  # m v0^2 / 2 = 200 J
    assert np.abs(energy / energy[0] - 1.0).max() < 1e-9
    assert result.quantities["energy_growth"] < 1e-9 and result.warnings == []


def test_central_difference_at_courant_one_loses_the_contact_nodes_kinetic_energy_only():
    """The Signorini bar at Courant number 1, where the explicit scheme is exact at the nodes: the
    impact (e = 0) stops the two contact nodes, which carry 1/160 of the lumped mass (half a
    cell of 80), and the bar flies off with the rest of its energy, constant. The energy of the
    whole steps, 1/2 v^T M v + 1/2 u^T K u, grew there as the square of time instead (800 J
    of a 200 J bar by 0.8 ms: the highest mode, of zero energy on the stability limit, grows
    linearly), and the run failed on 'energy grew by 3.99'."""
    result = run("bar_wall", {"time.dt": 2.5e-6}, reference_cache=False)
    h = result.histories
    t, energy = h["time"], stored(h)
    released = t > t[h["normal_force"] > 0.0].max() + 1e-5
    assert released.sum() > 100
    np.testing.assert_allclose(energy[released], energy[0] * (1.0 - 1.0 / 160.0), rtol=1e-9)
    assert result.warnings == [] and result.passed
    assert result.quantities["numerical_dissipation"] == 0.0


def test_the_energy_warning_names_the_residual_apart_from_the_numerical_dissipation():
    """Plain average acceleration at the bar's impact: the energy it creates is in the
    residual (its numerical dissipation is zero), and the warning says so."""
    with pytest.warns(Fem2dWarning, match="energy grew by"):
        result = run("bar_wall", {"time.scheme": "newmark"}, reference_cache=False)
    warning = next(w for w in result.warnings if w.startswith("energy grew by"))
    assert "the residual of the energy balance" in warning
    assert "while the numerical dissipation is 0 J" in warning
    assert result.quantities["energy_growth"] > 0.01


def test_the_energy_balance_example_of_the_time_schemes_page_prints_what_its_comment_says(capsys):
    """docs/theory/time-schemes.md, "The energy balance": its example run and its printed line."""
    import re
    import warnings
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "theory" / "time-schemes.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"## The energy balance.*?```python\n(.*?)```", page, flags=re.S)
    with warnings.catch_warnings():
        warnings.simplefilter("error", Fem2dWarning)  # HHT's run creates no energy beyond the tolerance
        exec(compile(block, "docs/theory/time-schemes.md", "exec"), {"__name__": "__main__"})
    printed = capsys.readouterr().out.strip()
    comment = re.search(r"# (E = .*)", block).group(1)
    assert printed == comment
