"""Uniform refinement of a mesh read from a file (``mesh.refine`` on ``mesh.file``).

Every 2D cell splits into four children of its own kind, each level halving h:
a quadrangle (QUAD4, QUAD8, QUAD9) at its edge midpoints and centre, a
triangle (TRI3, TRI6) at its edge midpoints (three corner triangles and the
middle one). The children are the images of the reference element's four
halves,

.. math::

    \\xi \\mapsto \\tfrac12 \\xi + b_k \\quad (\\text{quadrangles}, b_k = (\\pm\\tfrac12, \\pm\\tfrac12)), \\qquad
    \\xi \\mapsto \\pm\\tfrac12 \\xi + b_k \\quad (\\text{triangles}),

and every new node is placed by the parent's own isoparametric map
:math:`x(\\xi) = \\sum_j N_j(\\xi)\\, x_j`: the mid-edge nodes of quadratic
cells land on the curved edge (at its quarter points), not on the chord, so a
refined curved boundary is the same curve. Children keep the parent's
counter-clockwise order; nodes shared by neighbours are merged by topology
(the edge and the position along it), never by coordinates.

Groups are kept: cells of a 2D group are replaced by their children, an edge
group lying on the cells' edges by its two halves (SEG2 at the midpoint, SEG3
at its middle node with new quarter-point middles), node groups and discrete
elements (SEG2 cells that are no cell's edge: springs) unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from fem2d.errors import MeshError
from fem2d.fe.elements import reference_element
from fem2d.mesh.mesh import CORNERS_PER_CELL, CellBlock, Mesh

#: Edge positions are kept in quarters of the edge, counted from its lower node id.
_QUARTERS = 4

#: The affine maps ``xi -> scale * xi + shift`` of the four children of each reference shape.
_CHILD_MAPS = {
    "quad": [(0.5, (-0.5, -0.5)), (0.5, (0.5, -0.5)), (0.5, (0.5, 0.5)), (0.5, (-0.5, 0.5))],
    "tri": [(0.5, (0.0, 0.0)), (0.5, (0.5, 0.0)), (0.5, (0.0, 0.5)), (-0.5, (0.5, 0.5))],
}


@dataclass(frozen=True)
class _Split:
    """How one reference cell splits: the distinct child node positions and where they lie.

    ``points`` (np, 2) reference positions; ``children`` (4, nn) indices into them;
    per point, ``parent_node`` (the parent node it coincides with, or -1),
    ``edge`` (the parent corner edge it lies inside, or -1) and ``quarter``
    (its position along that edge from the edge's first corner, in quarters).
    """

    points: np.ndarray
    children: np.ndarray
    parent_node: np.ndarray
    edge: np.ndarray
    quarter: np.ndarray
    edges: np.ndarray  # (n_edges, 2) corner pairs of the parent


def _corner_edges(kind: str) -> np.ndarray:
    n = CORNERS_PER_CELL[kind]
    return np.array([[i, (i + 1) % n] for i in range(n)])


def _split_of(kind: str) -> _Split:
    element = reference_element(kind)
    nodes = element.nodes
    maps = _CHILD_MAPS["tri" if kind.startswith("tri") else "quad"]
    images = np.vstack([scale * nodes + np.array(shift) for scale, shift in maps])
    points, inverse = np.unique(np.round(images, 12), axis=0, return_inverse=True)
    children = inverse.reshape(4, element.n_nodes)
    match = np.all(np.isclose(points[:, None, :], nodes[None, :, :], atol=1e-12), axis=2)  # (np, nn)
    parent_node = np.where(match.any(axis=1), match.argmax(axis=1), -1)
    edges = _corner_edges(kind)
    edge = np.full(len(points), -1)
    quarter = np.zeros(len(points), dtype=np.int64)
    for e, (a, b) in enumerate(edges):
        pa, pb = nodes[a], nodes[b]
        d = pb - pa
        t = (points - pa) @ d / (d @ d)
        cross = d[0] * (points[:, 1] - pa[1]) - d[1] * (points[:, 0] - pa[0])
        on = (np.abs(cross) < 1e-12) & (t > 1e-12) & (t < 1 - 1e-12)
        edge[on] = e
        quarter[on] = np.round(t[on] * _QUARTERS).astype(np.int64)
    return _Split(points, children, parent_node, edge, quarter, edges)


def split_uniform(mesh: Mesh, levels: int) -> Mesh:
    """``mesh`` refined ``levels`` times by splitting every cell in four.

    >>> square = Mesh(np.array([[0.0, 0], [1, 0], [1, 1], [0, 1]]), {"S": CellBlock("quad4", [[0, 1, 2, 3]]),
    ...               "B": CellBlock("seg2", [[0, 1]])})
    >>> fine = split_uniform(square, 2)
    >>> fine.n_nodes, len(fine.group("S")), len(fine.group("B"))
    (25, 16, 4)

    A TRI6 quarter disc of radius 1 (its arc's middle node on the circle):
    the new middle nodes of the arc's halves lie on the parabola through its
    three nodes, at radius 0.992 (the midpoints of the chords would be at 0.924).

    >>> c = np.sqrt(0.5)
    >>> disc = Mesh(np.array([[0.0, 0], [1, 0], [0, 1], [0.5, 0], [c, c], [0, 0.5]]),
    ...             {"D": CellBlock("tri6", [[0, 1, 2, 3, 4, 5]]), "ARC": CellBlock("seg3", [[1, 2, 4]])})
    >>> fine = split_uniform(disc, 1)
    >>> arc = fine.group("ARC")
    >>> arc.nodes.shape, round(float(np.linalg.norm(fine.points[arc.nodes[:, 2]], axis=1).min()), 3)
    ((2, 3), 0.992)
    """
    for _ in range(levels):
        mesh = _split_once(mesh)
    return mesh


def _split_once(mesh: Mesh) -> Mesh:
    surfaces = {name: b for name, b in mesh.groups.items() if b.dimension == 2}
    if not surfaces:
        raise MeshError(f"{mesh.source}: no 2D cells to refine")
    n = mesh.n_nodes
    # pass 1: every child node of every distinct cell, keyed by topology
    kinds = sorted({b.kind for b in surfaces.values()})
    per_kind = {}
    edge_keys, edge_xy = [], []
    for kind in kinds:
        cells = np.unique(np.vstack([b.nodes for b in surfaces.values() if b.kind == kind]), axis=0)
        cells = cells[np.unique(np.sort(cells[:, : CORNERS_PER_CELL[kind]], axis=1), axis=0, return_index=True)[1]]
        split = _split_of(kind)
        xy = np.einsum("pj,cja->cpa", reference_element(kind).shape(split.points), mesh.points[cells])
        on_edge = np.flatnonzero((split.parent_node < 0) & (split.edge >= 0))
        a = cells[:, split.edges[split.edge[on_edge], 0]]  # (nc, n_on_edge) first corner of the edge
        b = cells[:, split.edges[split.edge[on_edge], 1]]
        q = np.where(a < b, split.quarter[on_edge], _QUARTERS - split.quarter[on_edge])
        edge_keys.append(np.stack([np.minimum(a, b), np.maximum(a, b), q], axis=-1).reshape(-1, 3))
        edge_xy.append(xy[:, on_edge].reshape(-1, 2))
        per_kind[kind] = (cells, split, xy, on_edge)
    keys = np.vstack(edge_keys)
    unique_keys, first, edge_inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    points = [mesh.points, np.vstack(edge_xy)[first]]
    next_id = n + len(unique_keys)
    edge_ids = n + edge_inverse.ravel()
    # pass 2: node ids of each distinct cell's child points (parent nodes, edge nodes, new interior nodes)
    child_ids: dict[str, tuple[np.ndarray, dict[tuple, int]]] = {}
    offset = 0
    for kind in kinds:
        cells, split, xy, on_edge = per_kind[kind]
        ids = np.empty((len(cells), len(split.points)), dtype=np.int64)
        existing = np.flatnonzero(split.parent_node >= 0)
        ids[:, existing] = cells[:, split.parent_node[existing]]
        ids[:, on_edge] = edge_ids[offset : offset + len(cells) * len(on_edge)].reshape(len(cells), -1)
        offset += len(cells) * len(on_edge)
        inside = np.flatnonzero((split.parent_node < 0) & (split.edge < 0))
        ids[:, inside] = next_id + np.arange(len(cells) * len(inside)).reshape(len(cells), -1)
        next_id += len(cells) * len(inside)
        points.append(xy[:, inside].reshape(-1, 2))
        row_of = {tuple(sorted(c)): i for i, c in enumerate(cells[:, : CORNERS_PER_CELL[kind]].tolist())}
        child_ids[kind] = (ids, row_of)
    key_index = {tuple(k): n + i for i, k in enumerate(unique_keys.tolist())}
    corner_pairs = {
        (min(a, b), max(a, b))
        for kind in kinds
        for cells in [per_kind[kind][0]]
        for a, b in np.vstack([cells[:, e] for e in _corner_edges(kind)]).tolist()
    }
    groups: dict[str, CellBlock] = {}
    for name, block in mesh.groups.items():
        if block.dimension == 2:
            ids, row_of = child_ids[block.kind]
            split = per_kind[block.kind][1]
            rows = np.array([row_of[tuple(sorted(c))] for c in block.corners.tolist()], dtype=np.int64)
            children = ids[rows][:, split.children]  # (nc, 4, nn)
            groups[name] = CellBlock(block.kind, children.reshape(-1, block.nodes.shape[1]))
        elif block.dimension == 1:
            groups[name] = _split_edges(mesh, name, block, key_index, corner_pairs)
        else:
            groups[name] = block
    return replace(mesh, points=np.vstack(points), groups=groups, source=f"{mesh.source}, split")


def _split_edges(mesh: Mesh, name: str, block: CellBlock, key_index: dict, corner_pairs: set) -> CellBlock:
    """The two halves of each edge of an edge group, side by side in the group's order."""
    ends = block.nodes[:, :2].tolist()
    on_cells = [(min(a, b), max(a, b)) in corner_pairs for a, b in ends]
    if not any(on_cells):
        if block.kind == "seg2":
            return block  # discrete elements (springs): not split
        raise MeshError(f"{mesh.source}: group {name!r} holds seg3 cells that are no cell's edge")
    if not all(on_cells):
        raise MeshError(f"{mesh.source}: group {name!r} mixes cell edges and other segments")

    def node(a: int, b: int, quarters: int) -> int:
        """The node ``quarters`` quarters of the way from a to b."""
        key = (min(a, b), max(a, b), quarters if a < b else _QUARTERS - quarters)
        try:
            return key_index[key]
        except KeyError:
            raise MeshError(
                f"{mesh.source}: group {name!r} holds {block.kind} edges on cells of another order "
                f"(edge {a}-{b}); its edges must match the cells' (seg2 on tri3/quad4, seg3 on tri6/quad8/quad9)"
            ) from None

    halves = []
    if block.kind == "seg2":
        for a, b in ends:
            m = node(a, b, 2)
            halves += [[a, m], [m, b]]
    else:
        for a, b, m in block.nodes.tolist():
            halves += [[a, m, node(a, b, 1)], [m, b, node(a, b, 3)]]
    return CellBlock(block.kind, np.array(halves))
