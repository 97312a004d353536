"""Quadrature rules on the reference segment [-1, 1] and square [-1, 1]^2.

Two families:

* Gauss-Legendre rules (tensor products on the square), exact for
  polynomials of degree ``2 n - 1`` in each variable with ``n`` points per
  direction. Defaults follow code_aster's "full" integration: QUAD4 2x2,
  QUAD8 3x3, SEG2 2 points, SEG3 3 points.
* Nodal rules (Newton-Cotes): the points are the element's nodes, in node
  order, and the weights are the integrals of the shape functions,
  ``w_i = int N_i dxi``. They are what contact "nodal integration" uses:
  a nodal quantity ``g_i`` is integrated as ``sum_i w_i g_i``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fem2d.errors import InputError

#: Gauss points per direction used when no rule is given.
DEFAULT_GAUSS_POINTS: dict[str, int] = {"seg2": 2, "seg3": 3, "quad4": 2, "quad8": 3}

_SEGMENTS = ("seg2", "seg3")
_QUADS = ("quad4", "quad8")


@dataclass(frozen=True)
class QuadratureRule:
    """Points ``points`` (nq, dim) in reference coordinates and weights (nq,).

    ``int_ref f dxi ~= sum_q weights[q] f(points[q])``; the weights of a rule
    on the segment sum to 2, on the square to 4.
    """

    points: np.ndarray
    weights: np.ndarray

    def __post_init__(self) -> None:
        pts = np.asarray(self.points, dtype=float)
        pts = pts.reshape(-1, 1) if pts.ndim == 1 else pts  # 1D points may come as a flat array
        w = np.asarray(self.weights, dtype=float).ravel()
        if len(w) != len(pts):
            raise InputError(f"quadrature rule: {len(pts)} points but {len(w)} weights")
        object.__setattr__(self, "points", pts)
        object.__setattr__(self, "weights", w)

    @property
    def n_points(self) -> int:
        return len(self.weights)

    @property
    def dimension(self) -> int:
        return self.points.shape[1]


def gauss_legendre(n: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Gauss-Legendre points and weights on [-1, 1].

    Parameters
    ----------
    n : int
        Number of points, ``n >= 1``; exact for polynomials of degree ``2 n - 1``.

    Returns
    -------
    points, weights : ndarray, shape (n,)
        ``int_{-1}^{1} f(xi) dxi ~= sum_q weights[q] f(points[q])`` (dimensionless).

    Examples
    --------
    Two points integrate :math:`\xi^2` exactly (2/3):

    >>> points, weights = gauss_legendre(2)
    >>> points, weights
    (array([-0.57735027,  0.57735027]), array([1., 1.]))
    >>> round(float(weights @ points**2), 15)
    0.666666666666667
    """
    if not isinstance(n, int | np.integer) or n < 1:
        raise InputError(f"Gauss-Legendre rule: number of points must be a positive integer, got {n!r}")
    points, weights = np.polynomial.legendre.leggauss(int(n))
    return points, weights


def gauss_rule(kind: str, n: int | None = None) -> QuadratureRule:
    """Gauss rule for a cell kind: ``n`` points on a segment, ``n x n`` on a quad.

    Parameters
    ----------
    kind : {"seg2", "seg3", "quad4", "quad8"}
        Cell kind (fixes the reference domain).
    n : int, optional
        Points per direction; default :data:`DEFAULT_GAUSS_POINTS` ``[kind]``.

    Returns
    -------
    QuadratureRule
        On the square the points are ``(xi_i, eta_j)`` with ``xi`` running
        fastest and weights ``w_i w_j``: ``int f dxi deta ~= sum w_i w_j f``.
    """
    if kind not in DEFAULT_GAUSS_POINTS:
        raise InputError(f"no Gauss rule for cell kind {kind!r}; expected one of {sorted(DEFAULT_GAUSS_POINTS)}")
    x, w = gauss_legendre(DEFAULT_GAUSS_POINTS[kind] if n is None else n)
    if kind in _SEGMENTS:
        return QuadratureRule(x[:, None], w)
    xi, eta = np.meshgrid(x, x, indexing="xy")
    wx, wy = np.meshgrid(w, w, indexing="xy")
    return QuadratureRule(np.column_stack([xi.ravel(), eta.ravel()]), (wx * wy).ravel())


def nodal_rule(kind: str) -> QuadratureRule:
    """Nodal (Newton-Cotes) rule: points at the nodes, weights ``int N_i dxi``.

    SEG2: points (-1, 1), weights (1, 1) (trapezoidal rule).
    SEG3: points (-1, 1, 0) in node order, weights (1/3, 1/3, 4/3) (Simpson).
    QUAD4: the four corners, weights 1 each.

    QUAD8 has no such rule: its corner shape functions integrate to -1/3,
    which would give negative nodal weights.

    Parameters
    ----------
    kind : {"seg2", "seg3", "quad4"}

    Returns
    -------
    QuadratureRule
        Point ``q`` is node ``q`` of the element, so ``weights[i]`` is the
        weight of node ``i`` (dimensionless; multiply by the Jacobian).

    Examples
    --------
    >>> nodal_rule("seg3").weights
    array([0.33333333, 0.33333333, 1.33333333])
    """
    if kind == "seg2":
        return QuadratureRule(np.array([[-1.0], [1.0]]), np.array([1.0, 1.0]))
    if kind == "seg3":
        return QuadratureRule(np.array([[-1.0], [1.0], [0.0]]), np.array([1.0, 1.0, 4.0]) / 3.0)
    if kind == "quad4":
        corners = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
        return QuadratureRule(corners, np.ones(4))
    raise InputError(f"no nodal integration rule for cell kind {kind!r}; expected seg2, seg3 or quad4")
