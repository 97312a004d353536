"""Counter-clockwise cells: the orientation every element of fem2d assumes.

A mesh written by hand, by a script or by Gmsh from a surface whose normal
points along -z lists its cells clockwise: their Jacobians are negative and
every integral changes sign. Reading a mesh turns such cells around
(:func:`counter_clockwise`), as Gmsh's ``Mesh.reverse`` does; a cell whose
corners are crossed or collinear stays as it is, for the element layer to
refuse (:func:`fem2d.fe.geometry.check_jacobians`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from fem2d.mesh.mesh import CellBlock, Mesh

#: The node permutation of each 2D cell kind that reverses its orientation and keeps the
#: ordering convention of :mod:`fem2d.mesh.mesh` (corners, then the mid-side nodes of
#: the edges in order, then the centre): the corners 0, n-1, ..., 1, and the mid-side
#: node of edge (i, i+1) is that of the reversed edge (i+1, i).
REVERSED: dict[str, tuple[int, ...]] = {
    "tri3": (0, 2, 1),
    "tri6": (0, 2, 1, 5, 4, 3),
    "quad4": (0, 3, 2, 1),
    "quad8": (0, 3, 2, 1, 7, 6, 5, 4),
    "quad9": (0, 3, 2, 1, 7, 6, 5, 4, 8),
}


def signed_areas(points: np.ndarray, block: CellBlock) -> np.ndarray:
    r"""Signed area of the corner polygon of every cell (shoelace formula), m^2:
    positive when the corners run counter-clockwise.

    .. math:: A = \frac12 \sum_i (x_i y_{i+1} - x_{i+1} y_i)

    >>> xy = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> signed_areas(xy, CellBlock("quad4", np.array([[0, 1, 2, 3], [0, 3, 2, 1]])))
    array([ 1., -1.])
    """
    x = points[block.corners]
    x_next = np.roll(x, -1, axis=1)
    return 0.5 * np.sum(x[:, :, 0] * x_next[:, :, 1] - x_next[:, :, 0] * x[:, :, 1], axis=1)


def counter_clockwise(mesh: Mesh) -> tuple[Mesh, dict[str, int]]:
    """The mesh with every clockwise 2D cell renumbered counter-clockwise
    (:data:`REVERSED`), and how many cells of each group were turned.

    >>> xy = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> turned, count = counter_clockwise(Mesh(xy, {"BODY": CellBlock("quad4", np.array([[0, 3, 2, 1]]))}))
    >>> turned.group("BODY").nodes.tolist(), count
    ([[0, 1, 2, 3]], {'BODY': 1})
    """
    groups, count = dict(mesh.groups), {}
    for name, block in mesh.groups.items():
        if block.kind not in REVERSED or not len(block):
            continue
        clockwise = signed_areas(mesh.points, block) < 0.0
        if clockwise.any():
            nodes = block.nodes.copy()
            nodes[clockwise] = nodes[clockwise][:, list(REVERSED[block.kind])]
            groups[name] = CellBlock(block.kind, nodes)
            count[name] = int(clockwise.sum())
    if not count:
        return mesh, count
    return replace(mesh, groups=groups), count
