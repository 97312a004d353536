"""A corotational body in its own frame (materials.frame = "body"): exact references."""
import warnings

import numpy as np
import pytest

import fem2d
from fem2d.fe.body_frame import BodyFrame
from fem2d.fe.corotational import corotational_frame
from fem2d.fe.elasticity import elasticity_matrix, stiffness_matrices
from fem2d.mesh.mesh import CellBlock


def test_rigid_rotation_of_any_size_costs_no_force_and_a_stretch_keeps_momentum():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    block = CellBlock("quad4", [[0, 1, 2, 3]])
    import scipy.sparse as sp

    K = sp.csr_matrix(stiffness_matrices(X, block, elasticity_matrix(1.0e9, 0.3))[0])
    frame = BodyFrame(X, np.ones(4), K, [(block.nodes, corotational_frame(X, block)[0])])
    for theta in (0.7, 3.0, -2.9):
        c, s = np.cos(theta), np.sin(theta)
        R = np.array([[c, s], [-s, c]])
        out = frame.evaluate((X @ R + [2.0, -7.0] - X).ravel())
        assert out.theta == pytest.approx(theta, abs=1e-12)
        assert np.abs(out.force).max() < 1e-5 and abs(out.energy) < 1e-9
        stretched = (X * [1.002, 0.999]) @ R
        f = frame.evaluate((stretched - X).ravel()).force.reshape(4, 2)
        assert np.abs(f.sum(axis=0)).max() < 1e-6 * np.abs(f).max()
        r = stretched - stretched.mean(axis=0)
        moment = np.sum(r[:, 0] * f[:, 1] - r[:, 1] * f[:, 0])
        assert abs(moment) < 1e-9 * np.abs(f).max()
        # the force is the gradient of the energy (central differences)
        u = (stretched - X).ravel()
        h = 1e-7
        for i in (0, 5):
            e = np.zeros(8)
            e[i] = h
            fd = (frame.evaluate(u + e).energy - frame.evaluate(u - e).energy) / (2 * h)
            assert fd == pytest.approx(frame.evaluate(u).force[i], rel=1e-5, abs=1e-3)


def run(frame, end):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fem2d.Fem2dWarning)
        return fem2d.run("rolling_disc", {"materials.0.frame": frame, "time.end": end, "report.at_times": [end]},
                         reference_cache=False)


def test_rolling_disc_in_its_frame_matches_element_frames_and_the_exact_rolling_on_one_factorisation():
    end = 0.3
    body, element = run("body", end), run("element", end)
    key = f"{end:.2f}"
    for q in (f"x_at_{key}", f"DISC_rotation_at_{key}", f"DISC_kinetic_at_{key}"):
        assert body.quantities[q] == pytest.approx(element.quantities[q], rel=1e-3)
    assert body.timing["factorizations"] == 1 and element.timing["factorizations"] > 1
    assert body.timing["solves"] < element.timing["solves"]


def test_a_supported_body_is_refused_in_its_frame():
    with pytest.raises(fem2d.errors.InputError, match="materials.1..frame: body 'BATI' has supported dofs"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", fem2d.Fem2dWarning)
            fem2d.run("sdnv104a", {"materials.1.kinematics": "corotational", "materials.1.frame": "body",
                                   "time.end": 0.02}, reference_cache=False)


def test_frame_needs_corotational_kinematics():
    with pytest.raises(fem2d.errors.ModelError, match="frame"):
        fem2d.model.Body("B", E=1.0, nu=0.0, rho=1.0, frame="body")
