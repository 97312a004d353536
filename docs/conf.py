"""Sphinx configuration of the fem2d documentation.

Build it with ``pip install -e '.[docs]'`` then
``sphinx-build -W -b html docs docs/_build/html`` from the repository root.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("MPLBACKEND", "Agg")

import fem2d  # noqa: E402
from fem2d.case.keys import markdown_page  # noqa: E402

# The case-format page is generated from the schema at every build (docs/case-format.md
# is the same page kept in the repository for GitHub).
GENERATED = Path(__file__).parent / "_generated"
GENERATED.mkdir(exist_ok=True)
_page = markdown_page() + "\n"
if not (GENERATED / "case-format.md").is_file() or (GENERATED / "case-format.md").read_text() != _page:
    (GENERATED / "case-format.md").write_text(_page, encoding="utf-8")

# docs/gallery/ is generated from examples/plot_*.py: the pages of an example that was
# renamed or removed are dropped, or they would stand outside every table of contents.
_EXAMPLES = {p.stem for p in (ROOT / "examples").glob("plot_*.py")}
for _stale in (Path(__file__).parent / "gallery").glob("plot_*"):
    if _stale.is_file() and _stale.name.split(".")[0] not in _EXAMPLES:
        _stale.unlink()

project = "fem2d"
author = "fem2d authors"
copyright = "fem2d authors"
release = version = fem2d.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = [
    "_build", "_generated", "case-format.md", "sg_execution_times.rst",
    "gallery/*.ipynb", "gallery/*.py.md5", "gallery/*.zip",
]
myst_heading_anchors = 3
myst_enable_extensions = ["dollarmath"]

suppress_warnings = ["ref.python"]

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": False}
autosummary_generate = False
napoleon_numpy_docstring = True
napoleon_google_docstring = False

sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "gallery",
    "filename_pattern": r"/plot_",
    "ignore_pattern": r"^(?!.*plot_)",
    "download_all_examples": False,
    "within_subsection_order": "FileNameSortKey",
    "write_computation_times": False,
}

html_theme = "furo"
html_title = f"fem2d {release}"
html_static_path = ["_static"]
