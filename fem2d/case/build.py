"""From a case's settings to an assembled :class:`~fem2d.model.system.System`.

The model is what code_aster's AFFE_MODELE / AFFE_MATERIAU / AFFE_CARA_ELEM /
AFFE_CHAR_MECA say: the mesh, the elastic bodies and their materials, the
discrete elements (springs, point masses), the supports, the loads and their
time functions, and the contact zones. Everything is assembled vectorised over
cells into CSR matrices on interleaved dofs (2 per node).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from fem2d.case.fields import tables_of
from fem2d.case.loading import Case
from fem2d.contact.obstacles import plane_extent, plane_segment
from fem2d.contact.problem import make_zone
from fem2d.contact.search import orient_on_mesh
from fem2d.errors import InputError, MeshError
from fem2d.fe import (
    assemble_matrix,
    body_force_load,
    elasticity_matrix,
    mass_matrices,
    node_dofs,
    point_force_load,
    point_mass_matrices,
    point_spring_matrices,
    pressure_load,
    spring_matrices,
    stiffness_matrices,
    traction_load,
)
from fem2d.mesh import BUILDERS, Mesh, read_mesh
from fem2d.mesh.mesh import CellBlock
from fem2d.model.system import Load, Motion, System
from fem2d.model.timefunctions import Constant, PiecewiseLinear, Sine, TimeFunction

COMPONENT = {"dx": 0, "dy": 1}


def build_mesh(case: Case) -> Mesh:
    """The case's mesh: a Gmsh builder (``mesh.geometry``) or a file (``mesh.file``)."""
    m = case.settings["mesh"]
    if m.get("file") is not None:
        path = Path(m["file"])
        if not path.is_absolute() and case.path is not None:
            path = case.path.parent / path
        mesh = read_mesh(path)
        kinds = sorted({block.kind for block in mesh.groups.values() if block.dimension == 2})
        if kinds and kinds != [m["element"]]:
            raise case.error(
                "mesh.element", f"{m['element']!r} but {path} holds {' and '.join(kinds)} cells (set mesh.element)"
            )
        if m["refine"]:
            from fem2d.mesh.refine import split_uniform

            try:
                mesh = split_uniform(mesh, m["refine"])
            except MeshError as exc:
                raise case.error("mesh.refine", str(exc)) from None
        return mesh
    name = m["geometry"]
    if name not in BUILDERS:
        raise case.error("mesh.geometry", f"unknown builder {name!r}; expected one of {sorted(BUILDERS)}")
    try:
        return BUILDERS[name](element=m["element"], refine=m["refine"], **m["params"])
    except TypeError as exc:
        raise case.error("mesh.params", f"the {name} builder does not accept these parameters ({exc})") from None
    except MeshError as exc:
        # the builder names its parameter: "sliding_block: block_cells must be ..."
        message = str(exc).split(": ", 1)[-1]
        param = message.split(" ", 1)[0]
        key = f"mesh.params.{param}" if param in m["params"] else "mesh.params"
        raise case.error(key, message) from None


def time_function(case: Case, name: str, key: str | None = None) -> TimeFunction:
    """The ``[functions.NAME]`` table as a callable of time (``key``: the
    setting that names it, for the error when there is no such table)."""
    if name == "constant":
        return Constant(1.0)
    if name not in case.settings["functions"]:
        known = sorted(case.settings["functions"])
        raise case.error(key or f"functions.{name}", f"no [functions.{name}] table (known: {known})")
    spec = case.settings["functions"][name]
    key = f"functions.{name}"
    if spec["type"] == "constant":
        return Constant(spec["amplitude"])
    if spec["type"] == "sine":
        return Sine(spec["amplitude"], spec["omega"], spec["phase"])
    if spec.get("t") is None or spec.get("values") is None:
        raise case.error(key, "a piecewise_linear function needs t and values")
    try:
        return PiecewiseLinear(tuple(spec["t"]), tuple(spec["values"]))
    except ValueError as exc:
        raise case.error(key, str(exc).split(": ", 1)[-1]) from None


def _group(case: Case, mesh: Mesh, key: str, name: str, dimension: int | None = None):
    """A mesh group, with errors naming the case key."""
    try:
        block = mesh.group(name)
    except MeshError as exc:
        raise case.error(key, str(exc)) from None
    if dimension is not None and block.dimension != dimension:
        kinds = {0: "nodes", 1: "edges", 2: "cells"}
        raise case.error(key, f"group {name!r} holds {block.kind} cells; expected {kinds[dimension]}")
    return block


def build_system(case: Case) -> tuple[System, dict[str, Any]]:
    """Assemble the case's System; also returns ``info`` (report dof, groups...)."""
    s = case.settings
    mesh, planes = with_rigid_planes(case, build_mesh(case))
    n_dofs = 2 * mesh.n_nodes
    hypothesis, thickness = s["model"]["hypothesis"], s["model"]["thickness"]
    lumping = "lumped" if s["model"]["lumped_mass"] else "consistent"

    k_blocks, m_blocks, dof_blocks = [], [], []
    body_modulus: dict[str, float] = {}
    for i, mat in enumerate(s["materials"]):
        block = _group(case, mesh, f"materials[{i}].group", mat["group"], 2)
        D = elasticity_matrix(mat["E"], mat["nu"], hypothesis)
        k_blocks.append(stiffness_matrices(mesh.points, block, D, thickness, group=mat["group"]))
        m_blocks.append(mass_matrices(mesh.points, block, mat["rho"], thickness, lumping, group=mat["group"]))
        dof_blocks.append(node_dofs(block.nodes))
        body_modulus[mat["group"]] = mat["E"]
    K_body = assemble_matrix(k_blocks, dof_blocks, n_dofs) if k_blocks else sp.csr_matrix((n_dofs, n_dofs))
    M = assemble_matrix(m_blocks, dof_blocks, n_dofs) if m_blocks else sp.csr_matrix((n_dofs, n_dofs))
    C = rayleigh_damping(s["materials"], k_blocks, m_blocks, dof_blocks, n_dofs)

    ks_blocks, ks_dofs = [], []
    for i, spring in enumerate(s["springs"]):
        block = _group(case, mesh, f"springs[{i}].group", spring["group"], 1)
        if block.kind != "seg2":
            raise case.error(
                f"springs[{i}].group",
                f"group {spring['group']!r} of {mesh.source} holds {block.kind} cells; springs need seg2 cells",
            )
        k_axial, k_transverse = spring["k_axial"], spring["k_transverse"]
        ks_blocks.append(spring_matrices(mesh.points, block, k_axial, k_transverse, spring["group"]))
        ks_dofs.append(node_dofs(block.nodes))
    mn_blocks, mn_dofs = [], []
    for i, nodal in enumerate(s["nodal"]):
        block = _group(case, mesh, f"nodal[{i}].group", nodal["group"], 0)
        kx, ky = nodal["stiffness"]
        ks_blocks.append(point_spring_matrices(block, kx, ky))
        ks_dofs.append(node_dofs(block.nodes))
        mn_blocks.append(point_mass_matrices(block, nodal["mass"]))
        mn_dofs.append(node_dofs(block.nodes))
    K_springs = assemble_matrix(ks_blocks, ks_dofs, n_dofs) if ks_blocks else sp.csr_matrix((n_dofs, n_dofs))
    if mn_blocks:
        M = M + assemble_matrix(mn_blocks, mn_dofs, n_dofs)

    fixed_dofs, fixed_values, motions = [], [], []
    for i, sup in enumerate(s["supports"]):
        nodes = np.unique(_group(case, mesh, f"supports[{i}].group", sup["group"]).nodes)
        for comp in sup["dofs"]:
            dofs = 2 * nodes + COMPONENT[comp]
            fixed_dofs.append(dofs)
            if sup["function"] == "constant":
                fixed_values.append(np.full(len(nodes), sup["value"]))
            else:
                fixed_values.append(np.zeros(len(nodes)))
                function = time_function(case, sup["function"], f"supports[{i}].function")
                motions.append(Motion(dofs, np.full(len(nodes), sup["value"]), function, f"support {sup['group']}"))
    for plane in planes:
        fixed_dofs.append(plane.dofs)
        fixed_values.append(np.zeros(len(plane.dofs)))
        if plane.motion is not None:
            motions.append(plane.motion)
    fixed = np.concatenate(fixed_dofs) if fixed_dofs else np.zeros(0, dtype=np.int64)
    values = np.concatenate(fixed_values) if fixed_values else np.zeros(0)
    fixed, first = np.unique(fixed, return_index=True)
    values = values[first]

    loads = [_load(case, mesh, i, load, thickness) for i, load in enumerate(s["loads"])]

    initial_velocity = initial_displacement = None
    for i, init in enumerate(s["initial"]):
        nodes = np.unique(_group(case, mesh, f"initial[{i}].group", init["group"]).nodes)
        if initial_velocity is None:
            initial_velocity, initial_displacement = np.zeros(n_dofs), np.zeros(n_dofs)
        for c in range(2):
            initial_velocity[2 * nodes + c] = init["velocity"][c]
            initial_displacement[2 * nodes + c] = init["displacement"][c]
    if initial_displacement is not None and not np.any(initial_displacement):
        initial_displacement = None

    zones, zone_moduli = contact_zones(case, mesh, body_modulus, planes)
    system = System(
        mesh=mesh,
        K=(K_body + K_springs).tocsr(),
        M=M.tocsr(),
        K_springs=K_springs.tocsr(),
        fixed=fixed,
        fixed_values=values,
        loads=loads,
        C=C,
        initial_velocity=initial_velocity,
        initial_displacement=initial_displacement,
        motions=motions,
        zones=zones,
        young_modulus=zone_moduli[0] if zone_moduli else 0.0,
    )
    _check_free_mass(case, system)
    _check_motions(case, system)
    info: dict[str, Any] = {"mesh": mesh, "zone_moduli": zone_moduli, "bodies": {}}
    for i, name in enumerate(s["report"]["bodies"]):
        info["bodies"][name] = np.unique(_group(case, mesh, f"report.bodies[{i}]", name, 2).nodes)
    info["reactions"] = {}
    for i, name in enumerate(s["report"]["reactions"]):
        nodes = np.unique(_group(case, mesh, f"report.reactions[{i}]", name).nodes)
        dofs = np.concatenate([2 * nodes, 2 * nodes + 1])
        dofs = dofs[np.isin(dofs, system.fixed)]
        if not len(dofs):
            raise case.error(f"report.reactions[{i}]", f"group {name!r} has no prescribed dof ([[supports]])")
        info["reactions"][name] = dofs
    node = s["report"].get("node")
    if node is not None:
        block = _group(case, mesh, "report.node", node)
        nodes = np.unique(block.nodes)
        if len(nodes) != 1:
            raise case.error("report.node", f"group {node!r} has {len(nodes)} nodes; expected one")
        info["report_node"] = int(nodes[0])
        info["report_dof"] = int(2 * nodes[0] + COMPONENT[s["report"]["component"]])
    return system, info


def contact_tables(settings: dict) -> list[dict]:
    """The ``[contact]`` / ``[[contact]]`` tables that define a zone (a lone
    ``[contact]`` table without slave and master defines none)."""
    return [c for c in tables_of(settings["contact"]) if c.get("slave") is not None or c.get("master") is not None]


def contact_key(case: Case, index: int, key: str) -> str:
    """The dotted key of a contact setting, as the case file spells it
    (``contact.mu`` for a lone table, ``contact[1].mu`` in a list)."""
    return f"contact[{index}].{key}" if isinstance(case.settings["contact"], list) else f"contact.{key}"


@dataclass(frozen=True)
class RigidPlane:
    """The two prescribed end nodes (group ``group``) standing for zone
    ``zone``'s plane master (:mod:`fem2d.contact.obstacles`), their dofs, and
    their motion (None: fixed)."""

    zone: int
    group: str
    dofs: np.ndarray
    motion: Motion | None


def with_rigid_planes(case: Case, mesh: Mesh) -> tuple[Mesh, list[RigidPlane]]:
    """The mesh with a two-node segment added for every ``[contact.plane]``."""
    tables = tables_of(case.settings["contact"])
    if not any(c.get("plane") is not None for c in tables):
        return mesh, []
    extent = plane_extent(mesh.points)
    points, groups, planes = [mesh.points], dict(mesh.groups), []
    n = mesh.n_nodes
    for i, c in enumerate(tables):
        plane = c.get("plane")
        if plane is None:
            continue
        if c.get("master") is not None:
            raise case.error(contact_key(case, i, "plane"), "give either a master edge group or a plane, not both")
        try:
            ends = plane_segment(plane["point"], plane["normal"], extent)
        except InputError as exc:
            raise case.error(contact_key(case, i, "plane.normal"), str(exc)) from None
        group = f"{c.get('name') or c.get('slave')}:plane"
        groups[group] = CellBlock("seg2", [[n, n + 1]])
        points.append(ends)
        dofs = np.array([2 * n, 2 * n + 1, 2 * n + 2, 2 * n + 3])
        motion = None
        if any(plane["displacement"]):
            function = time_function(case, plane["function"], contact_key(case, i, "plane.function"))
            motion = Motion(dofs, np.tile(plane["displacement"], 2), function, f"plane of {group}")
        planes.append(RigidPlane(i, group, dofs, motion))
        n += 2
    return Mesh(np.vstack(points), groups, mesh.source), planes


def rayleigh_damping(materials: list[dict], k_blocks, m_blocks, dof_blocks, n_dofs: int) -> sp.csr_matrix | None:
    r"""Rayleigh damping body by body, :math:`C = \sum_b (a_M M_b + a_K K_b)`
    (``materials[].rayleigh = [a_M, a_K]``); None when every body is undamped."""
    c_blocks, c_dofs = [], []
    for mat, k, m, dofs in zip(materials, k_blocks, m_blocks, dof_blocks):
        a_m, a_k = mat["rayleigh"]
        if a_m or a_k:
            c_blocks.append(a_m * m + a_k * k)
            c_dofs.append(dofs)
    return assemble_matrix(c_blocks, c_dofs, n_dofs).tocsr() if c_blocks else None


def contact_zones(
    case: Case, mesh: Mesh, body_modulus: dict[str, float], planes: list[RigidPlane] = ()
) -> tuple[list, list[float]]:
    """The contact zones of the ``[contact]`` table or ``[[contact]]`` list, and
    the Young's modulus of each zone's slave body (default penalty scale)."""
    zones, moduli, names = [], [], {}
    tables = tables_of(case.settings["contact"])
    plane_of = {p.zone: p for p in planes}
    for i, c in enumerate(tables):
        if i in plane_of:
            if c.get("slave") is None:
                raise case.error(contact_key(case, i, "slave"), "missing; a plane master needs a slave edge group")
            slave = _group(case, mesh, contact_key(case, i, "slave"), c["slave"], 1)
            name = c.get("name") or f"{c['slave']}/plane"
            if name in names:
                raise case.error(contact_key(case, i, "name"), f"zone name {name!r} is also zone {names[name]}'s")
            names[name] = i
            zones.append(make_zone(mesh.points, slave, mesh.groups[plane_of[i].group], c["mu"], name=name))
            moduli.append(_slave_modulus(mesh, slave.nodes, body_modulus))
            continue
        if c.get("slave") is None and c.get("master") is None:
            if len(tables) > 1:
                key = contact_key(case, i, "slave")
                raise case.error(key, "missing; every [[contact]] zone needs slave and master")
            continue
        if c.get("slave") is None or c.get("master") is None:
            missing = "slave" if c.get("slave") is None else "master"
            raise case.error(contact_key(case, i, missing), "missing; give both slave and master edge groups")
        slave = _group(case, mesh, contact_key(case, i, "slave"), c["slave"], 1)
        # the master normal comes from the master body, not from the edge order of the mesh file
        master = orient_on_mesh(mesh, _group(case, mesh, contact_key(case, i, "master"), c["master"], 1))
        name = c.get("name") or f"{c['slave']}/{c['master']}"
        if name in names:
            raise case.error(contact_key(case, i, "name"), f"zone name {name!r} is also zone {names[name]}'s")
        names[name] = i
        zones.append(make_zone(mesh.points, slave, master, c["mu"], name=name))
        moduli.append(_slave_modulus(mesh, slave.nodes, body_modulus))
    return zones, moduli


def _load(case: Case, mesh: Mesh, i: int, load: dict, thickness: float) -> Load:
    key = f"loads[{i}].group"
    kind, group = load["type"], load["group"]
    if kind == "pressure":
        _group(case, mesh, key, group, 1)
        vector = pressure_load(mesh, group, load["value"], thickness=thickness)
    elif kind == "traction":
        _group(case, mesh, key, group, 1)
        vector = traction_load(mesh, group, load["vector"], thickness=thickness)
    elif kind == "body":
        _group(case, mesh, key, group, 2)
        vector = body_force_load(mesh, group, load["vector"], thickness=thickness)
    else:
        nodes = np.unique(_group(case, mesh, key, group).nodes)
        vector = point_force_load(mesh.n_nodes, nodes, load["vector"])
    return Load(vector, time_function(case, load["function"]), f"{kind} on {group}")


def _slave_modulus(mesh: Mesh, slave_nodes: np.ndarray, body_modulus: dict[str, float]) -> float:
    """Young's modulus of the body the slave surface belongs to."""
    for group, E in body_modulus.items():
        if np.isin(slave_nodes, mesh.group(group).nodes).all():
            return E
    return max(body_modulus.values(), default=0.0)


def _check_motions(case: Case, system: System) -> None:
    """A displacement history on a support is lifted as -K_fc u_c(t): exact
    only when the moving dofs carry no mass coupled to the free dofs."""
    for i, sup in enumerate(case.settings["supports"]):
        if sup["function"] == "constant":
            continue
        motion = next(m for m in system.motions if m.label == f"support {sup['group']}")
        coupled = system.M[motion.dofs][:, system.free]
        if coupled.count_nonzero() and np.abs(coupled.data).max() > 0.0:
            raise case.error(
                f"supports[{i}].function",
                f"a displacement history needs a massless body under {sup['group']!r} (rho = 0 there)",
            )


def _check_free_mass(case: Case, system: System) -> None:
    """Every free dof needs mass for dynamics (else M is singular)."""
    diag = system.M_free.diagonal()
    massless = np.flatnonzero(diag <= 0)
    if len(massless):
        nodes = np.unique(system.free[massless] // 2)
        raise InputError(
            f"{case.where}: nodes {nodes[:10].tolist()} have free dofs but no mass; "
            "give their body a density, a [[nodal]] mass, or a [[supports]] entry"
        )
