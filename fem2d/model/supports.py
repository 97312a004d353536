"""Supports: displacement components prescribed on the nodes of a group."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from fem2d.errors import ModelError
from fem2d.mesh.mesh import Mesh
from fem2d.model.groups import nodes_of
from fem2d.model.timefunctions import TimeFunction

#: Displacement components by name (code_aster's DX, DY) and their offset in a node's dofs.
COMPONENTS = {"dx": 0, "dy": 1}


@dataclass(frozen=True)
class Support:
    """Prescribed displacement ``value`` (m) of the ``components`` of every node of ``group``
    (code_aster's DDL_IMPO), times ``function(t)`` when one is given: a
    displacement history, lifted as :math:`-K_{fc} u_c(t)`, which is exact
    only for a massless body under the support (checked at assembly).

    Examples
    --------
    >>> Support("BATI").components
    ('dx', 'dy')
    >>> Support("R1", components=("dz",))
    Traceback (most recent call last):
    ...
    fem2d.errors.ModelError: Support('R1').components: expected a non-empty subset of ('dx', 'dy'), got ('dz',)
    """

    group: str
    components: tuple[str, ...] = ("dx", "dy")
    value: float = 0.0
    function: TimeFunction | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "components", tuple(self.components))
        if not self.components or any(c not in COMPONENTS for c in self.components):
            raise ModelError(self, "components", f"expected a non-empty subset of ('dx', 'dy'), got {self.components}")
        if not math.isfinite(self.value):
            raise ModelError(self, "value", f"expected a finite displacement (m), got {self.value!r}")

    def component_dofs(self, mesh: Mesh) -> list[np.ndarray]:
        """The prescribed dofs (interleaved numbering), one array per component."""
        nodes = nodes_of(mesh, self, "group", self.group)
        return [2 * nodes + COMPONENTS[c] for c in self.components]
