"""Impact schemes (fem2d/dynamics/impact.py): Paoli-Schatzman on the bars with
exact references (fem2d/exact/bars.py)."""

import numpy as np
import pytest

from fem2d.dynamics.impact import PaoliSchatzman
from fem2d.exact.bars import bar_on_wall
from fem2d.runs.result import run

EXACT = bar_on_wall(1.0, 2.0e11, 8000.0, 0.05, 1.0)


def test_at_courant_number_one_the_lumped_lattice_gives_the_exact_plateau():
    """Central differences on a lumped 1D lattice at c dt = h reproduce
    d'Alembert's solution at the nodes: the wall force is the exact plateau
    E A v0 / c from the first step to 2 L / c, to round-off."""
    h = 1.0 / 80
    result = run("bar_wall", {"time.dt": h / 5000.0, "time.end": 4.2e-4})
    force = result.histories["normal_force"]
    t = result.histories["time"]
    inside = (t > 1e-5) & (t < EXACT.duration - 1e-5)
    assert np.max(np.abs(force[inside] / EXACT.force - 1.0)) < 1e-9
    assert result.quantities["impact_1_duration"] == pytest.approx(EXACT.duration, rel=1e-9)


@pytest.mark.parametrize("case, force", [("bar_wall", 2.0e6), ("two_bars", 1.0e6)])
def test_case_defaults_meet_issue_10(case, force):
    """The bar cases as shipped (Paoli-Schatzman, e = 0, lumped mass, Courant
    0.96): peak within 10 % of the plateau, duration within 1 %, |energy drift|
    <= 0.01, no re-opening."""
    q = run(case).quantities
    assert abs(q["impact_1_f_max"] / force - 1.0) < 0.05
    assert q["impact_1_duration"] == pytest.approx(4.0e-4, rel=1e-2)
    assert abs(q["energy_drift"]) < 5e-3 and q["n_reopenings"] == 0


def test_parameters_are_checked():
    with pytest.raises(ValueError, match="theta"):
        PaoliSchatzman(theta=0.7)
    with pytest.raises(ValueError, match="restitution"):
        PaoliSchatzman(restitution=1.5)
