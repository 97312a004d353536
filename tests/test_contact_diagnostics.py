"""Diagnostics of contact runs: slave nodes leaving their master surface, and
statuses that agree with the forces for every method."""

import numpy as np
import pytest

from fem2d.contact.problem import OPEN
from fem2d.errors import ConvergenceError
from fem2d.runs.result import run

SHORT = {"mesh.params.support_length": 20.0, "time.end": 1.6}


def test_a_block_sliding_off_its_support_is_reported():
    """mu = 0.5, 3e5 Pa: the block passes the end of a 20 m support at 1.32 s
    (the rigid block reaches x = 19 m there)."""
    result = run("sdnv104_long", {**SHORT, "contact.method": "penalty"})
    assert result.quantities["n_left_master"] == 6
    assert result.histories["n_left_master"][0] == 0
    (warning,) = [w for w in result.warnings if "left their master surface" in w]
    assert "first at t = 1.32 s" in warning and "support_length" in warning
    assert result.to_json()["warnings"] == result.warnings  # in result.json too


def test_a_failure_after_slave_nodes_left_says_so():
    with pytest.raises(ConvergenceError, match=r"no convergence .*; before that, 6 slave node\(s\) left their master"):
        run("sdnv104_long", {**SHORT, "time.end": 2.5})


def test_on_the_long_support_nothing_leaves():
    result = run("sdnv104_long", {"time.end": 1.6})
    assert result.quantities["n_left_master"] == 0
    assert not any("master surface" in w for w in result.warnings)


@pytest.mark.parametrize("method", ["lagrange", "penalty", "continuous"])
def test_statuses_are_open_wherever_the_normal_force_is_not_compressive(method):
    """The bar leaves the wall: every method reports its nodes OPEN once the
    force is gone (Lagrange used to keep them STICK/SLIP), and the three agree
    on how many node-instants were in contact."""
    old_settings = {"time.scheme": "auto", "model.lumped_mass": False, "time.dt": 2.0e-6, "mesh.params.cells": 40}
    h = run("bar_wall", {"contact.method": method, **old_settings}).histories
    status, force = h["slave_status"], h["slave_normal_force"]
    assert not np.any((status != OPEN) & (force <= 0.0))
    assert np.count_nonzero(status != OPEN) == 398
