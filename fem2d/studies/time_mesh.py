"""Time and space apart in a refinement study whose runs are extrapolated in time
(``time.extrapolate``): each quantity's time error beside its mesh error bar, and which
of the two to refine.

A run extrapolated in time is made at dt and dt/2 on one mesh; each quantity read from
both runs gives its time error estimate ``|q(dt/2) - q(dt)| / (2^p - 1)`` (the dt/2 run's,
a bound on the extrapolated value's own, :mod:`fem2d.runs.extrapolation`). The mesh error
bar is the finest level's GCI (:mod:`fem2d.studies.convergence`). When every level runs at
one ``time.dt`` that bar is the mesh's alone. When ``time.dt`` halves with h
(``--dt-with-h``: level L at dt_0 / 2^L) the levels' own values change with both; the mesh
part is then taken apart: level L's dt/2 run and level L+1's dt run share one step, so with
errors that add (``f = f_0 + a h^p + b dt^q``)

    d_L = q_dt(L+1) - q_dt/2(L) = a (h_{L+1}^p - h_L^p),

the mesh's change alone, and ``m_0 = q_dt/2(0)``, ``m_{L+1} = m_L + d_L`` are the levels at
the one step dt_0 / 2 (up to that step's constant time error). The mesh bar is the GCI of
that sequence.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from fem2d.studies.convergence import Convergence, convergence
from fem2d.studies.execution import RunRecord

#: with runs extrapolated in time: each level's time error estimate of the quantity, then on the
#: finest row the mesh error bar it is compared with and which of the two dominates
TIME_COLUMNS = ["time error", "mesh bar", "dominant"]


#: formal order of the finite-element solution by element (assumed with two levels only)
ELEMENT_ORDERS = {"quad4": 1, "tri3": 1, "quad8": 2, "quad9": 2, "tri6": 2}


def formal_order(records: Sequence[RunRecord]) -> float:
    """The formal order of the finest run's elements (1 when unknown: the wider bar)."""
    ok = [r for r in records if r.error is None and r.mesh]
    kinds = ok[-1].mesh.get("elements", []) if ok else []
    return float(min((ELEMENT_ORDERS.get(k, 1) for k in kinds), default=1))


def _level(record: RunRecord) -> int:
    from fem2d.case.loading import refine_level

    return refine_level(record.spec.overrides)


def _finished(records: Sequence[RunRecord]) -> list[RunRecord]:
    return sorted((r for r in records if r.error is None), key=_level)


def timed(records: Sequence[RunRecord]) -> bool:
    """Whether the study's runs were extrapolated in time (they carry time error estimates)."""
    return any(r.time_errors for r in records if r.error is None)


def time_error(records: Sequence[RunRecord], name: str) -> float | None:
    """The finest finished level's time error estimate of quantity ``name`` (None without)."""
    ok = _finished(records)
    return ok[-1].time_errors.get(name) if ok else None


def _step(record: RunRecord) -> float | None:
    return record.run_case.time_step if record.settings else None  # the case layer reads the settings


def step_follows_h(records: Sequence[RunRecord]) -> bool:
    """Whether ``time.dt`` changes with the level (``--dt-with-h``)."""
    return len({_step(r) for r in _finished(records)}) > 1


def mesh_at_one_step(levels: Sequence[int], steps: Sequence[tuple[float, float]], formal_order: float = 2.0
                     ) -> Convergence:
    """The convergence in h alone of a quantity whose level L was run at dt_0 / 2^L and dt_0 / 2^(L+1)
    (``steps[L] = (q_dt, q_dt/2)``, consecutive levels), from the sequence ``m`` of the module's
    equations.

    >>> levels = [0, 1, 2]
    >>> q = lambda lv, dt: 1.0 + 0.5 * 4.0**-lv + 3.0 * dt**2   # errors in h^2 and dt^2 that add
    >>> steps = [(q(lv, 0.1 / 2**lv), q(lv, 0.05 / 2**lv)) for lv in levels]
    >>> c = mesh_at_one_step(levels, steps)
    >>> round(c.order, 6), round(c.extrapolated, 9)     # the limit at dt = 0.05: 1 + 3 * 0.05^2
    (2.0, 1.0075)
    """
    m = [steps[0][1]]
    for k in range(1, len(levels)):
        m.append(m[-1] + steps[k][0] - steps[k - 1][1])
    return convergence(levels, m, formal_order)


def mesh_bars(records: Sequence[RunRecord], conv: Mapping[str, Convergence]) -> dict[str, float | None]:
    """The mesh error bar (half-width) of each quantity at the finest level: its GCI band with
    one ``time.dt`` at every level; with ``time.dt`` halving with h, the band of
    :func:`mesh_at_one_step` (None where a level lacks the quantity's two steps or the levels are
    not consecutive: the mesh part cannot be taken apart)."""
    if not step_follows_h(records):
        return {name: c.band for name, c in conv.items()}
    ok = _finished(records)
    levels = [_level(r) for r in ok]
    consecutive = all(b == a + 1 for a, b in zip(levels, levels[1:]))
    out: dict[str, float | None] = {}
    for name in conv:
        steps = [r.step_values.get(name) for r in ok]
        if not consecutive or len(levels) < 2 or any(s is None for s in steps):
            out[name] = None
            continue
        out[name] = mesh_at_one_step(levels, steps, formal_order(ok)).band
    return out


def dominant(mesh_bar: float | None, time_err: float | None) -> str | None:
    """Which error is the larger at the finest level: ``"time"`` when the time error estimate
    exceeds the mesh error bar's half-width, else ``"mesh"``; ``"mesh (no bar)"`` when the
    levels give no mesh bar (they diverge); None without a time error or when both are zero.

    >>> dominant(0.02, 0.1), dominant(0.02, 1e-4), dominant(0.02, None), dominant(None, 0.1)
    ('time', 'mesh', None, 'mesh (no bar)')
    """
    if time_err is None or (mesh_bar is not None and not math.isfinite(mesh_bar)):
        return None
    if mesh_bar is None:
        return "mesh (no bar)"
    if time_err == 0.0 and mesh_bar == 0.0:
        return None
    return "time" if time_err > mesh_bar else "mesh"


def time_and_mesh(records: Sequence[RunRecord], conv: Mapping[str, Convergence]) -> str | None:
    """The one line that says, at the finest level, which quantities' time error dominates
    their mesh error bar (take a smaller ``time.dt``) and which the mesh's (refine the mesh);
    None when the runs were not extrapolated in time."""
    if not timed(records):
        return None
    bars = mesh_bars(records, conv)
    by: dict[str, list[str]] = {"time": [], "mesh": [], "mesh (no bar)": []}
    for name in conv:
        t, band = time_error(records, name), bars.get(name)
        d = dominant(band, t)
        if d is not None:
            by[d].append(name if band is None else f"{name} ({t:.2g} against +-{band:.2g})")
    parts = []
    if by["time"]:
        parts.append(f"the time error dominates {', '.join(by['time'])}: take a smaller time.dt")
    if by["mesh"]:
        parts.append(f"the mesh error dominates {', '.join(by['mesh'])}: refine the mesh")
    if by["mesh (no bar)"]:
        parts.append(f"no mesh error bar for {', '.join(by['mesh (no bar)'])} (the levels do not converge yet): "
                     "refine the mesh")
    ok = _finished(records)
    finest = _level(ok[-1]) if ok else 0
    apart = (" (time.dt halves with h: the mesh bar is of the levels' changes at one time.dt, each level's dt/2 run "
             "against the next level's dt run)") if step_follows_h(records) else ""
    return f"time against mesh at level {finest}{apart}: " + ("; ".join(parts) if parts else
                                                              "no quantity has either error")
