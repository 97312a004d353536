r"""Contact chatter: a contact under a steady load that opens and closes.

A body pressed on its support stays in contact; impacts of a body that flies
(a bouncing bar) leave the contact open most of the time, and a body that
bounced to rest has settled. Over the stretch from the first closing to the
last, a zone whose contact is closed at least :data:`CLOSED_SHARE` of the time,
opens :data:`MIN_OPENINGS` times or more and still opens in the last
:data:`LATE_SHARE` of the run chatters: its normal force swings far from its quasi-static value, which the
run reports as the largest force over the median force while closed.

On an elastic body sliding under load with friction this is the flutter of the
contact modes that Coulomb's law excites (it vanishes at mu = 0): it grows as
the step shrinks below the time a wave takes to cross a cell (the semi-discrete
model's own instability, resolved), and a dissipative scheme removes it at the
steps that do not resolve it (docs/theory/time-schemes.md, "Chatter").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Share of the time a chattering contact is closed, from its first closing to its last.
CLOSED_SHARE = 0.5
#: Openings from which a contact that is mostly closed chatters.
MIN_OPENINGS = 3
#: A chattering contact still opens in this last share of the run from its first closing (a body
#: that bounced to rest has settled long before the end).
LATE_SHARE = 0.25


@dataclass(frozen=True)
class Chatter:
    """What :func:`chatter` found on one zone's normal force history."""

    openings: int
    t_first: float
    t_last: float
    closed_share: float
    swing: float
    median_force: float

    def sentence(self, zone: str, remedy: str | None = None) -> str:
        """The one-line warning for ``zone``, with ``remedy`` (what the run's scheme can change)."""
        return (f"contact {zone!r} chatters: it opened and closed {self.openings} times between "
                f"{self.t_first:.6g} s and {self.t_last:.6g} s while closed {self.closed_share:.0%} of that "
                f"time, its normal force up to {self.swing:.3g} times its median {self.median_force:.3g} N "
                "(with friction on a sliding elastic body: the flutter of its contact modes, which grows as "
                "time.dt falls below a wave's time across a cell; see the time schemes page, \"Chatter\")"
                + ("" if remedy is None else f"; {remedy}"))


def chatter(times: np.ndarray, force: np.ndarray, threshold: float = 0.0) -> Chatter | None:
    """The chatter of a contact whose total normal force is ``force`` at ``times``
    (closed where it is above ``threshold``), or None.

    >>> t = np.linspace(0.0, 1.0, 101)
    >>> steady = np.where(t > 0.05, 1.0, 0.0)
    >>> chatter(t, steady) is None
    True
    >>> flicker = np.where((t > 0.05) & (np.arange(101) % 10 != 0), 1.0, 0.0)
    >>> c = chatter(t, flicker); (c.openings, round(c.closed_share, 2))
    (9, 0.9)
    >>> bounces = np.where(np.arange(101) % 20 == 0, 1.0, 0.0)   # a body that flies between impacts
    >>> chatter(t, bounces) is None
    True
    >>> settled = np.where((t > 0.05) & ((np.arange(101) % 10 != 0) | (t > 0.5)), 1.0, 0.0)
    >>> chatter(t, settled) is None   # bounced to rest by half the run
    True
    """
    closed = np.asarray(force, dtype=float) > threshold
    if not closed.any():
        return None
    first, last = np.flatnonzero(closed)[[0, -1]]
    span = closed[first:last + 1]
    openings = int(np.count_nonzero(span[:-1] & ~span[1:]))
    dt = np.diff(np.asarray(times, dtype=float))[first:last]
    duration = float(dt.sum())
    share = float(dt[span[1:]].sum() / duration) if duration > 0.0 else 1.0
    last_open = first + int(np.flatnonzero(span[:-1] & ~span[1:])[-1]) if openings else first
    settled = times[last_open] < times[first] + (1.0 - LATE_SHARE) * (times[-1] - times[first])
    if openings < MIN_OPENINGS or share < CLOSED_SHARE or settled:
        return None
    f = np.asarray(force, dtype=float)[first:last + 1][span]
    median = float(np.median(f))
    return Chatter(openings, float(times[first]), float(times[last]), share,
                   float(f.max() / median) if median > 0.0 else float("inf"), median)


def zone_chatter(
    series: dict[str, np.ndarray], zones: list[str], prefixes: list[str], threshold: float = 0.0,
    remedy: str | None = None,
) -> tuple[dict[str, float], list[str]]:
    """Per contact zone, the quantity ``chatter_openings`` (0 when it does not chatter; prefixed
    with the zone's name when there are several) and the one-line warnings of the zones that do,
    each with ``remedy``.

    >>> t = np.linspace(0.0, 1.0, 101)
    >>> s = {"time": t, "A/B:normal_force": np.where(np.arange(101) % 10 != 0, 1.0, 0.0)}
    >>> q, w = zone_chatter(s, ["A/B"], [""]); q, len(w)
    ({'chatter_openings': 9.0}, 1)
    """
    quantities, warnings = {}, []
    for zone, prefix in zip(zones, prefixes):
        force = series.get(f"{zone}:normal_force")
        if force is None:
            continue
        found = chatter(series["time"], force, threshold)
        quantities[f"{prefix}chatter_openings"] = float(0 if found is None else found.openings)
        if found is not None:
            warnings.append(found.sentence(zone, remedy))
    return quantities, warnings
