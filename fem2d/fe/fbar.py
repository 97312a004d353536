r"""Nearly incompressible hyperelastic cells without volumetric locking: the F-bar method
(de Souza Neto, Peric, Dutko and Owen 1996), in plane strain, total Lagrangian.

The finite-strain counterpart of B-bar (:mod:`fem2d.fe.bbar`): at each quadrature point the
deformation gradient :math:`F` (2x2, :math:`F_{33} = 1`) is replaced by

.. math::

    \bar F = \alpha F, \qquad \alpha = \Big(\frac{J_0}{J}\Big)^{1/2}, \qquad
    J = \det F, \quad J_0 = \det F_0 ,

with :math:`F_0` the deformation gradient at the cell's centre (:math:`\xi = 0` on a quad,
the centroid of a triangle). :math:`\bar F` keeps the in-plane isochoric part of :math:`F`
(:math:`\bar F / \sqrt{\det \bar F} = F / \sqrt J`) and takes the centre's volume change,
:math:`\det \bar F = J_0`: one volume change per cell, as B-bar's constant pressure space.
The cell's energy is the law's (:func:`~fem2d.fe.hyperelastic.material_response`) at
:math:`\bar F`, integrated over the reference cell, and its force and tangent are that
energy's exact gradient and Hessian in the nodal displacements (symmetric; not the
usual :math:`G (F \mathbb{C} F + S) G` form):

.. math::

    W_e = t \sum_q dX_q\, W(\bar F_q), \qquad
    f = t \sum_q dX_q\, \mathcal{B}_q^T g_q, \qquad
    K = t \sum_q dX_q\, \mathcal{B}_q^T \mathcal{H}_q \mathcal{B}_q ,

where :math:`z = (F_q, F_0)` (8 numbers, linear in the nodal displacements:
:math:`\partial z / \partial u = \mathcal{B}_q`, :math:`\partial F_{aJ} / \partial u_{ib}
= \delta_{ab} \partial N_i / \partial X_J` at :math:`\xi_q` and at the centre), and with
:math:`\bar P = \bar F S(\bar F)`, :math:`\mathbb{A}_{aJbL} = \bar F_{aI} \mathbb{C}_{IJKL}
\bar F_{bK} + \delta_{ab} S_{JL}` (the law's :math:`\partial \bar P / \partial \bar F`):

.. math::

    a = \frac{\partial \alpha}{\partial z} = \frac{\alpha}{2}\,(-F^{-T},\ F_0^{-T}), \qquad
    D = \frac{\partial \bar F}{\partial z} = \alpha\, (\mathbb{I}, 0) + F \otimes a, \\
    g = D^T \bar P = \alpha (\bar P, 0) + (\bar P : F)\, a, \\
    \mathcal{H} = D^T \mathbb{A} D + (\bar P, 0) \otimes a + a \otimes (\bar P, 0)
    + (\bar P : F)\, \frac{\partial^2 \alpha}{\partial z^2}, \qquad
    \frac{\partial^2 \alpha}{\partial z^2} = \frac{a \otimes a}{\alpha}
    + \frac{\alpha}{2} \begin{pmatrix} Q(F) & 0 \\ 0 & -Q(F_0) \end{pmatrix},

:math:`Q(F)_{aJ,bK} = F^{-1}_{Jb} F^{-1}_{Ka}` (from :math:`\partial F^{-1}_{Ja} / \partial
F_{bK} = -F^{-1}_{Jb} F^{-1}_{Ka}`).

At :math:`u = 0` the tangent is the small-strain stiffness whose in-plane strain at a point is
:math:`\varepsilon + \tfrac12 (\theta_0 - \theta) I` (:math:`\theta` the dilatation,
:math:`\theta_0` its value at the centre, :math:`\varepsilon_{zz} = 0`). On QUAD4 the centre
value of a dilatation is its cell mean, so its volumetric part is B-bar's exactly; its
deviatoric part is not: B-bar spreads the change of dilatation over three directions
(:math:`\tfrac13 (\bar\theta - \theta)` on xx, yy and zz), plane-strain F-bar over the two
in-plane ones, so the two stiffnesses differ by a shear-modulus term that vanishes where
the dilatation is uniform in the cell (the patch test) and with the mesh size.

Which cells: any kind; a TRI3's :math:`F` is constant and F-bar changes nothing. QUAD8,
QUAD9 and TRI6 take the same centre value (one volume change per cell).

Example: a linear field, one volume change per cell already, is left as it is (the energy
and force of :func:`~fem2d.fe.hyperelastic.hyperelastic_cells`):

>>> from fem2d.fe.hyperelastic import hyperelastic_cells
>>> from fem2d.mesh.mesh import CellBlock
>>> X = np.array([[0.0, 0.0], [2.0, 0.2], [2.3, 1.1], [-0.1, 1.0]])
>>> cell = CellBlock("quad4", np.arange(4)[None])
>>> u = (X @ np.array([[0.2, 0.1], [-0.3, -0.1]])).ravel()
>>> a = fbar_cells(X, cell, u, "neo_hookean", 1.0, 0.45)
>>> b = hyperelastic_cells(X, cell, u, "neo_hookean", 1.0, 0.45)
>>> bool(np.allclose(a.force, b.force, rtol=1e-12)), bool(np.isclose(a.energy[0], b.energy[0], rtol=1e-12))
(True, True)
"""

from __future__ import annotations

import numpy as np

from fem2d.fe.elasticity import CHUNK
from fem2d.fe.elements import reference_element
from fem2d.fe.geometry import cell_geometry, check_jacobians
from fem2d.fe.hyperelastic import (
    _check_law,
    _displacement_gradients,
    _inverse,
    _raise_inverted,
    lame,
    material_response,
)
from fem2d.fe.quadrature import QuadratureRule
from fem2d.fe.response import CellResponse, cell_positions
from fem2d.mesh.mesh import CellBlock

_I2 = np.eye(2)


def cell_centre(kind: str) -> QuadratureRule:
    """The one-point rule at the centre of a cell of ``kind``: :math:`\\xi = 0` on a quad, the
    centroid of a triangle.

    >>> cell_centre("tri6").points.tolist()
    [[0.3333333333333333, 0.3333333333333333]]
    """
    return QuadratureRule(reference_element(kind).nodes[:3 if kind.startswith("tri") else 4].mean(axis=0)[None], [1.0])


def _det(H: np.ndarray) -> np.ndarray:
    """``det(I + H) - 1``, without the round-off of ``1 + ...``."""
    return H[..., 0, 0] + H[..., 1, 1] + H[..., 0, 0] * H[..., 1, 1] - H[..., 0, 1] * H[..., 1, 0]


def fbar_gradients(H: np.ndarray, H0: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""``(Hbar, alpha, ok)``: :math:`\bar H = \bar F - I = \alpha H + (\alpha - 1) I` of the
    displacement gradients ``H`` (..., nq, 2, 2) and ``H0`` (..., 1, 2, 2) at the centre,
    :math:`\alpha = (J_0 / J)^{1/2}` (``ok``: where both determinants are > 0; elsewhere
    ``alpha`` is NaN)."""
    j, j0 = _det(H), _det(H0)
    ok = (j > -1.0) & (j0 > -1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        half_log = 0.5 * (np.log1p(j0) - np.log1p(j))
    alpha = np.where(ok, np.exp(half_log), np.nan)
    Hbar = alpha[..., None, None] * H + np.expm1(half_log)[..., None, None] * _I2
    return Hbar, alpha, ok


def fbar_cells(
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
) -> CellResponse:
    r"""Energy, internal force and tangent of F-bar hyperelastic plane-strain cells (module
    docstring), every cell at once. Parameters, returns and errors as
    :func:`~fem2d.fe.hyperelastic.hyperelastic_cells` (``InvertedCells`` where
    :math:`\det F \le 0` at a quadrature point or at the centre).

    Examples
    --------
    On a square at nu = 0.4999 the full QUAD4 resists the bending mode u_x = x y, whose
    volumetric strain y averages to zero, with the bulk modulus (2223 times E); F-bar's tangent
    at u = 0 gives it a shear-modulus energy, the same order as B-bar's 1.037 E
    (:func:`~fem2d.fe.bbar.bbar_stiffness_matrices`):

    >>> xy = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    >>> cell = CellBlock("quad4", np.arange(4)[None])
    >>> bend = np.array([1.0, 0.0, -1.0, 0.0, 1.0, 0.0, -1.0, 0.0])  # u_x = x y
    >>> K = fbar_cells(xy, cell, np.zeros(8), "neo_hookean", 1.0, 0.4999).tangent[0]
    >>> round(float(bend @ K @ bend), 4)
    0.8889
    """
    _check_law(law)
    mu, lam = lame(E, nu)
    _, ue = cell_positions(points, block, u)
    nc, nn = block.nodes.shape
    energy = np.zeros(nc)
    force = np.zeros((nc, nn, 2))
    KT = np.zeros((nc, nn, 2, nn, 2)) if tangent else None
    centre = cell_centre(block.kind)
    n_bad = 0
    for start in range(0, nc, CHUNK):  # chunks of cells, not a loop per cell
        sub = CellBlock(block.kind, block.nodes[start : start + CHUNK])
        m = len(sub)
        geo = cell_geometry(points, sub, rule, group, check=False)
        check_jacobians(geo.det, block.kind, group, offset=start)
        grad0 = cell_geometry(points, sub, centre, group, check=False).grad  # (m, 1, nn, 2)
        H = _displacement_gradients(ue[start : start + m], geo.grad)
        H0 = _displacement_gradients(ue[start : start + m], grad0)
        Hbar, alpha, ok = fbar_gradients(H, H0)
        n_bad += int((~ok.all(axis=1)).sum())
        if n_bad:
            continue  # only count the rest
        Fbar = _I2 + Hbar
        W, S, _, CC = material_response(Fbar, law, mu, lam, tangent, Hbar)
        dx = geo.dx * thickness
        nq = dx.shape[1]
        energy[start : start + m] = np.einsum("cq,cq->c", dx, W)
        F = _I2 + H
        Fi, _ = _inverse(F)
        F0i = np.broadcast_to(_inverse(_I2 + H0)[0], F.shape)
        P = Fbar @ S
        PF = np.einsum("cqaJ,cqaJ->cq", P, F)
        half = 0.5 * alpha[..., None, None]
        a = np.concatenate([-half * np.swapaxes(Fi, -1, -2), half * np.swapaxes(F0i, -1, -2)], axis=-1)
        a = a.reshape(m, nq, 2, 2, 2).transpose(0, 1, 3, 2, 4).reshape(m, nq, 8)  # z = (slot, a, J)
        P8 = np.concatenate([P.reshape(m, nq, 4), np.zeros((m, nq, 4))], axis=-1)
        g = alpha[..., None] * P8 + PF[..., None] * a
        # the shape gradients of z = (F_q, F_0): (m, nq, nn, slot, J)
        Gz = np.stack([geo.grad, np.broadcast_to(grad0, geo.grad.shape)], axis=3)
        force[start : start + m] = np.einsum("cqisJ,cqsaJ->cia", Gz * dx[..., None, None, None],
                                             g.reshape(m, nq, 2, 2, 2))
        if not tangent:
            continue
        A = (np.einsum("cqaI,cqIJKL,cqbK->cqaJbL", Fbar, CC, Fbar, optimize=True)
             + np.einsum("ab,cqJL->cqaJbL", _I2, S)).reshape(m, nq, 4, 4)
        D = np.einsum("cqk,cqz->cqkz", F.reshape(m, nq, 4), a)
        D[..., :4] += alpha[..., None, None] * np.eye(4)
        Q = np.einsum("cqJb,cqKa->cqaJbK", Fi, Fi).reshape(m, nq, 4, 4)
        Q0 = np.einsum("cqJb,cqKa->cqaJbK", F0i, F0i).reshape(m, nq, 4, 4)
        d2 = np.einsum("cqy,cqz->cqyz", a, a) / alpha[..., None, None]
        d2[..., :4, :4] += half * Q
        d2[..., 4:, 4:] -= half * Q0
        Hz = (np.swapaxes(D, -1, -2) @ A @ D + np.einsum("cqy,cqz->cqyz", P8, a)
              + np.einsum("cqy,cqz->cqyz", a, P8) + PF[..., None, None] * d2)
        # (s, a, J, t, b, L) -> (a, sJ, b, tL), then sum_q Gz_i . Hz_ab . Gz_j as one matmul per cell
        Hz = Hz.reshape(m, nq, 2, 2, 2, 2, 2, 2).transpose(0, 1, 3, 2, 4, 6, 5, 7).reshape(m, nq, 2, 4, 2, 4)
        Gf = Gz.reshape(m, nq, nn, 4)
        GA = np.einsum("cqis,cqasbt->ciabqt", Gf * dx[..., None, None], Hz).reshape(m, nn * 4, nq * 4)
        Kc = np.matmul(GA, Gf.transpose(0, 1, 3, 2).reshape(m, nq * 4, nn)).reshape(m, nn, 2, 2, nn)
        KT[start : start + m] = Kc.transpose(0, 1, 2, 4, 3)
    if n_bad:
        _raise_inverted(n_bad, group)
    return CellResponse(
        energy=energy,
        force=force.reshape(nc, 2 * nn),
        tangent=None if KT is None else KT.reshape(nc, 2 * nn, 2 * nn),
    )


def fbar_cauchy_cell_nodal_stresses(
    points: np.ndarray, block: CellBlock, u: np.ndarray, law: str, E: float, nu: float
) -> np.ndarray:
    r"""Cauchy stress of each F-bar cell at its own nodes (Pa), shape (nc, nn, 4): (xx, yy, xy, zz),

    .. math::

        \sigma = \frac{1}{J_0} \bar F S(\bar F) \bar F^T, \qquad \sigma_{zz} = \frac{S_{33}}{J_0},

    with :math:`\bar F` made at each node from :math:`F` there and :math:`J_0` at the centre
    (:math:`\det \bar F = J_0`): the pressure of a cell is the one of its centre's volume change.

    Raises
    ------
    InvertedCells
        If ``det F <= 0`` at a node or at the centre of some cell.

    Examples
    --------
    A uniform stretch is left as it is: the square of
    :func:`~fem2d.fe.hyperelastic.cauchy_cell_nodal_stresses`.

    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> u = (X * [0.1, 0.0]).ravel()
    >>> fbar_cauchy_cell_nodal_stresses(X, CellBlock("quad4", [[0, 1, 2, 3]]), u, "saint_venant_kirchhoff",
    ...                                 2.6, 0.3)[0, 0].round(6)
    array([0.40425 , 0.143182, 0.      , 0.143182])
    """
    _check_law(law)
    mu, lam = lame(E, nu)
    _, ue = cell_positions(points, block, u)
    element = reference_element(block.kind)
    geo = cell_geometry(points, block, QuadratureRule(element.nodes, np.ones(element.n_nodes)), check=False)
    grad0 = cell_geometry(points, block, cell_centre(block.kind), check=False).grad
    Hbar, _, ok = fbar_gradients(_displacement_gradients(ue, geo.grad), _displacement_gradients(ue, grad0))
    bad = ~ok.all(axis=1)
    if bad.any():
        _raise_inverted(int(bad.sum()), None)
    Fbar = _I2 + Hbar
    J0 = 1.0 + _det(Hbar)
    _, S, S33, _ = material_response(Fbar, law, mu, lam, tangent=False, H=Hbar)
    sigma = np.einsum("cqaI,cqIJ,cqbJ->cqab", Fbar, S, Fbar) / J0[..., None, None]
    return np.stack([sigma[..., 0, 0], sigma[..., 1, 1], sigma[..., 0, 1], S33 / J0], axis=-1)
