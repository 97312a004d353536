"""Reading and writing meshes through meshio (Gmsh .msh, VTU, MED, ...).

Groups travel as Gmsh physical groups (``gmsh:physical`` cell data plus
``field_data`` names) or, for formats without them, as meshio ``cell_sets``.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import numpy as np

from fem2d.errors import MeshError
from fem2d.mesh.mesh import CELL_DIMENSION, CELL_ORDER, CellBlock, Mesh
from fem2d.mesh.nodes import check_coordinates, check_node_ids, coincident_nodes_warning, gmsh_node_ids
from fem2d.mesh.orientation import counter_clockwise

#: our cell kind <-> meshio cell type (the node orderings agree).
MESHIO_TYPE = {
    "point": "vertex", "seg2": "line", "seg3": "line3", "tri3": "triangle", "tri6": "triangle6",
    "quad4": "quad", "quad8": "quad8", "quad9": "quad9",
}
KIND_OF_MESHIO = {v: k for k, v in MESHIO_TYPE.items()}


def to_meshio(mesh: Mesh):
    """A meshio.Mesh with one Gmsh physical group per group (a cell block per kind)."""
    import meshio

    cells, physical, field_data = [], [], {}
    for tag, name in enumerate(mesh.group_names(), start=1):
        for block in mesh.blocks(name):  # a group of several kinds: one physical group, a block per kind
            cells.append(meshio.CellBlock(MESHIO_TYPE[block.kind], block.nodes))
            physical.append(np.full(len(block), tag, dtype=int))
            field_data[name] = np.array([tag, block.dimension])
    points = np.column_stack([mesh.points, np.zeros(mesh.n_nodes)])
    return meshio.Mesh(
        points,
        cells,
        cell_data={"gmsh:physical": physical, "gmsh:geometrical": [p.copy() for p in physical]},
        field_data=field_data,
    )


def from_meshio(m, source: str = "<meshio>", ids: np.ndarray | None = None) -> Mesh:
    """Our Mesh from a meshio.Mesh carrying physical groups or cell sets; clockwise
    2D cells are turned counter-clockwise (:mod:`fem2d.mesh.orientation`).

    ``ids`` names meshio's points as the file does (Gmsh node ids: an id given twice
    is refused); nodes with a non-finite coordinate or off one plane z = const are
    refused, and distinct nodes of one body at the same place give a warning in
    :attr:`Mesh.warnings`.
    """
    points = np.asarray(m.points, dtype=float)
    if ids is None or len(ids) != len(points):
        ids = np.arange(len(points))
    else:
        check_node_ids(ids, points, source)
    groups = _groups(m, source)
    used = np.zeros(len(points), dtype=bool)
    for blocks in groups.values():
        for block in blocks:
            used[block.nodes.ravel()] = True
    check_coordinates(points, used, ids, source)
    merged, parts = {}, {}
    for name, blocks in groups.items():
        kinds = sorted({b.kind for b in blocks})
        if len(kinds) > 1 and len({CELL_ORDER.get(kind) for kind in kinds}) != 1:
            raise MeshError(f"{source}: group {name!r} mixes cell kinds {kinds}; a group holds 2D cells of one "
                            "order (tri3 with quad4, tri6 with quad8 or quad9), edges of one kind or points")
        for kind in kinds:
            key = name if len(kinds) == 1 else f"{name}[{kind}]"
            merged[key] = CellBlock(kind, np.vstack([b.nodes for b in blocks if b.kind == kind]))
        if len(kinds) > 1:
            parts[name] = tuple(f"{name}[{kind}]" for kind in kinds)
    mesh = counter_clockwise(_without_orphans(points[:, :2], merged, parts, source))[0]
    warning = coincident_nodes_warning(mesh)
    if warning:
        mesh.warnings.append(warning)
    return mesh


def _groups(m, source: str) -> dict[str, list[CellBlock]]:
    """The cells of each named group of a meshio.Mesh, as they come (one list per name)."""
    groups: dict[str, list[CellBlock]] = {}
    physical = m.cell_data.get("gmsh:physical")
    cell_sets = {name: sets for name, sets in m.cell_sets.items() if not name.startswith("gmsh:")}
    if physical is not None:
        name_of = {(int(v[1]), int(v[0])): k for k, v in m.field_data.items()}
        for block, tags in zip(m.cells, physical):
            kind = _kind(block.type, source)
            dim = CELL_DIMENSION[kind]
            for tag in np.unique(tags):
                name = name_of.get((dim, int(tag)), f"{dim}:{int(tag)}")
                groups.setdefault(name, []).append(CellBlock(kind, block.data[tags == tag]))
    elif cell_sets:
        for name, per_block in cell_sets.items():
            for block, ids in zip(m.cells, per_block):
                if ids is not None and len(ids):
                    groups.setdefault(name, []).append(CellBlock(_kind(block.type, source), block.data[ids]))
    elif "gmsh:geometrical" in m.cell_data or "gmsh:bounding_entities" in m.cell_sets:
        raise MeshError(f"{source} has no physical groups; define physical groups in gmsh for the bodies and the "
                        "edges used by supports, loads and contact")
    else:
        raise MeshError(f"{source}: the mesh has no physical groups or cell sets; fem2d needs named groups")
    return groups


def _without_orphans(points: np.ndarray, groups: dict[str, CellBlock], parts: dict[str, tuple[str, ...]],
                     source: str) -> Mesh:
    """The mesh without the points no group's cell uses (Gmsh keeps geometry
    points that no physical group holds), nodes renumbered in their order."""
    used = np.zeros(len(points), dtype=bool)
    for block in groups.values():
        used[block.nodes.ravel()] = True
    if used.all():
        return Mesh(points, groups, source, parts=parts)
    new = np.cumsum(used) - 1
    return Mesh(points[used], {k: CellBlock(b.kind, new[b.nodes]) for k, b in groups.items()}, source, parts=parts)


def _kind(meshio_type: str, source: str) -> str:
    try:
        return KIND_OF_MESHIO[meshio_type]
    except KeyError:
        raise MeshError(
            f"{source}: cell type {meshio_type!r} is not supported; expected one of {sorted(KIND_OF_MESHIO)}"
        ) from None


def read_mesh(path: str | os.PathLike) -> Mesh:
    """Read any meshio-readable file with named groups."""
    import meshio

    path = Path(path)
    if not path.is_file():
        raise MeshError(f"{path}: mesh file not found")
    said = io.StringIO()  # meshio prints its own complaint before it exits: it becomes part of our one line
    try:
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            m = meshio.read(path)
    except (Exception, SystemExit) as exc:  # meshio raises many kinds, and calls sys.exit on some files
        what = f"{type(exc).__name__}: {exc}" if not isinstance(exc, SystemExit) else "not a mesh meshio can read"
        if said.getvalue().strip():
            what = said.getvalue().strip().splitlines()[-1]
        raise MeshError(f"{path}: cannot read mesh ({' '.join(what.split())}); expected a meshio-readable mesh "
                        "file (.msh, .vtu, .med, ...)") from None
    return from_meshio(m, str(path), gmsh_node_ids(path) if path.suffix == ".msh" else None)


def write_mesh(mesh: Mesh, path: str | os.PathLike, file_format: str | None = None) -> None:
    """Write a mesh atomically; ``.msh`` files are Gmsh 2.2 ASCII (readable by Gmsh and meshio)."""
    import meshio

    path = Path(path)
    if file_format is None and path.suffix == ".msh":
        file_format = "gmsh22"
    tmp = path.with_name(path.name + ".tmp" + path.suffix)
    options = {"binary": False} if file_format == "gmsh22" else {}
    meshio.write(tmp, to_meshio(mesh), file_format=file_format, **options)
    os.replace(tmp, path)
