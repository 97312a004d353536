"""Impact schemes (fem2d/dynamics/impact.py): Paoli-Schatzman on the bars with
exact references (fem2d/exact/bars.py)."""

import numpy as np
import pytest

from fem2d.dynamics.impact import ContactStabilisedNewmark, PaoliSchatzman
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
def test_bar_cases_as_shipped_meet_peak_duration_and_energy_bounds(case, force):
    """The bar cases as shipped (Paoli-Schatzman, e = 0, lumped mass, Courant
    0.96): peak within 10 % of the plateau, duration within 1 %, |energy drift|
    <= 0.01, no re-opening."""
    q = run(case).quantities
    assert abs(q["impact_1_f_max"] / force - 1.0) < 0.05
    assert q["impact_1_duration"] == pytest.approx(4.0e-4, rel=1e-2)
    assert abs(q["energy_drift"]) < 5e-3 and q["n_reopenings"] == 0


@pytest.mark.parametrize("case", ["bar_wall", "two_bars"])
def test_contact_stabilised_newmark_never_creates_energy(case):
    """Deuflhard-Krause-Ertel: the discrete energy 1/2 v'Mv + 1/2 u'Ku does not
    grow at any step (frictionless contact), the contact does not re-open, and
    the impact costs at most the contact nodes' kinetic energy (1/80 of the
    striker's on 40 cells, consistent mass)."""
    settings = {"time.scheme": "stabilised_newmark", "model.lumped_mass": False, "time.dt": 2.0e-6,
                "mesh.params.cells": 40}
    result = run(case, settings)
    h = result.histories
    energy = h["kinetic"] + h["elastic"]
    assert np.max(np.diff(energy)) < 1e-12 * energy[0]
    q = result.quantities
    assert q["n_impacts"] == 1 and q["n_reopenings"] == 0
    assert q["impact_1_duration"] == pytest.approx(4.0e-4, rel=1.01e-2)
    assert -1.0 / 80 <= q["energy_drift"] < 0.0


def test_without_contact_the_stabilised_newmark_is_average_acceleration():
    """No contact zone: the predictor is not projected and the step is
    average acceleration (same weights up to the factor 1/2 of the equation)."""
    w_k, w_c, w_m = ContactStabilisedNewmark().weights(0.1)
    assert (2 * w_k, 2 * w_c, 2 * w_m) == pytest.approx((1.0, 0.5 / (0.25 * 0.1), 1.0 / (0.25 * 0.01)))


def test_parameters_are_checked():
    with pytest.raises(ValueError, match="theta"):
        PaoliSchatzman(theta=0.7)
    with pytest.raises(ValueError, match="restitution"):
        PaoliSchatzman(restitution=1.5)


def test_the_explicit_step_limit_is_h_over_c_on_the_lumped_bar(tmp_path, capsys):
    """On the lumped 1D lattice omega_max = 2 c / h, so the limit 2 / omega_max is
    h / c = 2.5 us: Courant 1 runs (the test above), 1.01 is refused before the
    run with the file, time.dt and the limit; theta = 1/4 has no limit."""
    from fem2d.case.build import build_system
    from fem2d.case.loading import load_case
    from fem2d.cli import main

    system = build_system(load_case("bar_wall"))
    assert PaoliSchatzman().critical_step(system) == pytest.approx(1.0 / 80 / 5000.0, rel=1e-9)
    assert PaoliSchatzman(theta=0.1).critical_step(system) == pytest.approx(2.5e-6 / np.sqrt(0.6), rel=1e-9)
    assert PaoliSchatzman(theta=0.25).critical_step(system) == np.inf
    args = ["run", "bar_wall", "--set", "time.scheme=paoli_schatzman", "--set", "time.dt=2.525e-6"]
    status = main([*args, "--quiet", "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1, err
    assert "bar_wall.toml: time.dt: 2.525e-06 s is above the stability limit 2.5e-06 s" in err


@pytest.mark.parametrize("settings, chosen, why", [
    ({}, "paoli-schatzman(theta=0, e=0)", "explicit: the step 2.4e-06 s is within its stability limit 2.5e-06 s"),
    ({"time.dt": 2.525e-6}, "modified-mass newmark", "above the explicit paoli-schatzman(theta=0, e=0)'s stability"),
    ({"model.lumped_mass": False}, "modified-mass newmark", "the mass matrix is consistent"),
])
def test_auto_chooses_the_explicit_scheme_within_its_limit_on_a_lumped_mass_and_says_so(
        settings, chosen, why, tmp_path, capsys):
    """The schema default with contact: Paoli-Schatzman on a lumped mass with
    dt within 2 / omega_max, the modified mass otherwise; the choice is in
    result.json's notes and printed by fem2d run."""
    import json

    from fem2d.cli import main

    args = [f"--set={key}={str(value).lower()}" for key, value in {**settings, "time.end": 2e-5}.items()]
    assert main(["run", "bar_wall", *args, "--quiet", "--out", str(tmp_path)]) in (0, 1)
    notes = json.loads((tmp_path / "result.json").read_text())["notes"]
    assert len(notes) == 1 and notes[0].startswith(f"auto scheme: {chosen}, ") and why in notes[0], notes
    assert notes[0] in capsys.readouterr().out
