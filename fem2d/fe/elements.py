"""Reference elements: shape functions and their reference derivatives.

Node orders are those of :mod:`fem2d.mesh.mesh` (Gmsh / meshio / VTK); the
shape functions are on :meth:`ReferenceElement.shape` and :func:`line_shape`.
All functions take the reference points as an array (nq, dim) and return
arrays over all points at once: values (nq, nn), derivatives (nq, nn, dim).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from fem2d.errors import InputError

_CORNERS = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
_MIDS = np.array([[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
_TRI_CORNERS = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
_TRI_MIDS = np.array([[0.5, 0.0], [0.5, 0.5], [0.0, 0.5]])
#: the triangle's mid-side nodes 3, 4, 5 sit on the corner pairs (0,1), (1,2), (2,0)
_TRI_EDGES = ((0, 1), (1, 2), (2, 0))
#: gradients of the area coordinates L0 = 1 - xi - eta, L1 = xi, L2 = eta (constant)
_AREA_GRAD = np.array([[-1.0, -1.0], [1.0, 0.0], [0.0, 1.0]])
#: QUAD9 node i sits at (xi_i, eta_i); its index among the SEG3 nodes (-1, 1, 0) in each direction
_QUAD9_NODES = np.vstack([_CORNERS, _MIDS, [[0.0, 0.0]]])
_SEG3_INDEX = {-1.0: 0, 1.0: 1, 0.0: 2}
_QUAD9_IX = np.array([_SEG3_INDEX[v] for v in _QUAD9_NODES[:, 0]])
_QUAD9_IY = np.array([_SEG3_INDEX[v] for v in _QUAD9_NODES[:, 1]])


def _split(xi: np.ndarray, dim: int) -> np.ndarray:
    xi = np.asarray(xi, dtype=float)
    xi = xi.reshape(-1, 1) if xi.ndim == 1 and dim == 1 else np.atleast_2d(xi)
    if xi.shape[1] != dim:
        raise InputError(f"reference points must have shape (n, {dim}), got {xi.shape}")
    return xi


def _quad4_shape(xi: np.ndarray) -> np.ndarray:
    x, y = xi[:, :1], xi[:, 1:]
    return 0.25 * (1 + x * _CORNERS[:, 0]) * (1 + y * _CORNERS[:, 1])


def _quad4_grad(xi: np.ndarray) -> np.ndarray:
    x, y = xi[:, :1], xi[:, 1:]
    cx, cy = _CORNERS[:, 0], _CORNERS[:, 1]
    return np.stack([0.25 * cx * (1 + y * cy), 0.25 * cy * (1 + x * cx)], axis=-1)


def _quad8_shape(xi: np.ndarray) -> np.ndarray:
    x, y = xi[:, :1], xi[:, 1:]
    cx, cy = _CORNERS[:, 0], _CORNERS[:, 1]
    corner = 0.25 * (1 + x * cx) * (1 + y * cy) * (x * cx + y * cy - 1)
    # mid-side nodes 4, 6 lie on eta = -1, +1 (xi_i = 0); 5, 7 on xi = +1, -1 (eta_i = 0)
    m4 = 0.5 * (1 - x * x) * (1 - y)
    m5 = 0.5 * (1 + x) * (1 - y * y)
    m6 = 0.5 * (1 - x * x) * (1 + y)
    m7 = 0.5 * (1 - x) * (1 - y * y)
    return np.hstack([corner, m4, m5, m6, m7])


def _quad8_grad(xi: np.ndarray) -> np.ndarray:
    x, y = xi[:, :1], xi[:, 1:]
    cx, cy = _CORNERS[:, 0], _CORNERS[:, 1]
    dcx = 0.25 * cx * (1 + y * cy) * (2 * x * cx + y * cy)
    dcy = 0.25 * cy * (1 + x * cx) * (x * cx + 2 * y * cy)
    dx = np.hstack([dcx, -x * (1 - y), 0.5 * (1 - y * y), -x * (1 + y), -0.5 * (1 - y * y)])
    dy = np.hstack([dcy, -0.5 * (1 - x * x), -y * (1 + x), 0.5 * (1 - x * x), -y * (1 - x)])
    return np.stack([dx, dy], axis=-1)


def _area_coordinates(xi: np.ndarray) -> np.ndarray:
    """``(L0, L1, L2) = (1 - xi - eta, xi, eta)`` at each point, shape (nq, 3)."""
    return np.column_stack([1.0 - xi[:, 0] - xi[:, 1], xi[:, 0], xi[:, 1]])


def _tri3_shape(xi: np.ndarray) -> np.ndarray:
    return _area_coordinates(xi)


def _tri3_grad(xi: np.ndarray) -> np.ndarray:
    return np.broadcast_to(_AREA_GRAD, (len(xi), 3, 2)).copy()


def _tri6_shape(xi: np.ndarray) -> np.ndarray:
    L = _area_coordinates(xi)
    mids = [4.0 * L[:, i] * L[:, j] for i, j in _TRI_EDGES]
    return np.column_stack([L * (2.0 * L - 1.0), *mids])


def _tri6_grad(xi: np.ndarray) -> np.ndarray:
    L = _area_coordinates(xi)
    corners = (4.0 * L - 1.0)[:, :, None] * _AREA_GRAD[None]
    mids = [4.0 * (L[:, i, None] * _AREA_GRAD[j] + L[:, j, None] * _AREA_GRAD[i]) for i, j in _TRI_EDGES]
    return np.concatenate([corners, np.stack(mids, axis=1)], axis=1)


def _quad9_shape(xi: np.ndarray) -> np.ndarray:
    lx, ly = line_shape("seg3", xi[:, 0]), line_shape("seg3", xi[:, 1])
    return lx[:, _QUAD9_IX] * ly[:, _QUAD9_IY]


def _quad9_grad(xi: np.ndarray) -> np.ndarray:
    lx, ly = line_shape("seg3", xi[:, 0]), line_shape("seg3", xi[:, 1])
    dx, dy = line_shape_derivative("seg3", xi[:, 0]), line_shape_derivative("seg3", xi[:, 1])
    return np.stack([dx[:, _QUAD9_IX] * ly[:, _QUAD9_IY], lx[:, _QUAD9_IX] * dy[:, _QUAD9_IY]], axis=-1)


def line_shape(kind: str, xi: np.ndarray) -> np.ndarray:
    r"""Shape functions of a SEG2/SEG3 line at local coordinates ``xi`` (any shape).

    .. math::

        N^{SEG2} = \left(\tfrac{1-\xi}{2}, \tfrac{1+\xi}{2}\right), \qquad
        N^{SEG3} = \left(\tfrac{\xi(\xi-1)}{2}, \tfrac{\xi(\xi+1)}{2}, 1-\xi^2\right)

    (ends first, then the middle node). Returns an array of shape
    ``xi.shape + (n_nodes,)`` (dimensionless); the values sum to 1.

    >>> line_shape("seg3", np.array([-1.0, 0.5]))
    array([[ 1.   , -0.   ,  0.   ],
           [-0.125,  0.375,  0.75 ]])
    """
    xi = np.asarray(xi, dtype=float)
    if kind == "seg2":
        out = np.empty(xi.shape + (2,))
        out[..., 0] = 0.5 * (1.0 - xi)
        out[..., 1] = 0.5 * (1.0 + xi)
        return out
    if kind == "seg3":
        out = np.empty(xi.shape + (3,))
        out[..., 0] = 0.5 * xi * (xi - 1.0)
        out[..., 1] = 0.5 * xi * (xi + 1.0)
        out[..., 2] = 1.0 - xi * xi
        return out
    raise InputError(f"line shape functions are for seg2 or seg3 edges, got {kind!r}")


def line_shape_derivative(kind: str, xi: np.ndarray) -> np.ndarray:
    r""":math:`dN/d\xi` of a SEG2/SEG3 line (shape ``xi.shape + (n_nodes,)``).

    >>> line_shape_derivative("seg2", np.zeros(1))
    array([[-0.5,  0.5]])
    """
    xi = np.asarray(xi, dtype=float)
    if kind == "seg2":
        out = np.empty(xi.shape + (2,))
        out[..., 0], out[..., 1] = -0.5, 0.5
        return out
    if kind == "seg3":
        out = np.empty(xi.shape + (3,))
        out[..., 0] = xi - 0.5
        out[..., 1] = xi + 0.5
        out[..., 2] = -2.0 * xi
        return out
    raise InputError(f"line shape functions are for seg2 or seg3 edges, got {kind!r}")




def _seg2_shape(xi: np.ndarray) -> np.ndarray:
    return line_shape("seg2", xi[:, 0])


def _seg2_grad(xi: np.ndarray) -> np.ndarray:
    return line_shape_derivative("seg2", xi[:, 0])[:, :, None]


def _seg3_shape(xi: np.ndarray) -> np.ndarray:
    return line_shape("seg3", xi[:, 0])


def _seg3_grad(xi: np.ndarray) -> np.ndarray:
    return line_shape_derivative("seg3", xi[:, 0])[:, :, None]


@dataclass(frozen=True)
class ReferenceElement:
    """A Lagrange-type reference element.

    Attributes
    ----------
    kind : str
        Cell kind ("tri3", "tri6", "quad4", "quad8", "quad9", "seg2", "seg3").
    dimension : int
        Reference dimension (2 for triangles and quads, 1 for segments).
    nodes : ndarray, shape (nn, dimension)
        Reference coordinates of the nodes, in mesh node order.
    """

    kind: str
    dimension: int
    nodes: np.ndarray
    _shape: Callable[[np.ndarray], np.ndarray]
    _grad: Callable[[np.ndarray], np.ndarray]

    @property
    def n_nodes(self) -> int:
        return len(self.nodes)

    def shape(self, xi: np.ndarray) -> np.ndarray:
        r"""Shape function values ``N[q, i] = N_i(xi_q)`` (dimensionless).

        QUAD4 on :math:`[-1, 1]^2`, corners :math:`(\xi_i, \eta_i)`
        counter-clockwise from (-1, -1):

        .. math::

            N_i = \tfrac14 (1 + \xi \xi_i)(1 + \eta \eta_i)

        QUAD8 (serendipity), the corners then the mid-side nodes of the edges
        (0,1), (1,2), (2,3), (3,0), at (0,-1), (1,0), (0,1), (-1,0):

        .. math::

            N_i^{corner} = \tfrac14 (1 + \xi \xi_i)(1 + \eta \eta_i)(\xi \xi_i + \eta \eta_i - 1), \quad
            N_i^{\xi_i = 0} = \tfrac12 (1 - \xi^2)(1 + \eta \eta_i), \quad
            N_i^{\eta_i = 0} = \tfrac12 (1 + \xi \xi_i)(1 - \eta^2)

        QUAD9 (Lagrange), the QUAD8 nodes then the centre: the tensor product
        of the SEG3 functions :math:`\ell_{-1}(s) = s(s-1)/2`,
        :math:`\ell_{1}(s) = s(s+1)/2`, :math:`\ell_{0}(s) = 1 - s^2` of
        :func:`line_shape`,

        .. math::

            N_i = \ell_{\xi_i}(\xi)\, \ell_{\eta_i}(\eta) .

        TRI3 and TRI6 on the triangle (0, 0), (1, 0), (0, 1), with the area
        coordinates :math:`L_0 = 1 - \xi - \eta`, :math:`L_1 = \xi`,
        :math:`L_2 = \eta`; TRI6 lists the corners then the mid-side nodes of
        the edges (0,1), (1,2), (2,0):

        .. math::

            N_i^{TRI3} = L_i, \qquad
            N_i^{TRI6, corner} = L_i (2 L_i - 1), \qquad
            N_{ij}^{TRI6, mid} = 4 L_i L_j .

        SEG2 and SEG3: :func:`line_shape`.

        Parameters
        ----------
        xi : ndarray, shape (nq, dimension)
            Reference points (a flat (nq,) array is accepted for segments).

        Returns
        -------
        ndarray, shape (nq, nn)

        Examples
        --------
        At the centre of a QUAD8, the corners weigh -1/4 and the mid-side nodes 1/2:

        >>> reference_element("quad8").shape(np.array([[0.0, 0.0]]))
        array([[-0.25, -0.25, -0.25, -0.25,  0.5 ,  0.5 ,  0.5 ,  0.5 ]])

        At the centroid of a TRI6, the corners weigh -1/9 and the mid-side nodes 4/9:

        >>> reference_element("tri6").shape(np.array([[1 / 3, 1 / 3]])) * 9
        array([[-1., -1., -1.,  4.,  4.,  4.]])

        Each QUAD9 function is 1 at its own node and 0 at the others:

        >>> element = reference_element("quad9")
        >>> np.array_equal(element.shape(element.nodes), np.eye(9))
        True
        """
        return self._shape(_split(xi, self.dimension))

    def grad(self, xi: np.ndarray) -> np.ndarray:
        r"""Reference derivatives ``dN[q, i, b] = dN_i/dxi_b (xi_q)``.

        For the triangles, with :math:`\nabla L_0 = (-1, -1)`,
        :math:`\nabla L_1 = (1, 0)`, :math:`\nabla L_2 = (0, 1)`:
        :math:`\nabla N_i^{TRI6, corner} = (4 L_i - 1) \nabla L_i` and
        :math:`\nabla N_{ij}^{TRI6, mid} = 4 (L_i \nabla L_j + L_j \nabla L_i)`.
        For QUAD9, :math:`\partial_\xi N_i = \ell'_{\xi_i}(\xi)\, \ell_{\eta_i}(\eta)`
        and likewise in :math:`\eta`. The derivatives of every element sum
        to zero over its nodes (the functions sum to 1):

        >>> bool(np.allclose(reference_element("tri6").grad(np.array([[0.2, 0.3]])).sum(axis=1), 0.0))
        True

        Parameters
        ----------
        xi : ndarray, shape (nq, dimension)

        Returns
        -------
        ndarray, shape (nq, nn, dimension)
        """
        return self._grad(_split(xi, self.dimension))


#: The reference element of each cell kind.
ELEMENTS: dict[str, ReferenceElement] = {
    "quad4": ReferenceElement("quad4", 2, _CORNERS.copy(), _quad4_shape, _quad4_grad),
    "quad8": ReferenceElement("quad8", 2, np.vstack([_CORNERS, _MIDS]), _quad8_shape, _quad8_grad),
    "quad9": ReferenceElement("quad9", 2, _QUAD9_NODES.copy(), _quad9_shape, _quad9_grad),
    "tri3": ReferenceElement("tri3", 2, _TRI_CORNERS.copy(), _tri3_shape, _tri3_grad),
    "tri6": ReferenceElement("tri6", 2, np.vstack([_TRI_CORNERS, _TRI_MIDS]), _tri6_shape, _tri6_grad),
    "seg2": ReferenceElement("seg2", 1, np.array([[-1.0], [1.0]]), _seg2_shape, _seg2_grad),
    "seg3": ReferenceElement("seg3", 1, np.array([[-1.0], [1.0], [0.0]]), _seg3_shape, _seg3_grad),
}


def reference_element(kind: str) -> ReferenceElement:
    """The :class:`ReferenceElement` of cell kind ``kind``; InputError if unknown."""
    try:
        return ELEMENTS[kind]
    except KeyError:
        raise InputError(f"no finite element for cell kind {kind!r}; expected one of {sorted(ELEMENTS)}") from None
