r"""Impact schemes: time schemes built for contact with impacts.

* :class:`PaoliSchatzman`: central differences (or their implicit theta form)
  with a velocity-level impact law of restitution e.
* :class:`ContactStabilisedNewmark`: Deuflhard, Krause & Ertel's average
  acceleration with an admissible predictor.

:class:`PaoliSchatzman` is the scheme of Paoli & Schatzman (SIAM J. Numer.
Anal. 40, 2002) for the dynamic Signorini problem: the central difference
(or its implicit theta form) with the contact condition imposed on the
blend :math:`(u_{n+1} + e\, u_{n-1})/(1+e)`, which is a velocity-level
condition with Newton's restitution coefficient e in disguise,

.. math::

    \frac{u_{n+1} + e\, u_{n-1}}{1+e} - u_n
    = \frac{\Delta t}{1+e}\big(v_{n+1/2} - e\, v_{n-1/2}\big),

so a node that arrives at the obstacle with :math:`v_{n-1/2}` leaves it with
:math:`v_{n+1/2} = -e\, v_{n-1/2}` (Doyen, Ern & Piperno, SIAM J. Sci.
Comput. 33, 2011, section 4: "enforcement with contact condition in
velocity").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from fem2d.dynamics.schemes import Prediction, TimeScheme

if TYPE_CHECKING:
    from fem2d.dynamics.stepper import StepState
    from fem2d.model.system import System


@dataclass(frozen=True)
class PaoliSchatzman(TimeScheme):
    r"""The Paoli-Schatzman impact scheme: central differences (theta = 0) or
    their implicit theta form, with the contact condition on
    :math:`(u_{n+1} + e\, u_{n-1})/(1+e)`.

    Equations of a step :math:`t_n \to t_{n+1}` (free dofs, increments
    :math:`\Delta u = u_{n+1} - u_n`, :math:`\Delta u_- = u_n - u_{n-1}`):

    .. math::

        M \frac{\Delta u - \Delta u_-}{\Delta t^2}
        + C \frac{\Delta u + \Delta u_-}{2\Delta t}
        + K\big(u_n + \theta(\Delta u - \Delta u_-)\big)
        = f^\theta_n + r_n ,

        f^\theta_n = \theta f_{n+1} + (1 - 2\theta) f_n + \theta f_{n-1},

        0 \le g\Big(\frac{u_{n+1} + e\, u_{n-1}}{1+e}\Big) \perp r_n \ge 0 ,

    that is the weights :math:`(w_K, w_C, w_M) = (\theta, 1/(2\Delta t),
    1/\Delta t^2)` and the right-hand side :math:`M\Delta u_-/\Delta t^2
    + f^\theta_n - K u_n + \theta K \Delta u_- - C \Delta u_-/(2\Delta t)`.
    The contact force :math:`r_n` acts over the step (it is the force of
    time :math:`t_n` of the central difference, Carpenter's "forward
    increment" when e = 0).

    The state keeps :math:`(u_n, v_n, a_n)` with :math:`\Delta u_- = \Delta t
    v_n - \Delta t^2 a_n / 2` (the Taylor start :math:`u_{-1}` on the first
    step); after the step :math:`a_{n+1} = (\Delta u - \Delta u_-)/\Delta t^2`
    (the central acceleration at :math:`t_n`, contact included) and
    :math:`v_{n+1} = \Delta u/\Delta t + \Delta t\, a_{n+1}/2`.

    What it conserves: without contact, theta = 0 is the central difference
    (explicit with a lumped mass, stable for :math:`\omega_{max}\Delta t \le
    2`, second order, symplectic) and theta = 1/4 is unconditionally stable;
    both conserve a discrete energy exactly. At an impact the contact nodes
    leave with e times their arrival velocity: e = 0 dissipates their kinetic
    energy and nothing else (bar_wall: -6.25e-3, 1/160). Measured on bar_wall (lumped
    mass, Courant 0.95) e = 0.5 gains 2 % and e = 1 creates energy (+2.2):
    use e = 0 (``energy_drift`` and ``--strict`` catch a setting that creates
    energy). On a 1D bar with a lumped mass and
    :math:`c\Delta t = h` (Courant number one) the explicit scheme is exact at
    the nodes, so the contact force is the exact plateau and the impact costs
    only the contact nodes' kinetic energy (e = 0).

    >>> s = PaoliSchatzman()
    >>> s.weights(0.5)  # (w_K, w_C, w_M) = (theta, 1/(2 dt), 1/dt^2)
    (0.0, 1.0, 4.0)
    >>> PaoliSchatzman(theta=0.25, restitution=1.0).label
    'paoli-schatzman(theta=0.25, e=1)'
    """

    theta: float = 0.0
    restitution: float = 0.0
    label: str = ""
    half_step_energy: bool = field(default=True, init=False, repr=False)
    contact_velocity_lags: bool = field(default=True, init=False, repr=False)
    _mass_solvers: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not 0.0 <= self.theta <= 0.5:
            raise ValueError(f"Paoli-Schatzman theta must lie in [0, 1/2], got {self.theta}")
        if not 0.0 <= self.restitution <= 1.0:
            raise ValueError(f"Paoli-Schatzman restitution must lie in [0, 1], got {self.restitution}")
        if not self.label:
            object.__setattr__(self, "label", f"paoli-schatzman(theta={self.theta:g}, e={self.restitution:g})")

    def weights(self, dt: float) -> tuple[float, float, float]:
        return self.theta, 0.5 / dt, 1.0 / (dt * dt)

    def critical_step(self, system: System) -> float:
        r"""The step limit of the theta form (s): :math:`2 / (\omega_{max}
        \sqrt{1 - 4\theta})` for :math:`\theta < 1/4` (the central difference's
        :math:`2/\omega_{max}` at theta = 0), unbounded from theta = 1/4;
        :math:`\omega_{max}` of :math:`(K, M)` with the scheme's mass
        (:func:`fem2d.dynamics.stability.largest_frequency`). Contact adds no
        stiffness (a constraint), so the limit of the free system holds.

        >>> import numpy as np, scipy.sparse as sp
        >>> from fem2d.mesh import CellBlock, Mesh
        >>> from fem2d.model.system import System
        >>> mesh = Mesh(np.array([[0., 0], [1, 0], [1, 1], [0, 1]]), {"B": CellBlock("quad4", [[0, 1, 2, 3]])})
        >>> K, M = sp.csr_matrix(4.0 * np.eye(8)), sp.csr_matrix(np.eye(8))  # omega_max = 2 rad/s
        >>> PaoliSchatzman().critical_step(System(mesh, K, M, M * 0, np.zeros(0, int), np.zeros(0)))
        1.0
        """
        if self.theta >= 0.25:
            return float("inf")
        from fem2d.dynamics.stability import largest_frequency

        omega = largest_frequency(system.K_free, self.mass(system))
        return 2.0 / (omega * float(np.sqrt(1.0 - 4.0 * self.theta))) if omega > 0.0 else float("inf")

    def predict(self, state: StepState, dt: float) -> Prediction:
        du_previous = dt * state.v - 0.5 * dt * dt * state.a
        return Prediction(du_previous, state.v, (self.restitution, state.u - du_previous))

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
        du_previous = prediction.du
        f = forces(state.t) if th == 0.0 else (1.0 - 2.0 * th) * forces(state.t) + th * (
            forces(t_new) + forces(state.t - dt)
        )
        rhs = f - state.internal_force + self.mass(system) @ (du_previous / (dt * dt))
        if th:
            rhs += th * (system.K_free @ du_previous)
        if system.C_free is not None:
            rhs -= system.C_free @ (du_previous / (2.0 * dt))
        return rhs

    def correct(
        self, state: StepState, du: np.ndarray, prediction: Prediction, dt: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """Without the system: the central acceleration of the step, lagged
        (:meth:`end_of_step` makes the one of the step's end)."""
        a = (du - prediction.du) / (dt * dt)
        return du / dt + 0.5 * dt * a, a

    def end_of_step(
        self,
        system: System,
        state: StepState,
        du: np.ndarray,
        prediction: Prediction,
        dt: float,
        t_new: float,
        forces: Callable[[float], np.ndarray],
    ) -> tuple[np.ndarray, np.ndarray]:
        r""":math:`v_{n+1/2} = \Delta u/\Delta t`, :math:`M a_{n+1} = f_{n+1} -
        K u_{n+1} - C v_{n+1/2}` (the contact force of the next step is not
        known yet) and :math:`v_{n+1} = v_{n+1/2} + \Delta t\, a_{n+1}/2`,
        so that the next predictor gives back :math:`\Delta u_- = \Delta u`."""
        v_half = du / dt
        rhs = forces(t_new) - state.internal_force - system.K_free @ du
        if system.C_free is not None:
            rhs -= system.C_free @ v_half
        a = self._mass_solver(system)(rhs)
        return v_half + 0.5 * dt * a, a

    def _mass_solver(self, system: System) -> Callable[[np.ndarray], np.ndarray]:
        """:math:`M^{-1}` (a diagonal when the mass is lumped), kept per system."""
        solver = self._mass_solvers.get(id(system))
        if solver is None:
            mass = self.mass(system).tocsr()
            off_diagonal = mass - sp.diags(mass.diagonal())
            if off_diagonal.count_nonzero() == 0 and np.all(mass.diagonal() > 0.0):
                inverse = 1.0 / mass.diagonal()
                solver = inverse.__mul__
            else:  # (scipy.sparse.linalg imported here: 0.06 s of every direct run's process otherwise)
                import scipy.sparse.linalg as spla

                solver = spla.factorized(mass.tocsc())
            self._mass_solvers.clear()
            self._mass_solvers[id(system)] = solver
        return solver


@dataclass(frozen=True)
class ContactStabilisedNewmark(TimeScheme):
    r"""The contact-stabilised Newmark method (Deuflhard, Krause & Ertel, IJNME
    73, 2008): average acceleration whose predictor is first made admissible.

    A step :math:`t_n \to t_{n+1}` (free dofs, :math:`\Delta u = u_{n+1} - u_n`):

    1. predictor :math:`\Delta\tilde u = \Delta t\, v_n`, projected on the
       admissible set in the metric of the mass,

       .. math::

           \Delta u^c = \operatorname{argmin}_{g(u_n + \Delta) \ge 0}
           \tfrac12 (\Delta - \Delta\tilde u)^T M (\Delta - \Delta\tilde u)

       (the stepper solves it as a contact problem with the effective matrix
       :math:`M`, :meth:`constrain`);

    2. the average-acceleration step from the projected predictor, with the
       contact force :math:`r` (the step's mean contact force) at the end,

       .. math::

           \Big(\tfrac12 K + \tfrac{1}{\Delta t} C + \tfrac{2}{\Delta t^2} M\Big)\Delta u
           = \tfrac{2}{\Delta t^2} M \Delta u^c + \tfrac12 (f_n + f_{n+1}) - K u_n
           - C v_n + \tfrac{1}{\Delta t} C \Delta u^c + r ,

       that is :math:`M (u_{n+1} - u_n - \Delta u^c) = \frac{\Delta t^2}{4}
       \big(f_n + f_{n+1} - K (u_n + u_{n+1}) - C (v_n + v_{n+1})\big)
       + \frac{\Delta t^2}{2} r`;

    3. :math:`v_{n+1} = v_n + \frac{2}{\Delta t}(\Delta u - \Delta u^c)`,
       :math:`a_{n+1} = (v_{n+1} - v_n)/\Delta t` (the step's mean
       acceleration; the predictor does not use it).

    The contact force of the previous step never enters the predictor (it is
    :math:`\Delta t\, v_n`, not :math:`\Delta t\, v_n + \Delta t^2 a_n/4`), so the
    contact nodes carry no memory of an impulse and the force does not
    chatter. What it conserves: without contact it is average acceleration
    (energy conserved); with frictionless contact Deuflhard et al. prove the
    discrete energy :math:`\frac12 v^T M v + \frac12 u^T K u` non-increasing:
    the projection removes the normal velocity of the nodes that would
    penetrate (an inelastic impact of the contact nodes), the rest of the step
    is conservative.

    >>> s = ContactStabilisedNewmark()
    >>> s.weights(0.5)  # (w_K, w_C, w_M) = (1/2, 1/dt, 2/dt^2)
    (0.5, 2.0, 8.0)
    >>> s.constrained_predictor
    True
    """

    label: str = "contact-stabilised newmark"
    constrained_predictor: bool = True

    def weights(self, dt: float) -> tuple[float, float, float]:
        return 0.5, 1.0 / dt, 2.0 / (dt * dt)

    def predict(self, state: StepState, dt: float) -> Prediction:
        return Prediction(dt * state.v, state.v)

    def right_hand_side(
        self,
        system: System,
        state: StepState,
        prediction: Prediction,
        dt: float,
        t_new: float,
        forces: Callable[[float], np.ndarray],
    ) -> np.ndarray:
        du_c = prediction.du
        rhs = 0.5 * (forces(state.t) + forces(t_new)) - state.internal_force
        rhs += self.mass(system) @ (du_c * (2.0 / (dt * dt)))
        if system.C_free is not None:
            rhs += system.C_free @ (du_c / dt - state.v)
        return rhs

    def correct(
        self, state: StepState, du: np.ndarray, prediction: Prediction, dt: float
    ) -> tuple[np.ndarray, np.ndarray]:
        v = state.v + (2.0 / dt) * (du - prediction.du)
        return v, (v - state.v) / dt
