"""Quadrature rules: exactness degree, weights, nodal rules."""

import numpy as np
import pytest

from fem2d.errors import InputError
from fem2d.fe import gauss_legendre, gauss_rule, nodal_rule, reference_element


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_gauss_legendre_exact_to_degree_2n_minus_1(n):
    x, w = gauss_legendre(n)
    for degree in range(2 * n):
        exact = 0.0 if degree % 2 else 2.0 / (degree + 1)
        assert abs(w @ x**degree - exact) < 1e-14
    # and not beyond: x^(2n) is integrated with a visible error
    assert abs(w @ x ** (2 * n) - 2.0 / (2 * n + 1)) > 1e-3


@pytest.mark.parametrize(("kind", "n_points"), [("quad4", 4), ("quad8", 9), ("seg2", 2), ("seg3", 3)])
def test_default_rules(kind, n_points):
    rule = gauss_rule(kind)
    assert rule.n_points == n_points
    assert abs(rule.weights.sum() - (4.0 if kind.startswith("quad") else 2.0)) < 1e-14


def test_tensor_rule_integrates_xi4_eta2_exactly_with_3x3():
    rule = gauss_rule("quad8")
    xi, eta = rule.points.T
    assert abs(rule.weights @ (xi**4 * eta**2) - (2 / 5) * (2 / 3)) < 1e-14
    assert abs(rule.weights @ (xi**5 * eta**3 + xi * eta)) < 1e-14


@pytest.mark.parametrize("kind", ["seg2", "seg3", "quad4"])
def test_nodal_rule_weights_are_shape_function_integrals(kind):
    element = reference_element(kind)
    rule = nodal_rule(kind)
    fine = gauss_rule(kind, 6)
    integrals = fine.weights @ element.shape(fine.points)
    np.testing.assert_allclose(rule.weights, integrals, atol=1e-14)
    np.testing.assert_allclose(rule.points, element.nodes, atol=0)


def test_seg3_nodal_rule_is_simpson():
    np.testing.assert_allclose(nodal_rule("seg3").weights, [1 / 3, 1 / 3, 4 / 3], rtol=1e-15)


def test_no_nodal_rule_for_quad8_and_bad_inputs():
    with pytest.raises(InputError, match="quad8"):
        nodal_rule("quad8")
    with pytest.raises(InputError, match="tri10"):
        gauss_rule("tri10")
    with pytest.raises(InputError, match="positive integer"):
        gauss_legendre(0)
