"""User mesh files: cells must match mesh.element, orphan nodes dropped, SEG2 springs only, refine splits them."""

import meshio
import numpy as np
import pytest

from fem2d.case.build import build_system
from fem2d.case.loading import load_case
from fem2d.errors import InputError
from fem2d.mesh import BUILDERS, read_mesh
from fem2d.mesh.io import to_meshio, write_mesh
from fem2d.mesh.mesh import CellBlock


def _case(tmp_path, mesh_name, element="quad4"):
    path = tmp_path / f"case_{mesh_name}.toml"
    text = f'[case]\nextends = "sdnv104a"\nname = "user"\n[mesh]\nfile = "{mesh_name}"\nelement = "{element}"\n'
    path.write_text(text)
    return load_case(path)


def test_cells_that_disagree_with_mesh_element_name_both(tmp_path):
    write_mesh(BUILDERS["sliding_block"](element="quad8"), tmp_path / "q8.msh")
    with pytest.raises(InputError, match=r"mesh.element: 'quad4' but .*q8.msh holds quad8 cells"):
        build_system(_case(tmp_path, "q8.msh"))
    system = build_system(_case(tmp_path, "q8.msh", "quad8"))
    assert system.n_dofs == 2 * BUILDERS["sliding_block"](element="quad8").n_nodes


def test_orphan_nodes_are_dropped(tmp_path):
    mesh = BUILDERS["sliding_block"]()
    m = to_meshio(mesh)
    m.points = np.vstack([m.points, [[5.0, 5.0, 0.0], [6.0, 5.0, 0.0]]])  # points no cell uses
    meshio.write(tmp_path / "orphans.msh", m, file_format="gmsh22", binary=False)
    assert read_mesh(tmp_path / "orphans.msh").n_nodes == mesh.n_nodes
    system = build_system(_case(tmp_path, "orphans.msh"))  # no "free dofs but no mass"
    assert system.n_dofs == 2 * mesh.n_nodes


def test_seg3_springs_are_refused_naming_the_file(tmp_path):
    mesh = BUILDERS["sliding_block"]()
    m = to_meshio(mesh)
    springs = [i for i, c in enumerate(m.cells) if c.type == "line" and len(c.data) == 2]
    k = next(i for i in springs if np.array_equal(np.sort(m.cells[i].data, axis=None),
                                                  np.sort(mesh.group("RESLAT").nodes, axis=None)))
    mids = np.arange(len(m.points), len(m.points) + 2)
    m.points = np.vstack([m.points, 0.5 * (m.points[m.cells[k].data[:, 0]] + m.points[m.cells[k].data[:, 1]])])
    m.cells[k] = meshio.CellBlock("line3", np.column_stack([m.cells[k].data, mids]))
    meshio.write(tmp_path / "seg3.msh", m, file_format="gmsh22", binary=False)
    with pytest.raises(InputError, match=r"springs\[0\].group: group 'RESLAT' of .*seg3.msh holds seg3 cells"):
        build_system(_case(tmp_path, "seg3.msh"))


def test_refining_a_mesh_file_splits_its_cells_and_keeps_the_groups(tmp_path):
    write_mesh(BUILDERS["sliding_block"](), tmp_path / "block.msh")
    fine = BUILDERS["sliding_block"](refine=2)
    case = load_case(_case(tmp_path, "block.msh").path, {"mesh.refine": 2})
    system = build_system(case)
    assert system.n_dofs == 2 * fine.n_nodes
    assert {k: len(b) for k, b in system.mesh.groups.items()} == {k: len(b) for k, b in fine.groups.items()}
    assert system.M.sum() == pytest.approx(2 * 7000.0, rel=1e-12)  # the block's mass, in x and y
    assert np.allclose(np.sort(system.mesh.points, axis=0), np.sort(fine.points, axis=0), atol=1e-12)


@pytest.mark.parametrize("element", ["quad8", "quad9", "tri3", "tri6"])
def test_refining_files_of_every_element_matches_the_refined_builder(tmp_path, element):
    """Split cells of a level-0 file (mid-edge nodes from the parent's map) are the
    builder's own level-1 mesh: the same nodes, the same groups, the same mass."""
    write_mesh(BUILDERS["sliding_block"](element=element), tmp_path / "block.msh")
    fine = BUILDERS["sliding_block"](element=element, refine=1)
    system = build_system(load_case(_case(tmp_path, "block.msh", element).path, {"mesh.refine": 1}))
    assert system.n_dofs == 2 * fine.n_nodes
    assert {k: (b.kind, len(b)) for k, b in system.mesh.groups.items()} == {
        k: (b.kind, len(b)) for k, b in fine.groups.items()
    }
    assert system.M.sum() == pytest.approx(2 * 7000.0, rel=1e-12)
    assert np.allclose(np.sort(system.mesh.points, axis=0), np.sort(fine.points, axis=0), atol=1e-12)


def test_refining_seg2_edges_on_quadratic_cells_names_the_group(tmp_path):
    mesh = BUILDERS["sliding_block"](element="tri6")
    mesh.groups["FSUP"] = CellBlock("seg2", mesh.group("FSUP").nodes[:, :2])
    write_mesh(mesh, tmp_path / "mixed.msh")
    with pytest.raises(InputError, match=r"mesh.refine: .*mixed.msh.*group 'FSUP' holds seg2 edges on cells"):
        build_system(load_case(_case(tmp_path, "mixed.msh", "tri6").path, {"mesh.refine": 1}))


def test_coordinates_too_large_for_the_element_areas_are_one_line_naming_the_file(tmp_path, capsys):
    from fem2d.cli import main

    m = to_meshio(BUILDERS["sliding_block"]())
    m.points = m.points * 1e200
    meshio.write(tmp_path / "huge.msh", m, file_format="gmsh22", binary=False)
    path = _case(tmp_path, "huge.msh").path
    assert main(["run", str(path), "--quiet", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"fem2d: error: {path}: mesh.file: coordinates reach 2e+201 m"), err
