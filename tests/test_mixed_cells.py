"""A body meshed with triangles and quadrangles of one order in one physical group
(what Gmsh leaves when it recombines a surface only partly): each kind is assembled
by its own element, and the body passes the patch test, keeps its mass, and slides
on its support with friction as the exact rigid block does."""

import json

import numpy as np
import pytest
import scipy.sparse.linalg as spla

from fem2d.cli import main
from fem2d.mesh import BUILDERS, read_mesh
from fem2d.mesh.io import write_mesh
from fem2d.mesh.mesh import CellBlock, Mesh
from fem2d.model import Body, Model

A = np.array([[1e-3, 2e-3, -1.5e-3], [-0.5e-3, 0.7e-3, 3e-3]])  # u_a = A[a,0] + A[a,1] x + A[a,2] y


def gmsh_mixed_disc(path, order):
    """A unit disc DISC (rim RIM) recombined by Gmsh's simple algorithm: quadrangles and
    a few triangles in the one surface group; ``order`` 2 gives TRI6 and QUAD9."""
    import gmsh

    gmsh.initialize(readConfigFiles=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        disc = gmsh.model.occ.addDisk(0, 0, 0, 1, 1)
        gmsh.model.occ.synchronize()
        gmsh.model.addPhysicalGroup(2, [disc], name="DISC")
        gmsh.model.addPhysicalGroup(1, [b[1] for b in gmsh.model.getBoundary([(2, disc)])], name="RIM")
        gmsh.option.setNumber("Mesh.MeshSizeMax", 0.3)
        gmsh.option.setNumber("Mesh.RecombineAll", 1)
        gmsh.option.setNumber("Mesh.RecombinationAlgorithm", 0)
        gmsh.model.mesh.generate(2)
        gmsh.model.mesh.setOrder(order)
        gmsh.write(str(path))
    finally:
        gmsh.finalize()
    return path


@pytest.mark.parametrize(("order", "kinds"), [(1, ["quad4", "tri3"]), (2, ["quad9", "tri6"])])
def test_a_gmsh_partly_recombined_disc_passes_the_patch_test(tmp_path, order, kinds):
    mesh = read_mesh(gmsh_mixed_disc(tmp_path / "disc.msh", order))
    assert sorted(b.kind for b in mesh.blocks("DISC")) == kinds
    system = Model(mesh, bodies=[Body("DISC", E=2.0e11, nu=0.3, rho=7800.0)]).assemble()
    rim_edges = mesh.points[mesh.group("RIM").nodes[:, :2]]  # (n, 2 ends, xy)
    (x0, y0), (x1, y1) = rim_edges[:, 0].T, rim_edges[:, 1].T
    polygon = 0.5 * abs(np.sum(x0 * y1 - x1 * y0))
    area, rel = (polygon, 1e-12) if order == 1 else (np.pi, 1e-4)  # straight or curved rim edges
    assert system.M.sum() == pytest.approx(2 * 7800.0 * area, rel=rel)  # the disc's mass in x and y
    exact = (A[:, :1] + A[:, 1:] @ mesh.points.T).T.ravel()
    rim = np.concatenate([2 * mesh.group_nodes("RIM"), 2 * mesh.group_nodes("RIM") + 1])
    free = np.setdiff1d(np.arange(2 * mesh.n_nodes), rim)
    K = system.K.tocsr()
    u = exact.copy()
    u[free] = spla.spsolve(K[free][:, free].tocsc(), -K[free][:, rim] @ exact[rim])
    assert np.abs(u - exact).max() < 1e-12


def split_block(element="quad4"):
    """SDNV104's mesh with every other cell of the block PATIN split into two triangles
    (a checkerboard: triangles and quadrangles along the contact edge LESC)."""
    mesh = BUILDERS["sliding_block"](element=element)
    quads = mesh.group("PATIN").nodes
    split = np.arange(len(quads)) % 2 == 0
    triangles = np.vstack([quads[split][:, [0, 1, 2]], quads[split][:, [0, 2, 3]]])
    groups = {**mesh.groups}
    del groups["PATIN"]
    groups["PATIN[quad4]"] = CellBlock("quad4", quads[~split])
    groups["PATIN[tri3]"] = CellBlock("tri3", triangles)
    return Mesh(mesh.points, groups, "split block", parts={"PATIN": ("PATIN[quad4]", "PATIN[tri3]")})


def test_a_mixed_group_is_written_and_read_back_as_one_physical_group(tmp_path):
    mesh = split_block()
    write_mesh(mesh, tmp_path / "split.msh")
    back = read_mesh(tmp_path / "split.msh")
    assert back.parts == mesh.parts
    assert back.group_names() == mesh.group_names() and "PATIN" in back.group_names()
    for name in mesh.groups:
        assert np.array_equal(back.groups[name].nodes, mesh.groups[name].nodes), name


def test_a_mixed_block_slides_with_friction_as_the_exact_rigid_block(tmp_path):
    write_mesh(split_block(), tmp_path / "split.msh")
    (tmp_path / "case.toml").write_text(
        '[case]\nextends = "sdnv104a"\nname = "split"\n[mesh]\nfile = "split.msh"\n')
    assert main(["run", str(tmp_path / "case.toml"), "--out", str(tmp_path / "run"), "--quiet"]) == 0
    doc = json.loads((tmp_path / "run" / "result.json").read_text())
    assert doc["mesh"]["elements"] == ["quad4", "tri3"]
    checks = {c["quantity"]: c for c in doc["checks"]}
    assert len(checks) == 6 and all(c["passed"] for c in checks.values())
    assert all(c["source"].startswith("exact: rigid block") for c in checks.values())
    assert checks["x_at_1.70"]["relative_error"] < 3e-5
    assert doc["quantities"]["friction_dissipation"] > 0


def test_unmerged_nodes_between_the_kinds_of_one_body_give_a_warning(tmp_path):
    """The triangles on their own copies of the nodes they share with the quadrangles:
    the body is cut along every triangle's edge, which reading warns about."""
    mesh = split_block()
    write_mesh(mesh, tmp_path / "split.msh")
    assert not read_mesh(tmp_path / "split.msh").warnings
    triangles = mesh.groups["PATIN[tri3]"].nodes
    shared = np.intersect1d(triangles, mesh.groups["PATIN[quad4]"].nodes)
    renumber = np.arange(mesh.n_nodes)
    renumber[shared] = mesh.n_nodes + np.arange(len(shared))
    cut = Mesh(np.vstack([mesh.points, mesh.points[shared]]),
               {**mesh.groups, "PATIN[tri3]": CellBlock("tri3", renumber[triangles])}, "cut", parts=mesh.parts)
    write_mesh(cut, tmp_path / "cut.msh")
    (warning,) = read_mesh(tmp_path / "cut.msh").warnings
    assert f": {len(shared)} pair(s) of distinct nodes of one body at the same place" in warning
