"""Reference elements: interpolation property, completeness, derivatives."""

import numpy as np
import pytest

from fem2d.fe import reference_element

KINDS = ["quad4", "quad8", "seg2", "seg3"]


def _random_points(dim, n=7, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, (n, dim))


@pytest.mark.parametrize("kind", KINDS)
def test_kronecker_delta_at_nodes(kind):
    element = reference_element(kind)
    np.testing.assert_allclose(element.shape(element.nodes), np.eye(element.n_nodes), atol=1e-15)


@pytest.mark.parametrize("kind", KINDS)
def test_partition_of_unity_and_linear_completeness(kind):
    element = reference_element(kind)
    xi = _random_points(element.dimension)
    N, dN = element.shape(xi), element.grad(xi)
    np.testing.assert_allclose(N.sum(axis=1), 1.0, atol=1e-14)
    np.testing.assert_allclose(N @ element.nodes, xi, atol=1e-14)  # x = sum N_i x_i reproduces xi
    np.testing.assert_allclose(dN.sum(axis=1), 0.0, atol=1e-14)
    np.testing.assert_allclose(
        np.einsum("qjb,ja->qab", dN, element.nodes),
        np.broadcast_to(np.eye(element.dimension), (len(xi), element.dimension, element.dimension)),
        atol=1e-14,
    )


@pytest.mark.parametrize("kind", KINDS)
def test_derivatives_match_central_differences(kind):
    element = reference_element(kind)
    xi = _random_points(element.dimension, seed=1)
    h = 1e-6
    for b in range(element.dimension):
        step = np.zeros(element.dimension)
        step[b] = h
        fd = (element.shape(xi + step) - element.shape(xi - step)) / (2 * h)
        np.testing.assert_allclose(element.grad(xi)[:, :, b], fd, atol=1e-9)


def test_quad8_reproduces_quadratic_serendipity_terms():
    element = reference_element("quad8")
    xi = _random_points(2, seed=2)
    x, y = element.nodes.T
    for f in (lambda a, b: a * a, lambda a, b: a * b, lambda a, b: a * a * b, lambda a, b: a * b * b):
        np.testing.assert_allclose(element.shape(xi) @ f(x, y), f(xi[:, 0], xi[:, 1]), atol=1e-14)


def test_quad8_corner_shape_function_integrates_to_minus_one_third():
    # the reason row-sum lumping fails for the serendipity element
    from fem2d.fe import gauss_rule

    rule = gauss_rule("quad8")
    np.testing.assert_allclose(
        rule.weights @ reference_element("quad8").shape(rule.points), [-1 / 3] * 4 + [4 / 3] * 4, atol=1e-14
    )
