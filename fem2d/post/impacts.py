r"""Impact statistics from sampled shock histories (code_aster ``POST_DYNA_MODA_T``, ``OPTION='IMPACT'``).

Within the window (:func:`fem2d.post.wear.window_indices`), with force
threshold :math:`s` (``SEUIL_FORCE``) and quiet time :math:`\tau`
(``DUREE_REPOS``, rounded to :math:`n_\tau` samples):

* an impact starts at the first sample with :math:`|F_n| > s`; its impact
  velocity is :math:`v_n` there (negative when approaching);
* it ends at the first sample :math:`i` with :math:`|F_n| \le s` such that none
  of the next :math:`n_\tau` samples exceeds :math:`s`; an impact still going on
  at the end of the window is not counted;
* duration :math:`t_{end} - t_{start}`; :math:`F_{max}` = largest sample and
  its instant (the last one on ties); impulse
  :math:`\sum_{k\ \mathrm{above}} F_{n,k} (t_{k+1} - t_{k-1})/2` (the
  trapezoidal integral for a zero threshold; half intervals at the window ends);
  elementary impacts = how many times :math:`F_n` returns to the threshold
  inside the impact (1 for a single contact);
* over all impacts: :math:`\max F_n` above the threshold in the window
  (``F_MAX_ABS``), the mean and standard deviation of the :math:`F_{max}`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fem2d.post.wear import window_indices

__all__ = ["Impact", "ImpactStatistics", "impact_statistics"]


@dataclass(frozen=True)
class Impact:
    """One (global) impact: times (s), forces (N), impulse (N s), velocity (m/s)."""

    t_start: float
    t_end: float
    t_peak: float
    f_max: float
    impulse: float
    v_impact: float
    n_elementary: int

    @property
    def duration(self) -> float:
        """Contact duration :math:`t_{end} - t_{start}` (s)."""
        return self.t_end - self.t_start


@dataclass(frozen=True)
class ImpactStatistics:
    """Impacts of one obstacle and the statistics over them."""

    impacts: tuple[Impact, ...]
    f_max_abs: float
    f_max_mean: float
    f_max_std: float

    def quantities(self, prefix: str = "") -> dict[str, float]:
        """The quantities under their ``result.json`` names: ``impact_K_t_peak`` ...
        ``impact_K_n_elementary``, ``n_impacts``, ``f_max_abs``."""
        out: dict[str, float] = {}
        for k, imp in enumerate(self.impacts, start=1):
            p = f"{prefix}impact_{k}_"
            out[p + "t_peak"] = imp.t_peak
            out[p + "f_max"] = imp.f_max
            out[p + "duration"] = imp.duration
            out[p + "impulse"] = imp.impulse
            out[p + "v_impact"] = imp.v_impact
            out[p + "n_elementary"] = imp.n_elementary
        out[prefix + "n_impacts"] = len(self.impacts)
        out[prefix + "f_max_abs"] = self.f_max_abs
        out[prefix + "f_max_mean"] = self.f_max_mean
        out[prefix + "f_max_std"] = self.f_max_std
        return out


def impact_statistics(
    t: np.ndarray,
    fn: np.ndarray,
    vn: np.ndarray,
    threshold: float = 0.0,
    rest: float = 0.0,
    window: tuple[float, float] | None = None,
) -> ImpactStatistics:
    """Impact statistics of one obstacle from samples (see the module docstring).

    Parameters
    ----------
    t : (n,) array
        Sample times (s).
    fn : (n,) array
        Normal force (N).
    vn : (n,) array
        Normal velocity (m/s, > 0 when separating).
    threshold : float
        Force threshold :math:`s` (N).
    rest : float
        Quiet time :math:`\\tau` (s) that ends a global impact.
    window : (t_a, t_b) or None
        Time window (s).
    """
    i0, i1 = window_indices(t, window)
    tw = np.asarray(t, dtype=float)[i0 : i1 + 1]
    f = np.asarray(fn, dtype=float)[i0 : i1 + 1]
    v = np.asarray(vn, dtype=float)[i0 : i1 + 1]
    n = tw.size
    above = np.abs(f) > threshold
    weights = np.empty(n)
    if n > 1:
        weights[1:-1] = 0.5 * (tw[2:] - tw[:-2])
        weights[0] = 0.5 * (tw[1] - tw[0])
        weights[-1] = 0.5 * (tw[-1] - tw[-2])
    else:
        weights[:] = 0.0
    n_rest = 0
    if rest > 0.0 and n > 1:  # samples of a quiet gap; at most the window's (a longer one merges every impact)
        step = float(np.median(np.diff(tw)))
        n_rest = int(round(min(rest / step, n))) if step > 0.0 else n
    edges = np.diff(above.astype(np.int8))
    starts = list(np.nonzero(edges == 1)[0] + 1)
    ends = list(np.nonzero(edges == -1)[0] + 1)  # first sample back below
    if above[0]:
        starts.insert(0, 0)
    impacts: list[Impact] = []
    k = 0
    while k < len(ends):
        group_start = starts[k]
        j = k
        # merge the following contacts that start within the quiet time
        while j + 1 < len(starts) and starts[j + 1] - ends[j] <= n_rest:
            j += 1
        if j >= len(ends):
            break  # the last contact of the group has not ended in the window
        sel = np.arange(group_start, ends[j])
        sel = sel[above[sel]]
        fs = f[sel]
        ipk = sel[len(fs) - 1 - int(np.argmax(fs[::-1]))]
        impacts.append(
            Impact(
                t_start=float(tw[group_start]),
                t_end=float(tw[ends[j]]),
                t_peak=float(tw[ipk]),
                f_max=float(f[ipk]),
                impulse=float(np.sum(fs * weights[sel])),
                v_impact=float(v[group_start]),
                n_elementary=j - k + 1,
            )
        )
        k = j + 1
    fm = np.array([imp.f_max for imp in impacts])
    # over the impacts, as the mean and deviation: a contact that never ends (a mass resting on
    # its obstacle) is no impact, and gives no f_max_abs beside n_impacts = 0
    f_max_abs = float(fm.max()) if fm.size else 0.0
    mean = float(fm.mean()) if fm.size else 0.0
    std = float(np.sqrt(max(float(np.mean(fm**2)) - mean**2, 0.0))) if fm.size else 0.0
    return ImpactStatistics(tuple(impacts), f_max_abs, mean, std)
