"""Checks of a mesh file's nodes before they become a 2D mesh.

meshio reads what a file says without judging it. A 2D mesh needs more:

* every node id given once (a Gmsh ``$Nodes`` section listing an id twice is
  read by meshio as the last of the two, another geometry: :func:`gmsh_node_ids`
  reads the ids themselves);
* finite coordinates;
* one plane ``z = const`` (a tilted surface would otherwise run as its
  projection on the xy-plane);
* and, as a warning, no two distinct nodes of one body at the same place (a
  body cut in two along a seam of unmerged nodes).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fem2d.errors import MeshError
from fem2d.mesh.mesh import Mesh

#: Two coordinates closer than this fraction of the mesh's extent are the same.
SAME_PLACE = 1e-9


def gmsh_node_ids(path: Path) -> np.ndarray | None:
    """The node ids of a Gmsh file in the order of its ``$Nodes`` section (the order of
    meshio's points), or None when the file is not a Gmsh 2.2 ASCII or 4.1 file (2.2
    binary files need ids 1..n in order: meshio checks them)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = data.find(b"$MeshFormat")
    start = data.find(b"$Nodes")
    end = data.find(b"$EndNodes", start)
    if head < 0 or start < 0 or end < 0:
        return None
    try:
        fmt = data[head:].split(b"\n", 2)[1].split()
        version, binary, size = fmt[0].decode(errors="replace"), fmt[1] == b"1", int(fmt[2])
        body = data[data.index(b"\n", start) + 1: end]
        if not binary and version.startswith("2"):
            tokens = body.split()
            return np.array(tokens[1: 1 + 4 * int(tokens[0]): 4], dtype=np.int64)
        if version.startswith("4.1"):
            return _ids41_binary(body, size) if binary else _ids41_ascii(body.split())
    except (ValueError, IndexError):
        return None  # meshio will say what is wrong with the file
    return None


def _ids41_ascii(tokens: list[bytes]) -> np.ndarray | None:
    n_blocks, pos, ids = int(tokens[0]), 4, []
    for _ in range(n_blocks):
        parametric, count = int(tokens[pos + 2]), int(tokens[pos + 3])
        if parametric:
            return None
        pos += 4
        ids.append(np.array(tokens[pos: pos + count], dtype=np.int64))
        pos += 4 * count  # the ids, then x y z of each node
    return np.concatenate(ids) if ids else np.zeros(0, dtype=np.int64)


def _ids41_binary(body: bytes, size: int) -> np.ndarray | None:
    size_t = np.dtype(f"<u{size}")
    n_blocks = int(np.frombuffer(body, size_t, 1)[0])
    pos, ids = 4 * size, []
    for _ in range(n_blocks):
        _dim, _tag, parametric = np.frombuffer(body, "<i4", 3, pos)
        count = int(np.frombuffer(body, size_t, 1, pos + 12)[0])
        if parametric:
            return None
        pos += 12 + size
        ids.append(np.frombuffer(body, size_t, count, pos).astype(np.int64))
        pos += count * size + 24 * count
    return np.concatenate(ids) if ids else np.zeros(0, dtype=np.int64)


def check_node_ids(ids: np.ndarray, points: np.ndarray, source: str) -> None:
    """Refuse a node id given twice, naming it and both of its coordinates."""
    unique, counts = np.unique(ids, return_counts=True)
    if len(unique) == len(ids):
        return
    first = int(np.argmax(counts > 1))
    twice = int(unique[first])
    where = [_xy(points[i]) for i in np.flatnonzero(ids == twice)[:2]]
    raise MeshError(f"{source}: node id {twice} is given {int(counts[first])} times in $Nodes (at {where[0]} and "
                    f"{where[1]}); expected each node id once")


def check_coordinates(points: np.ndarray, used: np.ndarray, ids: np.ndarray, source: str) -> None:
    """Refuse a non-finite coordinate and nodes off one plane ``z = const``
    (``points`` (n, 3) as read, ``used``: the nodes some cell holds, ``ids``: their names)."""
    bad = used & ~np.isfinite(points).all(axis=1)
    if bad.any():
        i = int(np.argmax(bad))
        raise MeshError(f"{source}: node {int(ids[i])} has a non-finite coordinate {_xy(points[i])}; expected "
                        "finite numbers")
    if points.shape[1] < 3 or not used.any():
        return
    z = points[used, 2]
    xy = points[used, :2]
    extent = max(float(np.ptp(xy[:, 0])), float(np.ptp(xy[:, 1])), float(np.ptp(z)), 1e-300)
    if np.ptp(z) > SAME_PLACE * extent:
        lo, hi = np.flatnonzero(used)[[np.argmin(z), np.argmax(z)]]
        raise MeshError(f"{source}: nodes have different z coordinates (node {int(ids[lo])} at z = {z.min():g}, "
                        f"node {int(ids[hi])} at z = {z.max():g}); a 2D mesh lies in a plane z = const")


def coincident_nodes_warning(mesh: Mesh) -> str | None:
    """A warning when two distinct nodes of one 2D group's cells lie at the same place
    (two bodies touching at coincident nodes are not warned about), or None."""
    points, source = mesh.points, mesh.source
    extent = max(float(np.ptp(points[:, 0])), float(np.ptp(points[:, 1])), 1e-300) if len(points) else 1.0
    pairs, first = 0, None
    for name in mesh.group_names():
        blocks = mesh.blocks(name)  # a body of triangles and quadrangles: all its cells
        if blocks[0].dimension != 2:
            continue
        nodes = mesh.group_nodes(name)
        keys = np.round(points[nodes] / (SAME_PLACE * extent)).astype(np.int64)
        _, inverse, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
        repeated = counts > 1
        if repeated.any():
            pairs += int(np.sum(counts[repeated] * (counts[repeated] - 1) // 2))
            if first is None:
                first = points[nodes[np.argmax(repeated[inverse.ravel()])]]
    if not pairs:
        return None
    return (f"{source}: {pairs} pair(s) of distinct nodes of one body at the same place (first at {_xy(first)}): "
            "the body is cut in two there; merge the duplicate nodes in the mesher (Gmsh: Coherence)")


def _xy(point: np.ndarray) -> str:
    return "(" + ", ".join(f"{float(c):g}" for c in point) + ")"
