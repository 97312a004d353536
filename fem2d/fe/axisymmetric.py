r"""Small-strain axisymmetric elasticity on the meridian plane: Hooke matrix, element
stiffness, strains and stresses with the hoop component.

The mesh's x is the radius :math:`r \ge 0`, its y the axis :math:`z`; the displacement
is :math:`(u_r, u_z)`, independent of the angle :math:`\theta`. Voigt order
``(rr, zz, rz, tt)`` (``tt``: the hoop direction :math:`\theta\theta`), engineering
shear :math:`\gamma_{rz} = \partial u_r/\partial z + \partial u_z/\partial r`, and the hoop
strain :math:`\varepsilon_{\theta\theta} = u_r / r`:

.. math::

    B_j = \begin{pmatrix} \partial N_j/\partial r & 0 \\ 0 & \partial N_j/\partial z \\
          \partial N_j/\partial z & \partial N_j/\partial r \\ N_j / r & 0 \end{pmatrix},
    \qquad K_e = \int_e B^T D B \; 2\pi r \, dA
             = \sum_q w_q \det J_q \, 2\pi r_q \, B_q^T D B_q .

Every integral over the meridian section carries the weight :math:`2\pi r`
(:func:`radial_weights`): stiffness, masses and loads are totals over the whole
circumference (a full ring, not one radian). The quadrature points of every
element lie inside the cells, never at :math:`r = 0`, so :math:`N_j/r` is finite
there. On the axis itself the hoop strain is the limit
:math:`\lim_{r\to 0} u_r/r = \partial u_r/\partial r`, which needs :math:`u_r = 0`
on the axis: these element matrices leave :math:`u_r` of a node on the axis free (its
hoop stiffness makes it small, not zero); a :class:`~fem2d.model.Model` holds it at 0
(:meth:`~fem2d.model.bodies.Body.axis_nodes`). Stresses at a node on the axis use the limit.
"""

from __future__ import annotations

import numpy as np

from fem2d.errors import InputError
from fem2d.fe.elements import reference_element
from fem2d.fe.geometry import cell_geometry, check_jacobians
from fem2d.fe.quadrature import QuadratureRule
from fem2d.mesh.mesh import CellBlock

#: Cells per chunk when building element matrices, to bound the temporaries.
CHUNK = 8192


def radial_weights(x: np.ndarray) -> np.ndarray:
    r"""The circumference :math:`2\pi r` (m) at points ``x`` (..., 2): the weight that turns an
    integral over the meridian section into one over the solid of revolution.

    >>> float(radial_weights(np.array([0.5, 3.0])) / np.pi)
    1.0
    """
    return 2.0 * np.pi * np.asarray(x, dtype=float)[..., 0]


def axisymmetric_elasticity_matrix(E: float, nu: float) -> np.ndarray:
    r"""Hooke matrix ``D`` (4, 4) in Voigt order (rr, zz, rz, tt), in Pa.

    .. math::

        D = \frac{E}{(1 + \nu)(1 - 2\nu)}
        \begin{pmatrix} 1 - \nu & \nu & 0 & \nu \\ \nu & 1 - \nu & 0 & \nu \\
        0 & 0 & (1 - 2\nu)/2 & 0 \\ \nu & \nu & 0 & 1 - \nu \end{pmatrix}

    >>> axisymmetric_elasticity_matrix(2.0, 0.25)
    array([[2.4, 0.8, 0. , 0.8],
           [0.8, 2.4, 0. , 0.8],
           [0. , 0. , 0.8, 0. ],
           [0.8, 0.8, 0. , 2.4]])
    """
    if not np.isfinite(E) or E <= 0:
        raise InputError(f"elasticity: Young's modulus E must be positive, got {E!r}")
    if not np.isfinite(nu) or not -1.0 < nu < 0.5:
        raise InputError(f"elasticity: Poisson's ratio nu must lie in (-1, 0.5), got {nu!r}")
    c = E / ((1 + nu) * (1 - 2 * nu))
    return c * np.array([[1 - nu, nu, 0.0, nu], [nu, 1 - nu, 0.0, nu],
                         [0.0, 0.0, 0.5 * (1 - 2 * nu), 0.0], [nu, nu, 0.0, 1 - nu]])


def _check_D(D: np.ndarray) -> np.ndarray:
    D = np.asarray(D, dtype=float)
    if D.shape != (4, 4):
        raise InputError(f"axisymmetric elasticity: Hooke matrix must have shape (4, 4), got {D.shape}")
    return D


def _strain_matrices(geo, r: np.ndarray) -> np.ndarray:
    """B (nc, nq, 4, 2 nn) at the points of ``geo``; the hoop row is N_j / r where r > 0
    and dN_j/dr (the limit of u_r / r for u_r = 0 on the axis) where r = 0."""
    grad = geo.grad  # (c, q, j, k)
    nc, nq, nn, _ = grad.shape
    B = np.zeros((nc, nq, 4, nn, 2))
    B[:, :, 0, :, 0] = grad[..., 0]
    B[:, :, 1, :, 1] = grad[..., 1]
    B[:, :, 2, :, 0] = grad[..., 1]
    B[:, :, 2, :, 1] = grad[..., 0]
    on_axis = r <= 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        hoop = np.where(on_axis[..., None], grad[..., 0], geo.shape[None] / r[..., None])
    B[:, :, 3, :, 0] = hoop
    return B.reshape(nc, nq, 4, 2 * nn)


def axisymmetric_stiffness_matrices(
    points: np.ndarray,
    block: CellBlock,
    D: np.ndarray,
    rule: QuadratureRule | None = None,
    group: str | None = None,
) -> np.ndarray:
    r"""Element stiffness matrices of a 2D block of an axisymmetric body (N/m, whole ring).

    :math:`K_e = \sum_q w_q \det J_q\, 2\pi r_q\, B_q^T D B_q` with :math:`B` of the module
    docstring (the hoop row :math:`N_j / r`), the default Gauss rule of each kind
    (TRI3, TRI6, QUAD4, QUAD8, QUAD9; no point on the axis).

    Returns
    -------
    ndarray, shape (n_cells, 2 nn, 2 nn)
        Symmetric, interleaved local dofs ``(DR_0, DZ_0, DR_1, ...)``.

    Examples
    --------
    A uniform expansion :math:`u_r = r` of the ring 1 < r < 2, 0 < z < 1 strains
    rr and tt by 1: the nodal forces are :math:`\int B^T D (1, 0, 0, 1) 2\pi r\, dA`, and
    their r components add up to :math:`(D_{tt,rr} + D_{tt,tt}) \int 2\pi\, dA = 2\pi (\lambda + \lambda + 2\mu)`
    (the pull of the hoop stress, :math:`\int \sigma_{\theta\theta}\, 2\pi\, dA`):

    >>> xy = np.array([[1.0, 0.0], [2.0, 0.0], [2.0, 1.0], [1.0, 1.0]])
    >>> K = axisymmetric_stiffness_matrices(xy, CellBlock("quad4", np.arange(4)[None]),
    ...                                     axisymmetric_elasticity_matrix(2.0, 0.25))
    >>> f = K[0] @ np.array([1.0, 0, 2.0, 0, 2.0, 0, 1.0, 0])
    >>> round(float(f[0::2].sum() / (2 * np.pi)), 12), round(float(f[1::2].sum()), 12)
    (3.2, 0.0)
    """
    D = _check_D(D)
    nc, nn = block.nodes.shape
    K = np.empty((nc, 2 * nn, 2 * nn))
    for start in range(0, nc, CHUNK):  # chunks of cells, not a loop per cell
        sub = CellBlock(block.kind, block.nodes[start : start + CHUNK])
        geo = cell_geometry(points, sub, rule, group, check=False)
        check_jacobians(geo.det, block.kind, group, offset=start)
        B = _strain_matrices(geo, geo.x[..., 0])
        weighted = B * (geo.dx * radial_weights(geo.x))[..., None, None]
        K[start : start + CHUNK] = np.einsum("cqmi,cqmj->cij", weighted, np.einsum("mn,cqnj->cqmj", D, B))
    return K


def axisymmetric_gauss_strains(
    points: np.ndarray,
    block: CellBlock,
    u: np.ndarray,
    rule: QuadratureRule | None = None,
    group: str | None = None,
    check: bool = True,
) -> np.ndarray:
    r"""Strains ``(eps_rr, eps_zz, gamma_rz, eps_tt)`` at the points of ``rule`` (dimensionless).

    :math:`\varepsilon_{\theta\theta} = u_r / r`, and :math:`\partial u_r / \partial r`
    at a point on the axis (the limit for :math:`u_r = 0` there).

    >>> xy = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [0.0, 1.0]])
    >>> u = np.array([0.0, 0.0, 0.2, 0.0, 0.2, 0.3, 0.0, 0.3])  # u_r = 0.1 r, u_z = 0.3 z
    >>> axisymmetric_gauss_strains(xy, CellBlock("quad4", np.arange(4)[None]), u)[0, 0].round(12).tolist()
    [0.1, 0.3, 0.0, 0.1]
    """
    u = np.asarray(u, dtype=float).ravel()
    if u.size != 2 * len(points):
        raise InputError(f"displacement vector has {u.size} entries; expected 2 x {len(points)} nodes")
    ue = u[2 * block.nodes[..., None] + np.arange(2)].reshape(len(block), -1)  # (nc, 2 nn)
    geo = cell_geometry(points, block, rule, group, check=check)
    r = geo.x[..., 0]
    scale = float(np.abs(points[:, 0]).max(initial=0.0)) or 1.0
    r = np.where(np.abs(r) <= 1e-12 * scale, 0.0, r)  # a node on the axis, up to round-off
    return np.einsum("cqmj,cj->cqm", _strain_matrices(geo, r), ue)


def axisymmetric_gauss_stresses(
    points: np.ndarray, block: CellBlock, u: np.ndarray, D: np.ndarray, rule: QuadratureRule | None = None,
    group: str | None = None,
) -> np.ndarray:
    """Stresses ``(sigma_rr, sigma_zz, sigma_rz, sigma_tt)`` (Pa) at the quadrature points,
    ``sigma = D eps`` (:func:`axisymmetric_gauss_strains`); shape (n_cells, nq, 4)."""
    return axisymmetric_gauss_strains(points, block, u, rule, group) @ _check_D(D).T


def axisymmetric_cell_nodal_stresses(points: np.ndarray, block: CellBlock, u: np.ndarray,
                                     D: np.ndarray) -> np.ndarray:
    """Stresses ``(sigma_rr, sigma_zz, sigma_rz, sigma_tt)`` of each cell at its own nodes
    (Pa), shape (n_cells, nn, 4); the hoop strain of a node on the axis is its limit
    ``du_r/dr``. Jacobians are not checked at the nodes."""
    element = reference_element(block.kind)
    at_nodes = QuadratureRule(element.nodes, np.ones(element.n_nodes))
    return axisymmetric_gauss_strains(points, block, u, at_nodes, check=False) @ _check_D(D).T
