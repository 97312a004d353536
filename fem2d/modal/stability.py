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
Damping only lowers the limit (:math:`h\omega \le 2(\sqrt{1+\xi^2}-\xi)`), so
a step above :math:`2/\omega_{max}` is unstable whatever the damping.

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


def highest_frequency(problem: ModalProblem, in_contact: bool = True) -> float:
    r"""Highest circular frequency :math:`\omega_{max}` (rad/s) of a modal problem,
    with every obstacle's shock stiffness engaged when ``in_contact``.

    >>> from fem2d.modal.basis import ModalProblem
    >>> problem = ModalProblem(masses=[1.0, 2.0], stiffnesses=[4.0, 200.0])
    >>> round(highest_frequency(problem), 12)
    10.0
    """
    m = np.asarray(problem.masses, dtype=float)
    k = np.diag(np.asarray(problem.stiffnesses, dtype=float))
    if in_contact:
        for ob in problem.obstacles:
            normal = np.asarray(ob.normal, dtype=float)
            normal = normal / np.linalg.norm(normal)
            tangent = np.array([-normal[1], normal[0]])
            psi, tau = normal @ ob.node_modes, tangent @ ob.node_modes
            k = k + ob.kn * np.outer(psi, psi) + ob.kt * np.outer(tau, tau)
    scale = 1.0 / np.sqrt(m)
    lam = np.linalg.eigvalsh(k * np.outer(scale, scale))
    return float(math.sqrt(max(lam[-1], 0.0)))


def devogelaere_radius(x: float) -> float:
    r"""Spectral radius of one ``devogelaere`` step on the undamped oscillator, :math:`x = h\omega`.

    >>> devogelaere_radius(2.8) < 1.0 < devogelaere_radius(2.9)
    True
    """
    w2 = x * x
    columns = []
    for q, v, q_half_before in np.eye(3):
        g, g_before = -w2 * q, -w2 * q_half_before
        q_half = q + v / 2 + (4 * g - g_before) / 24
        g_half = -w2 * q_half
        q_new = q + v + (g + 2 * g_half) / 6
        v_new = v + (g + 4 * g_half - w2 * q_new) / 6
        columns.append((q_new, v_new, q_half))
    return float(np.max(np.abs(np.linalg.eigvals(np.array(columns).T))))


#: Largest stable :math:`h\omega_{max}` of each integrator with a fixed step.
STABLE_STEP = {"euler": 2.0, "devogelaere": 2.0 * math.sqrt(2.0)}


def stability_limit(problem: ModalProblem, integrator: str) -> float | None:
    """Largest stable step (s) of an explicit modal integrator: ``2 / omega_max`` for
    ``euler``, ``2 sqrt(2) / omega_max`` for ``devogelaere``; None for the others
    (``adapt`` picks its own step, ``exact`` has none).

    >>> from fem2d.modal.basis import ModalProblem
    >>> round(stability_limit(ModalProblem(masses=[1.0], stiffnesses=[100.0]), "euler"), 12)
    0.2
    """
    if integrator not in STABLE_STEP:
        return None
    omega = highest_frequency(problem)
    return math.inf if omega == 0.0 else STABLE_STEP[integrator] / omega
