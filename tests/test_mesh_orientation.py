"""Clockwise cells in a user's mesh file are turned counter-clockwise on reading:
the same answers as the original mesh, not negative Jacobians."""

import meshio
import numpy as np
import pytest

from fem2d.case.build import build_mesh
from fem2d.case.loading import load_case
from fem2d.errors import InputError, MeshError
from fem2d.mesh import BUILDERS, read_mesh
from fem2d.mesh.io import to_meshio, write_mesh
from fem2d.mesh.mesh import CellBlock, Mesh
from fem2d.mesh.orientation import REVERSED, signed_areas
from fem2d.runs.result import run


def _clockwise_copy(mesh: Mesh, every: int = 1) -> Mesh:
    """``mesh`` with every ``every``-th 2D cell listed clockwise."""
    groups = {}
    for name, block in mesh.groups.items():
        nodes = block.nodes.copy()
        if block.kind in REVERSED:
            nodes[::every] = nodes[::every][:, list(REVERSED[block.kind])]
        groups[name] = CellBlock(block.kind, nodes)
    return Mesh(mesh.points, groups, mesh.source)


@pytest.mark.parametrize("element", ["quad4", "quad8", "quad9", "tri3", "tri6"])
def test_a_clockwise_copy_reads_as_the_original(tmp_path, element):
    mesh = BUILDERS["sliding_block"](element=element)
    flipped = _clockwise_copy(mesh)
    assert (signed_areas(flipped.points, flipped.group("PATIN")) < 0).all()
    write_mesh(flipped, tmp_path / "cw.msh")
    back = read_mesh(tmp_path / "cw.msh")
    for name, block in mesh.groups.items():
        assert np.array_equal(back.group(name).nodes, block.nodes), name
        assert back.group(name).kind == block.kind


def _case(tmp_path, mesh_file):
    path = tmp_path / f"case_{mesh_file}.toml"
    path.write_text(f'[case]\nextends = "sdnv104a"\nname = "user"\n[mesh]\nfile = "{mesh_file}"\n')
    return path


def test_a_run_on_a_half_clockwise_mesh_gives_the_original_answers(tmp_path):
    """SDNV104 on its mesh and on a copy whose every other cell is clockwise
    (negative Jacobians before the fix: the element layer refused the mesh)."""
    mesh = BUILDERS["sliding_block"]()
    write_mesh(mesh, tmp_path / "ccw.msh")
    write_mesh(_clockwise_copy(mesh, every=2), tmp_path / "cw.msh")
    settings = {"time.end": 0.3, "report.at_times": [0.3]}
    original = run(load_case(_case(tmp_path, "ccw.msh"), settings)).quantities
    turned = run(load_case(_case(tmp_path, "cw.msh"), settings)).quantities
    assert original["x_at_0.30"] == pytest.approx(turned["x_at_0.30"], rel=1e-12, abs=1e-15)
    assert original["x_at_0.30"] > 1e-3  # the block has moved


def test_a_group_mixing_triangles_and_quadrangles_is_refused_clearly(tmp_path):
    mesh = BUILDERS["sliding_block"]()
    m = to_meshio(mesh)
    i = max((k for k, c in enumerate(m.cells) if c.type == "quad"), key=lambda k: len(m.cells[k].data))
    quads = m.cells[i].data
    tag = m.cell_data["gmsh:physical"][i][0]
    m.cells[i] = meshio.CellBlock("quad", quads[1:])
    m.cells.append(meshio.CellBlock("triangle", quads[:1, :3]))
    for key in ("gmsh:physical", "gmsh:geometrical"):
        m.cell_data[key][i] = m.cell_data[key][i][1:]
        m.cell_data[key].append(np.array([tag]))
    meshio.write(tmp_path / "mixed.msh", m, file_format="gmsh22", binary=False)
    with pytest.raises(MeshError, match=r"mixed.msh: group '\w+' mixes cell kinds \['quad4', 'tri3'\]; a group "
                                        r"holds cells of one kind"):
        read_mesh(tmp_path / "mixed.msh")


def test_a_mesh_of_two_element_kinds_names_mesh_file(tmp_path):
    mesh = BUILDERS["sliding_block"]()
    patin = mesh.group("PATIN")
    groups = {**mesh.groups, "EXTRA": CellBlock("tri3", patin.corners[:2, :3])}
    write_mesh(Mesh(mesh.points, groups), tmp_path / "two.msh")
    with pytest.raises(InputError, match=r"mesh.file: .*two.msh holds quad4 and tri3 cells; expected one element"):
        build_mesh(load_case(_case(tmp_path, "two.msh")))
