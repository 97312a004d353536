"""``python -m fem2d.cli``: the console script."""

from fem2d.cli import script

script()
