"""Element mass matrices: consistent (:func:`scalar_mass_matrices`,
:func:`mass_matrices`), row-sum lumped and HRZ lumped (:func:`lumped_masses`)."""

from __future__ import annotations

import numpy as np

from fem2d.errors import InputError
from fem2d.fe.axisymmetric import radial_weights
from fem2d.fe.geometry import cell_geometry, check_jacobians
from fem2d.fe.quadrature import DEFAULT_TRIANGLE_DEGREE, QuadratureRule, triangle_rule
from fem2d.mesh.mesh import CellBlock

LUMPINGS = ("consistent", "lumped", "row_sum", "hrz")

#: Cell kinds whose shape functions all integrate to positive values (row-sum lumping allowed).
ROW_SUM_KINDS = ("tri3", "quad4", "quad9")

#: The same with the weight 2 pi r of an axisymmetric body: a QUAD9 corner on the axis
#: integrates to zero (``int xi (xi - 1)/2 (1 + xi)/2 dxi = 0``), so QUAD9 is lumped by HRZ.
AXISYMMETRIC_ROW_SUM_KINDS = ("tri3", "quad4")

#: Cells per chunk when building element matrices, to bound the temporaries.
CHUNK = 16384


def _check(rho: float, thickness: float, axisymmetric: bool = False) -> None:
    if not np.isfinite(rho) or rho < 0:
        raise InputError(f"mass: density rho must be >= 0, got {rho!r}")
    if not np.isfinite(thickness) or thickness <= 0:
        raise InputError(f"mass: thickness must be positive, got {thickness!r}")
    if axisymmetric and thickness != 1.0:
        raise InputError(f"mass: an axisymmetric body has no thickness (its weight is 2 pi r), got {thickness!r}")


def scalar_mass_matrices(
    points: np.ndarray,
    block: CellBlock,
    rho: float,
    thickness: float = 1.0,
    rule: QuadratureRule | None = None,
    group: str | None = None,
    axisymmetric: bool = False,
) -> np.ndarray:
    r"""Consistent scalar mass of each cell, per direction (kg).

    .. math::

        m_{ij} = t \int_{cell} \rho N_i N_j \, dA = t \sum_q w_q \det J_q\, \rho N_i(\xi_q) N_j(\xi_q)

    (the two directions are uncoupled, see :func:`mass_matrices`). For an axisymmetric
    body (``axisymmetric=True``, x the radius) the thickness is replaced by the
    circumference: :math:`m_{ij} = \int \rho N_i N_j\, 2\pi r\, dA`, the mass of the
    whole ring. The ring of section [1, 2] x [0, 1] m and density 1 weighs
    :math:`\pi (2^2 - 1^2) = 3\pi` kg:

    >>> from fem2d.mesh.mesh import CellBlock
    >>> xy = np.array([[1.0, 0.0], [2.0, 0.0], [2.0, 1.0], [1.0, 1.0]])
    >>> m = scalar_mass_matrices(xy, CellBlock("quad4", np.arange(4)[None]), 1.0, axisymmetric=True)
    >>> round(float(m.sum() / np.pi), 12)
    3.0

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
        Node coordinates (m).
    block : CellBlock
        2D cells (TRI3, TRI6, QUAD4, QUAD8, QUAD9).
    rho : float
        Density (kg/m^3).
    thickness : float
        Thickness (m).
    rule : QuadratureRule, optional
        Default 2x2 Gauss (QUAD4), 3x3 (QUAD8, QUAD9), degree 2 (TRI3), 4 (TRI6),
        one degree more for axisymmetric triangles (the weight r): exact on
        parallelograms and straight-sided triangles.
    group : str, optional
        Group name, for error messages.

    Returns
    -------
    ndarray, shape (n_cells, nn, nn)
        One direction only (see :func:`mass_matrices` for the 2-dof form).
    """
    _check(rho, thickness, axisymmetric)
    if axisymmetric and rule is None and block.kind in DEFAULT_TRIANGLE_DEGREE:
        # the weight r raises the integrand's degree by one: TRI3 3, TRI6 5 (the Gauss rules of the
        # quadrangles already hold one degree more per direction)
        rule = triangle_rule(DEFAULT_TRIANGLE_DEGREE[block.kind] + 1)
    nc, nn = block.nodes.shape
    m = np.empty((nc, nn, nn))
    for start in range(0, nc, CHUNK):  # chunks of cells, not a loop per cell
        sub = CellBlock(block.kind, block.nodes[start : start + CHUNK])
        geo = cell_geometry(points, sub, rule, group, check=False, gradients=False)
        check_jacobians(geo.det, block.kind, group, offset=start)
        nn_q = (geo.shape[:, :, None] * geo.shape[:, None, :]).reshape(len(geo.shape), -1)  # (nq, nn*nn)
        dx = geo.dx * radial_weights(geo.x) if axisymmetric else geo.dx
        m[start : start + CHUNK] = (dx @ nn_q).reshape(-1, nn, nn)
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
    axisymmetric: bool = False,
) -> np.ndarray:
    r"""Diagonal nodal masses of each cell, per direction (kg).

    With :math:`m_{ij}` the consistent mass (:func:`scalar_mass_matrices`) and
    :math:`m_e = t \int \rho\, dA` the element mass:

    * ``"row_sum"``: :math:`m_i = \sum_j m_{ij} = t \int \rho N_i\, dA`. Right
      where every shape function integrates to a positive value: TRI3 (1/3 of
      the mass at each corner), QUAD4 and QUAD9 (on a parallelogram the
      tensor-product Simpson weights: 1/36 at a corner, 4/36 at a mid-side node,
      16/36 at the centre). Refused for QUAD8, whose corner values are negative
      (:math:`\int N_{corner} = -1/3` on the square), and TRI6, whose corner
      values are zero (:math:`\int L_i (2 L_i - 1) = 0`): a corner node
      without mass has no inertia, a singular lumped mass matrix.
    * ``"hrz"`` (Hinton, Rock & Zienkiewicz 1976):
      :math:`m_i = m_{ii}\, m_e / \sum_k m_{kk}`, the consistent diagonal scaled
      to the element mass. Always positive; on a rectangular QUAD8 the corners
      get 3/76 and the mid-side nodes 16/76 of the mass (row-sum: -1/12 and 1/3);
      on a straight-sided TRI6 (consistent diagonal :math:`6 A/180` at a corner,
      :math:`32 A/180` at a mid-side node) the corners get 3/57 and the mid-side
      nodes 16/57 (row-sum: 0 and 1/3); on TRI3, QUAD4 and a parallelogram
      QUAD9 it equals row-sum.
    * ``"lumped"``: row-sum for TRI3, QUAD4 and QUAD9, HRZ for TRI6 and QUAD8.
      With ``axisymmetric=True`` (the weight :math:`2\pi r`, see
      :func:`scalar_mass_matrices`) QUAD9 is lumped by HRZ and its row-sum refused:
      a QUAD9 corner on the axis would get no mass.

    Every lumping keeps the element mass, so a rigid translation acceleration
    gives the same total inertia force as the consistent matrix.

    Returns
    -------
    ndarray, shape (n_cells, nn)
        Each row sums to the element mass ``t int rho dA``.

    Examples
    --------
    A 2 m x 1 m QUAD8 of mass 152 kg:

    >>> from fem2d.mesh.mesh import CellBlock
    >>> xy = np.array([[0, 0], [2, 0], [2, 1], [0, 1], [1, 0], [2, 0.5], [1, 1], [0, 0.5]])
    >>> lumped_masses(xy, CellBlock("quad8", np.arange(8)[None]), rho=76.0, lumping="hrz")
    array([[ 6.,  6.,  6.,  6., 32., 32., 32., 32.]])

    A right TRI6 of legs 2 m (area 2 m^2) and mass 114 kg:

    >>> xy = np.array([[0, 0], [2, 0], [0, 2], [1, 0], [1, 1], [0, 1]])
    >>> lumped_masses(xy, CellBlock("tri6", np.arange(6)[None]), rho=57.0).round(12)
    array([[ 6.,  6.,  6., 32., 32., 32.]])
    """
    row_sum_kinds = AXISYMMETRIC_ROW_SUM_KINDS if axisymmetric else ROW_SUM_KINDS
    if lumping == "lumped":
        lumping = "row_sum" if block.kind in row_sum_kinds else "hrz"
    if lumping not in ("row_sum", "hrz"):
        raise InputError(f"mass lumping must be one of {', '.join(LUMPINGS[1:])}, got {lumping!r}")
    if lumping == "row_sum" and block.kind not in row_sum_kinds:
        what = "zero" if block.kind in ("tri6", "quad9") else "negative"
        raise InputError(
            f"row-sum lumping gives {what} corner masses for {block.kind} cells; use 'hrz' (or 'lumped')"
        )
    m = scalar_mass_matrices(points, block, rho, thickness, rule, group, axisymmetric)
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
    axisymmetric: bool = False,
) -> np.ndarray:
    r"""Element mass matrices of all cells, in interleaved dofs (kg).

    .. math::

        M_e[i a, j b] = \delta_{ab}\, m_{ij} \quad\text{(consistent)}, \qquad
        M_e[i a, j b] = \delta_{ab}\, \delta_{ij}\, m_i \quad\text{(lumped)}

    with :math:`m_{ij}` from :func:`scalar_mass_matrices` and :math:`m_i` from
    :func:`lumped_masses` (with ``axisymmetric=True``: the whole ring's, weight
    :math:`2\pi r` instead of the thickness).

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
        Node coordinates (m).
    block : CellBlock
        2D cells (TRI3, TRI6, QUAD4, QUAD8, QUAD9).
    rho : float
        Density (kg/m^3).
    thickness : float
        Thickness (m).
    lumping : {"consistent", "lumped", "row_sum", "hrz"}
    rule : QuadratureRule, optional
        Default 2x2 Gauss (QUAD4), 3x3 (QUAD8, QUAD9), degree 2 (TRI3), 4 (TRI6).
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
        m = scalar_mass_matrices(points, block, rho, thickness, rule, group, axisymmetric)
        M[:, :, 0, :, 0] = m
        M[:, :, 1, :, 1] = m
    else:
        d = lumped_masses(points, block, rho, thickness, lumping, rule, group, axisymmetric)
        idx = np.arange(nn)
        M[:, idx, 0, idx, 0] = d
        M[:, idx, 1, idx, 1] = d
    return M.reshape(nc, 2 * nn, 2 * nn)
