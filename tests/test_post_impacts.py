"""Impact statistics (code_aster POST_DYNA_MODA_T IMPACT) on synthetic histories."""

import math

import numpy as np
import pytest

from fem2d.post.impacts import impact_statistics


def half_sines(t, starts, duration, peaks):
    f = np.zeros_like(t)
    for s, p in zip(starts, peaks, strict=True):
        inside = (t > s) & (t < s + duration)
        f[inside] = p * np.sin(math.pi * (t[inside] - s) / duration)
    return f


def test_two_half_sine_impacts():
    dt = 1e-4
    t = dt * np.arange(10001)
    f = half_sines(t, [0.1, 0.5], 0.02, [100.0, 50.0])
    vn = np.where(f > 0, -2.0, 1.0)
    st = impact_statistics(t, f, vn)
    assert len(st.impacts) == 2
    a, b = st.impacts
    assert a.t_start == pytest.approx(0.1001) and a.t_end == pytest.approx(0.12)
    assert a.duration == pytest.approx(0.0199)
    assert a.f_max == pytest.approx(100.0) and a.t_peak == pytest.approx(0.11)
    # trapezoid of a half sine on N = 200 intervals: h sum sin(k pi / N) = h cot(pi / 2N)
    assert a.impulse == pytest.approx(100.0 * dt / math.tan(math.pi / 400), rel=1e-12)
    assert a.v_impact == -2.0 and a.n_elementary == 1
    assert b.f_max == pytest.approx(50.0)
    assert st.f_max_abs == pytest.approx(100.0)
    assert st.f_max_mean == pytest.approx(75.0) and st.f_max_std == pytest.approx(25.0)
    q = st.quantities()
    assert q["n_impacts"] == 2 and q["impact_2_f_max"] == pytest.approx(50.0)
    assert q["impact_1_duration"] == pytest.approx(0.0199)


def test_rebounds_within_the_quiet_time_form_one_impact():
    dt = 1e-4
    t = dt * np.arange(5001)
    f = half_sines(t, [0.1, 0.121, 0.3], 0.02, [10.0, 30.0, 5.0])
    st = impact_statistics(t, f, np.zeros_like(t), rest=0.002)
    assert [imp.n_elementary for imp in st.impacts] == [2, 1]
    first = st.impacts[0]
    assert first.f_max == pytest.approx(30.0) and first.t_peak == pytest.approx(0.131)
    assert first.t_end == pytest.approx(0.141)
    # without a quiet time they are three impacts
    assert len(impact_statistics(t, f, np.zeros_like(t)).impacts) == 3


def test_threshold_and_window():
    t = 1e-3 * np.arange(1001)
    f = half_sines(t, [0.1, 0.6], 0.1, [10.0, 10.0])
    st = impact_statistics(t, f, np.zeros_like(t), threshold=5.0, window=(0.0, 0.5))
    assert len(st.impacts) == 1
    imp = st.impacts[0]
    # |F| > 5 while sin > 1/2: from 0.1 + 0.1/6 to 0.1 + 0.5/6, on the 1 ms grid
    assert imp.t_start == pytest.approx(0.117) and imp.t_end == pytest.approx(0.184)


def test_an_impact_still_going_at_the_window_end_is_not_counted():
    t = 1e-3 * np.arange(301)
    f = half_sines(t, [0.05, 0.25], 0.1, [1.0, 1.0])
    st = impact_statistics(t, f, np.zeros_like(t))
    assert len(st.impacts) == 1
    assert st.f_max_abs == pytest.approx(1.0)
