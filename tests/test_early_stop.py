"""A run that blows up stops during the march (runs/sanity.StateWatch), not at its end,
with the error the finished run would give and nothing written."""

from __future__ import annotations

import re

from fem2d.cli import main

UNSTABLE = ["--set", "time.scheme=newmark", "--set", "time.beta=0.1", "--set", "time.dt=0.05"]


def test_an_unstable_run_stops_early_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "out"
    status = main(["run", "sdnv104a", *UNSTABLE, "--set", "time.end=100", "--quiet", "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert status == 1 and len(err.splitlines()) == 1, err
    assert "sdnv104a.toml: time.beta: the state grows without bound" in err
    step, t = re.search(r"at step (\d+), t = ([0-9.e+-]+) s", err).groups()
    assert int(step) < 200 and float(t) < 10.0  # 2000 steps to t = 100 s
    assert not out.exists() or not any(out.iterdir())


def test_a_non_finite_state_names_step_and_time():
    import numpy as np
    import pytest

    from fem2d.runs.sanity import DivergenceError, StateWatch

    watch = StateWatch(every=2)
    watch.on_step(0.1, np.ones(3), np.zeros(3))
    with pytest.raises(DivergenceError, match=r"non-finite \(v\) at step 2, t = 0\.2 s"):
        watch.on_step(0.2, np.ones(3), np.array([0.0, np.nan, 0.0]))


def test_a_blow_up_is_one_error_line_and_no_numpy_warning(tmp_path, capsys):
    """A conditionally stable Newmark step far above its limit (no check ahead of
    time for it): the state overflows; the run says so once, without the
    RuntimeWarnings of the energies of an overflowing state."""
    import warnings

    out = tmp_path / "out"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        status = main(["run", "sdnv104a", *UNSTABLE, "--set", "time.end=100", "--quiet", "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert status == 1 and len(err.splitlines()) == 1, err
    assert "sdnv104a.toml: time.beta: the state grows without bound" in err
    assert [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)] == []
    assert not out.exists() or not any(out.iterdir())


def test_an_explicit_step_above_its_limit_fails_before_the_run(tmp_path, capsys):
    """Paoli-Schatzman (central differences) at SDNV104's dt = 0.01, far above its
    limit 2 / omega_max: one line naming the file, time.dt and the limit, exit 2,
    before a step is taken (it used to blow up during the march), and no numpy
    warning."""
    import warnings

    out = tmp_path / "out"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        status = main(["run", "sdnv104a", "--set", "time.scheme=paoli_schatzman", "--quiet", "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1, err
    assert re.search(r"sdnv104a\.toml: time\.dt: 0\.01 s is above the stability limit 1\.7\d*e-05 s", err), err
    assert [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)] == []
    assert not out.exists() or not any(out.iterdir())
