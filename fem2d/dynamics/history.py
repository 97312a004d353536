r"""Per-step record of a direct (Newmark) run: reported dof, contact, energies.

Energies, per unit thickness (J):

* kinetic :math:`T = \tfrac12 v^T M v`, elastic :math:`U = \tfrac12 \hat u^T K_b \hat u`
  (bodies; a ``"corotational"`` or ``"finite"`` body's own strain energy :math:`W(\hat u)`
  in place of its share, :mod:`fem2d.model.internal`), springs
  :math:`U_s = \tfrac12 \hat u^T K_s \hat u`, with :math:`\hat u`
  all the dofs' displacements, the prescribed ones included (a support
  displaced by :math:`u_c` strains the cells next to it), :math:`M` the scheme's mass;
  for the central difference (Paoli-Schatzman) the energy it conserves, that of the
  half steps (:meth:`DirectHistory._half_step_energies`);
* work of the loads by the trapezoidal rule,
  :math:`W \mathrel{+}= \tfrac12 (f_n + f_{n+1}) \cdot (u_{n+1} - u_n)` on the
  free dofs, external loads only: the lift :math:`-K_{fc} u_c` of prescribed
  displacements is an internal force, and the work done by the supports that
  prescribe them, :math:`W_c = \int R \cdot du_c`, is the work of the imposed motions
  (:class:`~fem2d.dynamics.measures.MeasureRecorder`, added by the run);
* friction dissipation :math:`D \mathrel{+}= -\sum_i F_{t,i}\, \Delta s_i`
  with the end-of-step friction force (implicit) and the step's slip,
  :math:`\ge 0` by Coulomb's law; damping dissipation
  :math:`D_c \mathrel{+}= \tfrac12 (u_{n+1} - u_n)^T C (v_n + v_{n+1})`; numerical
  dissipation :math:`D_h`, what the time scheme removes by itself
  (:mod:`fem2d.dynamics.dissipation`);
* normal contact work :math:`W_n \mathrel{+}= p_{n+1} \cdot \Delta d - (-D)` (zero
  without penetration change), reported but no term of the balance.

For the Newmark family the residual takes the friction's work as the scheme's energy
identity does (the column ``friction_in_balance``; the friction dissipation otherwise),
by the trapezoidal rule,
:math:`-\sum_i \tfrac12 (F_{t,i,n} + F_{t,i,n+1})\, \Delta s_i`; the end-of-step
:math:`D` above, the friction dissipation reported, differs from it at a step where the
friction force jumps (a landing), and the difference is no energy the scheme created.

The residual of the balance (``energy_residual``, :mod:`fem2d.post.energy`),
:math:`T + U + U_s - E_0 - W - W_c + D + D_c + D_h`, is zero for the exact solution and
for the Newmark family on a linear system without contact; with contact it holds the
contact forces' work between the two ends of each step (plain Newmark's energy created
at impacts), and it is what a run judges.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from fem2d.contact.problem import OPEN, SLIP
from fem2d.dynamics.dissipation import NumericalDissipation
from fem2d.dynamics.schemes import TimeScheme
from fem2d.dynamics.stepper import StepState
from fem2d.model.system import System


@dataclass(frozen=True)
class Snapshots:
    """Full displacements kept every few records of a run (for VTU output).

    ``row`` indexes the history's records, ``time`` is in s, ``u`` holds one
    full dof vector per snapshot, prescribed values included, shape
    (n_snapshots, n_dofs).
    """

    row: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    time: np.ndarray = field(default_factory=lambda: np.zeros(0))
    u: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))

    def __len__(self) -> int:
        return len(self.time)


@dataclass
class DirectHistory:
    """Time series of a direct run, as numpy arrays (see :meth:`arrays`)."""

    system: System
    report_dof: int | None = None
    #: keep the full free-dof displacement every ``snapshot_every`` records (0: never); for VTU output
    snapshot_every: int = 0
    #: the load on the free dofs at t (default ``system.force_free``; a stepper's cached one saves work)
    forces: Callable[[float], np.ndarray] | None = None
    #: the mass of the kinetic energy (default ``system.M_free``; a scheme may redistribute it)
    mass: sp.csr_matrix | None = None
    #: M v of a state with that mass (default the product; a stepper's kept one saves work)
    mass_velocity: Callable[[StepState], np.ndarray] | None = None
    #: nodes whose displacement every record keeps (series ``slave_dx``, ``slave_dy``, shape
    #: (n_times, n_nodes)): the contact zones' slave nodes, when a slave surface belongs to a body
    #: that turns or stretches (its pressure is measured on the current surface, :mod:`fem2d.post.pressure`)
    slave_nodes: np.ndarray | None = None
    #: the scheme that ran: its numerical dissipation (:mod:`fem2d.dynamics.dissipation`) and,
    #: for the central difference, its energy of the half steps (None: neither)
    scheme: TimeScheme | None = None
    #: per slave node, whether it is off its master at the start (None: not known): one that
    #: faces its master there and is off it at the first record has left it (``n_left_master``)
    outside_at_start: np.ndarray | None = None

    def __post_init__(self) -> None:
        s = self.system
        self._motion: list[np.ndarray] = []
        self._tracked = None
        if self.slave_nodes is not None:
            dofs = (2 * np.asarray(self.slave_nodes, dtype=np.int64)[:, None] + np.arange(2)).ravel()
            index = s.free_index[dofs]
            self._tracked = (dofs, index, index >= 0)
        if self.forces is None:
            self.forces = s.force_free
        self._M = s.M_free if self.mass is None else self.mass
        if self.mass_velocity is None:
            self.mass_velocity = lambda state: self._M @ state.v
        # the springs' free-free block on the free dofs they touch (increasing): a product with the
        # whole free-free block, empty but for a few entries, went through every row at every step
        touched = np.unique(np.concatenate(s.K_springs.nonzero()))
        touched = touched[s.free_index[touched] >= 0]
        self._spring_dofs = s.free_index[touched]
        self._K_s_own = sp.csr_matrix(s.K_springs[touched][:, touched])
        self._K_b: sp.csr_matrix | None = None  # K_free - K_s, made only for a state without K u (a copy of K)
        self._prescribed = s.has_prescribed_displacements
        # one tuple of scalars per record (the names of _COLUMNS) and, per record with a contact
        # solution, its per-slave arrays: the contact columns are reduced once, in arrays()
        self._rows: list[tuple] = []
        self._solutions: list[tuple[np.ndarray, ...]] = []
        self._work = 0.0
        self._dissipation = 0.0
        self._normal_work = 0.0
        self._damping = 0.0
        self._numerical = 0.0
        self._energy0: float | None = None
        self._half_steps = bool(getattr(self.scheme, "half_step_energy", False))
        self._dissipation_of = None if self.scheme is None else NumericalDissipation(self.scheme, self._M)
        self._numerical_derived = self._dissipation_of is not None and self._dissipation_of.newmark is not None
        self._friction_trapezoid = 0.0
        self._snapshots: list[tuple[int, np.ndarray]] = []

    def _energies(self, state: StepState, previous: StepState | None = None) -> tuple[float, float, float]:
        # a diverging state overflows here first: its energies are inf/nan, and the
        # run's state watch stops it with one error line instead of numpy's warnings
        with np.errstate(over="ignore", invalid="ignore"):
            if self._half_steps and previous is not None and state.t > previous.t:
                return self._half_step_energies(previous, state)
            return self._energies_of(state)

    def _half_step_energies(self, previous: StepState, state: StepState) -> tuple[float, float, float]:
        r"""The central difference's energy of the step ``previous`` -> ``state`` (theta form:
        :class:`~fem2d.dynamics.impact.PaoliSchatzman`), which it conserves exactly,

        .. math::

            E_{n+1/2} = \tfrac12 w^T M w + \tfrac12 u_n^T K u_{n+1}
            + \tfrac\theta2 \Delta u^T K \Delta u, \qquad w = \frac{u_{n+1} - u_n}{\Delta t}

        (kinetic: the first term; bodies and springs: the others), where
        :math:`\tfrac12 v_n^T M v_n + \tfrac12 u_n^T K u_n` of the whole steps is not
        conserved: at a step on the stability limit its highest mode, of zero energy
        :math:`E_{n+1/2}`, grows linearly and its strain energy :math:`\tfrac12 u_n^T K u_n`
        with the square of the time (bar_wall at Courant number 1: 800 J by 0.8 ms in the free
        flight after the rebound, of a bar of 200 J)."""
        s = self.system
        du = state.u - previous.u
        w = du / (state.t - previous.t)
        kinetic = 0.5 * float(w @ (self._M @ w))
        theta = float(getattr(self.scheme, "theta", 0.0))
        if self._prescribed:
            u0 = s.expand(previous.u, prescribed=False) + s.prescribed_at(previous.t)
            u1 = s.expand(state.u, prescribed=False) + s.prescribed_at(state.t)
            ku1, ks1, d = s.K @ u1, s.K_springs @ u1, u1 - u0
            strain = 0.5 * u0 @ ku1 + 0.5 * theta * d @ (s.K @ d)
            springs = 0.5 * u0 @ ks1 + 0.5 * theta * d @ (s.K_springs @ d)
            return kinetic, float(strain - springs), float(springs)
        k_u1 = state.internal_force if state.internal_force is not None else s.K_free @ state.u
        k_u0 = previous.internal_force if previous.internal_force is not None else s.K_free @ previous.u
        strain = 0.5 * previous.u @ k_u1 + 0.5 * theta * du @ (k_u1 - k_u0)
        springs = 0.0
        if self._K_s_own.nnz:
            a, b = previous.u[self._spring_dofs], state.u[self._spring_dofs]
            springs = 0.5 * a @ (self._K_s_own @ b) + 0.5 * theta * (b - a) @ (self._K_s_own @ (b - a))
        return kinetic, float(strain - springs), float(springs)

    def _energies_of(self, state: StepState) -> tuple[float, float, float]:
        kinetic, elastic, springs = self._linear_energies(state)
        nonlinear = self.system.nonlinear
        if nonlinear is not None:
            # the turning and stretching bodies' own strain energy W(u) in place of their
            # small-strain 1/2 u^T K_nl u (the last Newton iteration evaluated them at this u)
            s = self.system
            u = s.prescribed_at(state.t)
            u[s.free] = state.u
            evaluation = nonlinear.evaluate(u)
            elastic += evaluation.energy - evaluation.linear_energy
        return kinetic, elastic, springs

    def _linear_energies(self, state: StepState) -> tuple[float, float, float]:
        # 0.5 (x . y), not (0.5 x) . y: the same number (halving is exact), one pass over the vectors
        kinetic = 0.5 * (state.v @ self.mass_velocity(state))
        if self._prescribed:  # the strain of the cells next to displaced supports counts too
            s = self.system
            u = s.expand(state.u, prescribed=False) + s.prescribed_at(state.t)
            springs = 0.5 * u @ (s.K_springs @ u)
            return float(kinetic), float(0.5 * u @ (s.K @ u) - springs), float(springs)
        # a model without springs: no product with an empty matrix at every step (0.5 u^T 0 u = 0)
        springs = 0.0
        if self._K_s_own.nnz:
            u_s = state.u[self._spring_dofs]
            springs = 0.5 * (u_s @ (self._K_s_own @ u_s))
        if state.internal_force is not None:
            # the stepper's accumulated K u: 1/2 u^T K_b u of a body that has
            # slid 15 m would carry ~1e-2 J of round-off (the nonlinear bodies' remainder is not K u)
            f_int = state.internal_force if state.remainder is None else state.internal_force - state.remainder
            elastic = 0.5 * (state.u @ f_int) - springs
        else:
            if self._K_b is None:
                self._K_b = self.system.K_free - self.system.restrict(self.system.K_springs)
            elastic = 0.5 * state.u @ (self._K_b @ state.u)
        return float(kinetic), float(elastic), float(springs)

    def _value(self, state: StepState, vector: np.ndarray) -> float:
        if self.report_dof is None:
            return float("nan")
        idx = self.system.free_index[self.report_dof]
        if idx >= 0:
            return float(vector[idx])
        if vector is state.u:
            return float(self.system.prescribed_at(state.t)[self.report_dof])
        return 0.0  # a prescribed dof's velocity is not tracked

    def start(self, state: StepState) -> None:
        """Record the initial state."""
        self._energy0 = sum(self._energies(state))
        self._record(state, iterations=0, dt=0.0)

    def on_step(self, previous: StepState, state: StepState, reported: StepState | None = None) -> None:
        """Accumulate the work terms of the step and record its end state; the reported
        dof's velocity is that of ``reported`` (the state with the rates of the dofs
        without inertia, :class:`~fem2d.dynamics.massless.MasslessRates`) when given."""
        du = state.u - previous.u
        f_prev, f_new = self.forces(previous.t), self.forces(state.t)
        if self._prescribed:  # the lift of the prescribed displacements is no external load
            f_prev = f_prev - self.system.lift_free(previous.t)
            f_new = f_new - self.system.lift_free(state.t)
        self._work += 0.5 * float((f_prev + f_new) @ du)
        sol = state.solution
        if sol is not None:
            friction = -float((sol.tangential_force * sol.slip).sum())
            self._dissipation += friction
            self._normal_work += float(state.contact_force @ du) + friction
            before = previous.solution
            mean = sol.tangential_force if before is None or before.tangential_force.shape != sol.slip.shape else (
                0.5 * (before.tangential_force + sol.tangential_force))
            self._friction_trapezoid -= float((mean * sol.slip).sum())
        if self.system.C_free is not None:  # the damping's work, by the trapezoidal rule as the loads'
            self._damping += 0.5 * float(du @ (self.system.C_free @ (previous.v + state.v)))
        if self._dissipation_of is not None:
            self._numerical += self._dissipation_of.step(previous, state)
        self._record(state, iterations=sol.iterations if sol is not None else 1, dt=state.t - previous.t,
                     reported=reported, previous=previous)

    def _record(self, state: StepState, iterations: int, dt: float, reported: StepState | None = None,
                previous: StepState | None = None) -> None:
        if self.snapshot_every and len(self._rows) % self.snapshot_every == 0:
            self._snapshots.append((len(self._rows), state.u.copy()))
        if self._tracked is not None:
            self._motion.append(self._tracked_displacement(state))
        kinetic, elastic, springs = self._energies(state, previous)
        # the Newmark family's energy identity takes every force's work by the trapezoidal rule
        # (fem2d.dynamics.dissipation): so does the residual, for the friction too; the end-of-step
        # friction (the dissipation reported) differs from it at a step where the friction jumps
        friction = self._friction_trapezoid if self._numerical_derived else self._dissipation
        residual = (kinetic + elastic + springs - (self._energy0 or 0.0) - self._work + friction
                    + self._damping + self._numerical)
        velocity = state.v if reported is None else reported.v
        self._rows.append((state.t, dt, self._value(state, state.u), self._value(state, velocity), kinetic, elastic,
                           springs, self._work, self._dissipation, self._normal_work, self._damping,
                           self._numerical, friction, residual, iterations))
        sol = state.solution
        if sol is not None:
            # the solution's arrays are the step's own (a new solution every step): kept, not copied
            self._solutions.append((len(self._rows) - 1, sol.normal_force, sol.tangential_force, sol.gap, sol.status,
                                    sol.left_master))

    def _tracked_displacement(self, state: StepState) -> np.ndarray:
        """The displacement of the tracked nodes' dofs at the state (prescribed ones included), m."""
        dofs, index, free = self._tracked
        values = state.u[np.where(free, index, 0)] if len(state.u) else np.zeros(len(dofs))
        if not free.all():
            values = np.where(free, values, self.system.prescribed_at(state.t)[dofs])
        return values

    def snapshots(self) -> Snapshots:
        """The displacement snapshots (empty when ``snapshot_every`` is 0)."""
        rows = np.array([r for r, _ in self._snapshots], dtype=np.int64)
        u = []
        for r, v in self._snapshots:  # the prescribed dofs where their supports had moved them then
            full = self.system.prescribed_at(self._rows[r][0])
            full[self.system.free] = v
            u.append(full)
        return Snapshots(
            row=rows,
            time=np.array([self._rows[r][0] for r in rows], dtype=float),
            u=np.vstack(u) if u else np.zeros((0, self.system.n_dofs)),
        )

    def arrays(self) -> dict[str, np.ndarray]:
        """Scalar series (one value per recorded instant) and, under
        ``slave_*`` keys, (n_times, n_slave) arrays of per-node contact values.
        The initial instant has no contact solution: its contact values are zeros.
        With ``slave_nodes``, ``slave_dx`` and ``slave_dy`` are their displacements (m) at
        every record, the initial one included.

        The contact columns are reduced here from the stored per-slave arrays, row by
        row as a step would (the same sums, minima and counts): ``n_active`` and
        ``n_sliding`` count the statuses, ``penetration`` is ``max(0, -min gap)``,
        ``normal_force`` and ``tangential_force`` sum the slave nodes' forces and
        ``n_left_master`` counts the nodes outside their master that faced it at an
        earlier record (:func:`left_master_counts`)."""
        table = np.array(self._rows, dtype=float).reshape(len(self._rows), len(_COLUMNS))
        out = {name: table[:, j].copy() for j, name in enumerate(_COLUMNS)}
        if self._tracked is not None:  # (n_times, 2 n_nodes), x and y interleaved
            motion = np.array(self._motion, dtype=float).reshape(len(self._rows), -1)
            out["slave_dx"], out["slave_dy"] = motion[:, 0::2].copy(), motion[:, 1::2].copy()
        if not self._solutions:
            return out
        rows = np.array([entry[0] for entry in self._solutions])
        normal, tangential, gap, status = (np.array(a) for a in list(zip(*self._solutions))[1:5])
        n = normal.shape[1]
        reduced = {
            "n_active": np.count_nonzero(status != OPEN, axis=1),
            "n_sliding": np.count_nonzero(status == SLIP, axis=1),
            "penetration": np.maximum(0.0, -gap.min(axis=1)) if n else np.zeros(len(rows)),
            "normal_force": normal.sum(axis=1),
            "tangential_force": tangential.sum(axis=1),
            "n_left_master": left_master_counts(
                [*([] if self.outside_at_start is None else [self.outside_at_start]),
                 *(entry[5] for entry in self._solutions)])[0 if self.outside_at_start is None else 1:],
        }
        for name, values in reduced.items():  # records without a solution (the initial state): zeros
            out[name] = np.zeros(len(self._rows))
            out[name][rows] = values
        for name, values in (("normal_force", normal), ("tangential_force", tangential), ("gap", gap),
                             ("status", status)):
            out[f"slave_{name}"] = np.vstack([np.zeros((1, n)), values])
        return out


#: the scalar columns of every record, in the order of :meth:`DirectHistory.arrays`
_COLUMNS = ("time", "dt", "u", "v", "kinetic", "elastic", "springs", "work_loads", "friction_dissipation",
            "normal_contact_work", "damping_dissipation", "numerical_dissipation", "friction_in_balance",
            "energy_residual", "newton_iterations")


def left_master_counts(outside: list[np.ndarray]) -> np.ndarray:
    """Per record (``outside``: one boolean array per record, over the slave nodes), the
    slave nodes outside their master that projected inside it at an earlier record:
    they have left the master surface (contact is no longer enforced there). Nodes
    that never faced the master are not counted; a record without the flags (an
    empty array) counts 0, and one of another length starts the memory afresh.

    >>> left_master_counts([np.array(f) for f in ([True, False], [False, True], [True, True])]).tolist()
    [0, 1, 2]
    """
    sizes = {len(flags) for flags in outside}
    if len(sizes) == 1:  # the common case, vectorised: what faced the master at an earlier record
        flags = np.array(outside, dtype=bool).reshape(len(outside), -1)
        faced = np.logical_or.accumulate(~flags, axis=0)
        earlier = np.vstack([np.zeros((1, flags.shape[1]), dtype=bool), faced[:-1]])
        return np.count_nonzero(flags & earlier, axis=1)
    counts, was_inside = np.zeros(len(outside), dtype=np.int64), None
    for k, flags in enumerate(outside):
        if not len(flags):
            continue
        if was_inside is None or len(was_inside) != len(flags):
            was_inside = np.zeros(len(flags), dtype=bool)
        counts[k] = np.count_nonzero(flags & was_inside)
        was_inside = was_inside | ~flags
    return counts
