"""A run that failed to converge keeps what it had converged.

When a step cannot be solved even at the smallest allowed step (a
:class:`~fem2d.errors.ConvergenceError`: a body crushed flat, friction that will
not settle), the steps before it are sound. The error carries them as its
``result``: a :class:`~fem2d.runs.result.Result` whose histories end at the last
converged step, with no quantities (the run did not reach the instants they are
read at) and no checks, and whose one warning says where and when it stopped.
``fem2d run`` writes it (``result.json``, ``history.npz``) and exits 1; in Python,
``error.result.write(directory)`` does the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fem2d.errors import ConvergenceError

if TYPE_CHECKING:
    from fem2d.runs.direct import DirectFields


def stopped_at(histories: dict[str, np.ndarray]) -> float:
    """The time of the last converged step of a failed run's histories (s; 0 without one)."""
    t = histories.get("time")
    return float(t[-1]) if t is not None and len(t) else 0.0


def converged_part(failure: ConvergenceError, fields: DirectFields, histories: dict[str, np.ndarray],
                   ) -> ConvergenceError:
    """``failure`` with the run's converged steps attached as its ``result`` (see the module
    docstring); returned, to be raised."""
    from fem2d.runs.result import Result

    t = stopped_at(histories)
    failure.result = Result({}, {}, histories, fields, warnings=[
        f"the computation failed ({failure}); the histories hold the converged steps up to t = {t:.9g} s "
        "and no quantity was computed"])
    return failure
