"""A mesh file's nodes and groups as a 2D mesh needs them: one plane z = const, each
node id once, finite coordinates, a warning for a body cut along unmerged nodes,
physical groups, and the element read from the file's cells."""

import meshio
import numpy as np
import pytest
from test_gmsh_defaults import sliding_block_file

from fem2d.case.build import build_system
from fem2d.case.loading import load_case
from fem2d.errors import InputError, MeshError
from fem2d.mesh import BUILDERS, read_mesh
from fem2d.mesh.io import to_meshio, write_mesh
from fem2d.mesh.mesh import CellBlock, Mesh
from fem2d.mesh.nodes import gmsh_node_ids
from fem2d.runs.result import run


def _case(tmp_path, mesh_name, element=None, extra=""):
    path = tmp_path / f"case_{mesh_name}.toml"
    element_line = f'element = "{element}"\n' if element else ""
    path.write_text(f'[case]\nextends = "sdnv104a"\nname = "user"\n[mesh]\nfile = "{mesh_name}"\n{element_line}'
                    f"{extra}")
    return load_case(path)


def _with_points(tmp_path, name, change):
    m = to_meshio(BUILDERS["sliding_block"]())
    change(m.points)
    meshio.write(tmp_path / name, m, file_format="gmsh22", binary=False)
    return name


@pytest.mark.parametrize("plane", ["tilted", "xz"])
def test_nodes_off_a_plane_z_const_are_refused_naming_the_file(tmp_path, plane):
    def tilt(p):
        if plane == "tilted":
            p[:, 2] = p[:, 0]  # the plane z = x: its projection would run
        else:
            p[:, 2], p[:, 1] = p[:, 1].copy(), 0.0  # the mesh drawn in the xz-plane

    name = _with_points(tmp_path, f"{plane}.msh", tilt)
    with pytest.raises(InputError, match=rf"mesh.file: .*{plane}.msh: nodes have different z coordinates \(.*\); "
                                         "a 2D mesh lies in a plane z = const"):
        build_system(_case(tmp_path, name))


def test_a_mesh_in_another_plane_z_const_runs_as_the_flat_one(tmp_path):
    def lift(p):
        p[:, 2] = 5.0

    system = build_system(_case(tmp_path, _with_points(tmp_path, "lifted.msh", lift)))
    assert np.allclose(system.mesh.points[: BUILDERS["sliding_block"]().n_nodes], BUILDERS["sliding_block"]().points)


def test_a_non_finite_coordinate_names_the_node(tmp_path):
    def spoil(p):
        p[3, 1] = np.nan

    with pytest.raises(InputError, match=r"mesh.file: .*nan.msh: node 4 has a non-finite coordinate"):
        build_system(_case(tmp_path, _with_points(tmp_path, "nan.msh", spoil)))


def test_a_node_id_given_twice_in_gmsh22_is_refused(tmp_path):
    write_mesh(BUILDERS["sliding_block"](), tmp_path / "dup.msh")
    lines = (tmp_path / "dup.msh").read_text().splitlines()
    first = lines.index("$Nodes") + 2
    lines[first + 6] = "6 7 7 0"  # node 7 listed as a second node 6 at (7, 7)
    (tmp_path / "dup.msh").write_text("\n".join(lines) + "\n")
    with pytest.raises(MeshError, match=r"dup.msh: node id 6 is given 2 times in \$Nodes \(at \(.*\) and "
                                        r"\(7, 7, 0\)\); expected each node id once"):
        read_mesh(tmp_path / "dup.msh")


def test_a_node_id_given_twice_in_gmsh41_is_refused(tmp_path):
    path = sliding_block_file(tmp_path / "block.msh", 1, False, 0.5)
    lines = path.read_text().splitlines()
    header = lines.index("$Nodes") + 1
    block = next(i for i in range(header + 1, len(lines))
                 if len(lines[i].split()) == 4 and int(lines[i].split()[3]) > 1)  # a block of 2 nodes or more
    lines[block + 2] = lines[block + 1]  # the block's second id is its first
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(MeshError, match=rf"block.msh: node id {lines[block + 1]} is given 2 times in \$Nodes"):
        read_mesh(path)


@pytest.mark.parametrize("binary", [False, True])
def test_gmsh41_node_ids_are_read_in_meshios_order(tmp_path, binary):
    import gmsh

    path = sliding_block_file(tmp_path / "block.msh", 1, False, 0.5)
    if binary:
        gmsh.initialize(readConfigFiles=False)
        try:
            gmsh.option.setNumber("General.Terminal", 0)
            gmsh.open(str(path))
            gmsh.option.setNumber("Mesh.Binary", 1)
            gmsh.write(str(tmp_path / "binary.msh"))
            tags, coords, _ = gmsh.model.mesh.getNodes()
        finally:
            gmsh.finalize()
        path = tmp_path / "binary.msh"
    ids = gmsh_node_ids(path)
    m = meshio.read(path)
    assert len(ids) == len(m.points) and len(np.unique(ids)) == len(ids)
    if binary:  # the ids name meshio's points: the coordinates agree id by id
        xyz = dict(zip(tags.tolist(), coords.reshape(-1, 3).tolist()))
        assert np.allclose([xyz[i] for i in ids.tolist()], m.points)


def _cut_block():
    """The SDNV104 block with its cells right of x = 0.4 on their own copies of the nodes at x = 0.4."""
    mesh = BUILDERS["sliding_block"]()
    cells = mesh.group("PATIN").nodes.copy()
    seam = np.flatnonzero(np.isclose(mesh.points[:, 0], 0.4) & (mesh.points[:, 1] >= 0.0))
    right = mesh.points[cells].mean(axis=1)[:, 0] > 0.4
    copies = mesh.n_nodes + np.arange(len(seam))
    renumber = np.arange(mesh.n_nodes)
    renumber[seam] = copies
    cells[right] = renumber[cells[right]]
    groups = {**mesh.groups, "PATIN": CellBlock("quad4", cells)}
    for name, block in mesh.groups.items():  # the edges right of the seam follow their cells
        if block.kind == "seg2":
            edges = block.nodes.copy()
            right = mesh.points[edges].mean(axis=1)[:, 0] > 0.4
            edges[right] = renumber[edges[right]]
            groups[name] = CellBlock("seg2", edges)
    return Mesh(np.vstack([mesh.points, mesh.points[seam]]), groups, "cut"), len(seam)


def test_distinct_nodes_of_one_body_at_one_place_give_a_run_warning(tmp_path):
    mesh, n_seam = _cut_block()
    assert n_seam == 6
    write_mesh(mesh, tmp_path / "cut.msh")
    write_mesh(BUILDERS["sliding_block"](), tmp_path / "block.msh")
    assert not read_mesh(tmp_path / "block.msh").warnings  # the block touching its support at coincident nodes
    case = load_case(_case(tmp_path, "cut.msh").path, {"time.end": 0.05})
    result = run(case)
    warning = next(w for w in result.warnings if "distinct nodes" in w)
    assert f"{n_seam} pair(s) of distinct nodes of one body at the same place (first at (0.4, " in warning
    assert "cut.msh" in warning


def test_a_gmsh_file_without_physical_groups_says_so(tmp_path):
    import gmsh

    gmsh.initialize(readConfigFiles=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.model.occ.addDisk(0, 0, 0, 1, 1)
        gmsh.model.occ.synchronize()
        gmsh.option.setNumber("Mesh.MeshSizeMax", 0.4)
        gmsh.model.mesh.generate(2)
        gmsh.write(str(tmp_path / "disc.msh"))
    finally:
        gmsh.finalize()
    with pytest.raises(InputError) as info:
        build_system(_case(tmp_path, "disc.msh"))
    assert str(info.value).endswith(
        "mesh.file: " + str(tmp_path / "disc.msh") + " has no physical groups; define physical groups in gmsh for "
        "the bodies and the edges used by supports, loads and contact")


@pytest.mark.parametrize("element", ["tri3", "quad8"])
def test_mesh_element_is_read_from_the_file_when_not_given(tmp_path, element):
    write_mesh(BUILDERS["sliding_block"](element=element), tmp_path / "block.msh")
    system = build_system(_case(tmp_path, "block.msh"))
    assert {b.kind for b in system.mesh.groups.values() if b.dimension == 2} == {element}
    with pytest.raises(InputError, match=rf"mesh.element: 'quad9' but .*block.msh holds {element} cells"):
        build_system(_case(tmp_path, "block.msh", "quad9"))
