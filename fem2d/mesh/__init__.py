"""Meshes: the Mesh type, Gmsh builders and meshio I/O."""

from fem2d.mesh.builders import BUILDERS, rectangle, single_node, sliding_block
from fem2d.mesh.io import read_mesh, write_mesh
from fem2d.mesh.mesh import CELL_DIMENSION, NODES_PER_CELL, CellBlock, Mesh, compact

__all__ = [
    "BUILDERS",
    "CELL_DIMENSION",
    "NODES_PER_CELL",
    "CellBlock",
    "Mesh",
    "compact",
    "read_mesh",
    "rectangle",
    "single_node",
    "sliding_block",
    "write_mesh",
]
