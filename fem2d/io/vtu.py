"""VTU time series with a ``.pvd`` index (ParaView), via meshio.

One ``.vtu`` file per displacement snapshot (``report.snapshots``), holding
the 2D cells of the bodies (only the bodies' nodes: ParaView frames the bodies)
and, per node: ``displacement`` (3 components,
z = 0, for ParaView's *Warp By Vector*), the nodal-averaged stresses
``sigma_xx``, ``sigma_yy``, ``sigma_xy`` and ``von_mises`` (Pa) (for axisymmetric
bodies x is the radius r and y the axis z: ``sigma_xx`` is sigma_rr, ``sigma_yy``
sigma_zz, ``sigma_xy`` sigma_rz, and the hoop stress ``sigma_theta`` is added), and the
``contact_pressure`` (Pa) at the slave nodes (zero elsewhere; on the current slave surface
for a body that turns or stretches; a SEG3 corner node on the axis of a solid of revolution
extrapolated from its edge, :mod:`fem2d.post.pressure`) and, on a zone that wears, its worn
depth ``wear_depth`` (m; the deepest of the zones a node is slave of). The ``.pvd``
collection lists the files with their times, so ParaView shows the series
against the simulated time. The rigid planes and circles of the contact zones
are a series of their own, ``<case>_obstacles.pvd`` and
``vtu/<case>_obstacles_NNNN.vtu`` (lines sized to the bodies' bounding box).
Every file is written atomically.
"""

from __future__ import annotations

import os
from pathlib import Path
from xml.sax.saxutils import quoteattr

import numpy as np

from fem2d.io.files import atomic_path, write_text_atomic


def slave_areas(model, system, u: np.ndarray | None = None) -> np.ndarray:
    """Tributary area (m^2: length x thickness) of each slave node of the
    model's first contact zone, in ``zone.slave_nodes`` order:
    ``A_i = t \\int N_i ds`` (L/2 per SEG2 end; L/6, L/6, 2L/3 for SEG3), so
    that a uniform pressure p gives nodal forces ``p A_i``: the thickness times
    the contact's :func:`~fem2d.contact.kinematics.slave_weights` (for an
    axisymmetric zone, the ring areas ``\\int N_i 2 pi r ds``: the forces are ring totals).
    On the reference surface, or, with the full displacement ``u`` (all dofs) and a slave
    surface of a body that turns or stretches, on the current one (:mod:`fem2d.post.pressure`)."""
    from fem2d.contact.kinematics import slave_weights

    zone = system.zones[0]
    body = model.body_of(zone.slave_nodes)
    thickness = body.thickness if body is not None else 1.0
    if u is not None and body is not None and body.nonlinear and not zone.axisymmetric:
        return thickness * slave_weights(zone, np.column_stack([u[2 * zone.slave_nodes], u[2 * zone.slave_nodes + 1]]))
    return thickness * slave_weights(zone)


def contact_pressure(normal_force: np.ndarray, areas: np.ndarray) -> np.ndarray:
    """Nodal contact pressure (Pa) from nodal normal forces (N): ``p_i = F_i / A_i``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(areas > 0, np.asarray(normal_force) / areas, 0.0)


def nodal_stress_field(model, u: np.ndarray) -> np.ndarray:
    """Nodal-averaged ``(sigma_xx, sigma_yy, sigma_xy, sigma_zz)`` (Pa) over every body
    of the model, shape (n_nodes, 4); zero at nodes of no body. The fourth is the
    out-of-plane normal stress: ``nu (sigma_xx + sigma_yy)`` in plane strain, 0 in plane
    stress, the hoop stress sigma_theta of an axisymmetric body (a B-bar body's from its
    strain with the projected dilatation: :meth:`~fem2d.model.bodies.Body.cell_nodal_stresses`)."""
    from fem2d.fe.elasticity import nodal_average

    mesh = model.mesh
    nodes, values = [], []
    for body in model.bodies:
        for block in mesh.blocks(body.group):
            nodes.append(block.nodes.ravel())
            values.append(body.cell_nodal_stresses(mesh, block, u).reshape(-1, 4))
    if not nodes:
        return np.zeros((mesh.n_nodes, 4))
    stress = nodal_average(mesh.n_nodes, np.concatenate(nodes), np.vstack(values))
    return np.nan_to_num(stress, nan=0.0)


def _cells(model):
    import meshio

    from fem2d.mesh.io import MESHIO_TYPE

    blocks, material = [], []
    for i, body in enumerate(model.bodies, start=1):
        for block in model.mesh.blocks(body.group):
            blocks.append(meshio.CellBlock(MESHIO_TYPE[block.kind], block.nodes))
            material.append(np.full(len(block), i, dtype=np.int32))
    return blocks, material


def write_pvd(path: str | os.PathLike, entries: list[tuple[float, str]]) -> None:
    """A ParaView collection: ``entries`` are (time, file relative to ``path``)."""
    head = '<VTKFile type="Collection" version="0.1" byte_order="LittleEndian">'
    lines = ['<?xml version="1.0"?>', head, "  <Collection>"]
    for t, name in entries:
        lines.append(f'    <DataSet timestep="{t!r}" group="" part="0" file={quoteattr(name)}/>')
    lines += ["  </Collection>", "</VTKFile>", ""]
    write_text_atomic(path, "\n".join(lines))


def write_vtu_series(result, out_dir: str | os.PathLike) -> Path:
    """Write ``out_dir/<case>.pvd`` and ``out_dir/vtu/<case>_NNNN.vtu`` from a
    direct run's snapshots (``result.fields.snapshots``); returns the
    ``.pvd`` path. Raises ValueError when the run kept no snapshots.
    ``<case>`` is the case name, ``fem2d`` for a model composed in Python."""
    import meshio

    snaps = getattr(result.fields, "snapshots", None)
    if snaps is None or len(snaps) == 0:
        raise ValueError("no displacement snapshots: run with report.snapshots > 0 (fem2d run --vtu)")
    model, system = result.fields.model, result.fields.system
    mesh = model.mesh  # the bodies' mesh: a rigid obstacle's nodes (after its nodes) go to their own series
    name = result.case.name if result.case is not None else "fem2d"
    out = Path(out_dir)
    (out / "vtu").mkdir(parents=True, exist_ok=True)
    cells, material = _cells(model)
    points = np.column_stack([mesh.points, np.zeros(mesh.n_nodes)])
    pressure_rows = None
    if system.zones and "slave_normal_force" in result.histories:
        areas = slave_areas(model, system)
        pressure_rows = result.histories["slave_normal_force"]
        slave = system.zones[0].slave_nodes
        body = model.body_of(slave)
        current = body is not None and body.nonlinear and not system.zones[0].axisymmetric
    depth_rows = result.histories.get("slave_wear_depth")
    all_slaves = np.concatenate([zone.slave_nodes for zone in system.zones]) if system.zones else None
    from fem2d.fe.elasticity import von_mises
    from fem2d.post.pressure import axis_pressure

    axisymmetric = any(body.axisymmetric for body in model.bodies)
    obstacles = _obstacles(model, system)
    entries, obstacle_entries = [], []
    for k, (row, t, u) in enumerate(zip(snaps.row, snaps.time, snaps.u)):
        if obstacles:
            obstacle_entries.append((float(t), _write_obstacles(out, f"vtu/{name}_obstacles_{k:04d}.vtu", obstacles,
                                                                u, mesh.points)))
        u = u[: 2 * mesh.n_nodes]  # a rigid obstacle's nodes come after the model's (Model.assemble)
        disp = np.column_stack([u[0::2], u[1::2], np.zeros(mesh.n_nodes)])
        stress = nodal_stress_field(model, u)
        data = {
            "displacement": disp,
            "sigma_xx": stress[:, 0],
            "sigma_yy": stress[:, 1],
            "sigma_xy": stress[:, 2],
            "von_mises": von_mises(stress, hypothesis="axisymmetric"),  # the 4th column is the out-of-plane stress
        }
        if axisymmetric:
            data["sigma_theta"] = stress[:, 3]
        if pressure_rows is not None:
            p = np.zeros(mesh.n_nodes)
            here = slave_areas(model, system, u) if current else areas
            p[slave] = axis_pressure(system.zones[0], contact_pressure(pressure_rows[int(row)], here))
            data["contact_pressure"] = p
        if depth_rows is not None:
            depth = np.zeros(mesh.n_nodes)
            np.maximum.at(depth, all_slaves, depth_rows[int(row)])
            data["wear_depth"] = depth
        file = f"vtu/{name}_{k:04d}.vtu"
        m = meshio.Mesh(points, cells, point_data=data, cell_data={"material": material})
        with atomic_path(out / file) as tmp:
            meshio.write(tmp, m, file_format="vtu")
        entries.append((float(t), file))
    pvd = out / f"{name}.pvd"
    write_pvd(pvd, entries)
    if obstacle_entries:
        write_pvd(out / f"{name}_obstacles.pvd", obstacle_entries)
    return pvd


def _obstacles(model, system) -> list[tuple[object, np.ndarray]]:
    """The rigid planes and circles of the model's contact zones and the nodes standing for
    each in the assembled system (a plane's two segment ends, a circle's centre)."""
    from fem2d.model.contact import RigidCircle, RigidPlane

    return [(c.master, system.mesh.group(c.obstacle_group).nodes.ravel()) for c in model.contacts
            if isinstance(c.master, RigidPlane | RigidCircle)]


def _write_obstacles(out: Path, file: str, obstacles: list, u: np.ndarray, body_points: np.ndarray) -> str:
    """Write ``out/file``: each rigid obstacle where ``u`` has moved it, as lines sized to the
    bodies' bounding box (a plane: a segment as long as the box's diagonal, centred on the
    box centre's projection; a circle: a 64-sided polygon); returns ``file``."""
    import meshio

    from fem2d.model.contact import RigidPlane

    low, high = body_points.min(axis=0), body_points.max(axis=0)
    centre, half = 0.5 * (low + high), 0.5 * max(float(np.hypot(*(high - low))), 1e-3)
    points, lines = [], []
    for obstacle, nodes in obstacles:
        shift = np.array([u[2 * nodes[0]], u[2 * nodes[0] + 1]])
        if isinstance(obstacle, RigidPlane):
            normal = np.asarray(obstacle.normal) / np.hypot(*obstacle.normal)
            tangent = np.array([-normal[1], normal[0]])
            foot = np.asarray(obstacle.point) + np.dot(centre - obstacle.point, tangent) * tangent
            xy = foot + shift + np.outer([-half, half], tangent)
        else:
            angles = np.linspace(0.0, 2.0 * np.pi, 64, endpoint=False)
            xy = np.asarray(obstacle.centre) + shift + obstacle.radius * np.column_stack([np.cos(angles),
                                                                                          np.sin(angles)])
        first = sum(len(p) for p in points)
        ids = first + np.arange(len(xy))
        lines.append(np.column_stack([ids[:-1], ids[1:]]) if len(xy) == 2 else np.column_stack([ids, np.roll(ids, -1)]))
        points.append(xy)
    xyz = np.column_stack([np.vstack(points), np.zeros(sum(len(p) for p in points))])
    with atomic_path(out / file) as tmp:
        meshio.write(tmp, meshio.Mesh(xyz, [meshio.CellBlock("line", np.vstack(lines))]), file_format="vtu")
    return file


def auto_stride(case, frames: int = 200) -> int:
    """A snapshot stride giving at most about ``frames`` files over the run."""
    n_steps = max(1, int(round(case.end_time / case.time_step)))
    return max(1, -(-n_steps // frames))
