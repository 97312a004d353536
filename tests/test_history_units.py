"""history.npz and history.csv name every column with its unit; the readers
(fem2d plot, compare) take it off again."""

import csv
import re

import numpy as np
import pytest

from fem2d.io.columns import unit_of, with_unit, without_unit
from fem2d.runs.result import run, write_history_csv, write_history_npz, write_result_json
from fem2d.studies.figures import record_from_dir

WITH_UNIT = re.compile(r"^\S.* \[[^\[\]]+\]$")


@pytest.mark.parametrize(
    ("case", "overrides"),
    [
        ("incline", {"time.end": 0.2, "report.groups": ["PATIN"], "report.bodies": ["PATIN"],
                     "report.reactions": ["BATI"]}),
        ("sdnd101", {"time.end": 0.05}),
    ],
)
def test_every_history_column_carries_its_unit_and_reads_back(tmp_path, case, overrides):
    result = run(case, overrides)
    write_history_npz(result, tmp_path)
    write_history_csv(result, tmp_path)
    write_result_json(result, tmp_path)
    with np.load(tmp_path / "history.npz") as data:
        columns = list(data.files)
    with (tmp_path / "history.csv").open(newline="") as f:
        header = next(csv.reader(f))
    assert len(columns) == len(result.histories) and set(header) <= set(columns)
    bare = [c for c in columns if not WITH_UNIT.match(c)]
    assert not bare, f"columns without a unit: {bare}"
    assert "time [s]" in columns and any(c.endswith(":normal_force [N]") or c == "normal_force [N]" for c in columns)
    histories = record_from_dir(tmp_path).histories  # the npz, units taken off
    assert set(histories) == set(result.histories)
    for name, values in result.histories.items():
        np.testing.assert_array_equal(histories[name], values)
    (tmp_path / "history.npz").unlink()  # the CSV alone: its 1D columns
    histories = record_from_dir(tmp_path).histories
    assert set(histories) == {k for k, v in result.histories.items() if np.ndim(v) == 1}


def test_units_of_the_series_of_bodies_zones_and_groups():
    assert with_unit("PATIN:momentum_x") == "PATIN:momentum_x [N s]"
    assert with_unit("LESC/LMAI:min_gap") == "LESC/LMAI:min_gap [m]"
    assert with_unit("BATI:reaction_y") == "BATI:reaction_y [N]"
    assert with_unit("A:vx") == "A:vx [m/s]" and unit_of("energy_residual") == "J"
    assert without_unit(with_unit("slave_status")) == "slave_status" and with_unit("slave_status") == "slave_status [-]"
