"""Draw docs/_static/sliding_block.png, the picture of the README and the docs' front page.

Runs the built-in case sdnv104a with its figures and keeps the one of the
reported displacement against the exact rigid block::

    python docs/make_figure.py
"""

import shutil
import tempfile
from pathlib import Path

from fem2d.cli import main

STATIC = Path(__file__).resolve().parent / "_static"

if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        assert main(["run", "sdnv104a", "--plot", "--out", tmp]) == 0
        figures = sorted(Path(tmp).rglob("*history*.png"))
        STATIC.mkdir(exist_ok=True)
        shutil.copyfile(figures[0], STATIC / "sliding_block.png")
