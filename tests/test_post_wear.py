"""Wear power (code_aster POST_DYNA_MODA_T USURE) on synthetic histories with hand-computed values."""

import numpy as np
import pytest

from fem2d.post.wear import wear_power, wear_power_blocks, window_indices


def test_window_is_code_asters_first_samples_at_or_after_the_bounds():
    t = 0.1 * np.arange(121)  # 0 .. 12 s, accumulated-looking rounding
    assert window_indices(t, (4.0, 12.0)) == (40, 120)
    assert window_indices(t + 1e-13, (4.0, 12.0)) == (40, 120)  # rounding does not shift a block
    assert window_indices(t, (4.05, 20.0)) == (41, 120)
    assert window_indices(t, None) == (0, 120)


def test_constant_sliding_gives_fn_times_vt():
    t = np.linspace(0.0, 12.0, 1201)
    fn = np.full_like(t, 10.0)
    vt = np.full_like(t, -0.3)
    p = wear_power(t, fn, vt, np.ones_like(t, bool), (4.0, 12.0))
    assert p == pytest.approx(3.0, rel=1e-14)


def test_blocks_drop_the_remainder_and_average_per_block():
    # 81 samples in [4, 12] -> 8 blocks of 10 samples, the last ending at 11.9
    t = 0.1 * np.arange(121)
    vt = np.where(t < 8.0, 1.0, 2.0)
    fn = np.ones_like(t)
    blocks = wear_power_blocks(t, fn, vt, np.ones_like(t, bool), (4.0, 12.0))
    assert blocks.shape == (8,)
    np.testing.assert_allclose(blocks, [1, 1, 1, 1, 2, 2, 2, 2], rtol=1e-13)


def test_only_trapezoids_starting_on_a_counted_sample_count():
    t = np.arange(11.0)  # one block of 11 samples, 10 intervals
    p = np.zeros(11)
    p[3:6] = 1.0  # |Fn vt| = 1 at t = 3, 4, 5
    counted = np.zeros(11, bool)
    counted[2:5] = True  # trapezoids [2,3], [3,4], [4,5]: 0.5 + 1 + 1
    assert wear_power(t, p, np.ones(11), counted, n_blocks=1) == pytest.approx(2.5 / 10.0)


def test_sign_and_normal_force_not_mu():
    t = np.linspace(0.0, 1.0, 101)
    assert wear_power(t, -2.0 * np.ones(101), 3.0 * np.ones(101), np.ones(101, bool), n_blocks=4) == pytest.approx(6.0)


def test_too_short_window_is_an_error():
    t = np.linspace(0.0, 1.0, 11)
    with pytest.raises(ValueError, match="too few"):
        wear_power(t, t, t, np.ones(11, bool), (0.0, 0.1), n_blocks=8)
