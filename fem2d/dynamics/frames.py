r"""Steps of bodies in their own frame on the one factorisation of the linear model.

A ``"corotational"`` body in its own frame (:mod:`fem2d.fe.body_frame`) has the tangent
:math:`Q K Q^T` (its geometric terms, of second order in the strain, neglected), :math:`Q = I
\otimes R(\theta)` its nodes' rotation by the frame's angle. Its mass :math:`m \otimes I_2` and
mass-proportional damping are rotation invariant, so a step's Newton matrix is

.. math::

    K_f = Q\, K_{eff}\, Q^T, \qquad K_f^{-1} b = Q\, K_{eff}^{-1}\, (Q^T b),

with :math:`K_{eff}` the linear model's, factorised once per step size: each Newton iteration
(:mod:`fem2d.dynamics.newton`) turns the right-hand side into the bodies' frames, solves on
that factorisation and turns the solution back, with :math:`\theta` of the current iterate
(a modified Newton method whose matrix follows the rotation). :class:`FrameCorrection` is
:math:`(K_f - K_{eff}) / w_K`, what the iterations add to the right-hand side.

Contact: the boundary's compliance in the bodies' frames, :math:`C = S K_{eff}^{-1} S^T`, is
that of the linear model, condensed once with its factorisation; in the world's axes it is
:math:`C_w = Q_b\, C\, Q_b^T` (:math:`Q_b` the rotations of the boundary nodes), formed per
iteration by four products per node pair, :math:`O(n_b^2)`, no solve
(:class:`RotatedCondensation`).

>>> import numpy as np
>>> turn = FrameRotation(np.array([0]), np.array([1]), np.array([0]))
>>> turn.angles = np.array([np.pi / 2])
>>> np.round(turn.apply(np.array([1.0, 0.0, 5.0])), 12).tolist()
[0.0, 1.0, 5.0]
>>> np.round(turn.apply(np.array([0.0, 1.0, 5.0]), True), 12).tolist()
[1.0, 0.0, 5.0]
"""

from __future__ import annotations

import numpy as np

from fem2d.dynamics.condensation import BoundaryCondensation


class FrameRotation:
    r""":math:`Q` on the free dofs: the node pairs ``(x, y)`` (free indices) of the bodies in their own
    frame, each pair's body, and the bodies' :attr:`angles` (rad), set per iteration."""

    def __init__(self, x: np.ndarray, y: np.ndarray, body: np.ndarray) -> None:
        self.x, self.y, self.body = np.asarray(x), np.asarray(y), np.asarray(body)
        self.angles = np.zeros(int(self.body.max(initial=-1)) + 1)
        self._pair_of = None

    def apply(self, v: np.ndarray, transpose: bool = False) -> np.ndarray:
        """:math:`Q v` (or :math:`Q^T v`) of a free vector (or of the columns of a free array)."""
        c, s = np.cos(self.angles)[self.body], np.sin(self.angles)[self.body]
        if transpose:
            s = -s
        if v.ndim == 2:
            c, s = c[:, None], s[:, None]
        out = np.array(v, dtype=float, copy=True)
        vx, vy = v[self.x], v[self.y]
        out[self.x] = c * vx - s * vy
        out[self.y] = s * vx + c * vy
        return out

    def boundary_angles(self, index: np.ndarray) -> np.ndarray:
        """The angle of each boundary node (interleaved boundary dofs' free ``index``, -1 prescribed):
        its body's, 0 for a node of no such body."""
        if self._pair_of is None or len(self._pair_of) <= int(index.max(initial=0)):
            size = max(int(self.x.max(initial=0)), int(self.y.max(initial=0)), int(index.max(initial=0))) + 1
            self._pair_of = np.full(size, -1)
            self._pair_of[self.x] = np.arange(len(self.x))
        first = index[0::2]
        pair = np.where(first >= 0, self._pair_of[np.maximum(first, 0)], -1)
        out = np.zeros(len(first))
        out[pair >= 0] = self.angles[self.body[pair[pair >= 0]]]
        return out


class RotatedFactor:
    """:math:`K_f^{-1} = Q K_{eff}^{-1} Q^T` on the factorisation ``base`` of :math:`K_{eff}`."""

    def __init__(self, base, rotation: FrameRotation) -> None:
        self.base, self.rotation = base, rotation

    def solve(self, b: np.ndarray) -> np.ndarray:
        return self.rotation.apply(self.base.solve(self.rotation.apply(b, transpose=True)))


class FrameCorrection:
    r""":math:`(K_f - K_{eff})\, x / w_K = (Q K_{eff} Q^T x - K_{eff} x) / w_K` (``correction @ x``)."""

    def __init__(self, k_eff, w_k: float, rotation: FrameRotation) -> None:
        self.k_eff, self.w_k, self.rotation = k_eff, w_k, rotation

    def __matmul__(self, x: np.ndarray) -> np.ndarray:
        turn = self.rotation
        return (turn.apply(self.k_eff @ turn.apply(x, transpose=True)) - self.k_eff @ x) / self.w_k


def rotate_blocks(matrix: np.ndarray, angles: np.ndarray) -> np.ndarray:
    r""":math:`D\, A\, D^T` for a matrix of interleaved node pairs, :math:`D` the block diagonal of the
    nodes' rotations by ``angles``.

    >>> A = np.diag([1.0, 2.0])
    >>> np.round(rotate_blocks(A, np.array([np.pi / 2])), 12) + 0.0
    array([[2., 0.],
           [0., 1.]])
    """
    c, s = np.cos(angles), np.sin(angles)
    left = np.empty_like(matrix)
    left[0::2] = c[:, None] * matrix[0::2] - s[:, None] * matrix[1::2]
    left[1::2] = s[:, None] * matrix[0::2] + c[:, None] * matrix[1::2]
    out = np.empty_like(matrix)
    out[:, 0::2] = left[:, 0::2] * c - left[:, 1::2] * s
    out[:, 1::2] = left[:, 0::2] * s + left[:, 1::2] * c
    return out


class RotatedCondensation(BoundaryCondensation):
    """The condensation ``base`` of :math:`K_{eff}` seen in the world's axes through the bodies' frames
    (see the module docstring): made per iteration from the kept one, no solve."""

    def __init__(self, base: BoundaryCondensation, rotation: FrameRotation) -> None:
        self.base, self.rotation = base, rotation
        self.index, self.n_free, self.active, self.rows = base.index, base.n_free, base.active, base.rows
        self.factor = base.factor
        self._angles = rotation.boundary_angles(base.index)
        self.compliance = rotate_blocks(base.compliance, self._angles)

    def _turn(self, values: np.ndarray, transpose: bool = False) -> np.ndarray:
        """Boundary values (all boundary dofs, or the active ones) turned by the nodes' rotations."""
        full = np.zeros(len(self.index))
        active = len(values) != len(self.index)
        if active:
            full[self.active] = values
        else:
            full[:] = values
        c, s = np.cos(self._angles), np.sin(self._angles)
        if transpose:
            s = -s
        out = np.empty_like(full)
        out[0::2] = c * full[0::2] - s * full[1::2]
        out[1::2] = s * full[0::2] + c * full[1::2]
        return out[self.active] if active else out

    def condense(self, rhs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        work, du_boundary = self.base.condense(self.rotation.apply(rhs, transpose=True))
        return work, self._turn(du_boundary)

    def expand(self, work: np.ndarray, du_boundary: np.ndarray, p: np.ndarray) -> np.ndarray:
        body = self.base.expand(work, self._turn(du_boundary, True), self._turn(np.asarray(p).ravel(), True))
        return self.rotation.apply(body)
