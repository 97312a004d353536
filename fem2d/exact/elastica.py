r"""Large deflection of a cantilever under a dead tip load (the elastica).

An inextensible Euler-Bernoulli rod of length :math:`L` and bending
stiffness :math:`EI`, clamped at :math:`x = 0` along :math:`+x`, carries at
its free end a load :math:`P` of fixed direction :math:`-y` (perpendicular to
the undeformed axis). With :math:`\theta(s)` the angle of the tangent below
the :math:`x` axis at arc length :math:`s`, the moment balance
:math:`EI\,\theta' = P\,(x_L - x(s))` gives

.. math::

    EI\,\theta'' = -P\cos\theta, \qquad \theta(0) = 0, \qquad \theta'(L) = 0,

whose first integral is :math:`EI\,\theta'^2 = 2P(\sin\theta_L - \sin\theta)`.
With :math:`\kappa^2 = P/EI`, the modulus :math:`p^2 = (1 + \sin\theta_L)/2` and the
substitution :math:`1 + \sin\theta = 2p^2\sin^2\varphi` (Bisshopp & Drucker 1945),
:math:`ds = d\varphi / (\kappa\sqrt{1 - p^2\sin^2\varphi})`, so that with
:math:`\varphi_1 = \arctan(1/\sqrt{\sin\theta_L})` (the clamp) and
:math:`\lambda = PL^2/EI`, the tip angle :math:`\theta_L` solves

.. math::

    \sqrt{\lambda} = K(p) - F(\varphi_1, p),

and the tip displacements follow,

.. math::

    \frac{x_L}{L} = \sqrt{\frac{2\sin\theta_L}{\lambda}}, \qquad
    \frac{-y_L}{L} = 1 - \frac{2}{\sqrt{\lambda}}\,\big(E(p) - E(\varphi_1, p)\big),

:math:`K, E` the complete and :math:`F, E(\varphi, \cdot)` the incomplete
elliptic integrals of the first and second kinds (scipy's parameter
:math:`m = p^2`). For small loads :math:`-y_L \to PL^3/(3EI)`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.special import ellipe, ellipeinc, ellipkinc, ellipkm1

from fem2d.errors import InputError


@dataclass(frozen=True)
class ElasticaTip:
    """Tip of the loaded cantilever, as fractions of its length L.

    ``deflection`` is the displacement along the load over L (positive downwards),
    ``shortening`` the displacement towards the clamp over L (positive),
    ``rotation`` the tip's angle (rad, positive turning towards the load).
    """

    deflection: float
    shortening: float
    rotation: float


def _terms_small_angle(sin_tip: float) -> tuple[float, float, float]:
    r"""(K - F(phi1), E - E(phi1), sin theta_L) evaluated through the complementary amplitude.

    With :math:`\tan\psi_1 = 1/(p' \tan\varphi_1)`, :math:`p'^2 = 1 - p^2`, the addition
    theorem gives :math:`K - F(\varphi_1) = F(\psi_1)` and
    :math:`E - E(\varphi_1) = E(\psi_1) - p^2 \sin\varphi_1 \sin\psi_1`: no difference of
    nearly equal integrals when the tip barely turns.
    """
    m1 = 0.5 * (1.0 - sin_tip)
    m = 1.0 - m1
    psi1 = np.arctan(np.sqrt(sin_tip / m1))
    sin_phi1 = 1.0 / np.sqrt(1.0 + sin_tip)
    d_f = ellipkinc(psi1, m)
    d_e = ellipeinc(psi1, m) - m * sin_phi1 * np.sin(psi1)
    return float(d_f), float(d_e), float(sin_tip)


def _terms_large_angle(beta: float) -> tuple[float, float, float]:
    r"""The same for the tip angle :math:`\pi/2 - \beta`, accurate when it nears pi/2.

    :math:`1 - p^2 = \sin^2(\beta/2)` keeps :math:`K` (``ellipkm1``) accurate as :math:`p \to 1`.
    """
    sin_tip = np.cos(beta)
    m1 = np.sin(0.5 * beta) ** 2
    m = 1.0 - m1
    phi1 = np.arctan2(1.0, np.sqrt(sin_tip))
    return float(ellipkm1(m1) - ellipkinc(phi1, m)), float(ellipe(m) - ellipeinc(phi1, m)), float(sin_tip)


def _solve(lam: float) -> tuple[float, float, float]:
    """(E - E(phi1), sin theta_L, theta_L) at the root of sqrt(lam) = K - F(phi1)."""
    root = np.sqrt(lam)
    if lam <= 2.0:  # tip angle below 0.79 rad: the unknown is sin(theta_L), to full relative precision
        u = brentq(lambda u: _terms_small_angle(u)[0] - root, 0.0, 0.99, xtol=1e-300, rtol=1e-15, maxiter=500)
        _, d_e, _ = _terms_small_angle(u)
        return d_e, u, float(np.arcsin(u))

    def residual(beta: float) -> float:
        return _terms_large_angle(beta)[0] - root

    # residual grows like ln(8/beta) as beta -> 0
    lo = 0.5
    while residual(lo) < 0.0:
        lo *= 1e-2
        if lo < 1e-250:
            raise InputError(f"load parameter P L^2/EI {lam!r}: too large for the closed form (keep it below 1e5)")
    beta = brentq(residual, lo, 0.5 * np.pi, xtol=1e-300, rtol=1e-15, maxiter=500)
    _, d_e, sin_tip = _terms_large_angle(beta)
    return d_e, sin_tip, 0.5 * np.pi - beta


def cantilever_tip(load_parameter: float) -> ElasticaTip:
    r"""Tip of a cantilever under a dead tip load perpendicular to its axis,
    ``load_parameter`` :math:`\lambda = PL^2/EI \ge 0`.

    Solves :math:`\sqrt\lambda = K(p) - F(\varphi_1, p)` for the tip angle
    :math:`\theta_L` (:func:`scipy.optimize.brentq` to round-off), then
    :math:`x_L/L = \sqrt{2\sin\theta_L/\lambda}` and
    :math:`-y_L/L = 1 - 2(E(p) - E(\varphi_1, p))/\sqrt\lambda` (module docstring).
    Relative accuracy ~1e-15/\lambda for small loads (the deflection is a difference
    of order :math:`\lambda`), ~1e-13 up to :math:`\lambda = 10^3`; the shortening,
    of order :math:`\lambda^2`, to ~1e-15 of L.

    Mattiasson's (1981) table gives 0.30172, 0.05643, 0.46135 at :math:`\lambda = 1`:

    >>> tip = cantilever_tip(1.0)
    >>> round(tip.deflection, 5), round(tip.shortening, 5), round(tip.rotation, 5)
    (0.30172, 0.05643, 0.46135)
    >>> round(cantilever_tip(1e-4).deflection / (1e-4 / 3), 8)  # the linear PL^3/(3EI)
    1.0
    """
    lam = float(load_parameter)
    if not lam >= 0.0 or not np.isfinite(lam):
        raise InputError(f"load parameter P L^2/EI {load_parameter!r}: expected a finite value >= 0")
    if lam == 0.0:
        return ElasticaTip(0.0, 0.0, 0.0)
    d_e, sin_tip, rotation = _solve(lam)
    # 1 - sqrt(2 s / lam) written without the cancellation of nearly equal terms
    ratio = 2.0 * sin_tip / lam
    return ElasticaTip(
        deflection=float(1.0 - 2.0 * d_e / np.sqrt(lam)),
        shortening=float((1.0 - ratio) / (1.0 + np.sqrt(ratio))),
        rotation=float(rotation),
    )


def cantilever_tip_displacement(P: float, L: float, EI: float) -> tuple[float, float]:
    r"""Tip displacement ``(ux, uy)`` (m) of a cantilever clamped at x = 0 along +x under a
    dead tip load of magnitude P (N) pointing along -y; a negative P points along +y.

    ``ux < 0`` is towards the clamp, ``uy < 0`` downwards:
    :math:`u_x = -L\,\delta_x(\lambda)`, :math:`u_y = -\mathrm{sign}(P)\,L\,\delta_y(\lambda)`,
    :math:`\lambda = |P|L^2/EI` (:func:`cantilever_tip`).

    >>> ux, uy = cantilever_tip_displacement(10.0, 2.0, 40.0)  # PL^2/EI = 1
    >>> round(ux, 5), round(uy, 5)
    (-0.11287, -0.60344)
    """
    if not L > 0.0:
        raise InputError(f"cantilever length L {L!r}: expected a positive length (m)")
    if not EI > 0.0:
        raise InputError(f"bending stiffness EI {EI!r}: expected a positive stiffness (N m^2)")
    tip = cantilever_tip(abs(P) * L**2 / EI)
    return -L * tip.shortening, -float(np.sign(P)) * L * tip.deflection
