"""Every docstring example of the package runs with the default ``pytest``: the pytest
settings collect the doctests of every module of ``fem2d/`` that has a ``>>>`` example."""

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_default_pytest_collects_every_docstring_example():
    options = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "--doctest-modules" in options["addopts"].split()
    paths = [REPO / p for p in options["testpaths"]]
    with_examples = [f for f in sorted((REPO / "fem2d").rglob("*.py")) if ">>>" in f.read_text(encoding="utf-8")]
    assert with_examples
    left_out = [str(f.relative_to(REPO)) for f in with_examples if not any(f == p or p in f.parents for p in paths)]
    assert not left_out, "docstring examples the default pytest does not run: " + ", ".join(left_out)
