r"""Energy accounting of a direct run: the energy balance and its drift.

With :math:`E = T + U` (kinetic plus elastic energy of the bodies and springs),
:math:`W` the work of the loads and :math:`D \ge 0` the friction dissipation,
the exact solution keeps

.. math::

    E(t) + D(t) - W(t) = E(0).

Rigid, fixed obstacles do no work, so contact appears in neither term: energy
that a time scheme creates or destroys at impacts shows up in the balance. The
signed, normalised drift is

.. math::

    \mathrm{energy\_drift} = \frac{E(t_{end}) + D(t_{end}) - W(t_{end}) - E(0)}
    {\max(E(0), \max_t |W(t)|)}

(positive: energy was created), and ``energy_growth`` is the largest value of
the same numerator over the run. A run that starts with no energy and on
which nothing works (:math:`E(0) = W = 0`) can only have been set moving by
energy the computation created: its denominator is then the most energy it
held, :math:`\max_t (E + D)`, so that it reads 1 when all of it was created
(e.g. a body started inside an obstacle and pushed out of it); 0 only for a
run that stays at rest.
"""

from __future__ import annotations

import numpy as np

#: Default tolerance on energy_growth above which a run warns (--strict: fails).
ENERGY_TOLERANCE = 0.01


def energy_balance(series: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Per-instant energy terms from a direct history: ``energy`` (E),
    ``work`` (W), ``dissipation`` (D) and ``imbalance`` (E + D - W - E(0)).

    >>> s = {"kinetic": np.array([1.0, 0.5]), "elastic": np.array([0.0, 0.7]),
    ...      "springs": np.zeros(2), "work_loads": np.zeros(2)}
    >>> energy_balance(s)["imbalance"].round(12).tolist()
    [0.0, 0.2]
    """
    energy = series["kinetic"] + series["elastic"] + series["springs"]
    work = series["work_loads"]
    dissipation = series.get("friction_dissipation", np.zeros_like(energy))
    return {"energy": energy, "work": work, "dissipation": dissipation,
            "imbalance": energy + dissipation - work - energy[0]}


def energy_quantities(series: dict[str, np.ndarray]) -> dict[str, float]:
    """``energy_drift`` and ``energy_growth`` (see the module docstring).

    >>> s = {"kinetic": np.array([1.0, 1.3, 1.1]), "elastic": np.zeros(3),
    ...      "springs": np.zeros(3), "work_loads": np.zeros(3)}
    >>> {k: round(v, 12) for k, v in energy_quantities(s).items()}
    {'energy_drift': 0.1, 'energy_growth': 0.3}

    Energy from nothing (E(0) = W = 0):

    >>> s["kinetic"] = np.array([0.0, 2.0, 1.0])
    >>> {k: round(v, 12) for k, v in energy_quantities(s).items()}
    {'energy_drift': 0.5, 'energy_growth': 1.0}
    """
    b = energy_balance(series)
    scale = energy_scale(b)
    if scale <= 0.0:  # at rest throughout
        return {"energy_drift": 0.0, "energy_growth": 0.0}
    return {
        "energy_drift": float(b["imbalance"][-1] / scale),
        "energy_growth": float(max(0.0, np.max(b["imbalance"])) / scale),
    }


def energy_scale(balance: dict[str, np.ndarray]) -> float:
    """The denominator of ``energy_drift``: max(E(0), max |W|), or, when both
    are 0, max (E + D) over the run (0 only for a run at rest)."""
    scale = max(float(balance["energy"][0]), float(np.max(np.abs(balance["work"]))))
    if scale > 0.0:
        return scale
    return float(np.max(balance["energy"] + balance["dissipation"], initial=0.0))


#: How the warning of a run that created energy begins (:func:`energy_warning`).
ENERGY_GREW = "energy grew by"

#: What to try when a run's scheme created energy, by default (plain Newmark at impacts).
ENERGY_REMEDY = 'for impacts use the modified mass scheme ("modified_mass")'


def energy_warning(
    quantities: dict[str, float], tolerance: float = ENERGY_TOLERANCE, remedy: str = ENERGY_REMEDY
) -> str | None:
    """The warning for a run whose energy grew beyond ``tolerance`` (relative to
    max(E(0), max |W|)), with ``remedy`` (what the run's own scheme can change), or None.

    >>> energy_warning({"energy_growth": 0.5}, 0.01, "a smaller step")
    'energy grew by 0.5 of max(E(0), max|W|) (tolerance 0.01): the time scheme created energy; a smaller step'
    """
    growth = quantities.get("energy_growth", 0.0)
    if not np.isfinite(growth) or growth > tolerance:
        return (
            f"{ENERGY_GREW} {growth:.3g} of max(E(0), max|W|) (tolerance {tolerance:g}): the time scheme "
            f"created energy; {remedy}"
        )
    return None
