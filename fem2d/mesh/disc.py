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
The grid is graded toward that point: half of the cells of each direction
are uniform over the ``focus`` region (:math:`|x| \lesssim` focus R across,
:math:`y \le` focus R in depth, where a contact strip of half-width up to
about focus R / 2 is resolved evenly), the other half grow geometrically
away from it with no jump in size (:func:`_graded`); refining (more cells,
same law) refines a fixed family of meshes. Quadratic cells take their mid-side nodes from the map, so they lie
on the circle exactly. The two cells at :math:`\xi = \pm 1, \eta = -1` have an
angle of 180 degrees at the corner node; they are far from the contact.
"""

from __future__ import annotations

import numpy as np

from fem2d.errors import MeshError
from fem2d.mesh.limits import check_cells, check_length
from fem2d.mesh.mesh import CellBlock, Mesh


def _graded(n: int, focus: float) -> np.ndarray:
    r"""n + 1 increasing values on [0, 1]: half the cells uniform on [0, ``focus``],
    the other half growing geometrically to 1, the cell size continuous at ``focus``.

    The growth :math:`t \mapsto (e^{\beta t} - 1)/(e^\beta - 1)` of the outer half
    has the slope that continues the inner spacing (found by ``brentq``).

    >>> v = _graded(8, 0.2)
    >>> v[:5].round(3).tolist(), float(v[-1])
    ([0.0, 0.05, 0.1, 0.15, 0.2], 1.0)
    """
    from scipy.optimize import brentq

    inner = n // 2 if n > 1 else 1
    outer = n - inner
    uniform = np.linspace(0.0, focus, inner + 1)
    if outer == 0:
        return uniform / focus
    # spacing h = focus / inner continued: g'(0) = h * outer / (1 - focus)
    slope = focus / inner * outer / (1.0 - focus)
    if abs(slope - 1.0) < 1e-12:
        growth = np.linspace(0.0, 1.0, outer + 1)
    else:
        beta = brentq(lambda b: (b / np.expm1(b) if b != 0 else 1.0) - slope, -50.0, 50.0)
        t = np.linspace(0.0, 1.0, outer + 1)
        growth = np.expm1(beta * t) / np.expm1(beta)
    return np.concatenate([uniform, focus + (1.0 - focus) * growth[1:]])


def half_disc(
    element: str = "quad4",
    refine: int = 0,
    radius: float = 1.0,
    cells: int = 8,
    radial_cells: int = 8,
    focus: float = 0.1,
) -> Mesh:
    """A half disc of ``radius`` touching y = 0 at the origin, flat side up.

    ``cells`` cells across each half of the width, ``radial_cells`` from the
    arc to the diameter (each times ``2**refine``), graded toward the contact
    point: half of them uniform within ``focus`` R of it (across and in depth),
    the others growing geometrically away from it (see the module docstring).
    Groups: ``DISC`` (cells), ``TOP`` (the flat side, y = R), ``ARC`` (the
    curved side), ``CONTACT`` (the part of the arc within 45 degrees of the
    contact point), nodes ``AXIS`` (on x = 0 above the contact point, which is
    left to the contact: a symmetry support there would give its slave node no
    tangential freedom), ``BOTTOM``
    (the contact point) and ``CENTER`` (the middle of the flat side).

    >>> mesh = half_disc(radius=2.0, cells=2, radial_cells=2)
    >>> mesh.points[mesh.group("BOTTOM").nodes[0, 0]].tolist(), len(mesh.group("DISC").nodes)
    ([0.0, 0.0], 8)
    >>> r = np.linalg.norm(mesh.points[np.unique(mesh.group("ARC").nodes)] - [0.0, 2.0], axis=1)
    >>> bool(np.allclose(r, 2.0))
    True
    """
    source = f"half_disc(radius={radius}, cells={cells}, radial_cells={radial_cells}, focus={focus})"
    if element not in ("quad4", "quad8"):
        raise MeshError(f"{source}: element must be 'quad4' or 'quad8', got {element!r}")
    check_length("half_disc", "radius", radius)
    for name, value in (("cells", cells), ("radial_cells", radial_cells)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise MeshError(f"half_disc: {name} must be an integer >= 1, got {value!r}")
    if isinstance(focus, bool) or not (isinstance(focus, float | int) and 1e-6 <= focus < 0.5):
        # (below 1e-6 the grading's growth rate has no solution in double precision)
        raise MeshError(f"half_disc: focus must be a fraction of the radius in [1e-6, 0.5), got {focus!r}")
    if isinstance(refine, bool) or not isinstance(refine, int) or not 0 <= refine <= 8:
        raise MeshError(f"half_disc: refine must be an integer in 0..8, got {refine!r}")
    nx, ny = 2 * cells * 2**refine, radial_cells * 2**refine
    check_cells("half_disc", "cells and radial_cells (with refine)", nx * ny)
    order = 2 if element == "quad8" else 1
    # parameters of the grid's nodes (quad8: the mid-side nodes from the map at the parameter midpoints)
    # parameters: xi = +-sqrt(2) x / R near the contact point, eta + 1 = y / R on the axis
    half = _graded(nx // 2, min(np.sqrt(2.0) * focus, 0.9))
    s = np.concatenate([-half[::-1], half[1:]])
    t = -1.0 + _graded(ny, focus)
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
        "AXIS": CellBlock("point", ids[middle_i, 1:][:, None]),
        "BOTTOM": CellBlock("point", np.array([[ids[middle_i, 0]]])),
        "CENTER": CellBlock("point", np.array([[ids[middle_i, last_j]]])),
    }
    return Mesh(points, groups, f"{source[:-1]}, {element!r}, refine={refine})")


def quarter_disc(
    element: str = "quad4",
    refine: int = 0,
    radius: float = 1.0,
    cells: int = 8,
    radial_cells: int = 8,
    focus: float = 0.1,
) -> Mesh:
    """The half x >= 0 of :func:`half_disc`: with x the radius r and y the axis, the
    meridian of a solid hemisphere (a ball cut at its equator) of ``radius`` touching
    y = 0 at the origin, for axisymmetric bodies.

    The same grid as :func:`half_disc` (``cells`` across the half width). Groups:
    ``DISC`` (cells), ``TOP`` (the equator's radius, y = R), ``ARC`` (the curved side),
    ``CONTACT`` (the arc within 45 degrees of the contact point), nodes ``AXIS`` (on
    x = 0, the contact point included), ``BOTTOM`` (the contact point) and ``CENTER``
    (the ball's centre, on the axis).

    >>> mesh = quarter_disc(radius=2.0, cells=2, radial_cells=2)
    >>> len(mesh.group("DISC").nodes), bool(mesh.points[:, 0].min() == 0.0)
    (4, True)
    >>> sorted(mesh.points[mesh.group("AXIS").nodes.ravel(), 1].round(6).tolist())
    [0.0, 0.2, 2.0]
    """
    full = half_disc(element, refine, radius, cells, radial_cells, focus)
    x = full.points[:, 0]
    right = x >= 0.0
    cells_nodes = full.group("DISC").nodes
    cells_nodes = cells_nodes[right[cells_nodes].all(axis=1)]
    used = np.unique(cells_nodes)
    new = np.full(len(full.points), -1, dtype=np.int64)
    new[used] = np.arange(len(used))

    def kept(name: str) -> CellBlock:
        block = full.group(name)
        nodes = block.nodes[(new[block.nodes] >= 0).all(axis=1)]
        return CellBlock(block.kind, new[nodes])

    axis = used[x[used] == 0.0]
    groups = {
        "DISC": CellBlock(element, new[cells_nodes]),
        "TOP": kept("TOP"),
        "ARC": kept("ARC"),
        "CONTACT": kept("CONTACT"),
        "AXIS": CellBlock("point", new[axis][:, None]),
        "BOTTOM": kept("BOTTOM"),
        "CENTER": kept("CENTER"),
    }
    source = full.source.replace("half_disc(", "quarter_disc(", 1)
    return Mesh(full.points[used], groups, source)
