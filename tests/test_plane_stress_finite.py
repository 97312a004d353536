"""Finite strain in plane stress: the out-of-plane stretch solved at each point (S33 = 0), checked
against the thin sheet's exact uniaxial response, the elastica of a thin strip, and the law's own
derivatives (the stress is dW/dE, the tangent dS/dE on the condensed law)."""

from __future__ import annotations

import numpy as np
import pytest

import fem2d
from fem2d.case.loading import load_case
from fem2d.exact.compression import uniaxial_plane_stress
from fem2d.fe.hyperelastic import hyperelastic_cells
from fem2d.fe.hyperelastic_laws import lame
from fem2d.fe.plane_stress import plane_stress_response
from fem2d.mesh.mesh import CellBlock
from fem2d.runs.result import run

LAWS = ("neo_hookean", "saint_venant_kirchhoff")


def _strain_derivative(F, law, mu, lam, which):
    """Central differences in E of the energy (which = 0) or of the stress (which = 1)."""
    C = F.T @ F
    out = np.zeros((2, 2) if which == 0 else (2, 2, 2, 2))
    h = 1e-6
    for K in range(2):
        for L in range(2):
            dC = np.zeros((2, 2))
            dC[K, L] += h
            dC[L, K] += h  # dE_KK = h, or dE_KL = dE_LK = h / 2: either way the change is S_KL h
            values = []
            for sign in (1.0, -1.0):
                Cs = C + sign * dC
                Fs = np.linalg.cholesky(Cs).T  # any F with F^T F = C: the law depends on C only
                W, S, _, _ = plane_stress_response(Fs, law, mu, lam, tangent=False)
                values.append(W if which == 0 else S)
            out[..., K, L] = (values[0] - values[1]) / (2.0 * h)
    return out


@pytest.mark.parametrize("law", LAWS)
def test_the_stress_is_the_energy_derivative_and_the_faces_are_free(law):
    mu, lam = lame(3.0, 0.35)
    F = np.array([[1.3, 0.2], [-0.1, 0.8]])
    W, S, C33, CC = plane_stress_response(F, law, mu, lam)
    assert np.allclose(_strain_derivative(F, law, mu, lam, 0), S, rtol=1e-7, atol=1e-9)
    assert np.allclose(_strain_derivative(F, law, mu, lam, 1), CC, rtol=1e-6, atol=1e-8)
    # the three-dimensional law's S33 at (C, C33) vanishes
    C = F.T @ F
    if law == "neo_hookean":
        lnJ = 0.5 * np.log(np.linalg.det(C) * C33)
        assert abs(mu * (1.0 - 1.0 / C33) + lam * lnJ / C33) < 1e-14
    else:
        E = 0.5 * (C - np.eye(2))
        assert abs(lam * (E[0, 0] + E[1, 1] + 0.5 * (C33 - 1.0)) + mu * (C33 - 1.0)) < 1e-14


@pytest.mark.parametrize("law", LAWS)
@pytest.mark.parametrize("kind", ["quad4", "quad8"])
def test_the_cell_tangent_is_the_force_derivative(law, kind):
    rng = np.random.default_rng(3)
    if kind == "quad4":
        X = np.array([[0.0, 0.0], [1.0, 0.1], [1.2, 1.0], [-0.1, 0.9]])
    else:
        corners = np.array([[0.0, 0.0], [1.0, 0.1], [1.2, 1.0], [-0.1, 0.9]])
        X = np.vstack([corners, 0.5 * (corners + np.roll(corners, -1, axis=0))])
    block = CellBlock(kind, [list(range(len(X)))])
    u = 0.15 * rng.standard_normal(2 * len(X))
    out = hyperelastic_cells(X, block, u, law, 2.0e3, 0.3, thickness=0.01, plane_stress=True)
    h = 1e-7
    numeric = np.zeros_like(out.tangent[0])
    for j in range(u.size):
        du = np.zeros_like(u)
        du[j] = h
        plus = hyperelastic_cells(X, block, u + du, law, 2.0e3, 0.3, thickness=0.01, plane_stress=True,
                                  tangent=False).force[0]
        minus = hyperelastic_cells(X, block, u - du, law, 2.0e3, 0.3, thickness=0.01, plane_stress=True,
                                   tangent=False).force[0]
        numeric[:, j] = (plus - minus) / (2.0 * h)
    assert np.allclose(out.tangent[0], numeric, rtol=1e-6, atol=1e-6 * np.abs(numeric).max())
    assert np.allclose(out.tangent[0], out.tangent[0].T, atol=1e-9 * np.abs(numeric).max())


def test_at_rest_the_sheet_is_hookes_plane_stress():
    block = CellBlock("quad4", [[0, 1, 2, 3]])
    X = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [0.0, 1.0]])
    body = fem2d.Body("BODY", E=2.0e11, nu=0.3, rho=1.0, hypothesis="plane_stress", thickness=0.01)
    K = body.cell_stiffness(X, block)[0]
    for law in LAWS:
        out = hyperelastic_cells(X, block, np.zeros(8), law, 2.0e11, 0.3, thickness=0.01, plane_stress=True)
        assert np.allclose(out.tangent[0], K, rtol=1e-12, atol=1e-12 * np.abs(K).max())


@pytest.mark.parametrize("law", LAWS)
@pytest.mark.parametrize("element", ["quad4", "quad8"])
@pytest.mark.parametrize("nu", [0.3, 0.45])
def test_a_sheet_compressed_by_30_percent_carries_the_exact_force(law, element, nu):
    overrides = {"model.hypothesis": "plane_stress", "model.thickness": 0.01, "materials.0.law": law,
                 "materials.0.nu": nu, "mesh.element": element, "exact.model": "plane_stress_compression"}
    result = run(load_case("compression", overrides=overrides))
    assert result.checks and all(check["passed"] for check in result.checks), result.checks
    exact = uniaxial_plane_stress(0.7, law, 1.0e7, nu)
    assert result.quantities["TOP_reaction_y"] == pytest.approx(exact.nominal_stress * 1.0 * 0.01, rel=1e-7)
    assert result.quantities["x_at_1.00"] == pytest.approx(exact.lateral_stretch - 1.0, rel=1e-7)


def test_a_thin_strip_bends_into_the_elastica():
    """P L^2 / EI up to 10 with EI = E t h^3 / 12 (plane stress: E, not E / (1 - nu^2)); the mesh's
    error with nu = 0.3 is 2e-4 at 40 x 2 QUAD8 (3.6e-3 at 20 x 1, where the clamp's Poisson effect
    is one cell deep: plane strain at nu = 0.3 is 7e-3 off there)."""
    overrides = {"model.hypothesis": "plane_stress", "model.thickness": 0.01, "materials.0.nu": 0.3,
                 "mesh.params.nx": 40, "mesh.params.ny": 2}
    result = run(load_case("elastica", overrides=overrides))
    assert result.checks and all(check["passed"] for check in result.checks), result.checks
    assert max(abs(check["relative_error"]) for check in result.checks) < 1e-3


def test_f_bar_on_a_sheet_is_refused():
    with pytest.raises(fem2d.ModelError, match="volumetric: .*plane_stress does not lock"):
        fem2d.Body("SHEET", E=1.0, nu=0.3, rho=1.0, hypothesis="plane_stress", kinematics="finite",
                   law="neo_hookean", volumetric="bbar")
