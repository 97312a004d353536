r"""The Moreau-Jean time-stepping scheme: a theta-method on velocities with
Moreau's velocity-level impact law.

Moreau's sweeping process as Jean's non-smooth contact dynamics discretise it
(J. J. Moreau 1988; M. Jean, "The non-smooth contact dynamics method",
CMAME 177, 1999; V. Acary & B. Brogliato, *Numerical Methods for Nonsmooth
Dynamical Systems*, Springer 2008, chapter 10; V. Acary, "Energy
conservation and dissipation properties of time-integration methods for
nonsmooth elastodynamics with contact", ZAMM 96, 2016). The unknowns are the
velocity and the contact *impulse* of a step; nothing is assumed of the
acceleration, which an impact makes a measure.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from fem2d.dynamics.schemes import Prediction, TimeScheme, modified_mass_matrix

if TYPE_CHECKING:
    from fem2d.dynamics.stepper import StepState
    from fem2d.model.system import System


@dataclass(frozen=True)
class MoreauJean(TimeScheme):
    r"""The Moreau-Jean scheme (theta-method on velocities, velocity-level
    Signorini and Coulomb laws with Newton's restitution coefficient e).

    A step :math:`t_n \to t_{n+1}` (free dofs):

    .. math::

        M (v_{n+1} - v_n) = \Delta t \big( f_{n+\theta} - K u_{n+\theta}
        - C v_{n+\theta} \big) + P_{n+1},

        u_{n+1} = u_n + \Delta t\, v_{n+\theta}, \qquad
        x_{n+\theta} = (1-\theta) x_n + \theta x_{n+1},

    with the impulse :math:`P_{n+1}` of the contact over the step. In
    :math:`\Delta u = u_{n+1} - u_n` (so :math:`v_{n+\theta} = \Delta u /
    \Delta t`, :math:`v_{n+1} = (\Delta u/\Delta t - (1-\theta) v_n)/\theta`)
    this is one linear problem with weights
    :math:`(w_K, w_C, w_M) = (\theta, 1/\Delta t, 1/(\theta\Delta t^2))`:

    .. math::

        \Big(\theta K + \frac{1}{\Delta t} C + \frac{1}{\theta\Delta t^2} M\Big)
        \Delta u = f_{n+\theta} - K u_n + \frac{1}{\theta\Delta t} M v_n
        + \frac{P_{n+1}}{\Delta t},

    the contact force of the stepper being the step's mean force
    :math:`P_{n+1}/\Delta t`. The contact law is Moreau's, at velocity level,
    on the normal and tangential relative velocities :math:`U` of the slave
    nodes with Newton's impact law,

    .. math::

        0 \le U_{N,n+1} + e\, U_{N,n} \perp P_N \ge 0, \qquad
        -(U_{T,n+1} + e\, U_{T,n}) \in \mu P_N\, \partial|P_T| ,

    written as a position condition on the point :math:`u_{n+1} -
    (1 - \theta - e\theta)\Delta t\, v_n = u_n + \theta\Delta t\, (v_{n+1} + e v_n)`,
    whose gap change and slip are :math:`\theta\Delta t\, (U_{n+1} + e U_n)`:
    the exact formulations (Lagrange, continuous) solve it; a penalty force
    of the gap is no impulse law, and a run refuses it (with a penalty
    formulation the velocity law would hold the force of the penetration
    reached, and the body would sink by it at every step). A
    node closed or penetrated at :math:`t_n` is held on its gap's change (the
    velocity law: the penetration a velocity law lets drift is not pushed
    back, which would create energy); an open node on the gap itself, so
    that a node reaching the obstacle within the step is caught there
    (Jean's index set of the nodes predicted closed would stop it short).
    The velocity law lets a node arriving at :math:`U_{N,n}` in by
    :math:`(1-\theta)\Delta t\, |U_{N,n}|` at its impact step (bar_wall:
    1.2 um); the run reports the gaps and slips of :math:`u_{n+1}` (its
    ``max_penetration`` shows it), not those of the point the law held on.

    What it conserves and dissipates (Acary 2016, without contact then with
    it): theta = 1/2 is the midpoint rule, second order, and conserves
    :math:`\frac12 v^T M v + \frac12 u^T K u` exactly; theta in (1/2, 1]
    dissipates (first order, numerical damping of the high frequencies).
    With contact, the impulse does the work
    :math:`\frac12 P_N (U_{N,n+1} + U_{N,n})`, that is
    :math:`\frac{1-e}{2} P_N U_{N,n} \le 0` when the law is active
    (theta = 1/2, :math:`U_{N,n} \le 0` approaching): the scheme never creates energy for e <= 1 and dissipates
    exactly the kinetic energy the impact law removes from the contact nodes
    (e = 0: all of their normal approach velocity; e = 1: none); persistent
    contact (:math:`U_N = 0`) does no work. Friction dissipates through
    :math:`P_T U_T \le 0`.

    >>> s = MoreauJean()
    >>> s.weights(0.5)  # (w_K, w_C, w_M) = (theta, 1/dt, 1/(theta dt^2))
    (0.5, 2.0, 8.0)
    >>> MoreauJean(theta=0.6, restitution=0.5).label
    'moreau-jean(theta=0.6, e=0.5)'
    """

    theta: float = 0.5
    restitution: float = 0.0
    label: str = ""
    impulse_law: bool = field(default=True, init=False, repr=False)
    #: a redistributed mass matrix on the free dofs (None: the system's); see :meth:`modified_mass`
    mass_matrix: sp.csr_matrix | None = field(default=None, compare=False, repr=False)

    def mass(self, system: System) -> sp.csr_matrix:
        return system.M_free if self.mass_matrix is None else self.mass_matrix

    def modified_mass(self, system: System, nodes: np.ndarray) -> MoreauJean:
        """The scheme on the modified mass of the contact ``nodes``
        (:meth:`fem2d.dynamics.schemes.NewmarkScheme.modified_mass`): no inertia
        on them, so an impact removes no kinetic energy whatever e."""
        return replace(self, mass_matrix=modified_mass_matrix(system, nodes), label=f"modified-mass {self.label}")

    def __post_init__(self) -> None:
        if not 0.5 <= self.theta <= 1.0:
            raise ValueError(f"Moreau-Jean theta must lie in [1/2, 1], got {self.theta}")
        if not 0.0 <= self.restitution <= 1.0:
            raise ValueError(f"Moreau-Jean restitution must lie in [0, 1], got {self.restitution}")
        if not self.label:
            object.__setattr__(self, "label", f"moreau-jean(theta={self.theta:g}, e={self.restitution:g})")

    def weights(self, dt: float) -> tuple[float, float, float]:
        return self.theta, 1.0 / dt, 1.0 / (self.theta * dt * dt)

    def predict(self, state: StepState, dt: float) -> Prediction:
        """The free flight increment :math:`\\Delta t\\, v_n`, and the shift
        :math:`-(1-\\theta-e\\theta)\\Delta t\\, v_n` of the point the contact
        condition holds on."""
        th, e = self.theta, self.restitution
        return Prediction(dt * state.v, state.v, contact_shift=-(1.0 - th - e * th) * dt * state.v,
                          velocity_level=True)

    def right_hand_side(
        self,
        system: System,
        state: StepState,
        prediction: Prediction,
        dt: float,
        t_new: float,
        forces: Callable[[float], np.ndarray],
    ) -> np.ndarray:
        th = self.theta
        f = th * forces(t_new) + (1.0 - th) * forces(state.t) if th < 1.0 else forces(t_new)
        return f - state.internal_force + self.mass(system) @ (state.v / (th * dt))

    def correct(
        self, state: StepState, du: np.ndarray, prediction: Prediction, dt: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """:math:`v_{n+1} = (\\Delta u/\\Delta t - (1-\\theta) v_n)/\\theta` and the
        step's mean acceleration :math:`(v_{n+1} - v_n)/\\Delta t` (impulse included)."""
        th = self.theta
        v = (du / dt - (1.0 - th) * state.v) / th
        return v, (v - state.v) / dt
