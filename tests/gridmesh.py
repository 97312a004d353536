"""Structured QUAD4 rectangles composed into one mesh with named groups, for
tests that need several bodies (written to a .msh file a case can read)."""

from __future__ import annotations

import numpy as np

from fem2d.mesh.io import write_mesh
from fem2d.mesh.mesh import CellBlock, Mesh


def compose(rectangles: dict[str, tuple[float, float, float, float, int, int]]) -> Mesh:
    """One mesh of the named rectangles ``name: (x0, y0, x1, y1, nx, ny)``;
    groups NAME (cells), NAME_BOTTOM, NAME_RIGHT, NAME_TOP, NAME_LEFT (edges,
    counter-clockwise around the body) and NAME_SW (the lower-left node)."""
    points, groups = [], {}
    offset = 0
    for name, (x0, y0, x1, y1, nx, ny) in rectangles.items():
        x, y = np.meshgrid(np.linspace(x0, x1, nx + 1), np.linspace(y0, y1, ny + 1))
        points.append(np.column_stack([x.ravel(), y.ravel()]))
        ids = offset + np.arange((nx + 1) * (ny + 1)).reshape(ny + 1, nx + 1)
        corners = (ids[:-1, :-1], ids[:-1, 1:], ids[1:, 1:], ids[1:, :-1])
        cells = np.column_stack([c.ravel() for c in corners])
        groups[name] = CellBlock("quad4", cells)
        bottom, right, top, left = ids[0, :], ids[:, -1], ids[-1, ::-1], ids[::-1, 0]
        for side, chain in zip(("BOTTOM", "RIGHT", "TOP", "LEFT"), (bottom, right, top, left)):
            groups[f"{name}_{side}"] = CellBlock("seg2", np.column_stack([chain[:-1], chain[1:]]))
        groups[f"{name}_SW"] = CellBlock("point", [[ids[0, 0]]])
        offset += (nx + 1) * (ny + 1)
    return Mesh(np.vstack(points), groups, "gridmesh")


def write(path, rectangles) -> str:
    """Compose and write as Gmsh 2.2; returns the path as a string."""
    write_mesh(compose(rectangles), path)
    return str(path)
