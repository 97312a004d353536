r"""Hyperelastic cells in plane strain, total Lagrangian: energy, internal force
and tangent of Saint Venant-Kirchhoff and compressible neo-Hookean materials,
and the Cauchy stress they carry.

The deformation gradient at a point of reference position :math:`X` is
:math:`F = I + \sum_j u_j \otimes \partial N_j/\partial X` (2x2, :math:`F_{33} = 1`),
:math:`C = F^T F`, :math:`J = \det F`; the second Piola-Kirchhoff stress
:math:`S = \partial W/\partial E` and the material tangent
:math:`\mathbb{C} = \partial S/\partial E` (:math:`E = (C - I)/2`) come from the
strain energy per unit reference volume :math:`W`.
"""

from __future__ import annotations

import numpy as np

from fem2d.errors import InputError
from fem2d.fe.elasticity import CHUNK, elasticity_matrix
from fem2d.fe.elements import reference_element
from fem2d.fe.geometry import cell_geometry, check_jacobians
from fem2d.fe.quadrature import QuadratureRule
from fem2d.fe.response import CellResponse, InvertedCells, cell_positions
from fem2d.mesh.mesh import CellBlock

LAWS = ("saint_venant_kirchhoff", "neo_hookean")

_I2 = np.eye(2)


def lame(E: float, nu: float) -> tuple[float, float]:
    r"""Lamé coefficients ``(mu, lam)`` (Pa) of Young's modulus and Poisson's ratio.

    .. math::

        \mu = \frac{E}{2 (1 + \nu)}, \qquad \lambda = \frac{E \nu}{(1 + \nu)(1 - 2 \nu)}

    Examples
    --------
    >>> lame(2.5, 0.25)
    (1.0, 1.0)
    """
    elasticity_matrix(E, nu)  # checks E > 0 and -1 < nu < 1/2
    return E / (2.0 * (1.0 + nu)), E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))


def _check_law(law: str) -> None:
    if law not in LAWS:
        raise InputError(f"hyperelastic: law must be one of {', '.join(LAWS)}, got {law!r}")


def _inverse(C: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Inverse and determinant of a stack of 2x2 matrices (..., 2, 2)."""
    det = C[..., 0, 0] * C[..., 1, 1] - C[..., 0, 1] * C[..., 1, 0]
    adj = np.stack([np.stack([C[..., 1, 1], -C[..., 0, 1]], -1), np.stack([-C[..., 1, 0], C[..., 0, 0]], -1)], -2)
    return adj / det[..., None, None], det


def material_response(F: np.ndarray, law: str, mu: float, lam: float, tangent: bool = True,
                      H: np.ndarray | None = None):
    r"""Energy density, 2nd Piola-Kirchhoff stress and material tangent of a plane-strain
    deformation gradient.

    Saint Venant-Kirchhoff, :math:`E = (C - I)/2` (:math:`E_{33} = 0`):

    .. math::

        W = \tfrac{\lambda}{2} (\operatorname{tr} E)^2 + \mu E:E, \quad
        S = \lambda \operatorname{tr} E\, I + 2 \mu E, \quad
        \mathbb{C}_{IJKL} = \lambda \delta_{IJ}\delta_{KL} + \mu (\delta_{IK}\delta_{JL} + \delta_{IL}\delta_{JK}),
        \quad S_{33} = \lambda \operatorname{tr} E.

    Compressible neo-Hookean, :math:`I_1 = C_{11} + C_{22} + 1`:

    .. math::

        W = \tfrac{\mu}{2} (I_1 - 3 - 2 \ln J) + \tfrac{\lambda}{2} (\ln J)^2, \quad
        S = \mu (I - C^{-1}) + \lambda \ln J\, C^{-1}, \\
        \mathbb{C}_{IJKL} = \lambda C^{-1}_{IJ} C^{-1}_{KL}
        + (\mu - \lambda \ln J)(C^{-1}_{IK} C^{-1}_{JL} + C^{-1}_{IL} C^{-1}_{JK}),
        \quad S_{33} = \mu (1 - C_{33}^{-1}) + \lambda \ln J\, C_{33}^{-1} = \lambda \ln J.

    Parameters
    ----------
    F : ndarray, shape (..., 2, 2)
        In-plane deformation gradients with ``det F > 0``.
    law : {"saint_venant_kirchhoff", "neo_hookean"}
    mu, lam : float
        Lamé coefficients (Pa), see :func:`lame`.
    tangent : bool
        Also return the material tangent.
    H : ndarray, shape (..., 2, 2), optional
        The displacement gradient :math:`F - I`, when known: the strain is then made from it,
        :math:`2E = H + H^T + H^T H` (and :math:`\ln J = \operatorname{log1p}(\operatorname{tr} H
        + \det H)`), without the round-off of :math:`C - I` (1e-16, times a steel's
        modulus a stress of 2e-5 Pa, which a Newton iteration of a stiff body cannot get below).

    Returns
    -------
    W : ndarray, shape (...)
        Energy per unit reference volume (J/m^3).
    S : ndarray, shape (..., 2, 2)
        In-plane second Piola-Kirchhoff stress (Pa).
    S33 : ndarray, shape (...)
        Out-of-plane second Piola-Kirchhoff stress (Pa).
    CC : ndarray, shape (..., 2, 2, 2, 2), or None
        Material tangent (Pa).

    Examples
    --------
    >>> W, S, S33, CC = material_response(np.diag([1.1, 1.0]), "saint_venant_kirchhoff", 1.0, 2.0)
    >>> round(float(W), 6), S.round(3).tolist(), round(float(S33), 3)
    (0.02205, [[0.42, 0.0], [0.0, 0.21]], 0.21)
    """
    _check_law(law)
    C = np.swapaxes(F, -1, -2) @ F  # F^T F (matmul: einsum's generic loop is slow on 2 x 2 blocks)
    if H is None:
        two_E = C - _I2
    else:
        two_E = H + np.swapaxes(H, -1, -2) + np.swapaxes(H, -1, -2) @ H
    if law == "saint_venant_kirchhoff":
        Eg = 0.5 * two_E
        tr = Eg[..., 0, 0] + Eg[..., 1, 1]
        W = 0.5 * lam * tr**2 + mu * np.einsum("...IJ,...IJ->...", Eg, Eg)
        S = lam * tr[..., None, None] * _I2 + 2.0 * mu * Eg
        S33 = lam * tr
        CC = None
        if tangent:
            d = _I2
            CC0 = lam * np.einsum("IJ,KL->IJKL", d, d) + mu * (
                np.einsum("IK,JL->IJKL", d, d) + np.einsum("IL,JK->IJKL", d, d)
            )
            CC = np.broadcast_to(CC0, F.shape[:-2] + (2, 2, 2, 2))
        return W, S, S33, CC
    Ci, detC = _inverse(C)
    if H is None:
        lnJ = 0.5 * np.log(detC)
    else:
        lnJ = np.log1p(H[..., 0, 0] + H[..., 1, 1] + H[..., 0, 0] * H[..., 1, 1] - H[..., 0, 1] * H[..., 1, 0])
    W = 0.5 * mu * (two_E[..., 0, 0] + two_E[..., 1, 1] - 2.0 * lnJ) + 0.5 * lam * lnJ**2
    # I - C^-1 = C^-1 (C - I)
    S = mu * (Ci @ two_E) + (lam * lnJ)[..., None, None] * Ci
    S33 = lam * lnJ
    CC = None
    if tangent:
        coef = (mu - lam * lnJ)[..., None, None, None, None]
        CC = lam * np.einsum("...IJ,...KL->...IJKL", Ci, Ci) + coef * (
            np.einsum("...IK,...JL->...IJKL", Ci, Ci) + np.einsum("...IL,...JK->...IJKL", Ci, Ci)
        )
    return W, S, S33, CC


def _displacement_gradients(ue: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """``H[c, q, a, K] = sum_j u_ja dN_j/dX_K`` (``F = I + H``)."""
    ue = ue - ue.mean(axis=1, keepdims=True)  # the same gradient, without the round-off of a large translation
    return np.swapaxes(ue, 1, 2)[:, None] @ grad  # sum_j u_ja grad_qjk


def _inverted(J: np.ndarray, offset: int = 0) -> np.ndarray:
    """Ids of the cells with ``det F <= 0`` (or NaN) at some point."""
    return np.flatnonzero(~(J > 0).all(axis=1)) + offset


def _raise_inverted(n_bad: int, group: str | None) -> None:
    where = f"group {group!r}" if group else "cell block"
    raise InvertedCells(f"{where}: {n_bad} cell(s) turned inside out (det F <= 0 at a point); cut the step")


def hyperelastic_cells(
    points: np.ndarray,
    block: CellBlock,
    u: np.ndarray,
    law: str,
    E: float,
    nu: float,
    thickness: float = 1.0,
    rule: QuadratureRule | None = None,
    group: str | None = None,
    tangent: bool = True,
    fbar: bool = False,
) -> CellResponse:
    r"""Energy, internal force and tangent of hyperelastic plane-strain cells (total Lagrangian).

    With :math:`G_{jJ} = \partial N_j/\partial X_J` and the reference weights
    :math:`dX_q = w_q \det J_q` (see :func:`material_response` for :math:`W, S, \mathbb{C}`):

    .. math::

        W_e = t \sum_q dX_q\, W(F_q), \qquad
        f_{ia} = t \sum_q dX_q\, F_{aI} S_{IJ} G_{iJ}, \\
        K_{ia,jb} = t \sum_q dX_q\, G_{iJ}\,\big(F_{aI} \mathbb{C}_{IJKL} F_{bK}
        + \delta_{ab} S_{JL}\big)\, G_{jL}.

    At :math:`u = 0` the tangent is the plane-strain small-strain stiffness.

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
        Reference node coordinates (m).
    block : CellBlock
        2D cells (TRI3, TRI6, QUAD4, QUAD8, QUAD9).
    u : ndarray, shape (2 n_nodes,)
        Global interleaved displacement vector (m).
    law : {"saint_venant_kirchhoff", "neo_hookean"}
    E, nu : float
        Young's modulus (Pa) and Poisson's ratio of the small-strain limit.
    thickness : float
        Out-of-plane thickness (m).
    rule : QuadratureRule, optional
        Default Gauss rule of the cell kind.
    group : str, optional
        Group name, for messages.
    tangent : bool
        Also compute the tangent (default True).
    fbar : bool
        F-bar: the law at :math:`\bar F = (J_0 / J)^{1/2} F`, :math:`J_0` the volume change of
        the cell, for nearly incompressible bodies (:func:`fem2d.fe.fbar.fbar_cells`).

    Returns
    -------
    CellResponse

    Raises
    ------
    InvertedCells
        If ``det F <= 0`` at a quadrature point of some cell.
    MeshError
        If a cell of the reference mesh is inverted or degenerate.

    Examples
    --------
    A unit square stretched by 10 % along x (Saint Venant-Kirchhoff, mu = 1, lam = 1.5,
    :math:`E_{xx} = 0.105`, :math:`S_{xx} = 0.3675`): the right edge carries
    :math:`P_{xx} = F_{xx} S_{xx} = 0.40425` in all.

    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> block = CellBlock("quad4", [[0, 1, 2, 3]])
    >>> u = (X * [0.1, 0.0]).ravel()
    >>> out = hyperelastic_cells(X, block, u, "saint_venant_kirchhoff", 2.6, 0.3)
    >>> round(float(out.force[0, 2] + out.force[0, 4]), 6), round(float(out.energy[0]), 6)
    (0.40425, 0.019294)
    """
    if fbar:
        from fem2d.fe.fbar import fbar_cells  # (it builds on this module)

        return fbar_cells(points, block, u, law, E, nu, thickness, rule, group, tangent)
    _check_law(law)
    mu, lam = lame(E, nu)
    _, ue = cell_positions(points, block, u)
    nc, nn = block.nodes.shape
    energy = np.zeros(nc)
    force = np.zeros((nc, nn, 2))
    KT = np.zeros((nc, nn, 2, nn, 2)) if tangent else None
    bad = []
    for start in range(0, nc, CHUNK):  # chunks of cells, not a loop per cell
        sub = block.nodes[start : start + CHUNK]
        m = len(sub)
        geo = cell_geometry(points, CellBlock(block.kind, sub), rule, group, check=False)
        check_jacobians(geo.det, block.kind, group, offset=start)
        H = _displacement_gradients(ue[start : start + m], geo.grad)
        F = _I2 + H
        J = F[..., 0, 0] * F[..., 1, 1] - F[..., 0, 1] * F[..., 1, 0]
        bad.extend(_inverted(J, start))
        if bad:
            continue  # only count the rest
        W, S, _, CC = material_response(F, law, mu, lam, tangent, H)
        dx = geo.dx * thickness
        energy[start : start + m] = np.einsum("cq,cq->c", dx, W)
        P = F @ S
        force[start : start + m] = (geo.grad @ np.swapaxes(P * dx[..., None, None], -1, -2)).sum(axis=1)
        if tangent:
            nq = dx.shape[1]
            A = np.einsum("cqaI,cqIJKL,cqbK->cqaJbL", F, CC, F, optimize=True) + np.einsum("ab,cqJL->cqaJbL", _I2, S)
            GA = np.einsum("cqiJ,cqaJbL->ciabqL", geo.grad * dx[..., None, None], A).reshape(m, nn * 4, nq * 2)
            Kc = np.matmul(GA, geo.grad.transpose(0, 1, 3, 2).reshape(m, nq * 2, nn)).reshape(m, nn, 2, 2, nn)
            KT[start : start + m] = Kc.transpose(0, 1, 2, 4, 3)
    if bad:
        _raise_inverted(len(bad), group)
    return CellResponse(
        energy=energy,
        force=force.reshape(nc, 2 * nn),
        tangent=None if KT is None else KT.reshape(nc, 2 * nn, 2 * nn),
    )


def cauchy_cell_nodal_stresses(
    points: np.ndarray, block: CellBlock, u: np.ndarray, law: str, E: float, nu: float, fbar: bool = False
) -> np.ndarray:
    r"""Cauchy stress of each cell at its own nodes (Pa), shape (nc, nn, 4): (xx, yy, xy, zz).

    :math:`F` is evaluated at the reference positions of the element's nodes, and

    .. math::

        \sigma = \frac{1}{J} F S F^T, \qquad \sigma_{zz} = \frac{S_{33}}{J}
        \quad (F_{33} = 1),

    with :math:`S, S_{33}` from :func:`material_response`: :math:`S_{33} = \lambda \operatorname{tr} E`
    (Saint Venant-Kirchhoff), :math:`\lambda \ln J` (neo-Hookean). ``fbar``: those of
    :math:`\bar F` (:func:`fem2d.fe.fbar.fbar_cauchy_cell_nodal_stresses`).

    Raises
    ------
    InvertedCells
        If ``det F <= 0`` at a node of some cell.

    Examples
    --------
    The stretched square of :func:`hyperelastic_cells`:
    :math:`\sigma_{xx} = 1.1^2 \times 0.3675 / 1.1`, :math:`\sigma_{yy} = \sigma_{zz} = 0.1575 / 1.1`.

    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> block = CellBlock("quad4", [[0, 1, 2, 3]])
    >>> u = (X * [0.1, 0.0]).ravel()
    >>> cauchy_cell_nodal_stresses(X, block, u, "saint_venant_kirchhoff", 2.6, 0.3)[0, 0].round(6)
    array([0.40425 , 0.143182, 0.      , 0.143182])
    """
    if fbar:
        from fem2d.fe.fbar import fbar_cauchy_cell_nodal_stresses

        return fbar_cauchy_cell_nodal_stresses(points, block, u, law, E, nu)
    _check_law(law)
    mu, lam = lame(E, nu)
    _, ue = cell_positions(points, block, u)
    element = reference_element(block.kind)
    at_nodes = QuadratureRule(element.nodes, np.ones(element.n_nodes))
    geo = cell_geometry(points, block, at_nodes, check=False)
    H = _displacement_gradients(ue, geo.grad)
    F = _I2 + H
    J = F[..., 0, 0] * F[..., 1, 1] - F[..., 0, 1] * F[..., 1, 0]
    bad = _inverted(J)
    if len(bad):
        _raise_inverted(len(bad), None)
    _, S, S33, _ = material_response(F, law, mu, lam, tangent=False, H=H)
    sigma = np.einsum("cqaI,cqIJ,cqbJ->cqab", F, S, F) / J[..., None, None]
    return np.stack([sigma[..., 0, 0], sigma[..., 1, 1], sigma[..., 0, 1], S33 / J], axis=-1)
