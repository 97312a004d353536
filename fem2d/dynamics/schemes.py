r"""Time schemes as objects: what a step predicts, how it weights the matrices
and how it corrects.

A scheme turns the semi-discrete equation :math:`M a + C v + K u = f + f_c`
into one linear problem per step for the displacement increment
:math:`\Delta u = u_{n+1} - u_n`,

.. math::

    (w_K K + w_C C + w_M M)\, \Delta u = r_n + f_c ,

where the weights :math:`(w_K, w_C, w_M)` (:meth:`TimeScheme.weights`) fix the
effective matrix, the right-hand side :math:`r_n`
(:meth:`TimeScheme.right_hand_side`) gathers what is known at the start of the
step (a *predictor*, :meth:`TimeScheme.predict`), and the *corrector*
(:meth:`TimeScheme.correct`) turns the increment into the end-of-step velocity
and acceleration. This is GetFEM's ``virtual_time_scheme`` idea: the scheme is
an affine map from the unknown :math:`u_{n+1}` to :math:`v_{n+1}` and
:math:`a_{n+1}`, and the stepper never knows which scheme it runs.

The contact force enters with weight one at :math:`t_{n+1}` in every scheme,
so a contact formulation always sees the same condensed compliance
:math:`S (w_K K + w_C C + w_M M)^{-1} S^T`.

* :class:`NewmarkScheme`: Newmark (beta, gamma), code_aster's HHT, Hilber's HHT
  and Chung-Hulbert's generalized-alpha, weights
  :math:`(1, \gamma/(\beta\Delta t), (1-\alpha_m)/((1-\alpha_f)\beta\Delta t^2))`.
* :class:`StaticScheme`: equilibrium :math:`K u_{n+1} = f_{n+1} + f_c`, weights
  :math:`(1, 0, 0)`, no velocity and no acceleration (quasi-static loading,
  where "time" only orders the load levels).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    from fem2d.dynamics.stepper import StepState
    from fem2d.linalg.base import SolverBackend
    from fem2d.model.system import System


@dataclass(frozen=True)
class Prediction:
    r"""What a scheme knows of the step before solving it: the predicted
    displacement increment and velocity (free dofs).

    ``contact_on`` is None when the contact condition holds on the end-of-step
    displacement :math:`u_{n+1}` (every Newmark-family scheme); a scheme that
    imposes it on a blend :math:`(u_{n+1} + e\, w)/(1 + e)` with another
    displacement :math:`w` (Paoli-Schatzman: :math:`w = u_{n-1}`, restitution
    e) gives ``(e, w)``.
    """

    du: np.ndarray
    v: np.ndarray
    contact_on: tuple[float, np.ndarray] | None = None
    #: a scheme that imposes the contact condition on :math:`u_{n+1} + s` gives
    #: the shift s (free dofs; Moreau-Jean: :math:`s = -(1-\theta-e\theta)\Delta t\, v_n`)
    contact_shift: np.ndarray | None = None
    #: True when a node closed or penetrated at the start of the step keeps its
    #: gap (the condition is on the gap's change: Moreau's velocity-level law)
    velocity_level: bool = False


class TimeScheme(ABC):
    """A one-step time scheme on the free dofs (see the module docstring).

    Subclasses define the weights of the effective matrix, the predictor, the
    right-hand side and the corrector; :class:`fem2d.dynamics.stepper.NewmarkStepper`
    runs any of them.
    """

    label: str
    #: True when the stepper must make the predicted increment admissible
    #: before the step (:meth:`constrain`)
    constrained_predictor: bool = False
    #: True when the scheme imposes contact as a velocity-level impulse law
    #: (Moreau-Jean): it needs a formulation that enforces a constraint, not
    #: a penalty force law of the gap
    impulse_law: bool = False
    #: True when the energy the scheme conserves is that of the half steps,
    #: :math:`\tfrac12 v_{n+1/2}^T M v_{n+1/2} + \tfrac12 u_n^T K u_{n+1}` (the central
    #: difference), which the run then reports (:class:`~fem2d.dynamics.history.DirectHistory`)
    half_step_energy: bool = False
    #: True when the end-of-step velocity misses the contact force of the step (the central
    #: difference's, made before the next step's force is known): the run then reports the
    #: rate of the displacement for the dofs that force acted on
    #: (:class:`~fem2d.dynamics.massless.MasslessRates`)
    contact_velocity_lags: bool = False

    def constrain(self, prediction: Prediction, du_admissible: np.ndarray) -> Prediction:
        """The prediction with its increment replaced by the admissible one
        (:meth:`fem2d.dynamics.stepper.NewmarkStepper.admissible_increment`),
        for a scheme with ``constrained_predictor``."""
        return replace(prediction, du=du_admissible)

    def mass(self, system: System) -> sp.csr_matrix:
        """The mass matrix the scheme integrates with (free dofs): the system's,
        unless the scheme redistributes it (:meth:`NewmarkScheme.modified_mass`)."""
        return system.M_free

    def critical_step(self, system: System) -> float:
        """The largest stable step on ``system`` (s): infinite for an
        unconditionally stable scheme (the default); a conditionally stable one
        (:meth:`fem2d.dynamics.impact.PaoliSchatzman.critical_step`) says its
        limit, which the run checks before marching."""
        return float("inf")

    @abstractmethod
    def weights(self, dt: float) -> tuple[float, float, float]:
        """The weights :math:`(w_K, w_C, w_M)` of the effective matrix
        :math:`w_K K + w_C C + w_M M` for a step dt."""

    @abstractmethod
    def predict(self, state: StepState, dt: float) -> Prediction:
        """The predicted increment and velocity from the start-of-step state."""

    @abstractmethod
    def right_hand_side(
        self,
        system: System,
        state: StepState,
        prediction: Prediction,
        dt: float,
        t_new: float,
        forces: Callable[[float], np.ndarray],
    ) -> np.ndarray:
        """The known part :math:`r_n` of the step's linear problem; ``forces(t)``
        is the load on the free dofs and ``state.internal_force`` is
        :math:`K u_n`."""

    @abstractmethod
    def correct(
        self, state: StepState, du: np.ndarray, prediction: Prediction, dt: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """End-of-step velocity and acceleration from the solved increment."""

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
        """End-of-step velocity and acceleration, for a scheme that needs the
        system to make them (the stepper calls this one); by default
        :meth:`correct`."""
        return self.correct(state, du, prediction, dt)

    def initial_acceleration(
        self, system: System, v: np.ndarray, rhs: np.ndarray, backend: SolverBackend
    ) -> np.ndarray:
        """The acceleration at the initial instant, :math:`M a_0 = f_0 - K u_0 - C v_0`
        (``rhs``); zero when the right-hand side is."""
        return backend.factorize(system.M_free).solve(rhs) if np.any(rhs) else np.zeros(len(v))


@dataclass(frozen=True)
class NewmarkScheme(TimeScheme):
    r"""Newmark (beta, gamma) with generalized-alpha weights.

    Predictor and corrector (Newmark 1959):

    .. math::

        \Delta\tilde u = \Delta t\, v_n + \Delta t^2 (\tfrac12 - \beta) a_n, \qquad
        \tilde v = v_n + \Delta t (1 - \gamma) a_n,

        a_{n+1} = \frac{\Delta u - \Delta\tilde u}{\beta \Delta t^2}, \qquad
        v_{n+1} = \tilde v + \gamma \Delta t\, a_{n+1}.

    The generalized-alpha method (Chung & Hulbert 1993) writes equilibrium at
    intermediate instants, :math:`M a_{n+1-\alpha_m} + C v_{n+1-\alpha_f} +
    K u_{n+1-\alpha_f} = f_{n+1-\alpha_f}` with
    :math:`x_{n+1-\alpha} = (1-\alpha) x_{n+1} + \alpha x_n`; divided by
    :math:`1-\alpha_f` it leaves :math:`K` and the end-of-step contact force
    with weight one:

    .. math::

        \Big(K + \frac{\gamma}{\beta\Delta t} C
        + \frac{1-\alpha_m}{(1-\alpha_f)\beta\Delta t^2} M\Big) \Delta u
        = f_{n+1} - K u_n + \frac{1-\alpha_m}{(1-\alpha_f)\beta\Delta t^2} M \Delta\tilde u
        + \frac{\alpha_f}{1-\alpha_f}(f_n + f_{c,n} - K u_n)
        - \frac{\alpha_m}{1-\alpha_f} M a_n
        + C\Big(\frac{\gamma}{\beta\Delta t}\Delta\tilde u - \tilde v
        - \frac{\alpha_f}{1-\alpha_f} v_n\Big) + f_{c,n+1}.

    With :math:`\alpha_m = \alpha_f = 0` this is Newmark's scheme; beta = 1/4,
    gamma = 1/2 (average acceleration) conserves the energy of a linear system.
    Build the others with :meth:`hht` (code_aster's form), :meth:`hht_alpha`
    (Hilber's) and :meth:`generalized_alpha`.

    >>> s = NewmarkScheme()
    >>> s.weights(0.5)  # (w_K, w_C, w_M) = (1, gamma/(beta dt), 1/(beta dt^2))
    (1.0, 4.0, 16.0)
    >>> NewmarkScheme.hht(-0.3).gamma
    0.8
    """

    beta: float = 0.25
    gamma: float = 0.5
    alpha_m: float = 0.0
    alpha_f: float = 0.0
    label: str = "newmark"
    #: a redistributed mass matrix on the free dofs (None: the system's); see :meth:`modified_mass`
    mass_matrix: sp.csr_matrix | None = field(default=None, compare=False, repr=False)
    #: the map :math:`T` of the modified mass on the free dofs (None without one)
    mass_map: sp.csr_matrix | None = field(default=None, compare=False, repr=False)

    def mass(self, system: System) -> sp.csr_matrix:
        return system.M_free if self.mass_matrix is None else self.mass_matrix

    def initial_acceleration(
        self, system: System, v: np.ndarray, rhs: np.ndarray, backend: SolverBackend
    ) -> np.ndarray:
        r"""The acceleration at the initial instant in the scheme's own mass.

        With the system's mass, :math:`M a_0 = r` (``rhs``, :math:`r = f_0 - K u_0 - C v_0`).
        With a modified mass :math:`M_{mod} = T^T M T` (:meth:`modified_mass`) the
        contact nodes carry no inertia, so :math:`M_{mod} a_0 = r` has no solution
        when the load acts on them at :math:`t_0`; the acceleration is that of the
        kinematics the modified mass describes (the contact nodes moving with their
        neighbours), :math:`a_0 = T b` with

        .. math::

            T^T M T\, b = T^T r ,

        solved on the dofs that carry mass (:math:`T^T r` puts a contact node's load on
        its neighbour). Then :math:`\mathbf 1^T M_{mod} a_0 = \mathbf 1^T r` in each
        direction (:math:`T \mathbf 1 = \mathbf 1`): the first step's momentum change is
        the impulse of the loads. The system's :math:`M^{-1} r` instead, in
        :math:`M_{mod}`, is another force where the acceleration varies between a
        contact node and its neighbour (a block pushed on its left side with both its
        bottom and right sides in contact zones: 536 N of the 10 kN push missing over
        the first step).

        >>> import numpy as np, scipy.sparse as sp
        >>> from fem2d.mesh import CellBlock, Mesh
        >>> from fem2d.model.system import System
        >>> from fem2d.linalg import get_solver
        >>> mesh = Mesh(np.array([[0., 0], [1, 0], [1, 1], [0, 1]]), {"B": CellBlock("quad4", [[0, 1, 2, 3]])})
        >>> M = sp.csr_matrix(np.eye(8))
        >>> system = System(mesh, M, M, M * 0, np.zeros(0, int), np.zeros(0))
        >>> s = NewmarkScheme().modified_mass(system, np.array([1, 2]))
        >>> r = np.array([0.0, 0, 4, 0, 0, 0, 0, 0])  # 4 N along x on contact node 1
        >>> a = s.initial_acceleration(system, np.zeros(8), r, get_solver("superlu"))
        >>> a.tolist()  # node 1 moves with node 0, which carries both masses
        [2.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        >>> float((s.mass(system) @ a)[0::2].sum())
        4.0
        """
        if self.mass_map is None or not np.any(rhs):
            return super().initial_acceleration(system, v, rhs, backend)
        T = self.mass_map
        massive = np.flatnonzero(self.mass_matrix.diagonal() > 0.0)
        b = np.zeros(len(v))
        b[massive] = backend.factorize(sp.csr_matrix(self.mass_matrix[massive][:, massive])).solve((T.T @ rhs)[massive])
        return T @ b

    def modified_mass(self, system: System, nodes: np.ndarray) -> NewmarkScheme:
        r"""The modified mass method (Khenous, Laborde & Renard 2008): no inertia
        on the contact ``nodes``, their mass given to their nearest neighbours.

        With :math:`T` the map that gives each dof of a contact node the velocity
        of the same dof of its nearest node in a common cell outside the contact
        boundary (identity elsewhere), the scheme integrates with

        .. math::

            M_{mod} = T^T M T ,

        whose rows and columns on the contact nodes are zero, which keeps the
        total mass and the momentum of a translation. The contact nodes then
        carry no kinetic energy: the Signorini condition becomes a constraint of
        an elliptic problem at each step, so with the energy-conserving average
        acceleration (beta = 1/4, gamma = 1/2) the discrete energy
        :math:`\tfrac12 v^T M_{mod} v + \tfrac12 u^T K u` is conserved through
        persistent contact and impacts dissipate at most the energy of the
        release (Khenous et al. 2008, Doyen, Ern & Piperno 2011, section 3.4);
        the contact force no longer oscillates.

        >>> import numpy as np, scipy.sparse as sp
        >>> from fem2d.mesh import CellBlock, Mesh
        >>> from fem2d.model.system import System
        >>> mesh = Mesh(np.array([[0., 0], [1, 0], [1, 1], [0, 1]]), {"B": CellBlock("quad4", [[0, 1, 2, 3]])})
        >>> M = sp.csr_matrix(np.eye(8))
        >>> system = System(mesh, M, M, M * 0, np.zeros(0, int), np.zeros(0))
        >>> m = NewmarkScheme().modified_mass(system, np.array([1, 2])).mass(system)
        >>> m.diagonal().tolist()
        [2.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 2.0]
        """
        T = modified_mass_map(system, nodes)
        return replace(self, mass_matrix=system.restrict((T.T @ system.M @ T).tocsr()), mass_map=system.restrict(T),
                       label=f"modified-mass {self.label}")

    @classmethod
    def hht(cls, alpha: float) -> NewmarkScheme:
        """code_aster's HHT as DYNA_NON_LINE runs it by default (MODI_EQUI = 'NON'):
        plain Newmark with beta = (1-alpha)^2/4, gamma = 1/2 - alpha (first order)."""
        if not -1.0 / 3.0 <= alpha <= 0.0:
            raise ValueError(f"HHT alpha must lie in [-1/3, 0], got {alpha}")
        return cls((1.0 - alpha) ** 2 / 4.0, 0.5 - alpha, label=f"hht(alpha={alpha:g})")

    @classmethod
    def hht_alpha(cls, alpha: float) -> NewmarkScheme:
        """Hilber-Hughes-Taylor proper: forces weighted at t_{n+1+alpha} (second order)."""
        if not -1.0 / 3.0 <= alpha <= 0.0:
            raise ValueError(f"HHT alpha must lie in [-1/3, 0], got {alpha}")
        return cls((1.0 - alpha) ** 2 / 4.0, 0.5 - alpha, 0.0, -alpha, f"hht-alpha(alpha={alpha:g})")

    @classmethod
    def generalized_alpha(cls, rho_inf: float) -> NewmarkScheme:
        """Chung-Hulbert's optimal parameters for a spectral radius ``rho_inf``
        at infinite frequency (1: no dissipation, 0: annihilates in one step)."""
        if not 0.0 <= rho_inf <= 1.0:
            raise ValueError(f"generalized-alpha rho_inf must lie in [0, 1], got {rho_inf}")
        alpha_m = (2.0 * rho_inf - 1.0) / (rho_inf + 1.0)
        alpha_f = rho_inf / (rho_inf + 1.0)
        gamma = 0.5 - alpha_m + alpha_f
        beta = 0.25 * (1.0 - alpha_m + alpha_f) ** 2
        return cls(beta, gamma, alpha_m, alpha_f, f"generalized-alpha(rho_inf={rho_inf:g})")

    @property
    def mass_factor(self) -> float:
        """(1 - alpha_m) / ((1 - alpha_f) beta): w_M = mass_factor / dt^2."""
        return (1.0 - self.alpha_m) / ((1.0 - self.alpha_f) * self.beta)

    def weights(self, dt: float) -> tuple[float, float, float]:
        return 1.0, self.gamma / (self.beta * dt), self.mass_factor / (dt * dt)

    def predict(self, state: StepState, dt: float) -> Prediction:
        du = dt * state.v
        du += dt * dt * (0.5 - self.beta) * state.a
        v = dt * (1.0 - self.gamma) * state.a
        v += state.v
        return Prediction(du, v)

    def right_hand_side(
        self,
        system: System,
        state: StepState,
        prediction: Prediction,
        dt: float,
        t_new: float,
        forces: Callable[[float], np.ndarray],
    ) -> np.ndarray:
        b, g, am, af = self.beta, self.gamma, self.alpha_m, self.alpha_f
        f_int = state.internal_force
        mass = self.mass(system)
        # in place where a temporary would hold the same values: the operations, their order and so
        # every bit of the result are those of the equation as written (merging the two products
        # with M into one changes the round-off, which the stick/slip events of SDNV104 magnify to
        # 1e-7 and bar_bounce's impact velocities to 100 %)
        rhs = forces(t_new) - f_int
        rhs += mass @ (prediction.du * (self.mass_factor / (dt * dt)))
        if af or am:
            w = af / (1.0 - af)
            known = forces(state.t) - f_int
            known *= w
            rhs += known
            rhs -= mass @ (state.a * (am / (1.0 - af)))
            if state.contact_force is not None:
                rhs += w * state.contact_force
        if system.C_free is not None:
            rhs += system.C_free @ (g / (b * dt) * prediction.du - prediction.v - (af / (1.0 - af)) * state.v)
        return rhs

    def correct(
        self, state: StepState, du: np.ndarray, prediction: Prediction, dt: float
    ) -> tuple[np.ndarray, np.ndarray]:
        a = du - prediction.du
        a /= self.beta * dt * dt
        v = self.gamma * dt * a
        v += prediction.v
        return v, a


@dataclass(frozen=True)
class StaticScheme(TimeScheme):
    r"""Static equilibrium at each instant: :math:`K u_{n+1} = f_{n+1} + f_c`.

    Weights :math:`(1, 0, 0)`: no inertia and no damping, the velocity and the
    acceleration stay zero. In increments, :math:`K \Delta u = f_{n+1} - K u_n
    + f_c`, so a load history is followed level by level and a contact
    formulation still sees its slip between two levels.

    >>> StaticScheme().weights(0.1)
    (1.0, 0.0, 0.0)
    """

    label: str = "static"

    def weights(self, dt: float) -> tuple[float, float, float]:
        return 1.0, 0.0, 0.0

    def predict(self, state: StepState, dt: float) -> Prediction:
        zero = np.zeros_like(state.u)
        return Prediction(zero, zero)

    def right_hand_side(
        self,
        system: System,
        state: StepState,
        prediction: Prediction,
        dt: float,
        t_new: float,
        forces: Callable[[float], np.ndarray],
    ) -> np.ndarray:
        return forces(t_new) - state.internal_force

    def correct(
        self, state: StepState, du: np.ndarray, prediction: Prediction, dt: float
    ) -> tuple[np.ndarray, np.ndarray]:
        zero = np.zeros_like(du)
        return zero, zero

    def initial_acceleration(
        self, system: System, v: np.ndarray, rhs: np.ndarray, backend: SolverBackend
    ) -> np.ndarray:
        return np.zeros(len(v))


def modified_mass_matrix(system: System, nodes: np.ndarray) -> sp.csr_matrix:
    """:math:`T^T M T` on the free dofs (see :meth:`NewmarkScheme.modified_mass`)."""
    T = modified_mass_map(system, nodes)
    return system.restrict((T.T @ system.M @ T).tocsr())


def modified_mass_map(system: System, nodes: np.ndarray) -> sp.csr_matrix:
    """The map :math:`T` of the modified mass on all dofs: each dof of a contact node
    takes the same dof of its nearest node in a common cell off the contact boundary
    (see :meth:`NewmarkScheme.modified_mass`)."""
    mesh = system.mesh
    nodes = np.unique(np.asarray(nodes, dtype=np.int64))
    on_boundary = np.zeros(mesh.n_nodes, dtype=bool)
    on_boundary[nodes] = True
    cells = [block.nodes for block in mesh.cells_of_dimension(2).values()]
    target = np.arange(mesh.n_nodes)
    for node in nodes:
        around = np.unique(np.concatenate([c[(c == node).any(axis=1)].ravel() for c in cells]))
        around = around[~on_boundary[around]]
        if len(around) == 0:
            raise ValueError(f"modified mass: contact node {node} has no neighbour off the contact boundary")
        distance = np.linalg.norm(mesh.points[around] - mesh.points[node], axis=1)
        target[node] = around[np.argmin(distance)]
    n = system.n_dofs
    rows = np.arange(n)
    cols = (2 * target[:, None] + np.arange(2)).ravel()
    return sp.csr_matrix((np.ones(n), (rows, cols)), shape=(n, n))
