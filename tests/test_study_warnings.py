"""The many-run commands (study, compare, refine, validate) say each run's warnings, one
line each on stderr as ``fem2d run`` does, and share its exit rule: 1 when a run failed, a
check was NOOK or a run created energy; with ``--strict``, also when a run warned."""

import pytest

from fem2d.cli import main
from fem2d.studies.cluster import pack_case, run_packed
from fem2d.studies.execution import RunSpec

#: sdnv104a at dt = 1 s without references: nothing NOOK, one warning (its own time-error estimate)
COARSE = ('references = []\nvalidation = []\n[case]\nextends = "sdnv104a"\nname = "coarse"\n'
          "[time]\ndt = 1.0\n")
TIME_ERROR = "time.dt: the run's own estimate of its time error"


@pytest.fixture
def coarse(tmp_path):
    path = tmp_path / "coarse.toml"
    path.write_text(COARSE)
    return str(path)


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if ": warning: " in line]


@pytest.mark.parametrize(("command", "label"), [
    (["study", "--grid", "time.dt=1.0"], "time.dt=1"),
    (["compare", "--methods", "lagrange"], "lagrange"),
    (["refine", "--levels", "0"], "level 0"),
])
def test_a_study_command_says_each_runs_warnings_and_strict_exits_1(coarse, tmp_path, capsys, command, label):
    args = [command[0], coarse, *command[1:], "--workers", "1", "--quiet"]
    assert main([*args, "--out", str(tmp_path / "a")]) == 0
    said = _warnings(capsys.readouterr().err)
    assert len(said) == 1 and said[0].startswith(f"fem2d {command[0]}: warning: {label}: {TIME_ERROR}")
    assert main([*args, "--out", str(tmp_path / "b"), "--strict"]) == 1
    assert len(_warnings(capsys.readouterr().err)) == 1


def test_a_run_that_created_energy_fails_a_refinement_as_it_fails_fem2d_run(tmp_path, capsys):
    args = ["refine", "bar_wall", "--levels", "0", "--set", "time.scheme=newmark", "--set", "time.end=5e-4",
            "--out", str(tmp_path / "r"), "--quiet"]
    assert main(args) == 1
    said = _warnings(capsys.readouterr().err)
    assert len(said) == 1 and said[0].startswith("fem2d refine: warning: level 0: energy grew by")


@pytest.mark.parametrize("command", [["compare", "--elements", "quad4"], ["refine", "--levels", "0"]])
def test_a_nook_row_fails_compare_and_refine_as_it_fails_study(write_tiny_case, tmp_path, capsys, command):
    args = [command[0], write_tiny_case(), *command[1:], "--set", "mesh.element=quad4", "--workers", "1", "--quiet"]
    assert main([*args, "--out", str(tmp_path / "ok")]) == 0
    # the same runs, checked to a tolerance they miss: their rows are NOOK (no warning, no failed run)
    assert main([*args, "--set", "references.0.tolerance=1e-9", "--out", str(tmp_path / "nook")]) == 1
    captured = capsys.readouterr()
    assert not _warnings(captured.err) and "FAILED" not in captured.err


def test_validate_says_each_runs_warnings(tmp_path, capsys):
    case = tmp_path / "coarse.toml"
    case.write_text('[case]\nextends = "sdnv104a"\nname = "coarse"\n[time]\ndt = 1.0\n'
                    '[[validation]]\nlabel = "coarse"\n')
    main(["validate", str(case), "--out", str(tmp_path / "v"), "--workers", "1", "--quiet", "--no-plots"])
    said = _warnings(capsys.readouterr().err)
    assert len(said) == 1 and said[0].startswith(f"fem2d validate: warning: coarse [coarse]: {TIME_ERROR}")


def test_the_warnings_of_a_run_on_a_dask_worker_come_back_with_its_record(coarse):
    """What a Dask worker sends back (run_packed: the record and result.json's document)."""
    record, document = run_packed(RunSpec(coarse, {}, "coarse"), pack_case(coarse))
    assert record.error is None and record.warnings == document["warnings"]
    assert len(record.warnings) == 1 and record.warnings[0].startswith(TIME_ERROR)
