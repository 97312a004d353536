"""docs/user/kinematics.md stays true: its Python example runs and prints the numbers its
comment says, and its excerpt of the rolling disc is the built-in case's own settings."""

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "user" / "kinematics.md"


def _blocks(marker: str) -> dict[str, str]:
    text = PAGE.read_text(encoding="utf-8")
    return dict(re.findall(rf"<!-- {marker}: (\S+) -->\n```\w*\n(.*?)```", text, flags=re.S))


def test_the_python_example_prints_the_elastica_its_comment_says(tmp_path, monkeypatch, capsys):
    """The corotational tip deflection at P L^2/EI = 4 and the elastica's, both printed to the
    five digits of the comment; they differ by 5e-4 of the deflection (the continuum is not the
    inextensible rod, and 20 x 1 cells)."""
    (block,) = _blocks("runs").values()
    assert len(block.strip().splitlines()) <= 12
    assert 'kinematics="corotational"' in block
    monkeypatch.chdir(tmp_path)
    exec(compile(block, "docs/user/kinematics.md", "exec"), {"__name__": "__main__"})
    computed, exact = (float(v) for v in capsys.readouterr().out.split()[-2:])
    said = [float(v) for v in re.search(r"# (\S+) (\S+) \(m\)", block).groups()]
    assert computed == pytest.approx(said[0], abs=5e-6)
    assert exact == pytest.approx(said[1], abs=5e-6)
    assert computed == pytest.approx(exact, rel=1e-3)


def test_the_rolling_disc_excerpt_is_the_case_file():
    """Every table and key of the excerpt has the value of cases/rolling_disc.toml."""
    ((name, excerpt),) = _blocks("excerpt").items()
    case = tomllib.loads((ROOT / name).read_text(encoding="utf-8"))
    shown = tomllib.loads(excerpt)
    assert set(shown) >= {"materials", "contact", "time", "loads"}
    for table, value in shown.items():
        if isinstance(value, list):  # arrays of tables: the first ones, in order
            assert case[table][: len(value)] == value, table
        else:
            for key, item in value.items():
                assert case[table][key] == item, f"{table}.{key}"
