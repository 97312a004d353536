r"""``exact``: event-driven integration of one mode with obstacles (rigid Coulomb stick).

Between events every phase is a linear ODE with constant coefficients and
sinusoidal forcing, solved in closed form. The augmented state

.. math:: y = (q,\ \dot q,\ \textstyle\int q\,dt,\ 1,\ \sin\omega_1 t,\ \cos\omega_1 t,\ \dots)

obeys :math:`\dot y = A y` in each phase, so :math:`y(t) = e^{A (t - t_s)} y(t_s)`
(``scipy.linalg.expm``; the sine/cosine components are reset exactly at each
phase start). With :math:`m, c, k` the generalised mass, damping, stiffness and
:math:`f(t) = f_0 + \sum_j (a_j \sin\omega_j t + b_j \cos\omega_j t)`:

* free / contact / slip: :math:`m\ddot q = f - kq - c\dot q + \sum_{active}
  (d_q - \sigma \mu_d \varphi_t)\,F_n`, with the gap :math:`d = d_0 + d_q q`, the
  normal force :math:`F_n = -K_N d` (:math:`C_N = 0` only), the tangential mode
  component :math:`\varphi_t` and the slip direction :math:`\sigma = \pm 1`;
* stick (ideal Coulomb, :math:`K_T \to \infty`): :math:`\dot q = 0`; it holds
  while the tangential force it needs,
  :math:`F_t = -(f - kq + \sum d_q F_n)/\varphi_t`, satisfies
  :math:`|F_t| \le \mu_s F_n`; then the node slides with
  :math:`\sigma = -\operatorname{sign} F_t`.

Events (gap closing or opening, sliding velocity back to zero, stick limit
reached) are linear functionals :math:`g = c^T y`; each phase is scanned on a
grid of 1/64 of its shortest period, and a sign change of :math:`g`, or of
:math:`\dot g = c^T A y` followed by a sign change of :math:`g` at the
extremum, is refined with ``scipy.optimize.brentq`` (``xtol=1e-14``).

Exact integrals: the impulse :math:`\int F_n dt` uses :math:`\int q\,dt`; the
wear energy of a slip phase is :math:`\int F_n |v_t| dt = |\varphi_t|\,
|\int_{q_a}^{q_b} F_n(q)\,dq|` (for a constant :math:`F_n`: :math:`F_n|\Delta x_t|`),
no quadrature.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg
from scipy.optimize import brentq

from fem2d.errors import UnsupportedError
from fem2d.modal.basis import ModalProblem
from fem2d.model.timefunctions import harmonic
from fem2d.post.impacts import Impact, ImpactStatistics

__all__ = ["ExactSolution", "Phase", "event_driven"]

IQ, IV, II, I1 = 0, 1, 2, 3  # indices of q, v, int q, 1 in the augmented state
_XTOL = 1e-14


@dataclass(frozen=True)
class _Obs:
    """Constants of one obstacle for the single mode (see the module docstring)."""

    plan_z: bool
    gap: float
    z0: float
    phin: float
    phit: float
    xt0: float
    kn: float
    mu_s: float
    mu_d: float

    def d_coefs(self, side: int) -> tuple[float, float]:
        """Gap :math:`d = d_0 + d_q q` on a side (+1/-1 for plan_z; +1 for a plane)."""
        if self.plan_z:
            return self.gap - side * self.z0, -side * self.phin
        return self.gap + self.z0, self.phin

    @property
    def sides(self) -> tuple[int, ...]:
        return (1, -1) if self.plan_z else (1,)

    @property
    def frictional(self) -> bool:
        return (self.mu_s > 0.0 or self.mu_d > 0.0) and self.phit != 0.0


@dataclass
class Phase:
    """One closed-form phase: :math:`y(t) = e^{A(t - t_s)} y_s` on :math:`[t_s, t_e]`.

    ``active`` maps an obstacle index to its contact side, ``slip`` a frictional
    active obstacle to its slip direction, ``stick`` is the stuck obstacle or None.
    """

    t_start: float
    t_end: float
    A: np.ndarray
    y0: np.ndarray
    active: dict[int, int]
    slip: dict[int, int]
    stick: int | None

    def state(self, t: float) -> np.ndarray:
        """Augmented state at ``t``."""
        return scipy.linalg.expm(self.A * (t - self.t_start)) @ self.y0


@dataclass
class ExactSolution:
    """Phases and events of an exact run, with exact post-processing."""

    phases: list[Phase]
    events: list[tuple[float, str, int]]
    obstacles: list[_Obs]
    names: tuple[str, ...]
    t0: float
    t_end: float
    _omegas: np.ndarray = field(repr=False)

    def _row(self, kind: str, i: int, side: int = 1) -> np.ndarray:
        ob = self.obstacles[i]
        c = np.zeros(4 + 2 * len(self._omegas))
        d0, dq = ob.d_coefs(side)
        if kind == "fn":
            c[I1], c[IQ] = -ob.kn * d0, -ob.kn * dq
        elif kind == "vn":
            c[IV] = dq
        elif kind == "vt":
            c[IV] = ob.phit
        return c

    def sample(self, times: np.ndarray) -> dict[str, np.ndarray]:
        """Samples at ``times`` (s): ``q``, ``v`` and per obstacle ``fn`` (N), ``vn``, ``vt`` (m/s),
        ``stuck``, ``contact`` (arrays of shape (n,) or (n, n_obstacles))."""
        times = np.asarray(times, dtype=float)
        n, no = times.size, len(self.obstacles)
        out = {"t": times, "q": np.zeros(n), "v": np.zeros(n), "fn": np.zeros((n, no)), "vn": np.zeros((n, no)),
               "vt": np.zeros((n, no)), "stuck": np.zeros((n, no), bool), "contact": np.zeros((n, no), bool)}
        starts = np.array([p.t_start for p in self.phases])
        idx = np.clip(np.searchsorted(starts, times, side="right") - 1, 0, len(self.phases) - 1)
        for k in np.unique(idx):
            ph = self.phases[k]
            sel = np.nonzero(idx == k)[0]
            ts = times[sel]
            step = np.diff(ts)
            if ts.size > 2 and np.allclose(step, step[0], rtol=1e-9, atol=0.0):
                Y = _powers_applied(scipy.linalg.expm(ph.A * step[0]), ph.state(ts[0]), ts.size)
            else:
                Y = np.array([ph.state(t) for t in ts])
            out["q"][sel], out["v"][sel] = Y[:, IQ], Y[:, IV]
            for i, side in ph.active.items():
                out["fn"][sel, i] = Y @ self._row("fn", i, side)
                out["vn"][sel, i] = Y @ self._row("vn", i, side)
                out["contact"][sel, i] = True
                if self.obstacles[i].frictional:
                    out["vt"][sel, i] = Y @ self._row("vt", i)
                    out["stuck"][sel, i] = ph.stick == i
        return out

    def wear_power(self, obstacle: int = 0, window: tuple[float, float] | None = None) -> float:
        r"""Exact mean of :math:`|F_n v_t|` over the sliding phases in the window (W)."""
        ta, tb = (self.t0, self.t_end) if window is None else window
        ob = self.obstacles[obstacle]
        energy = 0.0
        for ph in self.phases:
            if obstacle not in ph.slip:
                continue
            a, b = max(ph.t_start, ta), min(ph.t_end, tb)
            if b <= a:
                continue
            qa, qb = ph.state(a)[IQ], ph.state(b)[IQ]
            d0, dq = ob.d_coefs(ph.active[obstacle])
            energy += abs(ob.phit) * abs(-ob.kn * (d0 * (qb - qa) + 0.5 * dq * (qb * qb - qa * qa)))
        return energy / (tb - ta)

    def impacts(self, obstacle: int = 0, window: tuple[float, float] | None = None, rest: float = 0.0):
        """Exact impact statistics (force threshold 0): contact intervals, peaks at :math:`v_n = 0`.

        An impact under way at the window start starts there; one not finished
        at the window end is not counted; contacts separated by at most ``rest``
        seconds form one impact (their count is ``n_elementary``).
        """
        ta, tb = (self.t0, self.t_end) if window is None else window
        intervals: list[list] = []  # [t_start, t_end, fmax, t_peak, impulse, v_impact, n, finished]
        eps = 1e-12 * max(1.0, abs(tb))
        for ph in self.phases:
            if obstacle not in ph.active:
                continue
            a, b = max(ph.t_start, ta), min(ph.t_end, tb)
            if b <= a:
                continue
            side = ph.active[obstacle]
            ob = self.obstacles[obstacle]
            d0, dq = ob.d_coefs(side)
            ya, yb = ph.state(a), ph.state(b)
            impulse = float(-ob.kn * (d0 * (b - a) + dq * (yb[II] - ya[II])))
            cands = [a, b, *_roots(ph, self._row("vn", obstacle, side), a, b)]
            fvals = [float(ph.state(t) @ self._row("fn", obstacle, side)) for t in cands]
            j = int(np.argmax(fvals))
            finished = ph.t_end < min(tb, self.t_end) - eps or (ph.t_end <= tb + eps and ph.t_end < self.t_end - eps)
            if intervals and abs(intervals[-1][1] - a) <= eps:
                cur = intervals[-1]  # the same contact, continued in a new phase
                cur[1], cur[4], cur[7] = b, cur[4] + impulse, finished
                if fvals[j] > cur[2]:
                    cur[2], cur[3] = fvals[j], cands[j]
            else:
                vn = float(ya @ self._row("vn", obstacle, side))
                intervals.append([a, b, fvals[j], cands[j], impulse, vn, 1, finished])
        intervals = [iv for iv in intervals if iv[7]]
        merged: list[list] = []
        for iv in intervals:
            if merged and iv[0] - merged[-1][1] <= rest:
                m = merged[-1]
                m[1], m[4], m[6] = iv[1], m[4] + iv[4], m[6] + 1
                if iv[2] > m[2]:
                    m[2], m[3] = iv[2], iv[3]
            else:
                merged.append(list(iv))
        impacts = tuple(Impact(m[0], m[1], m[3], m[2], m[4], m[5], m[6]) for m in merged)
        fm = np.array([imp.f_max for imp in impacts])
        mean = float(fm.mean()) if fm.size else 0.0
        std = float(np.sqrt(max(float(np.mean(fm**2)) - mean**2, 0.0))) if fm.size else 0.0
        return ImpactStatistics(impacts, float(fm.max()) if fm.size else 0.0, mean, std)


def _powers_applied(E: np.ndarray, y0: np.ndarray, n: int) -> np.ndarray:
    r"""Rows :math:`E^j y_0`, :math:`j = 0 \dots n-1`, by doubling: the first :math:`2^k` rows times
    :math:`(E^{2^k})^T` give the next ones (:math:`\log_2 n` products of blocks instead of
    :math:`n` small products).

    >>> _powers_applied(np.array([[2.0]]), np.array([1.0]), 5)[:, 0].tolist()
    [1.0, 2.0, 4.0, 8.0, 16.0]
    """
    Y = np.empty((n, y0.size))
    Y[0] = y0
    power, filled = E, 1
    while filled < n:
        m = min(filled, n - filled)
        Y[filled:filled + m] = Y[:m] @ power.T
        filled += m
        if filled < n:
            power = power @ power
    return Y


def _grid_step(A: np.ndarray, span: float) -> float:
    w = float(np.max(np.abs(np.linalg.eigvals(A)))) if A.size else 0.0
    return min(2.0 * math.pi / (64.0 * w), span / 16.0) if w > 0.0 else span / 16.0


def _roots(ph: Phase, c: np.ndarray, a: float, b: float) -> list[float]:
    """All sign changes of :math:`c^T y` in ``(a, b)`` within the phase (for peak search)."""
    out: list[float] = []
    t = a
    while (r := _first_event(ph, [c], t, b)) is not None:
        out.append(r[0])
        t = r[0]
    return out


def _bracketed(g, a: float, b: float) -> float:
    """Root of ``g`` in ``[a, b]`` (an end point if the direct values do not bracket it)."""
    ga, gb = g(a), g(b)
    if ga == 0.0:
        return a
    if ga * gb < 0.0:
        return brentq(g, a, b, xtol=_XTOL)
    return b


def _first_event(ph: Phase, rows: list[np.ndarray], ts: float, tmax: float):
    """First :math:`t \\in (t_s, t_{max}]` where one of the :math:`c^T y` changes sign.

    Returns ``(t, index)`` or None. The sign at the start is taken a hair
    (1e-6 grid step) after :math:`t_s`, so a function starting at 0 is
    classified by where it goes.
    """
    if tmax <= ts:
        return None
    h = _grid_step(ph.A, tmax - ph.t_start)
    C = np.array(rows)
    D = C @ ph.A
    delta = min(1e-6 * h, 0.5 * (tmax - ts))
    a = ts + delta
    y = ph.state(a)
    s0 = np.sign(C @ y)
    E = scipy.linalg.expm(ph.A * h)
    da = D @ y
    best = None
    while a < tmax and best is None:
        b = min(a + h, tmax)
        yb = E @ y if b == a + h else ph.state(b)
        gb, db = C @ yb, D @ yb
        for e in np.nonzero(s0)[0]:
            def g(t, e=e):
                return float(C[e] @ ph.state(t)) * s0[e]

            if gb[e] * s0[e] <= 0.0:
                root = _bracketed(g, a, b)
            elif da[e] * db[e] < 0.0:  # an extremum inside: does g cross there?
                tstar = brentq(lambda t, e=e: float(D[e] @ ph.state(t)), a, b, xtol=_XTOL)
                if g(tstar) > 0.0:
                    continue
                root = _bracketed(g, a, tstar)
            else:
                continue
            if best is None or root < best[0]:
                best = (root, int(e))
        a, y, da = b, yb, db
    return best


def event_driven(problem: ModalProblem, t_end: float, max_phases: int = 100_000) -> ExactSolution:
    """Event-driven exact solution of a one-mode problem with obstacles (see the module docstring).

    Supports sine/constant excitations, any number of plan_z/plane obstacles
    with :math:`C_N = 0`, and at most one frictional obstacle in contact at a
    time (rigid stick, :math:`\\mu_s \\ge \\mu_d`).
    """
    if problem.n_modes != 1:
        raise UnsupportedError("event_driven", "n_modes", "the exact integrator handles one mode")
    m, k, c = float(problem.masses[0]), float(problem.stiffnesses[0]), float(problem.damping[0])
    # forcing grouped by circular frequency: f0 + sum a_j sin(w_j t) + b_j cos(w_j t)
    f0, terms = 0.0, {}
    for e in problem.excitations:
        f = harmonic(e.function)
        if f is None:
            message = "the exact integrator needs sine or constant excitations"
            raise UnsupportedError("event_driven", "excitations", message)
        amp = float(e.vector[0]) * f.amplitude
        if f.omega == 0.0:
            f0 += amp * math.sin(f.phase)
        else:
            a, b = terms.get(f.omega, (0.0, 0.0))
            terms[f.omega] = (a + amp * math.cos(f.phase), b + amp * math.sin(f.phase))
    omegas = np.array(sorted(terms))
    dim = 4 + 2 * omegas.size
    obs: list[_Obs] = []
    for o in problem.obstacles:
        if o.cn != 0.0:
            raise UnsupportedError("event_driven", "cn", "the exact integrator needs cn = 0")
        if o.mu_d > o.mu_static:
            raise ValueError(f"obstacle {o.name!r}: mu_dynamic > mu_static")
        phi, p = o.node_modes[:, 0], o.position - o.origin
        obs.append(_Obs(o.kind == "plan_z", o.gap, float(p @ o.normal), float(phi @ o.normal),
                        float(phi @ o.tangent), float(p @ o.tangent), o.kn, o.mu_static, o.mu_d))

    def d_row(i, side):
        r = np.zeros(dim)
        r[I1], r[IQ] = obs[i].d_coefs(side)
        return r

    def drive_row(active):
        """Generalised force without friction: f - k q + sum d_q F_n (with v = 0)."""
        r = np.zeros(dim)
        r[I1], r[IQ] = f0, -k
        for j, w in enumerate(omegas):
            r[4 + 2 * j], r[5 + 2 * j] = terms[w]
        for i, side in active.items():
            d0, dq = obs[i].d_coefs(side)
            r[I1] -= dq * obs[i].kn * d0
            r[IQ] -= dq * obs[i].kn * dq
        return r

    def matrix(active, slip, stick):
        A = np.zeros((dim, dim))
        A[II, IQ] = 1.0
        for j, w in enumerate(omegas):
            A[4 + 2 * j, 5 + 2 * j], A[5 + 2 * j, 4 + 2 * j] = w, -w
        if stick is not None:
            return A
        A[IQ, IV] = 1.0
        row = drive_row({})
        row[IV] = -c
        for i, side in active.items():
            d0, dq = obs[i].d_coefs(side)
            coef = dq - slip.get(i, 0) * obs[i].mu_d * obs[i].phit
            row[I1] -= coef * obs[i].kn * d0
            row[IQ] -= coef * obs[i].kn * dq
        A[IV] = row / m
        return A

    def friction_mode(i, active, y):
        """Slip direction (+1/-1) or 0 (stick) for frictional obstacle i in contact at state y."""
        vt = obs[i].phit * y[IV]
        if abs(vt) > 1e-13 * max(1.0, abs(y[IV])):
            return int(np.sign(vt))
        fn = -obs[i].kn * (d_row(i, active[i]) @ y)
        ft_req = -(drive_row(active) @ y) / obs[i].phit
        return 0 if abs(ft_req) <= obs[i].mu_s * fn else -int(np.sign(ft_req))

    def classify(y, t, prev_active):
        active = {}
        for i, ob in enumerate(obs):
            for side in ob.sides:
                d = d_row(i, side) @ y
                dq = ob.d_coefs(side)[1]
                tol = 1e-12 * max(1.0, abs(ob.gap), abs(ob.z0))
                if d < -tol or (abs(d) <= tol and (dq * y[IV] < 0.0 or (dq * y[IV] == 0.0 and i in prev_active))):
                    active[i] = side
        slip, stick = {}, None
        fr = [i for i in active if obs[i].frictional]
        for i in fr:
            mode = friction_mode(i, active, y)
            if mode == 0:
                if stick is not None or len(fr) > 1:
                    message = "the exact integrator cannot stick with two frictional contacts at once"
                    raise UnsupportedError("event_driven", "obstacles", message)
                stick = i
            else:
                slip[i] = mode
        return active, slip, stick

    def start_state(y, t):
        y = y.copy()
        for j, w in enumerate(omegas):
            y[4 + 2 * j], y[5 + 2 * j] = math.sin(w * t), math.cos(w * t)
        return y

    t = float(problem.t0)
    y = np.zeros(dim)
    y[IQ], y[IV], y[I1] = problem.q0[0], problem.v0[0], 1.0
    y = start_state(y, t)
    active, slip, stick = classify(y, t, {})
    phases: list[Phase] = []
    events: list[tuple[float, str, int]] = []
    while t < t_end and len(phases) < max_phases:
        if stick is not None:
            y[IV] = 0.0
        A = matrix(active, slip, stick)
        ph = Phase(t, t_end, A, y.copy(), dict(active), dict(slip), stick)
        rows, labels = [], []
        if stick is not None:
            req = -drive_row(active) / obs[stick].phit
            fnr = -obs[stick].kn * d_row(stick, active[stick])
            rows += [req - obs[stick].mu_s * fnr, -req - obs[stick].mu_s * fnr]
            labels += [("unstick", stick), ("unstick", stick)]
        else:
            for i, ob in enumerate(obs):
                if i in active:
                    rows.append(d_row(i, active[i]))
                    labels.append(("open", i))
                    if i in slip:
                        rows.append(np.eye(dim)[IV] * ob.phit)
                        labels.append(("slip_end", i))
                else:
                    for side in ob.sides:
                        rows.append(-d_row(i, side))
                        labels.append(("close", i))
        hit = _first_event(ph, rows, t, t_end) if rows else None
        te = t_end if hit is None else hit[0]
        ph.t_end = te
        phases.append(ph)
        y = start_state(ph.state(te), te)
        if hit is None:
            break
        events.append((te, *labels[hit[1]]))
        t = te
        active, slip, stick = classify(y, t, active)
        kind, i = labels[hit[1]]
        if kind == "slip_end" and i in active:  # decide at v_t = 0 from the force balance
            y[IV] = 0.0
            mode = friction_mode(i, active, y)
            slip.pop(i, None)
            stick = i if mode == 0 else None
            if mode != 0:
                slip[i] = mode
        elif kind == "unstick":
            y[IV] = 0.0
            ft_req = -(drive_row(active) @ y) / obs[i].phit
            slip, stick = {i: -int(np.sign(ft_req))}, None
    return ExactSolution(phases, events, obs, tuple(o.name for o in problem.obstacles), float(problem.t0),
                         float(t_end), omegas)
