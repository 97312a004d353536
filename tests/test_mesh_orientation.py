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


def test_a_group_mixing_cells_of_two_orders_is_refused_clearly(tmp_path):
    mesh = BUILDERS["sliding_block"]()
    m = to_meshio(mesh)
    i = max((k for k, c in enumerate(m.cells) if c.type == "quad"), key=lambda k: len(m.cells[k].data))
    quads = m.cells[i].data
    tag = m.cell_data["gmsh:physical"][i][0]
    m.cells[i] = meshio.CellBlock("quad", quads[1:])
    m.cells.append(meshio.CellBlock("triangle6", quads[:1, [0, 1, 2, 0, 1, 2]]))
    for key in ("gmsh:physical", "gmsh:geometrical"):
        m.cell_data[key][i] = m.cell_data[key][i][1:]
        m.cell_data[key].append(np.array([tag]))
    meshio.write(tmp_path / "mixed.msh", m, file_format="gmsh22", binary=False)
    with pytest.raises(MeshError, match=r"mixed.msh: group '\w+' mixes cell kinds \['quad4', 'tri6'\]; a group "
                                        r"holds 2D cells of one order"):
        read_mesh(tmp_path / "mixed.msh")


def test_a_mesh_of_two_element_orders_names_mesh_file(tmp_path):
    mesh = BUILDERS["sliding_block"]()
    patin = mesh.group("PATIN")
    groups = {**mesh.groups, "EXTRA": CellBlock("tri6", patin.nodes[:2, [0, 1, 2, 3, 0, 1]])}
    write_mesh(Mesh(mesh.points, groups), tmp_path / "two.msh")
    with pytest.raises(InputError, match=r"mesh.file: .*two.msh holds quad4 and tri6 cells; expected cells of one "
                                         r"order"):
        build_mesh(load_case(_case(tmp_path, "two.msh")))


MIXED = """
[case]
name = "mixed"
kind = "static"
[mesh]
file = "mixed.msh"
element = "{element}"
refine = {refine}
[[materials]]
group = "LEFTQ"
E = 1.0e7
nu = 0.0
rho = 1.0
[[materials]]
group = "RIGHTT"
E = 1.0e7
nu = 0.0
rho = 1.0
[[supports]]
group = "BOTTOM"
dofs = ["dy"]
[[supports]]
group = "SW"
dofs = ["dx"]
[[loads]]
type = "pressure"
group = "TOP"
value = 1.0e4
[time]
dt = 1.0
end = 1.0
[report]
node = "NE"
component = "dy"
at_times = [1.0]
extrema = 0
"""


@pytest.mark.parametrize(("element", "refine"), [("quad4", 0), ("tri3", 1)])
def test_triangles_and_quadrangles_in_two_groups_pass_the_patch_test(tmp_path, element, refine):
    """A 2 x 1 rectangle, its left cell a QUAD4 body and its right one two TRI3 (one order,
    each kind its own physical group): u = -p H / E at the top, exactly, and so after
    mesh.refine splits both kinds (their shared edge's new node made once)."""
    base = BUILDERS["rectangle"](length=2.0, height=1.0, nx=2, ny=1)
    quads = base.group("BODY").nodes
    right = quads[base.points[quads].mean(axis=1)[:, 0] > 1.0]
    groups = {k: v for k, v in base.groups.items() if k != "BODY"}
    groups["LEFTQ"] = CellBlock("quad4", quads[base.points[quads].mean(axis=1)[:, 0] < 1.0])
    groups["RIGHTT"] = CellBlock("tri3", np.vstack([right[:, [0, 1, 2]], right[:, [0, 2, 3]]]))
    write_mesh(Mesh(base.points, groups), tmp_path / "mixed.msh")
    path = tmp_path / "mixed.toml"
    path.write_text(MIXED.format(element=element, refine=refine))
    result = run(load_case(path))
    assert result.quantities["x_at_1.00"] == pytest.approx(-1e4 * 1.0 / 1e7, rel=1e-10)
    kinds = {block.kind for block in result.fields.system.mesh.groups.values() if block.dimension == 2}
    assert kinds == {"quad4", "tri3"} and result.fields.system.mesh.n_nodes == (6 if refine == 0 else 15)
