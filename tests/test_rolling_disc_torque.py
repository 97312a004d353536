"""benchmarks/rolling_disc_torque.py: the contact torque on the rolling disc, split into the
friction's (lever arm R less the indentation) and the normal forces' (their centre off the
vertical through the centre of mass), is the one that turns the disc."""

import math

import numpy as np
import pytest
from conftest import load_benchmark


@pytest.fixture(scope="module")
def slipping():
    bench = load_benchmark("rolling_disc_torque")
    result = bench.fem2d.run("rolling_disc", {"contact.mu": 0.1, "time.end": 0.3, "report.at_times": [0.3],
                                              "report.snapshots": 1})
    return bench.contact_torque(result)


def test_the_angular_momentum_is_the_integral_of_the_contact_moment(slipping):
    """Gravity acts at the centre of mass: the disc's angular momentum about it is the time
    integral of the contact forces' moment, to the central differences of the velocities
    (observed 7e-4 at 0.297 s, the record before the last), and it turns clockwise (rolling
    towards +x)."""
    L, impulse = slipping["angular_momentum"], slipping["impulse"]
    assert L[-2] < 0.0
    assert math.isclose(L[-2], impulse[-2], rel_tol=2e-3)


def test_friction_acts_at_the_height_of_the_centre_and_slips_at_mu(slipping):
    """Once the load is ramped (0.05 s), the friction is mu times the normal force (it slips) and
    its lever arm is the centre's height above the plane: the moment of the friction over the
    friction force is R less the sink of the centre (0.19 % of R at 3 MPa), within 0.05 % of R
    (the rim nodes' heights)."""
    late = slipping["time"] > 0.06
    ft, fn = slipping["friction"][late], slipping["normal"][late]
    assert np.sum(-ft) / np.sum(fn) == pytest.approx(0.1, rel=1e-6)
    R = slipping["radius"]
    lever = np.sum(slipping["moment_friction"][late]) / np.sum(ft)
    sink = R - np.mean(slipping["centre_y"][late])
    assert 1e-3 * R < sink < 3e-3 * R
    assert lever == pytest.approx(R - sink, abs=5e-4 * R)
