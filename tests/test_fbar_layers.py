"""F-bar in bending: one layer of cells through the thickness is refused, four are right.

The elastica (cases/elastica.toml: nu = 0, 20 cells along, P L^2/EI = 1 at t = 0.1)
against the exact inextensible elastica, 0.3017 L of tip deflection."""

from __future__ import annotations

import re

import pytest

import fem2d
from fem2d.cli import main
from fem2d.errors import ModelError
from fem2d.exact.elastica import cantilever_tip
from fem2d.fe.fbar_layers import one_cell_thick, spanning_cells
from fem2d.mesh import rectangle
from fem2d.model import Body

FIRST_LEVEL = {"time.end": 0.1, "report.at_times": [0.1], "references": []}


@pytest.mark.parametrize("element", ["tri6", "quad8"])
def test_f_bar_on_one_layer_of_cells_is_refused_naming_the_key(tmp_path, capsys, element):
    status = main(["run", "elastica", "--set", 'materials.0.volumetric="bbar"', "--set", f'mesh.element="{element}"',
                   "--quiet", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 2 and len(err.splitlines()) == 1, err
    assert re.search(r"elastica\.toml: materials\[0\]\.volumetric: group 'BODY': F-bar .*: \d+ of its \d+ cells have "
                     r"every corner on its boundary: a single layer of cells through its thickness", err), err
    assert not (tmp_path / "result.json").exists()


def test_f_bar_on_four_layers_bends_within_four_percent_of_the_elastica():
    exact = cantilever_tip(1.0).deflection  # 0.30172 (L = 1 m)
    result = fem2d.run("elastica", {**FIRST_LEVEL, "materials.0.volumetric": "bbar", "mesh.element": "tri6",
                                    "mesh.params.ny": 4})
    deflection = -result.quantities["x_at_0.10"]
    assert 0.0 < deflection / exact - 1.0 < 0.04  # +3.4 %: the table of fem2d/fe/fbar_layers.py


def test_the_criterion_tells_one_layer_from_two_and_passes_a_single_cell():
    body = Body("BODY", E=1.0, nu=0.3, rho=1.0, kinematics="finite", volumetric="bbar")
    with pytest.raises(ModelError, match=r"volumetric: .*10 of its 10 cells have every corner on its boundary"):
        body.element_matrices(rectangle(1.0, 0.1, 10, 1, "quad8"))
    assert body.element_matrices(rectangle(1.0, 0.1, 10, 2, "quad8"))
    assert body.element_matrices(rectangle(1.0, 1.0, 1, 1, "quad4"))  # one cell: a homogeneous patch
    assert spanning_cells([rectangle(1.0, 1.0, 4, 4, "tri6").group("BODY")])[0] <= 2  # at most the corners
    assert one_cell_thick([rectangle(1.0, 1.0, 4, 4, "tri6").group("BODY")]) is None
