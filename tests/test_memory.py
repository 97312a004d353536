"""Memory at level 6: a backend that reads the upper triangle is given only that."""

import numpy as np
import pytest
import scipy.sparse as sp

from fem2d.linalg import get_solver
from fem2d.linalg.base import is_upper_triangular


@pytest.mark.parametrize("name", ["pardiso-cholesky", "pardiso-ldlt"])
def test_upper_triangle_alone_factorises_the_symmetric_matrix(name):
    backend = get_solver(name)
    if not backend.available():
        pytest.skip(f"{name} is not installed")
    assert backend.upper_triangle
    n = 50
    A = sp.diags([-1.0, 2.5, -1.0], [-1, 0, 1], shape=(n, n), format="csr")
    b = np.random.default_rng(1).standard_normal(n)
    upper = sp.triu(A, format="csr")
    assert is_upper_triangular(upper) and not is_upper_triangular(A)
    x_upper = backend.factorize(upper).solve(b)
    np.testing.assert_allclose(A @ x_upper, b, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(x_upper, backend.factorize(A).solve(b))  # the same factorisation
