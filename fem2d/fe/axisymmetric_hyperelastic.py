r"""Hyperelastic cells of a solid of revolution, total Lagrangian: energy, internal force
and tangent of Saint Venant-Kirchhoff and compressible neo-Hookean materials in
axisymmetry, and the Cauchy stress they carry.

The mesh's x is the reference radius :math:`R > 0`, its y the axis :math:`Z`; the
displacement :math:`(u_r, u_z)` does not depend on the angle. A point at radius
:math:`R` moves to :math:`r = R + u_r`, so the circle through it stretches by
:math:`r / R`: the deformation gradient in the basis :math:`(e_r, e_z, e_\theta)` is

.. math::

    F = \begin{pmatrix} 1 + \partial u_r/\partial R & \partial u_r/\partial Z & 0 \\
        \partial u_z/\partial R & 1 + \partial u_z/\partial Z & 0 \\
        0 & 0 & 1 + u_r / R \end{pmatrix},
    \qquad J = \det F = (F_{rr} F_{zz} - F_{rz} F_{zr})\, F_{\theta\theta},

and the laws are those of :mod:`fem2d.fe.hyperelastic` in three dimensions, the hoop
components included (:math:`C_{\theta\theta} = F_{\theta\theta}^2`, not 1 as in plane
strain). Every integral carries the weight :math:`2\pi R\, dA` of the reference ring:
energies, forces and tangents are totals over the whole circumference, as those of
:mod:`fem2d.fe.axisymmetric`, whose stiffness is this tangent at :math:`u = 0`. The
quadrature points lie inside the cells (:math:`R > 0`), so :math:`u_r / R` is finite
there; a node on the axis needs :math:`u_r = 0`, which a model holds
(:meth:`~fem2d.model.bodies.Body.axis_nodes`).
"""

from __future__ import annotations

import numpy as np

from fem2d.fe.axisymmetric import radial_weights
from fem2d.fe.elasticity import CHUNK
from fem2d.fe.elements import reference_element
from fem2d.fe.geometry import cell_geometry, check_jacobians
from fem2d.fe.hyperelastic_laws import check_law, lame
from fem2d.fe.quadrature import QuadratureRule
from fem2d.fe.response import CellResponse, InvertedCells, cell_positions, displacement_gradients, raise_inverted
from fem2d.mesh.mesh import CellBlock

#: The (row, column) of the five components of F that are not zero: rr, rz, zr, zz, tt.
COMPONENTS = ((0, 0), (0, 1), (1, 0), (1, 1), (2, 2))

_I3 = np.eye(3)


def _inverse_block(C: np.ndarray) -> np.ndarray:
    """Inverse of a stack of 3x3 matrices (..., 3, 3) whose only out-of-plane entry is (2, 2)."""
    det = C[..., 0, 0] * C[..., 1, 1] - C[..., 0, 1] * C[..., 1, 0]
    Ci = np.zeros_like(C)
    Ci[..., 0, 0] = C[..., 1, 1] / det
    Ci[..., 1, 1] = C[..., 0, 0] / det
    Ci[..., 0, 1] = -C[..., 0, 1] / det
    Ci[..., 1, 0] = -C[..., 1, 0] / det
    Ci[..., 2, 2] = 1.0 / C[..., 2, 2]
    return Ci


def axisymmetric_material_response(H: np.ndarray, law: str, mu: float, lam: float, tangent: bool = True):
    r"""Energy density, 2nd Piola-Kirchhoff stress and material tangent of a displacement gradient
    :math:`H = F - I` (3x3, zero but for its in-plane block and :math:`H_{33}`).

    The strain is made from :math:`H`, :math:`2E = H + H^T + H^T H`, and
    :math:`\ln J = \operatorname{log1p}(\operatorname{tr} H_2 + \det H_2) + \operatorname{log1p}(H_{33})`
    (:math:`H_2` the in-plane block), free of the round-off of :math:`C - I`.
    Saint Venant-Kirchhoff:

    .. math::

        W = \tfrac{\lambda}{2} (\operatorname{tr} E)^2 + \mu E:E, \quad
        S = \lambda \operatorname{tr} E\, I + 2 \mu E, \quad
        \mathbb{C}_{IJKL} = \lambda \delta_{IJ}\delta_{KL} + \mu (\delta_{IK}\delta_{JL} + \delta_{IL}\delta_{JK}).

    Compressible neo-Hookean, :math:`I_1 = \operatorname{tr} C`:

    .. math::

        W = \tfrac{\mu}{2} (I_1 - 3 - 2 \ln J) + \tfrac{\lambda}{2} (\ln J)^2, \quad
        S = \mu (I - C^{-1}) + \lambda \ln J\, C^{-1}, \\
        \mathbb{C}_{IJKL} = \lambda C^{-1}_{IJ} C^{-1}_{KL}
        + (\mu - \lambda \ln J)(C^{-1}_{IK} C^{-1}_{JL} + C^{-1}_{IL} C^{-1}_{JK}).

    With :math:`H_{33} = 0` these are the plane-strain ones of
    :func:`fem2d.fe.hyperelastic_laws.material_response`.

    Parameters
    ----------
    H : ndarray, shape (..., 3, 3)
        Displacement gradients, :math:`\det(I + H) > 0`.
    law : {"saint_venant_kirchhoff", "neo_hookean"}
    mu, lam : float
        Lamé coefficients (Pa), see :func:`fem2d.fe.hyperelastic_laws.lame`.
    tangent : bool
        Also return the material tangent.

    Returns
    -------
    W : ndarray, shape (...)
        Energy per unit reference volume (J/m^3).
    S : ndarray, shape (..., 3, 3)
        Second Piola-Kirchhoff stress (Pa).
    CC : ndarray, shape (..., 3, 3, 3, 3), or None
        Material tangent (Pa).

    Examples
    --------
    A uniform radial expansion by 10 % (:math:`F = \operatorname{diag}(1.1, 1, 1.1)`), Saint
    Venant-Kirchhoff with mu = 1, lam = 2: :math:`E_{rr} = E_{\theta\theta} = 0.105`,
    :math:`S_{rr} = 2 \times 0.21 + 2 \times 0.105`, :math:`S_{zz} = 0.42`,
    :math:`W = (\lambda/2)\, 0.21^2 + 2 \mu\, 0.105^2`.

    >>> W, S, CC = axisymmetric_material_response(np.diag([0.1, 0.0, 0.1]), "saint_venant_kirchhoff", 1.0, 2.0)
    >>> round(float(W), 6), np.diag(S).round(3).tolist()
    (0.06615, [0.63, 0.42, 0.63])
    """
    check_law(law)
    Ht = np.swapaxes(H, -1, -2)
    two_E = H + Ht + Ht @ H
    if law == "saint_venant_kirchhoff":
        Eg = 0.5 * two_E
        tr = np.trace(Eg, axis1=-2, axis2=-1)
        W = 0.5 * lam * tr**2 + mu * np.einsum("...IJ,...IJ->...", Eg, Eg)
        S = lam * tr[..., None, None] * _I3 + 2.0 * mu * Eg
        CC = None
        if tangent:
            d = _I3
            CC0 = lam * np.einsum("IJ,KL->IJKL", d, d) + mu * (
                np.einsum("IK,JL->IJKL", d, d) + np.einsum("IL,JK->IJKL", d, d))
            CC = np.broadcast_to(CC0, H.shape[:-2] + (3, 3, 3, 3))
        return W, S, CC
    Ci = _inverse_block(_I3 + two_E)
    lnJ = np.log1p(H[..., 0, 0] + H[..., 1, 1] + H[..., 0, 0] * H[..., 1, 1] - H[..., 0, 1] * H[..., 1, 0]) \
        + np.log1p(H[..., 2, 2])
    W = 0.5 * mu * (np.trace(two_E, axis1=-2, axis2=-1) - 2.0 * lnJ) + 0.5 * lam * lnJ**2
    S = mu * (Ci @ two_E) + (lam * lnJ)[..., None, None] * Ci  # I - C^-1 = C^-1 (C - I)
    CC = None
    if tangent:
        coef = (mu - lam * lnJ)[..., None, None, None, None]
        CC = lam * np.einsum("...IJ,...KL->...IJKL", Ci, Ci) + coef * (
            np.einsum("...IK,...JL->...IJKL", Ci, Ci) + np.einsum("...IL,...JK->...IJKL", Ci, Ci))
    return W, S, CC


def _gradients(ue: np.ndarray, geo, R: np.ndarray):
    """H (c, q, 3, 3) and the derivative D (c, q, nn, 2, 5) of F's five components
    (:data:`COMPONENTS`) with respect to the nodal displacements."""
    nc, nq, nn, _ = geo.grad.shape
    H = np.zeros((nc, nq, 3, 3))
    H[..., :2, :2] = displacement_gradients(ue, geo.grad)
    N = np.broadcast_to(geo.shape[None], (nc, nq, nn))
    with np.errstate(divide="ignore", invalid="ignore"):
        hoop = N / R[..., None]
    H[..., 2, 2] = np.einsum("cqj,cj->cq", hoop, ue[..., 0])
    D = np.zeros((nc, nq, nn, 2, 5))
    D[..., 0, 0] = geo.grad[..., 0]  # F_rr = 1 + du_r/dR
    D[..., 0, 1] = geo.grad[..., 1]  # F_rz = du_r/dZ
    D[..., 1, 2] = geo.grad[..., 0]  # F_zr = du_z/dR
    D[..., 1, 3] = geo.grad[..., 1]  # F_zz = 1 + du_z/dZ
    D[..., 0, 4] = hoop  # F_tt = 1 + u_r/R
    return H, D


def _jacobians(H: np.ndarray) -> np.ndarray:
    """det F, set to -1 where the in-plane block or the hoop stretch is not positive."""
    F = _I3 + H
    det2 = F[..., 0, 0] * F[..., 1, 1] - F[..., 0, 1] * F[..., 1, 0]
    return np.where((det2 > 0) & (F[..., 2, 2] > 0), det2 * F[..., 2, 2], -1.0)


def axisymmetric_hyperelastic_cells(
    points: np.ndarray,
    block: CellBlock,
    u: np.ndarray,
    law: str,
    E: float,
    nu: float,
    rule: QuadratureRule | None = None,
    group: str | None = None,
    tangent: bool = True,
) -> CellResponse:
    r"""Energy, internal force and tangent of hyperelastic axisymmetric cells (total Lagrangian,
    whole ring).

    With the five components :math:`F_m` of :math:`F` that are not zero (rr, rz, zr, zz,
    :math:`\theta\theta`), their derivatives :math:`D_{ia,m} = \partial F_m / \partial u_{ia}`
    (:math:`\partial N_i/\partial X_I` in-plane, :math:`N_i / R` for the hoop stretch and
    :math:`u_r`), :math:`P = F S` and :math:`A_{aJbL} = F_{aI} \mathbb{C}_{IJKL} F_{bK} +
    \delta_{ab} S_{JL}` (:func:`axisymmetric_material_response`), and the reference weights
    :math:`dV_q = w_q \det J_q\, 2\pi R_q`:

    .. math::

        W_e = \sum_q dV_q\, W(F_q), \qquad
        f_{ia} = \sum_q dV_q\, P_m D_{ia,m}, \qquad
        K_{ia,jb} = \sum_q dV_q\, D_{ia,m} A_{mn} D_{jb,n}.

    The force is the exact gradient of the energy and the tangent its exact Hessian
    (material and geometric parts). At :math:`u = 0` the tangent is the small-strain
    stiffness of :func:`~fem2d.fe.axisymmetric.axisymmetric_stiffness_matrices`.

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
        Reference node coordinates (m): x the radius :math:`R \ge 0`, y the axis.
    block : CellBlock
        2D cells (TRI3, TRI6, QUAD4, QUAD8, QUAD9).
    u : ndarray, shape (2 n_nodes,)
        Global interleaved displacement vector :math:`(u_r, u_z)` (m).
    law : {"saint_venant_kirchhoff", "neo_hookean"}
    E, nu : float
        Young's modulus (Pa) and Poisson's ratio of the small-strain limit.
    rule : QuadratureRule, optional
        Default Gauss rule of the cell kind (no point on the axis).
    group : str, optional
        Group name, for messages.
    tangent : bool
        Also compute the tangent (default True).

    Returns
    -------
    CellResponse
        Energies (J), forces (N) and tangents (N/m) of the whole ring.

    Raises
    ------
    InvertedCells
        If ``det F <= 0`` (or a hoop stretch :math:`\le 0`) at a quadrature point of some cell.
    MeshError
        If a cell of the reference mesh is inverted or degenerate.

    Examples
    --------
    The ring 1 < R < 2, 0 < Z < 1 stretched by 10 % along its axis (Saint Venant-Kirchhoff,
    mu = 1, lam = 1.5: :math:`E_{zz} = 0.105`, :math:`S_{zz} = 0.3675`): its top carries
    :math:`P_{zz} = 1.1 \times 0.3675` over the ring's area :math:`3\pi`, and the energy is
    :math:`W = (\lambda/2 + \mu) E_{zz}^2` times the volume :math:`3\pi`.

    >>> X = np.array([[1.0, 0.0], [2.0, 0.0], [2.0, 1.0], [1.0, 1.0]])
    >>> u = (X * [0.0, 0.1]).ravel()
    >>> out = axisymmetric_hyperelastic_cells(X, CellBlock("quad4", [[0, 1, 2, 3]]), u, "saint_venant_kirchhoff",
    ...                                       2.6, 0.3)
    >>> round(float(out.force[0, 5] + out.force[0, 7]) / (3 * np.pi), 6), round(float(out.energy[0]) / (3 * np.pi), 6)
    (0.40425, 0.019294)
    """
    check_law(law)
    mu, lam = lame(E, nu)
    _, ue = cell_positions(points, block, u)
    nc, nn = block.nodes.shape
    energy = np.zeros(nc)
    force = np.zeros((nc, nn * 2))
    KT = np.zeros((nc, nn * 2, nn * 2)) if tangent else None
    rows, cols = np.array(COMPONENTS).T
    bad = []
    for start in range(0, nc, CHUNK):  # chunks of cells, not a loop per cell
        sub = block.nodes[start : start + CHUNK]
        m = len(sub)
        geo = cell_geometry(points, CellBlock(block.kind, sub), rule, group, check=False)
        check_jacobians(geo.det, block.kind, group, offset=start)
        H, D = _gradients(ue[start : start + m], geo, geo.x[..., 0])
        J = _jacobians(H)
        bad.extend(np.flatnonzero(~(J > 0).all(axis=1)) + start)
        if bad:
            continue  # only count the rest
        W, S, CC = axisymmetric_material_response(H, law, mu, lam, tangent)
        F = _I3 + H
        dV = geo.dx * radial_weights(geo.x)
        energy[start : start + m] = np.einsum("cq,cq->c", dV, W)
        P = (F @ S)[..., rows, cols]  # (c, q, 5)
        Dm = D.reshape(m, D.shape[1], nn * 2, 5)
        force[start : start + m] = np.einsum("cqim,cqm->ci", Dm, P * dV[..., None])
        if tangent:
            A = np.einsum("...aI,...IJKL,...bK->...aJbL", F, CC, F, optimize=True) \
                + np.einsum("ab,...JL->...aJbL", _I3, S)
            A5 = A[..., rows, cols, :, :][..., rows, cols]  # (c, q, 5, 5)
            KT[start : start + m] = np.einsum("cqim,cqmn,cqjn->cij", Dm * dV[..., None, None], A5, Dm,
                                              optimize=True)
    if bad:
        raise_inverted(len(bad), group)
    return CellResponse(energy=energy, force=force, tangent=KT)


def axisymmetric_cauchy_cell_nodal_stresses(
    points: np.ndarray, block: CellBlock, u: np.ndarray, law: str, E: float, nu: float
) -> np.ndarray:
    r"""Cauchy stress of each cell at its own nodes (Pa), shape (nc, nn, 4): (rr, zz, rz, tt).

    :math:`F` is evaluated at the reference positions of the element's nodes, and

    .. math::

        \sigma = \frac{1}{J} F S F^T, \qquad
        \sigma_{\theta\theta} = \frac{F_{\theta\theta}^2 S_{\theta\theta}}{J},

    with :math:`S` from :func:`axisymmetric_material_response`. At a node on the axis
    (:math:`R = 0`) the hoop stretch is its limit :math:`1 + \partial u_r/\partial R`
    (for :math:`u_r = 0` there).

    Raises
    ------
    InvertedCells
        If ``det F <= 0`` at a node of some cell.

    Examples
    --------
    The axial stretch of :func:`axisymmetric_hyperelastic_cells`, on a cylinder 0 < R < 1
    (a node on the axis): :math:`\sigma_{zz} = 1.1^2 \times 0.3675 / 1.1`,
    :math:`\sigma_{rr} = \sigma_{\theta\theta} = \lambda E_{zz} / 1.1 = 0.1575 / 1.1`.

    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> u = (X * [0.0, 0.1]).ravel()
    >>> block = CellBlock("quad4", [[0, 1, 2, 3]])
    >>> axisymmetric_cauchy_cell_nodal_stresses(X, block, u, "saint_venant_kirchhoff", 2.6, 0.3)[0, 0].round(6)
    array([0.143182, 0.40425 , 0.      , 0.143182])
    """
    check_law(law)
    mu, lam = lame(E, nu)
    _, ue = cell_positions(points, block, u)
    element = reference_element(block.kind)
    at_nodes = QuadratureRule(element.nodes, np.ones(element.n_nodes))
    geo = cell_geometry(points, block, at_nodes, check=False)
    R = geo.x[..., 0]
    scale = float(np.abs(np.asarray(points)[:, 0]).max(initial=0.0)) or 1.0
    on_axis = np.abs(R) <= 1e-12 * scale
    H, _ = _gradients(ue, geo, np.where(on_axis, 1.0, R))
    H[..., 2, 2] = np.where(on_axis, H[..., 0, 0], H[..., 2, 2])  # the limit of u_r / R
    J = _jacobians(H)
    bad = np.flatnonzero(~(J > 0).all(axis=1))
    if len(bad):
        raise_inverted(len(bad), None)
    _, S, _ = axisymmetric_material_response(H, law, mu, lam, tangent=False)
    F = _I3 + H
    sigma = F @ S @ np.swapaxes(F, -1, -2) / J[..., None, None]
    return np.stack([sigma[..., 0, 0], sigma[..., 1, 1], sigma[..., 0, 1], sigma[..., 2, 2]], axis=-1)


__all__ = [
    "InvertedCells",
    "axisymmetric_cauchy_cell_nodal_stresses",
    "axisymmetric_hyperelastic_cells",
    "axisymmetric_material_response",
]
