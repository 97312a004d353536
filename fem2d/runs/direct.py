"""The direct path: Newmark/HHT on the finite-element system, with contact.

case -> System -> NewmarkStepper (+ ContactCoupling) -> DirectHistory ->
quantities of SPEC section 6 (``x_at_T``, ``x_ext_k``, ``t_ext_k``,
``x_rest``, ``t_rest``) plus run diagnostics (energy balance, penetration).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from fem2d.case.build import build_system, contact_tables
from fem2d.case.loading import Case
from fem2d.dynamics.coupling import ContactCoupling
from fem2d.dynamics.events import EventLocator
from fem2d.dynamics.history import DirectHistory
from fem2d.dynamics.measures import MeasureRecorder, measured_quantities
from fem2d.dynamics.schemes import NewmarkScheme, TimeScheme
from fem2d.dynamics.stepper import NewmarkStepper, integrate
from fem2d.errors import ConvergenceError
from fem2d.linalg import get_solver
from fem2d.post.energy import energy_balance, energy_quantities
from fem2d.post.extrema import extrema, rest, time_label, value_at
from fem2d.post.impacts import impact_statistics


def scheme_of(case: Case) -> TimeScheme:
    """The time scheme a case asks for (``time.scheme``).

    ``newmark``: (beta, gamma); ``hht``: code_aster's HHT as DYNA_NON_LINE
    runs it by default (modified average acceleration, first order);
    ``hht_full``: Hilber-Hughes-Taylor proper (code_aster's MODI_EQUI='OUI');
    ``generalized_alpha``: Chung-Hulbert with ``time.rho_inf``;
    ``modified_mass``: Newmark (beta, gamma) on the modified mass of the contact
    nodes (:meth:`NewmarkScheme.modified_mass`, applied in :func:`run_direct`);
    ``auto``: ``modified_mass`` when the case has contact, ``newmark`` otherwise
    (plain Newmark creates energy at impacts: README, time schemes).
    """
    t = case.settings["time"]
    if t["scheme"] == "hht":
        return NewmarkScheme.hht(t["alpha"])
    if t["scheme"] == "hht_full":
        return NewmarkScheme.hht_alpha(t["alpha"])
    if t["scheme"] == "generalized_alpha":
        return NewmarkScheme.generalized_alpha(t["rho_inf"])
    return NewmarkScheme(t["beta"], t["gamma"])


def formulation_options(contact: dict, young_modulus: float) -> dict:
    """Options of a zone's contact method, from its ``[contact]`` table."""
    common = {"max_iter": contact["max_iter"], "tolerance": contact["tolerance"]}
    if contact["method"] == "penalty":
        return {**common, "e_n": contact.get("e_n"), "e_t": contact.get("e_t"), "young_modulus": young_modulus}
    if contact["method"] == "continuous":
        return {
            **common,
            "integration": contact["integration"],
            "rho_n": contact["rho_n"],
            "rho_t": contact["rho_t"],
        }
    return common


def contact_coupling(case: Case, system, info: dict) -> ContactCoupling | None:
    """The coupling of the case's contact zones, each with its own formulation."""
    if not system.zones:
        return None
    from fem2d.contact import make_formulation

    formulations = [
        make_formulation(c["method"], **formulation_options(c, young))
        for c, young in zip(contact_tables(case.settings), info["zone_moduli"])
    ]
    return ContactCoupling(system, system.zones, formulations)


def run_direct(case: Case, progress: Callable[[float], None] | None = None):
    """Run a direct case; returns (quantities, histories, fields, timing)."""
    t_start = time.perf_counter()
    system, info = build_system(case)
    t_model = time.perf_counter() - t_start
    coupling = contact_coupling(case, system, info)
    scheme = scheme_of(case)
    name = case.settings["time"]["scheme"]
    if name == "modified_mass" or (name == "auto" and system.zones):
        if not system.zones:
            raise case.error("time.scheme", "the modified mass method needs a contact zone")
        nodes = np.unique(np.concatenate([zone.boundary_nodes for zone in system.zones]))
        # a rigid plane's two prescribed end nodes belong to no cell and carry no mass
        bodies = system.mesh.cells_of_dimension(2).values()
        in_cells = np.unique(np.concatenate([b.nodes[:, :4].ravel() for b in bodies]))
        nodes = nodes[np.isin(nodes, in_cells)]
        scheme = scheme.modified_mass(system, nodes)
    stepper = NewmarkStepper(system, scheme, get_solver(case.settings["solver"]["linear"]), coupling)
    history = DirectHistory(
        system, info.get("report_dof"), case.settings["report"]["snapshots"], stepper.force_free, scheme.mass(system)
    )
    measures = MeasureRecorder(
        system,
        info["bodies"],
        scheme.mass(system),
        info["reactions"],
        coupling.boundary_nodes if coupling is not None else None,
    )
    state = stepper.initial_state()
    history.start(state)
    measures.start(state)

    def on_step(previous, new):
        history.on_step(previous, new)
        measures.on_step(previous, new)

    t = case.settings["time"]
    if t["events"] and coupling is None:
        raise case.error("time.events", "locating contact events needs a contact zone")
    events = EventLocator(min_step=t["dt"] / 2**12) if t["events"] else None
    try:
        final = integrate(stepper, state, t["end"], t["dt"], on_step, t["cut_factor"], t["min_dt"], progress, events)
    except ConvergenceError as exc:
        left = left_master_warnings(history.arrays())
        if left:  # the likely cause, said with the failure
            raise ConvergenceError(f"{exc}; before that, {left[0]}") from None
        raise
    series = history.arrays()
    measured = measures.arrays()
    if "work_motions" in measured:  # moving supports and obstacles work like loads
        series["work_loads"] = series["work_loads"] + measured["work_motions"]
        series["energy_residual"] = series["energy_residual"] - measured["work_motions"]
    quantities = direct_quantities(case, series)
    post = case.settings["post"]
    quantities.update(
        measured_quantities(
            measured,
            list(info["bodies"]),
            [zone.name for zone in system.zones],
            case.settings["report"]["at_times"],
            list(info["reactions"]),
            post["threshold"],
            post["quiet"],
            post.get("window"),
        )
    )
    series.update({k: v for k, v in measured.items() if k != "time"})
    n_modes = case.settings["report"]["modes"]
    if n_modes:
        from fem2d.modal.basis import modal_basis

        for i, f in enumerate(modal_basis(system.K_free, system.M_free, n_modes).frequencies, start=1):
            quantities[f"f_{i}"] = float(f)
    counters = stepper.counters
    timing = {
        "steps": counters.steps,
        "step_cuts": counters.cuts,
        "events_impacts": events.impacts if events is not None else 0,
        "events_releases": events.releases if events is not None else 0,
        "events_reversals": events.reversals if events is not None else 0,
        "newton_iterations": counters.newton_iterations,
        "factorizations": counters.factorizations,
        "step_sizes": stepper.step_sizes,
        "factorization_s": counters.factorization_s,
        "condensation_s": counters.condensation_s,
        "contact_s": counters.contact_s,
        "model_s": t_model,
        "integration_s": time.perf_counter() - t_start - t_model,
        "n_dofs": int(system.n_dofs),
        "n_free_dofs": int(len(system.free)),
        "n_slave": int(sum(zone.n_slave for zone in system.zones)),
    }
    fields = {"system": system, "final_state": final, "info": info, "warnings": left_master_warnings(series)}
    if history.snapshot_every:
        fields["snapshots"] = history.snapshots()
    return quantities, series, fields, timing


def left_master_warnings(series: dict[str, np.ndarray]) -> list[str]:
    """A warning when slave nodes left their master surface during the run."""
    left = series.get("n_left_master")
    if left is None or not np.any(left > 0):
        return []
    first = int(np.argmax(left > 0))
    return [
        f"{int(left.max())} slave node(s) left their master surface (first at t = {series['time'][first]:.6g} s): "
        "contact is not enforced there; make the master longer (e.g. mesh.params.support_length)"
    ]


def direct_quantities(case: Case, series: dict[str, np.ndarray]) -> dict[str, float]:
    """SPEC section 6 quantities of the reported dof plus run diagnostics."""
    times, u, v = series["time"], series["u"], series["v"]
    q: dict[str, float] = {}
    report = case.settings["report"]
    for t in report["at_times"]:
        q[f"x_at_{time_label(t)}"] = value_at(times, u, v, t)
    for k, (t_ext, x_ext, _) in enumerate(extrema(times, u, v)[: report["extrema"]], start=1):
        q[f"x_ext_{k}"] = x_ext
        q[f"t_ext_{k}"] = t_ext
    at_rest = rest(times, u, v)
    if at_rest is not None:
        q["t_rest"], q["x_rest"] = at_rest
    work = series["work_loads"][-1]
    q["energy_balance_error"] = float(abs(series["energy_residual"][-1]) / abs(work)) if work else 0.0
    if "penetration" in series:
        q["max_penetration"] = float(np.max(series["penetration"]))
        q["friction_dissipation"] = float(series["friction_dissipation"][-1])
        q["n_left_master"] = float(np.max(series["n_left_master"]))
    q["work_loads"] = float(work)
    q.update(energy_quantities(series))
    if "normal_force" in series:
        post = case.settings["post"]
        window = post.get("window")
        stats = impact_statistics(times, series["normal_force"], v, post["threshold"], post["quiet"], window)
        q.update(stats.quantities())
        q["n_reopenings"] = sum(imp.n_elementary - 1 for imp in stats.impacts)
        balance = energy_balance(series)
        scale = max(float(balance["energy"][0]), float(np.max(np.abs(balance["work"])))) or 1.0
        for k, impact in enumerate(stats.impacts, start=1):
            after = min(np.searchsorted(times, impact.t_end), len(times) - 1)
            q[f"impact_{k}_energy_drift"] = float(balance["imbalance"][after] / scale)
    return q
