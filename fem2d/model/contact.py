"""Contact zones of a model: which surface touches which, with what friction and method.

A model holds any number of :class:`Contact` objects; each becomes one
geometric :class:`~fem2d.contact.problem.ContactZone` when the model is
assembled, and its ``method`` (a contact formulation object) solves that
zone's condensed problem ``d(p) = d_free + C p`` at every step (see
:mod:`fem2d.contact.problem`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from fem2d.errors import ModelError
from fem2d.mesh.mesh import Mesh
from fem2d.model.groups import group_of
from fem2d.model.timefunctions import Constant, TimeFunction
from fem2d.model.wear import Wear

if TYPE_CHECKING:
    from fem2d.contact.problem import ContactFormulation, ContactZone


@dataclass(frozen=True)
class RigidPlane:
    r"""A rigid plane (a line in 2D) as a contact master: through ``point``
    with outward unit ``normal`` (pointing to the slave body), moved rigidly
    by ``displacement * function(t)`` (m).

    It becomes one straight segment of two prescribed nodes far beyond the
    model (:func:`fem2d.contact.obstacles.plane_segment`), on which the
    search's gap is the exact signed distance to the plane.

    >>> RigidPlane((0.0, 0.0), (0.0, 1.0)).moving
    False
    >>> RigidPlane((0.0, 0.0), (0.0, 0.0))
    Traceback (most recent call last):
    ...
    fem2d.errors.ModelError: RigidPlane.normal: expected a non-zero vector, got (0.0, 0.0)
    """

    point: tuple[float, float]
    normal: tuple[float, float]
    displacement: tuple[float, float] = (0.0, 0.0)
    function: TimeFunction = field(default_factory=Constant)

    def __post_init__(self) -> None:
        for name in ("point", "normal", "displacement"):
            values = tuple(float(v) for v in getattr(self, name))
            if len(values) != 2 or not all(math.isfinite(v) for v in values):
                raise ModelError(self, name, f"expected two finite components, got {getattr(self, name)}")
            object.__setattr__(self, name, values)
        if not math.hypot(*self.normal) > 0:
            raise ModelError(self, "normal", f"expected a non-zero vector, got {self.normal}")

    @property
    def moving(self) -> bool:
        return any(self.displacement)

    def segment(self, extent: float) -> np.ndarray:
        """The two end points (2, 2) of the segment standing for the plane, ``extent`` from ``point``."""
        from fem2d.contact.obstacles import plane_segment

        return plane_segment(self.point, self.normal, extent)


@dataclass(frozen=True)
class RigidCircle:
    r"""A rigid disc (a circle in 2D) as a contact master: ``centre`` and
    ``radius`` (m), the slave body outside it, moved rigidly by
    ``displacement * function(t)`` (m).

    It becomes one prescribed node at the centre; the search measures the
    exact signed distance to the circle, :math:`g = |x - c| - R`, along the
    normal :math:`n = (x - c)/|x - c|`
    (:func:`fem2d.contact.search.project_on_circle`).

    >>> RigidCircle((0.0, -1.0), 1.0).moving
    False
    >>> RigidCircle((0.0, 0.0), 0.0)
    Traceback (most recent call last):
    ...
    fem2d.errors.ModelError: RigidCircle.radius: expected a finite radius > 0, got 0.0
    """

    centre: tuple[float, float]
    radius: float
    displacement: tuple[float, float] = (0.0, 0.0)
    function: TimeFunction = field(default_factory=Constant)

    def __post_init__(self) -> None:
        for name in ("centre", "displacement"):
            values = tuple(float(v) for v in getattr(self, name))
            if len(values) != 2 or not all(math.isfinite(v) for v in values):
                raise ModelError(self, name, f"expected two finite components, got {getattr(self, name)}")
            object.__setattr__(self, name, values)
        if not (isinstance(self.radius, int | float) and math.isfinite(self.radius) and self.radius > 0):
            raise ModelError(self, "radius", f"expected a finite radius > 0, got {self.radius!r}")

    @property
    def moving(self) -> bool:
        return any(self.displacement)


#: Rigid analytic obstacles a contact zone may take as its master.
RigidObstacle = RigidPlane | RigidCircle


@dataclass(frozen=True)
class Contact:
    """Frictional contact of a slave surface against a master surface.

    Parameters
    ----------
    slave : str
        Edge group (SEG2 / SEG3) of the slave surface: its nodes may not
        penetrate the master.
    master : str, RigidPlane or RigidCircle
        Edge group of the master surface, whose normal points away from the
        master body (oriented on the mesh, not on the edge order of the file),
        or a rigid plane or circle.
    mu : float
        Coulomb friction coefficient (>= 0).
    method : ContactFormulation, optional
        A contact formulation with its options:
        :class:`~fem2d.contact.lagrange.LagrangeFormulation` (the default,
        code_aster's discrete LAGRANGIEN),
        :class:`~fem2d.contact.penalty.PenaltyFormulation` or
        :class:`~fem2d.contact.continuous.ContinuousFormulation`. A penalty
        method without ``young_modulus`` takes the slave body's.
    name : str, optional
        Label of the zone in results (default ``"slave/master"``, ``"slave/plane"``, ``"slave/circle"``).
    wear : Wear, optional
        Archard wear of the zone's surface (:mod:`fem2d.model.wear`); a rigid master does not wear.

    Examples
    --------
    >>> zone = Contact("LESC", "LMAI", mu=0.3)
    >>> zone.label, zone.formulation().name
    ('LESC/LMAI', 'lagrange')
    >>> Contact("LESC", "LMAI", mu=-0.1)
    Traceback (most recent call last):
    ...
    fem2d.errors.ModelError: Contact.mu: expected a friction coefficient >= 0, got -0.1
    """

    slave: str
    master: str | RigidPlane | RigidCircle
    mu: float = 0.0
    method: ContactFormulation | None = None
    name: str = ""
    wear: Wear | None = None

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu) and self.mu >= 0):
            raise ModelError(self, "mu", f"expected a friction coefficient >= 0, got {self.mu!r}")
        if not isinstance(self.master, str | RigidPlane | RigidCircle):
            message = f"expected an edge group name, a RigidPlane or a RigidCircle, got {self.master!r}"
            raise ModelError(self, "master", message)
        if self.method is not None and not (hasattr(self.method, "solve") and hasattr(self.method, "initial_state")):
            raise ModelError(self, "method", f"expected a contact formulation object, got {self.method!r}")
        if self.wear is not None and not isinstance(self.wear, Wear):
            raise ModelError(self, "wear", f"expected a fem2d.Wear, got {self.wear!r}")
        if self.wear is not None and self.wear.master and isinstance(self.master, RigidPlane | RigidCircle):
            raise ModelError(self, "wear", f"surface = {self.wear.surface!r}: a rigid master does not wear "
                             "(wear the slave surface)")

    @property
    def label(self) -> str:
        master = {RigidPlane: "plane", RigidCircle: "circle"}.get(type(self.master), self.master)
        return self.name or f"{self.slave}/{master}"

    @property
    def obstacle_group(self) -> str:
        """The name of the mesh group that stands for a rigid obstacle master
        (a plane's segment, a circle's centre node)."""
        kind = "circle" if isinstance(self.master, RigidCircle) else "plane"
        return f"{self.name or self.slave}:{kind}"

    def formulation(self) -> ContactFormulation:
        """The method, Lagrange multipliers with default options when none was given."""
        if self.method is not None:
            return self.method
        from fem2d.contact.lagrange import LagrangeFormulation

        return LagrangeFormulation()

    def zone(self, mesh: Mesh, axisymmetric: bool = False) -> ContactZone:
        """The geometric zone: slave and master edges, boundary nodes, reference positions;
        ``axisymmetric`` for a model of solids of revolution (ring-area weights)."""
        from fem2d.contact.problem import make_zone
        from fem2d.contact.surface import orient_on_mesh

        slave = group_of(mesh, self, "slave", self.slave, dimension=1)
        radius = 0.0
        if isinstance(self.master, RigidPlane | RigidCircle):  # added to the mesh by Model.assemble
            master = mesh.group(self.obstacle_group)
            radius = self.master.radius if isinstance(self.master, RigidCircle) else 0.0
        else:
            master = orient_on_mesh(mesh, group_of(mesh, self, "master", self.master, dimension=1))
        mortar = getattr(self.formulation(), "discretization", "") == "mortar"
        return make_zone(mesh.points, slave, master, self.mu, name=self.label, master_radius=radius,
                         axisymmetric=axisymmetric, consistent=mortar)
