"""The modal case files run end to end through fem2d.run (case -> System ->
modes -> integrator -> post) and pass their references."""

import pytest

import fem2d

AMPLITUDES = [15.0, 1.5, 1.01, 0.99]


@pytest.mark.parametrize("a0", AMPLITUDES)
@pytest.mark.parametrize("integrator", ["euler", "devogelaere", "adapt"])
def test_sdnd104_explicit_integrators_pass_code_asters_tolerances(a0, integrator):
    result = fem2d.run("sdnd104", {"excitation.a0": a0, "modal.integrator": integrator})
    assert any(c["source"].startswith("exact") for c in result.checks)
    if integrator == "euler" and a0 != 0.99:
        assert any(c["source"].startswith("code_aster EULER") for c in result.checks)
    assert result.passed, result.checks
    if a0 == 0.99:
        assert result.quantities["wear_power"] == 0.0


def test_sdnd104_exact_integrator_to_1e9():
    for a0 in AMPLITUDES:
        result = fem2d.run("sdnd104", {"excitation.a0": a0, "modal.integrator": "exact"})
        assert result.passed
        assert all(c["tolerance"] <= 1e-9 for c in result.checks)


def test_sdnd104_twelve_runs_are_fast():
    total = sum(
        fem2d.run("sdnd104", {"excitation.a0": a0, "modal.integrator": i}).timing["wall_s"]
        for a0 in AMPLITUDES
        for i in ("euler", "devogelaere", "adapt")
    )
    assert total < 2.0


@pytest.mark.parametrize("integrator", ["euler", "exact"])
def test_sdnd101(integrator):
    result = fem2d.run("sdnd101", {"modal.integrator": integrator})
    assert result.passed, result.checks
    q = result.quantities
    assert q["n_impacts"] == 2
    if integrator == "euler":  # code_aster's printed values
        assert q["impact_2_f_max"] == pytest.approx(9954.7807740037, rel=1e-9)
    else:
        assert q["impact_1_f_max"] == pytest.approx(1e6 * 1.0 / (1.01e6 / 100) ** 0.5, rel=1e-12)


@pytest.mark.parametrize(("overrides", "key"), [
    ({"post.threshold": 1.0}, "post.threshold"),
    ({"obstacle.cn": 1.0}, "obstacle.cn"),
])
def test_exact_integrator_refusing_a_setting_names_its_key(overrides, key):
    from fem2d.errors import InputError

    with pytest.raises(InputError, match=rf"sdnd104.*: {key}: .*\(integrator 'exact'\)") as info:
        fem2d.run("sdnd104", {"modal.integrator": "exact", **overrides})
    assert info.value.exit_status == 2 and "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("case", "settings", "period"),
    [
        # adapt from a 0.05 s first step: the first impact (0.031 s) falls between two samples and
        # the second's peak force is read 58 % low
        ("sdnd101", {"time.dt": 0.05}, "0.0625 s (the highest mode with the obstacles' kn closed)"),
        # 10 steps and samples per period of the excitation: the wear power 2.1 % low
        ("sdnd104", {"time.dt": 0.1, "time.end": 2.0, "post.window": [0.0, 2.0]}, "1 s (the excitation)"),
    ],
)
def test_a_modal_run_with_too_few_samples_per_period_says_so(case, settings, period):
    """Fewer than 50 samples over the shortest period of the motion: a warning naming the period,
    what sets it and the step to take; none at the cases' own steps."""
    result = fem2d.run(case, {**settings, "modal.integrator": "adapt"})
    assert len(result.warnings) == 1, result.warnings
    assert result.warnings[0].startswith("time.dt: the samples, ")
    assert f"of the shortest period of the motion, {period}, fewer than 50" in result.warnings[0]
    assert fem2d.run(case, {"modal.integrator": "adapt", "time.end": 0.5, "post.window": [0.0, 0.5]}).warnings == []
