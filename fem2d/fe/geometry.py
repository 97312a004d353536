"""Isoparametric geometry of all cells at all quadrature points at once.

For a 2D cell with node coordinates ``x_j`` and reference shape functions
``N_j(xi)``, the map is ``x(xi) = sum_j N_j(xi) x_j`` with Jacobian::

    J_ab = dx_a / dxi_b = sum_j x_ja dN_j/dxi_b,     dA = det J dxi deta,
    dN_j/dx_a = sum_b dN_j/dxi_b (J^-1)_ba.

For an edge (SEG2/SEG3) the tangent is ``t = dx/dxi = sum_j x_j dN_j/dxi``
and ``ds = |t| dxi``.

Inverted or degenerate cells (``det J <= 0`` at a quadrature point) and
zero-length edges raise :class:`~fem2d.errors.MeshError` listing the cell ids
(positions in the block, 0-based).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fem2d.errors import MeshError
from fem2d.fe.elements import reference_element
from fem2d.fe.quadrature import QuadratureRule, gauss_rule
from fem2d.mesh.mesh import CellBlock

#: How many offending ids an error message lists.
MAX_LISTED = 10


def _where(group: str | None) -> str:
    return f"group {group!r}" if group else "cell block"


def format_ids(ids: np.ndarray) -> str:
    """The first :data:`MAX_LISTED` ids as ``[a, b, ...]``, with the total when there are more."""
    shown = ", ".join(str(int(i)) for i in ids[:MAX_LISTED])
    more = f", ... ({len(ids)} in all)" if len(ids) > MAX_LISTED else ""
    return f"[{shown}{more}]"


def check_jacobians(det: np.ndarray, kind: str, group: str | None = None, offset: int = 0) -> None:
    """Raise MeshError if ``det J <= 0`` (or NaN) at any point of any cell.

    Parameters
    ----------
    det : ndarray, shape (nc, nq)
        Jacobian determinants (m^2).
    kind : str
        Cell kind, for the message.
    group : str, optional
        Group name, for the message.
    offset : int
        Added to the reported ids (when ``det`` covers a slice of a block).
    """
    bad = np.flatnonzero(~(det > 0).all(axis=1))  # the negation also catches NaN
    if len(bad):
        raise MeshError(
            f"{_where(group)}: {len(bad)} inverted or degenerate {kind} cell(s) "
            f"(det J <= 0 at a quadrature point; nodes clockwise or crossed): cell ids {format_ids(bad + offset)}"
        )


def _check_kind(block: CellBlock, dimension: int, group: str | None) -> None:
    if block.dimension != dimension:
        expected = "2D cells (tri3/tri6/quad4/quad8/quad9)" if dimension == 2 else "edges (seg2/seg3)"
        raise MeshError(f"{_where(group)}: expected {expected}, got {block.kind}")


@dataclass(frozen=True)
class CellGeometry:
    """Geometry of the 2D cells of a block at the points of a rule.

    Attributes
    ----------
    x : ndarray, shape (nc, nq, 2)
        Physical coordinates of the quadrature points (m).
    shape : ndarray, shape (nq, nn)
        Shape function values ``N_j(xi_q)`` (the same for every cell).
    grad : ndarray, shape (nc, nq, nn, 2), or None
        Physical gradients ``dN_j/dx_a`` at each point of each cell (1/m);
        None when not asked for.
    det : ndarray, shape (nc, nq)
        ``det J`` (m^2 per unit reference area).
    dx : ndarray, shape (nc, nq)
        Integration weights ``w_q det J`` (m^2): ``int_cell f dA ~= sum_q dx f``.
    """

    x: np.ndarray
    shape: np.ndarray
    grad: np.ndarray | None
    det: np.ndarray
    dx: np.ndarray


@dataclass(frozen=True)
class EdgeGeometry:
    """Geometry of the edges (SEG2/SEG3) of a block at the points of a rule.

    Attributes
    ----------
    x : ndarray, shape (ne, nq, 2)
        Physical coordinates of the quadrature points (m).
    shape : ndarray, shape (nq, nn)
        Shape function values ``N_j(xi_q)``.
    tangent : ndarray, shape (ne, nq, 2)
        ``t = dx/dxi`` (m per unit reference length), along the edge's node order.
    jacobian : ndarray, shape (ne, nq)
        ``|t|`` (m per unit reference length).
    ds : ndarray, shape (ne, nq)
        Integration weights ``w_q |t|`` (m): ``int_edge f ds ~= sum_q ds f``.
    """

    x: np.ndarray
    shape: np.ndarray
    tangent: np.ndarray
    jacobian: np.ndarray
    ds: np.ndarray


def cell_geometry(
    points: np.ndarray,
    block: CellBlock,
    rule: QuadratureRule | None = None,
    group: str | None = None,
    check: bool = True,
    gradients: bool = True,
) -> CellGeometry:
    """Jacobians, determinants and physical gradients of all 2D cells at once.

    ``J_ab = sum_j x_ja dN_j/dxi_b``; ``dN_j/dx_a = sum_b dN_j/dxi_b (J^-1)_ba``;
    ``dx = w_q det J`` (m^2).

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
        Node coordinates (m).
    block : CellBlock
        2D cells (TRI3, TRI6, QUAD4, QUAD8, QUAD9).
    rule : QuadratureRule, optional
        Default: :func:`~fem2d.fe.quadrature.gauss_rule` ``(block.kind)``.
    group : str, optional
        Group name, for error messages.
    check : bool
        Raise MeshError if ``det J <= 0`` at any point (default True).
    gradients : bool
        Compute ``grad`` (default True); False leaves it None (mass, integrals).

    Returns
    -------
    CellGeometry

    Raises
    ------
    MeshError
        Naming the inverted or degenerate cells (first :data:`MAX_LISTED` ids).
    """
    _check_kind(block, 2, group)
    element = reference_element(block.kind)
    rule = gauss_rule(block.kind) if rule is None else rule
    shape = element.shape(rule.points)
    dref = element.grad(rule.points)  # (nq, nn, 2)
    nc, nn = block.nodes.shape
    nq = rule.n_points
    # node coordinates as rows (c, a) so that every contraction over nodes is one BLAS product
    xr = np.asarray(points, dtype=float)[block.nodes][:, :, :2].transpose(0, 2, 1).reshape(nc * 2, nn)
    jac = (xr @ dref.transpose(1, 0, 2).reshape(nn, nq * 2)).reshape(nc, 2, nq, 2)  # J[c, a, q, b]
    j00, j01, j10, j11 = jac[:, 0, :, 0], jac[:, 0, :, 1], jac[:, 1, :, 0], jac[:, 1, :, 1]
    det = j00 * j11 - j01 * j10
    if check:
        check_jacobians(det, block.kind, group)
    x = (xr @ shape.T).reshape(nc, 2, nq).transpose(0, 2, 1)
    grad = None
    if gradients:
        with np.errstate(divide="ignore", invalid="ignore"):
            inv_det = 1.0 / det
        # dN_j/dx_a = dN_j/dxi (J^-1)_0a + dN_j/deta (J^-1)_1a, with J^-1 = adj(J) / det
        d0, d1 = dref[None, :, :, 0], dref[None, :, :, 1]
        grad = np.empty((nc, nq, nn, 2))
        grad[..., 0] = d0 * (j11 * inv_det)[..., None] - d1 * (j10 * inv_det)[..., None]
        grad[..., 1] = d1 * (j00 * inv_det)[..., None] - d0 * (j01 * inv_det)[..., None]
    return CellGeometry(x=x, shape=shape, grad=grad, det=det, dx=det * rule.weights)


def edge_geometry(
    points: np.ndarray,
    block: CellBlock,
    rule: QuadratureRule | None = None,
    group: str | None = None,
    check: bool = True,
) -> EdgeGeometry:
    """Tangents and length elements of all edges at once.

    ``t = dx/dxi = sum_j x_j dN_j/dxi``; ``ds = w_q |t|`` (m).

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
        Node coordinates (m).
    block : CellBlock
        SEG2 or SEG3 cells.
    rule : QuadratureRule, optional
        Default: :func:`~fem2d.fe.quadrature.gauss_rule` ``(block.kind)``.
    group : str, optional
        Group name, for error messages.
    check : bool
        Raise MeshError for zero-length edges (default True).

    Returns
    -------
    EdgeGeometry

    Raises
    ------
    MeshError
        Naming the zero-length edges (first :data:`MAX_LISTED` ids).
    """
    _check_kind(block, 1, group)
    element = reference_element(block.kind)
    rule = gauss_rule(block.kind) if rule is None else rule
    shape = element.shape(rule.points)
    dref = element.grad(rule.points)[:, :, 0]  # (nq, nn)
    xe = np.asarray(points, dtype=float)[block.nodes][:, :, :2]
    tangent = np.einsum("cja,qj->cqa", xe, dref)
    jacobian = np.hypot(tangent[..., 0], tangent[..., 1])
    if check:
        bad = np.flatnonzero(~(jacobian > 0).all(axis=1) | _zero_length(xe))
        if len(bad):
            raise MeshError(
                f"{_where(group)}: {len(bad)} zero-length {block.kind} edge(s) (coincident end nodes): "
                f"edge ids {format_ids(bad)}"
            )
    x = np.einsum("qj,cja->cqa", shape, xe)
    return EdgeGeometry(x=x, shape=shape, tangent=tangent, jacobian=jacobian, ds=jacobian * rule.weights)


def _zero_length(xe: np.ndarray) -> np.ndarray:
    """Edges whose end nodes coincide, to round-off of the coordinates' size."""
    chord = np.hypot(*(xe[:, 1] - xe[:, 0]).T)
    scale = np.abs(xe).max(axis=(1, 2)) + np.finfo(float).tiny
    return chord <= 1e-13 * scale
