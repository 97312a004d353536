"""The user guide's case files and Python scripts run and pass their checks
(docs/user/cases.md "Write your own case", docs/user/python.md)."""

import json
import re
import runpy
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import fem2d
from fem2d.cli import main

DOCS = Path(__file__).resolve().parents[1] / "docs" / "user"
CASES_PAGE = DOCS / "cases.md"
PYTHON_PAGE = DOCS / "python.md"


def _files() -> dict[str, str]:
    text = CASES_PAGE.read_text(encoding="utf-8")
    return dict(re.findall(r"<!-- file: (\S+) -->\n```\w*\n(.*?)```", text, flags=re.S))


def test_write_your_own_case_examples(tmp_path, monkeypatch):
    files = _files()
    assert set(files) == {"my_block.toml", "sdnv104a_mu05.toml", "make_mesh.py", "my_mesh.toml"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    subprocess.run([sys.executable, "make_mesh.py"], cwd=tmp_path, check=True, timeout=120)
    monkeypatch.chdir(tmp_path)
    expected = {"my_block": 2, "sdnv104a_mu05": 6, "my_mesh": 6}
    for name, n_checks in expected.items():
        assert main(["run", f"{name}.toml", "--out", f"out/{name}", "--quiet"]) == 0
        doc = json.loads((tmp_path / "out" / name / "result.json").read_text())
        assert len(doc["checks"]) == n_checks and all(c["passed"] for c in doc["checks"])
        assert all(c["source"].startswith("exact: rigid block") for c in doc["checks"])
    mu = json.loads((tmp_path / "out" / "sdnv104a_mu05" / "result.json").read_text())
    assert {c["quantity"]: c["reference"] for c in mu["checks"]}["x_at_1.70"] == pytest.approx(13.73339, abs=1e-5)


def test_the_same_problem_composed_in_python_and_as_a_case_file(tmp_path, monkeypatch):
    """docs/user/python.md: the script and the case file that
    follows it are one problem: every quantity the same to the last digit,
    x_at_1.70 the number the script's comment prints."""
    text = PYTHON_PAGE.read_text(encoding="utf-8")
    files = dict(re.findall(r"<!-- same problem: (\S+) -->\n```\w*\n(.*?)```", text, flags=re.S))
    assert set(files) == {"compose_sdnv104.py", "compose_sdnv104.toml"}
    for name, body in files.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    script = runpy.run_path(str(tmp_path / "compose_sdnv104.py"), run_name="__main__")
    python = script["result"].quantities
    case = fem2d.run(str(tmp_path / "compose_sdnv104.toml")).quantities
    assert python["x_at_1.70"] == pytest.approx(14.898337, abs=5e-7)
    assert set(python) == set(case) and "PATIN_dx_at_1.70" in python
    for name, value in python.items():
        assert case[name] == value or (np.isnan(value) and np.isnan(case[name])), name
