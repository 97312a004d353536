"""Exact models of the built-in cases, evaluated for a run's own settings.

Each model reads the physics it needs from the assembled System (masses,
spring stiffnesses, load resultants and their time function) and the case
settings (Coulomb coefficient, obstacle, window), and raises
:class:`~fem2d.case.references.NoExactSolution` when the run leaves the
model's assumptions. Register a new model in :data:`EXACT_MODELS`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from fem2d.case.exact_axisymmetric import AXISYMMETRIC_MODELS
from fem2d.case.exact_rolling import round_body_on_incline
from fem2d.case.exact_static import STATIC_MODELS
from fem2d.case.fields import tables_of
from fem2d.case.loading import Case
from fem2d.case.references import ExactReference, NoExactSolution
from fem2d.model.system import dense_array

if TYPE_CHECKING:
    from fem2d.exact.bars import BarImpact
    from fem2d.model.system import System


def _abs_sum(matrix, chunk: int = 1 << 20) -> float:
    """Sum of the absolute values of a sparse matrix's entries, without a copy of it."""
    data = matrix.data
    return float(sum(np.abs(data[i:i + chunk]).sum() for i in range(0, len(data), chunk)))


def _node_of(case: Case, system: System, key: str) -> int:
    name = case.get(key)
    if name is None:
        raise NoExactSolution(f"{key} is not set")
    nodes = system.mesh.group_nodes(name)
    if len(nodes) != 1:
        raise NoExactSolution(f"{key} names {len(nodes)} nodes; the model needs one")
    return int(nodes[0])


def _common_function(system: System, directions: list[np.ndarray]):
    """The one time function shared by every load acting along ``directions``."""
    from fem2d.model.timefunctions import Constant

    functions = []
    for load in system.loads:
        if any(abs(float(d @ load.vector)) > 0.0 for d in directions):
            functions.append(load.function)
    if not functions:
        return Constant(0.0)
    if any(f != functions[0] for f in functions[1:]):
        raise NoExactSolution("the loads follow different time functions")
    return functions[0]


def _ramp(function) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Knots (t from 0, r) of a constant or piecewise-linear load factor."""
    from fem2d.model.timefunctions import Constant, PiecewiseLinear

    if isinstance(function, Constant):
        return (0.0,), (function.value,)
    if isinstance(function, PiecewiseLinear):
        t = [0.0, *(tk for tk in function.t if tk > 0.0)]
        return tuple(t), tuple(float(np.interp(tk, function.t, function.values)) for tk in t)
    raise NoExactSolution(f"the load factor {type(function).__name__} is not piecewise linear")


@dataclass(frozen=True)
class RigidBlock:
    """A free body on one horizontal contact zone, reduced to its rigid translation:
    mass, spring stiffness in x, tangential and normal load resultants (Ft signed,
    Fn pressing it on the support), their common load factor and the zone's mu."""

    mass: float
    stiffness: float
    ft: float
    fn: float
    ramp_t: tuple[float, ...]
    ramp_r: tuple[float, ...]
    mu: float


def rigid_block(case: Case, system: System) -> RigidBlock:
    r"""The finite-element model reduced to its rigid translation :math:`\mathbf t_x`
    (all free x dofs): :math:`m = \mathbf t_x^T M \mathbf t_x`,
    :math:`k = \mathbf t_x^T K_{springs} \mathbf t_x`, :math:`F_t = \mathbf t_x^T \mathbf f`,
    :math:`F_n = -\mathbf t_y^T \mathbf f`, the loads' common factor r(t) and the
    zone's ``mu``; raises NoExactSolution unless the body slides as a rigid block on
    one horizontal support (a meshed master or a fixed rigid plane of normal +y), from
    rest, reported by a free DX."""
    zones = tables_of(case.settings["contact"])
    if len(system.zones) != 1 or len(zones) != 1:
        raise NoExactSolution("the rigid block needs exactly one contact zone")
    mesh = system.mesh
    plane = zones[0].get("plane")
    if zones[0].get("master") is not None:
        master = np.unique(mesh.group(zones[0]["master"]).nodes)
        if np.ptp(mesh.points[master, 1]) > 1e-12 * max(1.0, float(np.ptp(mesh.points[:, 0]))):
            raise NoExactSolution("the master surface is not horizontal")
    elif plane is not None:
        nx, ny = plane["normal"]
        if not (ny > 0.0 and abs(nx) <= 1e-12 * ny) or any(plane["displacement"]):
            raise NoExactSolution("the rigid plane is not a fixed horizontal support below the block")
    else:
        raise NoExactSolution("the rigid block needs a meshed master or a rigid plane")
    support = float(mesh.points[master[0], 1]) if plane is None else float(plane["point"][1])
    slave = mesh.points[np.unique(mesh.group(zones[0]["slave"]).nodes), 1]
    if np.max(np.abs(slave - support)) > 1e-9 * max(1.0, float(np.ptp(mesh.points[:, 0]))):
        raise NoExactSolution("the block does not rest on its support (a gap, or a slave surface that is not flat)")
    if system.initial_velocity is not None and np.any(system.initial_velocity):
        raise NoExactSolution("the block does not start at rest")
    if np.any(system.fixed_values):
        raise NoExactSolution("prescribed non-zero displacements")
    free = np.zeros(system.n_dofs, dtype=bool)
    free[system.free] = True
    if not np.array_equal(free[0::2], free[1::2]):
        raise NoExactSolution("some nodes are held in one direction only")
    tx, ty = np.zeros(system.n_dofs), np.zeros(system.n_dofs)
    tx[0::2], ty[1::2] = free[0::2], free[1::2]
    mass = float(tx @ (system.M @ tx))
    stiffness = float(tx @ (system.K_springs @ tx))
    K, K_s = system.K, system.K_springs  # the body's stiffness is K - K_s (not formed: 100 MB at level 6)
    scale = 1e-9 * (_abs_sum(K) + _abs_sum(K_s))
    if abs(float(tx @ (K @ tx) - tx @ (K_s @ tx))) > scale or abs(float(ty @ (K @ ty) - ty @ (K_s @ ty))) > scale:
        raise NoExactSolution("a free body is tied to a fixed node: it is not a free rigid block")
    if mass <= 0.0:
        raise NoExactSolution("the block has no mass")
    if case.get("report.component") != "dx" or not free[2 * _node_of(case, system, "report.node")]:
        raise NoExactSolution("the reported dof is not a free DX of the block")
    ft = sum(float(tx @ load.vector) for load in system.loads)
    fn = -sum(float(ty @ load.vector) for load in system.loads)
    if fn <= 0.0:
        raise NoExactSolution("the loads do not press the block on the support")
    ramp_t, ramp_r = _ramp(_common_function(system, [tx, ty]))
    return RigidBlock(mass, stiffness, ft, fn, ramp_t, ramp_r, zones[0]["mu"])


def _at_times(case: Case) -> dict[str, float]:
    """``{"x_at_1.70": 1.70, ...}``: the reported times inside the run."""
    from fem2d.post.extrema import time_label

    t_end = case.get("time.end")
    return {f"x_at_{time_label(t)}": t for t in case.get("report.at_times") if t <= t_end}


def sliding_block(case: Case, system: System) -> ExactReference:
    r"""The rigid block on a horizontal support held by springs (SDNV104's analytic
    model): :func:`rigid_block`, solved event by event by
    :func:`fem2d.exact.sliding_block.solve`. Quantities: ``x_at_T``, ``x_ext_k``,
    ``t_ext_k``, ``x_rest``, ``t_rest`` of the reported DX; the curve is x(t).
    """
    from fem2d.exact.sliding_block import SlidingBlock, solve

    b = rigid_block(case, system)
    if b.stiffness <= 0.0:
        raise NoExactSolution("the block needs a mass and a spring in x")
    sign = 1.0 if b.ft >= 0.0 else -1.0
    block = SlidingBlock(b.mass, b.stiffness, b.mu, sign * b.ft, b.fn, b.ramp_t, b.ramp_r)
    t_end = case.get("time.end")
    sol = solve(block, t_end)
    at = _at_times(case)
    ext_t, ext_x = sol.extrema()
    rest = sol.rest()

    def value(quantity: str) -> float | None:
        if quantity in at:
            return sign * float(sol.x(at[quantity]))
        match = re.fullmatch(r"([xt])_ext_(\d+)", quantity)
        if match:
            k = int(match[2]) - 1
            if not 0 <= k < len(ext_t):
                return None
            return float(ext_t[k]) if match[1] == "t" else sign * float(ext_x[k])
        if quantity in ("x_rest", "t_rest") and rest is not None:
            return float(rest[0]) if quantity == "t_rest" else sign * float(rest[1])
        return None

    def curve(t: np.ndarray) -> np.ndarray:
        return sign * sol.x(np.clip(np.asarray(t, dtype=float), 0.0, t_end))

    mass, stiffness, mu, ft, fn = b.mass, b.stiffness, b.mu, b.ft, b.fn
    params = {"mass": mass, "stiffness": stiffness, "mu": mu, "ft": ft, "fn": fn, "ramp_t": b.ramp_t,
              "ramp_r": b.ramp_r}
    source = f"exact: rigid block, m={mass:.6g} k={stiffness:.6g} mu={mu:g} Ft={ft:.6g} Fn={fn:.6g}, event-driven"
    return ExactReference(source, value, curve, "exact rigid block (event-driven)", params)


def block_on_incline(case: Case, system: System) -> ExactReference:
    r"""A block on an incline (:mod:`fem2d.exact.incline`): :func:`rigid_block` with
    no spring, gravity tilted over the horizontal support. The loads' resultant
    gives the slope and gravity, :math:`\tan\theta = F_t / F_n`,
    :math:`g = \sqrt{F_t^2 + F_n^2} / m`; the load factor must be constant or a
    linear ramp from 0 to 1. Quantities: ``x_at_T`` of the reported DX (0 when
    :math:`\tan\theta \le \mu`); the curve is x(t).
    """
    from fem2d.exact.incline import incline_displacement

    b = rigid_block(case, system)
    if b.stiffness != 0.0:
        raise NoExactSolution("a spring holds the block")
    if b.ramp_r == (1.0,):
        t_ramp = 0.0
    elif len(b.ramp_t) == 2 and b.ramp_r == (0.0, 1.0):
        t_ramp = b.ramp_t[1]
    else:
        raise NoExactSolution("the load factor is neither constant 1 nor a linear ramp from 0 to 1")
    sign = 1.0 if b.ft >= 0.0 else -1.0
    gravity, theta = float(np.hypot(b.ft, b.fn) / b.mass), float(np.arctan2(abs(b.ft), b.fn))
    at = _at_times(case)

    def curve(t: np.ndarray) -> np.ndarray:
        return sign * incline_displacement(t, gravity, theta, b.mu, t_ramp)

    def value(quantity: str) -> float | None:
        return float(curve(at[quantity])) if quantity in at else None

    source = (f"exact: block on a {np.degrees(theta):.6g} degree incline, g={gravity:.6g} mu={b.mu:g}, "
              f"{t_ramp:g} s ramp")
    params = {"gravity": gravity, "theta": theta, "mu": b.mu, "t_ramp": t_ramp}
    return ExactReference(source, value, curve, "exact block on the incline", params)


def _single_obstacle(case: Case, system: System):
    from fem2d.case.build import build_analysis

    built = build_analysis(case)
    with built.keys.translate():
        problem = built.analysis.problem(system)
    if len(problem.obstacles) != 1:
        raise NoExactSolution(f"the model needs one obstacle, the case has {len(problem.obstacles)}")
    return problem


def wear_on_vibrating_plane(case: Case, system: System) -> ExactReference:
    r"""A mass rubbing on a vibrating plane (SDND104): the event-driven exact
    solution of the case's own modal problem (:func:`fem2d.modal.events.event_driven`:
    ideal Coulomb stick, closed-form phases), its wear power over ``post.window``.

    Follows ``excitation.a0``, ``obstacle.mu`` / ``mu_static``, the normal
    force (``obstacle.kn``, ``gap``, ``origin``), the mass, the spring and the window.
    """
    from fem2d.modal.events import event_driven

    s = case.settings
    problem = _single_obstacle(case, system)
    t_end = s["time"]["end"]
    window = tuple(s["post"].get("window") or (0.0, t_end))
    if window[1] > t_end:
        raise NoExactSolution(f"post.window ends after time.end = {t_end:g}")
    from threadpoolctl import threadpool_limits

    try:
        # hundreds of 6x6 matrix exponentials: BLAS threads only add contention (10x on a busy machine)
        with threadpool_limits(limits=1):
            sol = event_driven(problem, t_end)
    except (NotImplementedError, ValueError) as exc:
        raise NoExactSolution(str(exc)) from None
    power = sol.wear_power(0, window)

    def value(quantity: str) -> float | None:
        return power if quantity == "wear_power" else None

    ob = s["obstacle"]
    source = (f"exact: event-driven, a0={s['excitation']['a0']:g} mu={ob['mu']:g} "
              f"window=[{window[0]:g}, {window[1]:g}]")
    return ExactReference(source, value, parameters={"window": window})


def oscillator_on_stop(case: Case, system: System) -> ExactReference:
    r"""A mass-spring launched into a stop (SDND101), with any clearance:
    :func:`fem2d.exact.modal_references.oscillator_impacts` for the node's mass
    and stiffness along the obstacle normal, ``obstacle.kn``, the initial
    velocity and the clearance ``obstacle.gap`` minus the node's distance from
    ``obstacle.origin``. Quantities: ``impact_K_*``, ``n_impacts``, ``f_max_abs``
    over ``post.window`` (threshold 0).
    """
    from fem2d.exact.modal_references import oscillator_impacts

    s = case.settings
    ob = s["obstacle"]
    if system.mesh.n_nodes != 1:
        raise NoExactSolution("the model is one node")
    if ob["cn"] != 0.0 or s["modal"]["damping"] != 0.0 or s["excitation"]["a0"] != 0.0:
        raise NoExactSolution("damping or base excitation")
    if s["post"]["threshold"] != 0.0:
        raise NoExactSolution("the impact statistics use a non-zero force threshold")
    if any(np.any(load.vector) for load in system.loads):
        raise NoExactSolution("the node is loaded")
    if ob["kn"] <= 0.0:
        raise NoExactSolution("obstacle.kn = 0")
    n = np.asarray(ob["normal"], dtype=float)
    n /= np.linalg.norm(n)
    free = np.zeros(2, dtype=bool)
    free[system.free] = True
    M, K = dense_array(system.M), dense_array(system.K)  # CSR, or dense: a modal run's small model
    m, k = float(n @ M @ n), float(n @ K @ n)
    if np.any(n[~free]) or np.any(np.abs((M @ n - m * n)[free]) > 1e-12 * m) or np.any(
        np.abs((K @ n - k * n)[free]) > 1e-12 * max(k, 1.0)
    ):
        raise NoExactSolution("the motion does not stay along the obstacle normal")
    v = np.zeros(2) if system.initial_velocity is None else system.initial_velocity
    if np.any(np.abs(v - (v @ n) * n) > 0.0):
        raise NoExactSolution("the initial velocity is not along the obstacle normal")
    v0 = float(v @ n)
    z0 = float((system.mesh.points[0] - np.asarray(ob["origin"], dtype=float)) @ n)
    if ob["type"] == "plan_z":
        side = 1.0 if v0 > 0.0 else -1.0
        clearance, other = ob["gap"] - side * z0, ob["gap"] + side * z0
    else:
        clearance, other = ob["gap"] + z0, np.inf
        if v0 >= 0.0:
            raise NoExactSolution("the node does not move towards the plane")
    if v0 == 0.0:
        raise NoExactSolution("the node starts at rest")
    if clearance < 0.0:
        raise NoExactSolution("the node starts in contact")
    if np.isfinite(other) and (k <= 0.0 or abs(v0) / np.sqrt(k / m) >= other):
        raise NoExactSolution("the node reaches the opposite plane")
    t_end = s["time"]["end"]
    ta, tb = s["post"].get("window") or (0.0, t_end)
    impacts = oscillator_impacts(m, k, ob["kn"], abs(v0), clearance, min(tb, t_end))
    if any(i["t_start"] < ta < i["t_start"] + i["duration"] for i in impacts):
        raise NoExactSolution("an impact is under way at the window start")
    impacts = [i for i in impacts if i["t_start"] >= ta]
    named = {"t_peak": "t_peak", "f_max": "f_max", "duration": "duration", "impulse": "impulse",
             "v_impact": "v_impact"}

    def value(quantity: str) -> float | None:
        if quantity == "n_impacts":
            return float(len(impacts))
        if quantity in ("f_max_abs", "f_max_mean"):
            return max(i["f_max"] for i in impacts) if impacts else None
        match = re.fullmatch(r"impact_(\d+)_(\w+)", quantity)
        if not match or not 1 <= int(match[1]) <= len(impacts):
            return None
        if match[2] == "n_elementary":
            return 1.0
        name = named.get(match[2])
        return None if name is None else impacts[int(match[1]) - 1][name]

    source = f"exact: impacts, m={m:g} k={k:g} kn={ob['kn']:g} v0={v0:g} clearance={clearance:g}"
    return ExactReference(source, value, parameters={"clearance": clearance})


@dataclass(frozen=True)
class Bar:
    """The first bar of a ``bars`` mesh as a 1D wave guide: length, Young's
    modulus, density, cross-section, and the builder's parameters."""

    length: float
    young: float
    density: float
    area: float
    params: dict


def _bar(case: Case, group: str, rollers: str) -> Bar:
    """Bar 1 of a case on the ``bars`` builder, checked one-dimensional: no
    Poisson effect and every bar node held in the transverse direction ``rollers``."""
    if case.get("mesh.geometry") != "bars" or case.get("mesh.file") is not None:
        raise NoExactSolution("the exact bar needs the bars builder's mesh")
    params = case.get("mesh.params")
    materials = {m["group"]: m for m in case.get("materials")}
    material = materials.get(group) or materials.get("BARS")
    if material is None:
        raise NoExactSolution(f"no material on {group} or BARS")
    if material["nu"] != 0.0:
        raise NoExactSolution("nu != 0: the bar is not one-dimensional")
    if not any(s["group"] == "BARS" and list(s["dofs"]) == [rollers] for s in case.get("supports")):
        raise NoExactSolution(f"the bars are not on rollers (a BARS support of {rollers} only)")
    thickness = case.get("model.thickness") if case.get("model.hypothesis") == "plane_stress" else 1.0
    length = float(params.get("lengths", [1.0])[0])
    return Bar(length, material["E"], material["rho"], params.get("height", 0.05) * thickness, params)


def _initial_velocity(case: Case, direction: int) -> float:
    """The initial speed of bar 1 along ``direction`` (0: x, 1: y), the same for all its nodes."""
    velocities = [tuple(i["velocity"]) for i in case.get("initial") if i["group"] in ("BAR1", "BARS")]
    if len(velocities) > 1 or len(case.get("initial")) != len(velocities):
        raise NoExactSolution("initial conditions on more than bar 1")
    v = velocities[0] if velocities else (0.0, 0.0)
    if v[1 - direction] != 0.0:
        raise NoExactSolution("the initial velocity is not along the bar")
    return float(v[direction])


def _impact_reference(name: str, impact: BarImpact, t_end: float) -> ExactReference:
    """The first contact's statistics (duration, impulse = plateau x duration, plateau
    force) and an unchanged energy, once the contact ends inside the run."""
    done = impact.t_end <= t_end
    values = {"impact_1_duration": impact.duration, "impact_1_impulse": impact.force * impact.duration,
              "impact_1_f_max": impact.force} if done else {}
    values |= {"energy_drift": 0.0, "n_reopenings": 0.0}

    def value(quantity: str) -> float | None:
        return values.get(quantity)

    return ExactReference(name, value, parameters={"t_start": impact.t_start, "duration": impact.duration,
                                                   "force": impact.force}, contact_force=impact.force_at)


def bar_on_rigid_wall(case: Case, system: System) -> ExactReference:
    r"""The Signorini bar (:func:`fem2d.exact.bars.bar_on_wall`): bar 1 of the
    ``bars`` builder, its E, rho and cross-section (``mesh.params.height`` x
    ``model.thickness``), its initial speed towards the end wall and
    ``mesh.params.wall_gap``. Quantities: ``impact_1_duration`` (2L/c),
    ``impact_1_impulse`` (2 m v0), ``impact_1_f_max`` (E A v0 / c), ``energy_drift``
    and ``n_reopenings`` (0)."""
    from fem2d.exact.bars import bar_on_wall

    bar = _bar(case, "BAR1", "dy")
    if bar.params.get("walls") != "end" or len(bar.params.get("lengths", [1.0])) != 1 or case.get("loads"):
        raise NoExactSolution("one unloaded bar and a wall at its end")
    v0 = _initial_velocity(case, 0)
    if v0 <= 0.0:
        raise NoExactSolution("the bar does not move towards the wall")
    impact = bar_on_wall(bar.length, bar.young, bar.density, bar.area, v0, bar.params.get("wall_gap", 0.0))
    source = (f"exact: bar on a wall, L={bar.length:g} E={bar.young:g} rho={bar.density:g} A={bar.area:g} "
              f"v0={v0:g} (fem2d/exact/bars.py)")
    return _impact_reference(source, impact, case.get("time.end"))


def bar_on_bar(case: Case, system: System) -> ExactReference:
    r"""Two identical bars (:func:`fem2d.exact.bars.two_bars`): bar 1 at its initial
    speed hits bar 2 at rest ``mesh.params.gaps[0]`` ahead. Quantities as
    :func:`bar_on_rigid_wall`, with the plateau E A v0 / (2c) and impulse m v0."""
    from fem2d.exact.bars import two_bars

    bar = _bar(case, "BARS", "dy")
    lengths = bar.params.get("lengths", [1.0])
    materials = {m["group"] for m in case.get("materials")}
    walls = bar.params.get("walls", "none")
    if len(lengths) != 2 or lengths[0] != lengths[1] or materials != {"BARS"} or walls != "none":
        raise NoExactSolution("two identical bars of one material and no wall")
    if case.get("loads"):
        raise NoExactSolution("the bars are loaded")
    v0 = _initial_velocity(case, 0)
    if v0 <= 0.0:
        raise NoExactSolution("bar 1 does not move towards bar 2")
    impact = two_bars(bar.length, bar.young, bar.density, bar.area, v0, (bar.params.get("gaps") or [0.0])[0])
    source = (f"exact: two bars, L={bar.length:g} E={bar.young:g} rho={bar.density:g} A={bar.area:g} v0={v0:g} "
              "(fem2d/exact/bars.py)")
    return _impact_reference(source, impact, case.get("time.end"))


def bouncing_bar(case: Case, system: System) -> ExactReference:
    r"""A vertical bar dropped on the ground (:class:`fem2d.exact.bars.BouncingBar`):
    bar 1, gravity from its body load (:math:`g = -f_y / \rho`), the drop
    ``mesh.params.wall_gap``. Quantities of the first contact: ``impact_1_duration``
    (2L/c) and ``impact_1_impulse`` (2 m v + 2 m g L / c; the force grows from Z v by
    the gravity wave, so no plateau), ``energy_drift`` and ``n_reopenings`` (0)."""
    from fem2d.exact.bars import BouncingBar

    bar = _bar(case, "BAR1", "dx")
    if bar.params.get("walls") != "start" or not bar.params.get("vertical") or len(bar.params.get("lengths", [1])) != 1:
        raise NoExactSolution("one vertical bar above the ground")
    loads = case.get("loads")
    if len(loads) != 1 or loads[0]["type"] != "body" or loads[0]["function"] != "constant":
        raise NoExactSolution("the bar's weight as its only, constant load")
    fx, fy = loads[0]["vector"]
    if fx != 0.0 or fy >= 0.0 or _initial_velocity(case, 1) != 0.0:
        raise NoExactSolution("a bar released at rest under a downward weight")
    try:
        bouncing = BouncingBar(bar.length, bar.young, bar.density, bar.area, -fy / bar.density,
                               bar.params.get("wall_gap", 0.0))
    except ValueError as exc:
        raise NoExactSolution(str(exc)) from None
    first = bouncing.impact(1)
    c, m = bouncing.c, bar.density * bar.area * bar.length
    impulse = 2.0 * m * bouncing.velocity + 2.0 * m * bouncing.g * bar.length / c
    reference = _impact_reference("", first, case.get("time.end"))
    done = first.t_end <= case.get("time.end")

    def value(quantity: str) -> float | None:
        if quantity == "impact_1_impulse":
            return impulse if done else None
        return None if quantity == "impact_1_f_max" else reference.value(quantity)

    source = (f"exact: bouncing bar, L={bar.length:g} E={bar.young:g} rho={bar.density:g} g={bouncing.g:g} "
              f"h={bouncing.drop:g} (fem2d/exact/bars.py)")
    return ExactReference(source, value, parameters=reference.parameters, contact_force=bouncing.force_at)


def hertz_line_contact(case: Case, system: System) -> ExactReference:
    r"""Hertz line contact of an elastic half disc on a rigid plane (:mod:`fem2d.exact.hertz`).

    Read from the run's own settings: the radius ``mesh.params.radius`` of the
    ``half_disc`` builder, the body's E and nu and ``model.hypothesis`` (plane
    strain: :math:`E^* = E/(1-\nu^2)`), and the line load :math:`P` as the
    resultant of the loads at ``time.end`` against the plane's normal, per unit
    thickness. Quantities: ``peak_pressure`` (:math:`p_0`) and
    ``contact_half_width`` (:math:`a`) of the one zone. Static and
    frictionless only: the distribution of a dynamic or frictional contact is
    not Hertz's.
    """
    from fem2d.exact.hertz import HertzLineContact

    s = case.settings
    zones = s["contact"] if isinstance(s["contact"], list) else [s["contact"]]
    if s["case"]["kind"] != "static":
        raise NoExactSolution("Hertz contact is a static solution (case.kind = static)")
    if len(system.zones) != 1 or len(zones) != 1 or zones[0].get("plane") is None:
        raise NoExactSolution("Hertz contact needs one contact zone on a rigid plane")
    if zones[0]["mu"] != 0.0:
        raise NoExactSolution("Hertz contact is frictionless (contact.mu = 0)")
    if s["mesh"].get("geometry") != "half_disc" or len(s["materials"]) != 1:
        raise NoExactSolution("Hertz contact needs one body meshed by the half_disc builder")
    from fem2d.mesh.disc import half_disc

    radius = float(s["mesh"]["params"].get("radius", half_disc.__defaults__[2]))
    material = s["materials"][0]
    normal = np.asarray(zones[0]["plane"]["normal"], dtype=float)
    normal = normal / np.linalg.norm(normal)
    force = system.force(s["time"]["end"]).reshape(-1, 2)
    thickness = s["model"]["thickness"]
    load = -float((force @ normal).sum()) / thickness
    if load <= 0.0:
        raise NoExactSolution("the loads do not press the disc on the plane")
    hertz = HertzLineContact(load, radius, material["E"], material["nu"], s["model"]["hypothesis"] == "plane_strain")
    values = {"peak_pressure": hertz.peak_pressure, "contact_half_width": hertz.half_width}
    source = (f"exact: Hertz line contact, P={load:.6g} N/m R={radius:g} m E*={hertz.effective_modulus:.6g} Pa: "
              f"a={hertz.half_width:.6g} m p0={hertz.peak_pressure:.6g} Pa")
    parameters = {"P": load, "R": radius, "E_star": hertz.effective_modulus, "a": hertz.half_width,
                  "p0": hertz.peak_pressure}
    return ExactReference(source, values.get, parameters=parameters)


EXACT_MODELS: dict[str, Callable[[Case, System], ExactReference]] = {
    "sliding_block": sliding_block,
    "wear_on_vibrating_plane": wear_on_vibrating_plane,
    "oscillator_on_stop": oscillator_on_stop,
    "block_on_incline": block_on_incline,
    "bar_on_wall": bar_on_rigid_wall,
    "two_bars": bar_on_bar,
    "bouncing_bar": bouncing_bar,
    "hertz_line_contact": hertz_line_contact,
    "round_body_on_incline": round_body_on_incline,
    **AXISYMMETRIC_MODELS,
    **STATIC_MODELS,
}
