"""What a step keeps from the last one: the same numbers with less work per step."""

import numpy as np
import pytest
import scipy.sparse as sp
from test_contact_pairing import line_zone

import fem2d
from fem2d.contact import kinematics
from fem2d.contact.problem import CondensedProblem
from fem2d.contact.surface import master_surface
from fem2d.contact.workspace import ContactWorkspace
from fem2d.runs.sanity import geometric_growth


def test_a_kept_pairing_gives_the_kinematics_of_a_fresh_one():
    zone = line_zone(np.linspace(-1.0, 2.0, 7))
    rng = np.random.default_rng(5)
    d_start = 0.05 * rng.standard_normal((zone.n_boundary, 2))
    d_start[zone.n_slave:] = 0.0  # a rigid master
    d_free = d_start + 0.2 * rng.standard_normal((zone.n_boundary, 2))
    d_free[zone.n_slave:] = 0.0
    compliance = np.diag(np.r_[np.ones(2 * zone.n_slave), np.zeros(2 * (zone.n_boundary - zone.n_slave))])
    kept = CondensedProblem(zone, d_start, d_free, compliance, 1e-3, ContactWorkspace())
    surface = master_surface(zone, orientation="left")
    for d in (d_start, d_free, d_start, d_free, d_free):  # each d twice or more: the kept pairing is used
        a = kinematics.node_kinematics(kept, surface, d)
        fresh = CondensedProblem(zone, d_start, d_free, compliance, 1e-3, ContactWorkspace())
        b = kinematics.node_kinematics(fresh, master_surface(zone, orientation="left"), d)
        for name in ("gap", "slip", "normal", "tangent", "outside", "weight"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
        np.testing.assert_array_equal(a.B.cols, b.B.cols)
        np.testing.assert_array_equal(a.B.vals, b.B.vals)
        np.testing.assert_array_equal(kinematics.delassus(a.B, compliance, kept.workspace)[0],
                                      kinematics.delassus(b.B, compliance)[0])


def test_a_step_without_contact_pairs_once(monkeypatch):
    # the bar falls for 0.2 s before its first impact: every step starts where the last one ended
    calls = []
    original = kinematics._node_geometry

    def counting(*args):
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(kinematics, "_node_geometry", counting)
    result = fem2d.run("bar_bounce", ["time.end=0.05"])
    steps = result.timing["steps"]
    assert steps == 420
    assert len(calls) <= steps + 2  # was two per step: at the step's start and at its end


def test_the_block_maxima_are_those_of_array_split():
    rng = np.random.default_rng(2)
    for n in (32, 33, 47, 100, 511, 1601):
        x = np.abs(rng.standard_normal(n)) * np.exp(np.linspace(0.0, 5.0 * rng.uniform(), n))
        blocks = np.array_split(x, 16)
        # the definition, block by block, on a series that grows 3x per block from the fifth
        peaks = np.array([b.max() for b in blocks])
        grows = bool(np.all(peaks[-4:] > 3.0 * peaks[-5:-1]) and peaks[-1] > 1e3 * peaks[0])
        assert geometric_growth(x) == grows
        steep = np.concatenate([b * 3.5 ** (2 * i) for i, b in enumerate(blocks)])
        assert geometric_growth(steep)


def test_a_refactorised_pardiso_factorisation_calls_with_its_own_values():
    # the pointers of the ctypes call are kept per factorisation: one made in another's handle
    # (refactorize) must not keep its parent's, whose values it replaced
    pardiso = pytest.importorskip("fem2d.linalg.pardiso")
    if not pardiso.PARDISO_CHOLESKY.available():
        pytest.skip("MKL is not installed")
    n = 60
    a = sp.random(n, n, density=0.1, random_state=1)
    a = (a + a.T + 10.0 * sp.eye(n)).tocsr()
    b = (a * 1.7 + 3.0 * sp.eye(n)).tocsr()
    rhs = np.arange(n, dtype=float)
    first = pardiso.PardisoFactorization(a, 2, np.arange(5))
    np.testing.assert_allclose(a @ first.solve(rhs), rhs, atol=1e-10)  # the parent has made its pointers
    second = first.refactorize(b)
    np.testing.assert_allclose(b @ second.solve(rhs), rhs, atol=1e-10)
