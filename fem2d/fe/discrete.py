"""Discrete elements (code_aster's DIS_T): 2-node springs (:func:`spring_matrices`,
:func:`global_spring_matrices`) and nodal springs and masses (POINT cells).

The same matrices serve for discrete dampers (``A_T_D_L``, ``A_T_D_N``):
pass damping coefficients (N s/m) instead of stiffnesses.
"""

from __future__ import annotations

import numpy as np

from fem2d.errors import InputError, MeshError
from fem2d.fe.geometry import format_ids
from fem2d.mesh.mesh import CellBlock

_PAIR = np.array([[1.0, -1.0], [-1.0, 1.0]])


def _values(value: float | np.ndarray, n: int, what: str) -> np.ndarray:
    v = np.asarray(value, dtype=float)
    try:
        v = np.broadcast_to(v, (n,))
    except ValueError:
        raise InputError(f"{what}: expected a scalar or {n} values, got shape {v.shape}") from None
    if not np.isfinite(v).all() or (v < 0).any():
        raise InputError(f"{what} must be finite and >= 0, got {value!r}")
    return v


def _two_node(block: CellBlock, group: str | None) -> None:
    if block.kind != "seg2":
        where = f"group {group!r}" if group else "discrete spring block"
        raise MeshError(f"{where}: discrete springs need seg2 cells, got {block.kind}")


def spring_matrices(
    points: np.ndarray,
    block: CellBlock,
    k_axial: float | np.ndarray,
    k_transverse: float | np.ndarray = 0.0,
    group: str | None = None,
) -> np.ndarray:
    r"""Stiffness matrices of 2-node springs defined in their local frame (N/m).

    code_aster's ``K_T_D_L``: with the unit axis :math:`e = (x_2 - x_1)/|x_2 - x_1|`
    and the transverse unit vector :math:`n = (-e_y, e_x)`,

    .. math::

        k = k_{axial}\, e e^T + k_{transverse}\, n n^T, \qquad
        K_e = \begin{pmatrix} k & -k \\ -k & k \end{pmatrix}

    (dofs DX_1, DY_1, DX_2, DY_2). A zero-length spring has no axis and is
    refused; use :func:`global_spring_matrices` (``REPERE='GLOBAL'``) for
    coincident nodes.

    Examples
    --------
    A vertical spring of 10 N/m couples the DY dofs only:

    >>> from fem2d.mesh.mesh import CellBlock
    >>> spring_matrices(np.array([[0.0, 0.0], [0.0, 2.0]]), CellBlock("seg2", np.array([[0, 1]])), 10.0)[0]
    array([[  0.,   0.,   0.,   0.],
           [  0.,  10.,   0., -10.],
           [  0.,   0.,   0.,   0.],
           [  0., -10.,   0.,  10.]])

    Parameters
    ----------
    points : ndarray, shape (n_nodes, 2)
        Node coordinates (m).
    block : CellBlock
        SEG2 cells (node 1, node 2).
    k_axial : float or ndarray (n_springs,)
        Stiffness along the axis (N/m), >= 0.
    k_transverse : float or ndarray (n_springs,)
        Stiffness across the axis (N/m), >= 0.
    group : str, optional
        Group name, for error messages.

    Returns
    -------
    ndarray, shape (n_springs, 4, 4)
        Interleaved dofs ``(DX_1, DY_1, DX_2, DY_2)``; assemble with
        ``node_dofs(block.nodes)``.

    Raises
    ------
    MeshError
        For zero-length springs (no axis), naming them.
    """
    _two_node(block, group)
    n = len(block)
    ka = _values(k_axial, n, "spring k_axial")
    kt = _values(k_transverse, n, "spring k_transverse")
    x = np.asarray(points, dtype=float)[block.nodes][:, :, :2]
    d = x[:, 1] - x[:, 0]
    length = np.hypot(d[:, 0], d[:, 1])
    scale = np.abs(x).max(axis=(1, 2)) + np.finfo(float).tiny
    bad = np.flatnonzero(~(length > 1e-13 * scale))
    if len(bad):
        where = f"group {group!r}" if group else "discrete spring block"
        raise MeshError(
            f"{where}: {len(bad)} zero-length spring(s) have no axis for a local-frame stiffness "
            f"(give it in the global frame instead): spring ids {format_ids(bad)}"
        )
    e = d / length[:, None]
    t = np.stack([-e[:, 1], e[:, 0]], axis=1)
    k = ka[:, None, None] * e[:, :, None] * e[:, None, :] + kt[:, None, None] * t[:, :, None] * t[:, None, :]
    return np.einsum("ij,cab->ciajb", _PAIR, k).reshape(n, 4, 4)


def global_spring_matrices(block: CellBlock, kx: float | np.ndarray, ky: float | np.ndarray) -> np.ndarray:
    """Stiffness matrices of 2-node springs given in the global frame (N/m).

    ``K_e = [[k, -k], [-k, k]]`` with ``k = diag(kx, ky)``; valid for
    zero-length springs.

    Returns
    -------
    ndarray, shape (n_springs, 4, 4)
    """
    _two_node(block, None)
    n = len(block)
    k = np.zeros((n, 2, 2))
    k[:, 0, 0], k[:, 1, 1] = _values(kx, n, "spring kx"), _values(ky, n, "spring ky")
    return np.einsum("ij,cab->ciajb", _PAIR, k).reshape(n, 4, 4)


def _diagonal(block: CellBlock, cx: float | np.ndarray, cy: float | np.ndarray, what: str) -> np.ndarray:
    if block.kind != "point":
        raise MeshError(f"nodal {what} needs point cells, got {block.kind}")
    n = len(block)
    out = np.zeros((n, 2, 2))
    out[:, 0, 0], out[:, 1, 1] = _values(cx, n, f"nodal {what} x"), _values(cy, n, f"nodal {what} y")
    return out


def point_spring_matrices(block: CellBlock, kx: float | np.ndarray, ky: float | np.ndarray) -> np.ndarray:
    """Springs to ground on nodes: ``K_e = diag(kx, ky)`` (N/m), shape (n_points, 2, 2).

    Assemble with ``node_dofs(block.nodes)`` (shape (n_points, 2)).
    """
    return _diagonal(block, kx, ky, "spring")


def point_mass_matrices(block: CellBlock, mx: float | np.ndarray, my: float | np.ndarray | None = None) -> np.ndarray:
    """Point masses on nodes: ``M_e = diag(mx, my)`` (kg), shape (n_points, 2, 2); ``my`` defaults to ``mx``."""
    return _diagonal(block, mx, mx if my is None else my, "mass")
