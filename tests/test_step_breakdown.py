"""benchmarks/step_breakdown.py: the timed parts of a step, and the methods left as they were."""


import pytest
from conftest import load_benchmark


@pytest.fixture(scope="module")
def step_breakdown():
    return load_benchmark("step_breakdown")


def test_every_part_is_timed_and_unwrapped_after(step_breakdown):
    from fem2d.dynamics.stepper import NewmarkStepper
    from fem2d.linalg.pardiso import PARDISO_CHOLESKY, PardisoFactorization

    if not PARDISO_CHOLESKY.available():
        pytest.skip("the sweeps timed are PARDISO's (the default backend where MKL installs)")
    before = tuple(cls.__dict__[name] for cls, name in
                   ((NewmarkStepper, "step"), (NewmarkStepper, "release"), (PardisoFactorization, "forward")))
    out = step_breakdown.breakdown(0, end=0.1, repeat=3)
    assert out["steps"] == 10
    parts = out["parts"]
    assert {"forward", "backward", "contact", "right-hand side", "step", "history"} <= set(parts)
    # one accepted step is one call of each (no event in the first 0.1 s), its parts inside it
    assert parts["step"][2] == parts["history"][2] == 10
    assert parts["forward"][1] + parts["backward"][1] + parts["contact"][1] < parts["step"][1]
    after = tuple(cls.__dict__[name] for cls, name in
                  ((NewmarkStepper, "step"), (NewmarkStepper, "release"), (PardisoFactorization, "forward")))
    assert after == before
    assert all(t > 0.0 for t in out["back_to_back"])  # timed on the run's own factors, kept alive
