r"""Consistent nodal forces: edge pressure (:func:`pressure_vectors`) and traction,
body force, point forces.

Loads given as callables are evaluated on all quadrature points at once:
``p(x, y)`` receives arrays of shape (n_cells, nq) and returns an array that
broadcasts to that shape; ``traction(x, y)`` and ``force(x, y)`` return a pair
``(fx, fy)`` of such arrays.

With ``axisymmetric=True`` (x the radius r, y the axis z) the thickness is replaced
by the circumference :math:`2\pi r` at each quadrature point
(:func:`~fem2d.fe.axisymmetric.radial_weights`): the nodal forces are totals over
the whole ring (N), e.g. :math:`f_i = \int T N_i\, 2\pi r\, ds` for a traction.
A point force (:func:`point_force_load`) is already a total ring force.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from fem2d.errors import InputError
from fem2d.fe.assembly import assemble_vector, node_dofs
from fem2d.fe.axisymmetric import radial_weights
from fem2d.fe.boundary import edge_orientation
from fem2d.fe.geometry import cell_geometry, edge_geometry
from fem2d.fe.quadrature import QuadratureRule, gauss_rule
from fem2d.mesh.mesh import CellBlock, Mesh

Scalar = float | Callable[[np.ndarray, np.ndarray], np.ndarray]
Vector = Sequence[float] | np.ndarray | Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def _scalar_field(value: Scalar, x: np.ndarray, what: str) -> np.ndarray:
    v = value(x[..., 0], x[..., 1]) if callable(value) else value
    try:
        return np.broadcast_to(np.asarray(v, dtype=float), x.shape[:-1])
    except ValueError:
        raise InputError(f"{what}: the value has shape {np.shape(v)}; expected a scalar or {x.shape[:-1]}") from None


def _vector_field(value: Vector, x: np.ndarray, what: str) -> np.ndarray:
    v = value(x[..., 0], x[..., 1]) if callable(value) else value
    if len(v) != 2:
        raise InputError(f"{what}: expected two components (fx, fy), got {len(v)}")
    return np.stack([_scalar_field(float(c) if np.ndim(c) == 0 else c, x, what) for c in v], axis=-1)


def _weights(thickness: float, axisymmetric: bool, x: np.ndarray) -> np.ndarray | float:
    """The out-of-plane factor of each quadrature point: the thickness, or 2 pi r."""
    if not np.isfinite(thickness) or thickness <= 0:
        raise InputError(f"loads: thickness must be positive, got {thickness!r}")
    if axisymmetric:
        if thickness != 1.0:
            raise InputError(f"loads: an axisymmetric body has no thickness (its weight is 2 pi r), got {thickness!r}")
        return radial_weights(x)
    return thickness


def pressure_vectors(
    points: np.ndarray,
    block: CellBlock,
    orientation: np.ndarray,
    pressure: Scalar,
    thickness: float = 1.0,
    rule: QuadratureRule | None = None,
    group: str | None = None,
    axisymmetric: bool = False,
) -> np.ndarray:
    r"""Consistent nodal forces of a pressure on edges (N).

    code_aster's PRES_REP: a positive pressure :math:`p` pushes *into* the
    body, the surface force density is :math:`-p\, n` with :math:`n` the
    outward unit normal. With :math:`t = dx/d\xi` and the orientation sign
    :math:`s` of the edge (:func:`~fem2d.fe.boundary.edge_orientation`),
    :math:`n\, ds = s\, (t_y, -t_x)\, d\xi`, so

    .. math::

        f_i = -t_h \int p\, N_i\, n\, ds
            = -t_h \sum_q w_q\, p(x_q)\, N_i(\xi_q)\, s\, (t_y, -t_x)(\xi_q).

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
        Node coordinates (m).
    block : CellBlock
        SEG2 or SEG3 edges.
    orientation : ndarray, shape (n_edges,)
        ``+1/-1`` from :func:`~fem2d.fe.boundary.edge_orientation`.
    pressure : float or callable ``p(x, y)``
        Pressure (Pa), positive into the body.
    thickness : float
        Thickness (m).
    rule : QuadratureRule, optional
        Default Gauss rule of the edge kind (exact for uniform pressure).
    group : str, optional
        Group name, for error messages.
    axisymmetric : bool
        x is the radius: :math:`t_h` becomes :math:`2\pi r` (the whole ring's forces).

    Returns
    -------
    ndarray, shape (n_edges, 2 nn)
        Interleaved ``(fx_0, fy_0, fx_1, ...)``; assemble with ``node_dofs(block.nodes)``.

    Examples
    --------
    1 kPa on a 2 m edge along the bottom of a body (outward normal -y) pushes
    each end up with half of the 2 kN:

    >>> edge = CellBlock("seg2", np.array([[0, 1]]))
    >>> pressure_vectors(np.array([[0.0, 0.0], [2.0, 0.0]]), edge, np.array([1.0]), 1000.0)
    array([[   0., 1000.,    0., 1000.]])

    The same edge as the bottom of an axisymmetric body (x the radius, 0 < r < 2) carries
    :math:`p \pi r^2 = 4000 \pi` N, one third at the axis, two thirds at r = 2:

    >>> f = pressure_vectors(np.array([[0.0, 0.0], [2.0, 0.0]]), edge, np.array([1.0]), 1000.0, axisymmetric=True)
    >>> (f / np.pi).round(9).tolist()
    [[0.0, 1333.333333333, 0.0, 2666.666666667]]
    """
    rule = gauss_rule(block.kind) if rule is None else rule
    geo = edge_geometry(points, block, rule, group)
    thickness = _weights(thickness, axisymmetric, geo.x)
    s = np.asarray(orientation, dtype=float).reshape(-1, 1)
    if s.shape[0] != len(block):
        raise InputError(f"pressure: {s.shape[0]} orientation signs for {len(block)} edges")
    p = _scalar_field(pressure, geo.x, f"pressure on {group or 'edges'}")
    w = (-thickness * p * s * rule.weights)[..., None]  # (ne, nq, 1): -t_h p s w_q
    n_ds = np.stack([geo.tangent[..., 1], -geo.tangent[..., 0]], axis=-1)  # (t_y, -t_x), |.| = |t|
    f = np.einsum("qj,cqa->cja", geo.shape, w * n_ds)
    return f.reshape(len(block), -1)


def traction_vectors(
    points: np.ndarray,
    block: CellBlock,
    traction: Vector,
    thickness: float = 1.0,
    rule: QuadratureRule | None = None,
    group: str | None = None,
    axisymmetric: bool = False,
) -> np.ndarray:
    """Consistent nodal forces of a surface traction on edges (N).

    ``f_i = t_h int T N_i ds = t_h sum_q w_q |t| T(x_q) N_i`` with ``T = (Tx, Ty)``
    in Pa (force per unit area of the reference surface); ``t_h = 2 pi r`` when axisymmetric.

    Parameters
    ----------
    points, block, thickness, rule, group, axisymmetric
        As in :func:`pressure_vectors`.
    traction : (Tx, Ty) or callable ``(x, y) -> (Tx, Ty)``
        Traction vector (Pa), in global axes.

    Returns
    -------
    ndarray, shape (n_edges, 2 nn)
    """
    geo = edge_geometry(points, block, rule, group)
    weights = _weights(thickness, axisymmetric, geo.x)
    T = _vector_field(traction, geo.x, f"traction on {group or 'edges'}")
    if axisymmetric:
        f = np.einsum("qj,cq,cqa->cja", geo.shape, geo.ds * weights, T)
    else:  # the thickness outside, as it always was: plane answers unchanged to the last bit
        f = weights * np.einsum("qj,cq,cqa->cja", geo.shape, geo.ds, T)
    return f.reshape(len(block), -1)


def body_force_vectors(
    points: np.ndarray,
    block: CellBlock,
    force: Vector,
    thickness: float = 1.0,
    rule: QuadratureRule | None = None,
    group: str | None = None,
    axisymmetric: bool = False,
) -> np.ndarray:
    """Consistent nodal forces of a body force density on 2D cells (N).

    ``f_i = t_h int b N_i dA = t_h sum_q w_q det J b(x_q) N_i`` with
    ``b = (bx, by)`` in N/m^3 (``rho g`` for weight); ``t_h = 2 pi r`` when
    ``axisymmetric`` (x the radius: the whole ring's forces).

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
    block : CellBlock
        2D cells (TRI3, TRI6, QUAD4, QUAD8, QUAD9).
    force : (bx, by) or callable ``(x, y) -> (bx, by)``
        Body force density (N/m^3).
    thickness : float
        Thickness (m).
    rule : QuadratureRule, optional
        Default Gauss rule of the cell kind.
    group : str, optional

    Returns
    -------
    ndarray, shape (n_cells, 2 nn)
    """
    geo = cell_geometry(points, block, rule, group)
    weights = _weights(thickness, axisymmetric, geo.x)
    b = _vector_field(force, geo.x, f"body force on {group or 'cells'}")
    if axisymmetric:
        f = np.einsum("qj,cq,cqa->cja", geo.shape, geo.dx * weights, b)
    else:
        f = weights * np.einsum("qj,cq,cqa->cja", geo.shape, geo.dx, b)
    return f.reshape(len(block), -1)


def pressure_load(
    mesh: Mesh,
    group: str,
    pressure: Scalar,
    cell_groups: Sequence[str] | None = None,
    thickness: float = 1.0,
    rule: QuadratureRule | None = None,
    axisymmetric: bool = False,
) -> np.ndarray:
    """Global force vector (N) of a pressure on edge group ``group``.

    The outward normal comes from the adjacent cells in ``cell_groups``
    (default all 2D groups), see :func:`~fem2d.fe.boundary.edge_orientation`.

    Returns
    -------
    ndarray, shape (2 n_nodes,)
        Interleaved ``(Fx_0, Fy_0, ...)``.
    """
    block = mesh.group(group)
    s = edge_orientation(mesh, group, cell_groups)
    f = pressure_vectors(mesh.points, block, s, pressure, thickness, rule, group, axisymmetric)
    return assemble_vector(f, node_dofs(block.nodes), 2 * mesh.n_nodes)


def traction_load(
    mesh: Mesh, group: str, traction: Vector, thickness: float = 1.0, rule: QuadratureRule | None = None,
    axisymmetric: bool = False,
) -> np.ndarray:
    """Global force vector (N), shape (2 n_nodes,), of a traction (Pa) on edge group ``group``."""
    block = mesh.group(group)
    f = traction_vectors(mesh.points, block, traction, thickness, rule, group, axisymmetric)
    return assemble_vector(f, node_dofs(block.nodes), 2 * mesh.n_nodes)


def body_force_load(
    mesh: Mesh, group: str, force: Vector, thickness: float = 1.0, rule: QuadratureRule | None = None,
    axisymmetric: bool = False,
) -> np.ndarray:
    """Global force vector (N), shape (2 n_nodes,), of a body force (N/m^3) on cell group ``group``."""
    blocks = mesh.blocks(group)  # a body of triangles and quadrangles: each kind by its own element
    f = [body_force_vectors(mesh.points, block, force, thickness, rule, group, axisymmetric) for block in blocks]
    return sum(assemble_vector(fb, node_dofs(block.nodes), 2 * mesh.n_nodes) for fb, block in zip(f, blocks))


def point_force_load(n_nodes: int, nodes: np.ndarray, force: Sequence[float] | np.ndarray) -> np.ndarray:
    """Global force vector (N) of point forces ``F = (Fx, Fy)`` on nodes.

    Parameters
    ----------
    n_nodes : int
    nodes : array_like of int, shape (k,)
        Loaded nodes (repeated nodes add up).
    force : array_like, shape (2,) or (k, 2)
        Force on each node (N).

    Returns
    -------
    ndarray, shape (2 n_nodes,)
    """
    nodes = np.atleast_1d(np.asarray(nodes, dtype=np.int64))
    F = np.broadcast_to(np.asarray(force, dtype=float), (len(nodes), 2))
    return assemble_vector(F, node_dofs(nodes[:, None]), 2 * n_nodes)
