"""A modal run that cannot be a result does not give numbers: an explicit step above
the damped stability limit is refused before the run (time.dt, exit 2), and a state
that becomes non-finite stops the compiled integration there, or that grows without
bound is found in the history, with the step and the time (exit 1, nothing written)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import fem2d.runs.modal
from fem2d.cli import main
from fem2d.modal.basis import ModalProblem
from fem2d.modal.integrators import integrate_modal
from fem2d.modal.stability import stability_limit


@pytest.mark.parametrize("integrator", ["euler", "devogelaere"])
@pytest.mark.parametrize("c", [5.0, 40.0])
def test_the_damped_stability_limits_are_where_the_integrators_blow_up(integrator, c):
    """With damping c (1/s) the limit falls below 2/omega (euler: h^2 w^2 + 2 h c = 4;
    devogelaere: by bisection on its step matrix): 2 % below, decaying; 2 % above, growing."""
    problem = ModalProblem(masses=[1.0], stiffnesses=[100.0], damping=[c], q0=[1.0])
    limit = stability_limit(problem, integrator)
    assert limit < (2.0 if integrator == "euler" else 2.0 * np.sqrt(2.0)) / 10.0
    below = integrate_modal(problem, integrator, dt=0.98 * limit, t_end=400 * limit)
    above = integrate_modal(problem, integrator, dt=1.02 * limit, t_end=400 * limit)
    assert np.abs(below.q[-50:]).max() < 1e-3 and np.abs(above.q).max() > 1e5


def test_euler_damped_limit_is_the_closed_form():
    problem = ModalProblem(masses=[2.0], stiffnesses=[200.0], damping=[2.0 * 0.3 * 10.0 * 2.0])  # xi = 0.3
    assert stability_limit(problem, "euler") == pytest.approx(2.0 * (np.sqrt(1.09) - 0.3) / 10.0, rel=1e-14)


def test_heavy_modal_damping_above_its_limit_is_refused_before_the_run(tmp_path, capsys):
    """SDND101 with modal.damping = 200 at its own step (far below 2/omega_max) gave 494
    spurious impacts and exit 0: the velocity flipped at every step."""
    out = tmp_path / "out"
    status = main(["run", "sdnd101", "--set", "modal.damping=200", "--quiet", "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1, err
    assert "sdnd101.toml: time.dt: 0.0005 s is above the stability limit of the explicit 'euler' integrator " \
           "with damping" in err
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("integrator", ["euler", "devogelaere"])
def test_the_compiled_loops_stop_at_a_non_finite_state(integrator):
    problem = ModalProblem(masses=[1.0], stiffnesses=[100.0], q0=[1.0])
    dt = 1.5 * stability_limit(problem, integrator)
    history = integrate_modal(problem, integrator, dt=dt, t_end=1e5 * dt)
    assert history.diverged and not np.isfinite(history.q[-1]).all()
    assert np.isfinite(history.q[:-1]).all() and history.steps < 5000 and len(history.t) == history.steps + 1
    assert history.t[-1] == pytest.approx(history.steps * dt)


def _unchecked(monkeypatch):
    """A blow-up the ahead-of-time check misses: the check switched off."""
    monkeypatch.setattr(fem2d.runs.modal.ModalAnalysis, "check_step", lambda self, problem: None)


def _run_sdnd101(tmp_path, capsys, dt: str, end: str) -> tuple[int, str, object]:
    out = tmp_path / "out"
    status = main(["run", "sdnd101", "--set", "references=[]", "--set", f"time.dt={dt}", "--set", f"time.end={end}",
                   "--set", f"post.window=[0.0, {end}]", "--quiet", "--out", str(out)])
    return status, capsys.readouterr().err.strip(), out


def test_a_modal_run_that_overflows_stops_there_and_writes_nothing(tmp_path, capsys, monkeypatch):
    """SDND101 at dt = 0.025 s (the limit is 0.0199 s) to t = 100 s: 4000 steps, stopped at the overflow."""
    import warnings

    _unchecked(monkeypatch)
    with warnings.catch_warnings(record=True) as caught:  # 4000 steps: the interpreted kernel, numpy scalars
        warnings.simplefilter("always")
        status, err, out = _run_sdnd101(tmp_path, capsys, "0.025", "100.0")
    assert [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)] == []
    assert status == 1 and len(err.splitlines()) == 1, err
    assert "sdnd101.toml: time.dt: the state became non-finite (q) at step " in err
    step, t = re.search(r"at step (\d+), t = ([0-9.e+-]+) s", err).groups()
    assert int(step) < 1000 and float(t) == pytest.approx(int(step) * 0.025)
    assert not out.exists() or not any(out.iterdir())


def test_a_modal_run_that_grows_names_the_step_where_it_shows(tmp_path, capsys, monkeypatch):
    """Just above the limit (0.0201 s) to 20 s: finite to the end, growing by 1e100."""
    _unchecked(monkeypatch)
    status, err, out = _run_sdnd101(tmp_path, capsys, "0.0201", "20.0")
    assert status == 1 and len(err.splitlines()) == 1, err
    assert "sdnd101.toml: time.dt: the state grows without bound (max |q| reaches " in err
    step, t = re.search(r"at step (\d+), t = ([0-9.e+-]+) s", err).groups()
    assert int(step) < 995 // 2 and float(t) == pytest.approx(int(step) * 0.0201)
    assert not out.exists() or not any(out.iterdir())
