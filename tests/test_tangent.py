"""The tangent of bodies that turn or stretch kept across Newton's iterations and steps
(``solver.tangent = "kept"``) or refreshed at every iteration (``"refreshed"``, Newton's
method) gives the same answer to the Newton tolerance, on every finite-strain built-in case
(and their corotational twins), and each mode does what it says: one factorisation per
iteration refreshed, fewer kept (the default)."""

from __future__ import annotations

import warnings

import pytest

from fem2d.dynamics.newton import NewtonSettings
from fem2d.errors import ArgumentError, InputError
from fem2d.runs.result import run

#: Newton's tolerance (the residual relative to the step's largest force)
TOLERANCE = NewtonSettings().tolerance
#: what the two tangents' answers may differ by, relative: the residual each leaves, 1e-8 of the
#: step's forces, through the stiffness of the quantity measured (a slender strip turns 10^2 times
#: more than it stretches)
AGREE = 1e2 * TOLERANCE

END = 0.03125  # s: the rolling disc's first 10 steps
ROLLING = ("DISC_rotation", "DISC_kinetic", "DISC_velocity_x", "normal_impulse", "tangential_impulse",
           "work_loads")


def _both(name: str, overrides: dict) -> tuple:
    with warnings.catch_warnings():  # a shortened run's energy balance is not what is compared
        warnings.simplefilter("ignore")
        return tuple(run(name, overrides | {"solver.tangent": tangent}) for tangent in ("kept", "refreshed"))


@pytest.mark.parametrize("name, overrides", [
    ("compression", {}),
    ("compression", {"materials.0.law": "saint_venant_kirchhoff"}),
    ("compression", {"materials.0.kinematics": "corotational", "materials.0.law": "hooke"}),
    ("cylinder_compression", {}),
    ("elastica", {"time.dt": 0.1, "time.end": 0.2, "report.at_times": [0.1, 0.2]}),
    ("elastica", {"materials.0.kinematics": "corotational"}),
])
def test_a_kept_tangent_gives_the_static_cases_answers_to_the_newton_tolerance(name, overrides):
    """Every quantity checked against the case's exact answer: both tangents pass the checks and
    agree to 100 times Newton's tolerance."""
    kept, refreshed = _both(name, overrides)
    assert refreshed.checks and all(c["passed"] for c in kept.checks + refreshed.checks)
    for check in refreshed.checks:
        key = check["quantity"]
        assert kept.quantities[key] == pytest.approx(refreshed.quantities[key], rel=AGREE), key
    assert refreshed.timing["factorizations"] == refreshed.timing["body_newton_iterations"]


@pytest.mark.parametrize("kinematics", ["corotational", "finite"])
def test_a_kept_tangent_rolls_the_disc_as_newtons_method_on_fewer_factorisations(kinematics):
    """The rolling disc's first 10 steps: its distance, rotation, energy and impulses agree to 100
    times Newton's tolerance; Newton's method factorises at every iteration, the kept tangent
    under once in 4 steps."""
    kept, refreshed = _both("rolling_disc", {"time.end": END, "report.at_times": [END],
                                             "materials.0.kinematics": kinematics})
    for key in ROLLING + tuple(k for k in refreshed.quantities if k.startswith("x_at_")):
        assert kept.quantities[key] == pytest.approx(refreshed.quantities[key], rel=AGREE), key
    assert abs(kept.quantities["DISC_rotation"]) > 1e-3  # it turns
    steps = refreshed.timing["steps"]
    assert refreshed.timing["factorizations"] == refreshed.timing["body_newton_iterations"]
    assert refreshed.timing["solves"] == refreshed.timing["body_newton_iterations"] >= 2 * steps
    assert kept.timing["factorizations"] < steps // 4
    assert kept.timing["solves"] == kept.timing["body_newton_iterations"]


def test_the_tangent_is_kept_by_default():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        static = run("compression", {})
        rolling = run("rolling_disc", {"time.end": 0.02, "report.at_times": [0.02]})
    assert static.timing["factorizations"] < static.timing["body_newton_iterations"]
    assert rolling.timing["factorizations"] <= 2 < rolling.timing["body_newton_iterations"]


def test_a_tangent_not_known_is_refused_naming_the_key():
    with pytest.raises(InputError, match="solver.tangent"):
        run("compression", {"solver.tangent": "stale"})
    with pytest.raises(InputError, match="solver.tangent_refresh"):
        run("compression", {"solver.tangent_refresh": 1.5})


def test_the_analysis_refuses_a_tangent_not_known():
    from fem2d.case.build import build_analysis
    from fem2d.case.loading import load_case

    analysis = build_analysis(load_case("compression", {})).analysis
    import dataclasses

    with pytest.raises(ArgumentError, match="tangent"):
        dataclasses.replace(analysis, tangent="stale")
    with pytest.raises(ArgumentError, match="tangent_refresh"):
        dataclasses.replace(analysis, tangent_refresh=1.0)
