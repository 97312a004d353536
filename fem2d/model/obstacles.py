"""Obstacles at nodes for the modal path (code_aster's CHOC on a GROUP_NO):
one penalty shock law per node of a group."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fem2d.errors import ModelError
from fem2d.mesh.mesh import Mesh
from fem2d.model.groups import nodes_of


@dataclass(frozen=True)
class NodalObstacle:
    """A rigid obstacle met by every node of ``group``, with a penalty shock law.

    Parameters
    ----------
    group : str
        Nodes that may hit the obstacle (one obstacle each).
    kind : {"plan_z", "plane"}
        A pair of planes at half clearance ``gap`` (code_aster's PLAN_Z) or one plane.
    normal, origin : (float, float)
        Obstacle normal (global frame) and origin (m).
    gap : float
        Half clearance (plan_z) or initial clearance (plane), m.
    kn, cn : float
        Normal penalty stiffness (N/m) and damping (N s/m).
    kt, ct : float
        Tangential stick stiffness (N/m) and damping (N s/m; None: code_aster's rule).
    mu, mu_static : float
        Dynamic and static Coulomb coefficients (``mu_static`` None: ``mu``).

    >>> NodalObstacle("NO1", gap=1e-3, kn=1e6).mu_static_value
    0.0
    """

    group: str
    kind: str = "plan_z"
    normal: tuple[float, float] = (0.0, 1.0)
    origin: tuple[float, float] = (0.0, 0.0)
    gap: float = 0.0
    kn: float = 0.0
    cn: float = 0.0
    kt: float = 0.0
    ct: float | None = None
    mu: float = 0.0
    mu_static: float | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("plan_z", "plane"):
            raise ModelError(self, "kind", f"expected 'plan_z' or 'plane', got {self.kind!r}")
        for name in ("kn", "cn", "kt", "mu"):
            if not getattr(self, name) >= 0:
                raise ModelError(self, name, f"expected a value >= 0, got {getattr(self, name)!r}")

    @property
    def mu_static_value(self) -> float:
        """The static coefficient (``mu`` when not given)."""
        return self.mu if self.mu_static is None else self.mu_static

    def nodes(self, mesh: Mesh) -> np.ndarray:
        """The nodes of the group, sorted."""
        return nodes_of(mesh, self, "group", self.group)
