"""Mesh convergence of one quantity over refinement levels: observed order,
Richardson extrapolation and the grid convergence index (GCI).

Level ``L`` has the mesh size ``h_L = h_0 / r**L`` (``r = 2``: each ``mesh.refine``
level halves h). From the values ``f_L`` of a quantity at three or more levels:

* the convergence is classified from the two finest changes
  ``R = (f_1 - f_2) / (f_2 - f_3)`` (1 the finest level): monotone when
  ``0 < R < 1``, oscillating when ``R < 0``, diverging when ``|R| >= 1``
  (Celik et al. 2008, J. Fluids Eng. 130:078001, after Stern et al.);
* the asymptotic range is the longest run of levels, ending at the finest, whose
  changes keep one sign and shrink; over it ``f = f_0 + a h^p`` is fitted by least
  squares (Eca & Hoekstra 2014, J. Comput. Phys. 262:104-130): ``p`` is the observed
  order, ``f_0`` the Richardson-extrapolated value (with three levels both are
  Celik's apparent order and extrapolation exactly);
* the GCI of the finest level (Roache 1998, *Verification and Validation in
  Computational Science and Engineering*), with ``Fs = 1.25``::

      GCI_12 = Fs |e_21| / (r_21^p - 1),    e_21 = (f_1 - f_2) / f_1

  and the error bar ``f_1 +- GCI_12 |f_1|``. ``p`` there is the smaller of the fitted
  order and the apparent order of the three finest levels: a fit that reaches coarse
  levels overstates the order where higher-order terms still weigh, and the bar is the
  finest level's;
* the asymptotic-range indicator ``GCI_23 / (r_21^p GCI_12)`` with the fitted order
  (the GCIs taken in the quantity's units, so that it does not depend on how far the
  value is from 0), near 1 in the asymptotic range: said to hold within a factor 1.25.
  With exactly three levels in the range it is 1 by construction (the order is fitted
  to those same levels): a fourth level tests it.

No order is made up: an oscillating sequence gets the bar ``Fs (max - min)`` of its
three finest values and no order, a diverging one no bar at all. With two levels
the order cannot be observed: the element's formal order and ``Fs = 3`` (Roache).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

#: safety factor of the GCI with three or more levels, and with two (Roache 1998)
FS_THREE, FS_TWO = 1.25, 3.0
#: a quantity whose level-to-level changes stay below this fraction of its value is mesh-converged
MESH_CONVERGED = 1e-6
#: the asymptotic range is said to hold when the indicator is within this factor of 1
INDICATOR_BAND = 1.25


@dataclass(frozen=True)
class Convergence:
    """The convergence of one quantity; ``kind`` is ``monotone``, ``oscillating``,
    ``diverging``, ``mesh-converged``, ``two levels`` or ``too few levels``.

    ``fit_levels`` are the levels of the asymptotic range the order was fitted over;
    ``gci`` is relative (of ``|value|``), ``band`` the absolute half-width of the error
    bar ``value +- band``; ``asymptotic`` is None when untested (three levels)."""

    kind: str
    levels: tuple[int, ...]
    value: float | None
    fit_levels: tuple[int, ...] = ()
    order: float | None = None
    extrapolated: float | None = None
    gci: float | None = None
    band: float | None = None
    safety_factor: float | None = None
    indicator: float | None = None
    asymptotic: bool | None = None
    note: str = ""

    def as_dict(self) -> dict:
        """A JSON-ready dict (levels as lists)."""
        out = asdict(self)
        out["levels"], out["fit_levels"] = list(self.levels), list(self.fit_levels)
        return out

    def contains(self, exact: float) -> bool:
        """Whether ``exact`` lies inside the error bar ``value +- band``."""
        return self.band is not None and self.value is not None and abs(exact - self.value) <= self.band


def fit_power_law(h: np.ndarray, f: np.ndarray, p_range: tuple[float, float] = (0.05, 12.0)) -> tuple[float, float]:
    r"""Least-squares fit of :math:`f = f_0 + a h^p` over the points ``(h, f)``:
    ``(p, f_0)``. For each ``p`` the fit is linear in :math:`(f_0, a)`; ``p`` is the
    minimiser of the residual over ``p_range`` (a grid, then Brent's method).

    >>> h = 0.1 / 2.0 ** np.arange(4)
    >>> p, f0 = fit_power_law(h, 3.0 + 0.5 * h**2)
    >>> round(p, 6), round(f0, 9)
    (2.0, 3.0)
    """
    from scipy.optimize import minimize_scalar

    h, f = np.asarray(h, float), np.asarray(f, float)

    def residuals(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = h[None, :] ** np.atleast_1d(p)[:, None]
        xm, fm = x.mean(axis=1, keepdims=True), f.mean()
        a = ((x - xm) * (f - fm)).sum(axis=1) / ((x - xm) ** 2).sum(axis=1)
        f0 = fm - a * xm[:, 0]
        return ((f0[:, None] + a[:, None] * x - f) ** 2).sum(axis=1), f0

    grid = np.linspace(*p_range, 600)
    k = int(np.argmin(residuals(grid)[0]))
    lo, hi = grid[max(k - 1, 0)], grid[min(k + 1, grid.size - 1)]
    p = float(minimize_scalar(lambda q: residuals(q)[0][0], bounds=(lo, hi), method="bounded",
                              options={"xatol": 1e-10}).x)
    return p, float(residuals(p)[1][0])


def _asymptotic_start(d: np.ndarray) -> int:
    """Index of the first change of the longest tail of ``d`` with one sign whose
    magnitudes shrink (the finest two changes qualify already)."""
    start = d.size - 2
    while start > 0 and np.sign(d[start - 1]) == np.sign(d[start]) and abs(d[start - 1]) > abs(d[start]):
        start -= 1
    return start


def convergence(levels: Sequence[int], values: Sequence[float | None], formal_order: float = 2.0,
                ratio: float = 2.0) -> Convergence:
    """The convergence of one quantity from its values at ``levels`` (h = h_0 / ratio**level);
    ``formal_order`` is used only with two levels (see the module's equations).

    >>> c = convergence([0, 1, 2, 3], [1.0 + 2.0 ** (-2 * lv) for lv in range(4)])
    >>> c.kind, round(c.order, 6), round(c.extrapolated, 9), round(c.gci, 6), c.asymptotic
    ('monotone', 2.0, 1.0, 0.019231, True)
    >>> convergence([0, 1, 2], [1.0, 1.1, 1.05]).kind       # the change flips sign
    'oscillating'
    >>> c = convergence([1, 2], [1.04, 1.01])               # two levels: formal order, Fs = 3
    >>> round(c.extrapolated, 6), round(c.gci, 6)
    (1.0, 0.029703)
    """
    order_by = np.argsort(levels)
    lv = np.asarray(levels, int)[order_by]
    if any(v is None or not math.isfinite(v) for v in values):
        return Convergence("too few levels", tuple(int(x) for x in lv), None, note="a level has no finite value")
    f = np.asarray(values, float)[order_by]
    f1 = float(f[-1])
    base = Convergence("too few levels", tuple(int(x) for x in lv), f1)
    if f.size < 2:
        return _with(base, note="one level: no change to measure")
    d = np.diff(f)
    scale = float(np.max(np.abs(f)))
    if scale == 0.0 or np.max(np.abs(d)) <= MESH_CONVERGED * scale:
        band = FS_THREE * float(np.ptp(f))
        note = (f"changes at most {np.max(np.abs(d)) / (scale or 1.0):.1e} of the value: "
                "the error bar is Fs x the range of the values")
        if d.size > 1 and abs(d[-1]) > abs(d[-2]):
            note += (f"; the changes do not shrink yet ({abs(d[-2]):.2g} then {abs(d[-1]):.2g}): "
                     "the bar covers the levels run, not h -> 0")
        return _with(base, kind="mesh-converged", band=band, gci=_rel(band, f1), safety_factor=FS_THREE, note=note)
    r = ratio ** np.diff(lv).astype(float)
    if f.size == 2:
        p = float(formal_order)
        band = float(FS_TWO * abs(d[-1]) / (r[-1] ** p - 1))
        return _with(base, kind="two levels", order=p, safety_factor=FS_TWO, band=band, gci=_rel(band, f1),
                     extrapolated=float(f1 + d[-1] / (r[-1] ** p - 1)), fit_levels=base.levels,
                     note=f"two levels: the formal order {p:g} of the element is assumed and Fs = 3 (Roache); "
                          "a third level measures the order")
    if d[-2] == 0.0 or abs(d[-1]) >= abs(d[-2]):
        return _with(base, kind="diverging",
                     note=f"the change grows from {abs(d[-2]):.3g} (levels {lv[-3]}-{lv[-2]}) to {abs(d[-1]):.3g} "
                          f"(levels {lv[-2]}-{lv[-1]}): no error bar")
    if d[-1] / d[-2] < 0:
        band = FS_THREE * float(np.ptp(f[-3:]))
        return _with(base, kind="oscillating", band=band, gci=_rel(band, f1), safety_factor=FS_THREE,
                     note=f"oscillating over levels {lv[-3]}-{lv[-1]}: no order; the error bar is Fs x the range "
                          "of the three finest values")
    start = _asymptotic_start(d)
    fit = lv[start:]
    h = ratio ** -lv.astype(float)
    p, f0 = fit_power_law(h[start:], f[start:])
    # the bar holds at the finest level, where the order of its own three levels applies: the smaller
    # of the two (a fit over coarser levels overstates it when higher-order terms still weigh)
    p_bar = min(p, fit_power_law(h[-3:], f[-3:])[0])
    band = float(FS_THREE * abs(d[-1]) / (r[-1] ** p_bar - 1))
    band_23 = FS_THREE * abs(d[-2]) / (r[-2] ** p - 1)
    band_12 = FS_THREE * abs(d[-1]) / (r[-1] ** p - 1)
    indicator = float(band_23 / (r[-1] ** p * band_12))
    tested = fit.size > 3
    asymptotic = bool(1 / INDICATOR_BAND <= indicator <= INDICATOR_BAND) if tested else None
    note = (f"order fitted over levels {fit[0]}-{fit[-1]}" if tested else
            f"three levels in the range ({fit[0]}-{fit[-1]}): the indicator is 1 by construction")
    if p_bar < p:
        note += f"; the bar takes the finest three levels' order {p_bar:.3g}"
    if tested and not asymptotic:
        note += "; the indicator is far from 1: not in the asymptotic range"
    return _with(base, kind="monotone", fit_levels=tuple(int(x) for x in fit), order=p, extrapolated=f0,
                 band=band, gci=_rel(band, f1), safety_factor=FS_THREE, indicator=indicator, asymptotic=asymptotic,
                 note=note)


def _rel(band: float, value: float) -> float | None:
    return band / abs(value) if value != 0 else None


def _with(c: Convergence, **changes) -> Convergence:
    from dataclasses import replace

    return replace(c, **changes)
