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
    """Generalized-alpha at its rho_inf = 0.9 created 6 % of the loads' work on the pressed and
    pushed block, average acceleration 10 %: the automatic scheme closes the balance."""
    follow(push_block, [f'time.scheme="{scheme}"'], TO_AUTO, [])


def test_the_modified_mass_with_friction_is_sent_to_auto_not_to_events(push_block):
    """Average acceleration on the modified mass created 6 % on the pushed block, and locating its
    impacts made it 190 times the work: the advice is the automatic scheme, events or not."""
    before, _ = follow(push_block, ['time.scheme="modified_mass"'], FRICTION_TO_AUTO, [])
    (chatter,) = [w for w in before.warnings if "chatters" in w]
    assert chatter.endswith(TO_AUTO)  # the chatter's advice is the same run's: auto, warning-free above
    short = ["time.events=true", "time.end=0.025", "report.at_times=[0.02]"]  # 41 times the work by then
    before, after = follow(push_block, ['time.scheme="modified_mass"', *short], FRICTION_TO_AUTO, short)
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


@pytest.mark.parametrize("kinematics", ["corotational", pytest.param("finite", marks=pytest.mark.slow)])
def test_a_turning_body_sliding_under_load_is_told_to_annihilate_its_contact_modes(push_block, kinematics):
    """Bodies that turn or stretch keep generalized-alpha at rho_inf = 0.9 on auto (a rolling disc's
    kinetic energy is 1.1e-2 off at rho_inf = 0, 2.8e-3 at 0.9); pressed and pushed, such a block
    chatters there (27 and 32 contacts, 0.4 % and 1.8 % of the work created): the chatter warning,
    and the energy warning where there is one, say rho_inf = 0, which closes both."""
    from fem2d.runs.advice import DAMP_CHATTER

    body = [f'materials.0.kinematics="{kinematics}"']
    before = run(push_block, body, reference_cache=False)
    chatter = [w for w in before.warnings if "chatters" in w]
    assert len(chatter) == 1 and chatter[0].endswith(DAMP_CHATTER)
    assert all(w.endswith(DAMP_CHATTER) for w in energy_warnings(before))
    after = run(push_block, [*body, 'time.scheme="generalized_alpha"', "time.rho_inf=0.0"], reference_cache=False)
    assert not after.warnings and after.quantities["chatter_openings"] == 0
