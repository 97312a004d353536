r"""A corotational body in one frame: Hooke's law in a frame that follows the body's rigid rotation.

An element-frame corotational body (:mod:`fem2d.fe.corotational`) turns each cell's stiffness
with the cell: its tangent changes with every rotation and is refactorised as the body turns.
A body whose strains *and the rotations of its cells relative to one another* stay small can
instead be seen from a single frame that follows it (Felippa's "corotational body frame", the
floating frame of a flexible body): its rotation :math:`R(\theta)` is the best-fit rotation of the
body's nodes about their centroid (the rotation a run records, weighted by each node's share of
the body's area), and its displacement in that frame is taken through the body's small-strain
stiffness :math:`K`,

.. math::

    \tilde u_j = R^T (x_j - \bar x) - (X_j - \bar X), \qquad W = \tfrac12\, \tilde u^T K\, \tilde u ,

:math:`\bar x, \bar X` the weighted centroids. Because :math:`\theta` is linear in the positions
through :math:`a = A \cdot x`, :math:`b = B \cdot x` (:math:`A_j = w_j (-Y_j, X_j)`,
:math:`B_j = w_j (X_j, Y_j)`, :math:`X_j` about :math:`\bar X`; :math:`\theta = \operatorname{atan2}(a, b)`),
the internal force is the exact gradient of :math:`W`,

.. math::

    f^{int} = \mathrm{diag}(R)\, f + (v \cdot f)\, g, \qquad f = K \tilde u, \quad
    v_j = R'^T (x_j - \bar x), \quad g = \partial\theta/\partial x = \frac{b A - a B}{a^2 + b^2},

so the body keeps its linear and angular momentum and its energy exactly (the second term,
of second order in the strain, is the moment the frame's choice takes). The mass is
:math:`m \otimes I_2` (consistent or lumped), so :math:`Q^T M Q = M` for the rotation :math:`Q =
I \otimes R` of all the body's nodes, and the Newton matrix of a step, neglecting the geometric
terms of second order, is :math:`w_M M + w_K Q K Q^T = Q K_{eff} Q^T`: the factorisation of the
linear :math:`K_{eff}` serves the whole run, the rotation applied to the right-hand side and to the
solution (:mod:`fem2d.dynamics.frames`).

The model is the small-displacement one seen from the body's frame: it is right while the cells
turn by little relative to that frame. :attr:`BodyFrameResponse.relative_rotation` is the largest
rotation of a cell (at its centre) relative to the frame; a run refuses to go on past
:data:`~fem2d.dynamics.rotation.ROTATION_LIMIT` (a body that bends or flaps: element frames).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from fem2d.fe.response import InvertedCells


@dataclass(frozen=True)
class BodyFrameResponse:
    """:meth:`BodyFrame.evaluate` at one displacement (all on the body's dofs, interleaved by node)."""

    #: strain energy :math:`W` (J)
    energy: float
    #: internal force :math:`f^{int}` (N)
    force: np.ndarray
    #: :math:`K (u - \bar u)` (N): the small-strain force of the same displacement
    linear_force: np.ndarray
    #: :math:`\tfrac12 (u - \bar u)^T K (u - \bar u)` (J)
    linear_energy: float
    #: the frame's angle (rad, in (-pi, pi])
    theta: float
    #: the largest rotation of a cell relative to the frame (rad)
    relative_rotation: float


class BodyFrame:
    """One body's frame and stiffness (see the module docstring).

    Parameters
    ----------
    reference : ndarray, shape (n, 2)
        The body's nodes in the reference shape (m).
    weights : ndarray, shape (n,)
        Each node's share of the body's area (the best-fit rotation's weights).
    stiffness : sparse matrix, shape (2 n, 2 n)
        The body's small-strain stiffness on its nodes' dofs, interleaved (N/m).
    cells : list of (ndarray, ndarray)
        Per cell block: the cells' node positions in this body's node list (nc, nn) and the shape
        gradients at the cells' centres (nc, nn, 2): the relative rotations and the check that no
        cell turned inside out.

    Examples
    --------
    A square of four nodes (one QUAD4 cell) turned by 2.5 rad and moved feels no force:

    >>> from fem2d.fe.elasticity import elasticity_matrix, stiffness_matrices
    >>> from fem2d.fe.corotational import corotational_frame
    >>> from fem2d.mesh.mesh import CellBlock
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> block = CellBlock("quad4", [[0, 1, 2, 3]])
    >>> K = sp.csr_matrix(stiffness_matrices(X, block, elasticity_matrix(1.0e9, 0.3))[0])
    >>> frame = BodyFrame(X, np.ones(4), K, [(block.nodes, corotational_frame(X, block)[0])])
    >>> c, s = np.cos(2.5), np.sin(2.5)
    >>> u = (X @ np.array([[c, s], [-s, c]]) + [3.0, -1.0] - X).ravel()
    >>> out = frame.evaluate(u)
    >>> round(out.theta, 12), bool(np.abs(out.force).max() < 1e-6), bool(out.relative_rotation < 1e-12)
    (2.5, True, True)

    The same square stretched by 1e-3 along its own x, then turned: the force of the stretch, turned,
    with no net force or moment:

    >>> u = ((X * [1.001, 1.0]) @ np.array([[c, s], [-s, c]]) - X).ravel()
    >>> f = frame.evaluate(u).force.reshape(4, 2)
    >>> x = X * [1.001, 1.0] @ np.array([[c, s], [-s, c]])
    >>> bool(np.abs(f.sum(axis=0)).max() < 1e-6 and abs(np.cross(x - x.mean(0), f).sum()) < 1e-6)
    True
    """

    def __init__(self, reference: np.ndarray, weights: np.ndarray, stiffness, cells) -> None:
        X0 = np.asarray(reference, dtype=float)
        w = np.asarray(weights, dtype=float)
        self.n = len(X0)
        self._w = w / w.sum()
        self.X = X0 - self._w @ X0  # about the weighted centroid
        X = self.X
        self._A = np.column_stack([-w * X[:, 1], w * X[:, 0]]).ravel()
        self._B = (w[:, None] * X).ravel()
        self._inertia = float(w @ (X * X).sum(axis=1))
        self.K = sp.csr_matrix(stiffness)
        self._cells = [(np.asarray(nodes), np.asarray(grad, dtype=float)) for nodes, grad in cells]

    def angle(self, u: np.ndarray) -> float:
        """The frame's angle (rad) at the body's displacement ``u`` (2 n,): two dot products."""
        return float(np.arctan2(self._A @ u, self._inertia + self._B @ u))

    def evaluate(self, u: np.ndarray) -> BodyFrameResponse:
        """Energy, internal force and the small-strain force at the body's displacement ``u`` (2 n,).
        Raises :class:`~fem2d.fe.response.InvertedCells` where a cell's centre turned inside out."""
        u = np.asarray(u, dtype=float)
        a = float(self._A @ u)
        b = self._inertia + float(self._B @ u)
        theta = float(np.arctan2(a, b))
        c, s = np.cos(theta), np.sin(theta)
        cm1 = -2.0 * np.sin(0.5 * theta) ** 2  # cos - 1 without the round-off of the positions' size
        um = u.reshape(-1, 2)
        rel = um - self._w @ um  # about the weighted centroid (a translation strains nothing)
        X = self.X
        # R^T rel + (R^T - I) X, R^T = [[c, s], [-s, c]]
        local = np.empty_like(rel)
        local[:, 0] = c * rel[:, 0] + s * rel[:, 1] + cm1 * X[:, 0] + s * X[:, 1]
        local[:, 1] = -s * rel[:, 0] + c * rel[:, 1] - s * X[:, 0] + cm1 * X[:, 1]
        f = self.K @ local.ravel()
        fm = f.reshape(-1, 2)
        x = X + rel
        # v = R'^T x with R' = [[-s, -c], [c, -s]]
        vf = float(np.sum((-s * x[:, 0] + c * x[:, 1]) * fm[:, 0] + (-c * x[:, 0] - s * x[:, 1]) * fm[:, 1]))
        g = (b * self._A - a * self._B) / (a * a + b * b)
        force = np.empty_like(f)
        force[0::2] = c * fm[:, 0] - s * fm[:, 1]
        force[1::2] = s * fm[:, 0] + c * fm[:, 1]
        force += vf * g
        linear = self.K @ rel.ravel()
        return BodyFrameResponse(0.5 * float(local.ravel() @ f), force, linear, 0.5 * float(rel.ravel() @ linear),
                                 theta, self._relative_rotation(local))

    def _relative_rotation(self, local: np.ndarray) -> float:
        r"""The largest rotation of a cell at its centre relative to the frame,
        :math:`|\operatorname{atan2}(H_{10} - H_{01}, 2 + H_{00} + H_{11})|` with :math:`H = \sum_j \tilde u_j
        \otimes \nabla N_j` (rad); raises where :math:`\det (I + H) \le 0`."""
        largest = 0.0
        for nodes, grad in self._cells:
            H = np.einsum("cja,cjk->cak", local[nodes], grad)
            det = (1.0 + H[:, 0, 0]) * (1.0 + H[:, 1, 1]) - H[:, 0, 1] * H[:, 1, 0]
            if not np.all(det > 0.0):
                raise InvertedCells(f"corotational: {int(np.sum(~(det > 0.0)))} cell(s) turned inside out (det F "
                                    "<= 0 at the centre); cut the step")
            omega = np.arctan2(H[:, 1, 0] - H[:, 0, 1], 2.0 + H[:, 0, 0] + H[:, 1, 1])
            largest = max(largest, float(np.max(np.abs(omega), initial=0.0)))
        return largest

    def rotated_stiffness(self, theta: float) -> sp.csr_matrix:
        r""":math:`Q K Q^T`, :math:`Q = I \otimes R(\theta)`: the tangent without its geometric terms."""
        c, s = np.cos(theta), np.sin(theta)
        Q = sp.kron(sp.identity(self.n, format="csr"), sp.csr_matrix([[c, -s], [s, c]]), format="csr")
        return (Q @ self.K @ Q.T).tocsr()
