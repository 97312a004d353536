"""What a nonlinear element kernel returns for a block of cells: strain energy,
internal force and tangent stiffness, and the error raised when the
deformation turns a cell inside out."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fem2d.errors import InputError
from fem2d.fe.assembly import node_dofs
from fem2d.mesh.mesh import CellBlock


@dataclass(frozen=True)
class CellResponse:
    """Energy, internal force and tangent of every cell of a block.

    Attributes
    ----------
    energy : ndarray, shape (nc,)
        Strain energy of each cell (J; per unit thickness times the thickness).
    force : ndarray, shape (nc, 2 nn)
        Internal force ``dW_e/du_e`` (N), interleaved local dofs ``(DX_0, DY_0, DX_1, ...)``.
    tangent : ndarray, shape (nc, 2 nn, 2 nn), or None
        ``d force / d u_e`` (N/m), symmetric; None when not asked for.
    """

    energy: np.ndarray
    force: np.ndarray
    tangent: np.ndarray | None


class InvertedCells(ArithmeticError):
    """The deformation turns some cells inside out (``det F <= 0``): the step is too large."""


def cell_positions(points: np.ndarray, block: CellBlock, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Reference node positions ``X_e`` and nodal displacements ``u_e`` of each cell, both (nc, nn, 2)."""
    points = np.asarray(points, dtype=float)[:, :2]
    u = np.asarray(u, dtype=float).ravel()
    if u.size != 2 * len(points):
        raise InputError(
            f"displacement vector has {u.size} entries; expected 2 x {len(points)} nodes = {2 * len(points)}"
        )
    nc, nn = block.nodes.shape
    return points[block.nodes], u[node_dofs(block.nodes)].reshape(nc, nn, 2)


def displacement_gradients(ue: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """``H[c, q, a, K] = sum_j u_ja dN_j/dX_K`` (``F = I + H``)."""
    ue = ue - ue.mean(axis=1, keepdims=True)  # the same gradient, without the round-off of a large translation
    return np.swapaxes(ue, 1, 2)[:, None] @ grad  # sum_j u_ja grad_qjk


def inverted_cells(J: np.ndarray, offset: int = 0) -> np.ndarray:
    """Ids of the cells with ``det F <= 0`` (or NaN) at some point."""
    return np.flatnonzero(~(J > 0).all(axis=1)) + offset


def raise_inverted(n_bad: int, group: str | None) -> None:
    where = f"group {group!r}" if group else "cell block"
    raise InvertedCells(f"{where}: {n_bad} cell(s) turned inside out (det F <= 0 at a point); cut the step")
