"""The velocity reported for contact nodes without inertia (the modified mass method) and
for those the central difference's contact force acts on (Paoli-Schatzman), against the
exact Signorini bar: at rest on the wall during the contact, the bar's rebound velocity
after it."""

from __future__ import annotations

import numpy as np
import pytest

from fem2d.exact.bars import bar_on_wall
from fem2d.runs.result import run


@pytest.mark.parametrize("lumped", [True, False])
def test_contact_node_rests_on_the_wall_and_leaves_at_the_rebound_velocity(lumped):
    result = run("bar_wall", {"time.scheme": "modified_mass", "model.lumped_mass": lumped,
                              "report.node": "BAR1_E", "time.end": 6e-4}, reference_cache=False)
    h = result.histories
    t, v, force = h["time"], h["v"], h["normal_force"]
    exact = bar_on_wall(1.0, 2.0e11, 8000.0, 0.05, 1.0)
    v0, v_after = 1.0, exact.velocity_after[0]
    in_contact = force > 0.0
    assert in_contact.sum() > 100
    # the node on the wall does not move: the scheme's corrector alone flips it between -v0 and +v0
    assert np.abs(v[in_contact]).max() < 1e-9 * v0
    # after the release the node moves with the bar, its lattice ringing about the exact -v0 decaying
    # (the corrector alone gives -2.3 to +0.25 m/s there)
    dt = float(h["dt"][1])
    free = t > exact.t_end + 10 * dt
    assert free.sum() > 50
    assert abs(v[free].mean() - v_after) < 0.03 * v0
    assert np.abs(v[free] - v_after).max() < 0.6 * v0
    # the final state a later run would start from carries the same velocity
    node_dof = 2 * int(result.fields.model.mesh.group_nodes("BAR1_E")[0])
    system = result.fields.system
    assert result.fields.final_state.v[system.free_index[node_dof]] == pytest.approx(v[-1], abs=1e-12)


def test_the_bodies_with_mass_move_as_before():
    """The reported rates do not feed back into the march: the far end's motion is the
    modified mass scheme's, whichever node is reported."""
    settings = {"time.scheme": "modified_mass", "time.end": 6e-4}
    far = run("bar_wall", settings, reference_cache=False).histories
    near = run("bar_wall", {**settings, "report.node": "BAR1_E"}, reference_cache=False).histories
    assert np.array_equal(far["kinetic"], near["kinetic"]) and np.array_equal(far["elastic"], near["elastic"])
    # the far end flies off at the exact rebound velocity on average (a dof with mass: the scheme's velocity)
    assert far["v"][far["time"] > 4.5e-4].mean() == pytest.approx(-1.0, abs=0.05)


def test_central_difference_contact_node_rests_on_the_wall_at_courant_one():
    """Paoli-Schatzman on the lumped mass (auto's choice) at Courant number 1, exact at the
    nodes: the contact node reports 0 on the wall (its end-of-step velocity, without the
    next step's contact force, was 0.92 to 0.99 m/s there) and -v0 after, to round-off."""
    result = run("bar_wall", {"report.node": "BAR1_E", "time.dt": 2.5e-6, "time.end": 6e-4}, reference_cache=False)
    assert "paoli-schatzman" in result.notes[0]
    h = result.histories
    t, v, force = h["time"], h["v"], h["normal_force"]
    exact = bar_on_wall(1.0, 2.0e11, 8000.0, 0.05, 1.0)
    in_contact = force > 0.0
    assert in_contact.sum() > 100 and np.abs(v[in_contact]).max() < 1e-9
    free = t > exact.t_end + 2.5e-6
    assert free.sum() > 50
    np.testing.assert_allclose(v[free], exact.velocity_after[0], atol=1e-8)
    # the impact statistics read the same velocity: the node has stopped at the first contact sample
    assert abs(result.quantities["impact_1_v_impact"]) < 1e-9
