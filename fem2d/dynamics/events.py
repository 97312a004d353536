r"""Contact events inside a time step: impacts and releases.

A time scheme integrates a smooth motion to its order; contact makes the motion
non-smooth at isolated instants: a node hits (its gap reaches zero) or
leaves (its normal force reaches zero). A step that
holds such an instant is only first-order accurate, and an impact in the middle
of a step dissipates the work :math:`-p_{n+1} g_n` of the contact force over
the gap closed before it (Doyen, Ern & Piperno 2011). :class:`EventLocator`
finds the instant and the driver (:func:`fem2d.dynamics.stepper.march`)
redoes the step as two, split there.

* **Impact** of a slave node open at :math:`t_n` (gap :math:`g_n > 0`) and
  closed at :math:`t_{n+1}`: the gap is extrapolated from its last values,
  :math:`g(t) \approx g_n + \dot g_n (t - t_n) + \tfrac12 \ddot g_n (t - t_n)^2`
  (backward differences, so exact for free flight under a constant load), and
  the event is its first zero in :math:`(t_n, t_{n+1})`.
* **Release** of a node closed at :math:`t_n` and open at :math:`t_{n+1}`:
  the first zero of its normal force extrapolated linearly from the last two
  steps, or the middle of the step when that zero misses it; the driver
  splits again until the node opens at a step end with (almost) no force.
  Average acceleration balances the energy with the mean
  :math:`\tfrac12 (p_n + p_{n+1})` of the contact forces, so a release in the
  middle of a step creates :math:`\tfrac12 p_n \Delta g`.
Stick/slip events (a sliding node that stops or reverses) are located by
:class:`fem2d.dynamics.stickslip.StickSlipLocator`, which also restarts the
scheme there.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from fem2d.contact.problem import OPEN, ContactSolution

#: located events are rounded to this many divisions of a step
DIVISIONS = 16


class EventLocator:
    """Finds the first contact event inside a step (see the module docstring).

    ``min_fraction``: events closer than this fraction of the step to one of
    its ends are left where they are (a split would only add a tiny step);
    ``min_step``: steps shorter than this are not split again.
    """

    def __init__(self, min_fraction: float = 0.02, min_step: float = 0.0) -> None:
        self.min_fraction = min_fraction
        self.min_step = min_step
        self._gaps: deque[tuple[float, np.ndarray]] = deque(maxlen=3)
        self._open: np.ndarray | None = None  # the slave nodes open at the end of the last step
        self._forces: deque[tuple[float, np.ndarray]] = deque(maxlen=2)
        self._last_open: tuple[ContactSolution, np.ndarray] | None = None
        #: how many steps were split, by kind
        self.impacts = 0
        self.releases = 0

    def record(self, t_start: float, t_end: float, solution: ContactSolution | None) -> None:
        """Remember an accepted step's end gaps and normal forces."""
        if solution is None:
            return
        if self._gaps and len(self._gaps[-1][1]) != len(solution.gap):
            self._gaps.clear()  # the slave set changed (cannot happen with fixed zones; be safe)
        self._gaps.append((t_end, solution.gap.copy()))
        self._open = self._open_at(solution)
        self._forces.append((t_end, solution.normal_force.copy()))

    def _open_at(self, solution: ContactSolution) -> np.ndarray:
        """:func:`_open` of ``solution``, kept for the last solution (:meth:`split`, then
        :meth:`record` of the same step)."""
        last = self._last_open
        if last is None or last[0] is not solution:
            last = self._last_open = (solution, _open(solution))
        return last[1]

    def split(self, t_start: float, t_end: float, solution: ContactSolution | None) -> float | None:
        """The fraction in (0, 1) of the step [t_start, t_end] (just solved, with
        ``solution`` at its end) at which the first event happens, or None."""
        if solution is None or not self._gaps or self._gaps[-1][0] != t_start or t_end - t_start < self.min_step:
            return None
        now_open = self._open_at(solution)
        if now_open.all() and self._open.all():
            return None  # open at both ends (a flight): nothing hits, nothing leaves
        found = (
            self._impact(t_start, t_end, solution, now_open),
            self._release(t_start, t_end, solution, now_open),
        )
        fractions = [f for f in found if f]
        return min(fractions) if fractions else None

    def _accept(self, fraction: float) -> float | None:
        """The fraction rounded to a multiple of 1/16, or None at the step's ends:
        split steps then take a few dyadic sizes whose factorisations are reused,
        and a located event off by up to 1/32 of the step is refined by bisection
        (the next split of the step that still holds it)."""
        if not self.min_fraction < fraction < 1.0 - self.min_fraction:
            return None
        return min(max(round(fraction * DIVISIONS), 1), DIVISIONS - 1) / DIVISIONS

    def _impact(self, t_start: float, t_end: float, solution: ContactSolution, now_open: np.ndarray) -> float | None:
        gap0 = self._gaps[-1][1]
        closing = self._open & (gap0 > 0.0) & ~now_open
        if not closing.any() or len(self._gaps) < 2:
            return None
        times = np.array([t for t, _ in self._gaps])
        gaps = np.vstack([g for _, g in self._gaps])[:, closing]
        h = t_end - t_start
        # backward-difference Taylor expansion about t_start
        t1, t0 = times[-2], times[-1]
        rate = (gaps[-1] - gaps[-2]) / (t0 - t1)
        curvature = np.zeros_like(rate)
        if len(times) == 3:
            t2 = times[0]
            prev_rate = (gaps[-2] - gaps[-3]) / (t1 - t2)
            curvature = (rate - prev_rate) / ((t0 - t2) / 2)
            rate = rate + curvature * (t0 - t1) / 2
        best = None
        for g, r, c in zip(gaps[-1], rate, curvature):
            roots = np.roots([0.5 * c, r, g]) if c else (np.array([-g / r]) if r else np.array([]))
            roots = roots[np.isreal(roots)].real
            roots = roots[(roots > 0) & (roots < h)]
            if len(roots):
                best = roots.min() if best is None else min(best, roots.min())
        fraction = None if best is None else self._accept(best / h)
        if fraction is None and gaps[-1].max() > 1e-9 * h * np.abs(rate).max(initial=0.0):
            fraction = 0.5  # the extrapolation missed the step: bisect
        if fraction is not None:
            self.impacts += 1
        return fraction

    def _release(self, t_start: float, t_end: float, solution: ContactSolution, now_open: np.ndarray) -> float | None:
        if len(self._forces) < 2:
            return None
        (t1, f1), (t0, f0) = self._forces
        releasing = ~self._open & now_open & (f0 > 0.0)
        if not releasing.any():
            return None
        # first zero of the forces extrapolated linearly from the last two steps; when it
        # misses the step (the force fell faster, or was rising), bisect: the driver splits again
        falling = releasing & (f1 > f0)
        fraction = None
        if falling.all() or falling[releasing].all():
            t_zero = t0 + np.min(f0[falling] * (t0 - t1) / (f1[falling] - f0[falling]))
            fraction = self._accept((t_zero - t_start) / (t_end - t_start))
        if fraction is None:
            fraction = 0.5
        self.releases += 1
        return fraction


def _open(solution: ContactSolution) -> np.ndarray:
    """The slave nodes without contact force (a formulation may keep a status
    other than OPEN on a node that carries no force)."""
    return (solution.status == OPEN) | (solution.normal_force <= 0.0)
