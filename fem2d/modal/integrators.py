r"""code_aster's explicit modal integrators with shocks: ``euler``, ``devogelaere``, ``adapt``.

All three integrate the diagonal modal system of
:class:`~fem2d.modal.basis.ModalProblem`,

.. math:: \ddot q_i = F_i(t, q, \dot q)/m_i - \omega_i^2 q_i - 2\xi_i\omega_i \dot q_i ,

where :math:`F` holds the excitations and the shock forces
(:func:`~fem2d.modal.shocks.shock_forces`, whose state is updated at every
force evaluation). The hot loops are kernels (:mod:`fem2d.modal.jit`): compiled
by numba for a long run (``cache=True``: the machine code is kept on disk, so only
the first run of a new environment pays the compilation), the same source run by
the interpreter for a short one, which then imports no numba.

``euler`` (code_aster ``EULER``): :math:`\dot q \leftarrow \dot q + h\,\ddot q(t_n)`,
:math:`q \leftarrow q + h \dot q`, forces at :math:`(q, \dot q, t_{n+1})`
(semi-implicit Euler, i.e. central differences).

``devogelaere`` (``DEVOGE``, Devogelaere-Fu, order 4), with
:math:`g = F/m - \omega^2 q`, :math:`c = 2\xi\omega`: start-up
:math:`q_{-1/2} = q_0 - \tfrac h2 \dot q_0 + \tfrac{h^2}8 (g_0 - c\dot q_0)` (forces at
:math:`-1/2` taken equal to those at 0); then each step

.. math::

    q_{n+1/2} &= q_n + \tfrac h2 \dot q_n + \tfrac{h^2}{24}\,(4 g_n - g_{n-1/2} - c(4\dot q_n - \dot q_{n-1/2}))\\
    \dot q_{n+1/2} &= \tfrac{4}{4+hc}\,[\dot q_n + \tfrac h4 (g_n + g_{n+1/2} - c \dot q_n)]\\
    q_{n+1} &= q_n + h \dot q_n + \tfrac{h^2}{6}\,(g_n + 2 g_{n+1/2} - c(\dot q_n + 2\dot q_{n+1/2}))\\
    \dot q_{n+1} &= \tfrac{6}{6+hc}\,[\dot q_n + \tfrac h6 (g_n + 4 g_{n+1/2} + g_{n+1}
                    - c(\dot q_n + 4 \dot q_{n+1/2}))]

with the forces at :math:`n+1/2` and :math:`n+1` evaluated at the provisional
velocities :math:`2(q_{n+1/2}-q_n)/h` and :math:`2(q_{n+1}-q_{n+1/2})/h` (these
are the archived shock kinematics, as in code_aster).

``adapt`` (``ADAPT_ORDRE2``): central differences with a variable step,
:math:`\dot q_{n+1/2} = \dot q_{n-1/2} + \ddot q_n (h_{n-1}+h_n)/2`,
:math:`q_{n+1} = q_n + h_n \dot q_{n+1/2}`, forces at the predicted velocity
:math:`\dot q_{n+1/2} + \tfrac{h_n}2 \ddot q_n`. Apparent frequency
:math:`f = \sqrt{\max_i |\Delta \ddot q_i| / \max(v_{min} h, |\Delta q_i|)}/2\pi`, error
:math:`e = N f h` (:math:`N` points per period, 50): :math:`e > 1` divides
:math:`h` by 4/3 and retries (at most 16 times; the shock state is restored
before a retry); after 5 accepted steps in a row with :math:`e < 0.75` each
further such step multiplies :math:`h` by 1.1, capped at ``dt_max`` (default:
the initial step); :math:`v_{min}` = 1 % of the norm of :math:`\dot q_{n+1/2}`.
Samples are archived at multiples of ``dt * archive_stride``, each taking the
nearer of the two steps around it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from fem2d.errors import ConvergenceError
from fem2d.modal.basis import ModalProblem
from fem2d.modal.jit import kernel, use_compiled
from fem2d.modal.shocks import (
    N_REC,
    REC_CONTACT,
    REC_D,
    REC_FN,
    REC_FT,
    REC_STUCK,
    REC_VN,
    REC_VT,
    REC_XT,
    pack_obstacles,
    shock_forces,
)
from fem2d.model.timefunctions import PiecewiseLinear, harmonic

__all__ = ["COMPILED_SCHEMES", "ModalHistory", "integrate_modal", "pack_excitations"]

COMPILED_SCHEMES = ("euler", "devogelaere", "adapt")


@dataclass(frozen=True)
class ModalHistory:
    """Archived samples of a modal run (arrays indexed by sample, then mode or obstacle).

    ``fn, ft`` (N), ``d, xt`` (m), ``vn, vt`` (m/s) are in each obstacle's frame
    (:mod:`fem2d.modal.shocks`); ``stuck`` is code_aster's stick flag, so
    ``sliding = contact & ~stuck``. ``steps`` counts accepted steps,
    ``evaluations`` force evaluations, ``rejected`` rejected adaptive trials.
    ``diverged``: the integration stopped when the state became non-finite; the
    last sample is that state (``steps`` counts the steps to it).
    """

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    fn: np.ndarray
    ft: np.ndarray
    d: np.ndarray
    xt: np.ndarray
    vn: np.ndarray
    vt: np.ndarray
    stuck: np.ndarray
    contact: np.ndarray
    names: tuple[str, ...]
    scheme: str
    steps: int
    evaluations: int
    rejected: int = 0
    diverged: bool = False

    @property
    def sliding(self) -> np.ndarray:
        """In contact and not stuck."""
        return self.contact & ~self.stuck


def pack_excitations(problem: ModalProblem) -> tuple:
    """Excitations as arrays for the kernels: vectors, kinds (0 sine, 1 table), sine parameters, tables."""
    n_e, n_m = len(problem.excitations), problem.n_modes
    evec = np.zeros((n_e, n_m))
    ekind = np.zeros(n_e, dtype=np.int64)
    epar = np.zeros((n_e, 3))
    offsets = [0]
    tt, tv = [], []
    for i, e in enumerate(problem.excitations):
        evec[i] = e.vector
        sine = harmonic(e.function)
        if sine is not None:
            epar[i] = [sine.amplitude, sine.omega, sine.phase]
        elif isinstance(e.function, PiecewiseLinear):
            ekind[i] = 1
            tt.append(np.asarray(e.function.t))
            tv.append(np.asarray(e.function.values))
        else:
            raise TypeError(f"the modal kernels evaluate Constant, Sine and PiecewiseLinear, not {e.function!r}")
        offsets.append(offsets[-1] + (len(e.function.t) if ekind[i] else 0))
    tab_t = np.concatenate(tt) if tt else np.zeros(1)
    tab_v = np.concatenate(tv) if tv else np.zeros(1)
    return evec, ekind, epar, tab_t, tab_v, np.asarray(offsets, dtype=np.int64)


@kernel()
def _table_value(tab_t, tab_v, a, b, t):
    """Piecewise-linear value of the table ``tab_t[a:b], tab_v[a:b]`` at ``t``, constant outside."""
    if t <= tab_t[a]:
        return tab_v[a]
    if t >= tab_t[b - 1]:
        return tab_v[b - 1]
    lo = a
    hi = b - 1
    while hi - lo > 1:  # bisection for tab_t[lo] <= t < tab_t[hi]
        mid = (lo + hi) // 2
        if tab_t[mid] <= t:
            lo = mid
        else:
            hi = mid
    return tab_v[lo] + (tab_v[lo + 1] - tab_v[lo]) * (t - tab_t[lo]) / (tab_t[lo + 1] - tab_t[lo])


@kernel(inline=True)
def _forces(t, q, v, evec, ekind, epar, tab_t, tab_v, tab_off, kind, phi, geo, par, iadh, state, fgen, rec):  # noqa: E501
    for j in range(fgen.shape[0]):
        fgen[j] = 0.0
    for e in range(ekind.shape[0]):
        if ekind[e] == 0:
            g = epar[e, 0] * math.sin(epar[e, 1] * t + epar[e, 2])
        else:
            g = _table_value(tab_t, tab_v, tab_off[e], tab_off[e + 1], t)
        for j in range(fgen.shape[0]):
            fgen[j] += evec[e, j] * g
    shock_forces(q, v, kind, phi, geo, par, iadh, state, fgen, rec)


@kernel(inline=True)
def _store(k, t, q, v, rec, T, Q, V, R):
    T[k] = t
    for j in range(q.shape[0]):
        Q[k, j] = q[j]
        V[k, j] = v[j]
    for i in range(rec.shape[0]):
        for c in range(rec.shape[1]):
            R[k, i, c] = rec[i, c]


@kernel(inline=True)
def _finite(q, v):
    for j in range(q.shape[0]):
        if not (math.isfinite(q[j]) and math.isfinite(v[j])):
            return False
    return True


@kernel(_nrt=False)  # no allocation inside: no reference counting in the hot loop
def _euler(m, w2, c2, q0, v0, t0, dt, nsteps, stride, exc, obs, iadh, state, T, Q, V, R, W, RW):
    evec, ekind, epar, tab_t, tab_v, tab_off = exc  # unpacked once: no reference counting in the loop
    kind, phi, geo, par = obs
    nm = m.shape[0]
    q, v, a, fgen = W[0], W[1], W[2], W[3]
    rec = RW[0]
    for j in range(nm):
        q[j] = q0[j]
        v[j] = v0[j]
    _forces(t0, q, v, evec, ekind, epar, tab_t, tab_v, tab_off, kind, phi, geo, par, iadh, state, fgen, rec)
    for j in range(nm):
        a[j] = fgen[j] / m[j] - w2[j] * q[j] - c2[j] * v[j]
    _store(0, t0, q, v, rec, T, Q, V, R)
    k = 0
    for i in range(1, nsteps + 1):
        for j in range(nm):
            v[j] += dt * a[j]
            q[j] += dt * v[j]
        t = t0 + i * dt
        _forces(t, q, v, evec, ekind, epar, tab_t, tab_v, tab_off, kind, phi, geo, par, iadh, state, fgen, rec)
        for j in range(nm):
            a[j] = fgen[j] / m[j] - w2[j] * q[j] - c2[j] * v[j]
        if i % stride == 0 or i == nsteps:
            k += 1
            _store(k, t, q, v, rec, T, Q, V, R)
            if not _finite(q, v):
                return -(k + 1)  # a state that is no result: stop here, the count negated
    return k + 1


@kernel(_nrt=False)  # no allocation inside: no reference counting in the hot loop
def _devogelaere(m, w2, c2, q0, v0, t0, h, nsteps, stride, exc, obs, iadh, state, T, Q, V, R, W, RW):  # noqa: E501
    evec, ekind, epar, tab_t, tab_v, tab_off = exc  # unpacked once: no reference counting in the loop
    kind, phi, geo, par = obs
    nm = m.shape[0]
    x1, x2, x3, x4 = W[0], W[1], W[2], W[3]
    v1, v2, v3, v4 = W[4], W[5], W[6], W[7]
    f1, f2, f3, f4 = W[8], W[9], W[10], W[11]
    rec = RW[0]
    for j in range(nm):
        x2[j] = q0[j]
        v2[j] = v0[j]
    _forces(t0, x2, v2, evec, ekind, epar, tab_t, tab_v, tab_off, kind, phi, geo, par, iadh, state, f2, rec)
    for j in range(nm):
        f1[j] = f2[j]
        g2 = f2[j] / m[j] - w2[j] * x2[j]
        x1[j] = x2[j] - 0.5 * h * v2[j] + h * h / 8.0 * (g2 - c2[j] * v2[j])
        g1 = f1[j] / m[j] - w2[j] * x1[j]
        v1[j] = (v2[j] * (4.0 + h * c2[j]) - h * (g1 + g2)) / (4.0 - h * c2[j])
    _store(0, t0, x2, v2, rec, T, Q, V, R)
    k = 0
    for i in range(1, nsteps + 1):
        for j in range(nm):
            g1 = f1[j] / m[j] - w2[j] * x1[j]
            g2 = f2[j] / m[j] - w2[j] * x2[j]
            x3[j] = x2[j] + 0.5 * h * v2[j] + h * h / 24.0 * (4.0 * g2 - g1 - c2[j] * (4.0 * v2[j] - v1[j]))
            v3[j] = (x3[j] - x2[j]) / (0.5 * h)
        _forces(t0 + (i - 0.5) * h, x3, v3, evec, ekind, epar, tab_t, tab_v, tab_off, kind, phi, geo, par,
                iadh, state, f3, rec)
        for j in range(nm):
            g2 = f2[j] / m[j] - w2[j] * x2[j]
            g3 = f3[j] / m[j] - w2[j] * x3[j]
            v3[j] = 4.0 / (4.0 + h * c2[j]) * (v2[j] + 0.25 * h * (g2 + g3 - c2[j] * v2[j]))
            x4[j] = x2[j] + h * v2[j] + h * h / 6.0 * (g2 + 2.0 * g3 - c2[j] * (v2[j] + 2.0 * v3[j]))
            v4[j] = (x4[j] - x3[j]) / (0.5 * h)
        t = t0 + i * h
        _forces(t, x4, v4, evec, ekind, epar, tab_t, tab_v, tab_off, kind, phi, geo, par, iadh, state, f4, rec)
        for j in range(nm):
            g2 = f2[j] / m[j] - w2[j] * x2[j]
            g3 = f3[j] / m[j] - w2[j] * x3[j]
            g4 = f4[j] / m[j] - w2[j] * x4[j]
            v4[j] = 6.0 / (6.0 + h * c2[j]) * (v2[j] + h / 6.0 * (g4 + 4.0 * g3 + g2 - c2[j] * (4.0 * v3[j] + v2[j])))
        if i % stride == 0 or i == nsteps:
            k += 1
            _store(k, t, x4, v4, rec, T, Q, V, R)
            if not _finite(x4, v4):
                return -(k + 1)  # a state that is no result: stop here, the count negated
        for j in range(nm):
            x1[j] = x3[j]
            x2[j] = x4[j]
            v1[j] = v3[j]
            v2[j] = v4[j]
            f1[j] = f3[j]
            f2[j] = f4[j]
    return k + 1


@kernel(inline=True)
def _apparent_frequency(dt, x, x2, a, a2, vmin):
    eps = 2.220446049250313e-16
    temp = eps
    for i in range(x.shape[0]):
        da = a2[i] - a[i]
        dd = abs(x2[i] - x[i])
        b = vmin[i] * dt
        if dd > b:
            b = dd
        if b <= 2.2250738585072014e-308:
            b = eps
        tt = abs(da / b)
        if tt > temp:
            temp = tt
    return math.sqrt(temp) / (2.0 * math.pi)


@kernel(inline=True)
def _copy_state(iadh_dst, state_dst, iadh_src, state_src):
    for i in range(iadh_src.shape[0]):
        iadh_dst[i] = iadh_src[i]
        for j in range(state_src.shape[1]):
            state_dst[i, j] = state_src[i, j]


@kernel(_nrt=False)  # no allocation inside: no reference counting in the hot loop
def _adapt(m, w2, c2, q0, v0, t0, t_end, dt0, dt_max, dt_arch, n_per, n_rej_max, c_mult, c_div, dt_min,
           exc, obs, iadh, state, T, Q, V, R, counters, W, RW, iadh_save, state_save):
    evec, ekind, epar, tab_t, tab_v, tab_off = exc  # unpacked once: no reference counting in the loop
    kind, phi, geo, par = obs
    nm = m.shape[0]
    x, vh, vp, a, x2 = W[0], W[1], W[2], W[3], W[4]  # vh: velocity at the previous half step (v0 at start)
    vh2, vp2, a2, fgen, vmin = W[5], W[6], W[7], W[8], W[9]  # vp: predicted velocity at the sample
    rec, rec2 = RW[0], RW[1]
    for j in range(nm):
        x[j] = q0[j]
        vh[j] = v0[j]
        vp[j] = v0[j]
        vmin[j] = 1e-15
    _forces(t0, x, vh, evec, ekind, epar, tab_t, tab_v, tab_off, kind, phi, geo, par, iadh, state, fgen, rec)
    for j in range(nm):
        a[j] = fgen[j] / m[j] - w2[j] * x[j] - c2[j] * vh[j]
    _store(0, t0, x, vp, rec, T, Q, V, R)
    k = 1
    n_arch = T.shape[0]
    t = t0
    t_arch = t0 + dt_arch
    i_arch = 1
    dt1 = 0.0
    dt2 = dt0
    npas = 0
    steps = 0
    evals = 1
    rejected = 0
    t_tol = 1e-9 * dt0
    while t < t_end - t_tol:
        if t + dt2 > t_end:
            dt2 = t_end - t
        err = 100.0
        nr = 0
        _copy_state(iadh_save, state_save, iadh, state)
        while err > 1.0 and nr < n_rej_max:
            if nr > 0:
                _copy_state(iadh, state, iadh_save, state_save)
            pas1 = 0.5 * (dt1 + dt2)
            for j in range(nm):
                vh2[j] = vh[j] + a[j] * pas1
                x2[j] = x[j] + dt2 * vh2[j]
                vp2[j] = vh2[j] + 0.5 * dt2 * a[j]
            _forces(t + dt2, x2, vp2, evec, ekind, epar, tab_t, tab_v, tab_off, kind, phi, geo, par,
                    iadh, state, fgen, rec2)
            evals += 1
            for j in range(nm):
                a2[j] = fgen[j] / m[j] - w2[j] * x2[j] - c2[j] * vp2[j]
            err = n_per * _apparent_frequency(dt2, x, x2, a, a2, vmin) * dt2
            if err > 1.0:
                dt2 = dt2 / c_div
                rejected += 1
                if dt2 <= dt_min and abs(t_end - (t + dt2)) > t_tol:
                    counters[0] = steps
                    counters[1] = evals
                    counters[2] = rejected
                    counters[3] = 1
                    return k
            nr += 1
        if err > 1.0:
            # accepted anyway after n_rej_max reductions (code_aster warns); the last trial was rejected
            rejected -= 1
        dt1 = dt2
        t2 = t + dt2
        if err < 0.75:
            if npas == 5:
                dt2 = min(c_mult * dt2, dt_max)
                npas = 4
            npas += 1
        else:
            npas = 0
        steps += 1
        while t <= t_arch + t_tol and t2 >= t_arch - t_tol and k < n_arch:
            if t2 - t_arch <= t_arch - t:
                _store(k, t2, x2, vp2, rec2, T, Q, V, R)
            else:
                _store(k, t, x, vp, rec, T, Q, V, R)
            k += 1
            i_arch += 1
            t_arch = t0 + i_arch * dt_arch
        if not _finite(x2, vp2):  # a state that is no result: stop here, the last sample kept
            _store(k - 1 if k == n_arch else k, t2, x2, vp2, rec2, T, Q, V, R)
            counters[0] = steps
            counters[1] = evals
            counters[2] = rejected
            counters[3] = 2
            return k if k == n_arch else k + 1
        vnorm = 0.0
        for j in range(nm):
            vnorm += vh2[j] * vh2[j]
        vnorm = 0.01 * math.sqrt(vnorm)
        for j in range(nm):
            vmin[j] = vnorm
        t = t2
        for j in range(nm):
            x[j] = x2[j]
            vh[j] = vh2[j]
            vp[j] = vp2[j]
            a[j] = a2[j]
        for i in range(rec.shape[0]):
            for j in range(rec.shape[1]):
                rec[i, j] = rec2[i, j]
    if k < n_arch and T[k - 1] < t - t_tol:
        _store(k, t, x, vp, rec, T, Q, V, R)
        k += 1
    counters[0] = steps
    counters[1] = evals
    counters[2] = rejected
    counters[3] = 0
    return k


def integrate_modal(
    problem: ModalProblem,
    scheme: str = "euler",
    dt: float = 1e-4,
    t_end: float = 1.0,
    archive_stride: int = 1,
    dt_max: float | None = None,
    points_per_period: int = 50,
    max_reductions: int = 16,
    dt_min_ratio: float = 1e-6,
    compiled: bool | None = None,
) -> ModalHistory:
    """Integrate a modal problem with one of code_aster's explicit schemes.

    Parameters
    ----------
    problem : ModalProblem
    scheme : {"euler", "devogelaere", "adapt"}
    dt : float
        Time step (s); the initial step for ``adapt``.
    t_end : float
        Final time (s).
    archive_stride : int
        Keep every ``archive_stride``-th step (plus the first and the last);
        for ``adapt``, samples every ``dt * archive_stride`` seconds.
    dt_max, points_per_period, max_reductions, dt_min_ratio
        ``adapt`` only: largest step (default ``dt``), :math:`N`, retries per
        step, smallest step as a fraction of ``dt`` (below it the run stops
        with :class:`~fem2d.errors.ConvergenceError`).
    compiled : bool or None
        Run the kernel compiled by numba (True) or in the interpreter (False), the
        same source and the same numbers; None: compiled when it is already loaded
        or the run is long enough to repay loading it
        (:func:`fem2d.modal.jit.use_compiled`).

    Returns
    -------
    ModalHistory
    """
    if scheme not in COMPILED_SCHEMES:
        raise ValueError(f"unknown modal integrator {scheme!r}; expected one of {COMPILED_SCHEMES}")
    if dt <= 0.0 or t_end <= problem.t0:
        raise ValueError("need dt > 0 and t_end > t0")
    if archive_stride < 1:
        raise ValueError("archive_stride must be >= 1")
    m = problem.masses
    w2 = problem.stiffnesses / m
    c2 = problem.damping / m
    obs_arrays = pack_obstacles(
        problem.obstacles, problem.n_modes, problem.masses, problem.stiffnesses, problem.damping_ratios
    )
    obs = (obs_arrays.kind, obs_arrays.phi, obs_arrays.geo, obs_arrays.par)
    iadh, state = obs_arrays.initial_state(problem.q0)
    exc = pack_excitations(problem)
    n_obs, nm = len(problem.obstacles), problem.n_modes
    q0, v0, t0 = problem.q0.copy(), problem.v0.copy(), float(problem.t0)
    if scheme == "adapt":
        dt_arch = dt * archive_stride
        n_arch = int(math.floor((t_end - t0) / dt_arch + 1e-9)) + 2
    else:
        nsteps = int(round((t_end - t0) / dt))
        n_arch = nsteps // archive_stride + 1 + (1 if nsteps % archive_stride else 0)
    T = np.zeros(n_arch)
    Q = np.zeros((n_arch, nm))
    V = np.zeros((n_arch, nm))
    R = np.zeros((n_arch, n_obs, N_REC))
    W = np.zeros((12, nm))  # work arrays of the kernels (they allocate nothing)
    RW = np.zeros((2, n_obs, N_REC))
    rejected, diverged = 0, False
    if scheme in ("euler", "devogelaere"):
        evaluations = (1 if scheme == "euler" else 2) * nsteps + 1
        run = use_compiled(_euler if scheme == "euler" else _devogelaere, evaluations, compiled)
        with np.errstate(over="ignore", invalid="ignore"):  # the interpreted path: an overflow is `diverged`
            count = run(m, w2, c2, q0, v0, t0, dt, nsteps, archive_stride, exc, obs, iadh, state, T, Q, V, R, W, RW)
        diverged, count = count < 0, abs(count)
        if diverged:
            nsteps = int(round((T[count - 1] - t0) / dt))
        steps, evals = nsteps, (1 if scheme == "euler" else 2) * nsteps + 1
    else:
        dt_max = dt if dt_max is None else dt_max
        adapt = use_compiled(_adapt, int((t_end - t0) / dt_max) + 1, compiled)  # at least this many evaluations
        counters = np.zeros(4, dtype=np.int64)
        with np.errstate(over="ignore", invalid="ignore"):
            count = adapt(m, w2, c2, q0, v0, t0, t_end, dt, dt_max, dt * archive_stride,
                          float(points_per_period), max_reductions, 1.1, 1.3333334, dt * dt_min_ratio,
                          exc, obs, iadh, state, T, Q, V, R, counters, W, RW, iadh.copy(), state.copy())
        steps, evals, rejected, failed = (int(c) for c in counters)
        diverged = failed == 2
        if failed == 1:
            smallest = dt * dt_min_ratio
            raise ConvergenceError(f"adapt: the time step fell below {smallest:g} s at t = {T[count - 1]:.6g} s")
    R = R[:count]
    return ModalHistory(
        t=T[:count], q=Q[:count], v=V[:count],
        fn=R[:, :, REC_FN], ft=R[:, :, REC_FT], d=R[:, :, REC_D], xt=R[:, :, REC_XT],
        vn=R[:, :, REC_VN], vt=R[:, :, REC_VT],
        stuck=R[:, :, REC_STUCK] > 0.5, contact=R[:, :, REC_CONTACT] > 0.5,
        names=tuple(o.name for o in problem.obstacles), scheme=scheme,
        steps=steps, evaluations=evals, rejected=rejected, diverged=diverged,
    )
