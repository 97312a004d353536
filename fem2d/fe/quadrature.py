"""Quadrature rules on the reference segment [-1, 1], square [-1, 1]^2 and
triangle (0, 0), (1, 0), (0, 1).

Three families:

* Gauss-Legendre rules (tensor products on the square), exact for
  polynomials of degree ``2 n - 1`` in each variable with ``n`` points per
  direction. Defaults follow code_aster's "full" integration: QUAD4 2x2,
  QUAD8 and QUAD9 3x3, SEG2 2 points, SEG3 3 points.
* Gauss rules on the triangle (:func:`triangle_rule`), exact for polynomials
  of total degree ``d``: the symmetric rules of Strang & Fix / Dunavant up to
  degree 5, the collapsed (Stroud conical) product of Gauss-Jacobi and
  Gauss-Legendre rules above. Defaults integrate the consistent mass exactly
  on straight-sided cells: degree 2 for TRI3, degree 4 for TRI6 (the
  stiffness needs 0 and 2).
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
DEFAULT_GAUSS_POINTS: dict[str, int] = {"seg2": 2, "seg3": 3, "quad4": 2, "quad8": 3, "quad9": 3}

#: Polynomial degree of the triangle rule used when no rule is given.
DEFAULT_TRIANGLE_DEGREE: dict[str, int] = {"tri3": 2, "tri6": 4}

_SEGMENTS = ("seg2", "seg3")
_QUADS = ("quad4", "quad8", "quad9")
_TRIANGLES = tuple(DEFAULT_TRIANGLE_DEGREE)

#: Symmetric triangle rules (Dunavant 1985), by degree: orbits of (barycentric
#: point, weight) with weights summing to 1 (scaled by the area 1/2 below).
#: "centre" is (1/3, 1/3, 1/3); (a, b) stands for the 3 permutations of (a, b, b).
_SYMMETRIC_TRIANGLE = {
    1: [("centre", None, 1.0)],
    2: [("edge", 1.0 / 6.0, 1.0 / 3.0)],
    4: [("edge", 0.445948490915965, 0.223381589678011), ("edge", 0.091576213509771, 0.109951743655322)],
    5: [("centre", None, 0.225), ("edge", 0.470142064105115, 0.132394152788506),
        ("edge", 0.101286507323456, 0.125939180544827)],
}


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


def triangle_rule(degree: int) -> QuadratureRule:
    r"""Gauss rule on the triangle (0, 0), (1, 0), (0, 1), exact to total degree ``degree``.

    Degrees 1, 2, 4 and 5 (3 is served by 4) use the symmetric rules of 1, 3,
    6 and 7 interior points with positive weights (Dunavant 1985). Higher
    degrees use the collapsed product: with :math:`\xi = u`,
    :math:`\eta = v (1 - u)`, :math:`d\xi\, d\eta = (1 - u)\, du\, dv` on the
    unit square,

    .. math::

        \int_T f \, d\xi\, d\eta = \int_0^1\!\!\int_0^1 f(u, v(1-u))\,(1-u)\, du\, dv
        \approx \sum_{i,j} w^{J}_i w^{G}_j f(u_i, v_j (1 - u_i)),

    :math:`n = \lceil (d + 1)/2 \rceil` Gauss-Jacobi points (weight
    :math:`1 - u`) times :math:`n` Gauss-Legendre points, exact to degree
    :math:`2n - 1` in each of u, v, hence to total degree d in (xi, eta).

    Parameters
    ----------
    degree : int
        Total polynomial degree integrated exactly, ``>= 1``.

    Returns
    -------
    QuadratureRule
        Weights sum to the area 1/2.

    Examples
    --------
    The 3-point rule integrates :math:`\xi^2` exactly (1/12):

    >>> rule = triangle_rule(2)
    >>> rule.points
    array([[0.16666667, 0.16666667],
           [0.66666667, 0.16666667],
           [0.16666667, 0.66666667]])
    >>> round(float(rule.weights @ rule.points[:, 0] ** 2), 15)
    0.083333333333333
    """
    if not isinstance(degree, int | np.integer) or degree < 1:
        raise InputError(f"triangle rule: degree must be a positive integer, got {degree!r}")
    degree = 4 if degree == 3 else int(degree)
    if degree in _SYMMETRIC_TRIANGLE:
        bary, weights = [], []
        for orbit, a, w in _SYMMETRIC_TRIANGLE[degree]:
            if orbit == "centre":
                bary.append([1.0 / 3.0] * 3)
                weights.append(w)
            else:
                b = 1.0 - 2.0 * a
                for k in range(3):  # the odd one out in each position
                    point = [a, a, a]
                    point[k] = b
                    bary.append(point)
                    weights.append(w)
        bary = np.array(bary)
        return QuadratureRule(bary[:, 1:], 0.5 * np.array(weights))  # (xi, eta) = (L1, L2)
    n = (degree + 2) // 2
    from scipy.special import roots_jacobi

    s, wj = roots_jacobi(n, 1.0, 0.0)  # weight (1 - s) on [-1, 1]
    u, wu = 0.5 * (s + 1.0), wj / 4.0  # (1 - u) du on [0, 1]: (1 - s)/2 ds/2
    t, wl = gauss_legendre(n)
    v, wv = 0.5 * (t + 1.0), 0.5 * wl
    uu, vv = np.meshgrid(u, v, indexing="ij")
    return QuadratureRule(np.column_stack([uu.ravel(), (vv * (1.0 - uu)).ravel()]), np.outer(wu, wv).ravel())


def gauss_rule(kind: str, n: int | None = None) -> QuadratureRule:
    """Gauss rule for a cell kind: ``n`` points on a segment, ``n x n`` on a
    quad, degree ``n`` on a triangle (:func:`triangle_rule`).

    Parameters
    ----------
    kind : {"seg2", "seg3", "quad4", "quad8", "quad9", "tri3", "tri6"}
        Cell kind (fixes the reference domain).
    n : int, optional
        Points per direction (segments, quads), default
        :data:`DEFAULT_GAUSS_POINTS` ``[kind]``; total degree (triangles),
        default :data:`DEFAULT_TRIANGLE_DEGREE` ``[kind]``.

    Returns
    -------
    QuadratureRule
        On the square the points are ``(xi_i, eta_j)`` with ``xi`` running
        fastest and weights ``w_i w_j``: ``int f dxi deta ~= sum w_i w_j f``.
    """
    if kind in _TRIANGLES:
        return triangle_rule(DEFAULT_TRIANGLE_DEGREE[kind] if n is None else n)
    if kind not in DEFAULT_GAUSS_POINTS:
        known = sorted([*DEFAULT_GAUSS_POINTS, *_TRIANGLES])
        raise InputError(f"no Gauss rule for cell kind {kind!r}; expected one of {known}")
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
    TRI3: the three corners, weights 1/6 each.

    QUAD8 has no such rule: its corner shape functions integrate to -1/3,
    which would give negative nodal weights; nor has TRI6 (zero corner weights).

    Parameters
    ----------
    kind : {"seg2", "seg3", "quad4", "tri3"}

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
    if kind == "tri3":
        return QuadratureRule(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), np.full(3, 1.0 / 6.0))
    raise InputError(f"no nodal integration rule for cell kind {kind!r}; expected seg2, seg3, quad4 or tri3")
