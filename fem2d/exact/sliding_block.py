r"""Exact reference of SDNV104: a rigid block on a spring with Coulomb friction.

The model (the analytic model of code_aster SDNV104): a mass :math:`m` (kg) on a
spring :math:`k` (N/m), pushed by a tangential force :math:`F_t\,r(t)` and
pressed by a normal force :math:`F_n\,r(t)` (N), with Coulomb friction
:math:`\mu`. The load factor :math:`r(t)` is piecewise linear (SDNV104: 0 at
t = 0, 1 at 0.07 s, then 1) and constant after its last knot. While the block
slides in the direction :math:`s = \pm 1`,

.. math::

    m \ddot x + k x = (F_t - s \mu F_n)\, r(t),

which on each linear piece of :math:`r` is solved in closed form,
:math:`x = (a + b\tau)/k + A\cos\omega\tau + B\sin\omega\tau`,
:math:`\omega = \sqrt{k/m}`. While it sticks, :math:`x` is constant. Events:

* slip ends when the velocity vanishes (a root of :math:`s\,v(t)`, bracketed
  on a grid of :math:`\omega\tau` steps of :math:`\pi/8` and refined by
  :func:`scipy.optimize.brentq` to ~1e-14 s); the block then sticks if
  :math:`|F_t r - k x| \le \mu F_n r`, else slides back;
* stick ends when :math:`|F_t r(t) - k x| - \mu F_n r(t)` becomes positive
  (linear on each piece of :math:`r`; bracketed on the piece and refined by
  brentq);
* a knot of :math:`r` restarts the closed form with the current state.

After the last knot the loads are constant, so a stick phase lasts forever:
that is the rest position and time. With instantaneous loads (``t_ramp = 0``)
and :math:`F_t > \mu F_n`, the extrema are the textbook
:math:`x_{2p-1} = 2(F - (2p-1) f)/k`, :math:`x_{2p} = 4 p f / k`
(:math:`F = F_t`, :math:`f = \mu F_n`) at multiples of :math:`\pi/\omega`
(:func:`instant_extrema`).

:func:`newmark_block` integrates the same rigid model with Newmark's scheme and
an implicit Coulomb law (the step sticks if the force needed to stick is
within :math:`\mu F_n`, else it slides with :math:`\mp\mu F_n`), to separate
the error of a time scheme from that of contact: code_aster's HHT numbers
for SDNV104 come from its time scheme.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import brentq

#: Root-finding tolerance on times (s).
XTOL = 1e-14


@dataclass(frozen=True)
class SlidingBlock:
    """Parameters of the rigid sliding block (SDNV104 defaults).

    ``mass`` (kg), ``stiffness`` (N/m), ``mu``, ``ft`` and ``fn`` (N, the
    tangential push and the normal force at full load), and the load factor
    as knots ``ramp_t`` (s, increasing, first 0) and ``ramp_r``; constant
    after the last knot.
    """

    mass: float = 7000.0
    stiffness: float = 24e3
    mu: float = 0.3
    ft: float = 2e5
    fn: float = 7e4
    ramp_t: tuple[float, ...] = (0.0, 0.07)
    ramp_r: tuple[float, ...] = (0.0, 1.0)

    @classmethod
    def with_ramp(cls, t_ramp: float, **kwargs) -> SlidingBlock:
        """Loads ramped linearly from 0 to full over ``t_ramp`` s (0: instantaneous)."""
        if t_ramp <= 0.0:
            return cls(ramp_t=(0.0,), ramp_r=(1.0,), **kwargs)
        return cls(ramp_t=(0.0, t_ramp), ramp_r=(0.0, 1.0), **kwargs)

    @property
    def omega(self) -> float:
        """Natural circular frequency :math:`\\sqrt{k/m}` (rad/s)."""
        return float(np.sqrt(self.stiffness / self.mass))

    def ramp(self, t: np.ndarray | float) -> np.ndarray:
        """Load factor r(t) (piecewise linear, constant after the last knot)."""
        return np.interp(t, self.ramp_t, self.ramp_r)


@dataclass(frozen=True)
class Phase:
    r"""One closed-form piece on [t0, t1]: ``mode`` +1/-1 (slip direction) or 0
    (stick); :math:`x = (a + b\tau)/k + A\cos\omega\tau + B\sin\omega\tau`,
    :math:`\tau = t - t_0` (for a stick: a = k x, b = A = B = 0)."""

    t0: float
    t1: float
    mode: int
    a: float
    b: float
    A: float
    B: float


@dataclass
class SlidingBlockSolution:
    """The exact trajectory: phases, velocity zeros that end slips, rest."""

    block: SlidingBlock
    phases: list[Phase]
    extrema_t: list[float] = field(default_factory=list)
    extrema_x: list[float] = field(default_factory=list)
    rest_t: float | None = None
    rest_x: float | None = None

    def _phase_index(self, t: np.ndarray) -> np.ndarray:
        starts = np.array([p.t0 for p in self.phases])
        return np.clip(np.searchsorted(starts, t, side="right") - 1, 0, len(self.phases) - 1)

    def x(self, t: np.ndarray | float) -> np.ndarray:
        """Position (m) at times t (s) within the computed span."""
        return self._eval(t, derivative=False)

    def v(self, t: np.ndarray | float) -> np.ndarray:
        """Velocity (m/s) at times t (s)."""
        return self._eval(t, derivative=True)

    def _eval(self, t: np.ndarray | float, derivative: bool) -> np.ndarray:
        t = np.asarray(t, dtype=float)
        if np.any(t > self.phases[-1].t1 * (1 + 1e-12)):
            raise ValueError(f"times beyond the computed span ({self.phases[-1].t1} s)")
        idx = self._phase_index(t)
        k, w = self.block.stiffness, self.block.omega
        out = np.empty_like(t)
        for i in np.unique(idx):
            sel = idx == i
            out[sel] = _phase_value(self.phases[i], t[sel], k, w, derivative)
        return out

    def extrema(self) -> tuple[np.ndarray, np.ndarray]:
        """Successive extrema of x(t): (times s, values m) of the velocity zeros
        that end each slip phase (the last one is the rest position, if any)."""
        return np.array(self.extrema_t), np.array(self.extrema_x)

    def rest(self) -> tuple[float, float] | None:
        """(t_rest, x_rest) when the block sticks for good, else None."""
        return None if self.rest_t is None else (self.rest_t, self.rest_x)


def _phase_value(ph: Phase, t: np.ndarray, k: float, w: float, derivative: bool) -> np.ndarray:
    tau = t - ph.t0
    if derivative:
        return ph.b / k - ph.A * w * np.sin(w * tau) + ph.B * w * np.cos(w * tau)
    return (ph.a + ph.b * tau) / k + ph.A * np.cos(w * tau) + ph.B * np.sin(w * tau)


def _slip_phase(block: SlidingBlock, t0: float, t1: float, x0: float, v0: float, s: int) -> Phase:
    """Closed form of a slip in direction s from (x0, v0) at t0, loads linear up to t1."""
    k, w = block.stiffness, block.omega
    net = block.ft - s * block.mu * block.fn
    r0 = float(block.ramp(t0))
    slope = 0.0 if not np.isfinite(t1) else (float(block.ramp(t1)) - r0) / (t1 - t0)
    a, b = net * r0, net * slope
    return Phase(t0, t1, s, a, b, x0 - a / k, (v0 - b / k) / w)


def _stick_excess(block: SlidingBlock, t: float, x: float) -> float:
    """|F_t r - k x| - mu F_n r: positive when the block cannot stick."""
    r = float(block.ramp(t))
    return abs(block.ft * r - block.stiffness * x) - block.mu * block.fn * r


def _next_knot(block: SlidingBlock, t: float) -> float:
    later = [tk for tk in block.ramp_t if tk > t + XTOL]
    return later[0] if later else np.inf


def _root(f, lo: float, hi: float) -> float:
    return float(brentq(f, lo, hi, xtol=XTOL, rtol=4 * np.finfo(float).eps))


def _stick_end(block: SlidingBlock, t: float, x: float, knot: float) -> float | None:
    """First time in (t, knot] where sticking at x stops being admissible, or None.

    The excess is convex and piecewise linear on the load piece (a kink where
    F_t r - k x changes sign): test the kink and the piece end, then refine.
    """
    k = block.stiffness
    r0, r1 = float(block.ramp(t)), float(block.ramp(knot))
    ends = [knot]
    if (block.ft * r0 - k * x) * (block.ft * r1 - k * x) < 0.0:
        ends.insert(0, t + (k * x - block.ft * r0) / (block.ft * (r1 - r0) / (knot - t)))
    lo = t
    for end in ends:
        if _stick_excess(block, end, x) > 0.0:
            return _root(lambda s: _stick_excess(block, s, x), lo, end)
        lo = end
    return None


def _slip_end(ph: Phase, block: SlidingBlock, t: float, end: float) -> float | None:
    """First zero of the velocity (s v going from > 0 to <= 0) in (t, end], or None.

    Bracketed on a grid of steps pi/(8 omega) (the velocity is a sinusoid plus
    a constant on the piece), skipping the start where a slip from rest has
    zero velocity, then refined by brentq.
    """
    k, w = block.stiffness, block.omega
    n = max(int(np.ceil((end - t) * w / (np.pi / 8.0))), 1)
    grid = np.linspace(t, end, n + 1)
    sv = ph.mode * _phase_value(ph, grid, k, w, True)
    positive = np.flatnonzero(sv > 0.0)
    if not len(positive):
        return None
    after = np.flatnonzero(sv[positive[0] :] <= 0.0)
    if not len(after):
        return None
    j = positive[0] + after[0]
    return _root(lambda s: ph.mode * float(_phase_value(ph, np.array(s), k, w, True)), grid[j - 1], grid[j])


def _starts_sliding(block: SlidingBlock, t: float, x: float) -> bool:
    """Whether a block at rest at x cannot stick just after t."""
    tol = 1e-12 * block.ft
    excess = _stick_excess(block, t, x)
    return excess > tol or (excess >= -tol and _stick_excess(block, t + 1e-9, x) > 0.0)


def _add_stick(sol: SlidingBlockSolution, t0: float, t1: float, kx: float) -> None:
    """Append a stick phase, merged with a preceding stick (a knot inside a stick)."""
    last = sol.phases[-1] if sol.phases else None
    if last is not None and last.mode == 0 and last.t1 == t0:
        sol.phases[-1] = Phase(last.t0, t1, 0, kx, 0.0, 0.0, 0.0)
    else:
        sol.phases.append(Phase(t0, t1, 0, kx, 0.0, 0.0, 0.0))


def solve(block: SlidingBlock, t_end: float) -> SlidingBlockSolution:
    """Event-driven exact solution from rest at x = 0, t = 0, up to ``t_end`` (s);
    once the block rests for good the last (stick) phase extends to t_end."""
    if t_end <= 0.0:
        raise ValueError("t_end must be positive")
    k, w = block.stiffness, block.omega
    sol = SlidingBlockSolution(block, [])
    t, x, v, mode = 0.0, 0.0, 0.0, 0
    while t < t_end:
        knot = _next_knot(block, t)
        if mode == 0:
            if _starts_sliding(block, t, x):
                mode = 1 if block.ft * float(block.ramp(t + 1e-9)) - k * x >= 0.0 else -1
                continue
            if not np.isfinite(knot):  # constant loads: stuck for good, since this stick began
                _add_stick(sol, t, t_end, k * x)
                sol.rest_t, sol.rest_x = sol.phases[-1].t0, x
                break
            t_slip = _stick_end(block, t, x, knot)
            t_stop = min(knot if t_slip is None else t_slip, t_end)
            _add_stick(sol, t, t_stop, k * x)
            t = t_stop
            continue
        ph = _slip_phase(block, t, knot, x, v, mode)
        # after the last knot a slip lasts at most half a period: look one period ahead
        end = min(knot, t_end) if np.isfinite(knot) else min(t + 2.0 * np.pi / w, t_end)
        t_zero = _slip_end(ph, block, t, end)
        t_stop = end if t_zero is None else t_zero
        x = float(_phase_value(ph, np.array(t_stop), k, w, False))
        v = 0.0 if t_zero is not None else float(_phase_value(ph, np.array(t_stop), k, w, True))
        sol.phases.append(Phase(ph.t0, t_stop, ph.mode, ph.a, ph.b, ph.A, ph.B))
        t = t_stop
        if t_zero is None:
            continue
        sol.extrema_t.append(t)
        sol.extrema_x.append(x)
        force = block.ft * float(block.ramp(t)) - k * x
        if abs(force) <= block.mu * block.fn * float(block.ramp(t)):
            mode = 0
        else:
            mode = 1 if force > 0.0 else -1
    return sol


def instant_extrema(block: SlidingBlock, count: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Closed-form extrema with instantaneous loads (before the block stops):
    times :math:`j\pi/\omega` and values :math:`x_{2p-1} = 2(F - (2p-1)f)/k`,
    :math:`x_{2p} = 4pf/k`, j = 1..count."""
    j = np.arange(1, count + 1)
    f, big_f, k = block.mu * block.fn, block.ft, block.stiffness
    odd = 2.0 * (big_f - j * f) / k
    even = 2.0 * j * f / k
    return j * np.pi / block.omega, np.where(j % 2 == 1, odd, even)


def newmark_block(
    block: SlidingBlock, dt: float, t_end: float, beta: float = 0.25, gamma: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    r"""The rigid block integrated by Newmark with an implicit Coulomb law.

    Step :math:`n \to n+1` with predictor
    :math:`\tilde x = x_n + \Delta t\, v_n + \Delta t^2 (1/2 - \beta) a_n`:
    the friction force needed to stick (:math:`x_{n+1} = x_n`) is
    :math:`F_s = m a + k x_n - F_t r_{n+1}` with
    :math:`a = (x_n - \tilde x)/(\beta\Delta t^2)`. If
    :math:`|F_s| \le \mu F_n r_{n+1}` the step sticks, else the block slides
    with friction :math:`\mathrm{sign}(F_s)\,\mu F_n r_{n+1}` (opposing the slip,
    which then has the sign of :math:`-F_s`). The same law as the discrete
    Lagrange contact (zero slip increment, or a slip force opposing the slip).

    Returns (t, x) at the step times :math:`n\,\Delta t` (s, m).
    """
    n_steps = int(round(t_end / dt))
    m, k = block.mass, block.stiffness
    x = v = a = 0.0
    ts = np.arange(n_steps + 1) * dt
    xs = np.zeros(n_steps + 1)
    c = m / (beta * dt * dt)
    for i in range(1, n_steps + 1):
        r = float(block.ramp(ts[i]))
        x_pred = x + dt * v + dt * dt * (0.5 - beta) * a
        v_pred = v + dt * (1.0 - gamma) * a
        f_stick = c * (x - x_pred) + k * x - block.ft * r
        limit = block.mu * block.fn * r
        if abs(f_stick) <= limit:
            x_new = x
        else:
            friction = np.sign(f_stick) * limit
            x_new = (block.ft * r + friction + c * x_pred) / (c + k)
        a = (x_new - x_pred) / (beta * dt * dt)
        v = v_pred + gamma * dt * a
        x = x_new
        xs[i] = x
    return ts, xs
