"""Mesh groups looked up on behalf of a model object, with errors naming the object."""

from __future__ import annotations

import numpy as np

from fem2d.errors import MeshError, ModelError
from fem2d.fe.assembly import sorted_unique
from fem2d.mesh.mesh import CellBlock, Mesh

_KINDS = {0: "nodes", 1: "edges", 2: "surface cells (tri3, tri6, quad4, quad8, quad9)"}


def group_of(mesh: Mesh, owner: object, field: str, name: str, dimension: int | None = None) -> CellBlock:
    """The cells of group ``name``; a missing group or one of the wrong
    dimension is a :class:`~fem2d.errors.ModelError` on ``owner.field``.

    >>> from fem2d.mesh import Mesh, CellBlock
    >>> from fem2d.model.supports import Support
    >>> mesh = Mesh(np.zeros((1, 2)), {"A": CellBlock("point", [[0]])})
    >>> group_of(mesh, Support("A"), "group", "A").kind
    'point'
    >>> group_of(mesh, Support("A"), "group", "A", dimension=1)
    Traceback (most recent call last):
    ...
    fem2d.errors.ModelError: Support('A').group: group 'A' holds point cells; expected edges
    """
    blocks = blocks_of(mesh, owner, field, name, dimension)
    if len(blocks) > 1:
        kinds = " and ".join(b.kind for b in blocks)
        raise ModelError(owner, field, f"group {name!r} holds {kinds} cells; expected cells of one kind")
    return blocks[0]


def blocks_of(mesh: Mesh, owner: object, field: str, name: str, dimension: int | None = None) -> list[CellBlock]:
    """The cells of group ``name``, one block per kind (several for a body meshed with
    triangles and quadrangles, :attr:`Mesh.parts`); errors as :func:`group_of`'s."""
    try:
        blocks = mesh.blocks(name)
    except MeshError as exc:
        raise ModelError(owner, field, str(exc)) from None
    if dimension is not None and blocks[0].dimension != dimension:
        kinds = " and ".join(b.kind for b in blocks)
        raise ModelError(owner, field, f"group {name!r} holds {kinds} cells; expected {_KINDS[dimension]}")
    return blocks


def nodes_of(mesh: Mesh, owner: object, field: str, name: str) -> np.ndarray:
    """The distinct nodes of group ``name``, sorted (by one sort: ``np.unique`` of NumPy 2.x
    imports ``numpy.ma``, 17 ms of a small modal run's process)."""
    return sorted_unique(np.concatenate([b.nodes.ravel() for b in blocks_of(mesh, owner, field, name)]))
