"""Reference curves for plots: ``f(t, **args) -> array``, named by a case's ``[report.curve]``.

Each function evaluates a closed-form or event-driven reference of the
reported dof at the times ``t`` (s); ``args`` come from the case file, so a
case says which reference it is compared with, and with which parameters.
"""

from __future__ import annotations

import numpy as np

from fem2d.exact.sliding_block import SlidingBlock, solve


def sliding_block_displacement(t: np.ndarray, **params) -> np.ndarray:
    """Exact position x(t) (m) of the rigid sliding block (SDNV104's reference).

    ``params`` are :class:`~fem2d.exact.sliding_block.SlidingBlock`'s fields
    (``mass``, ``stiffness``, ``mu``, ``ft``, ``fn``, ``ramp_t``, ``ramp_r``);
    lists are accepted for the ramp knots.
    """
    t = np.asarray(t, dtype=float)
    fields = {k: tuple(v) if isinstance(v, list | tuple) else v for k, v in params.items()}
    t_end = max(float(np.max(t)) if t.size else 1.0, 1e-9)
    return solve(SlidingBlock(**fields), round(t_end, 9) + 1e-9).x(t)
