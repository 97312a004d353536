"""Meshes: code_aster's SDNV104 mesh at level 0, refinement, I/O round trips."""

from pathlib import Path

import numpy as np
import pytest

from fem2d.errors import MeshError
from fem2d.mesh import CellBlock, Mesh, read_mesh, rectangle, sliding_block, write_mesh

MESHES = Path(__file__).resolve().parents[1] / "meshes"


def test_level0_quad4_is_code_asters_mesh():
    m = sliding_block("quad4", 0)
    assert m.n_nodes == 42  # code_aster: 42 nodes, 26 QUAD4
    assert len(m.group("PATIN")) + len(m.group("BATI")) == 26
    assert len(m.group_nodes("PATIN")) == 36
    assert len(m.group("LESC")) == 5 and len(m.group("LMAI")) == 1
    assert m.group("RESLAT").kind == "seg2" and len(m.group("RESLAT")) == 2
    np.testing.assert_allclose(m.points[m.node("A")], [0, 0])
    np.testing.assert_allclose(m.points[m.node("R1")], [1.1, 0])
    np.testing.assert_allclose(m.points[m.node("R2")], [1.1, 1])
    x = m.points[m.group_nodes("BATI")]
    np.testing.assert_allclose([x[:, 0].min(), x[:, 1].min(), x[:, 0].max(), x[:, 1].max()], [-0.1, -0.1, 20, 0])
    springs = m.points[m.group("RESLAT").nodes]
    np.testing.assert_allclose(sorted(map(tuple, springs[:, 0])), [(1, 0), (1, 1)])


def test_level0_quad8_cells_and_springs():
    m = sliding_block("quad8", 0)
    assert m.group("PATIN").kind == "quad8" and len(m.group("PATIN")) == 25
    assert m.group("LESC").kind == "seg3"
    assert m.group("RESLAT").kind == "seg2"  # code_aster: 24 SEG3 + 2 SEG2
    assert len(m.group_nodes("PATIN")) == 96
    # mid-side nodes sit at the middle of their (straight) edges
    q = m.points[m.group("PATIN").nodes]
    for k, (a, b) in enumerate([(0, 1), (1, 2), (2, 3), (3, 0)]):
        np.testing.assert_allclose(q[:, 4 + k], 0.5 * (q[:, a] + q[:, b]), atol=1e-14)


@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_refinement_halves_the_cell_size(element):
    for level in (1, 2):
        m = sliding_block(element, level)
        assert len(m.group("PATIN")) == (5 * 2**level) ** 2
        assert len(m.group("BATI")) == 4**level
        assert len(m.group("LESC")) == 5 * 2**level
        assert len(m.group("LMAI")) == 2**level


@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_cells_are_counter_clockwise(element):
    m = sliding_block(element, 1)
    for name in ("PATIN", "BATI"):
        x = m.points[m.group(name).nodes[:, :4]]
        area = 0.5 * np.sum(x[:, :, 0] * np.roll(x[:, :, 1], -1, 1) - np.roll(x[:, :, 0], -1, 1) * x[:, :, 1], 1)
        assert (area > 0).all()


@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_stored_meshes_are_what_the_builder_makes(element):
    stored = read_mesh(MESHES / f"sdnv104_{element}.msh")
    built = sliding_block(element, 0)
    np.testing.assert_array_equal(stored.points, built.points)
    assert stored.groups.keys() == built.groups.keys()
    for name, block in built.groups.items():
        assert stored.group(name).kind == block.kind
        np.testing.assert_array_equal(stored.group(name).nodes, block.nodes)


def test_quad8_node_order_survives_round_trip(tmp_path):
    m = rectangle(2.0, 1.0, 3, 2, "quad8")
    path = tmp_path / "r.msh"
    write_mesh(m, path)
    back = read_mesh(path)
    np.testing.assert_allclose(back.points, m.points)
    for name, block in m.groups.items():
        np.testing.assert_array_equal(back.group(name).nodes, block.nodes)


def test_quad8_node_order_survives_vtu(tmp_path):
    """VTU has no named groups, but its quadratic quad must keep our node order."""
    import meshio

    from fem2d.mesh.io import to_meshio

    m = rectangle(2.0, 1.0, 3, 2, "quad8")
    meshio.write(tmp_path / "r.vtu", to_meshio(m))
    back = meshio.read(tmp_path / "r.vtu")
    quads = [c.data for c in back.cells if c.type == "quad8"]
    np.testing.assert_array_equal(np.vstack(quads), m.group("BODY").nodes)


def test_missing_group_and_file_are_clear_errors(tmp_path):
    m = sliding_block("quad4", 0)
    with pytest.raises(MeshError, match="no group named 'NOPE'.*PATIN"):
        m.group("NOPE")
    with pytest.raises(MeshError, match="not found"):
        read_mesh(tmp_path / "absent.msh")
    with pytest.raises(MeshError, match="outside"):
        Mesh(np.zeros((2, 2)), {"X": CellBlock("seg2", [[0, 5]])})
