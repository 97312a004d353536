"""The mesh: node coordinates and named groups of cells.

A :class:`Mesh` is plain data. Every group holds cells of one kind, as
code_aster's ``GROUP_MA`` usually do: ``PATIN`` is a block of QUAD4 (or TRI3,
TRI6, QUAD8, QUAD9) cells, ``LESC`` a block of SEG2 (or SEG3) edges, ``A`` a
single POINT cell. Node ordering follows Gmsh, meshio and VTK:

* ``tri3``: corners counter-clockwise;
* ``tri6``: corners counter-clockwise, then the mid-side nodes of the edges
  (0,1), (1,2), (2,0);
* ``quad4``: corners counter-clockwise;
* ``quad8``: corners counter-clockwise, then the mid-side nodes of the edges
  (0,1), (1,2), (2,3), (3,0);
* ``quad9``: the QUAD8 nodes, then the centre node;
* ``seg2``: the two ends; ``seg3``: the two ends, then the middle node;
* ``point``: one node.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from fem2d.errors import MeshError

#: Number of nodes of each cell kind.
NODES_PER_CELL: dict[str, int] = {
    "point": 1, "seg2": 2, "seg3": 3, "tri3": 3, "tri6": 6, "quad4": 4, "quad8": 8, "quad9": 9,
}

#: Topological dimension of each cell kind.
CELL_DIMENSION: dict[str, int] = {
    "point": 0, "seg2": 1, "seg3": 1, "tri3": 2, "tri6": 2, "quad4": 2, "quad8": 2, "quad9": 2,
}

#: Number of corner (vertex) nodes of each cell kind; they come first in the node order.
CORNERS_PER_CELL: dict[str, int] = {
    "point": 1, "seg2": 2, "seg3": 2, "tri3": 3, "tri6": 3, "quad4": 4, "quad8": 4, "quad9": 4,
}

#: Polynomial order of each 2D cell kind: a group may mix the kinds of one order.
CELL_ORDER: dict[str, int] = {"tri3": 1, "quad4": 1, "tri6": 2, "quad8": 2, "quad9": 2}

#: The 2D cell kinds (elements of a body).
SURFACE_KINDS = tuple(kind for kind, dim in CELL_DIMENSION.items() if dim == 2)


@dataclass(frozen=True)
class CellBlock:
    """Cells of one kind: ``nodes[c, j]`` is the j-th node of cell c."""

    kind: str
    nodes: np.ndarray

    def __post_init__(self) -> None:
        if self.kind not in NODES_PER_CELL:
            raise MeshError(f"unknown cell kind {self.kind!r}; expected one of {sorted(NODES_PER_CELL)}")
        nodes = np.asarray(self.nodes, dtype=np.int64).reshape(-1, NODES_PER_CELL[self.kind])
        object.__setattr__(self, "nodes", nodes)

    @property
    def dimension(self) -> int:
        return CELL_DIMENSION[self.kind]

    @property
    def corners(self) -> np.ndarray:
        """The corner nodes of each cell, ``nodes[:, :n_corners]`` (counter-clockwise for 2D cells)."""
        return self.nodes[:, : CORNERS_PER_CELL[self.kind]]

    def __len__(self) -> int:
        return len(self.nodes)


@dataclass
class Mesh:
    """Node coordinates ``points`` (n, 2) and named groups of cells.

    ``source`` names where the mesh came from (a file, a builder) so that
    errors can point at it; ``warnings`` says what reading it found suspicious
    (a run reports them with its own).

    A group of 2D cells of several kinds of one order (the triangles Gmsh leaves
    when it recombines a surface into quadrangles) is held as one block per kind,
    ``groups["DISC[tri3]"]`` and ``groups["DISC[quad4]"]``, and ``parts["DISC"]``
    names them: :meth:`blocks` gives a group's blocks, :meth:`group_nodes` its nodes.
    """

    points: np.ndarray
    groups: dict[str, CellBlock] = field(default_factory=dict)
    source: str = "<mesh>"
    warnings: list[str] = field(default_factory=list)
    parts: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        pts = np.asarray(self.points, dtype=float)
        if pts.ndim != 2 or pts.shape[1] < 2:
            raise MeshError(f"{self.source}: points must be an (n, 2) array, got shape {pts.shape}")
        self.points = np.ascontiguousarray(pts[:, :2])
        for name, block in self.groups.items():
            if len(block) and (block.nodes.min() < 0 or block.nodes.max() >= len(self.points)):
                raise MeshError(f"{self.source}: group {name!r} refers to nodes outside 0..{len(self.points) - 1}")
        for name, parts in self.parts.items():
            if name in self.groups or not all(p in self.groups for p in parts):
                raise MeshError(f"{self.source}: group {name!r} is made of {list(parts)}; expected groups of the "
                                "mesh, none named as the group itself")

    def __repr__(self) -> str:
        groups = ", ".join(f"{n}:{b.kind}x{len(b)}" for n, b in sorted(self.groups.items()))
        return f"Mesh({self.source}, {self.n_nodes} nodes, {groups})"

    @property
    def n_nodes(self) -> int:
        return len(self.points)

    def group(self, name: str) -> CellBlock:
        """The cells of group ``name`` (of one kind); a clear error names the known groups."""
        if name in self.parts:
            kinds = " and ".join(self.groups[p].kind for p in self.parts[name])
            raise MeshError(f"{self.source}: group {name!r} holds {kinds} cells; expected cells of one kind here")
        try:
            return self.groups[name]
        except KeyError:
            known = ", ".join(self.group_names()) or "no groups"
            raise MeshError(f"{self.source}: no group named {name!r}; the mesh has {known}") from None

    def blocks(self, name: str) -> list[CellBlock]:
        """The cells of group ``name``, one block per cell kind."""
        if name in self.parts:
            return [self.groups[p] for p in self.parts[name]]
        return [self.group(name)]

    def group_names(self) -> list[str]:
        """The names of the groups, sorted; a group of several kinds once, not its blocks."""
        inside = {p for parts in self.parts.values() for p in parts}
        return sorted([n for n in self.groups if n not in inside] + list(self.parts))

    def group_nodes(self, name: str) -> np.ndarray:
        """Sorted unique node ids of group ``name``."""
        return np.unique(np.concatenate([b.nodes.ravel() for b in self.blocks(name)]))

    def node(self, name: str) -> int:
        """The single node of a one-node group (code_aster's GROUP_NO of one node)."""
        nodes = self.group_nodes(name)
        if len(nodes) != 1:
            raise MeshError(f"{self.source}: group {name!r} has {len(nodes)} nodes; expected exactly one")
        return int(nodes[0])

    def cells_of_dimension(self, dim: int) -> dict[str, CellBlock]:
        """The groups whose cells have topological dimension ``dim`` (a group of
        several kinds as its blocks)."""
        return {n: b for n, b in self.groups.items() if b.dimension == dim}

    def summary(self) -> str:
        """One line per group: name, kind, number of cells."""
        lines = [f"{self.source}: {self.n_nodes} nodes"]
        lines += [f"  {n:<8s} {b.kind:<6s} {len(b):6d} cells" for n, b in sorted(self.groups.items())]
        return "\n".join(lines)


def compact(mesh: Mesh) -> Mesh:
    """Drop the nodes that no group refers to and renumber the rest in order."""
    used = np.zeros(mesh.n_nodes, dtype=bool)
    for block in mesh.groups.values():
        used[block.nodes.ravel()] = True
    new_id = np.cumsum(used) - 1
    groups = {n: CellBlock(b.kind, new_id[b.nodes]) for n, b in mesh.groups.items()}
    return replace(mesh, points=mesh.points[used], groups=groups)
