r"""Archard wear power from sampled shock histories (code_aster ``POST_DYNA_MODA_T``, ``OPTION='USURE'``).

Over the window :math:`[t_a, t_b]`: the samples from the first with
:math:`t \ge t_a` to the first with :math:`t \ge t_b` (or the last) are split
into ``n_blocks`` blocks of :math:`\lfloor N / n_{blocks} \rfloor` consecutive
samples (the remainder at the end is dropped, which is why code_aster's
[4, 12] s window with 1e-4 s samples ends at 11.9999 s). In each block

.. math::

    P_b = \frac{1}{t_{last} - t_{first}} \sum_{k:\ \mathrm{counted}_k}
          \tfrac12 \left(|F_{n,k} v_{t,k}| + |F_{n,k+1} v_{t,k+1}|\right)(t_{k+1} - t_k)

(a trapezoid counts when its left sample is flagged: code_aster flags every
sample that is not stuck), and the wear power is the mean of the :math:`P_b`
(W = N m/s). Note the normal force :math:`F_n`, not :math:`\mu F_n`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["wear_power", "wear_power_blocks", "window_indices"]


def _median(values: np.ndarray) -> float:
    """``np.median`` of a non-empty 1-D array, the same number, by one partition: ``np.median``
    imports ``numpy.ma`` (17 ms of a small modal run's process).

    >>> _median(np.array([3.0, 1.0, 2.0])), _median(np.array([4.0, 1.0, 3.0, 2.0]))
    (2.0, 2.5)
    """
    k = values.size // 2
    if values.size % 2:
        return float(np.partition(values, k)[k])
    part = np.partition(values, (k - 1, k))
    return float((part[k - 1] + part[k]) / 2.0)


def window_indices(t: np.ndarray, window: tuple[float, float] | None) -> tuple[int, int]:
    """First and last sample index of a window, code_aster's way.

    First: the first sample with :math:`t \\ge t_a`; last: the first sample with
    :math:`t \\ge t_b`, or the last sample. Times within 1e-6 of the median
    sampling interval count as equal, so that rounding in accumulated times
    does not move a block boundary by one sample.
    """
    t = np.asarray(t, dtype=float)
    if t.size == 0:
        raise ValueError("empty history")
    if window is None:
        return 0, t.size - 1
    ta, tb = float(window[0]), float(window[1])
    if tb <= ta:
        raise ValueError(f"window must be increasing, got {window}")
    tol = 1e-6 * _median(np.diff(t)) if t.size > 1 else 0.0
    above = np.nonzero(t >= ta - tol)[0]
    if above.size == 0:
        raise ValueError(f"window {window} starts after the last sample ({t[-1]:g} s)")
    i0 = int(above[0])
    end = np.nonzero(t >= tb - tol)[0]
    i1 = int(end[0]) if end.size else t.size - 1
    return i0, i1


def wear_power_blocks(
    t: np.ndarray,
    fn: np.ndarray,
    vt: np.ndarray,
    counted: np.ndarray,
    window: tuple[float, float] | None = None,
    n_blocks: int = 8,
) -> np.ndarray:
    """Wear power of each block (W); see the module docstring.

    Parameters
    ----------
    t : (n,) array
        Sample times (s).
    fn, vt : (n,) arrays
        Normal force (N) and sliding velocity (m/s) of one obstacle.
    counted : (n,) bool array
        Samples whose following trapezoid counts (code_aster: not stuck).
    window : (t_a, t_b) or None
        Time window (s); the whole history if None.
    n_blocks : int
        Number of averaging blocks (``NB_BLOC``).
    """
    t = np.asarray(t, dtype=float)
    p = np.abs(np.asarray(fn, dtype=float) * np.asarray(vt, dtype=float))
    counted = np.asarray(counted, dtype=bool)
    i0, i1 = window_indices(t, window)
    n_blocks = max(int(n_blocks), 1)
    n_val = (i1 - i0 + 1) // n_blocks
    if n_val < 2:
        raise ValueError(f"window holds {i1 - i0 + 1} samples: too few for {n_blocks} blocks")
    out = np.empty(n_blocks)
    for b in range(n_blocks):
        s = slice(i0 + b * n_val, i0 + (b + 1) * n_val)
        tb, pb, cb = t[s], p[s], counted[s]
        trap = 0.5 * (pb[1:] + pb[:-1]) * np.diff(tb)
        out[b] = trap[cb[:-1]].sum() / (tb[-1] - tb[0])
    return out


def wear_power(
    t: np.ndarray,
    fn: np.ndarray,
    vt: np.ndarray,
    counted: np.ndarray,
    window: tuple[float, float] | None = None,
    n_blocks: int = 8,
) -> float:
    r"""Mean Archard wear power :math:`\overline{|F_n v_t|}` over a window (W), code_aster's block average.

    See :func:`wear_power_blocks` for the parameters.
    """
    return float(wear_power_blocks(t, fn, vt, counted, window, n_blocks).mean())
