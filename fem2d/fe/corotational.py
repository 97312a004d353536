r"""Element-independent corotational kernel: the small-strain stiffness of a cell
in a frame that turns with it, so rigid rotations of any size cost no energy.

Each cell carries one rotation :math:`R(\theta_e)`, the rotation of the polar
decomposition :math:`F = R U` of the deformation gradient at the centre of the
reference element. The cell's displacement seen from that frame is taken
through its small-strain stiffness :math:`K_e`; force and tangent are the exact
first and second derivatives of the resulting energy, so Newton's method on it
converges quadratically.
"""

from __future__ import annotations

import numpy as np

from fem2d.errors import InputError
from fem2d.fe.assembly import node_dofs
from fem2d.fe.elements import reference_element
from fem2d.fe.geometry import cell_geometry
from fem2d.fe.quadrature import QuadratureRule
from fem2d.fe.response import CellResponse, InvertedCells, cell_positions
from fem2d.mesh.mesh import CellBlock


def _rotate(R: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Per-cell 2x2 matrices ``R`` (nc, 2, 2) applied to every node of ``v`` (nc, nn, 2)."""
    # einsum("cab,cjb->cja", R, v) written out: its generic loop (and matmul's on 2 x 2 blocks) is
    # several times slower than four products of (nc, nn) arrays
    x, y = v[..., 0], v[..., 1]
    out = np.empty(v.shape)
    out[..., 0] = R[:, 0, 0, None] * x + R[:, 0, 1, None] * y
    out[..., 1] = R[:, 1, 0, None] * x + R[:, 1, 1, None] * y
    return out


def _local_displacements(theta: np.ndarray, ue: np.ndarray, Xc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Each cell's rotation ``R(theta)`` (nc, 2, 2) and its nodes' displacement seen from it,
    :math:`u^{loc} = R^T x - X = R^T u + (R^T - I) X` (nc, nn, 2), with ``ue`` and ``Xc`` about
    each cell's mean node and :math:`\cos\theta - 1 = -2 \sin^2(\theta/2)` (no round-off of
    the positions' magnitude)."""
    c, s = np.cos(theta), np.sin(theta)
    R = np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)
    cm1 = -2.0 * np.sin(0.5 * theta) ** 2
    RtmI = np.stack([np.stack([cm1, s], -1), np.stack([-s, cm1], -1)], -2)
    return R, _rotate(R.transpose(0, 2, 1), ue) + _rotate(RtmI, Xc)


def corotational_frame(points: np.ndarray, block: CellBlock) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What :func:`corotational_cells` needs of the reference cells, made once for a run: the
    shape gradients at each cell's centre (nc, nn, 2), the nodes about each cell's mean
    reference node (nc, nn, 2) and the cells' dofs (nc, 2 nn)."""
    element = reference_element(block.kind)
    centre = QuadratureRule(element.nodes.mean(axis=0)[None, :], np.ones(1))
    g0 = cell_geometry(points, block, centre, check=False).grad[:, 0]  # (nc, nn, 2) dN_j/dX_k
    Xe = np.asarray(points, dtype=float)[:, :2][block.nodes]
    return g0, Xe - Xe.mean(axis=1, keepdims=True), node_dofs(block.nodes)


def corotational_cells(
    points: np.ndarray,
    block: CellBlock,
    u: np.ndarray,
    stiffness: np.ndarray,
    tangent: bool = True,
    frame: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> CellResponse:
    r"""Energy, internal force and tangent of cells that rotate rigidly by any angle.

    With the reference nodes :math:`X_j`, the current ones :math:`x_j = X_j + u_j`
    and the reference gradients :math:`g_j = \partial N_j/\partial X` at the centre
    of the reference element, the deformation gradient there is
    :math:`F = \sum_j x_j \otimes g_j`, and its rotation angle (2D polar
    decomposition) is

    .. math::

        \theta = \operatorname{atan2}(a, b), \quad
        a = F_{10} - F_{01} = A \cdot x, \quad b = F_{00} + F_{11} = B \cdot x,

    linear in the nodal positions. The displacement in the rotated frame and the energy are

    .. math::

        u^{loc}_j = R(\theta)^T x_j - X_j, \qquad W_e = \tfrac12 u^{loc\,T} K_e u^{loc}.

    With :math:`f = K_e u^{loc}`, :math:`g = \partial\theta/\partial x = (b A - a B)/(a^2 + b^2)`,
    :math:`v_j = R'^T x_j`, :math:`p_j = R' f_j` (:math:`R' = dR/d\theta`) and
    :math:`T = \mathrm{diag}(R^T) + v g^T = \partial u^{loc}/\partial x`:

    .. math::

        f^{int} = \mathrm{diag}(R) f + (v \cdot f)\, g, \\
        K^{T} = T^T K_e T + p g^T + g p^T - (x \cdot \mathrm{diag}(R) f)\, g g^T + (v \cdot f)\, H_\theta, \\
        H_\theta = \frac{A B^T - B A^T - g (2 a A + 2 b B)^T}{a^2 + b^2}
        \quad (\text{symmetric}).

    :math:`K_e` must annihilate translations (any small-strain stiffness does).

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
        Reference node coordinates (m).
    block : CellBlock
        2D cells (TRI3, TRI6, QUAD4, QUAD8, QUAD9).
    u : ndarray, shape (2 n_nodes,)
        Global interleaved displacement vector (m).
    stiffness : ndarray, shape (nc, 2 nn, 2 nn)
        Small-strain stiffness matrices of the cells (N/m), e.g. from
        :func:`~fem2d.fe.elasticity.stiffness_matrices` (plane strain or plane stress).
    tangent : bool
        Also compute the tangent (default True).
    frame : tuple, optional
        :func:`corotational_frame` of ``points`` and ``block``, kept by a caller that evaluates
        the same cells many times (made here when not given).

    Returns
    -------
    CellResponse

    Raises
    ------
    InvertedCells
        If :math:`\det F \le 0` at the centre of some cell (its rotation is then not that of
        a deformation; :math:`\det F > 0` also keeps :math:`a^2 + b^2 > 0`).

    Examples
    --------
    A unit square turned by 2 rad and moved stores no energy and feels no force:

    >>> from fem2d.fe.elasticity import elasticity_matrix, stiffness_matrices
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> block = CellBlock("quad4", [[0, 1, 2, 3]])
    >>> K = stiffness_matrices(X, block, elasticity_matrix(1.0e9, 0.3))
    >>> c, s = np.cos(2.0), np.sin(2.0)
    >>> u = (X @ np.array([[c, s], [-s, c]]) + [0.5, -1.0] - X).ravel()
    >>> out = corotational_cells(X, block, u, K)
    >>> bool(abs(out.energy[0]) < 1e-6 and np.abs(out.force).max() < 1e-5 * np.abs(K).max())
    True
    """
    nc, nn = block.nodes.shape
    K = np.asarray(stiffness, dtype=float)
    if K.shape != (nc, 2 * nn, 2 * nn):
        raise InputError(f"corotational: stiffness must have shape {(nc, 2 * nn, 2 * nn)}, got {K.shape}")
    if frame is None:
        frame = corotational_frame(points, block)
    g0, Xc, dofs = frame
    u = np.asarray(u, dtype=float).ravel()
    if u.size != len(points) * 2:
        cell_positions(points, block, u)  # its error names the sizes
    ue = u[dofs].reshape(nc, nn, 2)
    A = np.stack([-g0[..., 1], g0[..., 0]], axis=-1).reshape(nc, 2 * nn)  # a = F10 - F01 = A . x
    B = g0.reshape(nc, 2 * nn)  # b = F00 + F11 = B . x
    # Positions about each cell's mean reference node, and a, b, F from the displacement
    # (a(X) = 0, b(X) = 2, F(X) = I): differences of the positions' magnitude would leave a
    # round-off of 1e-16 |X| / h in the angle and of 1e-16 |X| in u_loc, which times a steel
    # cell's stiffness is a force of 1e-4 N where the displacements are 1e-4 m.
    ue = ue - ue.mean(axis=1, keepdims=True)  # a translation (a block slid 15 m) strains nothing
    xe = Xc + ue
    x = xe.reshape(nc, 2 * nn)
    u_flat = ue.reshape(nc, 2 * nn)
    a = np.einsum("ci,ci->c", A, u_flat)
    b = 2.0 + np.einsum("ci,ci->c", B, u_flat)
    r2 = a * a + b * b
    F = np.eye(2) + ue.transpose(0, 2, 1) @ g0  # sum_j u_ja g0_jk
    bad = ~(F[:, 0, 0] * F[:, 1, 1] - F[:, 0, 1] * F[:, 1, 0] > 0)  # det F > 0 implies a^2 + b^2 > 0
    if bad.any():
        raise InvertedCells(
            f"corotational: {int(bad.sum())} cell(s) turned inside out (det F <= 0 at the centre); cut the step"
        )
    R, u_loc = _local_displacements(np.arctan2(a, b), ue, Xc)
    u_loc = u_loc.reshape(nc, 2 * nn)
    c, s = R[:, 0, 0], R[:, 1, 0]
    dR = np.stack([np.stack([-s, -c], -1), np.stack([c, -s], -1)], -2)  # dR/dtheta
    f = np.einsum("cij,cj->ci", K, u_loc)
    energy = 0.5 * np.einsum("ci,ci->c", u_loc, f)
    g = (b[:, None] * A - a[:, None] * B) / r2[:, None]
    v = _rotate(dR.transpose(0, 2, 1), xe).reshape(nc, 2 * nn)
    vf = np.einsum("ci,ci->c", v, f)
    Rf = _rotate(R, f.reshape(nc, nn, 2)).reshape(nc, 2 * nn)
    force = Rf + vf[:, None] * g
    if not tangent:
        return CellResponse(energy=energy, force=force, tangent=None)
    # T^T K T with T = diag(R^T) + v g^T
    K4 = K.reshape(nc, nn, 2, nn, 2)
    RKR = np.einsum("cab,cibje,cde->ciajd", R, K4, R, optimize=True).reshape(nc, 2 * nn, 2 * nn)
    Kv = np.einsum("cij,cj->ci", K, v)
    q = _rotate(R, Kv.reshape(nc, nn, 2)).reshape(nc, 2 * nn)
    vKv = np.einsum("ci,ci->c", v, Kv)
    p = _rotate(dR, f.reshape(nc, nn, 2)).reshape(nc, 2 * nn)
    wf = -np.einsum("ci,ci->c", x, Rf)  # (R''^T x) . f with R'' = -R
    h = 2.0 * (a[:, None] * A + b[:, None] * B)
    H = (A[:, :, None] * B[:, None, :] - B[:, :, None] * A[:, None, :] - g[:, :, None] * h[:, None, :]) / r2[
        :, None, None
    ]
    H = 0.5 * (H + H.transpose(0, 2, 1))  # symmetric in exact arithmetic
    sym = q + p
    KT = (
        RKR
        + sym[:, :, None] * g[:, None, :]
        + g[:, :, None] * sym[:, None, :]
        + (vKv + wf)[:, None, None] * g[:, :, None] * g[:, None, :]
        + vf[:, None, None] * H
    )
    return CellResponse(energy=energy, force=force, tangent=KT)


def corotational_cell_nodal_stresses(points: np.ndarray, block: CellBlock, u: np.ndarray, D: np.ndarray) -> np.ndarray:
    r"""Stresses (Pa) of each cell at its own nodes, shape (n_cells, nn, 3) in (xx, yy, xy): Hooke's
    stress of the displacement seen from the cell's rotated frame, turned back,

    .. math::

        \sigma = R(\theta_e)\, \big(D\, \varepsilon(u^{loc})\big)\, R(\theta_e)^T ,
        \qquad u^{loc}_j = R^T x_j - X_j ,

    with :math:`\theta_e` the angle of :func:`corotational_cells`: a Cauchy stress of the
    small strains of a turned cell.

    >>> from fem2d.fe.elasticity import elasticity_matrix
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> block = CellBlock("quad4", [[0, 1, 2, 3]])
    >>> c, s = np.cos(1.0), np.sin(1.0)
    >>> stretched = X * [1.001, 1.0]  # 1e-3 along x, then the cell turned by 1 rad
    >>> u = (stretched @ np.array([[c, s], [-s, c]]) - X).ravel()
    >>> sigma = corotational_cell_nodal_stresses(X, block, u, elasticity_matrix(1.0, 0.0))[0, 0]
    >>> bool(np.allclose(sigma, 1e-3 * np.array([c * c, s * s, c * s]), atol=1e-12))
    True
    """
    cell_positions(points, block, u)  # (its checks of u's size)
    g0, Xc, dofs = corotational_frame(points, block)
    nc, nn = block.nodes.shape
    ue = np.asarray(u, dtype=float).ravel()[dofs].reshape(nc, nn, 2)
    ue = ue - ue.mean(axis=1, keepdims=True)
    H = np.einsum("cja,cjk->cak", ue, g0)  # F - I at the centre
    R, u_loc = _local_displacements(np.arctan2(H[:, 1, 0] - H[:, 0, 1], 2.0 + H[:, 0, 0] + H[:, 1, 1]), ue, Xc)
    element = reference_element(block.kind)
    at_nodes = QuadratureRule(element.nodes, np.ones(element.n_nodes))
    grad = cell_geometry(points, block, at_nodes, check=False).grad  # (nc, nq=nn, nn, 2)
    Hl = np.einsum("cja,cqjk->cqak", u_loc, grad)
    eps = np.stack([Hl[..., 0, 0], Hl[..., 1, 1], Hl[..., 0, 1] + Hl[..., 1, 0]], axis=-1)
    sl = eps @ np.asarray(D, dtype=float).T  # (nc, nq, 3) local stresses
    S = np.stack([np.stack([sl[..., 0], sl[..., 2]], -1), np.stack([sl[..., 2], sl[..., 1]], -1)], -2)
    G = np.einsum("cab,cqbd,ced->cqae", R, S, R)
    return np.stack([G[..., 0, 0], G[..., 1, 1], G[..., 0, 1]], axis=-1)
