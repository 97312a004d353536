r"""Energy accounting of a direct run: the energy balance, its residual and its drift.

With :math:`E = T + U` (kinetic plus strain energy of the bodies and springs),
:math:`W` the work of the loads, :math:`W_c` the work of the imposed motions (moving
supports and obstacles, their reactions' work), :math:`D` the friction dissipation,
:math:`D_c` the damping's and :math:`D_h` the numerical dissipation (what the time
scheme removes by itself, :mod:`fem2d.dynamics.dissipation`), the computed motion keeps

.. math::

    E(t) - E(0) = W(t) + W_c(t) - D(t) - D_c(t) - D_h(t) + \rho(t),

and the residual :math:`\rho` is the energy no term accounts for: the work of the contact
forces between the two ends of a step (a rigid obstacle does none), an equilibrium a step
did not reach, energy created. It is the only term judged. Its signed, normalised value is

.. math::

    \mathrm{energy\_drift} = \frac{\rho(t_{end})}{\max(E(0), \max_t |W(t) + W_c(t)|)}

(positive: energy was created), and ``energy_growth`` is its largest value over the
run. A run that starts with no energy and on which nothing works (:math:`E(0) = W =
W_c = 0`) can only have been set moving by energy the computation created: its
denominator is then the most energy it held, :math:`\max_t (E + D + D_c + D_h)`, so
that it reads 1 when all of it was created (e.g. a body started inside an obstacle and
pushed out of it); 0 only for a run that stays at rest. A scheme's numerical
dissipation is not judged: HHT's or the generalized-alpha method's loss of energy,
by design, no longer hides energy created at an impact.
"""

from __future__ import annotations

import numpy as np

#: Default tolerance on energy_growth above which a run warns (--strict: fails).
ENERGY_TOLERANCE = 0.01


def energy_balance(series: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Per-instant energy terms from a direct history (see the module docstring):
    ``energy`` (E), ``work`` (W + W_c), ``dissipation`` (D + D_c + D_h, friction,
    damping and numerical) and ``imbalance``, the residual
    E - E(0) - W - W_c + D + D_c + D_h. A history without a term counts it zero.

    >>> s = {"kinetic": np.array([1.0, 0.5]), "elastic": np.array([0.0, 0.3]),
    ...      "springs": np.zeros(2), "work_loads": np.zeros(2)}
    >>> energy_balance(s)["imbalance"].round(12).tolist()  # 0.2 J lost: by whom?
    [0.0, -0.2]
    >>> s["numerical_dissipation"] = np.array([0.0, 0.2])  # removed by the scheme
    >>> energy_balance(s)["imbalance"].round(12).tolist()
    [0.0, 0.0]
    """
    energy = series["kinetic"] + series["elastic"] + series["springs"]
    zero = np.zeros_like(energy)
    work = series["work_loads"] + series.get("work_motions", zero)
    # the friction as the scheme's energy identity counts it (by the trapezoidal rule for the
    # Newmark family: fem2d.dynamics.history), else the friction dissipation
    friction = series.get("friction_in_balance", series.get("friction_dissipation", zero))
    dissipation = friction + series.get("damping_dissipation", zero) + series.get("numerical_dissipation", zero)
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
    """The denominator of ``energy_drift``: max(E(0), max |W + W_c|), or, when both
    are 0, max (E + D + D_c + D_h) over the run (0 only for a run at rest)."""
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
    """The warning for a run whose energy balance's residual grew beyond ``tolerance``
    (relative to max(E(0), max |W|), W the work of the loads and imposed motions), with
    ``remedy`` (what the run's own scheme can change), or None. It says the term that is
    off, the residual, apart from the numerical dissipation (``numerical_dissipation``,
    J per unit thickness, when the quantities hold it), which is not judged.

    >>> energy_warning({"energy_growth": 0.5, "numerical_dissipation": 0.0}, 0.01, "a smaller step")
    'energy grew by 0.5 of max(E(0), max|W|) (tolerance 0.01): the residual of the energy balance (what neither \
the work of the loads and imposed motions nor the friction, damping and numerical dissipation account for), \
while the numerical dissipation is 0 J: the time scheme created energy; a smaller step'
    """
    growth = quantities.get("energy_growth", 0.0)
    if not np.isfinite(growth) or growth > tolerance:
        numerical = quantities.get("numerical_dissipation")
        said = "" if numerical is None else f", while the numerical dissipation is {numerical:.3g} J"
        return (
            f"{ENERGY_GREW} {growth:.3g} of max(E(0), max|W|) (tolerance {tolerance:g}): the residual of the energy "
            "balance (what neither the work of the loads and imposed motions nor the friction, damping and numerical "
            f"dissipation account for){said}: the time scheme created energy; {remedy}"
        )
    return None
