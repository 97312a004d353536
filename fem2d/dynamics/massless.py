r"""The velocity and acceleration reported for the dofs that carry no inertia.

Under the modified mass method (:meth:`fem2d.dynamics.schemes.NewmarkScheme.modified_mass`)
the contact nodes have no mass: their displacement is that of an elliptic problem
(their equilibrium and the contact condition, solved at every step), and the
scheme's corrector gives them a velocity that means nothing. Average acceleration's,
:math:`v_{n+1} = \tfrac{2}{\Delta t}\Delta u - v_n`, is a recurrence of factor
:math:`-1` that never forgets: a node that arrives at a rigid wall at :math:`v_0`
and rests on it (:math:`\Delta u = 0`) reports :math:`-v_0, +v_0, -v_0, \dots`
as long as it stays there, and the rest of it after the release. Those numbers
do not enter the motion of the dofs that carry mass (their rows and columns of
the modified mass are zero), but they are what a history, a group's mean
velocity or an impact velocity would read.

:class:`MasslessRates` reports for those dofs the rate of their own displacement
over the step that ends at the record,

.. math::

    v_{n+1} = \frac{u_{n+1} - u_n}{\Delta t}, \qquad
    a_{n+1} = \frac{v_{n+1} - v_n}{\Delta t}

(the reported velocities; the dofs with mass keep the scheme's). This is the
trapezoidal rule's own relation :math:`(v_n + v_{n+1})/2 = \Delta u/\Delta t`
without its parasitic :math:`(-1)^n` mode: exact where the node rests on an
obstacle (0) or moves rigidly with its neighbours, monotone through an impact or
a release (a centred or second-order one-sided difference overshoots there by
half the jump), first order elsewhere (it is the velocity of mid-step). The
velocity the modified mass's map :math:`T` gives (the neighbour's) was the other
candidate; it ignores the contact condition, which holds the node and not its
neighbour: it reports the neighbour's approach speed for a node that already
rests on the wall.

The central difference (:class:`~fem2d.dynamics.impact.PaoliSchatzman`) has the
same defect on the dofs a contact force acts on: its end-of-step velocity
:math:`v_{n+1/2} + \tfrac{\Delta t}2 a_{n+1}` takes :math:`a_{n+1}` from
:math:`M a = f - K u` without the contact force, not known before the next step, so
a node resting on a wall reports nearly the speed it would have without the wall
(0.92 to 0.99 m/s on the Signorini bar, which rests at 0). For those dofs, the step's
contact force not zero, the rate of the displacement is reported too (with
``contact_lag``).

The march itself keeps the scheme's state: a damped model (:math:`C v`) or
Moreau-Jean's contact shift read the scheme's velocity of those dofs, and the
motion is the scheme's whatever is reported.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import scipy.sparse as sp

from fem2d.dynamics.stepper import StepState


class MasslessRates:
    """The states a run reports: the scheme's, with the velocity and acceleration of
    the free dofs without inertia (a zero diagonal of the scheme's ``mass``) and, with
    ``contact_lag``, of those the step's contact force acts on, made from their
    displacement (see the module docstring).

    >>> import numpy as np, scipy.sparse as sp
    >>> rates = MasslessRates(sp.diags([1.0, 0.0]).tocsr())
    >>> start = rates.start(StepState(0.0, np.zeros(2), np.array([1.0, 1.0]), np.zeros(2)))
    >>> rested = StepState(0.1, np.array([0.1, 0.0]), np.array([1.0, -1.0]), np.array([0.0, -20.0]))
    >>> reported = rates.on_step(start, rested)  # the second dof rested on a wall over the step
    >>> reported.v.tolist(), reported.a.tolist()
    ([1.0, 0.0], [0.0, -10.0])
    >>> rates.on_step(rested, StepState(0.2, np.array([0.2, 0.0]), np.array([1.0, 1.0]), np.zeros(2))).v.tolist()
    [1.0, 0.0]
    """

    def __init__(self, mass: sp.spmatrix, contact_lag: bool = False) -> None:
        self.dofs = np.flatnonzero(sp.csr_matrix(mass).diagonal() <= 0.0)
        #: also the dofs the step's contact force acts on (a scheme whose velocity misses it)
        self.contact_lag = contact_lag
        self._last: StepState | None = None

    @property
    def active(self) -> bool:
        """True when some free dof may report the rate of its displacement."""
        return len(self.dofs) > 0 or self.contact_lag

    @property
    def last(self) -> StepState | None:
        """The last state reported (None before :meth:`start`)."""
        return self._last

    def start(self, state: StepState) -> StepState:
        """The reported initial state: the scheme's (the initial velocity is the user's)."""
        self._last = state
        return state

    def on_step(self, previous: StepState, state: StepState) -> StepState:
        """The reported state at the end of the step ``previous`` -> ``state``."""
        if not self.active:
            self._last = state
            return state
        dt = state.t - previous.t
        last = self._last
        # the reported velocity at the step's start: the one reported there (a restarted state
        # after a stick/slip event is at the same instant, with the same displacement)
        v_start = last.v if last is not None and abs(last.t - previous.t) <= 1e-12 * max(1.0, abs(state.t)) \
            else previous.v
        d = self.dofs
        if self.contact_lag and state.contact_force is not None:
            d = np.union1d(d, np.flatnonzero(state.contact_force))
        if len(d) == 0:
            self._last = state
            return state
        v, a = state.v.copy(), state.a.copy()
        if dt > 0.0:
            v[d] = (state.u[d] - previous.u[d]) / dt
            a[d] = (v[d] - v_start[d]) / dt
        else:
            v[d], a[d] = v_start[d], 0.0
        reported = replace(state, v=v, a=a)
        self._last = reported
        return reported
