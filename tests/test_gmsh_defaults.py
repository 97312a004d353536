"""Meshes made by Gmsh with its default settings (triangles; setOrder(2): TRI6;
recombined and setOrder(2): QUAD9) run the sliding block and give the exact
answer, and ``mesh.refine`` on them converges at the elements' rates."""

import json

import numpy as np
import pytest
from test_fe_convergence import solve_on

from fem2d.cli import main
from fem2d.mesh import read_mesh
from fem2d.mesh.refine import split_uniform

# SDNV104 on a Gmsh mesh: the springs to the fixed points R1, R2 are springs to the
# ground at the block's right corners (the same stiffness along x), so that the
# second-order files hold no SEG3 springs.
CASE = """[case]
extends = "sdnv104a"
name = "gmsh_defaults"
[mesh]
file = "{mesh}"
element = "{element}"
refine = {refine}
[[supports]]
group = "BATI"
dofs = ["dx", "dy"]
[[nodal]]
group = "CORNERS"
stiffness = [12.0e3, 0.0]
"""


def gmsh_mesh(path, rectangles, groups, order=1, recombine=False, sizes=None):
    """Mesh ``rectangles`` {name: (x0, y0, x1, y1)} with Gmsh's defaults (only the
    size at each rectangle's corners given, ``sizes[name]``, 0 = Gmsh's own) and
    write ``path`` (Gmsh's default format, MSH 4.1). ``groups`` lists (dim, name,
    [(rectangle, 'corner'|'edge', k)]) beyond one surface group per rectangle."""
    import gmsh

    gmsh.initialize(readConfigFiles=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        geo = gmsh.model.geo
        made = {}
        for name, (x0, y0, x1, y1) in rectangles.items():
            size = (sizes or {}).get(name, 0.0)
            p = [geo.addPoint(x, y, 0, size) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
            lines = [geo.addLine(p[i], p[(i + 1) % 4]) for i in range(4)]
            made[name] = {"corner": p, "edge": lines, "surface": geo.addPlaneSurface([geo.addCurveLoop(lines)])}
        geo.synchronize()
        for name, parts in made.items():
            gmsh.model.addPhysicalGroup(2, [parts["surface"]], name=name)
        for dim, name, members in groups:
            gmsh.model.addPhysicalGroup(dim, [made[r][what][k] for r, what, k in members], name=name)
        if recombine:
            gmsh.option.setNumber("Mesh.RecombineAll", 1)
        gmsh.model.mesh.generate(2)
        gmsh.model.mesh.setOrder(order)
        gmsh.write(str(path))
    finally:
        gmsh.finalize()
    return path


def sliding_block_file(path, order, recombine, size=0.0):
    """The SDNV104 geometry: block PATIN [0, 1]^2 (cell size ``size``) on the
    support BATI [-0.1, 20] x [-0.1, 0] (Gmsh's own size when ``size`` is 0, else 1 m)."""
    return gmsh_mesh(
        path,
        {"PATIN": (0.0, 0.0, 1.0, 1.0), "BATI": (-0.1, -0.1, 20.0, 0.0)},
        [(1, "LESC", [("PATIN", "edge", 0)]), (1, "LMAI", [("BATI", "edge", 2)]),
         (1, "FSUP", [("PATIN", "edge", 2)]), (1, "FLAT", [("PATIN", "edge", 3)]),
         (0, "A", [("PATIN", "corner", 0)]), (0, "CORNERS", [("PATIN", "corner", 1), ("PATIN", "corner", 2)])],
        order, recombine, {"PATIN": size, "BATI": 1.0 if size else 0.0},
    )


def run_case(tmp_path, mesh_file, element, refine=0):
    name = f"{element}_{refine}"
    (tmp_path / f"{name}.toml").write_text(CASE.format(mesh=mesh_file.name, element=element, refine=refine))
    assert main(["run", str(tmp_path / f"{name}.toml"), "--set", "springs=[]", "--out",
                 str(tmp_path / name), "--quiet"]) == 0
    return json.loads((tmp_path / name / "result.json").read_text())


@pytest.mark.parametrize(
    ("element", "order", "recombine", "size"),
    [("tri3", 1, False, 0.0), ("tri6", 2, False, 0.25), ("quad9", 2, True, 0.25)],
)
def test_sliding_block_on_gmsh_default_meshes(tmp_path, element, order, recombine, size):
    mesh_file = sliding_block_file(tmp_path / "block.msh", order, recombine, size)
    assert {b.kind for b in read_mesh(mesh_file).groups.values() if b.dimension == 2} == {element}
    doc = run_case(tmp_path, mesh_file, element)
    assert doc["mesh"]["elements"] == [element]
    checks = {c["quantity"]: c for c in doc["checks"]}
    assert len(checks) == 6 and all(c["passed"] for c in checks.values())
    assert all(c["source"].startswith("exact: rigid block, m=7000 k=24000") for c in checks.values())
    # the same accuracy as the structured QUAD4 mesh (2.1e-5 at dt = 0.01: the error is dt's)
    assert checks["x_at_1.70"]["relative_error"] < 3e-5


def test_compare_labels_the_element_run_and_a_disagreeing_file_fails_naming_both(tmp_path, capsys):
    mesh_file = sliding_block_file(tmp_path / "block.msh", 2, False, 0.5)
    (tmp_path / "case.toml").write_text(CASE.format(mesh=mesh_file.name, element="tri6", refine=0))
    args = ["compare", str(tmp_path / "case.toml"), "--elements", "tri6,tri3", "--methods", "lagrange",
            "--set", "springs=[]", "--set", "time.end=0.2", "--out", str(tmp_path / "c"), "--workers", "1", "--quiet"]
    assert main(args) == 1  # the tri3 run fails
    captured = capsys.readouterr()
    out = captured.out
    mesh_row = next(line for line in out.splitlines() if line.startswith("mesh run"))
    assert f"tri6, {read_mesh(mesh_file).n_nodes} nodes" in mesh_row
    assert out.splitlines()[0].split() == ["quantity", "reference", "lagrange/tri6", "lagrange/tri3"]
    failed = next(line for line in captured.err.splitlines() if line.startswith("FAILED"))
    assert failed.startswith("FAILED lagrange/tri3: ") and "mesh.element: 'tri3' but" in failed
    assert "block.msh holds tri6 cells" in failed


@pytest.mark.parametrize(("element", "order", "size", "refine"), [("tri3", 1, 0.0, 2), ("tri6", 2, 0.0, 1)])
def test_refined_gmsh_default_mesh_keeps_the_exact_answer(tmp_path, element, order, size, refine):
    mesh_file = sliding_block_file(tmp_path / "block.msh", order, False, size)
    doc = run_case(tmp_path, mesh_file, element, refine=refine)
    assert doc["mesh"] == {"n_nodes": split_uniform(read_mesh(mesh_file), refine).n_nodes, "elements": [element]}
    checks = {c["quantity"]: c for c in doc["checks"]}
    assert len(checks) == 6 and all(c["passed"] for c in checks.values())
    assert checks["x_at_1.70"]["relative_error"] < 3e-5


@pytest.mark.parametrize(
    ("element", "order", "recombine", "l2_rate", "h1_rate"),
    [("tri3", 1, False, 2, 1), ("tri6", 2, False, 3, 2), ("quad9", 2, True, 3, 2)],
)
def test_refining_a_gmsh_default_mesh_converges(tmp_path, element, order, recombine, l2_rate, h1_rate):
    """The manufactured solution of test_fe_convergence on an unstructured Gmsh
    square, refined by ``split_uniform`` (levels 0-3): the observed orders are the
    theoretical ones (observed: TRI3 1.99/1.00, TRI6 3.00/2.00, QUAD9 3.01/2.00 at the last level)."""
    sides = [(1, side, [("BODY", "edge", k)]) for k, side in enumerate(("BOTTOM", "RIGHT", "TOP", "LEFT"))]
    square = gmsh_mesh(tmp_path / "square.msh", {"BODY": (0.0, 0.0, 1.0, 1.0)}, sides, order, recombine,
                       sizes={"BODY": 0.3})
    coarse = read_mesh(square)
    assert coarse.group("BODY").kind == element
    errors = np.array([solve_on(split_uniform(coarse, level)) for level in range(4)])
    orders = np.log2(errors[:-1] / errors[1:])  # h halves at each level
    assert np.all(np.abs(orders[-2:, 0] - l2_rate) < 0.15), (orders, errors)
    assert np.all(np.abs(orders[-2:, 1] - h1_rate) < 0.15), (orders, errors)
