"""A case file is data: it names fem2d's own reference curves (never a module to import)
and its output folder by a plain name (never a path out of ``results/``). Both are refused
when the case is loaded, before anything runs or is written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TINY_CASE

import fem2d
from fem2d.case.loading import load_case
from fem2d.cli import main
from fem2d.errors import InputError

ROOT = Path(__file__).resolve().parents[1]


def _tree(top: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under ``top``."""
    out: dict[str, bytes | None] = {}
    for root, dirs, files in os.walk(top):
        for d in dirs:
            out[os.path.relpath(os.path.join(root, d), top)] = None
        for f in files:
            out[os.path.relpath(os.path.join(root, f), top)] = Path(root, f).read_bytes()
    return out


def _named(text: str, name: str) -> str:
    return text.replace('name = "tinybeam"', f"name = {name!r}".replace("'", '"'), 1)


def test_a_curve_module_next_to_the_case_is_not_imported(tmp_path):
    case_dir = tmp_path / "shared"
    case_dir.mkdir()
    marker = tmp_path / "imported"
    (case_dir / "evil.py").write_text(f"open({str(marker)!r}, 'w').close()\ndef f(t):\n    return t\n")
    (case_dir / "mycase.toml").write_text(TINY_CASE + '\n[report.curve]\nfunction = "evil:f"\n')
    out = tmp_path / "out"
    out.mkdir()
    (out / "result.json").write_text("the previous run's")
    before = _tree(tmp_path)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(case_dir), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-m", "fem2d.cli", "run", "mycase.toml", "--plot", "--out", str(out)],
                          cwd=case_dir, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fem2d: error: mycase.toml: report.curve.function: 'evil:f'")
    assert "tip_step_response" in lines[0]
    assert not marker.exists()
    assert _tree(tmp_path) == before


def test_a_curve_names_fem2d_own_reference_only(tmp_path, write_tiny_case):
    sys.modules.pop("this", None)
    with pytest.raises(InputError, match=r"report.curve.function: 'this:x' is not a reference curve of fem2d; "
                                         r"expected one of incline_displacement, .*tip_step_response"):
        load_case(write_tiny_case('\n[report.curve]\nfunction = "this:x"\n'))
    assert "this" not in sys.modules
    with pytest.raises(InputError, match="report.curve.function: 'os:system'"):
        load_case(write_tiny_case(), {"report.curve.function": "os:system"})
    for name in ("tip_step_response", "fem2d.exact.beam:tip_step_response"):
        assert load_case(write_tiny_case(f'\n[report.curve]\nfunction = "{name}"\n')).get("report.curve.function")


@pytest.mark.parametrize("name", ["..", "ABS", "../../x", ".", "", "a\\b", ".hidden"])
def test_a_case_name_that_is_a_path_is_refused_before_anything_is_written(tmp_path, monkeypatch, capsys, name):
    case_dir = tmp_path / "a" / "b" / "work"
    case_dir.mkdir(parents=True)
    name = str(tmp_path / "victim_abs") if name == "ABS" else name
    (case_dir / "mycase.toml").write_text(_named(TINY_CASE, name))
    for neighbour in ("a_thesis.tex", "data.csv", "zz_notes.txt"):
        (case_dir / neighbour).write_text(neighbour)
    before = _tree(tmp_path)
    monkeypatch.chdir(case_dir)
    assert main(["run", "mycase.toml", "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("fem2d: error: mycase.toml: case.name: "), err
    assert _tree(tmp_path) == before


def test_a_case_name_set_on_top_of_the_file_is_checked_too(tmp_path, monkeypatch, capsys, write_tiny_case):
    path = write_tiny_case()
    before = _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["run", path, "--quiet", "--set", "case.name=.."]) == 2
    assert "case.name: '..' is a path" in capsys.readouterr().err
    for name in ("..", "/abs/x", "../../x"):
        with pytest.raises(InputError, match="case.name: .* is a path"):
            fem2d.run(path, {"case.name": name})
        with pytest.raises(InputError, match="case.name: .* is a path"):
            fem2d.run(load_case(path), {"case.name": name})
    assert _tree(tmp_path) == before
