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

from fem2d.fe.elasticity import CHUNK
from fem2d.fe.elements import reference_element
from fem2d.fe.fbar import fbar_cauchy_cell_nodal_stresses, fbar_cells
from fem2d.fe.geometry import cell_geometry, check_jacobians
from fem2d.fe.hyperelastic_laws import LAWS, check_law, lame, material_response
from fem2d.fe.plane_stress import plane_stress_response
from fem2d.fe.quadrature import QuadratureRule
from fem2d.fe.response import (
    CellResponse,
    InvertedCells,
    cell_positions,
    displacement_gradients,
    inverted_cells,
    raise_inverted,
)
from fem2d.mesh.mesh import CellBlock

__all__ = ["LAWS", "InvertedCells", "cauchy_cell_nodal_stresses", "hyperelastic_cells", "lame", "material_response"]

_I2 = np.eye(2)


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
    plane_stress: bool = False,
) -> CellResponse:
    r"""Energy, internal force and tangent of hyperelastic plane-strain or plane-stress cells
    (total Lagrangian).

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
    plane_stress : bool
        A thin sheet free on its faces: :math:`S_{33} = 0` at every point
        (:func:`fem2d.fe.plane_stress.plane_stress_response`); the default is plane strain,
        :math:`F_{33} = 1`. ``thickness`` is the sheet's reference thickness.

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
    if fbar and plane_stress:
        raise ValueError("F-bar is for plane strain: a plane-stress sheet's thickness is free to change")
    if fbar:
        return fbar_cells(points, block, u, law, E, nu, thickness, rule, group, tangent)
    check_law(law)
    response = plane_stress_response if plane_stress else material_response
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
        H = displacement_gradients(ue[start : start + m], geo.grad)
        F = _I2 + H
        J = F[..., 0, 0] * F[..., 1, 1] - F[..., 0, 1] * F[..., 1, 0]
        bad.extend(inverted_cells(J, start))
        if bad:
            continue  # only count the rest
        W, S, _, CC = response(F, law, mu, lam, tangent, H)
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
        raise_inverted(len(bad), group)
    return CellResponse(
        energy=energy,
        force=force.reshape(nc, 2 * nn),
        tangent=None if KT is None else KT.reshape(nc, 2 * nn, 2 * nn),
    )


def cauchy_cell_nodal_stresses(
    points: np.ndarray, block: CellBlock, u: np.ndarray, law: str, E: float, nu: float, fbar: bool = False,
    plane_stress: bool = False,
) -> np.ndarray:
    r"""Cauchy stress of each cell at its own nodes (Pa), shape (nc, nn, 4): (xx, yy, xy, zz).

    :math:`F` is evaluated at the reference positions of the element's nodes, and

    .. math::

        \sigma = \frac{1}{J} F S F^T, \qquad \sigma_{zz} = \frac{S_{33}}{J}
        \quad (F_{33} = 1),

    with :math:`S, S_{33}` from :func:`material_response`: :math:`S_{33} = \lambda \operatorname{tr} E`
    (Saint Venant-Kirchhoff), :math:`\lambda \ln J` (neo-Hookean). ``fbar``: those of
    :math:`\bar F` (:func:`fem2d.fe.fbar.fbar_cauchy_cell_nodal_stresses`). ``plane_stress``:
    :math:`\sigma = F S F^T / (J \lambda_3)` with the sheet's thinning
    :math:`\lambda_3 = \sqrt{C_{33}}` (:func:`fem2d.fe.plane_stress.plane_stress_response`),
    and :math:`\sigma_{zz} = 0`.

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

    The same square as a thin sheet (:math:`\lambda^* = 6/7`):
    :math:`S_{xx} = (\lambda^* + 2 \mu) E_{xx} = 0.3`, :math:`S_{yy} = \lambda^* E_{xx} = 0.09`, the sheet
    thinned to :math:`C_{33} = 1 - 2 \lambda E_{xx} / (\lambda + 2 \mu) = 0.91`,
    :math:`\sigma = F S F^T / (1.1 \sqrt{0.91})`, no stress across it:

    >>> cauchy_cell_nodal_stresses(X, block, u, "saint_venant_kirchhoff", 2.6, 0.3, plane_stress=True)[0, 0].round(6)
    array([0.345934, 0.085769, 0.      , 0.      ])
    """
    if fbar and plane_stress:
        raise ValueError("F-bar is for plane strain: a plane-stress sheet's thickness is free to change")
    if fbar:
        return fbar_cauchy_cell_nodal_stresses(points, block, u, law, E, nu)
    check_law(law)
    mu, lam = lame(E, nu)
    _, ue = cell_positions(points, block, u)
    element = reference_element(block.kind)
    at_nodes = QuadratureRule(element.nodes, np.ones(element.n_nodes))
    geo = cell_geometry(points, block, at_nodes, check=False)
    H = displacement_gradients(ue, geo.grad)
    F = _I2 + H
    J = F[..., 0, 0] * F[..., 1, 1] - F[..., 0, 1] * F[..., 1, 0]
    bad = inverted_cells(J)
    if len(bad):
        raise_inverted(len(bad), None)
    if plane_stress:
        _, S, C33, _ = plane_stress_response(F, law, mu, lam, tangent=False, H=H)
        J, S33 = J * np.sqrt(C33), np.zeros_like(J)
    else:
        _, S, S33, _ = material_response(F, law, mu, lam, tangent=False, H=H)
    sigma = np.einsum("cqaI,cqIJ,cqbJ->cqab", F, S, F) / J[..., None, None]
    return np.stack([sigma[..., 0, 0], sigma[..., 1, 1], sigma[..., 0, 1], S33 / J], axis=-1)
