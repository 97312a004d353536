r"""A half disc resting on its curved side: the body of a Hertz line contact.

The mesh is a structured grid of the parameter rectangle
:math:`(\xi, \eta) \in [-1, 1] \times [-1, 0]` mapped onto the lower half of
the disc of radius :math:`R` centred at :math:`(0, R)` by the elliptical
square-to-disc map (Fong 2015),

.. math::

    x = R\, \xi \sqrt{1 - \eta^2/2}, \qquad
    y = R + R\, \eta \sqrt{1 - \xi^2/2},

which takes the edge :math:`\eta = 0` to the flat diameter and the three
other edges onto the circle, with the contact point :math:`(0, 0)` the image
of :math:`(0, -1)`, where the map is smooth and the cells are nearly square.
The grid is graded toward that point by the power law
:math:`\xi = \operatorname{sign}(s)|s|^g`, :math:`\eta = -1 + t^g` on uniform
:math:`s, t`, so that refining (more cells, same law) refines a fixed family of
meshes. Quadratic cells take their mid-side nodes from the map, so they lie
on the circle exactly. The two cells at :math:`\xi = \pm 1, \eta = -1` have an
angle of 180 degrees at the corner node; they are far from the contact.
"""

from __future__ import annotations

import numpy as np

from fem2d.errors import MeshError
from fem2d.mesh.mesh import CellBlock, Mesh


def _graded(n: int, grading: float, symmetric: bool) -> np.ndarray:
    """Parameter values of n cells (2n + 1 nodes on [-1, 1] when ``symmetric``,
    n + 1 on [-1, 0] otherwise), finest at 0 (symmetric) or at -1."""
    if symmetric:
        s = np.linspace(-1.0, 1.0, n + 1)
        return np.sign(s) * np.abs(s) ** grading
    t = np.linspace(0.0, 1.0, n + 1)
    return -1.0 + t**grading


def half_disc(
    element: str = "quad4",
    refine: int = 0,
    radius: float = 1.0,
    cells: int = 8,
    radial_cells: int = 8,
    grading: float = 2.0,
) -> Mesh:
    """A half disc of ``radius`` touching y = 0 at the origin, flat side up.

    ``cells`` cells across each half of the width, ``radial_cells`` from the
    arc to the diameter (each times ``2**refine``), graded toward the contact
    point by the exponent ``grading`` (1: uniform in the map's parameters; see
    the module docstring). Groups: ``DISC`` (cells), ``TOP`` (the flat side,
    y = R), ``ARC`` (the curved side), ``CONTACT`` (the part of the arc within
    45 degrees of the contact point), nodes ``AXIS`` (on x = 0), ``BOTTOM``
    (the contact point) and ``CENTER`` (the middle of the flat side).

    >>> mesh = half_disc(radius=2.0, cells=2, radial_cells=2)
    >>> mesh.points[mesh.group("BOTTOM").nodes[0, 0]].tolist(), len(mesh.group("DISC").nodes)
    ([0.0, 0.0], 8)
    >>> r = np.linalg.norm(mesh.points[np.unique(mesh.group("ARC").nodes)] - [0.0, 2.0], axis=1)
    >>> bool(np.allclose(r, 2.0))
    True
    """
    source = f"half_disc(radius={radius}, cells={cells}, radial_cells={radial_cells}, grading={grading})"
    if element not in ("quad4", "quad8"):
        raise MeshError(f"{source}: element must be 'quad4' or 'quad8', got {element!r}")
    if not (isinstance(radius, float | int) and np.isfinite(radius) and radius > 0):
        raise MeshError(f"half_disc: radius must be a length > 0, got {radius!r}")
    for name, value in (("cells", cells), ("radial_cells", radial_cells)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise MeshError(f"half_disc: {name} must be an integer >= 1, got {value!r}")
    if not (isinstance(grading, float | int) and 1.0 <= grading <= 4.0):
        raise MeshError(f"half_disc: grading must be a number in [1, 4], got {grading!r}")
    if isinstance(refine, bool) or not isinstance(refine, int) or not 0 <= refine <= 8:
        raise MeshError(f"half_disc: refine must be an integer in 0..8, got {refine!r}")
    nx, ny = 2 * cells * 2**refine, radial_cells * 2**refine
    order = 2 if element == "quad8" else 1
    # parameters of the grid's nodes (quad8: the mid-side nodes from the map at the parameter midpoints)
    s = _graded(nx, grading, True)
    t = _graded(ny, grading, False)
    if order == 2:
        s = np.sort(np.concatenate([s, 0.5 * (s[1:] + s[:-1])]))
        t = np.sort(np.concatenate([t, 0.5 * (t[1:] + t[:-1])]))
    xi, eta = np.meshgrid(s, t, indexing="ij")  # (i along xi, j along eta)
    keep = ~((np.arange(len(s)) % 2 == 1)[:, None] & (np.arange(len(t)) % 2 == 1)[None, :]) if order == 2 else None
    x = radius * xi * np.sqrt(1.0 - eta**2 / 2.0)
    y = radius + radius * eta * np.sqrt(1.0 - xi**2 / 2.0)
    x[np.isclose(xi, 0.0, atol=0.0)] = 0.0
    y[np.isclose(eta, -1.0, atol=0.0) & np.isclose(xi, 0.0, atol=0.0)] = 0.0
    ids = np.full(xi.shape, -1, dtype=np.int64)
    mask = np.ones(xi.shape, dtype=bool) if keep is None else keep
    ids[mask] = np.arange(int(mask.sum()))
    points = np.column_stack([x[mask], y[mask]])
    o = order
    i, j = np.meshgrid(np.arange(nx) * o, np.arange(ny) * o, indexing="ij")
    i, j = i.ravel(), j.ravel()
    # counter-clockwise in (xi, eta), which the map keeps: the map's Jacobian is positive inside
    corners = [ids[i, j], ids[i + o, j], ids[i + o, j + o], ids[i, j + o]]
    if order == 2:
        mids = [ids[i + 1, j], ids[i + 2, j + 1], ids[i + 1, j + 2], ids[i, j + 1]]
        cells_nodes = np.column_stack(corners + mids)
    else:
        cells_nodes = np.column_stack(corners)

    def edges(line: np.ndarray) -> CellBlock:
        """Segments along a chain of grid nodes (every o-th a vertex)."""
        starts = np.arange(0, len(line) - 1, o)
        if order == 2:
            return CellBlock("seg3", np.column_stack([line[starts], line[starts + 2], line[starts + 1]]))
        return CellBlock("seg2", np.column_stack([line[starts], line[starts + 1]]))

    last_i, last_j = len(s) - 1, len(t) - 1
    # the arc, body on the left going counter-clockwise: up the left side is clockwise, so walk
    # from the flat side's left end down, along the bottom, and up the right side reversed
    left = ids[0, ::-1]
    bottom = ids[:, 0]
    right = ids[last_i, :]
    arc = np.concatenate([left, bottom[1:], right[1:]])
    top = ids[::-1, last_j]
    middle_i = last_i // 2
    groups = {
        "DISC": CellBlock(element, cells_nodes),
        "TOP": edges(top),
        "ARC": edges(arc),
        "CONTACT": edges(bottom),
        "AXIS": CellBlock("point", ids[middle_i, :][:, None]),
        "BOTTOM": CellBlock("point", np.array([[ids[middle_i, 0]]])),
        "CENTER": CellBlock("point", np.array([[ids[middle_i, last_j]]])),
    }
    return Mesh(points, groups, f"{source[:-1]}, {element!r}, refine={refine})")
