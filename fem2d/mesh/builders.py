"""Gmsh-API builders of the structured meshes used by the cases.

Each builder opens its own Gmsh model, meshes it with transfinite (mapped)
quadrangles (QUAD4, QUAD8, QUAD9) or triangles (TRI3, TRI6: each mapped
quadrangle cut along a diagonal), reads the nodes and physical groups back into a :class:`Mesh`
and closes Gmsh again, so that builders can be called from any thread or
worker process.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator

import numpy as np

from fem2d.errors import MeshError
from fem2d.mesh.limits import check_cells, check_coordinate, check_length
from fem2d.mesh.mesh import NODES_PER_CELL, SURFACE_KINDS, CellBlock, Mesh, compact
from fem2d.mesh.orientation import counter_clockwise


def _counter_clockwise(mesh: Mesh) -> Mesh:
    """Every 2D cell counter-clockwise (Gmsh may list a surface's cells either way round)."""
    return counter_clockwise(mesh)[0]

#: Gmsh element type number -> our cell kind.
GMSH_KIND = {15: "point", 1: "seg2", 8: "seg3", 2: "tri3", 9: "tri6", 3: "quad4", 16: "quad8", 10: "quad9"}

_GMSH_LOCK = threading.Lock()  # Gmsh holds one global model per process


class GmshUnavailableError(MeshError):
    """The builders need the gmsh package, which failed to load (``detail`` says how)."""

    def __init__(self, source: str, detail: str) -> None:
        self.detail = detail
        super().__init__(f"{source}: the mesh builders need the gmsh package, which failed to load ({detail}); "
                         "expected pip install gmsh")


def _gmsh(source: str = "builder"):
    try:
        import gmsh  # imported lazily: loading the Gmsh library costs ~0.1 s
    except (ImportError, OSError) as exc:  # a missing package or a shared library that fails to load
        raise GmshUnavailableError(source, " ".join(str(exc).split())) from None
    return gmsh


@contextlib.contextmanager
def _signal_handlers_kept() -> Iterator[None]:
    """Gmsh installs its own C-level handlers (a SIGTERM then kills the process on the
    spot, skipping the cleanup of staged outputs): put Python's back afterwards."""
    names = ("SIGINT", "SIGTERM", "SIGHUP")
    kept = {}
    if threading.current_thread() is threading.main_thread():  # only there can handlers be set
        kept = {sig: signal.getsignal(sig) for name in names if (sig := getattr(signal, name, None)) is not None}
    try:
        yield
    finally:
        for sig, handler in kept.items():
            if handler is not None:
                signal.signal(sig, handler)


def _mesh_with_gmsh(build: Callable, element: str, source: str) -> Mesh:
    """Run ``build(gmsh)`` (geometry and physical groups), mesh, read back.

    Quadrangles come from recombining every surface; second-order cells from
    ``setOrder(2)`` (incomplete, i.e. serendipity, for QUAD8)."""
    if element not in SURFACE_KINDS:
        raise MeshError(f"{source}: element must be one of {', '.join(SURFACE_KINDS)}, got {element!r}")
    gmsh = _gmsh(source)
    with _GMSH_LOCK, _signal_handlers_kept():
        gmsh.initialize(readConfigFiles=False, interruptible=False)
        try:
            gmsh.option.setNumber("General.Terminal", 0)
            gmsh.model.add(source)
            build(gmsh)
            gmsh.model.geo.synchronize()
            if element.startswith("quad"):
                for _, surface in gmsh.model.getEntities(2):
                    gmsh.model.mesh.setRecombine(2, surface)
            gmsh.model.mesh.generate(2)
            if element in ("quad8", "quad9", "tri6"):
                gmsh.option.setNumber("Mesh.SecondOrderIncomplete", int(element == "quad8"))
                gmsh.model.mesh.setOrder(2)
            return _read_gmsh_model(gmsh, source)
        except Exception as exc:
            if type(exc) is not Exception:  # gmsh raises bare Exceptions; ours and Python's pass through
                raise
            raise MeshError(f"{source}: gmsh could not mesh it ({' '.join(str(exc).split()) or 'no reason given'})"
                            ) from None
        finally:
            gmsh.finalize()


def _read_gmsh_model(gmsh, source: str) -> Mesh:
    """Nodes and physical groups of the current Gmsh model as a Mesh."""
    tags, xyz, _ = gmsh.model.mesh.getNodes()
    index = np.full(int(tags.max()) + 1, -1, dtype=np.int64)
    index[tags.astype(np.int64)] = np.arange(len(tags))
    # Gmsh's transfinite points carry ~1e-12 of round-off; snap them so that
    # grid nodes sit exactly on x = 0.2, y = 0 etc. (exact gaps, exact loads)
    points = np.round(xyz.reshape(-1, 3)[:, :2], 12)
    groups: dict[str, CellBlock] = {}
    for dim, ptag in gmsh.model.getPhysicalGroups():
        name = gmsh.model.getPhysicalName(dim, ptag)
        conns, kinds = [], set()
        for entity in gmsh.model.getEntitiesForPhysicalGroup(dim, ptag):
            if dim == 0:
                node_tags, _, _ = gmsh.model.mesh.getNodes(0, int(entity))
                kinds.add("point")
                conns.append(index[node_tags.astype(np.int64)].reshape(-1, 1))
                continue
            types, _, node_tags = gmsh.model.mesh.getElements(dim, int(entity))
            for etype, ntags in zip(types, node_tags):
                kind = GMSH_KIND[int(etype)]
                kinds.add(kind)
                conns.append(index[ntags.astype(np.int64)].reshape(-1, NODES_PER_CELL[kind]))
        if len(kinds) != 1:
            raise MeshError(f"{source}: group {name!r} mixes cell kinds {sorted(kinds)}")
        groups[name] = CellBlock(kinds.pop(), np.vstack(conns))
    return Mesh(points, groups, source)


def _structured_rectangle(gmsh, x0: float, y0: float, x1: float, y1: float, nx: int, ny: int):
    """A transfinite quadrangle patch; returns (corner points, edges, surface).

    Edges are numbered bottom, right, top, left; corners from (x0, y0)
    counter-clockwise.
    """
    geo = gmsh.model.geo
    corners = [geo.addPoint(x0, y0, 0), geo.addPoint(x1, y0, 0), geo.addPoint(x1, y1, 0), geo.addPoint(x0, y1, 0)]
    edges = [geo.addLine(corners[i], corners[(i + 1) % 4]) for i in range(4)]
    surface = geo.addPlaneSurface([geo.addCurveLoop(edges)])
    for edge, n in zip(edges, (nx, ny, nx, ny)):
        geo.mesh.setTransfiniteCurve(edge, n + 1)
    geo.mesh.setTransfiniteSurface(surface, cornerTags=corners)
    return corners, edges, surface


def _linear_edges(mesh: Mesh, names: tuple[str, ...]) -> Mesh:
    """Make the named groups straight two-node segments (discrete springs)."""
    for name in names:
        block = mesh.groups[name]
        if block.kind == "seg3":
            mesh.groups[name] = CellBlock("seg2", block.nodes[:, :2])
    return compact(mesh)


def sliding_block(
    element: str = "quad4",
    refine: int = 0,
    support_length: float = 20.0,
    block_width: float = 1.0,
    block_height: float = 1.0,
    block_cells: int | tuple[int, int] = 5,
    support_cells: int | tuple[int, int] = 1,
) -> Mesh:
    """The SDNV104 mesh: a block on a long support, two lateral springs.

    Defaults are code_aster's mesh at level 0: the block PATIN = [0,1]^2 in
    5 x 5 cells and the support BATI = [-0.1, 20] x [-0.1, 0] in one cell.
    Parameters: ``support_length`` (m, the support's right end; the block
    must not slide off it), ``block_width`` and ``block_height`` (m),
    ``block_cells`` and ``support_cells`` (cells along x and y, one number for
    both); each refinement level halves the cell size of both bodies.
    Groups, named as in code_aster's command file: PATIN, BATI (cells); LESC
    (block bottom, slave), LMAI (support top, master), FSUP (block top), FLAT
    (block left face) (edges); A = (0, 0), R1 = (w + 0.1, 0), R2 = (w + 0.1,
    h) (nodes); RESLAT (the two SEG2 springs from the block corners (w, 0)
    and (w, h) to R1 and R2).
    """
    if not isinstance(refine, int) or refine < 0 or refine > 8:
        raise MeshError(f"sliding_block: refine must be an integer in 0..8, got {refine!r}")
    counts = {}
    for name, value in (("block_cells", block_cells), ("support_cells", support_cells)):
        pair = (value, value) if isinstance(value, int) and not isinstance(value, bool) else value
        if (
            not isinstance(pair, tuple | list)
            or len(pair) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in pair)
        ):
            raise MeshError(f"sliding_block: {name} must be a positive integer or two, got {value!r}")
        counts[name] = (pair[0] * 2**refine, pair[1] * 2**refine)
    lengths = {"support_length": support_length, "block_width": block_width, "block_height": block_height}
    for name, value in lengths.items():
        check_length("sliding_block", name, value)
    (bx, by), (sx, sy) = counts["block_cells"], counts["support_cells"]
    check_cells("sliding_block", "block_cells and support_cells (with refine)", bx * by + sx * sy)
    if support_length <= block_width:
        raise MeshError(f"sliding_block: support_length = {support_length} m must exceed block_width = {block_width} m")
    w, h = float(block_width), float(block_height)

    def build(gmsh):
        geo = gmsh.model.geo
        corners, edges, block = _structured_rectangle(gmsh, 0.0, 0.0, w, h, bx, by)
        _, s_edges, support = _structured_rectangle(gmsh, -0.1, -0.1, float(support_length), 0.0, sx, sy)
        r1, r2 = geo.addPoint(w + 0.1, 0.0, 0.0), geo.addPoint(w + 0.1, h, 0.0)
        springs = [geo.addLine(corners[1], r1), geo.addLine(corners[2], r2)]
        for spring in springs:
            geo.mesh.setTransfiniteCurve(spring, 2)
        geo.synchronize()
        add = gmsh.model.addPhysicalGroup
        add(2, [block], name="PATIN")
        add(2, [support], name="BATI")
        add(1, [edges[0]], name="LESC")
        add(1, [s_edges[2]], name="LMAI")
        add(1, [edges[2]], name="FSUP")
        add(1, [edges[3]], name="FLAT")
        add(1, springs, name="RESLAT")
        add(0, [corners[0]], name="A")
        add(0, [r1], name="R1")
        add(0, [r2], name="R2")

    source = f"sliding_block(element={element!r}, refine={refine}, support_length={support_length})"
    mesh = _mesh_with_gmsh(build, element, source)
    return _counter_clockwise(_linear_edges(mesh, ("RESLAT",)))


def rectangle(
    length: float = 1.0,
    height: float = 1.0,
    nx: int = 1,
    ny: int = 1,
    element: str = "quad4",
    refine: int = 0,
    origin: tuple[float, float] = (0.0, 0.0),
) -> Mesh:
    """A structured rectangle of nx x ny cells (times 2**refine in each
    direction) with groups BODY, BOTTOM, RIGHT, TOP, LEFT, the corner nodes
    SW, SE, NE, NW and, when it is a node, the centre of the right edge, EAST
    (a cantilever, a patch-test domain...)."""
    length, height = check_length("rectangle", "length", length), check_length("rectangle", "height", height)
    for name, value in (("nx", nx), ("ny", ny)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise MeshError(f"rectangle: {name} must be an integer >= 1, got {value!r}")
    if not isinstance(refine, int) or not 0 <= refine <= 8:
        raise MeshError(f"rectangle: refine must be an integer in 0..8, got {refine!r}")
    nx, ny = nx * 2**refine, ny * 2**refine
    check_cells("rectangle", "nx and ny (with refine)", nx * ny)
    if not isinstance(origin, tuple | list) or len(origin) != 2:
        raise MeshError(f"rectangle: origin must be two coordinates (m), got {origin!r}")
    x0, y0 = (check_coordinate("rectangle", "origin", value) for value in origin)
    check_coordinate("rectangle", "origin", abs(x0) + length + abs(y0) + height)

    def build(gmsh):
        corners, edges, surface = _structured_rectangle(gmsh, x0, y0, x0 + length, y0 + height, nx, ny)
        gmsh.model.geo.synchronize()
        add = gmsh.model.addPhysicalGroup
        add(2, [surface], name="BODY")
        for edge, name in zip(edges, ("BOTTOM", "RIGHT", "TOP", "LEFT")):
            add(1, [edge], name=name)
        for corner, name in zip(corners, ("SW", "SE", "NE", "NW")):
            add(0, [corner], name=name)

    source = f"rectangle({length}x{height}, {nx}x{ny}, {element!r})"
    mesh = _counter_clockwise(_mesh_with_gmsh(build, element, source))
    east = np.flatnonzero(np.isclose(mesh.points[:, 0], x0 + length) & np.isclose(mesh.points[:, 1], y0 + height / 2))
    if len(east) == 1:
        mesh.groups["EAST"] = CellBlock("point", east)
    return mesh


def single_node(element: str = "quad4", refine: int = 0, x: float = 0.0, y: float = 0.0, name: str = "NO1") -> Mesh:
    """One node (group ``name``) for discrete models such as SDND104 and
    SDND101 (code_aster's single POI1 mesh); ``element`` and ``refine`` are
    accepted for uniformity and ignored."""
    x, y = check_coordinate("single_node", "x", x), check_coordinate("single_node", "y", y)
    return Mesh(np.array([[x, y]]), {name: CellBlock("point", np.array([[0]]))}, f"single_node({name})")


def bars(
    element: str = "quad4",
    refine: int = 0,
    lengths: tuple[float, ...] | list[float] = (1.0,),
    height: float = 0.05,
    cells: int = 20,
    gaps: tuple[float, ...] | list[float] = (),
    walls: str = "none",
    wall_gap: float = 0.0,
    vertical: bool = False,
) -> Mesh:
    """Bars in a row along x (along y with ``vertical``), with optional rigid walls.

    Bar i (from 1) spans ``[x_i, x_i + lengths[i-1]]`` with ``gaps`` between
    consecutive bars, one cell across the height and ``cells * 2**refine``
    cells per unit length along it. ``walls`` is ``"none"``, ``"start"`` (a
    wall before the first bar), ``"end"`` (after the last) or ``"both"``,
    ``wall_gap`` away; a wall is one cell of thickness ``height`` meant to be
    fixed. Groups: ``BARi`` (cells), ``BARi_START`` / ``BARi_END`` (the end
    faces at the lower / higher coordinate), ``BARi_S`` / ``BARi_E`` (the end
    nodes on the axis y = 0, x = 0 with ``vertical``), ``BARS`` (all bar cells),
    ``WALL_START`` / ``WALL_END`` (wall cells) and ``WALL_START_FACE`` /
    ``WALL_END_FACE`` (the faces that bars touch).

    The Signorini bar is ``bars(walls="end")``, two bars hitting each other
    ``bars(lengths=[1, 1])``, a bar dropped on the ground
    ``bars(walls="start", wall_gap=h, vertical=True)``.
    """
    if not isinstance(lengths, tuple | list) or not isinstance(gaps, tuple | list):
        raise MeshError(f"bars: lengths and gaps must be lists of lengths (m), got {lengths!r}, {gaps!r}")
    lengths = [check_length("bars", "lengths", x) for x in lengths]
    height = check_length("bars", "height", height)
    gaps = [check_coordinate("bars", "gaps", g) for g in gaps] or [0.0] * (len(lengths) - 1)
    wall_gap = check_coordinate("bars", "wall_gap", wall_gap)
    if not lengths or len(gaps) != len(lengths) - 1 or min(gaps, default=0) < 0:
        raise MeshError(f"bars: need positive lengths and height and one gap >= 0 between bars, got {lengths}, {gaps}")
    if walls not in ("none", "start", "end", "both") or wall_gap < 0:
        raise MeshError(f"bars: walls must be none, start, end or both and wall_gap >= 0, got {walls!r}, {wall_gap}")
    if not isinstance(cells, int) or cells < 1 or not isinstance(refine, int) or not 0 <= refine <= 8:
        raise MeshError(f"bars: cells must be a positive integer and refine in 0..8, got {cells}, {refine}")
    per_length = cells * 2**refine
    check_coordinate("bars", "lengths", sum(lengths) + sum(gaps) + wall_gap + 2 * height)
    check_cells("bars", "cells (per unit length, with refine)", sum(max(1, round(per_length * x)) for x in lengths))

    def build(gmsh):
        add, x = gmsh.model.addPhysicalGroup, 0.0
        pieces = []
        for i, length in enumerate(lengths, start=1):
            n = max(1, int(round(per_length * length)))
            corners, edges, surface = _structured_rectangle(gmsh, x, 0.0, x + length, height, n, 1)
            pieces.append((i, corners, edges, surface))
            x += length + (gaps[i - 1] if i < len(lengths) else 0.0)
        wall_pieces = []
        if walls in ("start", "both"):
            _, edges, surface = _structured_rectangle(gmsh, -wall_gap - height, 0.0, -wall_gap, height, 1, 1)
            wall_pieces.append(("WALL_START", edges[1], surface))
        if walls in ("end", "both"):
            x_end = x + wall_gap
            _, edges, surface = _structured_rectangle(gmsh, x_end, 0.0, x_end + height, height, 1, 1)
            wall_pieces.append(("WALL_END", edges[3], surface))
        gmsh.model.geo.synchronize()
        for i, corners, edges, surface in pieces:
            add(2, [surface], name=f"BAR{i}")
            add(1, [edges[3]], name=f"BAR{i}_START")
            add(1, [edges[1]], name=f"BAR{i}_END")
            add(0, [corners[0]], name=f"BAR{i}_S")
            add(0, [corners[1]], name=f"BAR{i}_E")
        add(2, [surface for _, _, _, surface in pieces], name="BARS")
        for name, face, surface in wall_pieces:
            add(2, [surface], name=name)
            add(1, [face], name=f"{name}_FACE")

    source = f"bars(lengths={lengths}, gaps={gaps}, walls={walls!r}, {element!r}, refine={refine})"
    mesh = _mesh_with_gmsh(build, element, source)
    if vertical:
        mesh.points = np.ascontiguousarray(mesh.points[:, ::-1])
    return _counter_clockwise(mesh)


from fem2d.mesh.cylinder import graded_cylinder  # noqa: E402  (numpy builders, registered with the Gmsh ones)
from fem2d.mesh.disc import half_disc  # noqa: E402
from fem2d.mesh.sector import annulus_sector, quarter_disc  # noqa: E402
from fem2d.mesh.wheel import disc  # noqa: E402

#: Builders a case file may name in ``mesh.geometry``.
BUILDERS: dict[str, Callable[..., Mesh]] = {
    "sliding_block": sliding_block,
    "rectangle": rectangle,
    "single_node": single_node,
    "bars": bars,
    "half_disc": half_disc,
    "annulus_sector": annulus_sector,
    "quarter_disc": quarter_disc,
    "disc": disc,
    "graded_cylinder": graded_cylinder,
}
