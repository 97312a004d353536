r"""Static equilibrium with contact, load level by load level, and what holds a body.

A static step solves :math:`K u_{n+1} = f_{n+1} + f_c` (:class:`StaticScheme`)
with the contact force :math:`f_c` of the step's contact problem. When the
supports leave a rigid-body mode of some body free and only contact holds it
(a disc pressed on a plane, a block resting on a floor), :math:`K` is singular
and :math:`K^{-1}`, which the condensed contact problem needs, does not exist.

Such a step is solved by *proximal-point iterations* (Rockafellar 1976; the
"stabilisation" of code_aster's STAT_NON_LINE on free bodies is a fixed
spring instead, which changes the answer):

.. math::

    (K + \varepsilon D)\, u^{k+1} = f_{n+1} + \varepsilon D\, u^k + f_c^{k+1},
    \qquad u^0 = u_n ,

with :math:`D = \operatorname{diag} K / n` (:math:`n` free dofs, so that a
rigid motion of the whole model meets :math:`\varepsilon` times the mean
diagonal, whatever the mesh) and :math:`\varepsilon` small
(:attr:`StaticStepper.regularization`). Each
iteration is a well-posed contact problem (:math:`K + \varepsilon D` is
positive definite) solved by the zone's own formulation on the condensed
boundary, with the slip still measured from :math:`u_n`. The out-of-balance
force of the true problem at :math:`u^{k+1}` is exactly

.. math::

    K u^{k+1} - f_{n+1} - f_c^{k+1} = -\varepsilon D\,(u^{k+1} - u^k),

so the iterations stop when it is below ``tolerance`` times the largest
applied or contact force, and the converged state satisfies the unregularised
equations: the answer does not depend on :math:`\varepsilon` (tested).
Contact holds the free mode with a stiffness :math:`\lambda`, and the error
contracts by :math:`\varepsilon / (\varepsilon + \lambda)` per iteration, a
few iterations per step for a small :math:`\varepsilon`. A spring only on the
free modes, or a fixed spring, would leave a force :math:`\varepsilon D u` in
the answer; a load path alone cannot hold a body before it touches.

A model with a free mode and no contact at all is singular whatever the
loads: :func:`free_modes` finds it before anything is solved, and the run
stops with an error naming the supports. A load that pulls such a body off its
contact has no equilibrium either: once every contact is open, each iteration
moves the body the same distance further away; a few such iterations in a row
(every contact open, the smallest gap growing) raise :class:`UnheldBody`, which
names the load that pulls, instead of cutting the step down to ``min_dt``.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import scipy.sparse as sp

from fem2d.dynamics.coupling import ContactCoupling, StepFailed
from fem2d.dynamics.schemes import StaticScheme
from fem2d.dynamics.stepper import NewmarkStepper, StepState
from fem2d.errors import ConvergenceError
from fem2d.linalg.base import Factorization, SolverBackend
from fem2d.model.system import System

#: Iterations in a row with every contact open and the smallest gap growing after which a body
#: that only contact holds is known to be pulled away (it drifts by the same step each iteration).
OPEN_AND_RECEDING = 5


class UnheldBody(ConvergenceError):
    """No static equilibrium at load level ``t``: nothing holds a body once its contact opens.
    ``load`` is the index in ``System.loads`` of the load that pulls it away most (None: no
    load does, a prescribed motion moves it)."""

    def __init__(self, t: float, load: int | None) -> None:
        self.t, self.load = t, load
        super().__init__(f"no static equilibrium at t = {t:.9g} s: nothing holds the body once its contact opens")


def rigid_modes(points: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """The three rigid-body modes (x and y translation, rotation about the
    centroid) of ``nodes`` as columns over their interleaved dofs.

    >>> rigid_modes(np.array([[0.0, 0.0], [1.0, 0.0]]), np.array([0, 1])).round(3).tolist()
    [[1.0, 0.0, 0.0], [0.0, 1.0, -0.5], [1.0, 0.0, 0.0], [0.0, 1.0, 0.5]]
    """
    xy = points[nodes, :2] - points[nodes, :2].mean(axis=0)
    modes = np.zeros((2 * len(nodes), 3))
    modes[0::2, 0] = 1.0
    modes[1::2, 1] = 1.0
    modes[0::2, 2] = 0.0 - xy[:, 1]
    modes[1::2, 2] = xy[:, 0]
    return modes


def free_modes(system: System, threshold: float = 1e-9) -> list[np.ndarray]:
    r"""The rigid-body motions the supports and springs leave free.

    For each connected piece of the model (nodes linked by :math:`K`), the
    rigid modes :math:`R` restricted to the free dofs give
    :math:`K_{ff} R_f = -K_{fp} R_p`: zero for a combination of modes that
    moves no held dof. The combinations whose :math:`\|K_{ff} R_f x\|` is
    below ``threshold`` times :math:`\max \operatorname{diag} K \,\|R_f x\|`
    are free; each is returned as a free-dof vector.

    >>> from fem2d.mesh import rectangle
    >>> from fem2d.model import Body, Model, Support
    >>> body = [Body("BODY", E=1e9, nu=0.3, rho=1.0)]
    >>> len(free_modes(Model(rectangle(1.0, 1.0, 2, 2), body).assemble()))
    3
    >>> len(free_modes(Model(rectangle(1.0, 1.0, 2, 2), body, [Support("LEFT", ("dx",))]).assemble()))
    1
    """
    K = system.K.tocsr()
    n_nodes = system.n_dofs // 2
    node_graph = sp.csr_matrix((np.ones(K.nnz), (np.repeat(np.arange(K.shape[0]) // 2, np.diff(K.indptr)),
                                                 K.indices // 2)), shape=(n_nodes, n_nodes))
    from scipy.sparse.csgraph import connected_components  # (imports scipy.sparse.linalg: 0.06 s)

    n_parts, labels = connected_components(node_graph, directed=False)
    scale = float(np.max(np.abs(K.diagonal()), initial=0.0)) or 1.0
    free_index = system.free_index
    found = []
    for part in range(n_parts):
        nodes = np.flatnonzero(labels == part)
        dofs = (2 * nodes[:, None] + np.arange(2)).ravel()
        rows = free_index[dofs]
        if not np.any(rows >= 0) or K[dofs][:, dofs].nnz == 0:
            continue  # held entirely, or a node no element touches
        modes = rigid_modes(system.mesh.points, nodes)
        modes_free = np.zeros((len(system.free), 3))
        modes_free[rows[rows >= 0]] = modes[rows >= 0]
        image = system.K_free @ modes_free
        # generalised eigenproblem (image^T image) x = s^2 (modes_free^T modes_free) x on the modes' span
        gram = modes_free.T @ modes_free
        w, v = np.linalg.eigh(gram)
        keep = w > 1e-12 * w.max()
        basis = v[:, keep] / np.sqrt(w[keep])  # orthonormal combinations of the free-dof modes
        s2, x = np.linalg.eigh(basis.T @ (image.T @ image) @ basis)
        for value, vector in zip(s2, x.T):
            if np.sqrt(max(value, 0.0)) <= threshold * scale:
                found.append(modes_free @ (basis @ vector))
    return found


class StaticStepper(NewmarkStepper):
    """Static load steps (:class:`StaticScheme`), by proximal-point iterations
    when ``regularization`` > 0 (see the module docstring).

    Parameters
    ----------
    system, backend, contact
        As for :class:`NewmarkStepper`.
    regularization
        :math:`\\varepsilon`, relative to the diagonal of K (0: plain static steps).
    tolerance
        Out-of-balance force, relative to the largest applied or contact force,
        below which the iterations stop.
    max_iter
        Most iterations in a step before it fails (and is cut).
    modes
        The free rigid-body modes (:func:`free_modes`), to name the load that pulls a
        body away (:class:`UnheldBody`).
    """

    def __init__(
        self,
        system: System,
        backend: SolverBackend,
        contact: ContactCoupling | None = None,
        regularization: float = 0.0,
        tolerance: float = 1e-10,
        max_iter: int = 200,
        modes: list[np.ndarray] | None = None,
    ) -> None:
        super().__init__(system, StaticScheme(), backend, contact)
        self.regularization = regularization
        self.modes = list(modes) if modes is not None else []
        self.tolerance = tolerance
        self.max_iter = max_iter
        self.proximal_iterations = 0
        # epsilon diag(K) / n: a rigid motion of the whole model sees epsilon times the mean diagonal
        # whatever the number of dofs n, so the contraction per iteration does not slow down with h
        diagonal = np.abs(system.K_free.diagonal())
        self._spring = regularization * diagonal / max(len(diagonal), 1)
        #: the proximal term in the tangents of the bodies' Newton iterations (None: no proximal term)
        self.proximal_spring = self._spring if regularization and self.newton is not None else None
        self._pull: np.ndarray | None = None

    def force_free(self, t: float) -> np.ndarray:
        """The loads at t, plus the proximal pull :math:`\\varepsilon D (u^k - u_n)` during a
        nonlinear level's iterations."""
        f = super().force_free(t)
        return f if self._pull is None else f + self._pull

    def factor(self, dt: float) -> Factorization:
        """K + epsilon diag(K) on the free dofs (K alone without regularisation)."""
        if not self.regularization:
            return super().factor(dt)

        def make() -> Factorization:
            return self.factorize_timed((self.system.K_free + sp.diags(self._spring)).tocsr())

        return self._factors.get(dt, make)

    def step(self, state: StepState, dt: float, t_new: float | None = None) -> StepState:
        """Equilibrium at ``t_new`` (proximal iterations with a regularisation)."""
        if not self.regularization or self.contact is None:
            return super().step(state, dt, t_new)
        if self.newton is not None:
            return self._nonlinear_step(state, dt, t_new)
        s = self.system
        t_new = state.t + dt if t_new is None else t_new
        if state.internal_force is None:
            state = replace(state, internal_force=s.K_free @ state.u)
        rhs = self.force_free(t_new) - state.internal_force
        factor = self.factor(dt)
        shift = np.zeros_like(state.u)
        load_scale = float(np.max(np.abs(self.force_free(t_new)), initial=0.0))
        residual = np.inf
        receding, last_gap = 0, np.inf
        for _ in range(self.max_iter):
            du, contact_force, solution = self.contact.solve(
                dt, factor, rhs + self._spring * shift, state.u, state.contact, self.counters, (state.t, t_new)
            )
            self.proximal_iterations += 1
            unbalanced = float(np.max(np.abs(self._spring * (du - shift)), initial=0.0))
            shift = du
            scale = max(load_scale, float(np.max(np.abs(contact_force), initial=0.0)))
            residual = unbalanced / scale if scale > 0.0 else unbalanced
            if residual <= self.tolerance:
                zero = np.zeros_like(du)
                return StepState(t_new, state.u + du, zero, zero, solution.state, contact_force, solution,
                                 state.internal_force + s.K_free @ du)
            gap = float(np.min(solution.gap, initial=np.inf))
            receding = receding + 1 if not np.any(contact_force) and np.isfinite(gap) and gap > last_gap else 0
            last_gap = gap
            if receding >= OPEN_AND_RECEDING:
                raise UnheldBody(t_new, self.pulling_load(t_new))
        raise StepFailed(residual, self.max_iter)

    def _nonlinear_step(self, state: StepState, dt: float, t_new: float | None) -> StepState:
        r"""The proximal iterations of a level of bodies that turn or stretch: each is
        a Newton step (:mod:`fem2d.dynamics.newton`) of

        .. math::

            (K + \varepsilon D)\, \Delta u^{k+1} + g(u_n + \Delta u^{k+1}) - g(u_n)
            = f_{n+1} - K u_n - g(u_n) + \varepsilon D\, \Delta u^k + f_c^{k+1},

        with :math:`\varepsilon D` in its tangents too, so that the out-of-balance force of the
        true equations at :math:`u^{k+1}` is again :math:`-\varepsilon D (\Delta u^{k+1} - \Delta u^k)`;
        the iterations stop on it as in the linear case."""
        t_new = state.t + dt if t_new is None else t_new
        shift = np.zeros_like(state.u)
        residual = np.inf
        receding, last_gap = 0, np.inf
        try:
            for _ in range(self.max_iter):
                self._pull = self._spring * shift
                new = NewmarkStepper.step(self, state, dt, t_new)
                self.proximal_iterations += 1
                du = new.u - state.u
                unbalanced = float(np.max(np.abs(self._spring * (du - shift)), initial=0.0))
                shift = du
                self._pull = None
                contact_force = new.contact_force if new.contact_force is not None else np.zeros(0)
                scale = max(float(np.max(np.abs(self.force_free(t_new)), initial=0.0)),
                            float(np.max(np.abs(contact_force), initial=0.0)))
                residual = unbalanced / scale if scale > 0.0 else unbalanced
                if residual <= self.tolerance:
                    return new
                gap = float(np.min(new.solution.gap, initial=np.inf)) if new.solution is not None else np.inf
                receding = receding + 1 if not np.any(contact_force) and np.isfinite(gap) and gap > last_gap else 0
                last_gap = gap
                if receding >= OPEN_AND_RECEDING:
                    raise UnheldBody(t_new, self.pulling_load(t_new))
        finally:
            self._pull = None
        raise StepFailed(residual, self.max_iter)

    def pulling_load(self, t: float) -> int | None:
        """The index of the load that pushes hardest along a free mode, in the
        direction of the loads' sum along it (None without loads along the modes)."""
        s = self.system
        if not self.modes or not s.loads:
            return None
        vectors = s._free_load_vectors()
        along = np.array([[load.function(t) * float(v @ r) for load, v in zip(s.loads, vectors)]
                          for r in self.modes])  # (modes, loads)
        mode = int(np.argmax(np.abs(along.sum(axis=1))))
        total = along[mode].sum()
        if total == 0.0:
            return None
        return int(np.argmax(along[mode] * np.sign(total)))
