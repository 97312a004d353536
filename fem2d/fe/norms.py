"""Integrals over cell blocks (:func:`integrate_over_cells`) and error norms of FE
displacements (:func:`error_norms`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from fem2d.errors import InputError
from fem2d.fe.assembly import node_dofs
from fem2d.fe.geometry import cell_geometry
from fem2d.fe.quadrature import DEFAULT_GAUSS_POINTS, DEFAULT_TRIANGLE_DEGREE, QuadratureRule, gauss_rule
from fem2d.mesh.mesh import CellBlock

Field = Callable[[np.ndarray, np.ndarray], object]


def error_rule(kind: str) -> QuadratureRule:
    """Gauss rule with two more points per direction than the default for ``kind``
    (on a triangle: four more degrees, the same gain)."""
    if kind in DEFAULT_TRIANGLE_DEGREE:
        return gauss_rule(kind, DEFAULT_TRIANGLE_DEGREE[kind] + 4)
    return gauss_rule(kind, DEFAULT_GAUSS_POINTS[kind] + 2)


def integrate_over_cells(
    points: np.ndarray,
    block: CellBlock,
    func: Field,
    rule: QuadratureRule | None = None,
    group: str | None = None,
) -> np.ndarray:
    """Integral of ``func`` over each 2D cell: ``I_c = sum_q w_q det J f(x_q)``.

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
        Node coordinates (m).
    block : CellBlock
        2D cells (TRI3, TRI6, QUAD4, QUAD8, QUAD9).
    func : callable ``f(x, y)``
        Receives arrays (nc, nq); returns an array broadcastable to (nc, nq),
        or with trailing component axes (nc, nq, ...).
    rule : QuadratureRule, optional
        Default :func:`error_rule` of the cell kind.
    group : str, optional

    Returns
    -------
    ndarray, shape (nc, ...)
        Per-cell integrals (units of f times m^2); sum them for the total.
    """
    rule = error_rule(block.kind) if rule is None else rule
    geo = cell_geometry(points, block, rule, group, gradients=False)
    f = np.asarray(func(geo.x[..., 0], geo.x[..., 1]), dtype=float)
    f = np.broadcast_to(f, geo.dx.shape + f.shape[2:])
    return np.einsum("cq,cq...->c...", geo.dx, f)


def _leaves(value: object, ndim: int) -> list:
    """Split nested (tuple | list | array) components down to arrays of ``ndim`` dims or scalars."""
    if isinstance(value, tuple | list) or (isinstance(value, np.ndarray) and value.ndim > ndim):
        return [leaf for v in value for leaf in _leaves(v, ndim)]
    return [value]


def _components(value: object, shape: tuple[int, ...], n: int, what: str) -> np.ndarray:
    """Stack the ``n`` components of a field value, each broadcast to ``shape``."""
    leaves = _leaves(value, len(shape))
    if len(leaves) != n:
        raise InputError(f"{what}: expected {n} components, got {len(leaves)}")
    try:
        return np.stack([np.broadcast_to(np.asarray(v, dtype=float), shape) for v in leaves])
    except ValueError:
        raise InputError(f"{what}: components do not broadcast to the point array shape {shape}") from None


def error_norms(
    points: np.ndarray,
    block: CellBlock,
    u: np.ndarray,
    exact: Field,
    exact_gradient: Field | None = None,
    rule: QuadratureRule | None = None,
    group: str | None = None,
) -> tuple[float, float]:
    r"""L2 norm and H1 seminorm of ``u - u_h`` over a block of 2D cells.

    .. math::

        \|u - u_h\|_{L^2} = \Big(\int |u - u_h|^2\, dA\Big)^{1/2}
            = \Big(\sum_c \sum_q w_q \det J_q\, |u(x_q) - u_h(x_q)|^2\Big)^{1/2} \quad (m^2),

        |u - u_h|_{H^1} = \Big(\int \sum_{a,k} (\partial_k u_a - \partial_k u_{h,a})^2\, dA\Big)^{1/2} \quad (m),

    with a Gauss rule two points richer per direction than the element's
    default (:func:`error_rule`), so that quadrature error stays below the
    discretisation error.

    >>> from fem2d.mesh.mesh import CellBlock
    >>> square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> cell = CellBlock("quad4", np.array([[0, 1, 2, 3]]))
    >>> round(error_norms(square, cell, np.zeros(8), lambda x, y: (x, 0 * y))[0] ** 2, 12)  # int x^2 = 1/3
    0.333333333333

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
        Node coordinates (m).
    block : CellBlock
        2D cells (TRI3, TRI6, QUAD4, QUAD8, QUAD9).
    u : ndarray, shape (2 n_nodes,)
        FE displacement, interleaved (m).
    exact : callable ``(x, y) -> (ux, uy)``
        Exact displacement (m); x, y are arrays (nc, nq).
    exact_gradient : callable ``(x, y) -> ((dux/dx, dux/dy), (duy/dx, duy/dy))``, optional
        Exact displacement gradient; without it the H1 seminorm is NaN.
    rule : QuadratureRule, optional
        Default :func:`error_rule` of the cell kind.
    group : str, optional

    Returns
    -------
    (float, float)
        ``(e_L2, e_H1)`` in m^2 and m (per unit thickness).
    """
    u = np.asarray(u, dtype=float).ravel()
    if u.size != 2 * len(points):
        raise InputError(f"error_norms: displacement has {u.size} entries; expected {2 * len(points)}")
    rule = error_rule(block.kind) if rule is None else rule
    geo = cell_geometry(points, block, rule, group)
    ue = u[node_dofs(block.nodes)].reshape(len(block), -1, 2)  # (nc, nn, 2)
    x, y = geo.x[..., 0], geo.x[..., 1]
    uh = np.einsum("qj,cja->acq", geo.shape, ue)  # (2, nc, nq)
    ex = _components(exact(x, y), x.shape, 2, "exact displacement")
    l2 = float(np.sqrt(np.sum(geo.dx * np.sum((ex - uh) ** 2, axis=0))))
    if exact_gradient is None:
        return l2, float("nan")
    gh = np.einsum("cja,cqjk->akcq", ue, geo.grad)  # (2, 2, nc, nq)
    g = _components(exact_gradient(x, y), x.shape, 4, "exact gradient").reshape(2, 2, *x.shape)
    h1 = float(np.sqrt(np.sum(geo.dx * np.sum((g - gh) ** 2, axis=(0, 1)))))
    return l2, h1
