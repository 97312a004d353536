r"""The Archard wear of a direct run's contact zones as history series and quantities.

Series (one value per record, the start included): ``wear_max_depth`` (m, the
largest worn depth over the wearing zones), ``worn_area`` (their sum of
:math:`\sum_j w_j h_j`: m^2 per unit thickness, m^3 on axisymmetric zones),
``wear_power`` (:math:`\sum_j F_j |\Delta s_j| / \Delta t` of the step ending
at the record, W per unit thickness) and, per wearing zone with its quantity
prefix, ``<zone>_worn_area`` and ``slave_wear_depth_<zone>`` (n_records,
n_slave; m). Quantities, read from those series: ``worn_area`` and
``max_wear_depth`` at the end, ``wear_power`` the mean power
:math:`\sum_k P_k \Delta t_k / T` (code_aster's wear power
:math:`\overline{|F_n v_t|}` integrated over the steps) and the zones'
``<zone>_worn_area``.
"""

from __future__ import annotations

import numpy as np

from fem2d.contact.problem import ContactZone
from fem2d.dynamics.measures import zone_prefix


def _prefix(zone: ContactZone) -> str:
    return zone_prefix(zone.name)


def wear_series(coupling, zones: list[ContactZone]) -> dict[str, np.ndarray]:
    """The wear series of a run's coupling (empty when no zone wears)."""
    worn = [(zone, wear.series()) for zone, wear in zip(zones, coupling.wear) if wear is not None]
    if not worn:
        return {}
    out = {
        "wear_max_depth": np.max([s["max_depth"] for _, s in worn], axis=0),
        "worn_area": np.sum([s["worn_area"] for _, s in worn], axis=0),
        "wear_power": np.sum([s["power"] for _, s in worn], axis=0),
    }
    for zone, s in worn:
        out[f"{_prefix(zone)}worn_area"] = s["worn_area"]
        out[f"slave_wear_depth_{_prefix(zone).rstrip('_')}"] = s["depth"]
    return out


def wear_quantities(series: dict[str, np.ndarray], zones: list[ContactZone]) -> dict[str, float]:
    """``worn_area``, ``max_wear_depth``, ``wear_power`` and ``<zone>_worn_area`` (none without wear).

    >>> series = {"time": np.array([0.0, 1.0, 3.0]), "dt": np.array([0.0, 1.0, 2.0]),
    ...           "worn_area": np.array([0.0, 1.0, 3.0]), "wear_max_depth": np.array([0.0, 0.5, 1.5]),
    ...           "wear_power": np.array([0.0, 4.0, 1.0])}
    >>> wear_quantities(series, [])
    {'worn_area': 3.0, 'max_wear_depth': 1.5, 'wear_power': 2.0}
    """
    if "worn_area" not in series:
        return {}
    duration = float(series["time"][-1] - series["time"][0])
    power = float(np.sum(series["wear_power"] * series["dt"])) / duration if duration > 0.0 else 0.0
    q = {"worn_area": float(series["worn_area"][-1]), "max_wear_depth": float(series["wear_max_depth"][-1]),
         "wear_power": power}
    for zone in zones:
        key = f"{_prefix(zone)}worn_area"
        if key in series:
            q[key] = float(series[key][-1])
    return q
