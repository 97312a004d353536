"""The time grid of a run: step, end, and how a failed step is cut."""

from __future__ import annotations

import math
from dataclasses import dataclass

from fem2d.errors import ModelError, expect_real

#: The most steps a run may take: beyond a billion steps a run lasts days, and its times
#: t = n dt carry a round-off of n x 1e-16 of the step.
MOST_STEPS = 1e9
#: The smallest step, relative to ``end``, that still moves the time: t + min_dt rounds to t
#: in double precision below about 1e-16 t (a cut step would not advance).
SMALLEST_RELATIVE_STEP = 1e-12


@dataclass(frozen=True)
class TimeStepping:
    """March from 0 to ``end`` (s) by steps ``dt`` (s); a step whose contact
    problem does not converge is redone as ``cut_factor`` sub-steps, down to
    ``min_dt`` (code_aster's DEFI_LIST_INST with ECHEC / SUBD_PAS). With
    ``events``, a step in which a contact node closes, opens or reverses its
    slip is split at the event (:class:`fem2d.dynamics.events.EventLocator`).
    With ``stick_slip`` (the default), a step in which a sliding contact node
    stops or reverses is split at that instant and the scheme restarted there
    (:class:`fem2d.dynamics.stickslip.StickSlipLocator`): second order in time
    through stick/slip events. With ``extrapolate``, a direct run is made at
    ``dt`` and at ``dt / 2`` and its histories combined by Richardson
    extrapolation (:mod:`fem2d.runs.extrapolation`).

    >>> TimeStepping(dt=0.01, end=3.5).n_steps
    350
    >>> TimeStepping(dt=1.0, end=0.5)
    Traceback (most recent call last):
    ...
    fem2d.errors.ModelError: TimeStepping.dt: 1.0 is larger than end = 0.5
    >>> TimeStepping(dt=1e-300, end=1.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fem2d.errors.ModelError: TimeStepping.dt: 1e-300 s makes 1e+300 steps up to end = 1 s; expected at most ...

    Bounds: ``dt``, ``end`` and ``min_dt`` finite and > 0; ``dt <= end``; at most
    :data:`MOST_STEPS` steps; ``min_dt >= SMALLEST_RELATIVE_STEP x end`` (a smaller
    step would not move the time).
    """

    dt: float
    end: float
    cut_factor: int = 5
    min_dt: float = 1e-7
    events: bool = False
    stick_slip: bool = True
    extrapolate: bool = False

    def __post_init__(self) -> None:
        for name in ("dt", "end", "min_dt"):
            value = expect_real(self, name, getattr(self, name), "a time > 0 (s)")
            if not (math.isfinite(value) and value > 0):
                raise ModelError(self, name, f"expected a time > 0 (s), got {value!r}")
        if self.dt > self.end:
            raise ModelError(self, "dt", f"{self.dt} is larger than end = {self.end}")
        steps = self.end / self.dt  # inf for a denormal dt
        if not steps <= MOST_STEPS:
            raise ModelError(self, "dt", f"{self.dt:g} s makes {steps:.3g} steps up to end = {self.end:g} s; "
                             f"expected at most {MOST_STEPS:.0e} steps (a larger dt)")
        if self.min_dt < SMALLEST_RELATIVE_STEP * self.end:
            raise ModelError(self, "min_dt", f"{self.min_dt:g} s is below {SMALLEST_RELATIVE_STEP:g} x end = "
                             f"{SMALLEST_RELATIVE_STEP * self.end:g} s: a step that small does not move the time")
        if isinstance(self.cut_factor, bool) or not isinstance(self.cut_factor, int) or self.cut_factor < 2:
            raise ModelError(self, "cut_factor", f"expected an integer >= 2, got {self.cut_factor!r}")

    @property
    def n_steps(self) -> int:
        """Number of macro steps (the last one may be shorter)."""
        return max(1, math.ceil(self.end / self.dt - 1e-9))
