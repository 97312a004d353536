"""Linear isotropic elasticity: Hooke matrix, element stiffness, stresses.

Voigt order ``(xx, yy, xy)`` with engineering shear strain
``gamma_xy = du_x/dy + du_y/dx``; ``sigma = D eps``.
"""

from __future__ import annotations

import numpy as np

from fem2d.errors import InputError
from fem2d.fe.assembly import node_dofs
from fem2d.fe.elements import reference_element
from fem2d.fe.geometry import cell_geometry, check_jacobians
from fem2d.fe.quadrature import QuadratureRule
from fem2d.mesh.mesh import CellBlock

HYPOTHESES = ("plane_strain", "plane_stress", "axisymmetric")

# _VOIGT[m, a, k]: Voigt strain component m takes du_a/dx_k.
_VOIGT = np.zeros((3, 2, 2))
_VOIGT[0, 0, 0] = _VOIGT[1, 1, 1] = _VOIGT[2, 0, 1] = _VOIGT[2, 1, 0] = 1.0

#: Cells per chunk when building element matrices, to bound the temporaries.
CHUNK = 16384


def elasticity_matrix(E: float, nu: float, hypothesis: str = "plane_strain") -> np.ndarray:
    r"""Hooke matrix ``D`` (3, 3) in Voigt order (xx, yy, xy), in Pa.

    .. math::

        D^{strain} = \frac{E}{(1 + \nu)(1 - 2\nu)}
        \begin{pmatrix} 1 - \nu & \nu & 0 \\ \nu & 1 - \nu & 0 \\ 0 & 0 & (1 - 2\nu)/2 \end{pmatrix},
        \qquad
        D^{stress} = \frac{E}{1 - \nu^2}
        \begin{pmatrix} 1 & \nu & 0 \\ \nu & 1 & 0 \\ 0 & 0 & (1 - \nu)/2 \end{pmatrix}

    Parameters
    ----------
    E : float
        Young's modulus (Pa), > 0.
    nu : float
        Poisson's ratio, -1 < nu < 0.5.
    hypothesis : {"plane_strain", "plane_stress", "axisymmetric"}

    Returns
    -------
    ndarray, shape (3, 3), or (4, 4) for ``"axisymmetric"``

    Examples
    --------
    >>> elasticity_matrix(2.0, 0.25, "plane_strain")
    array([[2.4, 0.8, 0. ],
           [0.8, 2.4, 0. ],
           [0. , 0. , 0.8]])
    """
    if not np.isfinite(E) or E <= 0:
        raise InputError(f"elasticity: Young's modulus E must be positive, got {E!r}")
    if not np.isfinite(nu) or not -1.0 < nu < 0.5:
        raise InputError(f"elasticity: Poisson's ratio nu must lie in (-1, 0.5), got {nu!r}")
    if hypothesis == "plane_strain":
        c = E / ((1 + nu) * (1 - 2 * nu))
        return c * np.array([[1 - nu, nu, 0.0], [nu, 1 - nu, 0.0], [0.0, 0.0, 0.5 * (1 - 2 * nu)]])
    if hypothesis == "axisymmetric":
        from fem2d.fe.axisymmetric import axisymmetric_elasticity_matrix

        return axisymmetric_elasticity_matrix(E, nu)
    if hypothesis == "plane_stress":
        c = E / (1 - nu * nu)
        return c * np.array([[1.0, nu, 0.0], [nu, 1.0, 0.0], [0.0, 0.0, 0.5 * (1 - nu)]])
    raise InputError(f"elasticity: hypothesis must be one of {', '.join(HYPOTHESES)}, got {hypothesis!r}")


def _check_D(D: np.ndarray) -> np.ndarray:
    D = np.asarray(D, dtype=float)
    if D.shape != (3, 3):
        raise InputError(f"elasticity: Hooke matrix must have shape (3, 3), got {D.shape}")
    return D


def stiffness_matrices(
    points: np.ndarray,
    block: CellBlock,
    D: np.ndarray,
    thickness: float = 1.0,
    rule: QuadratureRule | None = None,
    group: str | None = None,
) -> np.ndarray:
    """Element stiffness matrices of all cells of a 2D block (TRI3, TRI6, QUAD4, QUAD8, QUAD9).

    ``K_e = t sum_q w_q det J_q B_q^T D B_q`` with
    ``B = [[dN/dx, 0], [0, dN/dy], [dN/dy, dN/dx]]`` per node; computed as
    ``K[i a, j b] = t C_akbl sum_q w_q det J dN_i/dx_k dN_j/dx_l`` (no B formed).

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
        Node coordinates (m).
    block : CellBlock
        2D cells (TRI3, TRI6, QUAD4, QUAD8, QUAD9).
    D : ndarray, shape (3, 3)
        Hooke matrix (Pa), see :func:`elasticity_matrix`.
    thickness : float
        Out-of-plane thickness (m); 1 for plane strain per metre.
    rule : QuadratureRule, optional
        Default 2x2 Gauss (QUAD4), 3x3 (QUAD8, QUAD9), degree 2 (TRI3), 4 (TRI6).
    group : str, optional
        Group name, for error messages.

    Returns
    -------
    ndarray, shape (n_cells, 2 nn, 2 nn)
        Symmetric, in N/m, interleaved local dofs ``(DX_0, DY_0, DX_1, ...)``.

    Raises
    ------
    MeshError
        If a cell is inverted or degenerate.
    """
    D = _check_D(D)
    # C[k, l, a, b] = sum_mn V[m,a,k] D[m,n] V[n,b,l]: K[i a, j b] = sum_kl C[k,l,a,b] P[i k, j l]
    C = np.einsum("mak,mn,nbl->klab", _VOIGT, D, _VOIGT)
    terms = [(idx, C[idx]) for idx in np.ndindex(2, 2, 2, 2) if C[idx] != 0.0]
    nc, nn = block.nodes.shape
    K = np.zeros((nc, nn, 2, nn, 2))
    for start in range(0, nc, CHUNK):  # chunks of cells, not a loop per cell
        sub = block.nodes[start : start + CHUNK]
        geo = cell_geometry(points, CellBlock(block.kind, sub), rule, group, check=False)
        check_jacobians(geo.det, block.kind, group, offset=start)
        g = geo.grad.reshape(len(sub), -1, 2 * nn)  # (c, q, (j,k))
        # P[c, i, k, j, l] = sum_q w_q det J dN_i/dx_k dN_j/dx_l
        P = np.matmul((g * geo.dx[..., None]).transpose(0, 2, 1), g).reshape(len(sub), nn, 2, nn, 2)
        Kc = K[start : start + CHUNK]
        for (k, m, a, b), c in terms:  # at most 16 tensor components (k, l=m, a, b), each over all cells
            Kc[:, :, a, :, b] += c * P[:, :, k, :, m]
    K = K.reshape(nc, 2 * nn, 2 * nn)
    K *= thickness
    return K


def _cell_displacements(u: np.ndarray, block: CellBlock, n_nodes: int) -> np.ndarray:
    u = np.asarray(u, dtype=float).ravel()
    if u.size != 2 * n_nodes:
        raise InputError(f"displacement vector has {u.size} entries; expected 2 x {n_nodes} nodes = {2 * n_nodes}")
    return u[node_dofs(block.nodes)].reshape(len(block), -1, 2)  # (nc, nn, 2)


def gauss_strains(
    points: np.ndarray,
    block: CellBlock,
    u: np.ndarray,
    rule: QuadratureRule | None = None,
    group: str | None = None,
    check: bool = True,
) -> np.ndarray:
    """Strains ``(eps_xx, eps_yy, gamma_xy)`` at the quadrature points (dimensionless).

    ``eps_xx = du_x/dx``, ``eps_yy = du_y/dy``, ``gamma_xy = du_x/dy + du_y/dx``
    with ``du_a/dx_k = sum_j u_ja dN_j/dx_k``.

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
    block : CellBlock
        2D cells (TRI3, TRI6, QUAD4, QUAD8, QUAD9).
    u : ndarray, shape (2 n_nodes,)
        Global interleaved displacement vector (m).
    rule : QuadratureRule, optional
        Default Gauss rule of the cell kind.
    group : str, optional
    check : bool
        Check the cells' Jacobians (see :func:`~fem2d.fe.geometry.cell_geometry`).

    Returns
    -------
    ndarray, shape (n_cells, nq, 3)
    """
    ue = _cell_displacements(u, block, len(points))
    geo = cell_geometry(points, block, rule, group, check=check)
    du = np.einsum("cja,cqjk->cqak", ue, geo.grad)
    return np.stack([du[..., 0, 0], du[..., 1, 1], du[..., 0, 1] + du[..., 1, 0]], axis=-1)


def gauss_stresses(
    points: np.ndarray,
    block: CellBlock,
    u: np.ndarray,
    D: np.ndarray,
    rule: QuadratureRule | None = None,
    group: str | None = None,
) -> np.ndarray:
    """Stresses ``(sigma_xx, sigma_yy, sigma_xy)`` at the quadrature points (Pa).

    ``sigma = D eps`` with ``eps`` from :func:`gauss_strains`; the points are
    ``cell_geometry(points, block, rule).x``.

    Returns
    -------
    ndarray, shape (n_cells, nq, 3)
    """
    return gauss_strains(points, block, u, rule, group) @ _check_D(D).T


def nodal_average(n_nodes: int, nodes: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Average per-cell nodal values over the cells sharing each node.

    ``v_i = sum_{c ∋ i} v_{c,i} / #{c ∋ i}``. To combine several blocks,
    concatenate their flattened ``nodes`` and ``values``.

    Parameters
    ----------
    n_nodes : int
    nodes : ndarray of int, shape (...,)
        Node ids, e.g. ``block.nodes`` (nc, nn).
    values : ndarray, shape (..., k)
        Value of each cell at each of its nodes (``nodes.shape + (k,)``).

    Returns
    -------
    ndarray, shape (n_nodes, k)
        NaN at nodes no cell touches.
    """
    idx = np.asarray(nodes, dtype=np.int64).ravel()
    vals = np.asarray(values, dtype=float).reshape(idx.size, -1)
    count = np.bincount(idx, minlength=n_nodes).astype(float)
    total = np.stack([np.bincount(idx, vals[:, k], minlength=n_nodes) for k in range(vals.shape[1])], axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / count[:, None]


def cell_nodal_stresses(points: np.ndarray, block: CellBlock, u: np.ndarray, D: np.ndarray) -> np.ndarray:
    """Stresses of each cell evaluated at its own nodes (Pa), shape (n_cells, nn, 3).

    ``sigma = D B(xi_i) u_e`` at the reference node positions ``xi_i``; exact
    wherever the field is linear. Jacobians are not checked at the nodes (a
    valid non-convex cell may have ``det J <= 0`` at a corner).
    """
    element = reference_element(block.kind)
    at_nodes = QuadratureRule(element.nodes, np.ones(element.n_nodes))
    return gauss_strains(points, block, u, at_nodes, check=False) @ _check_D(D).T


def nodal_stresses(points: np.ndarray, block: CellBlock, u: np.ndarray, D: np.ndarray) -> np.ndarray:
    """Nodal stresses averaged over the cells of ``block`` sharing each node (Pa).

    ``sigma_i = mean over cells c containing node i of sigma_c(xi_i)``
    (see :func:`cell_nodal_stresses` and :func:`nodal_average`).

    Returns
    -------
    ndarray, shape (n_nodes, 3)
        ``(sigma_xx, sigma_yy, sigma_xy)``; NaN at nodes outside the block.
    """
    return nodal_average(len(points), block.nodes, cell_nodal_stresses(points, block, u, D))


def von_mises(stress: np.ndarray, nu: float = 0.0, hypothesis: str = "plane_strain") -> np.ndarray:
    """Von Mises equivalent stress (Pa) of in-plane stresses ``(..., 3)``, or of the four
    axisymmetric stresses ``(..., 4)`` (rr, zz, rz, tt) when ``hypothesis="axisymmetric"``.

    The out-of-plane stress ``szz`` is ``nu (sigma_xx + sigma_yy)`` in plane strain, 0 in plane
    stress, the hoop stress ``sigma_tt`` in axisymmetry;
    ``s_vm = sqrt(((sxx - syy)^2 + (syy - szz)^2 + (szz - sxx)^2) / 2 + 3 sxy^2)``.

    Returns
    -------
    ndarray, shape (...)
    """
    if hypothesis not in HYPOTHESES:
        raise InputError(f"von_mises: hypothesis must be one of {', '.join(HYPOTHESES)}, got {hypothesis!r}")
    s = np.asarray(stress, dtype=float)
    sxx, syy, sxy = s[..., 0], s[..., 1], s[..., 2]
    if hypothesis == "axisymmetric":
        if s.shape[-1] != 4:
            raise InputError(f"von_mises: axisymmetric stresses have 4 components (rr, zz, rz, tt), got {s.shape}")
        szz = s[..., 3]
    else:
        szz = nu * (sxx + syy) if hypothesis == "plane_strain" else np.zeros_like(sxx)
    return np.sqrt(0.5 * ((sxx - syy) ** 2 + (syy - szz) ** 2 + (szz - sxx) ** 2) + 3 * sxy**2)
