"""The contact problem of one time step, condensed on the contact boundary.

This is the contract between the time integrator and the contact
formulations (``lagrange``, ``penalty``, ``continuous``). The integrator owns
the factorised effective stiffness ``K_eff`` of the free dofs; contact only
touches the *boundary*: the slave and master nodes of the contact zone. At the
end of the step the boundary displacement is affine in the boundary nodal
forces ``p`` (forces applied by contact on the boundary nodes)::

    d(p) = d_free + C @ p            (flattened, interleaved x, y per node)

with ``d_free`` the boundary displacement the step would give without contact
and ``C = S K_eff^{-1} S^T`` the boundary compliance (the Delassus operator
before projection on normals and tangents). Rows and columns of ``C`` on
constrained dofs are zero, and ``d_free`` holds their prescribed values, so a
rigid master is just a boundary whose dofs do not move.

A formulation solves the nonsmooth problem "find p such that the contact and
friction laws hold at d(p)" by its own Newton / active-set loop on these small
dense arrays, and never touches the full system; the integrator then expands
``p`` to the free dofs (:mod:`fem2d.dynamics.condensation`). Nothing here depends on how ``C`` was
computed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from fem2d.contact.workspace import ContactWorkspace
from fem2d.mesh.mesh import CellBlock

#: Contact status of a slave node.
OPEN, STICK, SLIP = 0, 1, 2


@dataclass(frozen=True)
class ContactZone:
    r"""One slave surface against one master surface, with Coulomb friction.

    ``boundary_nodes`` lists the mesh nodes that carry boundary dofs: the
    slave nodes first (in ``slave_nodes`` order), then the master nodes not
    already listed. ``slave_edges`` and ``master_edges`` hold SEG2/SEG3 cells
    in *mesh* node ids; ``slave_local`` / ``master_local`` are the same cells
    in *boundary* numbering (index into ``boundary_nodes``).
    ``reference`` holds the reference coordinates of the boundary nodes.
    A rigid circle master is one POINT cell, its centre node, with
    ``master_radius`` > 0 (0 for edge masters). ``axisymmetric``: the
    slave surface is the meridian of a surface of revolution (x the radius),
    its integration weights are ring areas :math:`\int \phi_j\, 2\pi r\, ds`
    (:func:`fem2d.contact.kinematics.slave_weights`). ``consistent``: the slave nodal forces
    are the consistent nodal forces of a pressure field, :math:`F_j = \sum_k M_{jk} p_k`
    (mortar contact), so the pressure is recovered by solving with the surface matrix M
    (:func:`fem2d.post.pressure.zone_pressure`).
    """

    slave_nodes: np.ndarray
    boundary_nodes: np.ndarray
    slave_edges: CellBlock
    master_edges: CellBlock
    slave_local: np.ndarray
    master_local: np.ndarray
    reference: np.ndarray
    mu: float
    name: str = "zone"
    master_radius: float = 0.0
    axisymmetric: bool = False
    consistent: bool = False

    @property
    def n_slave(self) -> int:
        return len(self.slave_nodes)

    @property
    def n_boundary(self) -> int:
        return len(self.boundary_nodes)


def make_zone(
    points: np.ndarray,
    slave_edges: CellBlock,
    master_edges: CellBlock,
    mu: float,
    name: str = "zone",
    master_radius: float = 0.0,
    axisymmetric: bool = False,
    consistent: bool = False,
) -> ContactZone:
    """Build a :class:`ContactZone` from the mesh coordinates and the two edge
    groups (or, for a rigid circle master, its centre node as a POINT cell and
    its ``master_radius``); ``axisymmetric`` for the meridian of a surface of revolution;
    ``consistent`` for forces that are a pressure field's consistent nodal forces (mortar)."""
    slave_nodes = np.unique(slave_edges.nodes)
    master_nodes = np.unique(master_edges.nodes)
    extra = master_nodes[~np.isin(master_nodes, slave_nodes)]
    boundary = np.concatenate([slave_nodes, extra])
    local = np.full(int(max(boundary.max(), slave_edges.nodes.max(), master_edges.nodes.max())) + 1, -1)
    local[boundary] = np.arange(len(boundary))
    return ContactZone(
        slave_nodes=slave_nodes,
        boundary_nodes=boundary,
        slave_edges=slave_edges,
        master_edges=master_edges,
        slave_local=local[slave_edges.nodes],
        master_local=local[master_edges.nodes],
        reference=np.asarray(points, dtype=float)[boundary],
        mu=float(mu),
        name=name,
        master_radius=float(master_radius),
        axisymmetric=bool(axisymmetric),
        consistent=bool(consistent),
    )


@dataclass
class CondensedProblem:
    """Data of one step's contact problem (see the module docstring).

    ``d_start`` is the boundary displacement at the start of the step (for
    slip increments), ``d_free`` and ``compliance`` define d(p). ``dt`` is
    the step size (for rates). All boundary vectors are (n_boundary, 2).
    ``workspace`` is what the zone's solves keep between steps (its
    coupling's; a fresh one by default). ``velocity_level``: a slave node
    closed or penetrated at the start of the step (gap g0 <= 0) keeps that
    gap, its condition is g(d) - g0 >= 0 (Moreau's velocity-level law,
    :class:`~fem2d.dynamics.moreau.MoreauJean`; the kinematics subtract
    min(g0, 0) from the gap). ``gap_offset`` (n_slave,), m: added to the gap of
    every slave node (the worn depth of an Archard wear that moves the surface
    along its normal, :mod:`fem2d.contact.archard`); None for none.
    """

    zone: ContactZone
    d_start: np.ndarray
    d_free: np.ndarray
    compliance: np.ndarray
    dt: float
    workspace: ContactWorkspace = field(default_factory=ContactWorkspace)
    velocity_level: bool = False
    #: a residual at which a stalled solve is accepted (0: only the formulation's tolerance): the
    #: accuracy to which the step around it solves its own equations (a Newton step's tolerance)
    acceptable: float = 0.0
    gap_offset: np.ndarray | None = None

    def displacement(self, p: np.ndarray) -> np.ndarray:
        """Boundary displacement (n_boundary, 2) produced by boundary forces p (n_boundary, 2)."""
        return self.d_free + (self.compliance @ p.ravel()).reshape(-1, 2)


@dataclass
class ContactSolution:
    """What a formulation returns for one step.

    ``forces``: contact forces on the boundary nodes (n_boundary, 2), in the
    global frame. Per slave node: ``normal_force`` (>= 0, compressive),
    ``tangential_force`` (signed along the master tangent), ``gap``
    (negative = penetration), ``status`` (OPEN, STICK, SLIP), ``slip`` (the
    tangential slip increment of the step). ``state`` is the formulation's
    history (stick anchors...) to hand back at the next step; ``iterations``
    counts its Newton / active-set iterations; ``converged`` and
    ``residual`` say how that loop ended; ``left_master`` flags slave nodes
    whose projection fell outside the master surface. ``parts`` holds the
    zones' own solutions when this one combines several zones
    (:func:`fem2d.dynamics.coupling.combined_solution`), else nothing.
    """

    forces: np.ndarray
    normal_force: np.ndarray
    tangential_force: np.ndarray
    gap: np.ndarray
    status: np.ndarray
    slip: np.ndarray
    state: Any
    iterations: int
    converged: bool
    residual: float
    left_master: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    parts: tuple[ContactSolution, ...] = ()


class ContactFormulation(Protocol):
    """What the time integrator needs from a contact formulation."""

    name: str

    def initial_state(self, zone: ContactZone) -> Any:
        """History at t = 0 (everything open or stuck at the reference position)."""

    def solve(self, problem: CondensedProblem, state: Any) -> ContactSolution:
        """Solve the contact problem of one step, starting from ``state``."""
