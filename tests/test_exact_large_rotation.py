"""Exact references for large rotations and finite strains: a round body rolling or slipping down an
incline, the elastica of a cantilever under a dead tip load, and plane-strain uniaxial loading of a
hyperelastic block, each against an independent computation."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

from fem2d.errors import InputError
from fem2d.exact.compression import lame, uniaxial_plane_strain
from fem2d.exact.elastica import cantilever_tip, cantilever_tip_displacement
from fem2d.exact.rolling import rolling_on_incline, time_to_rotation

THIRTY = np.radians(30.0)


# --- rolling ---------------------------------------------------------------------------------------


def test_a_disc_rolls_when_friction_reaches_its_threshold():
    threshold = np.tan(THIRTY) / 3.0  # k tan / (1 + k), k = 1/2
    assert rolling_on_incline(1.0, THIRTY, threshold * (1 + 1e-12), 0.1).rolls
    assert not rolling_on_incline(1.0, THIRTY, threshold * (1 - 1e-12), 0.1).rolls
    # the accelerations are continuous across the threshold
    below = rolling_on_incline(1.0, THIRTY, threshold * (1 - 1e-12), 0.1)
    assert below.acceleration == pytest.approx(9.81 * 0.5 / 1.5, rel=1e-10)
    assert below.angular_acceleration == pytest.approx(9.81 * 0.5 / 1.5 / 0.1, rel=1e-10)


def test_rolling_keeps_the_contact_point_still_and_conserves_energy():
    t = np.linspace(0.0, 2.0, 9)
    for k in (0.5, 1.0):
        m = rolling_on_incline(t, THIRTY, 0.6, 0.25, g=9.81, inertia_ratio=k, mass=3.0)
        assert m.rolls and m.distance.shape == t.shape
        np.testing.assert_allclose(m.distance, 0.25 * m.rotation, rtol=1e-14)
        np.testing.assert_allclose(m.velocity, 0.25 * m.angular_velocity, rtol=1e-14)
        np.testing.assert_allclose(m.kinetic_energy, 3.0 * 9.81 * np.sin(THIRTY) * m.distance, rtol=1e-13)
    ring = rolling_on_incline(1.0, THIRTY, 0.6, 0.25, inertia_ratio=1.0)
    assert ring.acceleration == pytest.approx(9.81 * 0.25, rel=1e-14)  # g sin 30 / 2


def test_slipping_loses_the_friction_work_on_the_slip():
    angle, mu, radius, mass, g = np.radians(40.0), 0.1, 0.2, 2.5, 9.81
    t = np.array([0.3, 1.0, 1.7])
    m = rolling_on_incline(t, angle, mu, radius, g=g, mass=mass)
    assert not m.rolls
    normal = mass * g * np.cos(angle)
    slip = m.distance - radius * m.rotation
    assert np.all(slip > 0.0)
    np.testing.assert_allclose(m.kinetic_energy, mass * g * np.sin(angle) * m.distance - mu * normal * slip, rtol=1e-12)
    # Newton-Euler with the kinetic friction mu N: m a = m g sin - mu N, (m R^2 / 2) alpha = mu N R
    assert m.acceleration == pytest.approx((mass * g * np.sin(angle) - mu * normal) / mass, rel=1e-14)
    assert m.angular_acceleration == pytest.approx(mu * normal * radius / (0.5 * mass * radius**2), rel=1e-14)


def test_time_to_two_revolutions():
    for mu in (0.05, 0.5):
        t = time_to_rotation(4 * np.pi, THIRTY, mu, 0.1)
        assert rolling_on_incline(t, THIRTY, mu, 0.1).rotation == pytest.approx(4 * np.pi, rel=1e-14)
    assert time_to_rotation(4 * np.pi, THIRTY, 0.5, 0.1, g=9.81) == pytest.approx(np.sqrt(24 * np.pi * 0.1 / 9.81))


@pytest.mark.parametrize(
    "kwargs",
    [dict(angle=0.0), dict(angle=np.pi / 2), dict(mu=-0.1), dict(radius=0.0), dict(inertia_ratio=0.0)],
)
def test_rolling_rejects_bad_input_in_one_line(kwargs):
    args = dict(angle=THIRTY, mu=0.3, radius=0.1) | kwargs
    with pytest.raises(InputError) as error:
        rolling_on_incline(1.0, **args)
    assert "\n" not in str(error.value)
    with pytest.raises(InputError):
        rolling_on_incline(-1.0, THIRTY, 0.3, 0.1)


# --- elastica --------------------------------------------------------------------------------------


def shooting(lam):
    """Tip (deflection, shortening, rotation) of theta'' = -lam cos(theta), theta(0) = 0, theta'(1) = 0."""

    def rhs(s, y):
        return [y[1], -lam * np.cos(y[0]), np.cos(y[0]), np.sin(y[0])]

    def end(q):
        return solve_ivp(rhs, (0.0, 1.0), [0.0, q, 0.0, 0.0], method="DOP853", rtol=1e-13, atol=1e-15).y[:, -1]

    # theta'(0)^2 = 2 lam sin(theta_L) < 2 lam; the shape without inflection is the root of largest q
    # (smaller q bend the rod back and forth), bracketed on a grid of sin(theta_L) -> 1
    qs = np.sqrt(2 * lam * (1 - np.logspace(0.0, -18, 37)))
    slopes = np.array([end(q)[1] for q in qs])
    i = np.flatnonzero((slopes[:-1] < 0) & (slopes[1:] > 0))[-1]
    q = brentq(lambda q: end(q)[1], qs[i], qs[i + 1], xtol=1e-15, rtol=1e-15)
    theta, _, x, y = end(q)
    return y, 1.0 - x, theta


def test_elastica_reproduces_the_tabulated_tips():
    tip = cantilever_tip(1.0)
    assert (round(tip.deflection, 5), round(tip.shortening, 5), round(tip.rotation, 5)) == (0.30172, 0.05643, 0.46135)
    tip = cantilever_tip(10.0)
    assert (round(tip.deflection, 5), round(tip.shortening, 5)) == (0.81061, 0.55500)
    # the tip angle at PL^2/EI = 10 is 81.95 degrees (the shooting below agrees to 1e-12)
    assert round(tip.rotation, 5) == 1.43029


@pytest.mark.parametrize("lam", [0.3, 1.0, 3.0, 10.0, 30.0])
def test_elastica_matches_an_independent_shooting_solution(lam):
    tip = cantilever_tip(lam)
    np.testing.assert_allclose([tip.deflection, tip.shortening, tip.rotation], shooting(lam), rtol=1e-9)
    # the clamp moment P x_L = EI theta'(0), with EI theta'(0)^2 = 2 P sin(theta_L)
    assert np.sin(tip.rotation) == pytest.approx(0.5 * lam * (1 - tip.shortening) ** 2, rel=1e-13)


def test_small_loads_give_the_linear_cantilever():
    lam = 1e-4
    tip = cantilever_tip(lam)
    assert tip.deflection == pytest.approx(lam / 3, rel=1e-8)  # next term relative -0.114 lam^2
    assert tip.rotation == pytest.approx(lam / 2, rel=1e-8)
    assert tip.shortening == pytest.approx(lam**2 / 15, rel=1e-5)  # integral of theta^2 / 2, theta = lam (s - s^2/2)
    assert cantilever_tip(0.0) == cantilever_tip(0.0 * lam)
    assert cantilever_tip(0.0).deflection == 0.0


def test_very_large_loads_turn_the_tip_towards_the_load():
    tip = cantilever_tip(1000.0)
    assert 0.5 * np.pi - tip.rotation < 1e-12
    assert 0.97 < tip.deflection < 1.0 and 0.9 < tip.shortening < 1.0


def test_tip_displacement_in_metres_with_signs():
    P, L, EI = 50.0, 2.0, 20.0  # PL^2/EI = 10
    ux, uy = cantilever_tip_displacement(P, L, EI)
    tip = cantilever_tip(10.0)
    assert (ux, uy) == (pytest.approx(-L * tip.shortening, rel=1e-15), pytest.approx(-L * tip.deflection, rel=1e-15))
    ux_up, uy_up = cantilever_tip_displacement(-P, L, EI)
    assert ux_up == pytest.approx(ux, rel=1e-15) and uy_up == pytest.approx(-uy, rel=1e-15)
    small = cantilever_tip_displacement(1e-3, L, EI)
    assert small[1] == pytest.approx(-1e-3 * L**3 / (3 * EI), rel=1e-6)
    for bad in (dict(L=0.0), dict(EI=-1.0)):
        with pytest.raises(InputError):
            cantilever_tip_displacement(P, **(dict(L=L, EI=EI) | bad))
    with pytest.raises(InputError):
        cantilever_tip(-1.0)


# --- plane-strain uniaxial loading -----------------------------------------------------------------

E = 2.0e5
NUS = (0.3, 0.49, 0.4999)
FINITE = ("saint_venant_kirchhoff", "neo_hookean")


def piola(law, F, E, nu):
    """First Piola-Kirchhoff stress of a 3x3 deformation gradient, written from the strain energies."""
    lam, mu = E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))
    if law == "saint_venant_kirchhoff":
        green = 0.5 * (F.T @ F - np.eye(3))
        return F @ (lam * np.trace(green) * np.eye(3) + 2 * mu * green)
    inv_t = np.linalg.inv(F).T
    return mu * (F - inv_t) + lam * np.log(np.linalg.det(F)) * inv_t


def energy(law, a, b, E, nu):
    lam, mu = E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))
    if law == "saint_venant_kirchhoff":
        e = 0.5 * np.array([a * a - 1, b * b - 1, 0.0])
        return 0.5 * lam * e.sum() ** 2 + mu * (e**2).sum()
    if law == "neo_hookean":
        log_j = np.log(a * b)
        return 0.5 * mu * (a * a + b * b + 1 - 3 - 2 * log_j) + 0.5 * lam * log_j**2
    e = np.array([a - 1, b - 1, 0.0])
    return 0.5 * lam * e.sum() ** 2 + mu * (e**2).sum()


@pytest.mark.parametrize("nu", NUS)
@pytest.mark.parametrize("law", FINITE)
@pytest.mark.parametrize("stretch", [0.7, 0.9, 1.2])
def test_the_sides_are_free_and_the_stresses_follow_the_law(law, nu, stretch):
    r = uniaxial_plane_strain(stretch, law, E, nu)
    F = np.diag([r.lateral_stretch, stretch, 1.0])
    P = piola(law, F, E, nu)
    assert abs(P[0, 0]) < 1e-10 * abs(P[1, 1])
    # lambda tr(E) cancels in part as nu -> 1/2: 1e-10
    assert r.nominal_stress == pytest.approx(P[1, 1], rel=1e-10)
    sigma = P @ F.T / np.linalg.det(F)
    assert r.cauchy_stress == pytest.approx(sigma[1, 1], rel=1e-10)
    assert r.out_of_plane_stress == pytest.approx(sigma[2, 2], rel=1e-10)


@pytest.mark.parametrize("nu", NUS)
@pytest.mark.parametrize("law", ("hooke",) + FINITE)
def test_the_nominal_stress_is_the_work_conjugate_of_the_stretch(law, nu):
    """With the sides free, dW/d(stretch) along the path is the nominal stress (finite differences)."""
    h = 1e-6

    def w(b):
        return energy(law, uniaxial_plane_strain(b, law, E, nu).lateral_stretch, b, E, nu)

    derivative = (w(0.7 + h) - w(0.7 - h)) / (2 * h)
    assert derivative == pytest.approx(uniaxial_plane_strain(0.7, law, E, nu).nominal_stress, rel=1e-6)


@pytest.mark.parametrize("nu", NUS)
@pytest.mark.parametrize("law", ("hooke",) + FINITE)
def test_small_stretches_give_hookes_plane_strain_stress(law, nu):
    strain = -1e-6
    r = uniaxial_plane_strain(1 + strain, law, E, nu)
    assert r.nominal_stress == pytest.approx(E / (1 - nu**2) * strain, rel=1e-5)
    assert r.cauchy_stress == pytest.approx(E / (1 - nu**2) * strain, rel=1e-5)
    assert r.out_of_plane_stress == pytest.approx(nu * E / (1 - nu**2) * strain, rel=1e-5)
    assert r.lateral_stretch - 1 == pytest.approx(-nu / (1 - nu) * strain, rel=1e-5)


def test_hand_values():
    mu = E / 2  # nu = 0: lambda = 0, the block keeps its width
    b = np.array([0.5, 0.7, 1.3])
    nh = uniaxial_plane_strain(b, "neo_hookean", E, 0.0)
    np.testing.assert_allclose(nh.lateral_stretch, 1.0, rtol=1e-15)
    np.testing.assert_allclose(nh.nominal_stress, mu * (b - 1 / b), rtol=1e-14)
    svk = uniaxial_plane_strain(b, "saint_venant_kirchhoff", E, 0.0)
    np.testing.assert_allclose(svk.nominal_stress, mu * b * (b**2 - 1), rtol=1e-14)
    # nearly incompressible neo-Hookean: lateral stretch 1/b, W = mu/2 (b^2 + b^-2 - 2), P = mu (b - b^-3)
    lam, mu = lame(E, 0.4999)
    nh = uniaxial_plane_strain(b, "neo_hookean", E, 0.4999)
    np.testing.assert_allclose(nh.lateral_stretch, 1 / b, rtol=2e-3)
    np.testing.assert_allclose(nh.nominal_stress, mu * (b - b**-3), rtol=2e-3)
    assert lame(2.6, 0.3) == (pytest.approx(1.5), pytest.approx(1.0))


def test_compression_rejects_bad_input_in_one_line():
    with pytest.raises(InputError, match='"hooke", "saint_venant_kirchhoff", "neo_hookean"') as error:
        uniaxial_plane_strain(0.7, "mooney", E, 0.3)
    assert "\n" not in str(error.value)
    with pytest.raises(InputError, match="1/sqrt"):
        uniaxial_plane_strain(2.0, "saint_venant_kirchhoff", E, 0.3)
    for stretch, nu in ((0.0, 0.3), (0.7, 0.5), (0.7, -1.0)):
        with pytest.raises(InputError):
            uniaxial_plane_strain(stretch, "neo_hookean", E, nu)
