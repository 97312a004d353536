r"""A full solid disc, the section of a wheel or roller that rolls on the plane y = 0.

The mesh is an O-grid: a square block in the middle and four curved blocks
around it, one on each side of the square, reaching out to the circle. The disc
of radius :math:`R` is centred at :math:`c = (0, R)`, so that it touches y = 0
at the origin. With :math:`a = R/2` the half-width of the square:

* the square block, :math:`(\xi, \eta) \in [-1, 1]^2`, is
  :math:`x = c + a\,(\xi, \eta)`;
* the curved block on side :math:`k` (:math:`k = 0, 1, 2, 3`: bottom, right,
  top, left, counter-clockwise), with :math:`s \in [-1, 1]` along the side
  (counter-clockwise) and :math:`t \in [0, 1]` outward, blends the side of the
  square with the quarter of the circle facing it along straight lines,

  .. math::

      x = c + Q_k \left[ (1 - t)\, a\, (s, -1)
          + t\, R\, \left(\sin\tfrac{\pi s}{4}, -\cos\tfrac{\pi s}{4}\right) \right],

  :math:`Q_k` the rotation by :math:`k\pi/2`: points uniform in length on the
  square go to points uniform in angle on the circle, and the corners of the
  square (:math:`s = \pm 1`) along the diagonals, so that neighbouring blocks share
  their nodes. Every node, the mid-side nodes of QUAD8 cells too, is the map of
  its parameters, so those of the rim lie on the circle exactly. The cells at a
  corner of the square have an angle of 135 degrees there, the largest of the mesh.
"""

from __future__ import annotations

import numpy as np

from fem2d.errors import MeshError
from fem2d.mesh.limits import check_cells, check_length
from fem2d.mesh.mesh import CellBlock, Mesh

#: Half-width of the central square, as a fraction of the radius.
SQUARE = 0.5


def _positive_int(name: str, value: object, even: bool = False) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < (2 if even else 1) or (even and value % 2):
        what = "an even integer >= 2" if even else "an integer >= 1"
        raise MeshError(f"disc: {name} must be {what}, got {value!r}")


def _quads(ids: np.ndarray, i: np.ndarray, j: np.ndarray, o: int, columns: int | None = None) -> np.ndarray:
    """QUAD4/QUAD8 connectivity of the cells whose first corner is grid node (i, j), counter-clockwise
    when i, j run as x, y do; ``columns`` makes j periodic (a ring of the O-grid)."""

    def at(di: int, dj: int) -> np.ndarray:
        jj = j + dj if columns is None else (j + dj) % columns
        return ids[i + di, jj]

    corners = [at(0, 0), at(o, 0), at(o, o), at(0, o)]
    if o == 2:
        corners += [at(1, 0), at(2, 1), at(1, 2), at(0, 1)]
    return np.column_stack(corners)


def disc(element: str = "quad4", refine: int = 0, radius: float = 1.0, cells: int = 8,
         rings: int | None = None) -> Mesh:
    """A full disc of ``radius`` centred at (0, radius), touching y = 0 at the origin.

    An O-grid (see the module docstring): ``cells`` x ``cells`` cells in the
    central square (``cells`` even), ``cells`` x ``rings`` cells in each of the
    four curved blocks around it (``rings`` across, from the square to the rim;
    default ``cells // 2``), each count times ``2**refine``; QUAD4 or QUAD8.
    Groups: ``DISC`` (cells), ``RIM`` (the circle, counter-clockwise, starting at
    -135 degrees) (edges); nodes ``CENTRE`` (0, R), ``BOTTOM`` (the origin, on the
    rim: where the wheel touches the ground) and ``TOP`` (0, 2R).

    >>> from fem2d.fe.norms import integrate_over_cells
    >>> mesh = disc("quad8", radius=0.5, cells=8)
    >>> area = integrate_over_cells(mesh.points, mesh.group("DISC"), lambda x, y: np.ones_like(x)).sum()
    >>> len(mesh.group("DISC").nodes), bool(abs(area / (np.pi * 0.25) - 1.0) < 1e-3)
    (192, True)
    >>> rim = np.unique(mesh.group("RIM").nodes)
    >>> float(np.abs(np.hypot(*(mesh.points[rim] - [0.0, 0.5]).T) - 0.5).max()) < 1e-12
    True
    >>> [mesh.points[mesh.node(name)].tolist() for name in ("BOTTOM", "CENTRE", "TOP")]
    [[0.0, 0.0], [0.0, 0.5], [0.0, 1.0]]
    """
    source = f"disc(radius={radius}, cells={cells}, rings={rings})"
    if element not in ("quad4", "quad8"):
        raise MeshError(f"{source}: element must be 'quad4' or 'quad8', got {element!r}")
    if isinstance(refine, bool) or not isinstance(refine, int) or not 0 <= refine <= 8:
        raise MeshError(f"disc: refine must be an integer in 0..8, got {refine!r}")
    check_length("disc", "radius", radius)
    _positive_int("cells", cells, even=True)
    if rings is not None:
        _positive_int("rings", rings)
    check_cells("disc", "cells and rings (with refine)", cells * (cells + 4 * (cells // 2 if rings is None else rings))
                * 4**refine)
    R, o = float(radius), 2 if element == "quad8" else 1
    n = o * cells * 2**refine  # grid intervals along a side of the square (QUAD8: mid-side nodes too)
    m = o * (cells // 2 if rings is None else rings) * 2**refine  # from the square to the rim
    a = SQUARE * R

    # the square: node (i, j) at xi = 2 i / n - 1, eta = 2 j / n - 1 (QUAD8: none at the cell centres)
    i, j = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    keep = ~((i % 2 == 1) & (j % 2 == 1)) if o == 2 else np.ones(i.shape, dtype=bool)
    square = np.full(i.shape, -1, dtype=np.int64)
    square[keep] = np.arange(int(keep.sum()))
    inner = np.column_stack([a * (2 * i[keep] - n) / n, R + a * (2 * j[keep] - n) / n])

    # the rings: ring r (0 on the square, m on the rim), position p = k n + q around (side k, q along it)
    p = np.arange(4 * n)
    k, q = p // n, p % n
    boundary = np.select(
        [k == 0, k == 1, k == 2], [square[q, 0], square[n, q], square[n - q, n]], square[0, n - q]
    )
    r = np.arange(1, m + 1)[:, None]
    keep = ~((r % 2 == 1) & (p % 2 == 1)[None, :]) if o == 2 else np.ones((m, 4 * n), dtype=bool)
    ring = np.vstack([boundary[None, :], np.full((m, 4 * n), -1, dtype=np.int64)])
    ring[1:][keep] = len(inner) + np.arange(int(keep.sum()))
    s = (2 * q - n) / n
    t = (r / m)[:, :, None]
    # the bottom block, then turned by k quarter turns (exact: the turns' cosines and sines are integers)
    bottom = (1.0 - t) * a * np.stack([s, -np.ones_like(s)], axis=1) + t * R * np.stack(
        [np.sin(np.pi / 4 * s), -np.cos(np.pi / 4 * s)], axis=1)
    cos_k, sin_k = np.array([1.0, 0.0, -1.0, 0.0])[k], np.array([0.0, 1.0, 0.0, -1.0])[k]
    outer = np.stack([cos_k * bottom[..., 0] - sin_k * bottom[..., 1] + 0.0,
                      R + sin_k * bottom[..., 0] + cos_k * bottom[..., 1]], axis=-1)
    points = np.vstack([inner, outer[keep]])

    ci, cj = np.meshgrid(np.arange(0, n, o), np.arange(0, n, o), indexing="ij")
    ri, rj = np.meshgrid(np.arange(0, m, o), np.arange(0, 4 * n, o), indexing="ij")
    cells_nodes = np.vstack([
        _quads(square, ci.ravel(), cj.ravel(), o),
        # (ring, position) runs as (radius, angle): counter-clockwise
        _quads(ring, ri.ravel(), rj.ravel(), o, columns=4 * n),
    ])
    rim = np.append(ring[m], ring[m, 0])
    starts = np.arange(0, 4 * n, o)
    rim_edges = np.column_stack([rim[starts], rim[starts + o]] + ([rim[starts + 1]] if o == 2 else []))
    groups = {
        "DISC": CellBlock(element, cells_nodes),
        "RIM": CellBlock("seg3" if o == 2 else "seg2", rim_edges),
        "CENTRE": CellBlock("point", np.array([[square[n // 2, n // 2]]])),
        "BOTTOM": CellBlock("point", np.array([[ring[m, n // 2]]])),
        "TOP": CellBlock("point", np.array([[ring[m, 2 * n + n // 2]]])),
    }
    return Mesh(points, groups, f"{source[:-1]}, {element!r}, refine={refine})")
