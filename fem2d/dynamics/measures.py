r"""Per-body and per-zone time series of a direct run, and the quantities they give.

For a body (a 2D group) :math:`B` with node set :math:`N_B` and the free-dof
velocity :math:`v` expanded to all dofs,

.. math::

    P_B = \sum_{i \in N_B} (M v)_i, \qquad T_B = \tfrac12 \sum_{i\in N_B} v_i (M v)_i,
    \qquad \bar v_B = P_B / m_B, \quad m_B = \sum_{i\in N_B} (M \mathbf 1)_i

(x and y components of :math:`P` and :math:`\bar v` separately; bodies that
share no node with another body, so that :math:`M v` restricted to
:math:`N_B` is the body's own). Per contact zone :math:`z`: the normal and
tangential resultants :math:`F_n = \sum_i \lambda_{n,i}`, :math:`F_t = \sum_i
\lambda_{t,i}` (N, per unit thickness) and the smallest slave gap (m); their
impulses by the trapezoidal rule, and code_aster's impact statistics on
:math:`F_n` with the approach speed :math:`\dot g_{min}` (difference of the
smallest gap over the step before the sample: negative while closing) as the
impact velocity.

A Newmark step changes the momentum by the trapezoidal impulse of the forces at
its two ends, :math:`P_{n+1} - P_n = \tfrac{\Delta t}2 \mathbf 1^T (M a_n + M
a_{n+1})` with :math:`M a = f + f_c - K u - C v` (the scheme's own mass, modified
or not; :math:`\mathbf 1^T K = 0` for a free body). With the average acceleration
the momentum of a body in contact with rigid obstacles is then exactly the
impulse of its loads plus its zones' impulses (rigid planes: :math:`F_n` along
the plane's normal, :math:`F_t` along its tangent, the normal turned by -90
degrees: a floor of normal (0, 1) pushes up and rubs along +x, a wall of normal
(-1, 0) pushes along -x and rubs along +y). Two exceptions, where the
quantities differ by definition:

* generalized-alpha and HHT weight the forces of the two ends otherwise
  (:math:`\alpha_f, \alpha_m, \gamma`): the trapezoidal impulses differ from the
  change of momentum by :math:`O(\Delta t^2)`;
* across a stick/slip event (:mod:`fem2d.dynamics.stickslip`) the step after
  the event starts from the friction just after it, :math:`f_c^- + \Delta f`,
  while the samples at the event hold :math:`f_c^-`: the momentum also holds
  :math:`\tfrac h2 \mathbf 1^T \Delta f` (h that step) that the impulses do
  not (a block sliding into a wall whose floor slip reverses at 0.0873 s: a
  friction jump of 4320 N over half the 4.7 ms step after it, 10.1 N s along x,
  and -1.3 N s along y).

For any group :math:`G` (nodes :math:`N_G`, of any dimension), the mean
displacement and velocity of its nodes in each direction,

.. math::

    \bar u_{G,x} = \frac{1}{|N_G|} \sum_{i \in N_G} \hat u_{i,x}, \qquad
    \bar v_{G,x} = \frac{1}{|N_G|} \sum_{i \in N_G} \hat v_{i,x},

with :math:`\hat u, \hat v` all the dofs' values, prescribed ones included
(a one-node group is that node). Its quantities are read from the samples as
the reported dof's are (:mod:`fem2d.post.extrema`: Hermite interpolation of
(u, v)): values at the reported instants, successive extrema, rest.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from fem2d.dynamics.stepper import StepState
from fem2d.model.system import System


def zone_prefix(name: str) -> str:
    """A zone's name as a quantity prefix: ``"LESC/LMAI" -> "LESC_LMAI_"``.

    >>> zone_prefix("right wall")
    'right_wall_'
    """
    return re.sub(r"[^A-Za-z0-9_]+", "_", name).strip("_") + "_"


@dataclass
class MeasureRecorder:
    """Records body momenta, kinetic energies and zone resultants at every step.

    ``mass`` is the free-dof mass matrix the scheme integrates with (default
    the system's); prescribed dofs do not move and carry no momentum.
    """

    system: System
    bodies: dict[str, np.ndarray] = field(default_factory=dict)  # name -> node ids
    mass: object = None
    #: support group -> its prescribed dofs, whose reaction resultant is recorded
    reactions: dict[str, np.ndarray] = field(default_factory=dict)
    #: mesh nodes of the contact boundary, in the order of the solution's ``forces``
    boundary_nodes: np.ndarray | None = None
    #: group name -> its nodes, whose mean displacement and velocity are recorded
    groups: dict[str, np.ndarray] = field(default_factory=dict)
    #: M v of a state with ``mass`` (default the product; a stepper's kept one saves work)
    mass_velocity: Callable[[StepState], np.ndarray] | None = None
    _rows: list[dict] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        s = self.system
        self._M = s.M_free if self.mass is None else self.mass
        if self.mass_velocity is None:
            self.mass_velocity = lambda state: self._M @ state.v
        index = s.free_index
        self._dofs = {}
        for name, nodes in self.bodies.items():
            x, y = index[2 * nodes], index[2 * nodes + 1]
            self._dofs[name] = (x[x >= 0], y[y >= 0])
        self._mass = {}
        if self._dofs:  # (no products with the mass for a run that reports no body)
            n = len(s.free)
            ones_x, ones_y = np.zeros(n), np.zeros(n)
            ones_x[index[0::2][index[0::2] >= 0]] = 1.0
            ones_y[index[1::2][index[1::2] >= 0]] = 1.0
            mx, my = self._M @ ones_x, self._M @ ones_y
            # the mass of a body that also has prescribed dofs counts its free part only
            self._mass = {name: (float(mx[x].sum()), float(my[y].sum())) for name, (x, y) in self._dofs.items()}

    def start(self, state: StepState) -> None:
        self._record(state)

    def on_step(self, previous: StepState, state: StepState) -> None:
        self._record(state)

    def _record(self, state: StepState) -> None:
        v = state.v
        mv = self.mass_velocity(state) if self.bodies else None
        row: dict[str, float] = {"time": state.t}
        for name, (x, y) in self._dofs.items():
            px, py = float(mv[x].sum()), float(mv[y].sum())
            mx, my = self._mass[name]
            row[f"{name}:momentum_x"], row[f"{name}:momentum_y"] = px, py
            row[f"{name}:velocity_x"] = px / mx if mx > 0 else 0.0
            row[f"{name}:velocity_y"] = py / my if my > 0 else 0.0
            row[f"{name}:kinetic"] = 0.5 * float(v[x] @ mv[x] + v[y] @ mv[y])
        if self.groups:
            self._record_groups(state, row)
        sol = state.solution
        if self.reactions or self.system.motions:
            self._record_reactions(state, row)
        parts = (sol.parts or (sol,)) if sol is not None else ()
        for zone, part in zip(self.system.zones, parts):
            row[f"{zone.name}:normal_force"] = float(part.normal_force.sum())
            row[f"{zone.name}:tangential_force"] = float(part.tangential_force.sum())
            row[f"{zone.name}:min_gap"] = float(part.gap.min()) if len(part.gap) else np.inf
        self._rows.append(row)

    def _record_groups(self, state: StepState, row: dict) -> None:
        """Mean displacement and velocity of each group's nodes (prescribed values included)."""
        s = self.system
        u = s.expand(state.u, prescribed=False) + s.prescribed_at(state.t)
        v = s.expand(state.v, prescribed=False)
        if s.motions:
            v += s.prescribed_velocity_at(state.t)
        for name, nodes in self.groups.items():
            row[f"{name}:dx"], row[f"{name}:dy"] = float(u[2 * nodes].mean()), float(u[2 * nodes + 1].mean())
            row[f"{name}:vx"], row[f"{name}:vy"] = float(v[2 * nodes].mean()), float(v[2 * nodes + 1].mean())

    def _record_reactions(self, state: StepState, row: dict) -> None:
        r"""Support reactions :math:`R = (M a + C v + K u + g(u) - f - f_c)` on the
        prescribed dofs (the force the support exerts on the model, N), with
        :math:`g` the remainder of the internal force of bodies that turn or
        stretch (:mod:`fem2d.model.internal`; 0 for small bodies) and
        :math:`f_c` the contact forces on prescribed master nodes; and the work
        of the prescribed motions (moving supports and obstacles),
        :math:`W_c \mathrel{+}= \tfrac12 (R_n + R_{n+1}) \cdot (u_{c,n+1} - u_{c,n})`
        (J per unit thickness), which enters the energy balance like the work
        of the loads."""
        s = self.system
        u = s.expand(state.u, prescribed=False) + s.prescribed_at(state.t)
        balance = s.K @ u - s.force(state.t) + s.M @ s.expand(state.a, prescribed=False)
        if s.nonlinear is not None:
            balance += s.nonlinear.evaluate(u).remainder
        if s.C is not None:
            balance += s.C @ s.expand(state.v, prescribed=False)
        sol = state.solution
        if sol is not None and self.boundary_nodes is not None:
            contact = np.zeros(s.n_dofs)
            contact[2 * self.boundary_nodes] = sol.forces[:, 0]
            contact[2 * self.boundary_nodes + 1] = sol.forces[:, 1]
            balance -= contact
        if s.motions:
            dofs = np.unique(np.concatenate([m.dofs for m in s.motions]))
            r_new, u_new = balance[dofs], u[dofs]
            previous = getattr(self, "_motion_state", None)
            work = 0.0 if previous is None else previous[2] + 0.5 * float((previous[0] + r_new) @ (u_new - previous[1]))
            self._motion_state = (r_new, u_new, work)
            row["work_motions"] = work
        for name, dofs in self.reactions.items():
            row[f"{name}:reaction_x"] = float(balance[dofs[dofs % 2 == 0]].sum())
            row[f"{name}:reaction_y"] = float(balance[dofs[dofs % 2 == 1]].sum())

    def arrays(self) -> dict[str, np.ndarray]:
        """One array per recorded series (the first instant has no contact: 0 N, inf gap)."""
        keys = {k for row in self._rows for k in row}
        fill = {k: (np.inf if k.endswith(":min_gap") else 0.0) for k in keys}
        return {k: np.array([row.get(k, fill[k]) for row in self._rows], dtype=float) for k in sorted(keys)}


def measured_quantities(
    series: dict[str, np.ndarray],
    bodies: list[str],
    zones: list[str],
    at_times: list[float],
    reactions: list[str] = (),
    threshold: float = 0.0,
    quiet: float = 0.0,
    window: tuple[float, float] | None = None,
    groups: list[str] = (),
    n_extrema: int = 0,
) -> dict[str, float]:
    """Quantities of the recorded series (see the module docstring).

    Bodies: ``B_momentum_x``, ``B_momentum_y``, ``B_velocity_x``,
    ``B_velocity_y``, ``B_kinetic``, ``B_rotation`` (rad, the body's rigid
    rotation, :mod:`fem2d.dynamics.rotation`) at the end, and ``..._at_T`` at each
    reported instant; ``B_rotation_min``, ``B_rotation_max`` over the samples.
    Zones (prefixed by the zone name when there are several; one zone's impact
    statistics are the run's own):
    ``normal_impulse``, ``tangential_impulse`` (N s), ``f_n_max`` (N) and
    the impact statistics. Groups: ``G_dx_at_T``, ``G_vx_at_T``, the first
    ``n_extrema`` extrema ``G_dx_ext_k`` at ``G_dx_t_ext_k``, ``G_dx_rest``
    and ``G_dx_t_rest`` when the motion ends at rest, ``G_vx_min`` and
    ``G_vx_max`` over the samples (likewise dy, vy).
    """
    from fem2d.post.extrema import time_label
    from fem2d.post.impacts import impact_statistics

    t = series["time"]
    q: dict[str, float] = {}
    for name in bodies:
        for what in ("momentum_x", "momentum_y", "velocity_x", "velocity_y", "kinetic", "rotation"):
            values = series[f"{name}:{what}"]
            q[f"{name}_{what}"] = float(values[-1])
            for instant in at_times:
                q[f"{name}_{what}_at_{time_label(instant)}"] = float(np.interp(instant, t, values))
        rotation = series[f"{name}:rotation"]
        q[f"{name}_rotation_min"], q[f"{name}_rotation_max"] = float(rotation.min()), float(rotation.max())
    for name in reactions:
        for what in ("reaction_x", "reaction_y"):
            values = series[f"{name}:{what}"]
            q[f"{name}_{what}"] = float(values[-1])
            for instant in at_times:
                q[f"{name}_{what}_at_{time_label(instant)}"] = float(np.interp(instant, t, values))
    for name in groups:
        q.update(group_quantities(name, t, series, at_times, n_extrema))
    for name in zones:
        prefix = zone_prefix(name) if len(zones) > 1 else ""
        fn, ft = series[f"{name}:normal_force"], series[f"{name}:tangential_force"]
        q[f"{prefix}normal_impulse"] = float(np.trapezoid(fn, t))
        q[f"{prefix}tangential_impulse"] = float(np.trapezoid(ft, t))
        q[f"{prefix}f_n_max"] = float(fn.max())
        if prefix:
            gap = series[f"{name}:min_gap"]
            rate = np.zeros_like(gap)
            finite = np.isfinite(gap[1:]) & np.isfinite(gap[:-1])
            rate[1:][finite] = np.diff(gap)[finite] / np.diff(t)[finite]
            # the contact step closes only the gap left at its start: the approach
            # speed is the previous step's
            closing = np.concatenate([[0.0], rate[:-1]])
            stats = impact_statistics(t, fn, closing, threshold, quiet, window)
            q.update(stats.quantities(prefix))
    return q


def group_quantities(
    name: str, t: np.ndarray, series: dict[str, np.ndarray], at_times: list[float], n_extrema: int
) -> dict[str, float]:
    """The quantities of one group's mean motion (see :func:`measured_quantities`).

    >>> t = np.linspace(0.0, 1.0, 101)
    >>> series = {"G:dx": np.sin(np.pi * t), "G:vx": np.pi * np.cos(np.pi * t),
    ...           "G:dy": 0 * t, "G:vy": 0 * t}
    >>> q = group_quantities("G", t, series, [0.25], 1)
    >>> round(q["G_dx_at_0.25"], 9), round(q["G_dx_ext_1"], 9), round(q["G_dx_t_ext_1"], 9)
    (0.707106781, 1.0, 0.5)
    >>> round(q["G_vx_min"], 9), q["G_vy_max"]
    (-3.141592654, 0.0)
    """
    from fem2d.post.extrema import extrema, rest, time_label, value_at

    q: dict[str, float] = {}
    for d, vel in (("dx", "vx"), ("dy", "vy")):
        u, v = series[f"{name}:{d}"], series[f"{name}:{vel}"]
        for instant in at_times:
            q[f"{name}_{d}_at_{time_label(instant)}"] = value_at(t, u, v, instant)
            q[f"{name}_{vel}_at_{time_label(instant)}"] = float(np.interp(instant, t, v))
        for k, (t_ext, u_ext, _) in enumerate(extrema(t, u, v)[:n_extrema], start=1):
            q[f"{name}_{d}_ext_{k}"], q[f"{name}_{d}_t_ext_{k}"] = u_ext, t_ext
        at_rest = rest(t, u, v)
        if at_rest is not None:
            q[f"{name}_{d}_t_rest"], q[f"{name}_{d}_rest"] = at_rest
        q[f"{name}_{vel}_min"], q[f"{name}_{vel}_max"] = float(v.min()), float(v.max())
    return q
