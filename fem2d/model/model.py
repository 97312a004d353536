"""A model composed of objects: mesh, bodies, supports, loads, discrete
elements, initial conditions and contact zones (code_aster's AFFE_MODELE,
AFFE_MATERIAU, AFFE_CARA_ELEM, AFFE_CHAR_MECA, DEFI_CONTACT; GetFEM's model
and bricks).

:meth:`Model.assemble` turns it into a :class:`~fem2d.model.system.System`:
every contribution vectorised over cells, COO -> CSR once (or dense, for a small
model on the modal path), dofs interleaved (2 per node).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from fem2d.errors import ModelError, expect_instance
from fem2d.fe import assemble_dense_matrix, assemble_matrix
from fem2d.mesh.mesh import CellBlock, Mesh
from fem2d.model.bodies import Body
from fem2d.model.contact import Contact, RigidCircle, RigidPlane
from fem2d.model.discrete import GroundSpring, PointMass, Spring
from fem2d.model.initial import InitialCondition
from fem2d.model.loads import ExternalLoad
from fem2d.model.supports import Support
from fem2d.model.system import Motion, System


@dataclass
class Model:
    """What the mesh carries, composed of objects.

    Parameters
    ----------
    mesh : Mesh
        A builder's mesh (:func:`fem2d.mesh.sliding_block`, :func:`fem2d.mesh.rectangle`)
        or one read from a file (:func:`fem2d.mesh.read_mesh`).
    bodies : sequence of Body
    supports : sequence of Support
    loads : sequence of Pressure, Traction, BodyForce or PointForce
    springs : sequence of Spring or GroundSpring
    masses : sequence of PointMass
    initial : sequence of InitialCondition
    contacts : sequence of Contact
        Each with an edge group, a :class:`RigidPlane` or a :class:`RigidCircle` as master.

    Examples
    --------
    A cantilever, fixed on the left, pulled down at the right end:

    >>> from fem2d.mesh import rectangle
    >>> from fem2d.model import Body, Model, Support, Traction
    >>> beam = Model(
    ...     rectangle(length=10.0, height=0.5, nx=20, ny=2),
    ...     bodies=[Body("BODY", E=2.1e11, nu=0.0, rho=7800.0, hypothesis="plane_stress")],
    ...     supports=[Support("LEFT")],
    ...     loads=[Traction("RIGHT", (0.0, -2e4))],
    ... )
    >>> system = beam.assemble()
    >>> system.n_dofs, len(system.fixed), round(float(system.force(0.0).sum()), 6)
    (126, 6, -10000.0)
    """

    mesh: Mesh
    bodies: Sequence[Body] = ()
    supports: Sequence[Support] = ()
    loads: Sequence[ExternalLoad] = ()
    springs: Sequence[Spring | GroundSpring] = ()
    masses: Sequence[PointMass] = ()
    initial: Sequence[InitialCondition] = ()
    contacts: Sequence[Contact] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        expect_instance(self, "mesh", self.mesh, Mesh, "a fem2d.mesh.Mesh (a builder's, or read_mesh(path))")
        for f in dataclasses.fields(self):
            if f.name != "mesh":
                expect_instance(self, f.name, getattr(self, f.name), list | tuple, "a list")

    def snapshot(self) -> Model:
        """A copy holding its own tuples of the same objects (and the same mesh): what a
        run's result keeps, so that a list of this model changed after the run
        (``model.loads[1] = ...``) does not change what the result says it ran."""
        lists = {f.name: tuple(getattr(self, f.name)) for f in dataclasses.fields(self) if f.name != "mesh"}
        return Model(self.mesh, **lists)

    def body_of(self, nodes: np.ndarray) -> Body | None:
        """The first body whose cells hold every node of ``nodes``, None if none does."""
        for body in self.bodies:
            if np.isin(nodes, self.mesh.group_nodes(body.group)).all():
                return body
        return None

    def thickness_of(self, load: ExternalLoad) -> float:
        """The thickness that integrates ``load``: the bodies' when they share
        one, else that of the body holding the load's group."""
        thicknesses = {body.thickness for body in self.bodies}
        if len(thicknesses) <= 1:
            return thicknesses.pop() if thicknesses else 1.0
        body = self.body_of(self.mesh.group_nodes(load.group))
        if body is None:
            raise ModelError(load, "group", f"group {load.group!r} lies on no single body; its thickness is unknown")
        return body.thickness

    def slave_body(self, contact: Contact) -> Body | None:
        """The body the zone's slave surface belongs to (None when no single one holds it)."""
        return self.body_of(self.mesh.group_nodes(contact.slave))

    def slave_modulus(self, contact: Contact) -> float:
        """Young's modulus of the body the slave surface belongs to (the
        stiffest body when no single one holds it; 0 without bodies)."""
        body = self.slave_body(contact)
        if body is not None:
            return body.E
        return max((b.E for b in self.bodies), default=0.0)

    def slave_thicknesses(self) -> list[float]:
        """Per contact zone, the thickness of the body its slave surface belongs to (m; 1
        when no single body holds it)."""
        return [body.thickness if (body := self.slave_body(c)) is not None else 1.0 for c in self.contacts]

    def volumetric_choices(self) -> tuple[list[str], list[str]]:
        """(notes, warnings) of the bodies' ``volumetric = "auto"``: what each took where its
        cells would lock, and where they are left to lock (:meth:`Body.volumetric_choices`)."""
        notes: list[str] = []
        warned: list[str] = []
        for body in self.bodies:
            said = body.volumetric_choices(self.mesh)
            notes += said[0]
            warned += said[1]
        return notes, warned

    @property
    def n_dofs(self) -> int:
        """Dofs of the assembled system: two per node of the mesh and of each rigid
        obstacle master (a plane's segment has two nodes, a circle one, its centre)."""
        obstacles = [c.master for c in self.contacts if isinstance(c.master, RigidPlane | RigidCircle)]
        return 2 * (self.mesh.n_nodes + sum(2 if isinstance(o, RigidPlane) else 1 for o in obstacles))

    def assemble(self, dense: bool = False, inertia: bool = True) -> System:
        """The matrices, prescribed dofs and motions, load vectors, initial state and contact zones.

        Parameters
        ----------
        dense : bool
            Assemble dense ndarrays (:func:`~fem2d.fe.assemble_dense_matrix`, NumPy only) instead
            of CSR matrices: for a small model whose solver works on dense matrices anyway
            (the modal basis of a few hundred dofs, :class:`~fem2d.runs.modal.ModalAnalysis`).
            The direct and static paths take the default, CSR.
        inertia : bool
            Whether the system is integrated in time (the direct path: every free dof needs mass,
            and a displacement history needs a massless body, since it is lifted as
            :math:`-K_{fc} u_c(t)` without the inertia :math:`-M_{fc} \\ddot u_c`). A static run has
            no inertia (False): no density needed, and a displacement history on any body is exact.
        """
        axis_dofs = self._check_axisymmetric()
        axisymmetric = axis_dofs is not None
        mesh, plane_dofs, plane_motions = self._with_rigid_obstacles()
        n_dofs = 2 * mesh.n_nodes
        if dense:
            assemble_global = assemble_dense_matrix
            empty = np.zeros((n_dofs, n_dofs))
        else:
            import scipy.sparse as sp  # here: a densely assembled model runs without scipy

            assemble_global = assemble_matrix
            empty = sp.csr_matrix((n_dofs, n_dofs))

        k_blocks, m_blocks, dof_blocks = [], [], []
        c_blocks, c_dofs = [], []
        for body in self.bodies:
            for k, m, dofs in body.element_matrices(mesh):
                k_blocks.append(k)
                m_blocks.append(m)
                dof_blocks.append(dofs)
                a_m, a_k = body.rayleigh
                if a_m or a_k:
                    c_blocks.append(a_m * m + a_k * k)
                    c_dofs.append(dofs)
        K_body = assemble_global(k_blocks, dof_blocks, n_dofs) if k_blocks else empty
        M = assemble_global(m_blocks, dof_blocks, n_dofs) if m_blocks else empty
        C = assemble_global(c_blocks, c_dofs, n_dofs) if c_blocks else None

        springs = [spring.element_matrices(mesh) for spring in self.springs]
        K_springs = assemble_global([k for k, _ in springs], [d for _, d in springs], n_dofs) if springs else empty
        masses = [mass.element_matrices(mesh) for mass in self.masses]
        if masses:
            M = M + assemble_global([m for m, _ in masses], [d for _, d in masses], n_dofs)

        fixed_dofs, fixed_values, motions = [], [], []
        for support in self.supports:
            for dofs in support.component_dofs(mesh):
                fixed_dofs.append(dofs)
                if support.function is None:
                    fixed_values.append(np.full(len(dofs), float(support.value)))
                else:
                    fixed_values.append(np.zeros(len(dofs)))
                    values = np.full(len(dofs), float(support.value))
                    motions.append(Motion(dofs, values, support.function, f"support {support.group}"))
        for dofs in plane_dofs:
            fixed_dofs.append(dofs)
            fixed_values.append(np.zeros(len(dofs)))
        if axisymmetric:  # after the supports: a user's support of the same dof comes first
            fixed_dofs.append(axis_dofs)
            fixed_values.append(np.zeros(len(axis_dofs)))
        motions += plane_motions
        fixed = np.concatenate(fixed_dofs) if fixed_dofs else np.zeros(0, dtype=np.int64)
        values = np.concatenate(fixed_values) if fixed_values else np.zeros(0)
        fixed, first = np.unique(fixed, return_index=True)  # the first support of a dof wins

        loads = [load.assemble(mesh, self.thickness_of(load), axisymmetric) for load in self.loads]

        initial_velocity = initial_displacement = None
        if self.initial:
            initial_velocity, initial_displacement = np.zeros(n_dofs), np.zeros(n_dofs)
            for condition in self.initial:
                condition.apply(mesh, initial_velocity, initial_displacement)
            if not np.any(initial_displacement):
                initial_displacement = None

        labels: dict[str, Contact] = {}
        for contact in self.contacts:
            if contact.label in labels:
                raise ModelError(contact, "name", f"zone name {contact.label!r} is another zone's too")
            labels[contact.label] = contact

        K = K_body + K_springs
        if not dense:
            K, M, K_springs = K.tocsr(), M.tocsr(), K_springs.tocsr()
        system = System(
            mesh=mesh,
            K=K,
            M=M,
            K_springs=K_springs,
            fixed=fixed,
            fixed_values=values[first],
            loads=loads,
            C=C,
            initial_velocity=initial_velocity,
            initial_displacement=initial_displacement,
            motions=motions,
            zones=[contact.zone(mesh, axisymmetric) for contact in self.contacts],
        )
        nonlinear = [body for body in self.bodies if body.nonlinear]
        if nonlinear:
            if dense:
                raise ModelError(nonlinear[0], "kinematics", f"{nonlinear[0].kinematics!r} bodies need the direct "
                                                             "or static path (a modal basis is linear)")
            from fem2d.model.internal import NonlinearBodies

            system.nonlinear = NonlinearBodies(mesh, nonlinear, n_dofs)
        if inertia:
            self._check_free_mass(system)
            self._check_motions(system)
        return system

    def _check_axisymmetric(self) -> np.ndarray | None:
        """For axisymmetric bodies, the u_r (dx) dofs of their nodes on the axis, held at 0
        (the hoop strain u_r / r needs u_r = 0 there); None for a plane model. The bodies are
        all axisymmetric or none (ModelError on the first whose hypothesis differs), with no
        node at r < 0, and no continuous (weak) contact method (node-to-segment contact and
        rigid obstacles take the ring areas 2 pi r ds, :func:`fem2d.contact.kinematics.slave_weights`)."""
        kinds = [body.axisymmetric for body in self.bodies]
        if not any(kinds):
            return None
        axis = []
        for body in self.bodies:
            if not body.axisymmetric:
                raise ModelError(body, "hypothesis", f"{body.hypothesis!r} beside axisymmetric bodies: a model is "
                                                     "axisymmetric or plane, not both")
            axis.append(2 * body.axis_nodes(self.mesh))
        for contact in self.contacts:
            method = contact.formulation()
            if method.name == "continuous" and getattr(method, "discretization", "") != "mortar":
                raise ModelError(contact, "method", "the continuous contact method is available with "
                                                    "axisymmetric bodies on the mortar discretization only: give it "
                                                    "discretization = 'mortar', or use 'lagrange' or 'penalty'")
        return np.unique(np.concatenate(axis))

    def _with_rigid_obstacles(self) -> tuple[Mesh, list[np.ndarray], list[Motion]]:
        """The mesh with the prescribed nodes of every rigid obstacle master
        (group :attr:`Contact.obstacle_group`): a two-node segment for a plane,
        the centre node for a circle; the dofs of those nodes and the motions
        of the moving obstacles."""
        obstacles = [c for c in self.contacts if isinstance(c.master, RigidPlane | RigidCircle)]
        if not obstacles:
            return self.mesh, [], []
        from fem2d.contact.obstacles import plane_extent

        extent = plane_extent(self.mesh.points)
        points, groups = [self.mesh.points], dict(self.mesh.groups)
        dofs_list, motions = [], []
        n = self.mesh.n_nodes
        for contact in obstacles:
            obstacle = contact.master
            if isinstance(obstacle, RigidPlane):
                groups[contact.obstacle_group] = CellBlock("seg2", [[n, n + 1]])
                points.append(obstacle.segment(extent))
            else:
                groups[contact.obstacle_group] = CellBlock("point", [[n]])
                points.append(np.array([obstacle.centre]))
            n_new = len(points[-1])
            dofs = np.arange(2 * n, 2 * (n + n_new))
            dofs_list.append(dofs)
            if obstacle.moving:
                values = np.tile(obstacle.displacement, n_new)
                kind = "plane" if isinstance(obstacle, RigidPlane) else "circle"
                motions.append(Motion(dofs, values, obstacle.function, f"{kind} of {contact.obstacle_group}"))
            n += n_new
        return replace(self.mesh, points=np.vstack(points), groups=groups), dofs_list, motions

    def _check_motions(self, system: System) -> None:
        """A displacement history on a support is lifted as -K_fc u_c(t): exact
        only when the moving dofs carry no mass coupled to the free dofs."""
        for support in self.supports:
            if support.function is None:
                continue
            dofs = np.concatenate(support.component_dofs(system.mesh))
            coupled = system.M[dofs][:, system.free]
            entries = coupled if system.dense else coupled.data  # the stored entries of a CSR block
            if entries.size and np.abs(entries).max() > 0.0:
                raise ModelError(
                    support, "function", f"a displacement history needs a massless body under {support.group!r} "
                    "(rho = 0 there)"
                )

    def _check_free_mass(self, system: System) -> None:
        """Every free dof needs mass for dynamics (else M is singular)."""
        massless = np.flatnonzero(system.M_free.diagonal() <= 0)
        if len(massless):
            nodes = np.unique(system.free[massless] // 2)
            raise ModelError(
                self, "bodies", f"nodes {nodes[:10].tolist()} have free dofs but no mass; "
                "give their body a density, a point mass, or a support"
            )
