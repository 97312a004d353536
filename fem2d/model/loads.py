r"""External loads on a group, each scaled by a function of time (code_aster's
AFFE_CHAR_MECA with FONC_MULT): :math:`f(t) = g(t)\, F`."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from fem2d.errors import ModelError, expect_real
from fem2d.fe import body_force_load, point_force_load, pressure_load, traction_load
from fem2d.mesh.mesh import Mesh
from fem2d.model.groups import blocks_of, group_of, nodes_of
from fem2d.model.system import Load
from fem2d.model.timefunctions import Constant, TimeFunction


def _pair(owner: object, name: str, value: Sequence[float]) -> tuple[float, float]:
    values = tuple(float(v) for v in value)
    if len(values) != 2 or not all(np.isfinite(values)):
        raise ModelError(owner, name, f"expected two finite components (x, y), got {tuple(value)}")
    return values


@dataclass(frozen=True)
class Pressure:
    r"""A pressure ``value`` (Pa) on an edge group, positive into the body
    (code_aster's PRES_REP): the surface force is :math:`-p\, n` with
    :math:`n` the outward normal of the adjacent cells.

    >>> from fem2d.model.timefunctions import PiecewiseLinear
    >>> Pressure("FSUP", 7e4, PiecewiseLinear((0.0, 0.07), (0.0, 1.0))).function(0.035)
    0.5
    """

    group: str
    value: float
    function: TimeFunction = field(default_factory=Constant)

    def __post_init__(self) -> None:
        value = expect_real(self, "value", self.value, "a pressure (Pa)")
        if not math.isfinite(value):
            raise ModelError(self, "value", f"expected a finite pressure (Pa), got {self.value!r}")
        object.__setattr__(self, "value", value)

    def assemble(self, mesh: Mesh, thickness: float, axisymmetric: bool = False) -> Load:
        """The load vector (N, all dofs; the whole ring's when ``axisymmetric``) and its time function."""
        group_of(mesh, self, "group", self.group, dimension=1)
        return Load(pressure_load(mesh, self.group, self.value, thickness=thickness, axisymmetric=axisymmetric),
                    self.function,
                    f"pressure on {self.group}")


@dataclass(frozen=True)
class Traction:
    """A traction ``vector`` (Pa, global x and y) on an edge group.

    >>> Traction("RIGHT", [0, 2e4]).vector
    (0.0, 20000.0)
    """

    group: str
    vector: tuple[float, float]
    function: TimeFunction = field(default_factory=Constant)

    def __post_init__(self) -> None:
        object.__setattr__(self, "vector", _pair(self, "vector", self.vector))

    def assemble(self, mesh: Mesh, thickness: float, axisymmetric: bool = False) -> Load:
        group_of(mesh, self, "group", self.group, dimension=1)
        return Load(traction_load(mesh, self.group, self.vector, thickness=thickness, axisymmetric=axisymmetric),
                    self.function,
                    f"traction on {self.group}")


@dataclass(frozen=True)
class BodyForce:
    """A body force ``vector`` (N/m^3, global x and y) on a group of 2D cells:
    the weight of steel is ``BodyForce("PATIN", (0.0, -7000.0 * 9.81))``."""

    group: str
    vector: tuple[float, float]
    function: TimeFunction = field(default_factory=Constant)

    def __post_init__(self) -> None:
        object.__setattr__(self, "vector", _pair(self, "vector", self.vector))

    def assemble(self, mesh: Mesh, thickness: float, axisymmetric: bool = False) -> Load:
        blocks_of(mesh, self, "group", self.group, dimension=2)
        return Load(body_force_load(mesh, self.group, self.vector, thickness=thickness, axisymmetric=axisymmetric),
                    self.function,
                    f"body on {self.group}")


@dataclass(frozen=True)
class PointForce:
    """A force ``vector`` (N, global x and y) on every node of a group; on an axisymmetric
    body, the total force of the ring through the node (x radial, y axial).

    >>> from fem2d.model.timefunctions import Sine
    >>> PointForce("NO1", (1.0, 0.0), Sine(omega=10.0)).function(0.0)
    0.0
    """

    group: str
    vector: tuple[float, float]
    function: TimeFunction = field(default_factory=Constant)

    def __post_init__(self) -> None:
        object.__setattr__(self, "vector", _pair(self, "vector", self.vector))

    def assemble(self, mesh: Mesh, thickness: float, axisymmetric: bool = False) -> Load:
        nodes = nodes_of(mesh, self, "group", self.group)
        return Load(point_force_load(mesh.n_nodes, nodes, self.vector), self.function, f"force on {self.group}")


#: Any of the load types above.
ExternalLoad = Pressure | Traction | BodyForce | PointForce
