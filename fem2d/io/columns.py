"""Units of the history columns: ``time [s]``, ``u [m]``, ``normal_force [N]``.

A run's time series keep plain names in memory (``result.histories["time"]``);
the files a user opens (``history.npz``, ``history.csv``) name each column
with its unit, ``NAME [UNIT]`` (``[-]`` for counts and statuses), and the
readers take the unit off again, so that a file written with units and one
written before them read the same.

Units are SI, for the model's thickness: forces in N, energies in J,
momenta in N s. Per-body, per-zone and per-group series are named
``GROUP:WHAT`` and take the unit of ``WHAT``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np

#: Unit of each history series (a per-body/zone/group series ``G:WHAT`` by ``WHAT``).
UNITS: dict[str, str] = {
    # time grid, reported dof (direct) or first modal coordinate (modal, modes scaled to a unit maximum)
    "time": "s", "dt": "s", "u": "m", "v": "m/s", "q_1": "m", "v_1": "m/s",
    # energies and work
    "kinetic": "J", "elastic": "J", "springs": "J", "work_loads": "J", "work_motions": "J",
    "friction_dissipation": "J", "normal_contact_work": "J", "energy_residual": "J", "damping_dissipation": "J",
    "numerical_dissipation": "J", "friction_in_balance": "J",
    # contact
    "normal_force": "N", "tangential_force": "N", "penetration": "m", "gap": "m", "min_gap": "m",
    "normal_velocity": "m/s", "sliding_velocity": "m/s",
    "slave_normal_force": "N", "slave_tangential_force": "N", "slave_gap": "m", "slave_status": "-",
    "slave_dx": "m", "slave_dy": "m",
    # Archard wear (worn_area: m^2 per unit thickness, m^3 on an axisymmetric zone, so no one unit)
    "wear_max_depth": "m", "slave_wear_depth": "m", "wear_power": "W", "wear_gain": "-",
    # counts and statuses
    "newton_iterations": "-", "n_active": "-", "n_sliding": "-", "n_left_master": "-", "stuck": "-", "contact": "-",
    # bodies, supports, groups
    "momentum_x": "N s", "momentum_y": "N s", "velocity_x": "m/s", "velocity_y": "m/s",
    "reaction_x": "N", "reaction_y": "N", "dx": "m", "dy": "m", "vx": "m/s", "vy": "m/s", "rotation": "rad",
}

_UNIT = re.compile(r"^(?P<name>.*?) \[(?P<unit>[^\[\]]*)\]$")


def unit_of(name: str) -> str | None:
    """The unit of a history series, None if unknown.

    >>> unit_of("time"), unit_of("LESC/LMAI:normal_force"), unit_of("BAR1:momentum_x"), unit_of("nope")
    ('s', 'N', 'N s', None)
    """
    return UNITS.get(name, UNITS.get(name.rsplit(":", 1)[-1]) if ":" in name else None)


def with_unit(name: str) -> str:
    """The column name a file uses: ``NAME [UNIT]`` (the plain name when the unit is unknown).

    >>> with_unit("normal_force"), with_unit("n_active")
    ('normal_force [N]', 'n_active [-]')
    """
    unit = unit_of(name)
    return name if unit is None else f"{name} [{unit}]"


def without_unit(column: str) -> str:
    """The series name of a file's column (its unit taken off).

    >>> without_unit("time [s]"), without_unit("BAR1:momentum_x [N s]"), without_unit("u")
    ('time', 'BAR1:momentum_x', 'u')
    """
    match = _UNIT.match(column)
    return match.group("name") if match else column


def labelled(histories: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The series under their file column names (:func:`with_unit`)."""
    return {with_unit(name): np.asarray(values) for name, values in histories.items()}
