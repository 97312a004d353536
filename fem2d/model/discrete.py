"""Discrete elements: two-node springs, springs to the ground and point masses
(code_aster's DIS_T on SEG2 and POI1)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from fem2d.errors import ModelError
from fem2d.fe import node_dofs, point_mass_matrices, point_spring_matrices, spring_matrices
from fem2d.mesh.mesh import Mesh
from fem2d.model.groups import group_of


def _non_negative(owner: object, name: str, value: float, unit: str) -> None:
    if not (math.isfinite(value) and value >= 0):
        raise ModelError(owner, name, f"expected a value >= 0 ({unit}), got {value!r}")


@dataclass(frozen=True)
class Spring:
    """A spring on every SEG2 cell of ``group``: stiffness ``k_axial`` (N/m)
    along node 1 -> node 2 and ``k_transverse`` across.

    >>> Spring("RESLAT", k_axial=12e3).k_transverse
    0.0
    """

    group: str
    k_axial: float
    k_transverse: float = 0.0

    def __post_init__(self) -> None:
        _non_negative(self, "k_axial", self.k_axial, "N/m")
        _non_negative(self, "k_transverse", self.k_transverse, "N/m")

    def element_matrices(self, mesh: Mesh) -> tuple[np.ndarray, np.ndarray]:
        """Element stiffness matrices and their dofs."""
        block = group_of(mesh, self, "group", self.group, dimension=1)
        if block.kind != "seg2":
            raise ModelError(self, "group", f"group {self.group!r} of {mesh.source} holds {block.kind} cells; "
                             "springs need seg2 cells")
        return spring_matrices(mesh.points, block, self.k_axial, self.k_transverse, self.group), node_dofs(block.nodes)


@dataclass(frozen=True)
class GroundSpring:
    """A spring from every node of ``group`` to the ground: ``stiffness`` (N/m) in x and y.

    >>> GroundSpring("NO1", (100.0, 0.0)).stiffness
    (100.0, 0.0)
    """

    group: str
    stiffness: tuple[float, float]

    def __post_init__(self) -> None:
        object.__setattr__(self, "stiffness", tuple(float(k) for k in self.stiffness))
        if len(self.stiffness) != 2:
            raise ModelError(self, "stiffness", f"expected (kx, ky), got {self.stiffness}")
        for k in self.stiffness:
            _non_negative(self, "stiffness", k, "N/m")

    def element_matrices(self, mesh: Mesh) -> tuple[np.ndarray, np.ndarray]:
        block = group_of(mesh, self, "group", self.group, dimension=0)
        return point_spring_matrices(block, *self.stiffness), node_dofs(block.nodes)


@dataclass(frozen=True)
class PointMass:
    """A point mass ``mass`` (kg) on every node of ``group``, in x and y.

    >>> PointMass("NO1", -1.0)
    Traceback (most recent call last):
    ...
    fem2d.errors.ModelError: PointMass('NO1').mass: expected a value >= 0 (kg), got -1.0
    """

    group: str
    mass: float

    def __post_init__(self) -> None:
        _non_negative(self, "mass", self.mass, "kg")

    def element_matrices(self, mesh: Mesh) -> tuple[np.ndarray, np.ndarray]:
        block = group_of(mesh, self, "group", self.group, dimension=0)
        return point_mass_matrices(block, self.mass), node_dofs(block.nodes)
