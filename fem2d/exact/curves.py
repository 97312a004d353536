"""Reference curves for plots: ``f(t, **args) -> array``, named by a case's ``[report.curve]``.

Each function evaluates a closed-form or event-driven reference of the
reported dof at the times ``t`` (s); ``args`` come from the case file, so a
case says which reference it is compared with, and with which parameters.

A case names one of :data:`CURVES` (``function = "tip_step_response"``; the
spelling ``"fem2d.exact.beam:tip_step_response"`` names the same one) and
nothing else: a case file is data, it never makes fem2d import a module of its
choosing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import numpy as np

#: The curves a case may name: name -> (fem2d module, function), imported when drawn.
CURVES: dict[str, tuple[str, str]] = {
    "tip_step_response": ("fem2d.exact.beam", "tip_step_response"),
    "sliding_block_displacement": ("fem2d.exact.curves", "sliding_block_displacement"),
    "incline_displacement": ("fem2d.exact.incline", "incline_displacement"),
    "incline_velocity": ("fem2d.exact.incline", "incline_velocity"),
}


def curve_name(text: str) -> str | None:
    """The name in :data:`CURVES` that ``text`` spells (the name, or ``module:function``
    of the same function), or None; nothing is imported.

    >>> curve_name("tip_step_response"), curve_name("fem2d.exact.beam:tip_step_response"), curve_name("os:system")
    ('tip_step_response', 'tip_step_response', None)
    """
    if text in CURVES:
        return text
    return next((name for name, (module, attr) in CURVES.items() if text == f"{module}:{attr}"), None)


def unknown_curve(text: str) -> str:
    """What is wrong with a ``report.curve.function`` that names none of :data:`CURVES`."""
    return f"{text!r} is not a reference curve of fem2d; expected one of {', '.join(sorted(CURVES))}"


def curve_function(name: str) -> Callable[..., np.ndarray]:
    """The function of a name :func:`curve_name` accepts (KeyError for any other)."""
    module, attr = CURVES[curve_name(name) or name]
    return getattr(importlib.import_module(module), attr)


def sliding_block_displacement(t: np.ndarray, **params) -> np.ndarray:
    """Exact position x(t) (m) of the rigid sliding block (SDNV104's reference).

    ``params`` are :class:`~fem2d.exact.sliding_block.SlidingBlock`'s fields
    (``mass``, ``stiffness``, ``mu``, ``ft``, ``fn``, ``ramp_t``, ``ramp_r``);
    lists are accepted for the ramp knots.
    """
    from fem2d.exact.sliding_block import SlidingBlock, solve

    t = np.asarray(t, dtype=float)
    fields = {k: tuple(v) if isinstance(v, list | tuple) else v for k, v in params.items()}
    t_end = max(float(np.max(t)) if t.size else 1.0, 1e-9)
    return solve(SlidingBlock(**fields), round(t_end, 9) + 1e-9).x(t)
