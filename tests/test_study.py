"""Studies: grids, executors (in-process, local processes, Dask), tables, failures, interrupts."""

import csv
import json
import math

import pytest

from fem2d.cli.study_commands import parse_grid, parse_levels
from fem2d.errors import InputError
from fem2d.io.files import write_table_csv
from fem2d.studies.refine import convergence_table, level_table, reference_departures, study_convergence, verdict
from fem2d.studies.study import (
    InlineExecutor,
    RunRecord,
    RunSpec,
    compare_specs,
    compare_table,
    grid_specs,
    local_executor,
    observed_order,
    run_all,
    sweep_table,
)


@pytest.fixture
def tiny(write_tiny_case):
    return write_tiny_case()


def test_parse_grid_splits_on_top_level_commas():
    grid = parse_grid(["time.dt=0.01,0.005", "post.window=[2.0,9.5],[3.0, 9.5]", "contact.method=lagrange,penalty"])
    assert grid == {
        "time.dt": [0.01, 0.005],
        "post.window": [[2.0, 9.5], [3.0, 9.5]],
        "contact.method": ["lagrange", "penalty"],
    }
    for bad in (["time.dt"], ["time.dt="], ["=1,2"]):
        with pytest.raises(InputError, match="expected KEY=V1,V2"):
            parse_grid(bad)
    with pytest.raises(InputError, match="given twice"):
        parse_grid(["time.dt=1", "time.dt=2"])


def test_grid_specs_is_the_cartesian_product(tmp_path):
    specs = grid_specs("sdnv104a", {"time.dt": [0.01, 0.005], "mesh.refine": [0, 1, 2]}, {"time.end": 1.0}, tmp_path)
    assert len(specs) == 6
    assert [(s.overrides["time.dt"], s.overrides["mesh.refine"]) for s in specs] == [
        (0.01, 0), (0.01, 1), (0.01, 2), (0.005, 0), (0.005, 1), (0.005, 2)
    ]
    assert all(s.overrides["time.end"] == 1.0 for s in specs)
    assert specs[4].label == "time.dt=0.005,mesh.refine=1"
    assert specs[4].out_dir == str(tmp_path / "004_time.dt=0.005_mesh.refine=1")
    assert len({s.out_dir for s in specs}) == 6


def test_levels_and_observed_order():
    assert parse_levels("0-4") == [0, 1, 2, 3, 4]
    assert parse_levels("0,2,3") == [0, 2, 3]
    assert parse_levels("1-2,4") == [1, 2, 4]
    for bad in ("a-b", "3-1", "2,1", ""):
        with pytest.raises(InputError, match="--levels"):
            parse_levels(bad)
    assert observed_order(1e-2, 2.5e-3) == pytest.approx(2.0)
    assert observed_order(1e-2, 1.25e-3, ratio=4.0) == pytest.approx(1.5)
    assert observed_order(0.0, 1e-3) is None and observed_order(None, 1.0) is None


def _record(level, value, reference, wall, dofs):
    err = abs(value - reference) / reference
    check = {"quantity": "q", "value": value, "reference": reference, "source": "s", "tolerance": 1e-2,
             "relative": True, "relative_error": err, "passed": err <= 1e-2}
    return RunRecord(RunSpec("c", {"mesh.refine": level}, f"level {level}"), "c", {"q": value, "p": 2.0 * value},
                     [check], {"wall_s": wall, "n_dofs": dofs})


def test_refinement_table_reports_orders_errors_and_status():
    # q(h) = 1 + 0.1 h^2 with h = 2^-level: errors and changes both shrink 4x per level
    records = [_record(lv, 1 + 0.1 * 4.0**-lv, 1.0, 0.1 * 4**lv, 100 * 4**lv) for lv in range(4)]
    header, rows = level_table(records)
    assert header == ["quantity", "level", "dofs", "value", "abs_error", "rel_error", "tolerance", "status",
                      "order", "change", "change order", "wall_s"]
    q = [dict(zip(header, r)) for r in rows if r[0] == "q"]
    assert [r["level"] for r in q] == [0, 1, 2, 3] and [r["dofs"] for r in q] == [100, 400, 1600, 6400]
    assert q[0]["abs_error"] == pytest.approx(0.1) and q[3]["rel_error"] == pytest.approx(0.1 / 64)
    assert [r["status"] for r in q] == ["NOOK", "NOOK", "OK", "OK"] and q[0]["tolerance"] == "0.01 rel"
    assert q[0]["order"] is None and all(r["order"] == pytest.approx(2.0) for r in q[1:])
    assert q[1]["change"] == pytest.approx(0.075) and q[1]["change order"] is None
    assert all(r["change order"] == pytest.approx(2.0) for r in q[2:])
    p = [dict(zip(header, r)) for r in rows if r[0] == "p"]  # no reference: no error, but changes and their order
    assert all(r["abs_error"] is None and r["status"] == "-" for r in p) and p[3]["change order"] == pytest.approx(2.0)


def test_refinement_table_carries_each_quantitys_convergence_on_its_finest_row():
    records = [_record(lv, 1 + 0.1 * 4.0**-lv, 1.0, 0.1, 100) for lv in range(4)]
    conv = study_convergence(records)
    header, rows = level_table(records, conv)
    q = [dict(zip(header, r)) for r in rows if r[0] == "q"]
    assert all(r["convergence"] is None for r in q[:3])
    assert q[3]["convergence"] == "monotone" and q[3]["fit levels"] == "0-3"
    assert q[3]["observed order"] == pytest.approx(2.0) and q[3]["extrapolated"] == pytest.approx(1.0)
    c_header, c_rows = convergence_table(records, conv)
    row = dict(zip(c_header, next(r for r in c_rows if r[0] == "q")))
    assert row["extrap. ref. error"] == pytest.approx(0.0, abs=1e-9) and row["ref. error"] == pytest.approx(0.1 / 64)


def test_a_failed_level_is_a_row_and_the_finest_level_decides_the_exit_status():
    records = [_record(lv, 1 + 0.1 * 4.0**-lv, 1.0, 0.1, 100) for lv in range(3)]
    assert verdict(records, {}) == (0, "the finest level 2 passes its checks; coarser level 0 (NOOK), 1 (NOOK)")
    broken = RunRecord(RunSpec("c", {"mesh.refine": 3}, "level 3"), "c", error="SolverError: singular")
    header, rows = level_table([*records, broken])
    last = dict(zip(header, [r for r in rows if r[0] == "q"][-1]))
    assert last["status"] == "FAILED: SolverError: singular" and last["value"] is None
    assert verdict([*records, broken], {}) == (1, "the finest level 3 failed: SolverError: singular")
    assert verdict(records[:1], {})[0] == 1 and "fails its checks: q NOOK" in verdict(records[:1], {})[1]
    beyond = RunRecord(RunSpec("c", {"mesh.refine": 4}, "level 4"), "c", {"q": 1.0}, unchecked=[
        {"quantity": "q", "source": "s", "reason": "references do not apply at mesh.refine = 4 (tolerance 0.01 ...)"}])
    assert verdict([*records, beyond], {}) == (
        0, "the finest level 4 is outside the levels its references state (q); coarser level 0 (NOOK), 1 (NOOK)")
    header, rows = level_table([*records, beyond])
    assert [r[7] for r in rows if r[0] == "q"][-1] == "out of range"


def test_a_reference_that_stops_holding_is_said_with_its_level_and_does_not_fail_the_study():
    """The levels converge to 1 + 2e-5 (changes 1e-5, 5e-6, 2.5e-6) while the reference is 1:
    its error grows at every level (0, 1e-5, 1.5e-5, 1.75e-5) and passes 1.2e-5 (the tolerance) from level 2 on."""
    records = []
    for lv in range(4):
        value = 1 + 2e-5 * (1 - 2.0**-lv)
        record = _record(lv, value, 1.0, 0.1, 100)
        record.checks[0].update(relative=False, tolerance=1.2e-5, passed=abs(value - 1) <= 1.2e-5)
        records.append(record)
    conv = study_convergence(records)
    said = reference_departures(records, conv)
    assert list(said) == ["q"] and "stops holding from level 2" in said["q"]
    assert "while the levels converge (monotone): the finest is 1.0000175 +-" in said["q"]
    assert verdict(records, said)[0] == 0 and verdict(records, {})[0] == 1


def test_compare_specs_and_table():
    specs = compare_specs("sdnv104a", ["lagrange", "penalty"], ["quad4", "quad8"], [], {"time.end": 1.0}, "out")
    assert [s.label for s in specs] == ["lagrange/quad4", "lagrange/quad8", "penalty/quad4", "penalty/quad8"]
    assert specs[3].overrides == {"time.end": 1.0, "contact.method": "penalty", "mesh.element": "quad8"}
    assert specs[3].out_dir.endswith("penalty-quad8")
    a = _record(0, 1.001, 1.0, 0.5, 10)
    a.quantities.update(max_penetration=1e-7, energy_drift=1e-4)
    a.timing["newton_iterations"] = 42
    b = RunRecord(RunSpec("c", {}, "broken"), "c", error="ConvergenceError: no convergence at t = 1")
    header, rows = compare_table([a, b], {"level 0": 0.25})
    assert header == ["quantity", "reference", "level 0", "broken"]
    by_name = {r[0]: r for r in rows}
    assert by_name["q"][1:] == [1.0, 1.001, None]
    assert by_name["  rel. error"][1] is None and by_name["  rel. error"][2] == pytest.approx(1e-3)
    assert by_name["  tolerance"][2:] == [1e-2, None]
    assert by_name["max |u - reference curve| (m)"][2:] == [0.25, None]
    assert by_name["max penetration (m)"][2] == 1e-7 and by_name["Newton iterations"][2] == 42
    assert by_name["energy_drift"][2] == 1e-4 and by_name["wall time (s)"][2] == 0.5
    assert by_name["status"][2:] == ["OK", "ConvergenceError: no convergence at t = 1"]


def test_each_compare_column_shows_the_tolerance_it_is_judged_against():
    """Two variants whose checks of q carry different tolerances (a penalty variant's looser one):
    the tolerance row gives each column its own, and the status follows it."""
    tight, loose = _record(0, 1.001, 1.0, 0.5, 10), _record(0, 1.004, 1.0, 0.5, 10)
    loose.checks[0].update(tolerance=5e-3, passed=True)
    tight.checks[0].update(tolerance=1e-5, passed=False)
    header, rows = compare_table([tight, loose])
    by_name = {r[0]: r for r in rows}
    assert by_name["  rel. error"][2:] == [pytest.approx(1e-3), pytest.approx(4e-3)]
    assert by_name["  tolerance"][2:] == [1e-5, 5e-3]
    assert by_name["status"][2:] == [tight.status, loose.status] == ["NOOK", "OK"]
    assert "contact.e_n (N/m)" not in by_name  # no penalty run


@pytest.mark.filterwarnings("ignore::fem2d.errors.Fem2dWarning")  # a 0.02 s run: its time error is not the point
def test_compare_shows_the_penalty_coefficient_each_penalty_run_used():
    """sdnv104a (briefly) with penalty contact: the default coefficient is 100 E t shared out by
    the nodes' weights, 2.1e13 N/m on average for E = 2.1e11 Pa; a given one is itself; a
    Lagrange column has none."""
    from fem2d import run
    from fem2d.studies.execution import record_of

    runs = {"lagrange": {}, "default": {"contact.method": "penalty"},
            "given": {"contact.method": "penalty", "contact.e_n": 2.1e8}}
    records = [record_of(run("sdnv104a", {"time.end": 0.02, **over}), RunSpec("sdnv104a", over, label))
               for label, over in runs.items()]
    by_name = {r[0]: r for r in compare_table(records)[1]}
    assert by_name["contact.e_n (N/m)"][2:] == [None, "2.1e+13 default (mean)", "2.1e+08 given"]


def test_failed_run_is_a_row_and_keeps_the_previous_result(tiny, tmp_path):
    out = tmp_path / "runs"
    stale = out / "bad"
    stale.mkdir(parents=True)
    (stale / "result.json").write_text('{"stale": true}')
    specs = [
        RunSpec(tiny, {}, "good", str(out / "good")),
        RunSpec(tiny, {"time.dt": 10.0}, "bad", str(stale)),
    ]
    seen = []
    good, bad = run_all(specs, InlineExecutor(), lambda n, r: seen.append((n, r.label)))
    assert sorted(seen) == [(1, "good"), (2, "bad")] or sorted(seen) == [(1, "bad"), (2, "good")]
    assert good.error is None and good.status == "OK" and good.quantities["x_at_0.01"] == pytest.approx(1.0078e-4, 0.05)
    assert bad.status == "FAILED" and "time.dt: 10.0 is larger than time.end" in bad.error
    assert json.loads((out / "good" / "result.json").read_text())["quantities"]["x_at_0.01"] == good.quantities[
        "x_at_0.01"
    ]
    assert (stale / "result.json").read_text() == '{"stale": true}'  # as fem2d run: the earlier result stands
    header, rows = sweep_table([good, bad], ["time.dt"])
    assert rows[1][header.index("status")] == "FAILED" and "larger than" in rows[1][header.index("error")]
    assert rows[0][header.index("time.dt")] is None and rows[1][header.index("time.dt")] == 10.0


def test_interrupt_keeps_finished_runs_and_writes_nothing_else(tiny, tmp_path, monkeypatch):
    import fem2d.runs.result

    real_run, calls = fem2d.runs.result.run, []

    def run(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_run(*args, **kwargs)

    monkeypatch.setattr(fem2d.runs.result, "run", run)
    specs = grid_specs(tiny, {"time.dt": [1e-3, 5e-4, 2.5e-4]}, root=tmp_path)
    with pytest.raises(KeyboardInterrupt):
        run_all(specs, InlineExecutor())
    first, second, third = (tmp_path / f"{i:03d}_time.dt={dt}" for i, dt in enumerate(["0.001", "0.0005", "0.00025"]))
    assert json.loads((first / "result.json").read_text())["overrides"] == {"time.dt": 1e-3}
    assert not second.exists() and not third.exists()
    assert sorted(p.name for p in first.iterdir()) == [".fem2d-outputs.json", "history.npz", "result.json"]


def _quantities(records):
    return [(r.label, r.error, r.quantities, [c["passed"] for c in r.checks]) for r in records]


def test_sweep_on_processes_and_on_dask_give_identical_results(tiny, tmp_path):
    distributed = pytest.importorskip("distributed", reason="dask's distributed is the fem2d[dask] extra")
    grid = {"time.dt": [1e-3, 5e-4], "mesh.element": ["quad4", "quad8"]}
    pool = local_executor(2)
    try:
        local = run_all(grid_specs(tiny, grid, root=tmp_path / "local"), pool)
    finally:
        pool.shutdown()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as c:
        with distributed.Client(c) as client:
            remote = run_all(grid_specs(tiny, grid, root=tmp_path / "dask"), client.get_executor())
    assert len(local) == 4 and _quantities(local) == _quantities(remote)
    assert local[0].quantities["x_at_0.01"] != local[1].quantities["x_at_0.01"]  # quad4 and quad8 differ
    header, rows = sweep_table(local, list(grid))
    assert header[:3] == ["run", "time.dt", "mesh.element"]
    assert header[-3:] == ["status", "wall_s", "error"] and "x_at_0.01" in header and "x_at_0.02" in header
    assert [r[1:3] for r in rows] == [[1e-3, "quad4"], [1e-3, "quad8"], [5e-4, "quad4"], [5e-4, "quad8"]]
    path = write_table_csv(tmp_path / "study.csv", header, rows)
    with path.open() as f:
        back = list(csv.DictReader(f))
    assert [float(r["x_at_0.01"]) for r in back] == [r.quantities["x_at_0.01"] for r in local]
    assert [r["status"] for r in back] == ["OK"] * 4 and all(r["error"] == "" for r in back)
    for base in ("local", "dask"):
        docs = [json.loads(p.read_text()) for p in sorted((tmp_path / base).glob("*/result.json"))]
        assert [d["overrides"] for d in docs] == [s.overrides for s in grid_specs(tiny, grid)]
    assert math.isfinite(float(back[0]["wall_s"]))
