r"""The internal force of bodies that turn or stretch: ``"corotational"`` and ``"finite"`` bodies.

A system keeps the small-strain stiffness :math:`K` of every body (its frequencies,
the linear part of each step, the first tangent of Newton's iterations). The
bodies whose kinematics are not ``"small"`` add the *remainder* of their internal
force over its linearisation at the reference shape,

.. math::

    g(u) = f_{int}(u) - K_{nl}\, u ,

with :math:`K_{nl}` their part of :math:`K`. The total internal force is then
:math:`K u + g(u)` and its tangent :math:`K + \partial g / \partial u`. A small
body contributes nothing to :math:`g`, so a model of small bodies steps as it always
did, factorising once.

:class:`NonlinearBodies` evaluates :math:`g`, its tangent and the bodies' strain
energy :math:`W(u)` for a displacement of all dofs, vectorised over each body's
cells (:func:`fem2d.fe.corotational_kernel.corotational_remainder`, compiled, the equations of
:func:`fem2d.fe.corotational.corotational_cells`; :func:`fem2d.fe.hyperelastic.hyperelastic_cells`;
:func:`fem2d.fe.axisymmetric_hyperelastic.axisymmetric_hyperelastic_cells` for a solid of
revolution), and keeps the last evaluation:
the step's last Newton iteration and the history's energy both ask for the end of
step.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from fem2d.fe import node_dofs
from fem2d.fe.axisymmetric_fbar import axisymmetric_fbar_cells
from fem2d.fe.axisymmetric_hyperelastic import axisymmetric_hyperelastic_cells
from fem2d.fe.body_frame import BodyFrame
from fem2d.fe.corotational import corotational_frame
from fem2d.fe.corotational_kernel import corotational_remainder, shared_stiffness
from fem2d.fe.hyperelastic import hyperelastic_cells
from fem2d.fe.response import InvertedCells
from fem2d.mesh.mesh import CellBlock, Mesh
from fem2d.model.groups import blocks_of


@dataclass(frozen=True)
class BodyPart:
    """One cell kind of one nonlinear body: its cells, their dofs and their small-strain
    stiffness matrices."""

    body: object
    block: CellBlock
    dofs: np.ndarray
    stiffness: np.ndarray
    #: :func:`~fem2d.fe.corotational.corotational_frame` of a corotational body's cells (None otherwise)
    frame: tuple | None = None
    #: :func:`~fem2d.fe.corotational_kernel.shared_stiffness` of a corotational body's cells
    shared: tuple | None = None


@dataclass(frozen=True)
class FramePart:
    """A ``"corotational"`` body in its own frame (:mod:`fem2d.fe.body_frame`): the body, its
    :class:`~fem2d.fe.body_frame.BodyFrame` and its nodes' dofs (interleaved)."""

    body: object
    frame: BodyFrame
    dofs: np.ndarray


def frame_part(points: np.ndarray, body, blocks: list[CellBlock], stiffness: list[np.ndarray]) -> FramePart:
    """The :class:`FramePart` of ``body`` made of its cell ``blocks`` with their cells' ``stiffness``."""
    from fem2d.dynamics.rotation import _body_areas  # (the area shares a run's rotations are weighted by)

    nodes, weights = _body_areas(points, blocks)
    local = np.full(len(points), -1)
    local[nodes] = np.arange(len(nodes))
    k_blocks, dof_blocks, cells = [], [], []
    for block, k in zip(blocks, stiffness):
        cell_nodes = local[block.nodes]
        k_blocks.append(k)
        dof_blocks.append(node_dofs(cell_nodes))
        cells.append((cell_nodes, corotational_frame(points, block)[0]))
    from fem2d.fe import assemble_matrix

    K = assemble_matrix(k_blocks, dof_blocks, 2 * len(nodes)).tocsr()
    return FramePart(body, BodyFrame(points[nodes], weights, K, cells), node_dofs(nodes[:, None]).ravel())


@dataclass(frozen=True)
class Evaluation:
    """:class:`NonlinearBodies` at one displacement: the strain energy ``energy`` (J), the
    remainder ``remainder`` :math:`g(u)` on all dofs (N), when asked for, the tangent
    of the bodies' internal force ``tangent`` (CSR, all dofs, N/m), and ``linear_energy``,
    :math:`\tfrac12 u^T K_{nl} u` (J): these bodies' share of the small-strain energy of
    :math:`u`, which the system's :math:`K` holds and their own ``energy`` replaces (summed
    cell by cell on the cells' displacements about their mean, as the remainder)."""

    energy: float
    remainder: np.ndarray
    tangent: sp.csr_matrix | None
    linear_energy: float = 0.0
    #: per body in its own frame (:class:`FramePart`): the frame's angle and the largest rotation of a
    #: cell relative to it (rad)
    frames: tuple[tuple[float, float], ...] = ()


class NonlinearBodies:
    """The ``"corotational"`` and ``"finite"`` bodies of a model (see the module docstring).

    Parameters
    ----------
    mesh : Mesh
        The model's mesh (with its rigid obstacles' nodes: dofs are numbered on it).
    bodies : sequence of Body
        The model's bodies whose :attr:`~fem2d.model.bodies.Body.nonlinear` is true.
    n_dofs : int
        The system's dofs.
    """

    def __init__(self, mesh: Mesh, bodies, n_dofs: int) -> None:
        self.bodies = tuple(bodies)
        self.n_dofs = n_dofs
        self._points = np.asarray(mesh.points, dtype=float)[:, :2]
        parts, k_blocks, dof_blocks, frames = [], [], [], []
        for body in self.bodies:
            blocks = blocks_of(mesh, body, "group", body.group, dimension=2)
            if getattr(body, "frame", "element") == "body":
                stiffness = [body.cell_stiffness(self._points, block) for block in blocks]
                frames.append(frame_part(self._points, body, blocks, stiffness))
                k_blocks.extend(stiffness)
                dof_blocks.extend(node_dofs(block.nodes) for block in blocks)
                continue
            for block in blocks:
                k = body.cell_stiffness(self._points, block)
                dofs = node_dofs(block.nodes)
                frame, shared = None, None
                if body.kinematics == "corotational":
                    frame, shared = corotational_frame(self._points, block), shared_stiffness(k)
                parts.append(BodyPart(body, block, dofs, k, frame, shared))
                k_blocks.append(k)
                dof_blocks.append(dofs)
        self.parts = tuple(parts)
        #: the bodies in their own frame (:class:`FramePart`)
        self.frames = tuple(frames)
        from fem2d.fe import assemble_matrix

        #: :math:`K_{nl}`: the small-strain stiffness of these bodies (all dofs)
        self.linear = assemble_matrix(k_blocks, dof_blocks, n_dofs).tocsr()
        self._pattern = self._tangent_pattern([node_dofs(p.block.nodes) for p in self.parts])
        self._last: tuple[np.ndarray, Evaluation] | None = None
        #: evaluations made (each one pass over the bodies' cells)
        self.evaluations = 0

    def _tangent_pattern(self, dof_blocks: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """The (row, column) of every element-matrix entry, in the order the tangents are made."""
        if not dof_blocks:  # bodies in their own frame only
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        rows = [np.repeat(d, d.shape[1], axis=1).ravel() for d in dof_blocks]
        cols = [np.tile(d, (1, d.shape[1])).ravel() for d in dof_blocks]
        return np.concatenate(rows), np.concatenate(cols)

    def evaluate(self, u: np.ndarray, tangent: bool = False) -> Evaluation:
        r"""The energy, the remainder :math:`g(u) = f_{int}(u) - K_{nl} u` and (``tangent``) the
        tangent :math:`\partial f_{int} / \partial u` at the displacement ``u`` of all dofs.
        Raises :class:`~fem2d.fe.hyperelastic.InvertedCells` where a cell turns inside out."""
        last = self._last
        if last is not None and (last[1].tangent is not None or not tangent) and np.array_equal(last[0], u):
            return last[1]
        energy, linear_energy, force, values = 0.0, 0.0, np.zeros(self.n_dofs), []
        for part in self.parts:
            body = part.body
            if body.kinematics == "corotational":
                out = corotational_remainder(u, part.dofs, part.frame, part.shared[0], tangent, part.shared[1])
                if out.inverted:
                    raise InvertedCells(f"corotational: {out.inverted} cell(s) turned inside out (det F <= 0 at the "
                                        "centre); cut the step")
                cells, rest, cell_tangents, linear = out.energy, out.remainder, out.tangent, out.linear.sum()
            elif body.axisymmetric:  # the weight 2 pi R of the ring, no thickness
                kernel = axisymmetric_fbar_cells if body.volumetric == "bbar" else axisymmetric_hyperelastic_cells
                response = kernel(self._points, part.block, u, body.finite_law, body.E, body.nu, group=body.group,
                                  tangent=tangent)
            else:
                response = hyperelastic_cells(self._points, part.block, u, body.finite_law, body.E, body.nu,
                                              body.thickness, group=body.group, tangent=tangent,
                                              fbar=body.volumetric == "bbar",
                                              plane_stress=body.hypothesis == "plane_stress")
            if body.kinematics != "corotational":
                cells, cell_tangents = response.energy, response.tangent
                # the remainder cell by cell, on the cells' displacements about their mean: K u of a body
                # that has slid 15 m would carry a round-off of 1e-16 x 15 m x its stiffness
                # (of an axisymmetric body, about the mean along the axis only: a radial shift strains the hoop)
                ue = u[part.dofs].reshape(len(part.dofs), -1, 2)
                rigid = slice(1, 2) if body.axisymmetric else slice(0, 2)
                ue[..., rigid] -= ue[..., rigid].mean(axis=1, keepdims=True)
                ue = ue.reshape(len(part.dofs), -1)
                k_ue = (part.stiffness @ ue[..., None])[..., 0]
                rest = response.force - k_ue
                linear = 0.5 * np.einsum("ci,ci->", ue, k_ue)
            energy += float(cells.sum())
            linear_energy += float(linear)
            force += np.bincount(part.dofs.ravel(), rest.ravel(), minlength=self.n_dofs)
            if tangent:
                values.append(cell_tangents.ravel())
        frames = []
        for part in self.frames:
            try:
                out = part.frame.evaluate(u[part.dofs])
            except InvertedCells as exc:
                raise InvertedCells(f"group {part.body.group!r}: {exc}") from None
            energy += out.energy
            linear_energy += out.linear_energy
            force[part.dofs] += out.force - out.linear_force
            frames.append((out.theta, out.relative_rotation))
        self.evaluations += 1
        matrix = None
        if tangent:
            rows, cols = self._pattern
            values = np.concatenate(values) if values else np.zeros(0)
            matrix = sp.csr_matrix((values, (rows, cols)), shape=(self.n_dofs, self.n_dofs))
            for part, (theta, _) in zip(self.frames, frames):  # the rotated stiffness, no geometric terms
                K = part.frame.rotated_stiffness(theta).tocoo()
                matrix = matrix + sp.csr_matrix((K.data, (part.dofs[K.row], part.dofs[K.col])), matrix.shape)
        evaluation = Evaluation(energy, force, matrix, linear_energy, tuple(frames))
        self._last = (u.copy(), evaluation)
        return evaluation
