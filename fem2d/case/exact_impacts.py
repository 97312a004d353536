"""The exact impact of a case built on the ``bars`` geometry, from its settings.

:func:`exact_impact` recognises the three bar benchmarks of
:mod:`fem2d.exact.bars` (a bar on a wall, two bars, a bar bouncing under
gravity) from the mesh parameters, the bar's material, the initial velocity
and the body force, and returns the exact object; any other case gives None.
:func:`exact_force_curve` is its contact force history, which ``fem2d compare``
overlays on the computed ones.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from fem2d.case.loading import Case
from fem2d.exact.bars import BarImpact, BouncingBar, bar_on_wall, two_bars


def _bar_material(settings: dict) -> dict | None:
    for material in settings.get("materials", []):
        if material.get("group") in ("BAR1", "BARS"):
            return material
    return None


def _initial_speed(settings: dict, axis: int) -> float:
    for initial in settings.get("initial", []):
        if initial.get("group") in ("BAR1", "BARS") and initial.get("velocity") is not None:
            return float(initial["velocity"][axis])
    return 0.0


def exact_impact(case: Case) -> BarImpact | BouncingBar | None:
    """The exact impact of a ``bars`` case, or None when the case is not one of
    the three bar benchmarks (or leaves their assumptions: unequal bars, a
    lateral load, nu != 0)."""
    s = case.settings
    mesh = s.get("mesh", {})
    if mesh.get("geometry") != "bars":
        return None
    params = mesh.get("params") or {}
    lengths = list(params.get("lengths", [1.0]))
    material = _bar_material(s)
    if material is None or material.get("nu", 0.0) != 0.0 or len(set(lengths)) != 1:
        return None
    length, young, density = float(lengths[0]), float(material["E"]), float(material["rho"])
    area = float(params.get("height", 0.1)) * float(s.get("model", {}).get("thickness", 1.0))
    walls, vertical = params.get("walls", "none"), bool(params.get("vertical", False))
    loads = [load for load in s.get("loads", []) if load.get("type") == "body"]
    if len(lengths) == 1 and walls == "end" and not vertical and not loads:
        v0 = _initial_speed(s, 0)
        return bar_on_wall(length, young, density, area, v0, float(params.get("wall_gap", 0.0))) if v0 > 0 else None
    if len(lengths) == 2 and walls == "none" and not vertical and not loads:
        v0 = _initial_speed(s, 0)
        gap = float(list(params.get("gaps", [0.0]))[0])
        return two_bars(length, young, density, area, v0, gap) if v0 > 0 else None
    if len(lengths) == 1 and walls == "start" and vertical and len(loads) == 1 and _initial_speed(s, 1) == 0.0:
        vector = loads[0].get("vector", [0.0, 0.0])
        g = -float(vector[1]) / density
        if vector[0] != 0.0 or g <= 0.0:
            return None
        try:
            return BouncingBar(length, young, density, area, g, float(params.get("wall_gap", 0.0)))
        except ValueError:
            return None
    return None


def exact_force_curve(case: Case) -> tuple[str, Callable[[np.ndarray], np.ndarray]] | None:
    """``(label, F(t))``: the exact contact force history of a bar case, or None."""
    exact = exact_impact(case)
    if exact is None:
        return None
    return "exact (fem2d/exact/bars.py)", exact.force_at
