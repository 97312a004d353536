r"""Nearly incompressible hyperelastic solids of revolution without volumetric locking: F-bar
in axisymmetry, total Lagrangian.

The axisymmetric counterpart of :mod:`fem2d.fe.fbar`. At each quadrature point the
deformation gradient :math:`F` of :mod:`fem2d.fe.axisymmetric_hyperelastic` (its five
components rr, rz, zr, zz and the hoop stretch :math:`1 + u_r/R`) is replaced by

.. math::

    \bar F = \alpha F, \qquad \alpha = \Big(\frac{J_0}{J}\Big)^{1/3}, \qquad
    J = \det F = (F_{rr} F_{zz} - F_{rz} F_{zr}) F_{\theta\theta},

with :math:`J_0` the volume change of the cell (of its ring: deformed volume over reference
volume), :math:`J_0 = \sum_q dV_q J_q / V`, :math:`V = \sum_q dV_q`, :math:`dV_q = w_q \det J_q
\, 2\pi R_q`: :math:`\bar F` keeps the isochoric part of :math:`F` and takes the cell's
volume change, :math:`\det \bar F = J_0`. (The volume change at the cell's centre, the
classical choice in plane strain, would not leave a homogeneous deformation in equilibrium
here: the weight :math:`2\pi R` makes the mean of the shape gradients over a cell differ from
their value at its centre.) The power is 1/3 (the three directions r, z
and :math:`\theta` share the change), not the 1/2 of plane strain. The cell's energy is the
law's at :math:`\bar F`, integrated with the weight :math:`2\pi R\, dA`; its force and
tangent are that energy's exact gradient and Hessian. With :math:`\varphi = \ln J_0`,
:math:`D_q` the (constant) map of the nodal displacements to :math:`F_q`'s five components,
:math:`\bar P = \bar F S(\bar F)`, :math:`\mathbb{A}` the law's :math:`\partial \bar P /
\partial \bar F`, :math:`s = \tfrac13 \bar P : \bar F`, :math:`y = (F, \varphi)`,
:math:`a = \partial\alpha/\partial y = \tfrac{\alpha}{3}(-F^{-T}, 1)`,
:math:`\bar D = \partial \bar F / \partial y = \alpha (\mathbb{I}, 0) + F \otimes a` and
:math:`Q(F)_{aJ,bK} = F^{-1}_{Jb} F^{-1}_{Ka}` (:math:`-\partial^2 \ln J / \partial F^2`):

.. math::

    f = \sum_q dV_q \big(D_q^T w_F + s_q \nabla\varphi\big), \qquad w_F = \alpha \bar P - s F^{-T}, \\
    K = \sum_q dV_q \big(D_q^T w_{FF} D_q + D_q^T w_{F\varphi} \otimes \nabla\varphi
    + \nabla\varphi \otimes D_q^T w_{F\varphi} + w_{\varphi\varphi} \nabla\varphi \otimes \nabla\varphi
    + s_q \nabla^2\varphi\big), \\
    w_{yy} = \bar D^T \mathbb{A} \bar D + (\bar P, 0) \otimes a + a \otimes (\bar P, 0)
    + 3 s \Big(\frac{a \otimes a}{\alpha^2} + \frac13 \begin{pmatrix} Q(F) & 0 \\ 0 & 0
    \end{pmatrix}\Big),

and, with :math:`\nabla J_0 = \tfrac1V \sum_q dV_q J_q D_q^T F_q^{-T}` and
:math:`\nabla^2 J_0 = \tfrac1V \sum_q dV_q J_q D_q^T (F_q^{-T} \otimes F_q^{-T} - Q(F_q)) D_q`,
:math:`\nabla\varphi = \nabla J_0 / J_0`, :math:`\nabla^2 \varphi = \nabla^2 J_0 / J_0 -
\nabla\varphi \otimes \nabla\varphi`.

Example: a homogeneous deformation, one volume change everywhere, is left as it is (the
energy and force of :func:`~fem2d.fe.axisymmetric_hyperelastic.axisymmetric_hyperelastic_cells`):

>>> from fem2d.fe.axisymmetric_hyperelastic import axisymmetric_hyperelastic_cells
>>> X = np.array([[0.0, 0.0], [0.5, 0.0], [0.5, 1.0], [0.0, 1.0]])
>>> cell = CellBlock("quad4", np.arange(4)[None])
>>> u = (X * [0.1, -0.3]).ravel()
>>> a = axisymmetric_fbar_cells(X, cell, u, "neo_hookean", 1.0, 0.45)
>>> b = axisymmetric_hyperelastic_cells(X, cell, u, "neo_hookean", 1.0, 0.45)
>>> bool(np.allclose(a.force, b.force, rtol=1e-12)), bool(np.isclose(a.energy[0], b.energy[0], rtol=1e-12))
(True, True)
"""

from __future__ import annotations

import numpy as np

from fem2d.fe.axisymmetric import radial_weights
from fem2d.fe.axisymmetric_hyperelastic import (
    COMPONENTS,
    _gradients,
    _inverse_block,
    axisymmetric_material_response,
)
from fem2d.fe.elasticity import CHUNK
from fem2d.fe.elements import reference_element
from fem2d.fe.geometry import cell_geometry, check_jacobians
from fem2d.fe.hyperelastic_laws import check_law, lame
from fem2d.fe.quadrature import QuadratureRule
from fem2d.fe.response import CellResponse, cell_positions, raise_inverted
from fem2d.mesh.mesh import CellBlock

_I3 = np.eye(3)
_ROWS, _COLS = np.array(COMPONENTS).T


def _log_det(H: np.ndarray) -> np.ndarray:
    """ln det(I + H) of block gradients (..., 3, 3), NaN where the in-plane block's
    determinant or the hoop stretch is not positive."""
    j2 = H[..., 0, 0] + H[..., 1, 1] + H[..., 0, 0] * H[..., 1, 1] - H[..., 0, 1] * H[..., 1, 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.log1p(j2) + np.log1p(H[..., 2, 2])
    return np.where((j2 > -1.0) & (H[..., 2, 2] > -1.0), out, np.nan)


def _inverse_terms(H: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:math:`F^{-T}` (..., 5) and :math:`Q(F)` (..., 5, 5) on the five components."""
    Fi = _inverse_block(_I3 + H)
    Fit = np.swapaxes(Fi, -1, -2)[..., _ROWS, _COLS]
    Q = np.einsum("...Jb,...Ka->...aJbK", Fi, Fi)[..., _ROWS, _COLS, :, :][..., _ROWS, _COLS]
    return Fit, Q


def _volume_change(H: np.ndarray, D: np.ndarray, dV: np.ndarray, order: int):
    r"""``(phi, dphi, d2phi)``: :math:`\varphi = \ln J_0` of each cell (c,), its gradient
    (c, 2 nn) and Hessian (c, 2 nn, 2 nn), :math:`J_0` the cell's volume change (its deformed
    ring's volume over its reference one); NaN where a determinant is <= 0. ``order`` 0: ``phi``
    alone (None for the others), 1: and its gradient."""
    lnJ = _log_det(H)
    V = dV.sum(axis=1)
    with np.errstate(invalid="ignore"):
        phi = np.log1p((dV * np.expm1(lnJ)).sum(axis=1) / V)
    if order == 0:
        return phi, None, None
    J0 = np.exp(phi)
    w = dV * np.exp(lnJ) / (V * J0)[:, None]  # dV_q J_q / (V J_0)
    Fit, Q = _inverse_terms(H)
    nc, nq = dV.shape
    Dm = D.reshape(nc, nq, -1, 5)
    DF = np.einsum("cqim,cqm->cqi", Dm, Fit)
    dphi = np.einsum("cq,cqi->ci", w, DF)
    if order == 1:
        return phi, dphi, None
    d2J = np.einsum("cq,cqi,cqj->cij", w, DF, DF) - np.einsum("cqim,cqmn,cqjn->cij", Dm * w[..., None, None], Q, Dm,
                                                             optimize=True)
    return phi, dphi, d2J - np.einsum("ci,cj->cij", dphi, dphi)


def _fbar(H: np.ndarray, phi: np.ndarray):
    """``(Hbar, alpha, ok)`` of the gradients H (c, q, 3, 3) and the cells' ``phi`` (c,)."""
    lnJ = _log_det(H)
    ok = np.isfinite(lnJ).all(axis=1) & np.isfinite(phi)
    third = (phi[:, None] - lnJ) / 3.0
    third[~ok] = np.nan
    alpha = np.exp(third)
    return alpha[..., None, None] * H + np.expm1(third)[..., None, None] * _I3, alpha, ok


def axisymmetric_fbar_cells(
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
    r"""Energy, internal force and tangent of F-bar hyperelastic axisymmetric cells (module
    docstring; whole ring), every cell at once. Parameters, returns and errors as
    :func:`~fem2d.fe.axisymmetric_hyperelastic.axisymmetric_hyperelastic_cells`
    (``InvertedCells`` where :math:`\det F \le 0` at a quadrature point).

    Examples
    --------
    At rest the tangent is symmetric and holds the rigid slide along the axis in its kernel:

    >>> X = np.array([[0.2, 0.0], [0.7, 0.0], [0.7, 1.0], [0.2, 1.0]])
    >>> K = axisymmetric_fbar_cells(X, CellBlock("quad4", np.arange(4)[None]), np.zeros(8), "neo_hookean",
    ...                             1.0, 0.4999).tangent[0]
    >>> bool(np.allclose(K, K.T)), float(np.abs(K @ [0, 1, 0, 1, 0, 1, 0, 1]).max()) < 1e-12
    (True, True)
    """
    check_law(law)
    mu, lam = lame(E, nu)
    _, ue = cell_positions(points, block, u)
    nc, nn = block.nodes.shape
    energy = np.zeros(nc)
    force = np.zeros((nc, 2 * nn))
    KT = np.zeros((nc, 2 * nn, 2 * nn)) if tangent else None
    n_bad = 0
    for start in range(0, nc, CHUNK):  # chunks of cells, not a loop per cell
        sub = CellBlock(block.kind, block.nodes[start : start + CHUNK])
        m = len(sub)
        geo = cell_geometry(points, sub, rule, group, check=False)
        check_jacobians(geo.det, block.kind, group, offset=start)
        H, D = _gradients(ue[start : start + m], geo, geo.x[..., 0])
        dV = geo.dx * radial_weights(geo.x)
        n_bad += int((~np.isfinite(_log_det(H)).all(axis=1)).sum())
        if n_bad:
            continue  # only count the rest
        phi, dphi, d2phi = _volume_change(H, D, dV, 2 if tangent else 1)  # J_0 > 0: a mean of J > 0
        Hbar, alpha, _ = _fbar(H, phi)
        W, S, CC = axisymmetric_material_response(Hbar, law, mu, lam, tangent)
        Fbar = _I3 + Hbar
        nq = dV.shape[1]
        energy[start : start + m] = np.einsum("cq,cq->c", dV, W)
        Fit, Q = _inverse_terms(H)
        P = (Fbar @ S)[..., _ROWS, _COLS]  # (c, q, 5)
        s = np.einsum("cqm,cqm->cq", P, Fbar[..., _ROWS, _COLS]) / 3.0
        wF = alpha[..., None] * P - s[..., None] * Fit
        Dm = D.reshape(m, nq, 2 * nn, 5)
        s_total = np.einsum("cq,cq->c", dV, s)
        force[start : start + m] = np.einsum("cqim,cqm->ci", Dm, wF * dV[..., None]) + s_total[:, None] * dphi
        if not tangent:
            continue
        A = (np.einsum("...aI,...IJKL,...bK->...aJbL", Fbar, CC, Fbar, optimize=True)
             + np.einsum("ab,...JL->...aJbL", _I3, S))[..., _ROWS, _COLS, :, :][..., _ROWS, _COLS]
        a = (alpha / 3.0)[..., None] * np.concatenate([-Fit, np.ones((m, nq, 1))], axis=-1)  # (c, q, 6)
        Dbar = np.einsum("cqk,cqy->cqky", (_I3 + H)[..., _ROWS, _COLS], a)
        Dbar[..., :5] += alpha[..., None, None] * np.eye(5)
        P6 = np.concatenate([P, np.zeros((m, nq, 1))], axis=-1)
        curv = np.einsum("cqy,cqz->cqyz", a, a) / (alpha**2)[..., None, None]
        curv[..., :5, :5] += Q / 3.0
        w = (np.swapaxes(Dbar, -1, -2) @ A @ Dbar + np.einsum("cqy,cqz->cqyz", P6, a)
             + np.einsum("cqy,cqz->cqyz", a, P6) + 3.0 * s[..., None, None] * curv)
        Ddv = Dm * dV[..., None, None]
        c = np.einsum("cqim,cqm->ci", Ddv, w[..., :5, 5])
        KT[start : start + m] = (
            np.einsum("cqim,cqmn,cqjn->cij", Ddv, w[..., :5, :5], Dm, optimize=True)
            + np.einsum("ci,cj->cij", c, dphi) + np.einsum("ci,cj->cij", dphi, c)
            + np.einsum("cq,cq->c", dV, w[..., 5, 5])[:, None, None] * np.einsum("ci,cj->cij", dphi, dphi)
            + s_total[:, None, None] * d2phi
        )
    if n_bad:
        raise_inverted(n_bad, group)
    return CellResponse(energy=energy, force=force, tangent=KT)


def axisymmetric_fbar_cauchy_cell_nodal_stresses(
    points: np.ndarray, block: CellBlock, u: np.ndarray, law: str, E: float, nu: float
) -> np.ndarray:
    r"""Cauchy stress of each F-bar axisymmetric cell at its own nodes (Pa), shape (nc, nn, 4):
    (rr, zz, rz, tt), :math:`\sigma = \bar F S(\bar F) \bar F^T / J_0`, with :math:`\bar F` made
    at each node from :math:`F` there (the hoop stretch's limit :math:`1 + \partial u_r/\partial R`
    on the axis) and the cell's :math:`J_0`.

    Raises
    ------
    InvertedCells
        If ``det F <= 0`` at a node or a quadrature point of some cell.

    Examples
    --------
    A homogeneous deformation is left as it is: the stresses of
    :func:`~fem2d.fe.axisymmetric_hyperelastic.axisymmetric_cauchy_cell_nodal_stresses`.

    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> u = (X * [0.0, 0.1]).ravel()
    >>> axisymmetric_fbar_cauchy_cell_nodal_stresses(X, CellBlock("quad4", [[0, 1, 2, 3]]), u,
    ...                                              "saint_venant_kirchhoff", 2.6, 0.3)[0, 0].round(6)
    array([0.143182, 0.40425 , 0.      , 0.143182])
    """
    check_law(law)
    mu, lam = lame(E, nu)
    _, ue = cell_positions(points, block, u)
    gauss = cell_geometry(points, block, None, check=False)
    H, D = _gradients(ue, gauss, gauss.x[..., 0])
    phi, _, _ = _volume_change(H, D, gauss.dx * radial_weights(gauss.x), 0)
    element = reference_element(block.kind)
    geo = cell_geometry(points, block, QuadratureRule(element.nodes, np.ones(element.n_nodes)), check=False)
    R = geo.x[..., 0]
    scale = float(np.abs(np.asarray(points)[:, 0]).max(initial=0.0)) or 1.0
    on_axis = np.abs(R) <= 1e-12 * scale
    H, _ = _gradients(ue, geo, np.where(on_axis, 1.0, R))
    H[..., 2, 2] = np.where(on_axis, H[..., 0, 0], H[..., 2, 2])  # the limit of u_r / R
    Hbar, _, ok = _fbar(H, phi)
    if not ok.all():
        raise_inverted(int((~ok).sum()), None)
    _, S, _ = axisymmetric_material_response(Hbar, law, mu, lam, tangent=False)
    Fbar = _I3 + Hbar
    sigma = Fbar @ S @ np.swapaxes(Fbar, -1, -2) / np.exp(phi)[:, None, None, None]
    return np.stack([sigma[..., 0, 0], sigma[..., 1, 1], sigma[..., 0, 1], sigma[..., 2, 2]], axis=-1)
