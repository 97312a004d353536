r"""Euler-Bernoulli cantilever: natural frequencies and the response to a
suddenly applied tip load (the reference of the ``cantilever`` case).

Clamped at x = 0, free at x = L, bending stiffness EI (``E * inertia``), mass per length
:math:`\rho A`. The modes are
:math:`\phi_n = \cosh\beta_n x - \cos\beta_n x - \sigma_n(\sinh\beta_n x - \sin\beta_n x)`
with :math:`1 + \cos\beta_n L \cosh\beta_n L = 0`,
:math:`\sigma_n = (\cosh\beta_n L + \cos\beta_n L)/(\sinh\beta_n L + \sin\beta_n L)`,
:math:`\omega_n = \beta_n^2 \sqrt{EI/\rho A}`, :math:`\int_0^L \phi_n^2 = L` and
:math:`\phi_n(L) = 2(-1)^{n+1}`. A tip load P applied at t = 0 gives

.. math::

    w(L, t) = \sum_n \frac{4 P}{\rho A L \omega_n^2} (1 - \cos \omega_n t),

whose time mean is the static deflection :math:`P L^3 / (3 EI)`
(:math:`\sum_n (\beta_n L)^{-4} = 1/12`).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq


def cantilever_roots(n: int) -> np.ndarray:
    """The first n roots beta_n L of 1 + cos(x) cosh(x) = 0 (1.8751, 4.6941, ...)."""
    # cos x + 1/cosh x has the same roots and one in each ((k-1) pi, k pi)
    def f(x: float) -> float:
        return np.cos(x) + 1.0 / np.cosh(x)

    roots = [brentq(f, (k - 1) * np.pi, k * np.pi, xtol=1e-15, rtol=1e-15) for k in range(1, n + 1)]
    return np.array(roots)


def cantilever_frequencies(n: int, E: float, inertia: float, rho_A: float, L: float) -> np.ndarray:
    """Natural frequencies (Hz) of the first n bending modes."""
    beta = cantilever_roots(n) / L
    return beta**2 * np.sqrt(E * inertia / rho_A) / (2 * np.pi)


def tip_step_response(
    t: np.ndarray, P: float, E: float, inertia: float, rho_A: float, L: float, n_modes: int = 60
) -> np.ndarray:
    """Tip deflection w(L, t) (m, along P) under a tip load P applied at t = 0."""
    omega = 2 * np.pi * cantilever_frequencies(n_modes, E, inertia, rho_A, L)
    t = np.asarray(t, dtype=float)
    amplitude = 4 * P / (rho_A * L * omega**2)
    return np.sum(amplitude * (1 - np.cos(np.multiply.outer(t, omega))), axis=-1)
