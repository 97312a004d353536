"""benchmarks/compare_results.py: two validate trees agree when every quantity of every
run prints the same ten digits; a missing run, quantity or check is a difference."""

import json
from pathlib import Path

import pytest
from conftest import load_benchmark


@pytest.fixture(scope="module")
def compare():
    return load_benchmark("compare_results")


def _tree(root: Path, runs: dict[str, dict]) -> Path:
    for name, (quantities, checks) in runs.items():
        (root / name).mkdir(parents=True)
        (root / name / "result.json").write_text(json.dumps({"quantities": quantities, "checks": checks}))
    return root


def test_trees_compare_to_the_last_printed_digit(compare, tmp_path, capsys):
    check = {"quantity": "x", "reference": 1.0, "passed": True}
    old = _tree(tmp_path / "old", {"a/v1": ({"x": 1.0, "n": 3}, [check]), "b/v1": ({"y": 2.0}, [])})
    same = _tree(tmp_path / "same", {"a/v1": ({"x": 1.0 + 1e-13, "n": 3}, [check]), "b/v1": ({"y": 2.0}, [])})
    assert compare.main([str(old), str(same), "--checks"]) == 0
    assert "2 runs, 5 quantities and checks: identical to the last printed digit" in capsys.readouterr().out
    moved = {**check, "reference": 1.000000001, "passed": False}
    new = _tree(tmp_path / "new", {"a/v1": ({"x": 1.000000001, "n": 3}, [moved])})
    assert compare.main([str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert "a/v1: x 1 -> 1.000000001 (relative 1e-09)" in out and "b/v1: only in old" in out
    assert compare.main([str(old), str(new), "--checks"]) == 1
    out = capsys.readouterr().out
    assert "a/v1: check x: reference 1 -> 1.000000001" in out and "a/v1: check x: status \"OK\" -> \"NOOK\"" in out
