"""Models as objects: bodies, supports, loads and their time functions, discrete
elements, initial conditions, contact zones, what to report, the time grid;
:class:`Model` assembles them into a :class:`System`.

The names are imported when first used (``import fem2d.model`` stays cheap).
"""

from __future__ import annotations

import importlib

_WHERE = {
    "Body": "bodies",
    "Support": "supports",
    "COMPONENTS": "supports",
    "Pressure": "loads",
    "Traction": "loads",
    "BodyForce": "loads",
    "PointForce": "loads",
    "Spring": "discrete",
    "GroundSpring": "discrete",
    "PointMass": "discrete",
    "InitialCondition": "initial",
    "Contact": "contact",
    "RigidPlane": "contact",
    "RigidCircle": "contact",
    "Wear": "wear",
    "Report": "report",
    "TimeStepping": "stepping",
    "Model": "model",
    "System": "system",
    "Load": "system",
    "Constant": "timefunctions",
    "PiecewiseLinear": "timefunctions",
    "Sine": "timefunctions",
    "TimeFunction": "timefunctions",
    "BaseAcceleration": "excitation",
    "NodalObstacle": "obstacles",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(importlib.import_module(f"fem2d.model.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return list(__all__)
