"""A modal run that cannot be a result does not give numbers: an explicit step above
the damped stability limit is refused before the run (time.dt, exit 2)."""

from __future__ import annotations

import numpy as np
import pytest

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
