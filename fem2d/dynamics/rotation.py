r"""The rigid rotation of each body during a run: a guard on the small-displacement model.

A body of ``"small"`` kinematics (the default) is linear elastic with small displacements: the strain is
:math:`\varepsilon = \operatorname{sym} \nabla u` of the displacement from the
reference shape. A rigid rotation by :math:`\theta`, :math:`u = (R(\theta) - I) X`,
is then seen as a strain, :math:`\varepsilon = (\cos\theta - 1) I \approx
-\tfrac{\theta^2}{2} I`, with its stress and its restoring force: 0.125 % at
0.05 rad (a stress of 260 MPa in steel), 12 % at 0.5 rad. A body that turns (a disc
rolling down an incline) is answered wrongly, and nothing else in the run says so
(``"corotational"`` and ``"finite"`` bodies, :mod:`fem2d.model.internal`, are not:
their rotations are recorded, never warned of).

So every direct and static run measures the rigid rotation of each body at
every record, :class:`BodyRotations`, as the best-fit rotation
(:func:`rigid_rotation`) of its deformed nodes onto its reference nodes about
their centroids, weighted by each node's share of the body's area (each cell's
area split equally among its nodes: the body's material, not the density of
its mesh). The run keeps the series ``BODY:rotation`` (rad, counter-clockwise
positive, unwrapped across half turns) and warns once per body whose rotation
exceeds :data:`ROTATION_LIMIT` (:func:`rotation_warnings`).

The cost is two dot products over the body's dofs per record (the sums of
:func:`rigid_rotation` reduced to the displacement, see
:meth:`BodyRotations.rotation`): 0.2 to 0.5 % of a step of SDNV104 A at mesh
levels 0, 3 and 5 (84 to 54 000 dofs), measured.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from fem2d.dynamics.stepper import StepState
from fem2d.mesh.mesh import CellBlock
from fem2d.model.system import System

#: The largest rigid rotation (rad) of a body the small-displacement model is
#: trusted with: its spurious strain :math:`1 - \cos\theta \approx \theta^2/2` is
#: 0.125 % there, about the yield strain of a structural steel.
ROTATION_LIMIT = 0.05

#: How a rotation warning starts (a program may look for it).
ROTATED = "rotated beyond the small-displacement model"


def rigid_rotation(reference: np.ndarray, deformed: np.ndarray, weights: np.ndarray | None = None) -> float:
    r"""The angle (rad) of the rotation that best maps ``reference`` onto ``deformed``
    (both (n, 2) node positions) about their centroids:

    .. math::

        \theta = \operatorname{atan2}\Big(\sum_i w_i\, X_i \times x_i,\;
                                          \sum_i w_i\, X_i \cdot x_i\Big),
        \qquad X_i = X^0_i - \bar X^0, \quad x_i = x^0_i - \bar x^0,

    with :math:`\bar X^0 = \sum w_i X^0_i / \sum w_i` (likewise :math:`\bar x^0`),
    :math:`a \times b = a_x b_y - a_y b_x` and the weights :math:`w_i` (1 by
    default). It minimises :math:`\sum_i w_i |R(\theta) X_i - x_i|^2`; a rigid motion
    gives its angle exactly, whatever the weights.

    >>> square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> c, s = np.cos(0.3), np.sin(0.3)
    >>> moved = square @ np.array([[c, s], [-s, c]]) + [5.0, -2.0]  # turned by 0.3 rad, then moved
    >>> round(rigid_rotation(square, moved), 12)
    0.3

    The small-displacement model's "rotation" :math:`u = \theta\,(-Y, X)` turns the
    body by :math:`\arctan\theta` only, and stretches it by :math:`\sqrt{1 + \theta^2}`:

    >>> centred = square - 0.5
    >>> linearised = centred + 0.3 * np.column_stack([-centred[:, 1], centred[:, 0]])
    >>> round(rigid_rotation(centred, linearised), 12), round(float(np.arctan(0.3)), 12)
    (0.291456794478, 0.291456794478)
    """
    w = np.ones(len(reference)) if weights is None else np.asarray(weights, dtype=float)
    X = reference - w @ reference / w.sum()
    x = deformed - w @ deformed / w.sum()
    cross = w @ (X[:, 0] * x[:, 1] - X[:, 1] * x[:, 0])
    dot = w @ (X[:, 0] * x[:, 0] + X[:, 1] * x[:, 1])
    return float(np.arctan2(cross, dot))


def node_areas(points: np.ndarray, block: CellBlock) -> tuple[np.ndarray, np.ndarray]:
    """The nodes of a 2D cell block and each one's share of its area (m^2): each
    cell's area (of its corner polygon) split equally among the cell's nodes.

    >>> block = CellBlock("quad4", [[0, 1, 2, 3], [1, 4, 5, 2]])
    >>> points = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [3.0, 0.0], [3.0, 1.0]])
    >>> nodes, areas = node_areas(points, block)
    >>> nodes.tolist(), areas.tolist()
    ([0, 1, 2, 3, 4, 5], [0.25, 0.75, 0.75, 0.25, 0.5, 0.5])
    """
    corners = points[block.corners]  # (cells, corners, 2)
    x, y = corners[..., 0], corners[..., 1]
    area = 0.5 * np.abs(np.sum(x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y, axis=1))
    cells = np.asarray(block.nodes)
    nodes, inverse = np.unique(cells, return_inverse=True)
    shares = np.zeros(len(nodes))
    np.add.at(shares, inverse.reshape(cells.shape), (area / cells.shape[1])[:, None])
    return nodes, shares


def _body_areas(points: np.ndarray, blocks: list[CellBlock]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`node_areas` of a body held as one block per cell kind (triangles and
    quadrangles in one group), summed on the nodes the blocks share."""
    parts = [node_areas(points, block) for block in blocks]
    nodes, inverse = np.unique(np.concatenate([n for n, _ in parts]), return_inverse=True)
    shares = np.zeros(len(nodes))
    np.add.at(shares, inverse, np.concatenate([w for _, w in parts]))
    return nodes, shares


@dataclass
class BodyRotations:
    r"""Records the rigid rotation of each body (:func:`rigid_rotation`, area-weighted)
    at every record of a run: ``bodies`` maps a name to its 2D cell block (or its
    blocks, one per cell kind).

    As :math:`\sum_i w_i X_i = 0`, the sums of :func:`rigid_rotation` on
    :math:`x_i = X_i + u_i` (up to a translation) reduce to
    :math:`\theta = \operatorname{atan2}(c \cdot \hat u, J + s \cdot \hat u)`,
    :math:`J = \sum_i w_i |X_i|^2`, :math:`c_i = w_i (-Y_i, X_i)`,
    :math:`s_i = w_i (X_i, Y_i)`, on the body's dofs of the displacement
    :math:`\hat u` (prescribed values included): two dot products per body.
    """

    system: System
    bodies: dict[str, CellBlock | list[CellBlock]]
    _terms: dict[str, tuple] = field(default_factory=dict, init=False)
    _rows: list[list[float]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        s = self.system
        index = s.free_index
        for name, block in self.bodies.items():
            nodes, w = _body_areas(s.mesh.points, block if isinstance(block, list | tuple) else [block])
            X = s.mesh.points[nodes] - w @ s.mesh.points[nodes] / w.sum()
            dofs = np.column_stack([2 * nodes, 2 * nodes + 1]).ravel()
            cross = np.column_stack([-w * X[:, 1], w * X[:, 0]]).ravel()
            dot = (w[:, None] * X).ravel()
            free = index[dofs] >= 0
            at = index[dofs[free]]
            take, c_f, s_f = at, cross[free], dot[free]
            if len(at) and at.max() - at.min() < 2 * len(at):
                # the coefficients over the span of the body's free dofs, zero between them: a slice of
                # the state and two dense products (a gather of the dofs costs more than both), kept
                # where the span is not much longer than the body (a body numbered among others: gathered)
                take = slice(int(at.min()), int(at.max()) + 1)
                c_f, s_f = np.zeros(take.stop - take.start), np.zeros(take.stop - take.start)
                c_f[at - take.start], s_f[at - take.start] = cross[free], dot[free]
            self._terms[name] = (float(w @ (X * X).sum(axis=1)), take, c_f, s_f, dofs[~free], cross[~free],
                                 dot[~free])
        # the prescribed values are read only for a body with prescribed dofs that may be displaced
        self._moving = s.has_prescribed_displacements and any(len(terms[4]) for terms in self._terms.values())

    def rotation(self, name: str, state: StepState, prescribed: np.ndarray | None) -> float:
        """Body ``name``'s rotation (rad, in (-pi, pi]) in ``state``; ``prescribed``: all
        dofs' prescribed values at its time (None: all zero)."""
        inertia, take, c_f, s_f, held, c_p, s_p = self._terms[name]
        u = state.u[take]
        cross, dot = c_f @ u, inertia + s_f @ u
        if prescribed is not None and len(held):
            cross += c_p @ prescribed[held]
            dot += s_p @ prescribed[held]
        return float(np.arctan2(cross, dot))

    def start(self, state: StepState) -> None:
        self._record(state)

    def on_step(self, previous: StepState, state: StepState) -> None:
        self._record(state)

    def _record(self, state: StepState) -> None:
        prescribed = self.system.prescribed_at(state.t) if self._moving else None
        self._rows.append([self.rotation(name, state, prescribed) for name in self._terms])

    def arrays(self) -> dict[str, np.ndarray]:
        """``NAME:rotation`` per body (rad), unwrapped: a body turning past half a turn goes on counting."""
        table = np.array(self._rows, dtype=float).reshape(len(self._rows), len(self._terms))
        return {f"{name}:rotation": np.unwrap(table[:, j]) for j, name in enumerate(self._terms)}


def rotation_warnings(series: dict[str, np.ndarray], bodies: list[str], limit: float = ROTATION_LIMIT) -> list[str]:
    """One warning per body of ``bodies`` whose recorded rotation exceeds ``limit`` (rad)
    in absolute value: when it first did (linear between the records), and the largest
    rotation reached.

    >>> t = np.linspace(0.0, 1.0, 11)
    >>> rotation_warnings({"time": t, "DISC:rotation": 0.04 * t, "BASE:rotation": 0 * t}, ["DISC", "BASE"])
    []
    >>> print(rotation_warnings({"time": t, "DISC:rotation": -0.2 * t}, ["DISC"])[0])  # doctest: +ELLIPSIS
    body 'DISC' rotated beyond the small-displacement model: |rotation| > 0.05 rad from t = 0.25 s, \
up to -0.2 rad at t = 1 s; ...
    """
    t = series["time"]
    out = []
    for name in bodies:
        theta = series.get(f"{name}:rotation")
        if theta is None or not np.any(np.abs(theta) > limit):
            continue
        size = np.abs(theta)
        k = int(np.argmax(size > limit))
        t_over = t[k] if k == 0 else float(np.interp(limit, size[k - 1 : k + 1], t[k - 1 : k + 1]))
        peak = int(np.argmax(size))
        out.append(
            f"body {name!r} {ROTATED}: |rotation| > {limit:g} rad from t = {t_over:.6g} s, up to "
            f"{theta[peak]:.4g} rad at t = {t[peak]:.6g} s; the small-displacement model takes a rigid rotation "
            "for a strain (1 - cos(rotation)) and answers wrongly for this body: give it kinematics = "
            "\"corotational\" (large rotations, small strains) or \"finite\" (materials[].kinematics)"
        )
    return out
