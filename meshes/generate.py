"""Regenerate the stored level-0 meshes of the cases from the Gmsh builders.

    python meshes/generate.py

``sdnv104_quad4.msh`` and ``sdnv104_quad8.msh`` are code_aster's SDNV104
meshes (block 5 x 5, support one cell, two springs) with its group names;
``tests/test_mesh.py`` checks that the builders still reproduce them.
"""

from pathlib import Path

from fem2d.mesh import sliding_block, write_mesh

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    for element in ("quad4", "quad8"):
        path = HERE / f"sdnv104_{element}.msh"
        write_mesh(sliding_block(element, 0), path)
        print(f"wrote {path}")
