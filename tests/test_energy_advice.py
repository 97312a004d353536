"""Every piece of advice an energy warning gives, followed on the run that printed it:
the run then closes its energy balance, and no advice sends the user back to the
setting they came from."""

import pytest

from fem2d.runs.advice import FRICTION_TO_AUTO, LOCATE_IMPACTS, TO_AUTO
from fem2d.runs.result import run


def energy_warnings(result):
    return [w for w in result.warnings if w.startswith("energy grew by")]


def follow(case, overrides, advice, fixed):
    """Run ``case`` with ``overrides``: one energy warning giving ``advice``; then with ``fixed``
    (the advice followed): none, and no other warning either."""
    before = run(case, overrides, reference_cache=False)
    warned = energy_warnings(before)
    assert len(warned) == 1 and warned[0].endswith(advice), before.warnings
    after = run(case, fixed, reference_cache=False)
    assert not after.warnings, after.warnings
    return before, after


@pytest.mark.parametrize("scheme", ["generalized_alpha", "newmark"])
def test_a_scheme_chosen_by_hand_on_a_sliding_block_is_sent_to_auto(push_block, scheme):
    """Generalized-alpha at its rho_inf = 0.9 created 1.2 % of the loads' work on the pressed and
    pushed block, average acceleration 11 %: the automatic scheme closes the balance."""
    follow(push_block, [f'time.scheme="{scheme}"'], TO_AUTO, [])


def test_the_modified_mass_with_friction_is_sent_to_auto_not_to_events(push_block):
    """Average acceleration on the modified mass created 6 % on the pushed block, and locating its
    impacts made it 199 times the work: the advice is the automatic scheme, events or not."""
    follow(push_block, ['time.scheme="modified_mass"'], FRICTION_TO_AUTO, [])
    before, after = follow(push_block, ['time.scheme="modified_mass"', "time.events=true"], FRICTION_TO_AUTO,
                           ["time.events=true"])
    assert before.quantities["energy_growth"] > 10.0 > 1e-3 > after.quantities["energy_growth"]


def test_a_frictionless_impact_inside_a_step_is_sent_to_events():
    """Two bars colliding on a consistent mass at dt = 2e-5 s (modified mass, the impact inside a
    step) create 1.4e-3 of their energy, over a tolerance of 1e-3: located impacts keep it to 1e-9."""
    base = ['time.scheme="modified_mass"', "time.dt=2e-5", "model.lumped_mass=false", "post.energy_tolerance=1e-3"]
    follow("two_bars", base, LOCATE_IMPACTS, [*base, "time.events=true"])


def test_newmark_at_an_impact_is_sent_to_auto():
    """Average acceleration on the bar hitting a rigid wall created 7 times its energy; auto takes the
    explicit impact scheme there and keeps it."""
    follow("bar_wall", ['time.scheme="newmark"'], TO_AUTO, [])
