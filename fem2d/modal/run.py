"""Run a modal problem and post-process it (:func:`run_modal`, the entry point of the
case layer): the history of an integrator of :mod:`fem2d.modal.integrators`, or the
sampled exact solution of :mod:`fem2d.modal.events`, then the wear power and the
impact statistics of every obstacle."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from fem2d.errors import UnsupportedError
from fem2d.modal.basis import ModalProblem
from fem2d.modal.integrators import ModalHistory, integrate_modal

__all__ = ["ModalRun", "run_modal"]


@dataclass(frozen=True)
class ModalRun:
    """Result of :func:`run_modal`: history, quantities (named as in ``result.json``), timing.

    ``exact`` holds the :class:`~fem2d.modal.events.ExactSolution` of the
    ``"exact"`` integrator (None otherwise); its sampled history has NaN in
    ``ft``, ``d`` and ``xt``.
    """

    history: ModalHistory | None
    quantities: dict[str, float]
    timing: dict[str, float]
    exact: object | None = None


def _exact_history(sol, problem: ModalProblem, dt: float, t_end: float, stride: int) -> ModalHistory:
    step = dt * stride
    n = int(math.floor((t_end - problem.t0) / step + 1e-9)) + 1
    times = problem.t0 + step * np.arange(n)
    if times[-1] < t_end - 1e-9 * step:
        times = np.append(times, t_end)
    s = sol.sample(times)
    nan = np.full_like(s["fn"], np.nan)
    return ModalHistory(
        t=times, q=s["q"][:, None], v=s["v"][:, None], fn=s["fn"], ft=nan, d=nan.copy(), xt=nan.copy(),
        vn=s["vn"], vt=s["vt"], stuck=s["stuck"], contact=s["contact"],
        names=tuple(o.name for o in problem.obstacles), scheme="exact", steps=len(sol.phases),
        evaluations=len(sol.events),
    )


def run_modal(
    problem: ModalProblem,
    integrator: str = "euler",
    dt: float = 1e-4,
    t_end: float = 1.0,
    window: tuple[float, float] | None = None,
    archive_stride: int = 1,
    wear_blocks: int = 8,
    impact_threshold: float = 0.0,
    impact_rest: float = 0.0,
    dt_max: float | None = None,
    sample_exact: bool = True,
) -> ModalRun:
    """Run a modal problem and post-process it: the entry point of the case layer.

    Parameters
    ----------
    problem : ModalProblem
    integrator : {"euler", "devogelaere", "adapt", "exact"}
    dt, t_end : float
        Step (initial step for ``adapt``; sampling step for ``exact``) and final time (s).
    window : (t_a, t_b) or None
        Window of the wear and impact statistics (whole run if None).
    archive_stride : int
        Keep every ``archive_stride``-th sample in the history.
    wear_blocks : int
        ``NB_BLOC`` of the wear power.
    impact_threshold, impact_rest : float
        ``SEUIL_FORCE`` (N) and ``DUREE_REPOS`` (s) of the impact statistics
        (the exact path supports a zero threshold only).
    dt_max : float or None
        Largest step of ``adapt`` (default ``dt``).
    sample_exact : bool
        Also sample the exact solution every ``dt * archive_stride``.

    Returns
    -------
    ModalRun
        Quantities, for the first obstacle: ``wear_power`` (W, needs friction),
        ``impact_K_t_peak`` (s), ``impact_K_f_max`` (N), ``impact_K_duration``
        (s), ``impact_K_impulse`` (N s), ``impact_K_v_impact`` (m/s),
        ``impact_K_n_elementary``, ``n_impacts``, ``f_max_abs`` (N),
        ``f_max_mean``, ``f_max_std``; with several obstacles the same names
        prefixed by ``"<obstacle name>/"`` for every obstacle. Timing:
        ``wall_s``, ``steps`` (steps, or phases for ``exact``), ``evaluations``,
        ``rejected``.
    """
    import time

    from fem2d.post.impacts import impact_statistics
    from fem2d.post.wear import wear_power

    start = time.perf_counter()
    win = (problem.t0, t_end) if window is None else (float(window[0]), float(window[1]))
    quantities: dict[str, float] = {}
    sol = None
    prefixes = [""] if len(problem.obstacles) == 1 else [f"{o.name}/" for o in problem.obstacles]
    if integrator == "exact":
        if impact_threshold != 0.0:
            message = "the exact impact statistics use a zero force threshold"
            raise UnsupportedError("run_modal", "impact_threshold", message)
        from fem2d.modal.events import event_driven  # needs scipy; imported only here

        sol = event_driven(problem, t_end)
        history = _exact_history(sol, problem, dt, t_end, archive_stride) if sample_exact else None
        for i, prefix in enumerate(prefixes):
            quantities[prefix + "wear_power"] = sol.wear_power(i, win)
            quantities.update(sol.impacts(i, win, impact_rest).quantities(prefix))
        steps, evals, rejected = len(sol.phases), len(sol.events), 0
    else:
        history = integrate_modal(problem, integrator, dt, t_end, archive_stride, dt_max)
        if history.diverged:  # no quantities: the caller says where it stopped
            timing = {"wall_s": time.perf_counter() - start, "steps": history.steps,
                      "evaluations": history.evaluations, "rejected": history.rejected}
            return ModalRun(history, {}, timing, None)
        for i, prefix in enumerate(prefixes):
            h = history
            try:
                wear = wear_power(h.t, h.fn[:, i], h.vt[:, i], ~h.stuck[:, i], win, wear_blocks)
            except ValueError:  # too few samples in the window for the blocks
                wear = float("nan")
            quantities[prefix + "wear_power"] = wear
            stats = impact_statistics(h.t, h.fn[:, i], h.vn[:, i], impact_threshold, impact_rest, win)
            quantities.update(stats.quantities(prefix))
        steps, evals, rejected = history.steps, history.evaluations, history.rejected
    if len(prefixes) > 1:  # the first obstacle's values also under the plain names
        quantities.update({k[len(prefixes[0]):]: v for k, v in list(quantities.items()) if k.startswith(prefixes[0])})
    timing = {"wall_s": time.perf_counter() - start, "steps": steps, "evaluations": evals, "rejected": rejected}
    return ModalRun(history, quantities, timing, sol)
