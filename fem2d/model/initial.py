"""Initial conditions: a displacement and a velocity given on the nodes of a group."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fem2d.errors import ModelError
from fem2d.mesh.mesh import Mesh
from fem2d.model.groups import nodes_of


@dataclass(frozen=True)
class InitialCondition:
    """Velocity ``(vx, vy)`` (m/s) and displacement ``(ux, uy)`` (m) of every
    node of ``group`` at t = 0 (zero elsewhere). Later entries win on shared nodes.

    >>> InitialCondition("BLOCK", velocity=(1.0, 0.0)).displacement
    (0.0, 0.0)
    """

    group: str
    velocity: tuple[float, float] = (0.0, 0.0)
    displacement: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        for name, unit in (("velocity", "m/s"), ("displacement", "m")):
            given = tuple(getattr(self, name))
            values = tuple(float(v) for v in given)
            if len(values) != 2 or not all(np.isfinite(values)):
                raise ModelError(self, name, f"expected two finite components ({unit}), got {given}")
            object.__setattr__(self, name, values)

    def apply(self, mesh: Mesh, velocity: np.ndarray, displacement: np.ndarray) -> None:
        """Write this condition into ``velocity`` and ``displacement`` (all dofs, interleaved)."""
        nodes = nodes_of(mesh, self, "group", self.group)
        for c in range(2):
            velocity[2 * nodes + c] = self.velocity[c]
            displacement[2 * nodes + c] = self.displacement[c]
