r"""The gain of the explicit wear update: whether a run that wears while its pressure
redistributes is stable.

A step adds to the gaps of the next ones the depth it wore (:mod:`fem2d.contact.archard`),
:math:`\Delta h_j = D_j F_j` with :math:`D_j = a\, k\, |\Delta s_j| / w_j` (m/N: the
acceleration, the coefficient, the step's slip over the node's tributary weight). The nodes
in contact keep their gaps closed, so a depth :math:`\delta h` on them changes their forces
by :math:`\delta F = -K\, \delta h`, with :math:`K = W_{AA}^{-1}` the stiffness of the active
slave nodes along their normals (:math:`W = B_n C B_n^T`, the normal rows of the gaps on the
step's boundary compliance :math:`C`, m/N). An error of the forces therefore goes from one
step to the next as

.. math::

    \delta F_{n+1} = (I - K D)\, \delta F_n, \qquad
    \mu = \lambda_{max}\big(D^{1/2} K D^{1/2}\big),

which is monotone while the gain :math:`\mu < 1`, oscillates from node to node while
:math:`1 < \mu < 2`, and grows without bound beyond 2. The gain is proportional to the
acceleration and to the slip of a step; the stiffest mode of :math:`K` is the node-to-node
one of the contact elements (about :math:`E^*/h` per unit area for elements of size
:math:`h`), so refining the surface's mesh at a given step raises it.

:math:`\mu \le \max_j D_j\, \lambda_{max}(K)`, equal for a uniform :math:`D` (a surface
that slides as a whole on a uniform mesh): :class:`UpdateGain` keeps
:math:`\lambda_{max}(K)` while the compliance and the active set are the same and
computes the exact gain on a small active set, and on a large one when the bound passes half
the threshold of a warning (below it, the gain reported is the bound).

Two nodes whose normal compliance is 1e-9 m/N each (a stiffness of 1e9 N/m, uncoupled),
worn by :math:`D = 10^{-10}` and :math:`3 \cdot 10^{-10}` m/N:

>>> W = np.diag([1e-9, 1e-9])
>>> round(float(update_gain(W, np.array([True, True]), np.array([1e-10, 3e-10]))), 12)
0.3
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

#: above this gain the update's pressure oscillates from node to node (a warning)
OSCILLATES = 1.0
#: above this gain the update is unstable: the run stops (exit status 1)
UNSTABLE = 2.0
#: the exact gain on up to this many active nodes, the bound above it while it is below half of OSCILLATES
EXACT_UP_TO = 64
#: the most steps a kept stiffness serves (the pairing moves on a deformable master)
KEEP_STEPS = 100


def active_stiffness(W: np.ndarray, active: np.ndarray) -> np.ndarray:
    """:math:`K = W_{AA}^{-1}` (N/m) of the active nodes, W the normal Delassus (m/N)
    of the slave nodes and ``active`` a mask (the nodes in contact that move).

    >>> active_stiffness(np.array([[2.0, 1.0], [1.0, 2.0]]), np.array([True, False]))
    array([[0.5]])
    """
    block = W[np.ix_(active, active)]
    return np.linalg.inv(block) if len(block) else block


def update_gain(W: np.ndarray, active: np.ndarray, rate: np.ndarray) -> float:
    r""":math:`\mu = \lambda_{max}(D^{1/2} K D^{1/2})` over the active nodes (see the module
    docstring), ``rate`` :math:`D_j` (m/N) per slave node; 0 when no active node wears."""
    K = active_stiffness(W, active)
    return _gain(K, rate[active])


def _gain(K: np.ndarray, rate: np.ndarray) -> float:
    wearing = rate > 0.0
    if not wearing.any():
        return 0.0
    root = np.sqrt(rate[wearing])
    block = K[np.ix_(wearing, wearing)] * root[:, None] * root[None, :]
    return float(np.linalg.eigvalsh(0.5 * (block + block.T))[-1])


class UpdateGain:
    """The gain of one zone's update step after step, its largest value and when.

    :meth:`on_step` takes the step's rates :math:`D_j`, the active mask, the compliance
    the step was solved with (its identity keys the kept stiffness) and a function that
    makes :math:`W` from it (called only when the kept stiffness no longer holds).
    """

    def __init__(self) -> None:
        self.largest = 0.0
        self.at = 0.0
        self._key: tuple | None = None
        self._stiffness = np.zeros((0, 0))
        self._moves = np.zeros(0, dtype=bool)
        self._bound = 0.0  # lambda_max(K) of the kept stiffness
        self._steps = 0

    def on_step(self, t: float, rate: np.ndarray, active: np.ndarray, compliance: np.ndarray,
                make_delassus: Callable[[], np.ndarray]) -> float:
        """The gain of the step ending at ``t`` (also kept as :attr:`largest` when larger)."""
        if not (active & (rate > 0.0)).any():
            return 0.0
        key = (id(compliance), active.tobytes())
        self._steps += 1
        if self._key is None or key != self._key or self._steps > KEEP_STEPS:
            W = make_delassus()
            moves = active & (np.diagonal(W) > 0.0)  # a node held by a support does not take the depth
            self._stiffness = active_stiffness(W, moves)
            self._moves = moves
            sym = 0.5 * (self._stiffness + self._stiffness.T)
            self._bound = float(np.linalg.eigvalsh(sym)[-1]) if len(sym) else 0.0
            self._key, self._steps = key, 0
        local = rate[self._moves]
        bound = float(local.max(initial=0.0)) * self._bound
        exact = len(local) <= EXACT_UP_TO or bound > 0.5 * OSCILLATES
        gain = _gain(self._stiffness, local) if exact else bound
        if gain > self.largest:
            self.largest, self.at = gain, float(t)
        return gain


def unstable_wear_message(zone: str, wear, t: float, gain: float) -> str:
    """The one line of a run stopped by an unstable update (``wear`` the zone's
    :class:`~fem2d.model.wear.Wear`): the gain, and the acceleration that would bring it
    to half the oscillation threshold.

    >>> from fem2d.model.wear import Wear
    >>> unstable_wear_message("floor", Wear(1e-9, acceleration=100.0), 0.25, 8.0)[:72]
    "contact zone 'floor': the explicit wear update is unstable at t = 0.25 s"
    """
    factor = gain / (0.5 * OSCILLATES)
    lower = wear.acceleration / factor
    remedy = (f"take contact.wear.acceleration <= {lower:.3g} or a step {factor:.3g} times shorter (time.dt)"
              if lower >= 1.0 else
              f"take a step {factor:.3g} times shorter (time.dt) or a smaller contact.wear.coefficient")
    return (f"contact zone {zone!r}: the explicit wear update is unstable at t = {t:.6g} s: its gain "
            f"a k |ds| / (w C) is {gain:.3g} > {UNSTABLE:g} (the depth fed back into the gaps overshoots "
            f"from node to node and grows); {remedy}")
