"""Hooke matrices and element stiffness: symmetry, rigid-body modes, known values."""

import numpy as np
import pytest

from fem2d.errors import InputError, MeshError
from fem2d.fe import (
    assemble_matrix,
    elasticity_matrix,
    gauss_strains,
    node_dofs,
    stiffness_matrices,
    von_mises,
)
from fem2d.mesh import CellBlock, rectangle, sliding_block


def test_hooke_matrices():
    E, nu = 2.0e11, 0.3
    strain = elasticity_matrix(E, nu, "plane_strain")
    lam, mu = E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))
    np.testing.assert_allclose(strain, [[lam + 2 * mu, lam, 0], [lam, lam + 2 * mu, 0], [0, 0, mu]], rtol=1e-14)
    compliance = np.array([[1, -nu, 0], [-nu, 1, 0], [0, 0, 2 * (1 + nu)]]) / E
    np.testing.assert_allclose(elasticity_matrix(E, nu, "plane_stress") @ compliance, np.eye(3), atol=1e-14)
    np.testing.assert_allclose(elasticity_matrix(2.1e11, 0.0), np.diag([2.1e11, 2.1e11, 1.05e11]), rtol=1e-15)
    for bad in [dict(E=-1.0, nu=0.3), dict(E=1.0, nu=0.5), dict(E=1.0, nu=0.2, hypothesis="axis")]:
        with pytest.raises(InputError):
            elasticity_matrix(**bad)


def test_quad4_unit_square_plane_stress_textbook_entries():
    # K_11 = E t (3 - nu) / (6 (1 - nu^2)), K_12 = E t (1 + nu) / (8 (1 - nu^2)) for a square
    E, nu, t = 1.0, 0.3, 0.1
    pts = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    K = stiffness_matrices(pts, CellBlock("quad4", [[0, 1, 2, 3]]), elasticity_matrix(E, nu, "plane_stress"), t)[0]
    assert abs(K[0, 0] - E * t * (3 - nu) / (6 * (1 - nu**2))) < 1e-15
    assert abs(K[0, 1] - E * t * (1 + nu) / (8 * (1 - nu**2))) < 1e-15
    assert abs(K[0, 4] - (-E * t * (3 - nu) / (12 * (1 - nu**2)))) < 1e-15  # opposite corner, xx


@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_symmetry_and_three_rigid_body_modes(element):
    mesh = rectangle(2.0, 1.0, 2, 2, element)
    pts = mesh.points + np.random.default_rng(5).uniform(-0.05, 0.05, mesh.points.shape)  # skew the cells
    body = mesh.group("BODY")
    Ke = stiffness_matrices(pts, body, elasticity_matrix(1e9, 0.3, "plane_strain"))
    np.testing.assert_allclose(Ke, Ke.transpose(0, 2, 1), rtol=0, atol=1e-12 * np.abs(Ke).max())
    for k in Ke:
        eig = np.linalg.eigvalsh(k)
        assert (np.abs(eig[:3]) < 1e-10 * eig[-1]).all()
        assert eig[3] > 1e-4 * eig[-1]  # exactly three zero modes: full integration has no hourglass
    # the three rigid modes are in the null space of the assembled matrix
    K = assemble_matrix(Ke, node_dofs(body.nodes), 2 * mesh.n_nodes)
    x, y = pts.T
    for mode in (
        np.column_stack([np.ones_like(x), 0 * x]),
        np.column_stack([0 * x, np.ones_like(x)]),
        np.column_stack([-y, x]),
    ):
        assert np.abs(K @ mode.ravel()).max() < 1e-10 * abs(K).max()


def test_reduced_integration_shows_hourglass_modes():
    # the test above can fail: 1x1 Gauss on QUAD4 leaves two spurious zero-energy modes
    from fem2d.fe import gauss_rule

    pts = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    k = stiffness_matrices(
        pts, CellBlock("quad4", [[0, 1, 2, 3]]), elasticity_matrix(1.0, 0.3), rule=gauss_rule("quad4", 1)
    )[0]
    eig = np.linalg.eigvalsh(k)
    assert (np.abs(eig[:5]) < 1e-12).all()


def test_inverted_cell_in_stiffness_is_named_with_its_block_id():
    mesh = sliding_block("quad4", 1)
    patin = mesh.group("PATIN")
    nodes = patin.nodes.copy()
    nodes[57] = nodes[57][[0, 3, 2, 1]]
    with pytest.raises(MeshError, match=r"group 'PATIN'.*cell ids \[57\]"):
        stiffness_matrices(mesh.points, CellBlock("quad4", nodes), elasticity_matrix(1.0, 0.0), group="PATIN")


def test_strains_of_a_rigid_rotation_are_zero_and_von_mises():
    mesh = rectangle(1.0, 1.0, 2, 2, "quad8")
    x, y = mesh.points.T
    theta = 1e-3  # infinitesimal rotation: u = theta (-y, x)
    u = theta * np.column_stack([-y, x]).ravel()
    assert np.abs(gauss_strains(mesh.points, mesh.group("BODY"), u)).max() < 1e-15
    # uniaxial stress s: von Mises s; pure shear t: sqrt(3) t; plane strain adds sigma_zz = nu (sxx + syy)
    assert abs(von_mises(np.array([5.0, 0.0, 0.0]), hypothesis="plane_stress") - 5.0) < 1e-14
    assert abs(von_mises(np.array([0.0, 0.0, 2.0])) - 2 * np.sqrt(3)) < 1e-14
    assert abs(von_mises(np.array([1.0, 1.0, 0.0]), nu=0.5) - 0.0) < 1e-14  # hydrostatic
