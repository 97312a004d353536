r"""The Archard wear of a direct (or static) run's contact zones as history series and quantities.

Series (one value per record, the start included): ``wear_max_depth`` (m, the
largest worn depth over the wearing zones), ``worn_area`` (the sum over them of
:math:`\sum_j w_j h_j`: m^2 per unit thickness, m^3 on axisymmetric zones),
``wear_power`` (:math:`\sum_j F_j |\Delta s_j| / \Delta t` of the step ending
at the record, W per unit thickness), ``wear_gain`` (the largest gain of the
explicit update over the zones on the step ending at the record,
:mod:`fem2d.contact.wear_gain`; 0 without ``update``), per wearing zone
``ZONE:worn_area`` and ``ZONE:wear_gain``, and
``slave_wear_depth`` (n_records, n_slave; m), the depth of every slave node
(zone after zone, as ``slave_gap``; zero on a zone that does not wear).
Quantities, read from those series: ``worn_area`` and ``max_wear_depth`` at the
end, ``wear_power`` the mean power :math:`\sum_k P_k \Delta t_k / T`
(code_aster's wear power :math:`\overline{|F_n v_t|}`, over the steps),
``wear_update_gain`` the largest gain of the run, and, with several zones, each
wearing zone's ``<zone>_worn_area``.
"""

from __future__ import annotations

import numpy as np

from fem2d.contact.problem import ContactZone
from fem2d.contact.wear_gain import OSCILLATES


def wear_series(wears: list, zones: list[ContactZone]) -> dict[str, np.ndarray]:
    """The wear series of a run's zones, ``wears`` their :class:`~fem2d.contact.archard.ZoneWear`
    or None (empty when no zone wears)."""
    worn = [(zone, wear.series()) for zone, wear in zip(zones, wears) if wear is not None]
    if not worn:
        return {}
    n_records = len(worn[0][1]["time"])
    out = {
        "wear_max_depth": np.max([s["max_depth"] for _, s in worn], axis=0),
        "worn_area": np.sum([s["worn_area"] for _, s in worn], axis=0),
        "wear_power": np.sum([s["power"] for _, s in worn], axis=0),
        "wear_gain": np.max([s["gain"] for _, s in worn], axis=0),
    }
    depths = []
    for zone, wear in zip(zones, wears):
        depths.append(np.zeros((n_records, zone.n_slave)) if wear is None else wear.series()["depth"])
        if wear is not None:
            out[f"{zone.name}:worn_area"] = wear.series()["worn_area"]
            out[f"{zone.name}:wear_gain"] = wear.series()["gain"]
    out["slave_wear_depth"] = np.hstack(depths)
    return out


def wear_quantities(series: dict[str, np.ndarray], zones: list[ContactZone], prefixes: list[str]) -> dict[str, float]:
    """``worn_area``, ``max_wear_depth``, ``wear_power`` and, with several zones (``prefixes``
    not empty), ``<prefix>worn_area`` of each wearing zone; nothing without wear.

    >>> series = {"time": np.array([0.0, 1.0, 3.0]), "dt": np.array([0.0, 1.0, 2.0]),
    ...           "worn_area": np.array([0.0, 1.0, 3.0]), "wear_max_depth": np.array([0.0, 0.5, 1.5]),
    ...           "wear_power": np.array([0.0, 4.0, 1.0])}
    >>> wear_quantities(series, [], [])
    {'worn_area': 3.0, 'max_wear_depth': 1.5, 'wear_power': 2.0}
    """
    if "worn_area" not in series:
        return {}
    duration = float(series["time"][-1] - series["time"][0])
    power = float(np.sum(series["wear_power"] * series["dt"])) / duration if duration > 0.0 else 0.0
    q = {"worn_area": float(series["worn_area"][-1]), "max_wear_depth": float(series["wear_max_depth"][-1]),
         "wear_power": power}
    if "wear_gain" in series:
        q["wear_update_gain"] = float(np.max(series["wear_gain"]))
    for zone, prefix in zip(zones, prefixes):
        key = f"{zone.name}:worn_area"
        if prefix and key in series:
            q[f"{prefix}worn_area"] = float(series[key][-1])
    return q


#: the worn depth, as a share of the shortest slave edge of its zone, above which a run warns
DEPTH_SHARE = 0.1


def wear_warnings(series: dict[str, np.ndarray], zones: list[ContactZone]) -> list[str]:
    """A warning per zone whose update's gain passed :data:`~fem2d.contact.wear_gain.OSCILLATES`
    (the pressure it feeds back oscillates from node to node), and one per zone whose largest
    worn depth passes :data:`DEPTH_SHARE` of its shortest slave edge: the mesh does not move
    with the wear, so the normal, the weights and the elements' shapes are the unworn
    surface's, which holds for a depth small against them."""
    depth = series.get("slave_wear_depth")
    if depth is None:
        return []
    out, start = [], 0
    for zone in zones:
        gain = series.get(f"{zone.name}:wear_gain")
        if gain is not None and gain.max(initial=0.0) > OSCILLATES:
            k = int(np.argmax(gain))
            out.append(f"contact {zone.name!r}: the explicit wear update's gain reached {gain[k]:.3g} at t = "
                       f"{series['time'][k]:.6g} s (above {OSCILLATES:g} the pressure fed back by the worn depth "
                       "oscillates from node to node; above 2 it grows): expected a smaller contact.wear."
                       "acceleration or time.dt")
        mine = depth[-1, start:start + zone.n_slave]
        start += zone.n_slave
        ends = zone.reference[zone.slave_local[:, [0, 1]]]
        shortest = float(np.linalg.norm(ends[:, 1] - ends[:, 0], axis=1).min(initial=np.inf))
        deepest = float(mine.max(initial=0.0))
        if deepest > DEPTH_SHARE * shortest:
            out.append(f"contact {zone.name!r}: the worn depth {deepest:.3g} m passes {DEPTH_SHARE:.0%} of the "
                       f"shortest slave edge ({shortest:.3g} m): the mesh does not move with the wear (the normal "
                       "and the weights are the unworn surface's); expected a smaller coefficient, acceleration or "
                       "time, or larger contact elements")
    return out
