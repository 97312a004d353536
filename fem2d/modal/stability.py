r"""Stability limit of the explicit modal integrator, from the modes and the shock stiffness.

``euler`` (semi-implicit Euler, i.e. central differences) is stable for the
undamped system :math:`M\ddot q + K q = 0` only when

.. math:: h\,\omega_{max} \le 2 ,

where :math:`\omega_{max}` is the highest circular frequency of the system
the integrator actually sees. In contact, every obstacle adds its normal
stiffness :math:`k_n` along the node's normal (and :math:`k_t` along the
tangent while it sticks), so the stiffest system is

.. math:: K_c = \mathrm{diag}(\omega_i^2 m_i) + \sum_o k_n\, \psi_o \psi_o^T + k_t\, \tau_o \tau_o^T,
    \qquad \psi_o = \Phi_o^T n_o,\ \tau_o = \Phi_o^T t_o,

with :math:`\Phi_o` the obstacle node's (2, n_modes) rows of the modes, and
:math:`\omega_{max}^2` the largest eigenvalue of :math:`M^{-1/2} K_c M^{-1/2}`.
Damping lowers the limit: the step of ``euler`` on
:math:`\ddot q + c\dot q + \omega^2 q = 0` multiplies :math:`(q, \dot q)` by a
matrix of determinant :math:`1 - hc` and trace :math:`2 - h^2\omega^2 - hc`,
whose eigenvalues stay in the unit disc (Jury's criterion) exactly when

.. math:: h^2\omega^2 + 2hc \le 4, \qquad\text{i.e.}\qquad
    h \le \frac{\sqrt{c^2 + 4\omega^2} - c}{\omega^2} = \frac{2(\sqrt{1+\xi^2}-\xi)}{\omega}
    \quad (c = 2\xi\omega).

A heavily damped mode (modal.damping = 200 on SDND101 at its step, far below
:math:`2/\omega_{max}`) otherwise flips its velocity at every step and its
impacts come out as a train of 494 spurious ones. The damping rate used is the
largest of the system, :math:`c_{max}`, the largest eigenvalue of
:math:`M^{-1/2} C_c M^{-1/2}` with every obstacle's :math:`c_n` (and :math:`c_t`
while it sticks) engaged, together with :math:`\omega_{max}`: a bound that
holds for the worst mode (:func:`stability_limit`).

``devogelaere`` applied to :math:`\ddot q = -\omega^2 q` maps
:math:`(q_n, \dot q_n, q_{n-1/2})` to :math:`(q_{n+1}, \dot q_{n+1}, q_{n+1/2})` by a
3 x 3 matrix of :math:`x = h\omega` (the step formulas of
:mod:`fem2d.modal.integrators` with :math:`c = 0`); its spectral radius stays
below 1 up to :math:`x = 2\sqrt 2` and exceeds it beyond, so the limit is
:math:`h\,\omega_{max} \le 2\sqrt 2` (:func:`devogelaere_radius`).
"""

from __future__ import annotations

import math

import numpy as np

from fem2d.modal.basis import ModalProblem


def _contact_directions(ob) -> tuple[np.ndarray, np.ndarray]:
    """The obstacle node's rows of the modes along its normal and its tangent (psi, tau)."""
    normal = np.asarray(ob.normal, dtype=float)
    normal = normal / np.linalg.norm(normal)
    tangent = np.array([-normal[1], normal[0]])
    return normal @ ob.node_modes, tangent @ ob.node_modes


def _largest_rate(problem: ModalProblem, matrix: np.ndarray) -> float:
    """Largest eigenvalue of :math:`M^{-1/2} A M^{-1/2}` (modal masses M)."""
    scale = 1.0 / np.sqrt(np.asarray(problem.masses, dtype=float))
    return float(np.linalg.eigvalsh(matrix * np.outer(scale, scale))[-1])


def highest_damping_rate(problem: ModalProblem) -> float:
    r"""Largest damping rate :math:`c_{max}` (1/s) of a modal problem: the modal damping
    :math:`2\xi_i\omega_i m_i` with every obstacle's :math:`c_n` and :math:`c_t` engaged
    (:math:`c_t` as the shock law resolves it, code_aster's rule when not given).

    >>> from fem2d.modal.basis import ModalProblem
    >>> round(highest_damping_rate(ModalProblem(masses=[2.0], stiffnesses=[200.0], damping=[20.0])), 12)
    10.0
    """
    from fem2d.modal.shocks import pack_obstacles

    c = np.diag(np.asarray(problem.damping, dtype=float))
    if problem.obstacles:
        par = pack_obstacles(problem.obstacles, problem.n_modes, problem.masses, problem.stiffnesses,
                             problem.damping_ratios).par
        for ob, (_, cn, _, ct, _, _) in zip(problem.obstacles, par, strict=True):
            psi, tau = _contact_directions(ob)
            c = c + cn * np.outer(psi, psi) + ct * np.outer(tau, tau)
    return max(_largest_rate(problem, c), 0.0)


def highest_frequency(problem: ModalProblem, in_contact: bool = True, sticking: bool = True) -> float:
    r"""Highest circular frequency :math:`\omega_{max}` (rad/s) of a modal problem,
    with every obstacle's shock stiffness engaged when ``in_contact`` (its tangential
    :math:`k_t` too when ``sticking``).

    >>> from fem2d.modal.basis import ModalProblem
    >>> problem = ModalProblem(masses=[1.0, 2.0], stiffnesses=[4.0, 200.0])
    >>> round(highest_frequency(problem), 12)
    10.0
    """
    k = np.diag(np.asarray(problem.stiffnesses, dtype=float))
    if in_contact:
        for ob in problem.obstacles:
            psi, tau = _contact_directions(ob)
            k = k + ob.kn * np.outer(psi, psi) + (ob.kt if sticking else 0.0) * np.outer(tau, tau)
    return float(math.sqrt(max(_largest_rate(problem, k), 0.0)))


#: A modal run warns when its samples hold fewer points than this of the shortest period of
#: its motion (code_aster's ADAPT takes 50 points per apparent period).
SAMPLES_PER_PERIOD = 50


def shortest_period(problem: ModalProblem) -> tuple[float, str]:
    r"""The shortest period (s) of a modal problem's motion and what sets it: the highest
    frequency with every obstacle's :math:`k_n` closed (a shock's duration is half its
    period; :math:`k_t`, the stick's regularisation, is left out) or the fastest harmonic
    excitation, whichever is faster.

    >>> from fem2d.modal.basis import ModalProblem
    >>> period, what = shortest_period(ModalProblem(masses=[1.0], stiffnesses=[4.0 * math.pi**2]))
    >>> round(period, 12), what
    (1.0, 'the highest mode')
    """
    from fem2d.model.timefunctions import harmonic

    omega = highest_frequency(problem, in_contact=True, sticking=False)
    what = "the highest mode with the obstacles' kn closed" if problem.obstacles else "the highest mode"
    for excitation in problem.excitations:
        sine = harmonic(excitation.function)
        if sine is not None and abs(sine.omega) > omega:
            omega, what = abs(sine.omega), "the excitation"
    return (2.0 * math.pi / omega if omega > 0.0 else math.inf), what


def sampling_warning(problem: ModalProblem, integrator: str, dt: float, archive: int) -> str | None:
    """A warning when the run's samples (every ``dt * archive``; ``adapt`` also steps at most
    ``dt``) hold fewer than :data:`SAMPLES_PER_PERIOD` points of :func:`shortest_period`:
    the shocks' peak forces, durations and impact velocities, and the averages (wear power)
    read from them, may then be off by more than 1 % (SDND101 with adapt: at 63 points the
    first impact's duration is 0.8 % short, at 12.6 points its impact velocity 8 % low; SDND104
    with adapt: the wear power 0.2 % low at 50 points, 2.1 % at 10). None for ``exact``.

    >>> from fem2d.modal.basis import ModalProblem
    >>> problem = ModalProblem(masses=[1.0], stiffnesses=[4.0 * math.pi**2])
    >>> sampling_warning(problem, "euler", 0.02, 1) is None
    True
    >>> print(sampling_warning(problem, "adapt", 0.1, 1))
    time.dt: the samples, 0.1 s apart, hold 10 points of the shortest period of the motion, 1 s (the \
highest mode), fewer than 50: peak forces, impact durations and velocities and averages read from them may be off \
by more than 1 %; take time.dt <= 0.02 s
    """
    if integrator == "exact":
        return None
    period, what = shortest_period(problem)
    spacing = dt * archive
    points = period / spacing
    if not points < SAMPLES_PER_PERIOD:
        return None
    key = "time.dt" if archive == 1 else "time.dt x modal.archive"
    return (f"{key}: the samples, {spacing:.3g} s apart, hold {points:.3g} points of the shortest period of the "
            f"motion, {period:.3g} s ({what}), fewer than {SAMPLES_PER_PERIOD}: peak forces, impact durations and "
            f"velocities and averages read from them may be off by more than 1 %; take time.dt <= "
            f"{period / SAMPLES_PER_PERIOD / archive:.3g} s")


def devogelaere_radius(x: float, y: float = 0.0) -> float:
    r"""Spectral radius of one ``devogelaere`` step on the oscillator
    :math:`\ddot q + c\dot q + \omega^2 q = 0`, :math:`x = h\omega`, :math:`y = hc`
    (the step formulas of :mod:`fem2d.modal.integrators`, state :math:`(q_n, \dot q_n,
    q_{n-1/2}, \dot q_{n-1/2})`).

    >>> devogelaere_radius(2.8) < 1.0 < devogelaere_radius(2.9)
    True
    >>> devogelaere_radius(0.1, 20.0) > 1.0  # a damping rate far above 1/h
    True
    """
    w2, c = x * x, y
    columns = []
    for q, v, q_before, v_before in np.eye(4):
        g, g_before = -w2 * q, -w2 * q_before
        q_half = q + v / 2 + (4 * g - g_before - c * (4 * v - v_before)) / 24
        g_half = -w2 * q_half
        v_half = 4 / (4 + c) * (v + (g + g_half - c * v) / 4)
        q_new = q + v + (g + 2 * g_half - c * (v + 2 * v_half)) / 6
        g_new = -w2 * q_new
        v_new = 6 / (6 + c) * (v + (g_new + 4 * g_half + g - c * (4 * v_half + v)) / 6)
        columns.append((q_new, v_new, q_half, v_half))
    return float(np.max(np.abs(np.linalg.eigvals(np.array(columns).T))))


#: Largest stable :math:`h\omega_{max}` of each integrator with a fixed step.
STABLE_STEP = {"euler": 2.0, "devogelaere": 2.0 * math.sqrt(2.0)}


def stability_limit(problem: ModalProblem, integrator: str) -> float | None:
    """Largest stable step (s) of an explicit modal integrator: ``2 / omega_max`` for
    ``euler``, ``2 sqrt(2) / omega_max`` for ``devogelaere`` without damping, lowered by
    the largest damping rate (see the module docstring; ``devogelaere`` by bisection on
    :func:`devogelaere_radius`); None for the others (``adapt`` picks its own step,
    ``exact`` has none).

    >>> from fem2d.modal.basis import ModalProblem
    >>> round(stability_limit(ModalProblem(masses=[1.0], stiffnesses=[100.0]), "euler"), 12)
    0.2
    >>> damped = ModalProblem(masses=[1.0], stiffnesses=[100.0], damping=[15.0])  # xi = 0.75
    >>> round(stability_limit(damped, "euler"), 12)  # 2 (sqrt(1 + 0.75^2) - 0.75) / 10
    0.1
    """
    if integrator not in STABLE_STEP:
        return None
    omega, c = highest_frequency(problem), highest_damping_rate(problem)
    if c == 0.0:
        return math.inf if omega == 0.0 else STABLE_STEP[integrator] / omega
    if integrator == "euler":
        return (math.sqrt(c * c + 4.0 * omega * omega) - c) / (omega * omega) if omega > 0.0 else 2.0 / c
    low, high = 0.0, STABLE_STEP[integrator] / omega if omega > 0.0 else 6.0 / c
    for _ in range(60):
        h = 0.5 * (low + high)
        low, high = (h, high) if devogelaere_radius(h * omega, h * c) <= 1.0 + 1e-12 else (low, h)
    return low
