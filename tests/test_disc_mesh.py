"""The full-disc (wheel) builder: valid cells, the area of the disc, the rim on the
circle and counter-clockwise, its groups, its bad parameters."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from fem2d.errors import MeshError
from fem2d.fe.boundary import edge_orientation, outward_normals
from fem2d.fe.geometry import cell_geometry
from fem2d.fe.norms import integrate_over_cells
from fem2d.fe.quadrature import nodal_rule
from fem2d.mesh import BUILDERS
from fem2d.mesh.mesh import NODES_PER_CELL
from fem2d.mesh.wheel import disc

RADIUS = 0.4


def _area(mesh) -> float:
    return float(integrate_over_cells(mesh.points, mesh.group("DISC"), lambda x, y: np.ones_like(x)).sum())


def _corner_angles(mesh) -> np.ndarray:
    """Interior angle (degrees) at every corner of every (counter-clockwise) cell."""
    c = mesh.points[mesh.group("DISC").corners]
    ahead, behind = np.roll(c, -1, axis=1) - c, np.roll(c, 1, axis=1) - c
    cross = ahead[..., 0] * behind[..., 1] - ahead[..., 1] * behind[..., 0]
    return np.degrees(np.arctan2(cross, np.sum(ahead * behind, axis=-1))) % 360.0


@pytest.mark.parametrize("element", ["quad4", "quad8"])
@pytest.mark.parametrize(("cells", "rings", "refine"), [(8, None, 0), (2, 1, 1), (4, 3, 0), (6, 5, 1)])
def test_cells_are_valid_well_shaped_and_counted(element, cells, rings, refine):
    mesh = disc(element, refine, radius=RADIUS, cells=cells, rings=rings)
    block = mesh.group("DISC")
    n, m = cells * 2**refine, (cells // 2 if rings is None else rings) * 2**refine
    assert block.nodes.shape == (n * n + 4 * n * m, NODES_PER_CELL[element])
    geometry = cell_geometry(mesh.points, block, check=True)  # raises on a det J <= 0
    assert np.all(geometry.det > 0)
    angles = _corner_angles(mesh)
    assert angles.max() == pytest.approx(135.0, abs=1e-9)  # at the corners of the central square
    assert angles.min() > 45.0
    # every node belongs to a cell, and no two nodes coincide
    assert np.array_equal(np.unique(block.nodes), np.arange(mesh.n_nodes))
    assert len(np.unique(mesh.points.round(12), axis=0)) == mesh.n_nodes


def test_area_converges_to_pi_r_squared_quad8_far_faster():
    exact = math.pi * RADIUS**2
    errors = {element: [abs(_area(disc(element, level, radius=RADIUS, cells=4)) / exact - 1.0) for level in range(4)]
              for element in ("quad4", "quad8")}
    q4, q8 = np.array(errors["quad4"]), np.array(errors["quad8"])
    # straight rim chords: an error of (2 pi / 16 / 2**level)^2 / 6, a factor of 4 a level
    assert q4 / 4.0 ** -np.arange(4) == pytest.approx((2 * math.pi / 16) ** 2 / 6, rel=0.05)
    assert np.all(q8[1:] / q8[:-1] < 1 / 14)  # the quadratic rim: a factor of 16 a level
    assert np.all(q8 < 1e-2 * q4)
    assert q8[0] < 1e-4


@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_rim_on_the_circle_counter_clockwise_and_closed(element):
    mesh = disc(element, 1, radius=RADIUS, cells=4, rings=2)
    rim = mesh.group("RIM")
    assert rim.kind == ("seg3" if element == "quad8" else "seg2")
    centre = np.array([0.0, RADIUS])
    on_rim = np.unique(rim.nodes)
    assert len(on_rim) == len(rim) * (rim.nodes.shape[1] - 1)  # every end on two edges, a mid-side on one
    assert np.abs(np.linalg.norm(mesh.points[on_rim] - centre, axis=1) - RADIUS).max() < 1e-12 * RADIUS
    # counter-clockwise around the disc: each edge's node order runs counter-clockwise around its cell
    orientation = edge_orientation(mesh, "RIM", ["DISC"])
    assert np.all(orientation == 1.0)
    normals = outward_normals(mesh.points, rim, orientation, nodal_rule(rim.kind))
    radial = mesh.points[rim.nodes] - centre
    radial /= np.linalg.norm(radial, axis=-1, keepdims=True)
    cosine = np.sum(normals * radial, axis=-1)
    assert cosine.min() > (0.9999 if element == "quad8" else 0.95)
    # a closed loop: each edge starts where the previous one ends, the angle growing
    assert np.array_equal(rim.nodes[:, 0], np.roll(rim.nodes[:, 1], 1))
    start = mesh.points[rim.nodes[:, 0]] - centre
    turn = np.diff(np.unwrap(np.arctan2(start[:, 1], start[:, 0])))
    assert np.all(turn > 0) and np.sum(turn) == pytest.approx(2 * math.pi * (1 - 1 / len(rim)), rel=1e-12)


@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_groups_and_their_nodes(element):
    mesh = disc(element, 0, radius=RADIUS, cells=2)
    assert set(mesh.groups) == {"DISC", "RIM", "CENTRE", "BOTTOM", "TOP"}
    assert mesh.points[mesh.node("CENTRE")].tolist() == [0.0, RADIUS]
    assert mesh.points[mesh.node("BOTTOM")].tolist() == [0.0, 0.0]
    assert mesh.points[mesh.node("TOP")].tolist() == [0.0, 2 * RADIUS]
    rim = np.unique(mesh.group("RIM").nodes)
    assert mesh.node("BOTTOM") in rim and mesh.node("TOP") in rim and mesh.node("CENTRE") not in rim
    assert mesh.points[:, 1].min() == 0.0  # the disc touches y = 0 at the origin only
    assert np.sum(mesh.points[:, 1] == 0.0) == 1
    assert BUILDERS["disc"] is disc


@pytest.mark.parametrize(
    ("params", "message"),
    [({"radius": -1.0}, "disc: radius must be a length in [1e-06, 1e+150] m, got -1.0"),
     ({"radius": float("nan")}, "disc: radius"),
     ({"cells": 3}, "disc: cells must be an even integer >= 2, got 3"),
     ({"cells": 0}, "disc: cells must be an even integer"),
     ({"cells": 4.0}, "disc: cells must be an even integer"),
     ({"rings": 0}, "disc: rings must be an integer >= 1, got 0"),
     ({"refine": 9}, "disc: refine must be an integer in 0..8"),
     ({"element": "tri3"}, "element must be 'quad4' or 'quad8'")],
)
def test_bad_parameters_are_one_line_mesh_errors(params, message):
    with pytest.raises(MeshError, match=re.escape(message)) as info:
        disc(**params)
    assert "\n" not in str(info.value)
