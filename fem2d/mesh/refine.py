"""Uniform refinement of a mesh read from a file (``mesh.refine`` on ``mesh.file``).

Each QUAD4 cell splits into four at its edge midpoints and centre, counter-
clockwise order kept; each level halves h. Groups are kept: cells of a 2D group
are replaced by their children, an edge group lying on the cells' edges by its
two halves, node groups and discrete elements (SEG2 cells that are no cell's
edge: springs) unchanged.
"""

from __future__ import annotations

import numpy as np

from fem2d.errors import MeshError
from fem2d.mesh.mesh import CellBlock, Mesh


def split_uniform(mesh: Mesh, levels: int) -> Mesh:
    """``mesh`` refined ``levels`` times by splitting.

    >>> square = Mesh(np.array([[0.0, 0], [1, 0], [1, 1], [0, 1]]), {"S": CellBlock("quad4", [[0, 1, 2, 3]]),
    ...               "B": CellBlock("seg2", [[0, 1]])})
    >>> fine = split_uniform(square, 2)
    >>> fine.n_nodes, len(fine.group("S")), len(fine.group("B"))
    (25, 16, 4)
    """
    for _ in range(levels):
        mesh = _split_once(mesh)
    return mesh


def _edge_keys(pairs: np.ndarray) -> np.ndarray:
    return np.sort(pairs, axis=1)


def _split_once(mesh: Mesh) -> Mesh:
    surfaces = {name: b for name, b in mesh.groups.items() if b.dimension == 2}
    for name, block in mesh.groups.items():
        if block.dimension == 2 and block.kind != "quad4" or block.kind == "seg3":
            raise MeshError(f"{mesh.source}: refining a mesh file splits quad4 cells and seg2 edges; "
                            f"group {name!r} holds {block.kind} cells")
    quads = np.unique(np.sort(np.vstack([b.nodes for b in surfaces.values()]), axis=1), axis=0) if surfaces else None
    if quads is None:
        raise MeshError(f"{mesh.source}: no 2D cells to refine")
    all_quads = np.vstack([b.nodes for b in surfaces.values()])
    edges = _edge_keys(np.vstack([all_quads[:, [i, (i + 1) % 4]] for i in range(4)]))
    edges = np.unique(edges, axis=0)
    n = mesh.n_nodes
    mid_points = 0.5 * (mesh.points[edges[:, 0]] + mesh.points[edges[:, 1]])
    edge_index = {tuple(e): n + i for i, e in enumerate(edges.tolist())}
    centre_of = {tuple(c): n + len(edges) + i for i, c in enumerate(quads.tolist())}
    centres = np.array([mesh.points[list(c)].mean(axis=0) for c in quads.tolist()])
    points = np.vstack([mesh.points, mid_points, centres])

    def mid(a: int, b: int) -> int:
        return edge_index[(a, b) if a < b else (b, a)]

    groups: dict[str, CellBlock] = {}
    for name, block in mesh.groups.items():
        if block.dimension == 2:
            children = []
            for n0, n1, n2, n3 in block.nodes.tolist():
                c = centre_of[tuple(sorted((n0, n1, n2, n3)))]
                m01, m12, m23, m30 = mid(n0, n1), mid(n1, n2), mid(n2, n3), mid(n3, n0)
                children += [[n0, m01, c, m30], [m01, n1, m12, c], [c, m12, n2, m23], [m30, c, m23, n3]]
            groups[name] = CellBlock("quad4", np.array(children))
        elif block.kind == "seg2":
            on_cells = [(min(a, b), max(a, b)) in edge_index for a, b in block.nodes.tolist()]
            if all(on_cells):
                halves = [[a, mid(a, b)] for a, b in block.nodes.tolist()] + [[mid(a, b), b] for a, b in
                                                                                 block.nodes.tolist()]
                order = np.arange(len(halves)).reshape(2, -1).T.ravel()  # each edge's halves side by side
                groups[name] = CellBlock("seg2", np.array(halves)[order])
            elif not any(on_cells):
                groups[name] = block  # discrete elements (springs): not split
            else:
                raise MeshError(f"{mesh.source}: group {name!r} mixes cell edges and other segments")
        else:
            groups[name] = block
    return Mesh(points, groups, f"{mesh.source}, split")
