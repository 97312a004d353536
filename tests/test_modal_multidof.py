"""A 20-dof chain reduced to modes with a shock at its tip, against a direct solution of the full model.

The direct reference integrates M u'' + K u = f_c(u) on all dofs (DOP853,
rtol 1e-12), with the same penalty stop; with every mode kept the modal path is
the same model, so the first two impacts must agree closely; with fewer modes
the truncation error must shrink as modes are added.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.integrate import solve_ivp

from fem2d.modal.basis import ModalProblem, modal_basis, node_modes, project_initial
from fem2d.modal.run import run_modal
from fem2d.modal.shocks import Obstacle
from fem2d.post.impacts import impact_statistics

N, GAP, KN, T = 20, 1e-3, 1e5, 0.06


def chain(n: int, k: float = 1e4, m: float = 1.0):
    """Fixed-free chain of n masses m (kg) and n springs k (N/m): sparse K, M."""
    main = np.full(n, 2.0 * k)
    main[-1] = k
    K = sp.diags([main, -k * np.ones(n - 1), -k * np.ones(n - 1)], [0, 1, -1], format="csr")
    return K, sp.identity(n, format="csr") * m


@pytest.fixture(scope="module")
def direct():
    K, M = chain(N)
    Kd = K.toarray()
    v0 = np.full(N, 0.1)

    def rhs(t, y):
        u, v = y[:N], y[N:]
        f = -Kd @ u
        f[-1] -= KN * max(u[-1] - GAP, 0.0)
        return np.concatenate([v, f])

    ts = np.linspace(0.0, T, 60001)
    sol = solve_ivp(rhs, (0.0, T), np.concatenate([np.zeros(N), v0]), method="DOP853", rtol=1e-12, atol=1e-15,
                    t_eval=ts, max_step=1e-4)
    fn = KN * np.maximum(sol.y[N - 1] - GAP, 0.0)
    return impact_statistics(ts, fn, -sol.y[2 * N - 1]).quantities(), (K, M, v0)


def modal_run(K, M, v0, n_modes, dt):
    b = modal_basis(K, M, n_modes)
    tip = Obstacle(node_modes=node_modes(b, (N - 1, -1)), kind="plane", normal=[-1.0, 0.0], gap=GAP, kn=KN)
    problem = ModalProblem.from_basis(b, 0.0, obstacles=(tip,), v0=project_initial(b, M, v0))
    return run_modal(problem, "devogelaere", dt, T).quantities


def test_all_modes_reproduce_the_direct_solution(direct):
    ref, (K, M, v0) = direct
    q = modal_run(K, M, v0, N, 1e-5)
    assert ref["n_impacts"] == q["n_impacts"] == 2
    for k in (1, 2):
        assert q[f"impact_{k}_f_max"] == pytest.approx(ref[f"impact_{k}_f_max"], rel=2e-5)
        assert q[f"impact_{k}_impulse"] == pytest.approx(ref[f"impact_{k}_impulse"], rel=2e-4)
        assert q[f"impact_{k}_t_peak"] == pytest.approx(ref[f"impact_{k}_t_peak"], abs=1.5e-5)


def test_truncation_error_decreases_with_more_modes(direct):
    ref, (K, M, v0) = direct
    errors = [abs(modal_run(K, M, v0, n, 1e-5)["impact_1_f_max"] / ref["impact_1_f_max"] - 1) for n in (3, 6, 10, 20)]
    assert all(a > b for a, b in zip(errors, errors[1:], strict=False))
    assert errors[-1] < 1e-5 < 0.01 < errors[0]
