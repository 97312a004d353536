r"""A rubber roller pressed on a rigid plane, by fem2d and by FElupe on the same mesh.

The roller: a disc of radius R = 0.1 m (fem2d's ``disc`` O-grid builder, QUAD4), neo-Hookean,
E = 10 MPa, nu = 0.49 (mu = E / (2 (1 + nu)), lambda = E nu / ((1 + nu)(1 - 2 nu))), plane
strain, static, ``kinematics = "finite"``, ``law = "neo_hookean"``. Its hub (the nodes within
0.3 R of its centre) is held and the rigid frictionless plane, first touching the roller's
lowest point, is moved up by D = 10 mm in ten equal load levels: the hub pressed down by D on
a fixed plane, as seen from the hub (a static fem2d run refuses a displacement history on a
support of a body with mass, and needs mass on its free dofs; the contact is frictionless and
the plane rigid, so only the relative motion counts).

Both tools use the same nodes and cells (fem2d's mesh exported to ``felupe.Mesh``), 2 x 2 Gauss
points per cell and the same energy: fem2d's
:math:`W = \mu/2 (I_1 - 3 - 2 \ln J) + \lambda/2 (\ln J)^2` and FElupe's ``NeoHookeCompressible``,
:math:`\psi = \mu/2\, \mathrm{tr}\, C - \mu \ln J + \lambda/2 (\ln J)^2` on the 3 x 3 plane-strain
:math:`F` (``FieldPlaneStrain``: :math:`F_{33} = 1`, so :math:`\mathrm{tr}\, C = I_1`), differ by
the constant :math:`3\mu/2`: the same stresses with the same mu and lambda. The contact differs:
fem2d enforces it by Lagrange multipliers at the rim nodes (no penetration), FElupe's
``ContactRigidPlane`` by a penalty on the rim nodes' gap (its multiplier ``PENALTY`` times the
mean normal stiffness of the rim nodes' diagonal blocks), which leaves a penetration (printed).
FElupe's nodal contact forces are read as its solid's internal force at the rim nodes (equal to
them at equilibrium); fem2d's are its Lagrange multipliers (``slave_normal_force``).

Compared at full load, from the nodal normal contact forces :math:`F_j` of the rim nodes (per
metre of thickness) of each tool, measured the same way (:mod:`fem2d.post.pressure`) on each
tool's own deformed rim :math:`x_j = X_j + u_j` (the configuration fem2d measures a finite-strain
body's contact on): the total contact force :math:`\sum_j F_j`; the contact half-width
:math:`a = 2\sqrt{\sum_j F_j (s_j - \bar s)^2 / \sum_j F_j}` (s the current abscissa of the
rim nodes along the contact, here x), and the count ``contact_extent`` (half the span of the nodes
carrying a force above 1e-9 of the largest); the peak pressure :math:`\max_j F_j / w_j` with the
current tributary lengths :math:`w_j = \int \phi_j\, d\Gamma` of the deformed rim. fem2d's own
quantities (``peak_pressure``, ``contact_half_width``, ``contact_extent``, the hub's reaction,
measured on the same deformed rim) are printed beside them; the last
row compares the hub's reaction, fem2d's ``HUB_reaction_y`` against FElupe's internal force at the
hub.

Usage (FElupe is an optional peer of this script, not a dependency of fem2d:
``pip install felupe``)::

    PYTHONPATH=$PWD python benchmarks/roller_felupe.py                # refine 2, ~1 min
    PYTHONPATH=$PWD python benchmarks/roller_felupe.py --refine 1 --penalty 1e4
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the CLI

R, E, NU, D, HUB, LEVELS = 0.1, 10.0e6, 0.49, 0.01, 0.3, 10
MU = E / (2.0 * (1.0 + NU))
LAMBDA = E * NU / ((1.0 + NU) * (1.0 - 2.0 * NU))
PENALTY = 1.0e3


def roller_mesh(refine: int):
    """fem2d's disc mesh with the node group ``HUB`` (the nodes within HUB R of the centre)."""
    from fem2d.mesh.mesh import CellBlock, Mesh
    from fem2d.mesh.wheel import disc

    mesh = disc("quad4", refine=refine, radius=R, cells=8)
    r = np.hypot(mesh.points[:, 0], mesh.points[:, 1] - R)
    hub = np.flatnonzero(r <= HUB * R * (1.0 + 1e-9))
    return Mesh(mesh.points, {**mesh.groups, "HUB": CellBlock("point", hub[:, None])}, "roller")


def run_fem2d(mesh):
    """fem2d's static run: its Result and wall time."""
    from fem2d.model import Body, Contact, Model, Report, RigidPlane, Support, TimeStepping
    from fem2d.model.timefunctions import PiecewiseLinear
    from fem2d.runs.static import StaticAnalysis

    body = Body("DISC", E=E, nu=NU, rho=1000.0, hypothesis="plane_strain", kinematics="finite", law="neo_hookean")
    plane = RigidPlane((0.0, 0.0), (0.0, 1.0), displacement=(0.0, D), function=PiecewiseLinear((0.0, 1.0), (0.0, 1.0)))
    model = Model(mesh, bodies=[body], supports=[Support("HUB")], contacts=[Contact("RIM", plane, mu=0.0)])
    report = Report("CENTRE", "dy", pressure_at=[1.0], reactions=["HUB"])
    start = time.perf_counter()
    result = StaticAnalysis(model, TimeStepping(dt=1.0 / LEVELS, end=1.0), report=report).run()
    return result, time.perf_counter() - start


def run_felupe(fem, mesh, rim: np.ndarray, penalty: float):
    """FElupe's run on the same mesh: the rim nodes' normal contact forces (N/m), the largest
    penetration (m), the wall time and the hub's reaction along y (N/m: the solid's internal force
    there)."""
    points = np.asarray(mesh.points, dtype=float)[:, :2]
    cells = mesh.group("DISC").nodes
    m = fem.Mesh(points, cells, "quad")
    m.update(points=np.vstack([points, [[0.0, 0.0]]]))  # the plane's reference point, last
    m.points_without_cells = m.points_without_cells[:-1]  # its dofs are not inactive ones
    region = fem.RegionQuad(m)
    u = fem.FieldPlaneStrain(region, dim=2)
    field = fem.FieldContainer([u])
    solid = fem.SolidBody(fem.NeoHookeCompressible(mu=MU, lmbda=LAMBDA), field)
    contact = fem.ContactRigidPlane(field, points=rim, centerpoint=-1, normal=[0.0, 1.0], multiplier=penalty,
                                    items=[solid])
    hub = np.zeros(m.npoints, dtype=bool)
    hub[mesh.group_nodes("HUB")] = True
    plane = np.zeros(m.npoints, dtype=bool)
    plane[-1] = True
    boundaries = {
        "hub": fem.Boundary(u, mask=hub),
        "plane_x": fem.Boundary(u, mask=plane, skip=(0, 1)),
        "plane_y": fem.Boundary(u, mask=plane, skip=(1, 0)),
    }
    step = fem.Step([solid, contact], boundaries=boundaries,
                    ramp={boundaries["plane_y"]: fem.math.linsteps([0.0, D], num=LEVELS)})
    start = time.perf_counter()
    fem.Job([step]).evaluate(verbose=0, tol=1e-10)
    wall = time.perf_counter() - start
    x = points + u.values[:-1]
    xc = u.values[-1] + 0.0  # the plane's point, at (0, 0) in the reference
    gap = x[rim, 1] - xc[1]
    # the contact force on each rim node is, at equilibrium, the solid's internal force there (the
    # contact item evaluated again after the job would take a multiplier updated on the last state)
    force = np.asarray(solid.assemble.vector(field).todense()).ravel()[: 2 * len(points)].reshape(-1, 2)
    return (force[rim, 1], float(max(0.0, -gap.min())), wall, float(force[hub[:-1], 1].sum()),
            u.values[rim])


def measures(zone, forces: np.ndarray, displacement: np.ndarray | None) -> dict[str, float]:
    """Total force, half-width, extent and peak pressure of rim forces in the zone's slave order,
    on the rim displaced by ``displacement`` (n_rim, 2), or on the reference rim (None)."""
    from fem2d.post.pressure import abscissa, half_width, zone_pressure

    carries = forces > 1e-9 * forces.max()  # not the round-off of a free node's equilibrium
    s = abscissa(zone, displacement, np.where(carries, forces, 0.0))
    carrying = s[carries]
    return {
        "total contact force (N/m)": float(forces.sum()),
        "contact half-width a (m)": half_width(s, forces),
        "contact extent (m)": 0.5 * float(np.ptp(carrying)) if len(carrying) else 0.0,
        "peak pressure (Pa)": float(zone_pressure(zone, forces[None, :], 1.0,
                                                  None if displacement is None else displacement[None])[0].max()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--refine", type=int, default=2, help="disc refinement (2: 32 cells across the hub's square)")
    parser.add_argument("--penalty", type=float, default=PENALTY, help="FElupe's contact multiplier scale")
    args = parser.parse_args()

    mesh = roller_mesh(args.refine)
    result, wall_fem2d = run_fem2d(mesh)
    zone = result.fields.system.zones[0]
    f_fem2d = np.asarray(result.histories["slave_normal_force"])[-1]
    d_fem2d = np.column_stack([result.histories["slave_dx"][-1], result.histories["slave_dy"][-1]])
    q = result.quantities
    print(f"## Roller R = {R} m, E = {E:g} Pa, nu = {NU}, neo-Hookean, plane strain, pressed D = {D} m "
          f"({len(mesh.group('DISC').nodes)} QUAD4 cells, {len(zone.slave_nodes)} rim nodes)\n")
    timing = result.timing
    print(f"fem2d: {wall_fem2d:.1f} s, {timing['steps']} load levels, {timing['body_newton_iterations']} Newton "
          f"iterations (most {timing['body_newton_most_iterations']} in a level), {timing['body_tangent_updates']} "
          "tangents; its own quantities: peak_pressure "
          f"{q['peak_pressure']:.6g} Pa, contact_half_width {q['contact_half_width']:.6g} m, contact_extent "
          f"{q['contact_extent']:.6g} m, HUB reaction y {q['HUB_reaction_y']:.6g} N/m\n")
    try:
        import felupe as fem
    except ImportError:
        print("FElupe is not installed: `pip install felupe` (e.g. /work/venv/bin/pip install felupe) to compare.")
        return
    f_felupe, penetration, wall_felupe, hub_felupe, d_felupe = run_felupe(fem, mesh, zone.slave_nodes, args.penalty)
    print(f"FElupe {fem.__version__}: {wall_felupe:.1f} s, penalty contact (multiplier {args.penalty:g} x mean "
          f"normal stiffness), largest penetration {penetration:.3e} m\n")
    a, b = measures(zone, f_fem2d, d_fem2d), measures(zone, f_felupe, d_felupe)
    undeformed = measures(zone, f_fem2d, None)  # what the reference rim would say of the same forces
    print("| quantity | fem2d (Lagrange) | FElupe (penalty) | (FElupe - fem2d) / fem2d | fem2d on the reference rim |")
    print("|---|---:|---:|---:|---:|")
    for key in a:
        rel = (b[key] - a[key]) / a[key] if a[key] else float("nan")
        print(f"| {key} | {a[key]:.6g} | {b[key]:.6g} | {rel:+.2e} | {undeformed[key]:.6g} |")
    # fem2d's reaction is K u - f - f_c on the held dofs: the small-strain K, without the finite body's
    # remainder g(u), so it differs from the contact force it balances
    reaction = q["HUB_reaction_y"]
    print(f"| hub reaction y (N/m; fem2d: its HUB_reaction_y) | {reaction:.6g} | {hub_felupe:.6g} | "
          f"{(hub_felupe - reaction) / reaction:+.2e} | |")


if __name__ == "__main__":
    main()
