"""F-bar for finite-strain solids of revolution (fem2d/fe/axisymmetric_fbar.py): exact derivatives,
the homogeneous patch test, a stable tangent under compression, and the locking it relieves."""

from __future__ import annotations

import numpy as np
import pytest
from test_axisymmetric_finite_strain import E, central_gradient, deformation, one_cell, rel

from fem2d.exact.cylinder_compression import uniaxial_cylinder
from fem2d.fe.axisymmetric_fbar import axisymmetric_fbar_cauchy_cell_nodal_stresses, axisymmetric_fbar_cells
from fem2d.fe.axisymmetric_hyperelastic import axisymmetric_hyperelastic_cells
from fem2d.fe.hyperelastic import LAWS
from fem2d.mesh import rectangle
from fem2d.runs.result import run


@pytest.mark.parametrize("law", LAWS)
@pytest.mark.parametrize("kind", ["quad4", "quad8", "tri3"])
@pytest.mark.parametrize("r0", [0.3, 0.0])
def test_force_and_tangent_are_the_exact_derivatives_of_the_energy(kind, law, r0):
    """Central differences (h = 1e-5) at nu = 0.4999: within 1e-7 (measured 7e-9 at worst)."""
    X, block = one_cell(kind, r0)
    u = deformation(X)
    out = axisymmetric_fbar_cells(X, block, u, law, E, 0.4999)
    energy = central_gradient(lambda v: axisymmetric_fbar_cells(X, block, v, law, E, 0.4999,
                                                                tangent=False).energy, u, 1e-5)
    tangent = central_gradient(lambda v: axisymmetric_fbar_cells(X, block, v, law, E, 0.4999,
                                                                 tangent=False).force, u, 1e-5)
    assert rel(out.force, energy) < 1e-7
    assert rel(out.tangent, tangent) < 1e-7
    assert rel(out.tangent, np.swapaxes(out.tangent, -1, -2)) < 1e-13


def _cylinder(kind: str = "quad4"):
    mesh = rectangle(0.5, 1.0, nx=4, ny=8, element=kind)
    X = mesh.points[:, :2]
    held = np.concatenate([2 * mesh.group_nodes("LEFT"), 2 * mesh.group_nodes("BOTTOM") + 1,
                           2 * mesh.group_nodes("TOP") + 1])
    free = np.setdiff1d(np.arange(2 * len(X)), held)
    block = mesh.group("BODY")
    dofs = (2 * block.nodes[..., None] + np.arange(2)).reshape(len(block), -1)
    return X, block, dofs, free


@pytest.mark.parametrize("law", LAWS)
def test_a_homogeneous_compression_is_an_equilibrium_of_the_same_energy(law):
    """u_r = (a - 1) R, u_z = (b - 1) Z with the a that frees the lateral surface (b = 0.7): the
    free dofs carry no force (the cell's volume change is its ring's, so the weight 2 pi R does not
    spoil the patch test), and the energy is the full cells'."""
    X, block, dofs, free = _cylinder()
    a = uniaxial_cylinder(0.7, law, E, 0.4999).lateral_stretch
    u = (X * [a - 1.0, -0.3]).ravel()
    out = axisymmetric_fbar_cells(X, block, u, law, E, 0.4999, tangent=False)
    f = np.bincount(dofs.ravel(), out.force.ravel(), minlength=u.size)
    assert np.abs(f[free]).max() < 1e-10 * np.abs(f).max()
    full = axisymmetric_hyperelastic_cells(X, block, u, law, E, 0.4999, tangent=False)
    assert out.energy.sum() == pytest.approx(full.energy.sum(), rel=1e-13)
    sigma = axisymmetric_fbar_cauchy_cell_nodal_stresses(X, block, u, law, E, 0.4999)
    exact = uniaxial_cylinder(0.7, law, E, 0.4999).cauchy_stress
    assert np.abs(sigma[..., 1] / exact - 1.0).max() < 1e-10


@pytest.mark.parametrize("nu", [0.3, 0.4999])
def test_the_tangent_stays_positive_definite_to_40_percent_compression(nu):
    """QUAD4, 4 x 8 cells, neo-Hookean: the smallest eigenvalue of the tangent on the free dofs
    stays above 7e-2 E (measured 7.8e-2 E at rest, 9e-2 E at 40 %)."""
    X, block, dofs, free = _cylinder()
    for b in (1.0, 0.8, 0.6):
        a = uniaxial_cylinder(b, "neo_hookean", E, nu).lateral_stretch
        out = axisymmetric_fbar_cells(X, block, (X * [a - 1.0, b - 1.0]).ravel(), "neo_hookean", E, nu)
        K = np.zeros((2 * len(X), 2 * len(X)))
        np.add.at(K, (dofs[:, :, None], dofs[:, None, :]), out.tangent)
        assert np.linalg.eigvalsh(K[np.ix_(free, free)])[0] > 7e-2 * E


def test_f_bar_relieves_the_locking_of_a_nearly_incompressible_thick_sphere():
    """The thick sphere (QUAD4) made finite and neo-Hookean at nu = 0.4999, under its small
    pressure: F-bar is within 2.4e-3 of Lame's displacements where the full cells miss them by
    76 %."""
    settings = {"materials.0.kinematics": "finite", "materials.0.law": "neo_hookean", "materials.0.nu": 0.4999}
    fbar = run("thick_sphere", settings | {"materials.0.volumetric": "bbar"})
    assert fbar.checks and max(abs(c["relative_error"]) for c in fbar.checks) < 3e-3, fbar.checks
    full = run("thick_sphere", settings)
    assert min(abs(c["relative_error"]) for c in full.checks) > 0.5
