"""Outward orientation of boundary edges, found from the adjacent 2D cell
(:func:`adjacent_cells`, :func:`edge_orientation`), and the outward normals
(:func:`outward_normals`). A boundary edge read from a file may list its end
nodes in either order; its outward normal is fixed by the cell it bounds.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fem2d.errors import MeshError
from fem2d.fe.assembly import sorted_unique
from fem2d.fe.geometry import edge_geometry, format_ids
from fem2d.fe.quadrature import QuadratureRule
from fem2d.mesh.mesh import CellBlock, Mesh


def _ccw_corner_edges(points: np.ndarray, block: CellBlock) -> tuple[np.ndarray, np.ndarray]:
    """Directed corner edges (a, b) of every cell, with the body on their left."""
    corners = block.corners
    x = points[corners]
    area2 = np.sum(x[:, :, 0] * np.roll(x[:, :, 1], -1, 1) - np.roll(x[:, :, 0], -1, 1) * x[:, :, 1], axis=1)
    a, b = corners, np.roll(corners, -1, axis=1)
    cw = area2 < 0
    a, b = np.where(cw[:, None], b, a), np.where(cw[:, None], a, b)
    return a.ravel(), b.ravel()


def adjacent_cells(points: np.ndarray, edges: CellBlock, blocks: Sequence[CellBlock]) -> tuple[np.ndarray, np.ndarray]:
    """Per edge, how many cells of ``blocks`` it bounds running counter-clockwise
    around them (``forward``) and clockwise (``backward``).

    A cell's orientation is the sign of its corner (shoelace) area, so clockwise
    cells do not flip the count; a cell listed in two blocks counts once. A
    boundary edge has ``forward + backward == 1``.

    >>> from fem2d.mesh.mesh import CellBlock
    >>> square = CellBlock("quad4", np.array([[0, 1, 2, 3]]))
    >>> xy = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> adjacent_cells(xy, CellBlock("seg2", np.array([[0, 1], [2, 1]])), [square])
    (array([1, 0]), array([0, 1]))
    """
    n = np.int64(max(len(points), int(edges.nodes.max(initial=0)) + 1))
    keys = [a * n + b for a, b in (_ccw_corner_edges(points, blk) for blk in blocks)]
    # unique: a cell listed in two overlapping groups must not look like a second neighbour
    keys = sorted_unique(np.concatenate(keys)) if keys else np.zeros(0, dtype=np.int64)
    a, b = edges.nodes[:, 0].astype(np.int64), edges.nodes[:, 1].astype(np.int64)

    def count(k: np.ndarray) -> np.ndarray:
        return np.searchsorted(keys, k, side="right") - np.searchsorted(keys, k, side="left")

    return count(a * n + b), count(b * n + a)


def edge_orientation(mesh: Mesh, edge_group: str, cell_groups: Sequence[str] | None = None) -> np.ndarray:
    """Sign ``s`` per edge such that ``n = s (t_y, -t_x)/|t|`` points out of the body.

    Parameters
    ----------
    mesh : Mesh
    edge_group : str
        A group of SEG2 or SEG3 edges.
    cell_groups : sequence of str, optional
        The 2D groups in which to look for the adjacent cell; default all 2D
        groups of the mesh.

    Returns
    -------
    ndarray of float, shape (n_edges,)
        +1 where the edge's node order runs counter-clockwise around its
        adjacent cell, -1 where it runs clockwise.

    Raises
    ------
    MeshError
        If an edge has no adjacent cell (naming the edge ids and their end
        nodes), or a cell on each side (an interior edge: its outward side is
        ambiguous; restrict ``cell_groups`` to the body it bounds).
    """
    edges = mesh.group(edge_group)
    if edges.dimension != 1:
        raise MeshError(f"{mesh.source}: group {edge_group!r} holds {edges.kind} cells; expected edges (seg2/seg3)")
    names = list(mesh.cells_of_dimension(2)) if cell_groups is None else list(cell_groups)
    named = [(name, block) for name in names for block in mesh.blocks(name)]
    blocks = [block for _, block in named]
    for name, block in named:
        if block.dimension != 2:
            raise MeshError(f"{mesh.source}: group {name!r} holds {block.kind} cells; expected 2D cells")
    forward, backward = adjacent_cells(mesh.points, edges, blocks)
    a, b = edges.nodes[:, 0], edges.nodes[:, 1]
    where = f"{mesh.source}: group {edge_group!r}"
    orphan = np.flatnonzero(forward + backward == 0)
    if len(orphan):
        pairs = ", ".join(f"{int(i)} (nodes {int(a[i])}-{int(b[i])})" for i in orphan[:5])
        raise MeshError(
            f"{where}: {len(orphan)} edge(s) bound no cell of {', '.join(names) or 'the mesh (no 2D groups)'}, "
            f"so their outward normal is undefined: edge ids {format_ids(orphan)}; e.g. {pairs}"
        )
    interior = np.flatnonzero((forward > 0) & (backward > 0))
    if len(interior):
        raise MeshError(
            f"{where}: {len(interior)} edge(s) are shared by two cells (interior edges have no outward "
            f"normal; restrict cell_groups to the body they bound): edge ids {format_ids(interior)}"
        )
    return np.where(forward == 1, 1.0, -1.0)


def outward_normals(
    points: np.ndarray, block: CellBlock, orientation: np.ndarray, rule: QuadratureRule | None = None
) -> np.ndarray:
    r"""Outward unit normals of edges at the points of a rule.

    Walking around a counter-clockwise cell the body lies on the left, so for
    an edge traversed that way with tangent :math:`t = dx/d\xi` the outward
    unit normal is :math:`(t_y, -t_x)/|t|`; with the sign :math:`s` of
    :func:`edge_orientation` (+1 when the edge's node order runs
    counter-clockwise around its cell) it is, for every edge,

    .. math::

        n = s\, (t_y, -t_x) / |t| .

    >>> from fem2d.mesh.mesh import CellBlock
    >>> bottom = CellBlock("seg2", np.array([[0, 1]]))
    >>> outward_normals(np.array([[0.0, 0.0], [2.0, 0.0]]), bottom, np.array([1.0]))[0, 0]
    array([ 0., -1.])

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
    block : CellBlock
        SEG2/SEG3 edges.
    orientation : ndarray, shape (n_edges,)
        Signs from :func:`edge_orientation`.
    rule : QuadratureRule, optional
        Default Gauss rule of the edge kind; use
        :func:`~fem2d.fe.quadrature.nodal_rule` for normals at the nodes.

    Returns
    -------
    ndarray, shape (n_edges, nq, 2)
    """
    geo = edge_geometry(points, block, rule)
    t = geo.tangent / geo.jacobian[..., None]
    s = np.asarray(orientation, dtype=float)[:, None]
    return np.stack([s * t[..., 1], -s * t[..., 0]], axis=-1)
