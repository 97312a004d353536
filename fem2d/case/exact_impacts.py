"""The exact contact force history of a case whose ``[exact]`` model is an
impact (the bar benchmarks of :mod:`fem2d.exact.bars`), which ``fem2d compare``
overlays on the computed ones."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from fem2d.case.loading import Case
from fem2d.case.references import NoExactSolution, exact_reference


def exact_force_curve(case: Case) -> tuple[str, Callable[[np.ndarray], np.ndarray]] | None:
    """``(label, F(t))``: the exact contact force history for the case's own
    settings, or None (no ``[exact]`` model, a model without a force history,
    or settings outside its assumptions)."""
    if case.settings.get("exact", {}).get("model") is None:
        return None
    try:
        exact = exact_reference(case)
    except NoExactSolution:
        return None
    if exact.contact_force is None:
        return None
    return "exact (fem2d/exact/bars.py)", exact.contact_force
