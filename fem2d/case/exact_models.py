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
from typing import TYPE_CHECKING

import numpy as np

from fem2d.case.loading import Case
from fem2d.case.references import ExactReference, NoExactSolution

if TYPE_CHECKING:
    from fem2d.model.system import System


def _node_of(case: Case, system: System, key: str) -> int:
    name = case.get(key)
    if name is None:
        raise NoExactSolution(f"{key} is not set")
    nodes = np.unique(system.mesh.group(name).nodes)
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


def sliding_block(case: Case, system: System) -> ExactReference:
    r"""The rigid block on a horizontal support (SDNV104's analytic model).

    The finite-element model reduced to its rigid translation
    :math:`\mathbf t_x` (all free x dofs): :math:`m = \mathbf t_x^T M \mathbf t_x`,
    :math:`k = \mathbf t_x^T K_{springs} \mathbf t_x`, :math:`F_t = \mathbf t_x^T \mathbf f`,
    :math:`F_n = -\mathbf t_y^T \mathbf f`, the loads' common factor r(t) and
    ``contact.mu``; solved event by event by :func:`fem2d.exact.sliding_block.solve`.
    Quantities: ``x_at_T``, ``x_ext_k``, ``t_ext_k``, ``x_rest``, ``t_rest`` of the
    reported DX; the curve is x(t).
    """
    from fem2d.exact.sliding_block import SlidingBlock, solve
    from fem2d.post.extrema import time_label

    s = case.settings
    zones = s["contact"] if isinstance(s["contact"], list) else [s["contact"]]
    if len(system.zones) != 1 or len(zones) != 1 or zones[0].get("master") is None:
        raise NoExactSolution("the rigid block needs exactly one contact zone on a meshed master")
    mesh = system.mesh
    master = np.unique(mesh.group(zones[0]["master"]).nodes)
    if np.ptp(mesh.points[master, 1]) > 1e-12 * max(1.0, float(np.ptp(mesh.points[:, 0]))):
        raise NoExactSolution("the master surface is not horizontal")
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
    body = system.K - system.K_springs
    if abs(float(tx @ (body @ tx))) > 1e-9 * float(abs(body).sum()) or abs(float(ty @ (body @ ty))) > 1e-9 * float(
        abs(body).sum()
    ):
        raise NoExactSolution("a free body is tied to a fixed node: it is not a free rigid block")
    if mass <= 0.0 or stiffness <= 0.0:
        raise NoExactSolution("the block needs a mass and a spring in x")
    if s["report"]["component"] != "dx" or not free[2 * _node_of(case, system, "report.node")]:
        raise NoExactSolution("the reported dof is not a free DX of the block")
    ft = sum(float(tx @ load.vector) for load in system.loads)
    fn = -sum(float(ty @ load.vector) for load in system.loads)
    ramp_t, ramp_r = _ramp(_common_function(system, [tx, ty]))
    mu = zones[0]["mu"]
    if fn <= 0.0:
        raise NoExactSolution("the loads do not press the block on the support")
    sign = 1.0 if ft >= 0.0 else -1.0
    block = SlidingBlock(mass, stiffness, mu, sign * ft, fn, ramp_t, ramp_r)
    t_end = s["time"]["end"]
    sol = solve(block, t_end)
    at = {f"x_at_{time_label(t)}": t for t in s["report"]["at_times"] if t <= t_end}
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

    params = {"mass": mass, "stiffness": stiffness, "mu": mu, "ft": ft, "fn": fn, "ramp_t": ramp_t, "ramp_r": ramp_r}
    source = f"exact: rigid block, m={mass:.6g} k={stiffness:.6g} mu={mu:g} Ft={ft:.6g} Fn={fn:.6g}, event-driven"
    return ExactReference(source, value, curve, "exact rigid block (event-driven)", params)


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
    M, K = system.M.toarray(), system.K.toarray()
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


EXACT_MODELS: dict[str, Callable[[Case, System], ExactReference]] = {
    "sliding_block": sliding_block,
    "wear_on_vibrating_plane": wear_on_vibrating_plane,
    "oscillator_on_stop": oscillator_on_stop,
}
