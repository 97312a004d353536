"""The documentation site builds with warnings as errors, and its pages stay true to the code."""

import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def test_the_site_builds_without_a_warning(tmp_path):
    """`sphinx-build -W` of docs/, the gallery not executed (tests/test_examples.py runs it)."""
    pytest.importorskip("sphinx")
    pytest.importorskip("furo")
    pytest.importorskip("sphinx_gallery")
    pytest.importorskip("myst_parser")
    out = tmp_path / "html"
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q", "-E",
         "-d", str(tmp_path / "doctrees"), "-D", "plot_gallery=0", str(DOCS), str(out)],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )
    assert build.returncode == 0, build.stderr[-4000:]
    for page in ("index", "getting-started", "tutorial", "user/cases", "user/python", "user/kinematics", "user/meshes",
                 "user/workflows", "user/outputs", "user/case-format", "theory/contact",
                 "theory/time-schemes", "theory/modal", "validation", "performance", "api"):
        assert (out / f"{page}.html").is_file(), page
    api = (out / "api.html").read_text(encoding="utf-8")
    for name in ("fem2d.Model", "fem2d.DirectAnalysis", "fem2d.StaticAnalysis", "fem2d.ModalAnalysis",
                 "fem2d.Result", "fem2d.run", "fem2d.Contact", "fem2d.Body"):
        assert f'id="{name}"' in api, name
    # the schema's key table is on the site, generated at build time
    assert "materials[].E" in (out / "user" / "case-format.html").read_text(encoding="utf-8")
    # the equations of the docstrings are rendered (MathJax), not left as :math: roles
    schemes = (out / "theory" / "time-schemes.html").read_text(encoding="utf-8")
    assert 'class="math' in schemes and ":math:" not in schemes


def test_every_mesh_builder_and_its_parameters_are_documented():
    from fem2d.mesh import BUILDERS

    page = (DOCS / "user" / "meshes.rst").read_text(encoding="utf-8")
    for name, build in BUILDERS.items():
        row = re.search(rf"\* - ``{name}``\n(.*?)(?=\n   \* - ``|\n\n)", page, flags=re.S)
        assert row, f"docs/user/meshes.rst: no row for the builder {name}"
        for param in inspect.signature(build).parameters:
            if param not in ("element", "refine"):
                assert f"``{param}``" in row.group(1), f"docs/user/meshes.rst: {name}'s {param}"


def test_the_tutorial_page_runs_and_prints_the_sliding_block(tmp_path, monkeypatch, capsys):
    """docs/tutorial.md's code blocks, run one after the other, are the tutorial's script."""
    blocks = re.findall(r"```python\n(.*?)```", (DOCS / "tutorial.md").read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 5
    monkeypatch.chdir(tmp_path)
    script = {"__name__": "__main__"}
    exec(compile("\n".join(blocks), "docs/tutorial.md", "exec"), script)
    assert script["result"].quantities["x_at_1.70"] == pytest.approx(14.8986, abs=1e-3)
    assert "x(1.70) = 14.898" in capsys.readouterr().out
    assert (tmp_path / "block_on_gmsh_mesh.png").stat().st_size > 10_000
    assert {block.kind for block in script["mesh"].blocks("PATIN")} == {"tri3"}  # Gmsh's own triangles


def test_the_readme_links_only_pages_that_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(((?:docs|examples|cases)/[^)#\s]+)", readme)
    assert len(links) >= 8
    missing = [link for link in links if not (ROOT / link).exists()]
    assert missing == []


def test_the_readme_model_in_python_prints_what_its_comment_says(tmp_path, monkeypatch, capsys):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"## A model in Python.*?```python\n(.*?)```", readme, flags=re.S)
    assert len(block.splitlines()) <= 20
    monkeypatch.chdir(tmp_path)
    exec(compile(block, "README.md", "exec"), {"__name__": "__main__"})
    printed = float(capsys.readouterr().out.split()[-1])
    comment = float(re.search(r"# ([0-9.]+) m;", block).group(1))
    assert printed == pytest.approx(comment, abs=5e-7)


def test_the_readme_says_how_to_reach_fem2d_after_its_fresh_machine_commands():
    """After the two fresh-machine commands (kept as CI extracts them), the README says to
    activate the virtual environment (or to type .venv/bin/fem2d) before the bare `fem2d run`."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    after = readme.split("<!-- /test-command -->", 1)[1]
    first_run = after.index("\nfem2d run sdnv104a\n")  # the first run, a command line of its own
    assert "source .venv/bin/activate" in after[:first_run] and ".venv/bin/fem2d" in after[:first_run]
    for marker in ("main-command", "test-command"):
        (block,) = re.findall(rf"<!-- {marker} -->\n```\n(.*?)\n```\n<!-- /{marker} -->", readme, flags=re.S)
        assert block.startswith("python3 -m venv .venv && .venv/bin/pip install -e")
