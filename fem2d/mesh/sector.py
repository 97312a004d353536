r"""Meridian sections of spheres: a sector of an annulus and a quarter disc.

Both are structured grids of a parameter rectangle mapped exactly onto the
section, so that the nodes of quadratic cells (their mid-side nodes too) lie
on the circles. In an axisymmetric case (``model.hypothesis = "axisymmetric"``,
x the radius r, y the axis z) they are the meridian sections of a thick-walled
sphere (:func:`annulus_sector` with its default 90 degrees: the upper half of
the sphere, held by a symmetry support on the equator) and of a solid sphere
(:func:`quarter_disc`).

* :func:`annulus_sector`: the polar grid :math:`x = \rho\cos\theta`,
  :math:`y = \rho\sin\theta`, :math:`a \le \rho \le b`,
  :math:`0 \le \theta \le` ``angle``, uniform in :math:`\rho` and :math:`\theta`.
* :func:`quarter_disc`: the elliptical square-to-disc map (Fong 2015) of
  :math:`(\xi, \eta) \in [0, 1]^2`, :math:`x = R\,\xi\sqrt{1 - \eta^2/2}`,
  :math:`y = R\,\eta\sqrt{1 - \xi^2/2}`, uniform in :math:`\xi` and
  :math:`\eta`: the edges :math:`\xi = 1` and :math:`\eta = 1` both go onto the
  arc, which the cell at their common corner (45 degrees) spans with an angle of
  180 degrees; no cell is collapsed at the centre.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from fem2d.errors import MeshError
from fem2d.mesh.limits import check_cells, check_length
from fem2d.mesh.mesh import CellBlock, Mesh

SECTOR_ELEMENTS = ("quad4", "quad8")


def _check(source: str, element: str, refine: int, counts: dict[str, int], lengths: dict[str, float]) -> None:
    name = source.split("(")[0]
    if element not in SECTOR_ELEMENTS:
        raise MeshError(f"{source}: element must be 'quad4' or 'quad8', got {element!r}")
    if isinstance(refine, bool) or not isinstance(refine, int) or not 0 <= refine <= 8:
        raise MeshError(f"{name}: refine must be an integer in 0..8, got {refine!r}")
    for key, value in counts.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise MeshError(f"{name}: {key} must be an integer >= 1, got {value!r}")
    for key, value in lengths.items():
        if key == "angle":
            if isinstance(value, bool) or not (isinstance(value, float | int) and np.isfinite(value) and value > 0):
                raise MeshError(f"{name}: {key} must be a positive number, got {value!r}")
        else:
            check_length(name, key, value)


class _Grid:
    """Nodes and QUAD4/QUAD8 cells of an (ns x nt)-cell grid of the parameters ``s``, ``t``
    (cell corners, increasing) mapped by ``xy(s, t)``; node ids by grid index (i along s)."""

    def __init__(self, s: np.ndarray, t: np.ndarray, element: str, xy: Callable) -> None:
        self.order = o = 2 if element == "quad8" else 1
        if o == 2:
            s = np.sort(np.concatenate([s, 0.5 * (s[1:] + s[:-1])]))
            t = np.sort(np.concatenate([t, 0.5 * (t[1:] + t[:-1])]))
        S, T = np.meshgrid(s, t, indexing="ij")
        keep = np.ones(S.shape, dtype=bool)
        if o == 2:  # a QUAD8 grid has no node at the cell centres
            keep = ~((np.arange(len(s)) % 2 == 1)[:, None] & (np.arange(len(t)) % 2 == 1)[None, :])
        self.ids = np.full(S.shape, -1, dtype=np.int64)
        self.ids[keep] = np.arange(int(keep.sum()))
        x, y = xy(S[keep], T[keep])
        self.points = np.column_stack([x, y])
        ns, nt = (len(s) - 1) // o, (len(t) - 1) // o
        i, j = np.meshgrid(np.arange(ns) * o, np.arange(nt) * o, indexing="ij")
        i, j, ids = i.ravel(), j.ravel(), self.ids
        corners = [ids[i, j], ids[i + o, j], ids[i + o, j + o], ids[i, j + o]]  # counter-clockwise in (s, t)
        if o == 2:
            corners += [ids[i + 1, j], ids[i + 2, j + 1], ids[i + 1, j + 2], ids[i, j + 1]]
        self.cells = CellBlock(element, np.column_stack(corners))

    def edges(self, line: np.ndarray) -> CellBlock:
        """Segments along a chain of grid node ids (every ``order``-th a vertex)."""
        starts = np.arange(0, len(line) - 1, self.order)
        if self.order == 2:
            return CellBlock("seg3", np.column_stack([line[starts], line[starts + 2], line[starts + 1]]))
        return CellBlock("seg2", np.column_stack([line[starts], line[starts + 1]]))

    @staticmethod
    def point(node: int) -> CellBlock:
        return CellBlock("point", np.array([[node]]))


def annulus_sector(
    element: str = "quad4",
    refine: int = 0,
    inner_radius: float = 1.0,
    outer_radius: float = 2.0,
    radial_cells: int = 4,
    arc_cells: int = 8,
    angle: float = 90.0,
) -> Mesh:
    """The sector ``inner_radius <= rho <= outer_radius``, ``0 <= theta <= angle``
    (degrees, from the x axis) of an annulus centred at the origin.

    ``radial_cells`` cells across the wall and ``arc_cells`` along the arcs
    (each times ``2**refine``), uniform. Groups: ``BODY`` (cells), ``INNER`` and
    ``OUTER`` (the arcs), ``START`` (the straight edge on y = 0) and ``END`` (the
    one at ``angle``; on the axis x = 0 at 90 degrees) (edges); the nodes
    ``INNER_START``, ``OUTER_START``, ``INNER_END``, ``OUTER_END`` at the corners.
    Axisymmetric, at 90 degrees: the meridian section of the upper half of a
    thick-walled sphere, ``START`` its equator (a symmetry support of ``dy``),
    ``INNER_START`` and ``OUTER_START`` where ``dx`` is the radial displacement.

    >>> mesh = annulus_sector(inner_radius=0.1, outer_radius=0.2, radial_cells=2, arc_cells=3)
    >>> len(mesh.group("BODY").nodes), mesh.points[mesh.group("OUTER_END").nodes[0, 0]].tolist()
    (6, [0.0, 0.2])
    """
    source = (f"annulus_sector(inner_radius={inner_radius}, outer_radius={outer_radius}, "
              f"radial_cells={radial_cells}, arc_cells={arc_cells}, angle={angle})")
    _check(source, element, refine, {"radial_cells": radial_cells, "arc_cells": arc_cells},
           {"inner_radius": inner_radius, "outer_radius": outer_radius, "angle": angle})
    if not inner_radius < outer_radius:
        raise MeshError(f"annulus_sector: inner_radius = {inner_radius} must be below outer_radius = {outer_radius}")
    if not angle <= 180.0:
        raise MeshError(f"annulus_sector: angle must be in (0, 180] degrees, got {angle!r}")
    check_cells("annulus_sector", "radial_cells and arc_cells (with refine)", radial_cells * arc_cells * 4**refine)
    a, b, span = float(inner_radius), float(outer_radius), np.radians(float(angle))

    def xy(rho, theta):
        x, y = rho * np.cos(theta), rho * np.sin(theta)
        x[np.isclose(theta, np.pi / 2, rtol=0.0, atol=1e-15)] = 0.0  # on the axis exactly
        y[theta == 0.0] = 0.0
        return x, y

    n = 2**refine
    grid = _Grid(np.linspace(a, b, radial_cells * n + 1), np.linspace(0.0, span, arc_cells * n + 1), element, xy)
    ids = grid.ids
    groups = {
        "BODY": grid.cells,
        "INNER": grid.edges(ids[0, ::-1]),
        "OUTER": grid.edges(ids[-1, :]),
        "START": grid.edges(ids[:, 0]),
        "END": grid.edges(ids[::-1, -1]),
        "INNER_START": grid.point(ids[0, 0]),
        "OUTER_START": grid.point(ids[-1, 0]),
        "INNER_END": grid.point(ids[0, -1]),
        "OUTER_END": grid.point(ids[-1, -1]),
    }
    return Mesh(grid.points, groups, f"{source[:-1]}, {element!r}, refine={refine})")


def quarter_disc(element: str = "quad4", refine: int = 0, radius: float = 1.0, cells: int = 4) -> Mesh:
    """The quarter disc ``x, y >= 0``, ``x^2 + y^2 <= radius^2``, by the elliptical
    square-to-disc map (see the module docstring): ``cells`` x ``cells`` cells
    (each times ``2**refine``).

    Groups: ``BODY`` (cells), ``ARC`` (the curved side), ``BOTTOM`` (on y = 0),
    ``LEFT`` (on x = 0) (edges); the nodes ``CENTER`` (the origin), ``EAST``
    (radius, 0) and ``NORTH`` (0, radius). Axisymmetric: the meridian section of
    the upper half of a solid sphere, ``BOTTOM`` its equator, ``LEFT`` on the axis.

    >>> mesh = quarter_disc(radius=2.0, cells=2)
    >>> r = np.linalg.norm(mesh.points[np.unique(mesh.group("ARC").nodes)], axis=1)
    >>> len(mesh.group("BODY").nodes), bool(np.allclose(r, 2.0))
    (4, True)
    """
    source = f"quarter_disc(radius={radius}, cells={cells})"
    _check(source, element, refine, {"cells": cells}, {"radius": radius})
    check_cells("quarter_disc", "cells (with refine)", cells**2 * 4**refine)
    R = float(radius)

    def xy(xi, eta):
        return R * xi * np.sqrt(1.0 - eta**2 / 2.0), R * eta * np.sqrt(1.0 - xi**2 / 2.0)

    u = np.linspace(0.0, 1.0, cells * 2**refine + 1)
    grid = _Grid(u, u, element, xy)
    ids = grid.ids
    arc = np.concatenate([ids[-1, :], ids[-2::-1, -1]])  # up the side xi = 1, then back along eta = 1
    groups = {
        "BODY": grid.cells,
        "ARC": grid.edges(arc),
        "BOTTOM": grid.edges(ids[:, 0]),
        "LEFT": grid.edges(ids[0, ::-1]),
        "CENTER": grid.point(ids[0, 0]),
        "EAST": grid.point(ids[-1, 0]),
        "NORTH": grid.point(ids[0, -1]),
    }
    return Mesh(grid.points, groups, f"{source[:-1]}, {element!r}, refine={refine})")
