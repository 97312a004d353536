"""The Moreau-Jean scheme (fem2d/dynamics/moreau.py) against exact solutions:
the Signorini bars (fem2d/exact/bars.py) and SDNV104's rigid block with
friction at its own implicit step dt = 0.01."""

import numpy as np
import pytest

from fem2d.dynamics.moreau import MoreauJean
from fem2d.exact.bars import bar_on_wall
from fem2d.runs.result import run

EXACT = bar_on_wall(1.0, 2.0e11, 8000.0, 0.05, 1.0)
MJ = {"time.scheme": "moreau_jean", "model.lumped_mass": False}


@pytest.mark.parametrize("case, plateau", [("bar_wall", EXACT.force), ("two_bars", EXACT.force / 2)])
def test_the_bars_impact_with_the_exact_force_and_no_energy_created(case, plateau):
    """Consistent mass, theta = 1/2, e = 0, dt = 2.4 us: the peak is the exact
    plateau within 10 % (modified mass: +36 %), the contact lasts 2 L / c within
    1 %, no re-opening, and the discrete energy 1/2 v'Mv + 1/2 u'Ku never grows:
    the impact costs at most the contact nodes' share of the kinetic energy."""
    result = run(case, MJ)
    q, h = result.quantities, result.histories
    assert q["impact_1_f_max"] == pytest.approx(plateau, rel=0.1)
    assert q["impact_1_duration"] == pytest.approx(EXACT.duration, rel=1e-2)
    assert q["impact_1_impulse"] == pytest.approx(plateau * EXACT.duration, rel=1e-2)  # m v0 (two bars) or 2 m v0
    assert q["n_impacts"] == 1 and q["n_reopenings"] == 0
    energy = h["kinetic"] + h["elastic"]
    assert np.max(np.diff(energy)) <= 1e-12 * energy[0]
    assert -1e-2 <= q["energy_drift"] < 0.0


def test_sdnv104_follows_the_exact_rigid_block_at_its_own_step():
    """SDNV104 A at dt = 0.01 with Coulomb friction (mu = 0.3): DX(A) within
    3e-4 of the exact ramped rigid block (SDNV104's analytic model: 14.898649 at 1.70 s, 3.513052
    at 3.40 s; average acceleration is 2.5e-4 / 3.4e-4 off), and the energy
    balance with the friction dissipation closes to 1e-4."""
    q = run("sdnv104a", {"time.scheme": "moreau_jean"}).quantities
    assert q["x_at_1.70"] == pytest.approx(14.898649, abs=3e-4)
    assert q["x_at_3.40"] == pytest.approx(3.513052, abs=3e-4)
    assert abs(q["energy_drift"]) < 1e-4


def test_parameters_are_checked():
    assert MoreauJean().weights(0.1) == pytest.approx((0.5, 10.0, 200.0))
    with pytest.raises(ValueError, match="theta"):
        MoreauJean(theta=0.4)
    with pytest.raises(ValueError, match="restitution"):
        MoreauJean(restitution=1.5)


def test_the_reported_gap_is_the_end_of_step_one():
    """The law holds on u_{n+1} - (1 - theta) dt v_n, but the history reports
    the gap of u_{n+1}: after the first step of the impact (v_0 = 1 m/s, the
    contact node stopped at the step's end) the velocity law has let the node
    in by dt v_0 / 2 = 1.2 um, and max_penetration says so; the final
    solution's gaps are the end nodes' -u_x (the wall at their start)."""
    result = run("bar_wall", {**MJ, "time.end": 4.8e-6})
    system, final = result.fields.system, result.fields.final_state
    u = np.zeros(system.n_dofs)
    u[system.free] = final.u
    slave = system.zones[0].slave_nodes
    assert final.solution.gap == pytest.approx(-u[2 * slave], abs=1e-15)
    assert result.quantities["max_penetration"] == pytest.approx(0.5 * 2.4e-6 * 1.0, rel=0.05)


def test_a_penalty_contact_is_refused(tmp_path, capsys):
    """Penalty contact is a force of the gap, not an impulse law: held on the
    gap's change, the block would sink by its penetration at every step (0.04 m
    on SDNV104 B); the run refuses it before starting, one line, exit 2."""
    from fem2d.cli import main

    status = main(["run", "sdnv104b", "--set", "time.scheme=moreau_jean", "--quiet", "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1, err
    assert "sdnv104b.toml: time.scheme: moreau-jean(theta=0.5, e=0) imposes contact as a velocity-level" in err


def test_the_bouncing_bar_first_impact():
    """bar_bounce's first impact (20 cells, consistent mass, Courant 0.71, no
    events) against the exact bouncing bar: the contact lasts 2 L / c and
    carries the impulse 2 m v + 2 m g L / c within 2 %, without re-opening;
    the energy never grows, and the impact costs the contact nodes' share of
    the kinetic energy (about 1/40 here: -2.9 %) and no more than 4 %."""
    from fem2d.exact.bars import BouncingBar

    bar = BouncingBar(1.0, 9.0e7, 1000.0, 0.05, 9.81, 0.2)
    mass = 1000.0 * 0.05 * 1.0
    q = run("bar_bounce", {"time.scheme": "moreau_jean", "time.events": False, "time.end": 0.212}).quantities
    assert q["n_impacts"] == 1 and q["n_reopenings"] == 0
    assert q["impact_1_duration"] == pytest.approx(bar.contact_duration, rel=2e-2)
    exact_impulse = 2 * mass * bar.velocity + 2 * mass * bar.g * bar.length / bar.c
    assert q["impact_1_impulse"] == pytest.approx(exact_impulse, rel=2e-2)
    assert q["energy_growth"] < 1e-10
    assert -0.04 < q["energy_drift"] < -0.01
