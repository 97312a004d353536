r"""A large solid cylinder graded towards the rim of a flat punch on its top face.

In an axisymmetric case (``model.hypothesis = "axisymmetric"``, x the radius r,
y the axis z) :func:`graded_cylinder` is the meridian section of a cylinder of
radius R and height H standing for an elastic half-space under a rigid
flat-ended punch of radius a: the rectangle :math:`0 \le r \le R`,
:math:`-H \le z \le 0`, the punch pressing on the top face :math:`r \le a`
(group ``PUNCH``).

The grid is the tensor product of two graded lines: cells of size
:math:`h = a / n` (``cells_under`` n) up to :math:`1.25\,a` along the radius and
down to a depth of :math:`a / 2`, where the pressure's square-root singularity
at the punch's rim needs them; then each cell ``growth`` times the previous one
out to R and down to H (the last one cut short, or stretched by at most 30 %, to end there).
The rim :math:`r = a` is a node, the punch's face exactly ``cells_under`` cells.
"""

from __future__ import annotations

import math

import numpy as np

from fem2d.errors import MeshError
from fem2d.mesh.limits import check_cells
from fem2d.mesh.mesh import Mesh
from fem2d.mesh.sector import _check, _Grid

#: the fine zone's extent, in punch radii: along the radius and in depth
FINE_RADIUS, FINE_DEPTH = 1.25, 0.5


def _line_cells(h: float, fine: float, size: float, growth: float) -> float:
    """About how many steps :func:`graded_line` takes (an upper bound, without making them)."""
    beyond = max(size - fine, 0.0)
    if growth == 1.0:
        return fine / h + beyond / h + 2
    return fine / h + math.log1p(beyond / h * (growth - 1.0)) / math.log(growth) + 2


def graded_line(h: float, fine: float, size: float, growth: float) -> np.ndarray:
    """Increasing values 0 .. ``size``: spacing ``h`` up to ``fine`` (its multiple at
    or just past it), then each step ``growth`` times the previous; the step that
    would leave less than 30 % of a step before ``size`` (or pass it) ends there.

    >>> graded_line(1.0, 2.0, 10.0, 2.0).tolist()
    [0.0, 1.0, 2.0, 4.0, 8.0, 10.0]
    >>> graded_line(1.0, 2.0, 4.5, 2.0).tolist()
    [0.0, 1.0, 2.0, 4.5]
    """
    count = int(np.ceil(fine / h - 1e-9))
    x = [v for v in h * np.arange(count + 1) if v < size * (1.0 - 1e-12)]
    step = h
    while x[-1] < size:
        step *= growth
        x.append(x[-1] + step if size - x[-1] - step > 0.3 * step else size)
    return np.array(x)


def graded_cylinder(
    element: str = "quad4",
    refine: int = 0,
    radius: float = 2.0,
    height: float = 2.0,
    punch_radius: float = 0.01,
    cells_under: int = 16,
    growth: float = 1.3,
) -> Mesh:
    """The meridian section ``0 <= x <= radius``, ``-height <= y <= 0`` of a solid
    cylinder, graded towards the rim ``x = punch_radius`` of a punch on its top
    face (see the module docstring): ``cells_under`` cells of size
    ``punch_radius / cells_under`` under the punch, ``growth`` (1 .. 2) the ratio
    of successive cells outside the fine zone. Each ``refine`` level doubles
    ``cells_under`` and takes the square root of ``growth``, so that the
    family's cells all halve.

    Groups: ``BODY`` (cells); ``PUNCH`` (the top face under the punch,
    ``x <= punch_radius``), ``TOP`` (the whole top face y = 0), ``BOTTOM``
    (y = -height), ``SIDE`` (x = radius), ``AXIS`` (x = 0) (edges); the nodes
    ``CENTER`` (the origin, under the punch's centre) and ``RIM``
    (``punch_radius``, 0).

    >>> mesh = graded_cylinder(radius=1.0, height=1.0, punch_radius=0.1, cells_under=4, growth=2.0)
    >>> len(mesh.group("PUNCH").nodes), mesh.points[mesh.group("RIM").nodes[0, 0]].tolist()
    (4, [0.1, 0.0])
    """
    source = (f"graded_cylinder(radius={radius}, height={height}, punch_radius={punch_radius}, "
              f"cells_under={cells_under}, growth={growth})")
    _check(source, element, refine, {"cells_under": cells_under},
           {"radius": radius, "height": height, "punch_radius": punch_radius})
    if isinstance(growth, bool) or not (isinstance(growth, float | int) and 1.0 <= growth <= 2.0):
        raise MeshError(f"graded_cylinder: growth must be a number in [1, 2], got {growth!r}")
    a = float(punch_radius)
    if not FINE_RADIUS * a <= radius or not FINE_DEPTH * a <= height:
        raise MeshError(f"graded_cylinder: radius = {radius} and height = {height} must be at least "
                        f"{FINE_RADIUS:g} and {FINE_DEPTH:g} x punch_radius = {punch_radius}")
    n = cells_under * 2**refine
    rate = float(growth) ** (1.0 / 2**refine)
    h = a / n
    across = _line_cells(h, FINE_RADIUS * a, float(radius), rate)
    check_cells("graded_cylinder", "cells_under, growth, radius and height (with refine)",
                across * _line_cells(h, FINE_DEPTH * a, float(height), rate))
    xs = graded_line(h, FINE_RADIUS * a, float(radius), rate)
    xs[n] = a  # the rim exactly
    ys = 0.0 - graded_line(h, FINE_DEPTH * a, float(height), rate)[::-1]
    grid = _Grid(xs, ys, element, lambda x, y: (x, y))
    ids, o = grid.ids, grid.order
    rim = n * o  # the rim's index along x
    groups = {
        "BODY": grid.cells,
        "PUNCH": grid.edges(ids[rim::-1, -1]),  # the top faces run from right to left (counter-clockwise)
        "TOP": grid.edges(ids[::-1, -1]),
        "BOTTOM": grid.edges(ids[:, 0]),
        "SIDE": grid.edges(ids[-1, :]),
        "AXIS": grid.edges(ids[0, ::-1]),
        "CENTER": grid.point(ids[0, -1]),
        "RIM": grid.point(ids[rim, -1]),
    }
    return Mesh(grid.points, groups, f"{source[:-1]}, {element!r}, refine={refine})")
