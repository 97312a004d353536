"""Element mass matrices: consistent, row-sum lumped and HRZ lumped.

Consistent mass, per direction (the two directions are uncoupled)::

    m_ij = t int_cell rho N_i N_j dA,     M_e[i a, j b] = delta_ab m_ij   (kg)

Lumped (diagonal) masses ``m_i``:

* ``"row_sum"``: ``m_i = sum_j m_ij = t int rho N_i dA``. Right for QUAD4
  (all positive); for the QUAD8 serendipity element the corner values are
  negative (``int N_corner = -1/3`` on the square), so it is refused there.
* ``"hrz"`` (Hinton, Rock & Zienkiewicz 1976): ``m_i = m_ii * m_e / sum_k m_kk``
  with ``m_e = t int rho dA`` the element mass: the consistent diagonal scaled
  to the element mass. Always positive; on a rectangular QUAD8 the corners get
  3/76 and the mid-side nodes 16/76 of the mass (row-sum: -1/12 and 1/3).
* ``"lumped"``: row-sum for QUAD4, HRZ for QUAD8 (positive diagonal masses
  for both).

Every lumping keeps the element mass, so a rigid translation acceleration
gives the same total inertia force as the consistent matrix.
"""

from __future__ import annotations

import numpy as np

from fem2d.errors import InputError
from fem2d.fe.geometry import cell_geometry, check_jacobians
from fem2d.fe.quadrature import QuadratureRule
from fem2d.mesh.mesh import CellBlock

LUMPINGS = ("consistent", "lumped", "row_sum", "hrz")

#: Cells per chunk when building element matrices, to bound the temporaries.
CHUNK = 16384


def _check(rho: float, thickness: float) -> None:
    if not np.isfinite(rho) or rho < 0:
        raise InputError(f"mass: density rho must be >= 0, got {rho!r}")
    if not np.isfinite(thickness) or thickness <= 0:
        raise InputError(f"mass: thickness must be positive, got {thickness!r}")


def scalar_mass_matrices(
    points: np.ndarray,
    block: CellBlock,
    rho: float,
    thickness: float = 1.0,
    rule: QuadratureRule | None = None,
    group: str | None = None,
) -> np.ndarray:
    """Consistent scalar mass ``m_ij = t sum_q w_q det J rho N_i N_j`` (kg).

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
        Node coordinates (m).
    block : CellBlock
        QUAD4 or QUAD8 cells.
    rho : float
        Density (kg/m^3).
    thickness : float
        Thickness (m).
    rule : QuadratureRule, optional
        Default 2x2 Gauss (QUAD4), 3x3 (QUAD8): exact on parallelograms.
    group : str, optional
        Group name, for error messages.

    Returns
    -------
    ndarray, shape (n_cells, nn, nn)
        One direction only (see :func:`mass_matrices` for the 2-dof form).
    """
    _check(rho, thickness)
    nc, nn = block.nodes.shape
    m = np.empty((nc, nn, nn))
    for start in range(0, nc, CHUNK):  # chunks of cells, not a loop per cell
        sub = CellBlock(block.kind, block.nodes[start : start + CHUNK])
        geo = cell_geometry(points, sub, rule, group, check=False, gradients=False)
        check_jacobians(geo.det, block.kind, group, offset=start)
        nn_q = (geo.shape[:, :, None] * geo.shape[:, None, :]).reshape(len(geo.shape), -1)  # (nq, nn*nn)
        m[start : start + CHUNK] = (geo.dx @ nn_q).reshape(-1, nn, nn)
    m *= rho * thickness
    return m


def lumped_masses(
    points: np.ndarray,
    block: CellBlock,
    rho: float,
    thickness: float = 1.0,
    lumping: str = "lumped",
    rule: QuadratureRule | None = None,
    group: str | None = None,
) -> np.ndarray:
    """Diagonal nodal masses of each cell, per direction (kg).

    ``"row_sum"``: ``m_i = sum_j m_ij``; ``"hrz"``: ``m_i = m_ii m_e / sum_k m_kk``;
    ``"lumped"``: row-sum for QUAD4, HRZ for QUAD8 (see the module docstring).

    Returns
    -------
    ndarray, shape (n_cells, nn)
        Each row sums to the element mass ``t int rho dA``.
    """
    if lumping == "lumped":
        lumping = "row_sum" if block.kind == "quad4" else "hrz"
    if lumping not in ("row_sum", "hrz"):
        raise InputError(f"mass lumping must be one of {', '.join(LUMPINGS[1:])}, got {lumping!r}")
    if lumping == "row_sum" and block.kind != "quad4":
        raise InputError(
            f"row-sum lumping gives negative corner masses for {block.kind} cells; use 'hrz' (or 'lumped')"
        )
    m = scalar_mass_matrices(points, block, rho, thickness, rule, group)
    if lumping == "row_sum":
        return m.sum(axis=2)
    diag = np.einsum("cii->ci", m)
    total = m.sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.where(total > 0, total / diag.sum(axis=1), 0.0)
    return diag * scale[:, None]


def mass_matrices(
    points: np.ndarray,
    block: CellBlock,
    rho: float,
    thickness: float = 1.0,
    lumping: str = "consistent",
    rule: QuadratureRule | None = None,
    group: str | None = None,
) -> np.ndarray:
    """Element mass matrices of all cells, in interleaved dofs (kg).

    ``M_e[i a, j b] = delta_ab m_ij`` (consistent) or
    ``delta_ab delta_ij m_i`` (lumped, see :func:`lumped_masses`).

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
        Node coordinates (m).
    block : CellBlock
        QUAD4 or QUAD8 cells.
    rho : float
        Density (kg/m^3).
    thickness : float
        Thickness (m).
    lumping : {"consistent", "lumped", "row_sum", "hrz"}
    rule : QuadratureRule, optional
        Default 2x2 Gauss (QUAD4), 3x3 (QUAD8).
    group : str, optional
        Group name, for error messages.

    Returns
    -------
    ndarray, shape (n_cells, 2 nn, 2 nn)
        Symmetric; diagonal when lumped.
    """
    if lumping not in LUMPINGS:
        raise InputError(f"mass lumping must be one of {', '.join(LUMPINGS)}, got {lumping!r}")
    nc, nn = block.nodes.shape
    M = np.zeros((nc, nn, 2, nn, 2))
    if lumping == "consistent":
        m = scalar_mass_matrices(points, block, rho, thickness, rule, group)
        M[:, :, 0, :, 0] = m
        M[:, :, 1, :, 1] = m
    else:
        d = lumped_masses(points, block, rho, thickness, lumping, rule, group)
        idx = np.arange(nn)
        M[:, idx, 0, idx, 0] = d
        M[:, idx, 1, idx, 1] = d
    return M.reshape(nc, 2 * nn, 2 * nn)
