"""fem2d: 2D finite-element contact dynamics, validated against code_aster's SDNV104, SDND104 and SDND101.

Run a case file::

    >>> import fem2d
    >>> result = fem2d.run("sdnv104a", {"time.dt": 0.005})
    >>> round(result.quantities["x_at_1.70"], 5), result.passed  # the exact rigid block: 14.898649
    (14.89865, True)

or compose the same model in Python::

    >>> ramp = fem2d.PiecewiseLinear((0.0, 0.07), (0.0, 1.0))
    >>> model = fem2d.Model(
    ...     fem2d.mesh.sliding_block(),
    ...     bodies=[fem2d.Body("PATIN", E=2.1e11, nu=0.0, rho=7000.0), fem2d.Body("BATI", E=1e11, nu=0.0, rho=0.0)],
    ...     supports=[fem2d.Support("BATI"), fem2d.Support("R1"), fem2d.Support("R2")],
    ...     springs=[fem2d.Spring("RESLAT", k_axial=12e3)],
    ...     loads=[fem2d.Pressure("FSUP", 7e4, ramp), fem2d.Pressure("FLAT", 2e5, ramp)],
    ...     contacts=[fem2d.Contact("LESC", "LMAI", mu=0.3)],
    ... )
    >>> result = fem2d.DirectAnalysis(model, fem2d.TimeStepping(dt=0.01, end=3.5),
    ...                               fem2d.NewmarkScheme.generalized_alpha(0.7),
    ...                               report=fem2d.Report("A", "dx", at_times=[1.7])).run()
    >>> round(result.quantities["x_at_1.70"], 4)  # one run at dt = 0.01, not extrapolated in time
    14.8983

Every name is imported when first used: ``import fem2d`` stays cheap.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

#: Public name -> the module that defines it.
_WHERE = {
    "run": "fem2d.studies.error_bars",
    "refine": "fem2d.studies.refinement",
    "Result": "fem2d.runs.result",
    "load_case": "fem2d.case.loading",
    "DirectAnalysis": "fem2d.runs.direct",
    "ModalAnalysis": "fem2d.runs.modal",
    "StaticAnalysis": "fem2d.runs.static",
    "StaticScheme": "fem2d.dynamics.schemes",
    "NewmarkScheme": "fem2d.dynamics.schemes",
    "LagrangeFormulation": "fem2d.contact.lagrange",
    "PenaltyFormulation": "fem2d.contact.penalty",
    "ContinuousFormulation": "fem2d.contact.continuous",
    "read_mesh": "fem2d.mesh.io",
    **{
        name: "fem2d.errors"
        for name in (
            "ConvergenceError",
            "Fem2dError",
            "Fem2dWarning",
            "InputError",
            "ModelError",
            "NumericalError",
            "OutputError",
            "StrictRunError",
        )
    },
    **{
        name: "fem2d.model"
        for name in (
            "Body",
            "BodyForce",
            "BaseAcceleration",
            "Constant",
            "Contact",
            "GroundSpring",
            "InitialCondition",
            "Model",
            "NodalObstacle",
            "PiecewiseLinear",
            "PointForce",
            "PointMass",
            "Pressure",
            "Report",
            "RigidCircle",
            "RigidPlane",
            "Sine",
            "Spring",
            "Support",
            "TimeStepping",
            "Traction",
            "Wear",
        )
    },
}

#: Subpackages reached as attributes without importing them first (``fem2d.mesh.sliding_block()``).
_SUBPACKAGES = ("case", "contact", "dynamics", "exact", "fe", "io", "linalg", "mesh", "modal", "model", "post",
                "runs", "studies")

__all__ = ["__version__", *sorted(_WHERE), "mesh", "model"]


def __getattr__(name: str):
    # lazy: `import fem2d` stays cheap for the CLI's --help and for workers
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    if name in _SUBPACKAGES:
        return importlib.import_module(f"fem2d.{name}")
    raise AttributeError(f"module 'fem2d' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public API (:data:`__all__`), though its names are imported only when first used."""
    return list(__all__)
