r"""Values, extrema and rest of a sampled displacement history.

Between two samples the displacement is the cubic Hermite interpolant of
(u, v) at both ends, which is fourth-order accurate and consistent with the
velocities the integrator computed. Extrema are the zeros of its derivative
where the velocity changes sign; values at given instants are read from it.
"""

from __future__ import annotations

import numpy as np


def hermite(t0: float, t1: float, u0: float, u1: float, v0: float, v1: float, t: float) -> float:
    """Cubic Hermite interpolant of (u, v) at t0 and t1, evaluated at t."""
    h = t1 - t0
    s = (t - t0) / h
    h00, h10 = 2 * s**3 - 3 * s**2 + 1, s**3 - 2 * s**2 + s
    h01, h11 = -2 * s**3 + 3 * s**2, s**3 - s**2
    return h00 * u0 + h10 * h * v0 + h01 * u1 + h11 * h * v1


def value_at(times: np.ndarray, u: np.ndarray, v: np.ndarray, t: float) -> float:
    """u(t) from the samples (NaN outside the recorded interval)."""
    if not times[0] - 1e-12 <= t <= times[-1] + 1e-12:
        return float("nan")
    i = int(np.clip(np.searchsorted(times, t) - 1, 0, len(times) - 2))
    return float(hermite(times[i], times[i + 1], u[i], u[i + 1], v[i], v[i + 1], t))


def _stationary_point(t0: float, t1: float, u0: float, u1: float, v0: float, v1: float) -> float:
    """Where the Hermite interpolant's derivative vanishes in [t0, t1] (v0 v1 <= 0)."""
    h = t1 - t0
    # derivative of the interpolant in s in [0, 1]: a s^2 + b s + c (times 1/h)
    a = 6 * (u0 - u1) + 3 * h * (v0 + v1)
    b = -6 * (u0 - u1) - 2 * h * (2 * v0 + v1)
    c = h * v0
    if abs(a) < 1e-300:
        s = -c / b if b != 0 else 0.0
    else:
        disc = max(b * b - 4 * a * c, 0.0)
        roots = np.array([(-b - np.sqrt(disc)) / (2 * a), (-b + np.sqrt(disc)) / (2 * a)])
        inside = roots[(roots >= -1e-12) & (roots <= 1 + 1e-12)]
        s = float(inside[0]) if len(inside) else (0.0 if abs(v0) < abs(v1) else 1.0)
    return t0 + float(np.clip(s, 0.0, 1.0)) * h


def _signs(v: np.ndarray, tolerance: float) -> np.ndarray:
    """+1 / -1 where |v| > tolerance, 0 in the dead band around zero."""
    return np.where(v > tolerance, 1, np.where(v < -tolerance, -1, 0))


def extrema(times: np.ndarray, u: np.ndarray, v: np.ndarray, rel_tol: float = 1e-6) -> list[tuple[float, float, str]]:
    """Successive extrema (time, value, "max" | "min") of a sampled motion.

    An extremum is where the velocity changes sign; velocities below
    ``rel_tol * max|v|`` count as zero, so that the elastic jitter of a body
    at rest does not make extrema. The extremum is located inside the
    sampling interval where the sign changes, by the Hermite interpolant. A
    motion that ends at rest (its velocity below the tolerance from some
    sample to the end) ends with an extremum where it stopped.

    >>> t = np.linspace(0.0, 2.0, 201)
    >>> v = np.where(t < 1.0, np.sin(np.pi * t), 0.0)
    >>> u = np.where(t < 1.0, (1 - np.cos(np.pi * t)) / np.pi, 2 / np.pi)
    >>> [(round(te, 3), round(ue, 4), kind) for te, ue, kind in extrema(t, u, v)]
    [(1.0, 0.6366, 'max')]
    """
    if len(times) < 2:
        return []
    tol = rel_tol * max(float(np.max(np.abs(v))), 1e-300)
    sign = _signs(v, tol)
    out = []
    last_sign, last_index = 0, 0
    for i, s in enumerate(sign):
        if s == 0:
            continue
        if last_sign != 0 and s != last_sign:
            # the change happened between the last signed sample and this one
            j, k = last_index, last_index + 1
            t_ext = _stationary_point(times[j], times[k], u[j], u[k], v[j], v[k])
            u_ext = hermite(times[j], times[k], u[j], u[k], v[j], v[k], t_ext)
            out.append((float(t_ext), float(u_ext), "max" if last_sign > 0 else "min"))
        last_sign, last_index = s, i
    if last_sign != 0 and last_index < len(times) - 2:  # it stopped for good (two quiet samples at least)
        j, k = last_index, last_index + 1
        t_ext = _stationary_point(times[j], times[k], u[j], u[k], v[j], v[k])
        u_ext = hermite(times[j], times[k], u[j], u[k], v[j], v[k], t_ext)
        out.append((float(t_ext), float(u_ext), "max" if last_sign > 0 else "min"))
    return out


def rest(times: np.ndarray, u: np.ndarray, v: np.ndarray, rel_tol: float = 1e-6, min_duration: float = 0.0):
    """(t_rest, x_rest) if the motion ends at rest, else None.

    At rest means every sample from some instant to the end has
    |v| <= ``rel_tol * max|v|`` (and that stretch lasts at least
    ``min_duration``); t_rest is where the last motion stopped (located like
    an extremum) and x_rest the final displacement.
    """
    tol = rel_tol * max(float(np.max(np.abs(v))), 1e-300)
    moving = np.flatnonzero(np.abs(v) > tol)
    if len(moving) == 0 or moving[-1] >= len(times) - 2:
        return None
    j = int(moving[-1])
    t_stop = _stationary_point(times[j], times[j + 1], u[j], u[j + 1], v[j], v[j + 1])
    if times[-1] - t_stop < min_duration:
        return None
    return float(t_stop), float(u[-1])


def slip_end(
    times: np.ndarray, u: np.ndarray, v: np.ndarray, sliding: np.ndarray, rel_tol: float = 1e-6
) -> float | None:
    """The instant a frictional contact stopped sliding for good, or None (it never slid, or still
    slides within the last two records).

    ``sliding[i]``: whether the contact slid over the step that ends at ``times[i]``. The last
    such step, [t_(k-1), t_k], holds the stop: the instant in it where the reported motion's
    velocity vanishes (its Hermite interpolant, as an extremum; t_k itself when the step ends at a
    located stop, ``time.stick_slip``), or in the next step when the velocity at t_k is still above
    ``rel_tol`` of its peak with the sign it had at t_(k-1). Unlike :func:`rest`, the contact's
    vibration after the stop (penalty springs ringing at the reported node) does not delay it.

    >>> t = np.linspace(0.0, 2.0, 201)
    >>> v = np.where(t <= 1.0, np.sin(np.pi * t), 1e-3 * np.sin(200 * t))
    >>> u = np.where(t <= 1.0, (1 - np.cos(np.pi * t)) / np.pi, 2 / np.pi)
    >>> round(slip_end(t, u, v, t <= 1.0), 6)
    1.0
    """
    stop = _sliding_stop(times, u, v, sliding, rel_tol)
    return stop if stop is not None and moving_after(times, v, stop) is None else None


def _sliding_stop(times: np.ndarray, u: np.ndarray, v: np.ndarray, sliding: np.ndarray,
                  rel_tol: float = 1e-6) -> float | None:
    """The instant the last sliding step's motion stops (see :func:`slip_end`), whether or not
    the body is at rest after it; None when it never slid or still slides at the end."""
    slid = np.flatnonzero(np.asarray(sliding, dtype=bool)[1:]) + 1
    if len(slid) == 0 or slid[-1] >= len(times) - 2:
        return None
    k = int(slid[-1])
    if v[k - 1] * v[k] > 0.0 and abs(v[k]) > rel_tol * float(np.max(np.abs(v))):
        k += 1  # still moving at t_k (the statuses read at a nearby instant: an extrapolated run)
    return float(_stationary_point(times[k - 1], times[k], u[k - 1], u[k], v[k - 1], v[k]))


#: A body is at rest after an instant when its reported speed stays below this share of its peak
#: speed from then on (a contact that stopped sliding while the body still moves, e.g. lifted off
#: its support, has not come to rest).
REST_SPEED_SHARE = 1e-2


def moving_after(times: np.ndarray, v: np.ndarray, t: float) -> float | None:
    """The largest reported speed after ``t`` when it is above :data:`REST_SPEED_SHARE` of the peak
    speed (the body has not come to rest at ``t``), else None.

    >>> t = np.linspace(0.0, 1.0, 11)
    >>> moving_after(t, np.where(t < 0.5, 1.0, 1e-3), 0.5) is None
    True
    >>> moving_after(t, np.where(t < 0.5, 1.0, 0.5), 0.5)
    0.5
    """
    speed = np.abs(np.asarray(v, dtype=float))
    after = speed[np.asarray(times) > t]
    peak = float(np.max(speed, initial=0.0))
    largest = float(np.max(after, initial=0.0))
    return largest if largest > REST_SPEED_SHARE * peak else None


def rest_note(times: np.ndarray, u: np.ndarray, v: np.ndarray, sliding: np.ndarray | None) -> str | None:
    """Why ``t_rest`` is absent although the contact stopped sliding before the end, or None.

    >>> t = np.linspace(0.0, 2.0, 201)
    >>> v = np.where(t <= 1.0, np.sin(np.pi * t), 0.5)
    >>> u = np.cumsum(v) * 0.01
    >>> rest_note(t, u, v, t <= 1.0)[:70]
    't_rest not reported: the contact stopped sliding at 0.993333 s, but th'
    """
    stop = None if sliding is None else _sliding_stop(times, u, v, sliding)
    if stop is None:
        return None
    largest = moving_after(times, v, stop)
    if largest is None:
        return None
    peak = float(np.max(np.abs(v)))
    return (f"t_rest not reported: the contact stopped sliding at {stop:.6g} s, but the reported node still moves "
            f"after it ({largest:.3g} m/s, above {REST_SPEED_SHARE:.0%} of its peak speed {peak:.3g} m/s)")


def time_label(t: float) -> str:
    """``1.7 -> "1.70"``: two decimals when exact, else the shortest repr."""
    return f"{t:.2f}" if abs(t * 100 - round(t * 100)) < 1e-9 else format(t, "g")
