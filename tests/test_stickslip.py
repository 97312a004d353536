"""Stick/slip events located inside a step (fem2d/dynamics/stickslip.py): SDNV104
second order in time against the exact rigid block, the block stopping when the
exact one does, without chatter."""

from functools import cache

import numpy as np
import pytest

import fem2d
from fem2d.exact.sliding_block import SlidingBlock, solve

CASES = ["sdnv104a", "sdnv104b", "sdnv104c", "sdnv104d", "sdnv104e"]


@cache
def run(case: str, **overrides):
    return fem2d.run(case, {k.replace("__", "."): v for k, v in overrides.items()})


@cache
def exact(mu: float = 0.3, ft: float = 2e5, t_end: float = 3.5):
    return solve(SlidingBlock(mu=mu, ft=ft), t_end)


def sup_error(result) -> float:
    """Largest |x_FE(t) - x_exact(t)| of the reported DX over the run's steps."""
    h = result.histories
    return float(np.max(np.abs(h["u"] - exact().x(h["time"]))))


def test_sdnv104_is_second_order_in_time():
    """One run (time.extrapolate = false; tests/test_extrapolation.py checks the
    extrapolated order). Four step sizes (each divides the 0.07 s ramp): the largest error over the
    run, through both slip reversals, is C dt^2 with one C (within 15 %); without
    the events located it is O(dt) and erratic (9.8e-3 at dt = 0.01, 2.5e-3 at
    both 0.007 and 0.005)."""
    dts = np.array([0.014, 0.01, 0.007, 0.005])
    errors = np.array([sup_error(run("sdnv104a", time__dt=float(dt), time__extrapolate=False)) for dt in dts])
    order = np.polyfit(np.log(dts), np.log(errors), 1)[0]
    assert 1.85 <= order <= 2.15, (errors, order)
    constants = errors / dts**2
    assert constants.max() <= 1.15 * constants.min(), constants
    # the rigid Newmark integration's own error at these steps: about 10 dt^2 (period error)
    assert constants.max() < 12.0


@pytest.mark.parametrize("case", CASES)
def test_every_modelisation_follows_the_exact_block_through_the_reversals(case):
    """dt = 0.01, default settings: within 1.1e-3 of the exact rigid block at every
    step (1.0e-3 measured: the scheme's period error; 9.8e-3 before the reversals
    were located), and the two reversals found as reversals."""
    r = run(case)
    assert sup_error(r) < 1.1e-3
    assert r.timing["events_reversals"] == 2 and r.timing["events_stops"] == 0


def test_code_asters_hht_is_unchanged_by_the_events():
    """code_aster's HHT (first order, alpha = -0.3) with the reversals located
    still gives code_aster's numbers (the tests of test_sdnv104.py check them)."""
    q = run("sdnv104a", time__scheme="hht", time__alpha=-0.3, time__extrapolate=False).quantities
    assert q["x_at_1.70"] == pytest.approx(14.836107, rel=2e-4)
    assert q["x_at_3.40"] == pytest.approx(3.624710, rel=1e-3)


def check_rest(mu: float, t_end: float) -> None:
    dt = 0.01
    r = run("sdnv104_long", contact__mu=mu, time__end=t_end)
    t_rest, x_rest = exact(mu, 3e5, t_end).rest()
    q = r.quantities
    assert abs(q["t_rest"] - t_rest) <= dt
    assert q["x_rest"] == pytest.approx(x_rest, abs=1e-3)
    # no chatter: after the stop the block's speed stays at round-off
    h = r.histories
    after = h["time"] > q["t_rest"] + 1e-9
    assert np.abs(h["v"][after]).max() <= 1e-8 * np.abs(h["v"]).max()
    assert r.timing["events_stops"] >= 1


def test_the_block_stops_when_the_exact_one_does():
    """sdnv104_long (mu = 0.5): t_rest within one step of the exact rest time
    (2.2e-4 s measured; 0.21 s late before, the velocity chattering at
    5e-5 m/s for 0.2 s)."""
    check_rest(0.5, 8.0)


def test_a_penalty_block_rests_when_it_stops_sliding():
    """sdnv104b (penalty springs) run to rest at dt = 0.005: t_rest, the end of the contact's last
    slip, within one step of the exact block's stop (4.6e-3 s early measured, where the block's
    own velocity vanishes, t_ext_5). The contact springs ring after the stop: the reported velocity
    stays above 1e-6 of its peak for another 0.059 s (t_still), where t_rest was before (7.4e-2 s late)."""
    dt = 0.005
    q = run("sdnv104b", time__end=8.7, time__dt=dt, time__extrapolate=False, report__extrema=5).quantities
    t_stop = exact(0.3, 2e5, 8.7).rest()[0]
    assert abs(q["t_rest"] - t_stop) < dt
    assert q["t_rest"] == pytest.approx(q["t_ext_5"], abs=1e-9)
    assert q["t_still"] > q["t_rest"] + 0.05


@pytest.mark.slow
@pytest.mark.parametrize(("mu", "t_end"), [(0.4, 10.0), (0.3, 13.0), (0.2, 20.0), (0.1, 40.0)])
def test_the_block_stops_when_the_exact_one_does_for_every_mu(mu, t_end):
    check_rest(mu, t_end)


def test_without_friction_there_is_no_locator():
    r = run("sdnv104a", contact__mu=0.0, time__end=0.5)
    assert r.timing["events_reversals"] == 0 and r.timing["events_trial_steps"] == 0


def test_the_locator_can_be_turned_off():
    r = run("sdnv104a", time__stick_slip=False, time__extrapolate=False)
    assert r.timing["events_reversals"] == 0
    assert sup_error(r) > 5e-3  # first order: the reversals integrated as if at step ends


@pytest.fixture(scope="module")
def idle():
    from conftest import load_benchmark

    return load_benchmark("bench_stickslip_idle")


def assert_idle(result) -> None:
    """No event located, no trial step solved, no matrix factorised but the step's one."""
    t = result.timing
    assert (t["events_stops"], t["events_reversals"], t["events_trial_steps"]) == (0, 0, 0), t
    assert (t["factorizations"], t["refactorizations"]) == (1, 0), t


@pytest.mark.parametrize("situation", ["rest", "shaken"])
def test_a_block_that_never_slips_costs_the_locator_nothing(idle, situation):
    """A steel block settled under its weight (nu = 0.3: its corners hold their friction
    limit), at rest or on a plane shaken along itself below mu g: no stop, no reversal, no
    trial step (before: 37 stops and 700 trial steps in the first 50 ms at rest, stops from
    the round-off of the slip rates; 18 stops when shaken, from the corners' creep)."""
    r = idle.run(situation, end=0.05 if situation == "rest" else 0.06)
    assert_idle(r)
    assert np.abs(r.histories["v"]).max() < 0.1  # (it moves with the plane when shaken)


def test_slip_rates_of_round_off_are_no_slip(idle, monkeypatch):
    """The block at rest with the sticking nodes' hold left out (every sliding node searched):
    its slip rates, round-off changing sign from step to step, hold no event."""
    import fem2d.dynamics.stickslip as stickslip

    monkeypatch.setattr(stickslip, "HELD_SHARE", 0.0, raising=False)
    assert_idle(idle.run("rest", end=0.05))


def test_no_step_beyond_an_explicit_schemes_stability_limit_after_an_event():
    """After a located reversal the rest of a macro step shorter than half a step joins the next
    one: with the explicit scheme at 0.95 of its stability limit (a soft block, lumped mass) that
    made one step 1.26 times the limit. It is now left as it is when the joined step would
    exceed the limit; both reversals are still found."""
    from fem2d.case.build import build_analysis
    from fem2d.case.loading import load_case

    settings = {"materials.0.E": 2.1e8, "model.lumped_mass": True, "time.scheme": "paoli_schatzman",
                "time.extrapolate": False, "time.end": 3.45, "report.at_times": []}
    analysis = build_analysis(load_case("sdnv104a", settings)).analysis
    limit = analysis.scheme.critical_step(analysis.model.assemble())
    r = fem2d.run("sdnv104a", {**settings, "time.dt": 0.95 * limit})
    assert r.timing["events_reversals"] == 2
    assert r.histories["dt"].max() <= limit
