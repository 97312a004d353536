"""The validation suite: variants from [[validation]] tables, TEST_RESU rows, report.md."""

from pathlib import Path

import pytest

from fem2d.linalg import solver_names
from fem2d.studies.study import InlineExecutor
from fem2d.studies.validate import HEADER, suite, table_rows, validate, write_report

TINY_EXTRA = """
[[references]]
quantity = "x_at_0.02"
value = 2.8572e-4
source = "Euler-Bernoulli beam, 60 modes"
tolerance = 0.05
when = { "mesh.element" = "quad8" }
"""

VARIANTS = """
[[validation]]
label = "default"
solvers = "installed"

[[validation]]
label = "steps"
grid = { "time.dt" = [1.0e-3, 5.0e-4], "mesh.element" = ["quad4", "quad8"] }

[[validation]]
label = "too strict"
set = { "references.0.tolerance" = 1.0e-9 }

[[validation]]
label = "broken"
set = { "time.dt" = 10.0 }

[[validation]]
label = "nothing to check"
set = { "references.0.when" = { "mesh.element" = "quad8" }, "mesh.element" = "quad4" }
"""


@pytest.fixture
def tiny(write_tiny_case):
    return write_tiny_case(TINY_EXTRA + VARIANTS)


def test_variants_come_from_the_validation_tables(tiny, tmp_path):
    s = suite([tiny], tmp_path / "v")
    installed = solver_names(installed_only=True)
    labels = [spec.label for spec in s.specs]
    assert labels == [f"default, {name}" for name in installed] + [
        "steps, dt=0.001, quad4",
        "steps, dt=0.001, quad8",
        "steps, dt=0.0005, quad4",
        "steps, dt=0.0005, quad8",
        "too strict",
        "broken",  # does not load: kept, so that its run fails loudly
    ]
    assert s.specs[0].overrides == {"solver.linear": installed[0]}
    assert s.specs[len(installed) + 1].overrides == {"time.dt": 1e-3, "mesh.element": "quad8"}
    assert s.specs[0].out_dir == str(tmp_path / "v" / "tinybeam" / f"default_{installed[0]}")
    assert s.skipped == ["tinybeam [nothing to check]: no reference applies"]


def test_table_rows_and_report(tiny, tmp_path):
    root = tmp_path / "validation"
    result = validate([tiny], root, executor=InlineExecutor())
    rows = result.rows
    assert len(result.records) == len(solver_names(installed_only=True)) + 6
    first = rows[0]
    assert first[:5] == ["tinybeam", f"default, {solver_names(installed_only=True)[0]}", "x_at_0.01", "0.00010078",
                         "Euler-Bernoulli beam, 60 modes"]
    value = result.records[0].quantities["x_at_0.01"]
    assert first[5] == f"{value:.10g}" and first[6] == f"{abs(value - 1.0078e-4) / 1.0078e-4:.2e}"
    assert first[7:] == ["0.05 rel", "OK"]
    by_variant = {}
    for row in rows:
        by_variant.setdefault(row[1], []).append(row)
    assert [r[2] for r in by_variant["steps, dt=0.001, quad8"]] == ["x_at_0.01", "x_at_0.02"]  # `when` holds
    assert [r[2] for r in by_variant["steps, dt=0.001, quad4"]] == ["x_at_0.01"]
    strict = by_variant["too strict"][0]
    assert strict[7] == "1e-09 rel" and strict[8] == "NOOK"
    broken = by_variant["broken"]
    assert broken == [["tinybeam", "broken", "(run)", "-", f"{tiny}: time.dt: 10.0 is larger than time.end = 0.02",
                       "-", "-", "-", "FAILED"]]
    assert not result.passed and result.n_failed_checks == 1 and result.n_failed_runs == 1
    assert "1 NOOK, 1 failed runs" in result.summary() and result.summary().endswith("FAILURES")

    path = write_report(result, root)
    text = path.read_text()
    assert "| " + " | ".join(HEADER) + " |" in text
    assert "| too strict | x_at_0.01 |" in text and "| **NOOK** |" in text
    assert "- tinybeam [nothing to check]: no reference applies" in text
    caption = "DY at node EAST against time, with the Euler-Bernoulli beam, 60 modes"
    assert f"![{caption}](plots/tinybeam_history.png)" in text
    assert (root / "plots" / "tinybeam_history.png").stat().st_size > 10_000
    assert (root / "plots" / "tinybeam_energy.png").is_file()
    csv_lines = (root / "validation.csv").read_text().splitlines()
    assert csv_lines[0] == ",".join(HEADER) and len(csv_lines) == len(rows) + 1
    assert (root / "tinybeam" / "too-strict" / "result.json").is_file()


def test_a_failed_run_is_one_failed_row(tmp_path):
    from fem2d.studies.study import RunRecord, RunSpec

    record = RunRecord(RunSpec("c", {}, "v"), "c", error="ConvergenceError: no convergence at t = 2.1 s")
    assert table_rows([record]) == [
        ["c", "v", "(run)", "-", "ConvergenceError: no convergence at t = 2.1 s", "-", "-", "-", "FAILED"]
    ]


@pytest.mark.slow
def test_the_builtin_suite_passes(tmp_path):
    """Every check of every built-in case passes. Its wall time depends on the machine and its
    load, and is the benchmark's to measure: ``python benchmarks/bench_small.py --validate``."""
    result = validate(root=tmp_path)
    failed = [row for row in result.rows if row[-1] != "OK"]
    assert result.passed, failed
    assert len(result.rows) > 200  # the whole suite ran (287 checks)


def test_the_figures_need_only_the_history_columns_the_records_keep(tmp_path):
    """validate's records carry back only PLOT_HISTORIES (SDND104's 10 columns of 120001 samples
    are 9.6 MB to pickle, its figures read one): case_plots draws the same figures, byte for
    byte, from the trimmed records as from the full ones, for a modal case (wear power against
    a0) and a direct one (history, energy balance, contact pressure, impact forces)."""
    from dataclasses import replace

    import fem2d
    from fem2d.studies.execution import RunSpec, record_of
    from fem2d.studies.validate import PLOT_HISTORIES, case_plots

    runs = {"sdnd104": [{"time.end": 1.0, "post.window": [0.0, 1.0], "excitation.a0": a0} for a0 in (15.0, 1.5)],
            "bar_wall": [{}]}
    for case, variants in runs.items():
        full, trimmed = [], []
        for overrides in variants:
            spec = RunSpec(case, overrides, str(overrides))
            result = fem2d.run(case, overrides, reference_cache=False)
            full.append(record_of(result, spec))
            trimmed.append(record_of(result, replace(spec, keep_histories=PLOT_HISTORIES)))
        assert set(trimmed[0].histories) < set(full[0].histories)
        drawn = [case_plots(case, records, tmp_path / name) for name, records in (("full", full), ("kept", trimmed))]
        assert [caption for caption, _ in drawn[0]] == [caption for caption, _ in drawn[1]]
        assert len(drawn[0]) >= (1 if case == "sdnd104" else 3)
        for (_, a), (_, b) in zip(*drawn, strict=True):
            assert a.read_bytes() == b.read_bytes(), a.name


def test_runs_are_submitted_longest_first_by_their_last_wall_time(tmp_path):
    """validate submits the runs it timed before in its output directories longest first, the
    others before them in suite order; the records come back in suite order all the same."""
    import json

    from fem2d.studies.execution import RunSpec
    from fem2d.studies.validate import longest_first

    walls = {"quick": 0.2, "long": 9.0, "middle": 1.5}
    specs = [RunSpec("c", {}, name, str(tmp_path / name)) for name in ("quick", "new", "long", "middle", "other")]
    for name, wall in walls.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "result.json").write_text(json.dumps({"timing": {"wall_s": wall}}))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "result.json").write_text("{not json")  # unreadable: unknown, as never run
    assert longest_first(specs) == [1, 4, 2, 3, 0]
    assert longest_first([RunSpec("c", {}, "x")]) == [0]


def test_records_come_back_in_suite_order_when_submitted_longest_first(tmp_path):
    import json

    class Recording(InlineExecutor):
        def __init__(self):
            self.labels = []

        def submit(self, fn, /, *args, **kwargs):
            self.labels.append(args[0].label)
            return super().submit(fn, *args, **kwargs)

    first = validate(["sdnd101"], tmp_path, executor=InlineExecutor())
    labels = [r.label for r in first.records]
    assert len(labels) == 2
    for record, wall in zip(first.records, (0.001, 100.0), strict=True):  # the second one "took" longer
        path = Path(record.spec.out_dir) / "result.json"
        data = json.loads(path.read_text())
        data["timing"]["wall_s"] = wall
        path.write_text(json.dumps(data))
    executor = Recording()
    again = validate(["sdnd101"], tmp_path, executor=executor)
    assert executor.labels == labels[::-1]  # submitted longest first
    assert [r.label for r in again.records] == labels  # reported in suite order
    assert [r.quantities for r in again.records] == [r.quantities for r in first.records]


def test_a_variant_on_a_solver_not_installed_is_said_not_run(write_tiny_case, tmp_path, monkeypatch, capsys):
    import dataclasses

    from fem2d.cli import main
    from fem2d.linalg import get_solver, registry

    missing = dataclasses.replace(get_solver("superlu"), name="absent", available_fn=lambda: False,
                                  install="install it so")
    monkeypatch.setitem(registry.REGISTRY.added, "absent", missing)
    case = write_tiny_case(VARIANTS.split("[[validation]]\nlabel = \"steps\"")[0])  # the "default" variant only
    s = suite([case], tmp_path / "v")
    assert "default, superlu" in [spec.label for spec in s.specs]
    assert "default, absent" not in [spec.label for spec in s.specs]
    note = "tinybeam [default, absent]: linear solver 'absent' is not installed; install it so"
    assert note in s.unavailable
    out = tmp_path / "report"
    main(["validate", case, "--out", str(out), "--workers", "1", "--no-plots", "--quiet"])
    assert f"fem2d validate: note: not run: {note}" in capsys.readouterr().err.splitlines()
    assert f"- {note}" in (out / "report.md").read_text()
