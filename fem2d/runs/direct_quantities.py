"""The quantities of a direct run read from its histories: the reported dof's (its
displacement at the report's instants, extrema, rest) and the run's diagnostics (energy
balance, penetration, impact statistics), for a single run or a combination of runs."""

from __future__ import annotations

import numpy as np

from fem2d.contact.problem import SLIP
from fem2d.dynamics.stickslip import HELD_SHARE
from fem2d.model.report import Report
from fem2d.post.energy import energy_balance, energy_quantities, energy_scale
from fem2d.post.extrema import extrema, rest, slip_end, time_label, value_at
from fem2d.post.impacts import impact_statistics


def sliding_records(series: dict[str, np.ndarray]) -> np.ndarray | None:
    """Per record, whether the contact slid over the step ending there: its sliding nodes carry at
    least :data:`~fem2d.dynamics.stickslip.HELD_SHARE` of its normal force (fewer creep at their
    friction limit on a body the sticking ones hold); None without contact."""
    status, force = series.get("slave_status"), series.get("slave_normal_force")
    if status is None or force is None:
        return None
    force = np.maximum(force, 0.0)
    total = force.sum(axis=1)
    return (total > 0.0) & (np.where(status == SLIP, force, 0.0).sum(axis=1) >= HELD_SHARE * total)


def direct_quantities(report: Report, series: dict[str, np.ndarray], friction: bool = False) -> dict[str, float]:
    """The reported dof's quantities plus run diagnostics. At rest: ``t_still``, the instant the
    reported velocity falls below 1e-6 of its peak for good (:func:`~fem2d.post.extrema.rest`);
    with ``friction``, ``t_rest`` and ``x_rest``, the instant the contact stopped sliding for good
    (:func:`~fem2d.post.extrema.slip_end` of :func:`sliding_records`) and the final displacement."""
    times, u, v = series["time"], series["u"], series["v"]
    q: dict[str, float] = {}
    for t in report.at_times if report.node is not None else ():  # without a node, at_times serve the groups
        q[f"x_at_{time_label(t)}"] = value_at(times, u, v, t)
    for k, (t_ext, x_ext, _) in enumerate(extrema(times, u, v)[: report.extrema], start=1):
        q[f"x_ext_{k}"] = x_ext
        q[f"t_ext_{k}"] = t_ext
    at_rest = rest(times, u, v)
    if at_rest is not None:
        q["t_still"] = at_rest[0]
    sliding = sliding_records(series) if friction else None
    stop = slip_end(times, u, v, sliding) if sliding is not None else None
    if stop is not None:
        q["t_rest"], q["x_rest"] = stop, float(u[-1])
    work = series["work_loads"][-1]
    if "penetration" in series:
        q["max_penetration"] = float(np.max(series["penetration"]))
        q["friction_dissipation"] = float(series["friction_dissipation"][-1])
        q["n_left_master"] = float(np.max(series["n_left_master"]))
    q["work_loads"] = float(work)
    # the other terms of the energy balance (fem2d.post.energy), at the end of the run
    for term in ("work_motions", "damping_dissipation", "numerical_dissipation"):
        if term in series and (term == "numerical_dissipation" or np.any(series[term])):
            q[term] = float(series[term][-1])
    q.update(energy_quantities(series))
    if "normal_force" in series:
        stats = impact_statistics(times, series["normal_force"], v, report.impact_threshold, report.impact_quiet,
                                  report.window)
        q.update(stats.quantities())
        q["n_reopenings"] = sum(imp.n_elementary - 1 for imp in stats.impacts)
        balance = energy_balance(series)
        scale = energy_scale(balance) or 1.0
        for k, impact in enumerate(stats.impacts, start=1):
            after = min(np.searchsorted(times, impact.t_end), len(times) - 1)
            q[f"impact_{k}_energy_drift"] = float(balance["imbalance"][after] / scale)
    return q
