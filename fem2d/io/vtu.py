"""VTU time series with a ``.pvd`` index (ParaView), via meshio.

One ``.vtu`` file per displacement snapshot (``report.snapshots``), holding
the 2D cells of the bodies and, per node: ``displacement`` (3 components,
z = 0, for ParaView's *Warp By Vector*), the nodal-averaged stresses
``sigma_xx``, ``sigma_yy``, ``sigma_xy`` and ``von_mises`` (Pa), and the
``contact_pressure`` (Pa) at the slave nodes (zero elsewhere). The ``.pvd``
collection lists the files with their times, so ParaView shows the series
against the simulated time. Every file is written atomically.
"""

from __future__ import annotations

import os
from pathlib import Path
from xml.sax.saxutils import quoteattr

import numpy as np

from fem2d.io.files import atomic_path, write_text_atomic


def slave_areas(system, case) -> np.ndarray:
    """Tributary area (m^2: length x thickness) of each slave node of the first
    contact zone, in ``zone.slave_nodes`` order: ``A_i = t \\int N_i ds``
    (L/2 per SEG2 end; L/6, L/6, 2L/3 for SEG3), so that a uniform pressure p
    gives nodal forces ``p A_i``."""
    from fem2d.fe import pressure_load

    zone = system.zones[0]
    s = case.settings
    groups = [m["group"] for m in s["materials"]]
    from fem2d.case.build import contact_tables

    f = pressure_load(system.mesh, contact_tables(s)[0]["slave"], 1.0, groups, thickness=s["model"]["thickness"])
    return np.hypot(f[2 * zone.slave_nodes], f[2 * zone.slave_nodes + 1])


def contact_pressure(normal_force: np.ndarray, areas: np.ndarray) -> np.ndarray:
    """Nodal contact pressure (Pa) from nodal normal forces (N): ``p_i = F_i / A_i``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(areas > 0, np.asarray(normal_force) / areas, 0.0)


def nodal_stress_field(mesh, case, u: np.ndarray) -> np.ndarray:
    """Nodal-averaged ``(sigma_xx, sigma_yy, sigma_xy)`` (Pa) over every body,
    shape (n_nodes, 3); zero at nodes of no body."""
    from fem2d.fe.elasticity import cell_nodal_stresses, elasticity_matrix, nodal_average

    s = case.settings
    nodes, values = [], []
    for mat in s["materials"]:
        block = mesh.group(mat["group"])
        D = elasticity_matrix(mat["E"], mat["nu"], s["model"]["hypothesis"])
        nodes.append(block.nodes.ravel())
        values.append(cell_nodal_stresses(mesh.points, block, u, D).reshape(-1, 3))
    if not nodes:
        return np.zeros((mesh.n_nodes, 3))
    stress = nodal_average(mesh.n_nodes, np.concatenate(nodes), np.vstack(values))
    return np.nan_to_num(stress, nan=0.0)


def _cells(mesh, case):
    import meshio

    from fem2d.mesh.io import MESHIO_TYPE

    blocks, material = [], []
    for i, mat in enumerate(case.settings["materials"], start=1):
        block = mesh.group(mat["group"])
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
    direct run's snapshots (``result.fields["snapshots"]``); returns the
    ``.pvd`` path. Raises ValueError when the run kept no snapshots."""
    import meshio

    snaps = result.fields.get("snapshots")
    system = result.fields.get("system")
    if not snaps or system is None or len(snaps["time"]) == 0:
        raise ValueError("no displacement snapshots: run with report.snapshots > 0 (fem2d run --vtu)")
    case, mesh = result.case, system.mesh
    out = Path(out_dir)
    (out / "vtu").mkdir(parents=True, exist_ok=True)
    cells, material = _cells(mesh, case)
    points = np.column_stack([mesh.points, np.zeros(mesh.n_nodes)])
    pressure_rows = None
    if system.zones and "slave_normal_force" in result.histories:
        areas = slave_areas(system, case)
        pressure_rows = result.histories["slave_normal_force"]
        slave = system.zones[0].slave_nodes
    nu = np.zeros(mesh.n_nodes)  # per node, for sigma_zz in plane strain (bodies share no nodes)
    for mat in case.settings["materials"]:
        nu[mesh.group(mat["group"]).nodes.ravel()] = mat["nu"]
    hypothesis = case.settings["model"]["hypothesis"]
    from fem2d.fe.elasticity import von_mises

    entries = []
    for k, (row, t, u) in enumerate(zip(snaps["row"], snaps["time"], snaps["u"])):
        disp = np.column_stack([u[0::2], u[1::2], np.zeros(mesh.n_nodes)])
        stress = nodal_stress_field(mesh, case, u)
        data = {
            "displacement": disp,
            "sigma_xx": stress[:, 0],
            "sigma_yy": stress[:, 1],
            "sigma_xy": stress[:, 2],
            "von_mises": von_mises(stress, nu, hypothesis),
        }
        if pressure_rows is not None:
            p = np.zeros(mesh.n_nodes)
            p[slave] = contact_pressure(pressure_rows[int(row)], areas)
            data["contact_pressure"] = p
        name = f"vtu/{case.name}_{k:04d}.vtu"
        m = meshio.Mesh(points, cells, point_data=data, cell_data={"material": material})
        with atomic_path(out / name) as tmp:
            meshio.write(tmp, m, file_format="vtu")
        entries.append((float(t), name))
    pvd = out / f"{case.name}.pvd"
    write_pvd(pvd, entries)
    return pvd


def auto_stride(case, frames: int = 200) -> int:
    """A snapshot stride giving at most about ``frames`` files over the run."""
    t = case.settings["time"]
    n_steps = max(1, int(round(t["end"] / t["dt"])))
    return max(1, -(-n_steps // frames))
