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
    peaks = np.array([b.max() for b in np.array_split(x, blocks)])
    nonzero = np.flatnonzero(peaks > 0.0)
    if nonzero.size < run + 1:
        return False
    tail = peaks[-(run + 1):]
    if not np.all(tail[1:] > factor * tail[:-1]):
        return False
    return bool(peaks[-1] > total * peaks[nonzero[0]])


def likely_cause(settings: Mapping) -> tuple[str, str]:
    """(key, text): the setting most likely at fault when a run's state blows up."""
    kind, time = settings["case"]["kind"], settings["time"]
    if kind == "modal":
        integrator = settings["modal"]["integrator"]
        return "time.dt", (f"{time['dt']:g} s is likely above the stability limit of the explicit {integrator!r} "
                           "integrator with the shock stiffness obstacle.kn engaged; expected a smaller time.dt")
    if time.get("scheme") == "newmark" and time["beta"] < time["gamma"] / 2:
        return "time.beta", (f"{time['beta']:g} < gamma/2 makes Newmark conditionally stable and time.dt = "
                             f"{time['dt']:g} s is likely above its limit; expected beta >= gamma/2 or a smaller "
                             "time.dt")
    return "time.dt", (f"{time['dt']:g} s may be too large for the stiffest contact or material of the model; "
                       "expected a smaller time.dt (or a softer contact.e_n)")


def check_state(where: str, settings: Mapping, histories: Mapping[str, np.ndarray]) -> None:
    """Raise :class:`~fem2d.errors.NumericalError` (``<where>: <key>: ...``) when the state
    columns of ``histories`` hold a non-finite number or grow without bound."""
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
            key, cause = likely_cause(settings)
            at = f" at t = {float(times[bad[0]]):.6g} s" if times is not None and len(times) == len(x) else ""
            raise NumericalError(f"{where}: {key}: the state became non-finite ({name}){at}; {cause}")
        if geometric_growth(x):
            key, cause = likely_cause(settings)
            raise NumericalError(f"{where}: {key}: the state grows without bound ({name} reaches "
                                 f"{np.max(np.abs(x)):.3g}); {cause}")
