"""The contact patch test on matching meshes: a block pressed on a block of the same length.

The slave surface's end nodes sit exactly at the master's ends. A softer, more
compressible upper block (nu = 0.45 on a block 10 times stiffer with nu = 0)
spreads past them by a few millimetres under the pressure; they must stay paired
(a share of an edge past the end), carry their part of the load, and the pressure
add up to the load, with penalty and Lagrange, with friction.
"""

from __future__ import annotations

import numpy as np
import pytest
from gridmesh import compose

from fem2d.contact import LagrangeFormulation, PenaltyFormulation
from fem2d.contact.problem import make_zone
from fem2d.contact.search import END_TOLERANCE, project
from fem2d.contact.surface import master_surface
from fem2d.mesh.mesh import CellBlock
from fem2d.model import Body, Contact, Model, Pressure, Report, Support, TimeStepping
from fem2d.runs.static import StaticAnalysis

P = 1e4  # Pa on the upper block's top, 1 m wide


def pressed_blocks(method) -> StaticAnalysis:
    mesh = compose({"LOW": (0.0, 0.0, 1.0, 0.5, 4, 2), "UP": (0.0, 0.5, 1.0, 1.0, 4, 2)})
    model = Model(mesh, bodies=[Body("LOW", E=1e7, nu=0.0, rho=1.0), Body("UP", E=1e6, nu=0.45, rho=1.0)],
                  supports=[Support("LOW_BOTTOM", ("dx", "dy"))], loads=[Pressure("UP_TOP", P)],
                  contacts=[Contact("UP_BOTTOM", "LOW_TOP", mu=0.3, method=method)])
    return StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0), report=Report("UP_SW", "dx"))


@pytest.mark.parametrize("method", [PenaltyFormulation(), LagrangeFormulation()], ids=["penalty", "lagrange"])
def test_the_end_nodes_of_a_block_as_long_as_its_support_stay_paired(method):
    result = pressed_blocks(method).run()
    forces = result.histories["slave_normal_force"][-1]
    assert len(forces) == 5 and np.all(forces > 0.1 * P / 4), forces  # every node carries load, the ends too
    assert forces.sum() == pytest.approx(P, rel=1e-3)
    assert forces[0] == pytest.approx(forces[-1], rel=1e-6)  # symmetric: nothing slid
    assert result.warnings == []


def test_a_node_just_past_the_masters_end_pairs_and_one_farther_does_not():
    pts = np.array([[1.0 + 1e-3, 0.01], [1.0 + 0.2, 0.01], [0.0, 0.01], [0.25, 0.01],
                    [0.0, 0.0], [0.5, 0.0], [1.0, 0.0]])
    zone = make_zone(pts, CellBlock("seg2", [[2, 3]]), CellBlock("seg2", [[5, 4], [6, 5]]), 0.0)
    surface = master_surface(zone, orientation="left")  # the body below the edges, which run to -x
    assert surface.end_reach == pytest.approx(END_TOLERANCE * 0.25)
    proj = project(surface, zone.reference, pts[:2])
    assert proj.outside.tolist() == [False, True]
    assert abs(proj.xi[0]) == 1.0 and proj.gap[0] == pytest.approx(0.01)
