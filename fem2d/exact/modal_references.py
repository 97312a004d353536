r"""Closed-form references of the modal validation tests SDND101 and SDND104 (SI units).

SDND101, a mass-spring :math:`(m, k)` launched at :math:`V_0` into a stop of
penalty stiffness :math:`K_c` at zero gap: each impact is a half sine at
:math:`\omega_c = \sqrt{(k + K_c)/m}`, each flight a half sine at
:math:`\omega_0 = \sqrt{k/m}`.

SDND104, a mass on a plane vibrating with acceleration :math:`a_0 \sin\omega t`,
Coulomb :math:`\mu`, weight :math:`mg`, no spring: :math:`\eta = \mu g / a_0`,
:math:`\eta^* = 2/\sqrt{\pi^2 + 4}`; stick forever for :math:`\eta \ge 1`,
stick-slip for :math:`\eta^* < \eta < 1` (periodic from the first slip),
slip-slip for :math:`\eta \le \eta^*` (asymptotically periodic). The wear power
is the time mean of :math:`F_n |v_t| = m g |v_t|`.
"""

from __future__ import annotations

import math

from scipy.optimize import brentq

__all__ = [
    "ETA_STAR",
    "oscillator_impacts",
    "sdnd101_impact",
    "sdnd104_asymptotic_power",
    "sdnd104_regime",
    "sdnd104_stick_slip_power",
]

#: critical :math:`\eta^* = 2/\sqrt{\pi^2+4}` between stick-slip and slip-slip
ETA_STAR = 2.0 / math.sqrt(math.pi**2 + 4.0)


def sdnd101_impact(m: float = 100.0, k: float = 1e4, kc: float = 1e6, v0: float = 1.0) -> dict[str, float]:
    r"""Analytic impacts of SDND101.

    .. math::

        t_{peak,1} = \frac{\pi}{2\omega_c},\quad F_{max} = \frac{K_c V_0}{\omega_c},\quad
        T_{choc} = \frac{\pi}{\omega_c},\quad I = \frac{2 K_c m V_0}{k + K_c},\quad
        T_{vol} = \frac{\pi}{\omega_0},\quad t_{peak,2} = T_{choc} + T_{vol} + t_{peak,1}

    Returns a dict with ``omega_c`` (rad/s), ``t_peak_1``, ``t_peak_2``,
    ``duration``, ``flight`` (s), ``f_max`` (N), ``impulse`` (N s),
    ``v_impact`` (m/s, first impact, negative into the stop) and ``v_exit``.
    """
    wc = math.sqrt((k + kc) / m)
    w0 = math.sqrt(k / m)
    duration = math.pi / wc
    flight = math.pi / w0
    return {
        "omega_c": wc,
        "t_peak_1": 0.5 * duration,
        "t_peak_2": duration + flight + 0.5 * duration,
        "duration": duration,
        "flight": flight,
        "f_max": kc * v0 / wc,
        "impulse": 2.0 * kc * m * v0 / (k + kc),
        "v_impact": -v0,
        "v_exit": v0,
    }


def sdnd104_regime(a0: float, mu: float = 0.1, g: float = 10.0) -> str:
    """``"stick"``, ``"stick-slip"`` or ``"slip-slip"`` from :math:`\\eta = \\mu g / a_0`."""
    eta = mu * g / a0
    if eta >= 1.0:
        return "stick"
    return "stick-slip" if eta > ETA_STAR else "slip-slip"


def sdnd104_asymptotic_power(
    a0: float, m: float = 1.0, mu: float = 0.1, g: float = 10.0, omega: float = 2.0 * math.pi
) -> float:
    r"""Asymptotic mean wear power of the slip-slip regime (W).

    .. math:: P = \frac{m g a_0}{\pi \omega}\sqrt{4 - \eta^2 \pi^2}, \qquad \eta \le \eta^*

    (15.1146144886 W for the seed's :math:`a_0 = 15`).
    """
    eta = mu * g / a0
    if eta > ETA_STAR:
        raise ValueError(f"eta = {eta:g} > eta* = {ETA_STAR:g}: not slip-slip")
    return m * g * a0 / (math.pi * omega) * math.sqrt(4.0 - (eta * math.pi) ** 2)


def sdnd104_stick_slip_power(
    a0: float, m: float = 1.0, mu: float = 0.1, g: float = 10.0, omega: float = 2.0 * math.pi
) -> float:
    r"""Mean wear power of the periodic stick-slip regime (W), the seed's Maple program in closed form.

    Slip starts at :math:`t_1 = \arcsin(\eta)/\omega` and ends at :math:`t_2`,
    the root in :math:`(t_1, 2\pi/\omega)` of
    :math:`\eta\omega(t_2 - t_1) - \cos\omega t_1 + \cos\omega t_2 = 0`;
    with the plane's velocity :math:`\dot X = -\tfrac{a_0}{\omega}\cos\omega t`,
    the energy per half period is

    .. math:: E = m g \left|\tfrac{a_0}{\omega^2}(\sin\omega t_2 - \sin\omega t_1)
              - \tfrac{a_0}{\omega}\cos(\omega t_1)(t_2 - t_1) + \tfrac{\mu g}{2}(t_2 - t_1)^2\right|

    and :math:`P = E/(\pi/\omega)`. Since the motion is periodic from the
    start, this is also the exact mean over any whole number of periods.
    """
    eta = mu * g / a0
    if not ETA_STAR < eta < 1.0:
        raise ValueError(f"eta = {eta:g}: not stick-slip ({ETA_STAR:g} < eta < 1)")
    t1 = math.asin(eta) / omega

    def h(t: float) -> float:
        return eta * omega * (t - t1) - math.cos(omega * t1) + math.cos(omega * t)

    # h(t1) = 0, h'(t1) = 0; h is smallest where sin(omega t) = eta again, then rises to 0 at t2
    lo = (math.pi - math.asin(eta)) / omega
    hi = 2.0 * math.pi / omega
    t2 = brentq(h, lo, hi, xtol=1e-15)
    dt = t2 - t1
    energy = m * g * (
        a0 / omega**2 * (math.sin(omega * t2) - math.sin(omega * t1))
        - a0 / omega * math.cos(omega * t1) * dt
        + 0.5 * mu * g * dt * dt
    )
    return abs(energy) / (math.pi / omega)


def oscillator_impacts(
    m: float, k: float, kc: float, v0: float, clearance: float, t_end: float
) -> list[dict[str, float]]:
    r"""The impacts of a mass-spring :math:`(m, k)` launched at :math:`V_0 > 0` from
    its rest position towards a stop at ``clearance`` :math:`c \ge 0` of penalty
    stiffness :math:`K_c`, every impact that ends by ``t_end`` (s).

    Free flight: :math:`x = A_0 \sin\omega_0 t`, :math:`A_0 = V_0/\omega_0`; the stop
    is reached at :math:`t_{in} = \arcsin(c/A_0)/\omega_0` with speed
    :math:`V = \omega_0\sqrt{A_0^2 - c^2}`. In contact,
    :math:`m\ddot x = -k x - K_c (x - c)`: with :math:`y = x - K_c c/(k + K_c)`,
    :math:`y_0 = k c / (k + K_c)`, :math:`\omega_c = \sqrt{(k + K_c)/m}`,
    :math:`y = Y\cos(\omega_c\tau - \varphi)`, :math:`Y = \sqrt{y_0^2 + (V/\omega_c)^2}`,
    :math:`\varphi = \operatorname{atan2}(V/\omega_c, y_0)`:

    .. math::

        T_{choc} = \frac{2\varphi}{\omega_c},\quad t_{peak} = t_{in} + \frac{\varphi}{\omega_c},\quad
        F_{max} = K_c (Y - y_0),\quad I = \frac{2 K_c}{\omega_c}\Big(\frac{V}{\omega_c} - \varphi y_0\Big),

    it leaves at :math:`-V` and flies :math:`(\pi + 2\arcsin(c/A_0))/\omega_0` back
    to the stop (forever when :math:`k = 0`). At :math:`c = 0` these are
    :func:`sdnd101_impact`'s half sines.

    Returns one dict per impact: ``t_start``, ``t_peak``, ``duration`` (s),
    ``f_max`` (N), ``impulse`` (N s), ``v_impact`` (m/s, negative into the stop).

    >>> first, second = oscillator_impacts(100.0, 1e4, 1e6, 1.0, 0.0, 0.5)
    >>> round(first["f_max"], 4), round(second["t_peak"], 6)
    (9950.3719, 0.361049)
    """
    if v0 <= 0.0 or clearance < 0.0:
        raise ValueError("expected v0 > 0 and clearance >= 0")
    w0 = math.sqrt(k / m)
    if k > 0.0:
        a0 = v0 / w0
        if a0 <= clearance:
            return []
        t_in = math.asin(clearance / a0) / w0
        speed = w0 * math.sqrt(a0 * a0 - clearance * clearance)
        flight = (math.pi + 2.0 * math.asin(clearance / a0)) / w0
    else:
        t_in, speed, flight = clearance / v0, v0, math.inf
    wc = math.sqrt((k + kc) / m)
    y0 = k * clearance / (k + kc)
    amplitude = math.hypot(y0, speed / wc)
    phi = math.atan2(speed / wc, y0)
    duration = 2.0 * phi / wc
    impact = {
        "duration": duration,
        "f_max": kc * (amplitude - y0),
        "impulse": 2.0 * kc / wc * (speed / wc - phi * y0),
        "v_impact": -speed,
    }
    out = []
    while t_in + duration <= t_end:
        out.append({"t_start": t_in, "t_peak": t_in + phi / wc, **impact})
        t_in += duration + flight
    return out
