r"""Is a finished run's state a result at all? Non-finite numbers and unbounded growth.

A run whose state became non-finite, or grew geometrically to the end (the
signature of an integration above its stability limit: the amplitude of the
unstable mode is multiplied by the same factor at every step), raises
:class:`~fem2d.errors.NumericalError` naming the likely cause, instead of
returning numbers. Growth is judged on the block maxima :math:`A_b` of
:math:`|x|` over ``blocks`` equal blocks of the history: unbounded when each of
the last ``run`` blocks exceeds the one before by ``factor`` and the last one
exceeds the first non-zero block by ``total``. A physical response does not do
that: resonance grows linearly in time, a load switched on late steps once.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from fem2d.errors import NumericalError

#: History columns that hold the state (displacement, velocity) of each path.
STATE_COLUMNS = ("u", "v", "q_1", "v_1")


def geometric_growth(x: np.ndarray, blocks: int = 16, run: int = 4, factor: float = 3.0,
                     total: float = 1e3) -> bool:
    """True when the block maxima of ``|x|`` grow geometrically to the end (see module).

    >>> t = np.linspace(0.0, 1.0, 1601)
    >>> geometric_growth(np.exp(40.0 * t) * np.sin(300.0 * t)), geometric_growth(t * np.sin(300.0 * t))
    (True, False)
    """
    x = np.abs(np.asarray(x, dtype=float))
    if x.size < blocks * 2:
        return False
    # the maxima of np.array_split's blocks (the first len % blocks of them one longer), in one call
    size, extra = divmod(x.size, blocks)
    starts = np.arange(blocks) * size + np.minimum(np.arange(blocks), extra)
    peaks = np.maximum.reduceat(x, starts)
    nonzero = np.flatnonzero(peaks > 0.0)
    if nonzero.size < run + 1:
        return False
    tail = peaks[-(run + 1):]
    if not np.all(tail[1:] > factor * tail[:-1]):
        return False
    return bool(peaks[-1] > total * peaks[nonzero[0]])


#: What a blow-up most likely means when nobody says better (a model composed in Python).
GENERIC_CAUSE = "the time step may be too large for the stiffest contact or material of the model"


def check_state(where: str, histories: Mapping[str, np.ndarray], cause: str = GENERIC_CAUSE,
                key: str | None = None) -> None:
    """Raise :class:`~fem2d.errors.NumericalError` (``<where>: [<key>: ]<finding>; <cause>``)
    when the state columns of ``histories`` hold a non-finite number or grow without bound.
    A case's ``key`` and ``cause`` come from the case layer (:func:`fem2d.case.checks.likely_cause`)."""
    times = histories.get("time")
    for name in STATE_COLUMNS:
        x = histories.get(name)
        if x is None or np.ndim(x) != 1:
            continue
        x = np.asarray(x, dtype=float)
        finite = np.isfinite(x)
        if not finite.any():  # a column the run does not report (no report.node): NaN throughout
            continue
        bad = np.flatnonzero(~finite)
        if bad.size:
            at = f" at t = {float(times[bad[0]]):.6g} s" if times is not None and len(times) == len(x) else ""
            finding = f"the state became non-finite ({name}){at}"
        elif geometric_growth(x):
            finding = f"the state grows without bound ({name} reaches {np.max(np.abs(x)):.3g})"
        else:
            continue
        raise NumericalError(": ".join(part for part in (where, key, f"{finding}; {cause}") if part))


class DivergenceError(NumericalError):
    """A state found non-finite or growing without bound during the march: ``finding``
    says what and when; the case layer adds the file, the key and the likely cause."""

    def __init__(self, owner: str, finding: str, cause: str = GENERIC_CAUSE) -> None:
        self.finding = finding
        super().__init__(f"{owner}: {finding}; {cause}")


class StateWatch:
    """Checks the state during the march, every ``every`` steps, so that a run that blows
    up stops there instead of integrating to the end: a non-finite displacement or
    velocity, or block maxima of :math:`\\max_i |u_i|` growing geometrically (the test of
    :func:`geometric_growth` on the last ``min_samples`` samples).

    >>> watch = StateWatch(every=1)
    >>> for n in range(3):
    ...     watch.check(n, 0.1 * n, np.array([1.0, 2.0]), np.zeros(2))
    >>> watch.check(3, 0.3, np.array([np.inf, 0.0]), np.zeros(2))
    Traceback (most recent call last):
    ...
    fem2d.runs.sanity.DivergenceError: the march: the state became non-finite (u) at step 3, t = 0.3 s; ...
    """

    def __init__(self, every: int = 10, min_samples: int = 32, owner: str = "the march") -> None:
        self.every, self.min_samples, self.owner = max(1, int(every)), min_samples, owner
        self.steps = 0
        self.samples: list[float] = []

    def on_step(self, t: float, u: np.ndarray, v: np.ndarray) -> None:
        """Count one step; check the state every ``every`` steps."""
        self.steps += 1
        if self.steps % self.every == 0:
            self.check(self.steps, t, u, v)

    def check(self, step: int, t: float, u: np.ndarray, v: np.ndarray) -> None:
        """Raise :class:`DivergenceError` naming ``step`` and ``t`` when the state is not a result."""
        # a vector's largest and smallest values are finite exactly when all of its values are (NaN
        # and inf propagate); max |u| = max(max u, -min u): two passes over each vector, no temporary
        extremes = {}
        for name, x in (("u", u), ("v", v)):
            extremes[name] = (float(x.max()), float(x.min())) if np.size(x) else (0.0, 0.0)
            if not (np.isfinite(extremes[name][0]) and np.isfinite(extremes[name][1])):
                raise DivergenceError(self.owner, f"the state became non-finite ({name}) at step {step}, t = {t:.6g} s")
        self.samples.append(max(extremes["u"][0], -extremes["u"][1]))
        del self.samples[:-self.min_samples]
        if len(self.samples) == self.min_samples and geometric_growth(np.array(self.samples)):
            raise DivergenceError(self.owner, f"the state grows without bound (max |u| reaches {self.samples[-1]:.3g} "
                                              f"at step {step}, t = {t:.6g} s)")
