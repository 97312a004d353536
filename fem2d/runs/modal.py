"""The reduced-modal path (code_aster's DYNA_TRAN_MODAL / DYNA_VIBRA
TYPE_CALCUL='TRAN', BASE_CALCUL='GENE').

case -> System -> lowest modes -> ModalProblem (projected loads, base
excitation, initial conditions, obstacles at nodes) -> euler / devogelaere /
adapt / exact -> wear power and impact statistics (SPEC sections 2-4, 6).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from fem2d.case.build import build_system
from fem2d.case.loading import Case
from fem2d.modal.basis import (
    Excitation,
    ModalProblem,
    TimeFunction,
    base_acceleration_load,
    modal_basis,
    node_modes,
    project_initial,
    project_load,
)
from fem2d.modal.shocks import Obstacle
from fem2d.model.system import Load, System
from fem2d.model.timefunctions import Constant, PiecewiseLinear, Sine


def _modal_function(case: Case, load: Load) -> TimeFunction:
    """A load's time function in the compiled integrators' representation."""
    f = load.function
    if isinstance(f, Sine):
        return TimeFunction.sine(f.amplitude, f.omega, f.phase)
    if isinstance(f, Constant):
        return TimeFunction.constant(f.value)
    if isinstance(f, PiecewiseLinear) and len(f.t) >= 2:
        return TimeFunction.table(f.t, f.values)
    raise case.error("loads", f"the modal path cannot use the time function of {load.label!r}")


def modal_problem(case: Case, system: System, info: dict) -> ModalProblem:
    """Project the case's System on its lowest modes and attach the obstacle."""
    s = case.settings
    n_free = len(system.free)
    if s["modal"]["n_modes"] > n_free:
        raise case.error("modal.n_modes", f"{s['modal']['n_modes']} modes asked, the model has {n_free} free "
                         f"dofs; expected 1 to {n_free}")
    basis = modal_basis(system.K_free, system.M_free, s["modal"]["n_modes"])
    excitations = [
        Excitation(project_load(basis, load.vector[system.free]), _modal_function(case, load)) for load in system.loads
    ]
    exc = s["excitation"]
    if exc["a0"] != 0.0:
        direction = np.asarray(exc["direction"], dtype=float)
        influence = np.tile(direction / np.linalg.norm(direction), system.n_dofs // 2)[system.free]
        load = base_acceleration_load(basis, system.M_free, influence)
        excitations.append(Excitation(load, TimeFunction.sine(exc["a0"], exc["omega"])))
    v0 = None
    if system.initial_velocity is not None:
        v0 = project_initial(basis, system.M_free, system.initial_velocity[system.free])
    obstacles = []
    ob = s["obstacle"]
    if ob.get("node") is not None:
        # one obstacle per node of the group, as code_aster's CHOC on a GROUP_NO
        mesh = system.mesh
        nodes = np.unique(mesh.group(ob["node"]).nodes)
        for node in nodes:
            dofs = tuple(int(i) for i in system.free_index[[2 * node, 2 * node + 1]])
            obstacles.append(
                Obstacle(
                    node_modes(basis, dofs),
                    kind=ob["type"],
                    normal=np.asarray(ob["normal"], dtype=float),
                    origin=np.asarray(ob["origin"], dtype=float),
                    position=mesh.points[node].copy(),
                    gap=ob["gap"],
                    kn=ob["kn"],
                    cn=ob["cn"],
                    kt=ob["kt"],
                    ct=ob.get("ct"),
                    mu_static=ob["mu"] if ob.get("mu_static") is None else ob["mu_static"],
                    mu_dynamic=ob["mu"],
                    name=ob["node"] if len(nodes) == 1 else f"{ob['node']}:{node}",
                )
            )
    return ModalProblem.from_basis(
        basis,
        damping_ratios=s["modal"]["damping"],
        excitations=tuple(excitations),
        obstacles=tuple(obstacles),
        v0=v0,
    )


def check_step(case: Case, problem: ModalProblem) -> None:
    """Reject an explicit step above the integrator's stability limit (computed from the
    highest frequency with the shock stiffness engaged, :mod:`fem2d.modal.stability`)."""
    from fem2d.modal.stability import STABLE_STEP, highest_frequency

    integrator, dt = case.settings["modal"]["integrator"], case.settings["time"]["dt"]
    if integrator not in STABLE_STEP:
        return
    omega = highest_frequency(problem)
    limit = STABLE_STEP[integrator] / omega if omega > 0.0 else float("inf")
    if dt > limit:
        factor = {"euler": "2", "devogelaere": "2*sqrt(2)"}.get(integrator, f"{STABLE_STEP[integrator]:g}")
        raise case.error("time.dt", f"{dt:g} s is above the stability limit of the explicit {integrator!r} "
                         f"integrator, {factor}/omega_max = {limit:.4g} s (omega_max = {omega:.4g} rad/s with the "
                         "shock stiffness obstacle.kn engaged); expected time.dt below it")


def run_modal_case(case: Case, progress: Callable[[float], None] | None = None):
    """Run a modal case; returns (quantities, histories, fields, timing)."""
    from fem2d.modal.integrators import run_modal

    t_start = time.perf_counter()
    system, info = build_system(case)
    problem = modal_problem(case, system, info)
    s = case.settings
    check_step(case, problem)
    window = s["post"].get("window")
    run = run_modal(
        problem,
        integrator=s["modal"]["integrator"],
        dt=s["time"]["dt"],
        t_end=s["time"]["end"],
        window=None if window is None else tuple(window),
        archive_stride=s["modal"]["archive"],
        wear_blocks=s["post"]["blocks"],
        impact_threshold=s["post"]["threshold"],
    )
    if progress is not None:
        progress(s["time"]["end"])
    histories = {}
    h = run.history
    if h is not None:
        histories = {"time": h.t, "q_1": h.q[:, 0], "v_1": h.v[:, 0]}
        if h.fn.shape[1]:
            histories.update(normal_force=h.fn[:, 0], tangential_force=h.ft[:, 0], gap=h.d[:, 0])
            histories.update(normal_velocity=h.vn[:, 0], sliding_velocity=h.vt[:, 0])
            histories.update(stuck=h.stuck[:, 0].astype(float), contact=h.contact[:, 0].astype(float))
    timing = {k: v for k, v in run.timing.items() if k != "wall_s"}
    timing.update(integrator_s=run.timing["wall_s"], model_s=time.perf_counter() - t_start - run.timing["wall_s"])
    timing["n_modes"] = problem.n_modes
    return dict(run.quantities), histories, {"system": system, "info": info, "modal_run": run}, timing
