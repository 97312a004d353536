"""The range of every builder parameter, checked before Gmsh or NumPy sees it.

A length or a cell count outside these bounds is a :class:`~fem2d.errors.MeshError`
naming the parameter (the case layer turns it into ``mesh.params.NAME``); Gmsh
itself would crash the interpreter on a NaN, an infinite or a 1e308 m length, and
raise a bare ``Exception`` on a grid too large for memory.

==============  ======================  ==================================================
parameter       bounds                  why
==============  ======================  ==================================================
a length (m)    1e-6 <= L <= 1e150      Gmsh's nodes are snapped to 1e-12 m (exact grid
                                        coordinates), which moves a shorter body by more
                                        than 1e-6 of its size; cell areas go as L^2 and
                                        overflow double precision beyond about 1e154 m
a coordinate    abs(x) <= 1e150         the same overflow
a cell count    an integer >= 1         a count of cells along an edge
all cells       <= 1e7                  ten million cells are twenty million unknowns or
                                        more: a sparse direct factorisation of that needs
                                        tens of GB (a larger grid fails for memory inside
                                        the mesher, or after minutes of meshing)
==============  ======================  ==================================================
"""

from __future__ import annotations

import math
import numbers

from fem2d.errors import MeshError

#: The shortest length (m) a builder accepts: its nodes are snapped to 1e-12 m.
SMALLEST_LENGTH = 1e-6
#: The largest length or coordinate (m): element areas and masses go as its square, which
#: overflows double precision (1.8e308) beyond about 1.3e154 m.
LARGEST_LENGTH = 1e150
#: The most cells a builder makes (the counts times 4**refine).
MOST_CELLS = 10_000_000


def check_length(builder: str, name: str, value: object) -> float:
    """``value`` as a float when it is a finite length in [SMALLEST_LENGTH, LARGEST_LENGTH] m,
    else ``MeshError("BUILDER: NAME must be a length in ... m, got VALUE")``.

    >>> check_length("rectangle", "length", float("nan"))
    Traceback (most recent call last):
    ...
    fem2d.errors.MeshError: rectangle: length must be a length in [1e-06, 1e+150] m, got nan
    """
    if (isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value)
            or not SMALLEST_LENGTH <= value <= LARGEST_LENGTH):
        raise MeshError(f"{builder}: {name} must be a length in [{SMALLEST_LENGTH:g}, {LARGEST_LENGTH:g}] m, "
                        f"got {value!r}")
    return float(value)


def check_coordinate(builder: str, name: str, value: object) -> float:
    """``value`` as a float when it is a finite coordinate of magnitude at most LARGEST_LENGTH m."""
    if (isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value)
            or abs(value) > LARGEST_LENGTH):
        raise MeshError(f"{builder}: {name} must be a coordinate of magnitude at most {LARGEST_LENGTH:g} m, "
                        f"got {value!r}")
    return float(value)


def check_cells(builder: str, name: str, n_cells: int) -> None:
    """``MeshError("BUILDER: NAME make N cells ...")`` when a grid would exceed MOST_CELLS.

    >>> check_cells("rectangle", "nx and ny (with refine)", 10**10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fem2d.errors.MeshError: rectangle: nx and ny (with refine) make 1e+10 cells; expected at most 1e+07 (beyond, ...
    """
    if n_cells > MOST_CELLS:
        raise MeshError(f"{builder}: {name} make {float(n_cells):.3g} cells; expected at most {MOST_CELLS:.0e}"
                        " (beyond, the sparse factorisation needs tens of GB)")
