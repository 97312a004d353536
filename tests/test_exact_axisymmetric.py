"""The axisymmetric closed forms checked independently of their formulas: the Lamé
solutions against a numerical solution of the equilibrium ODE (scipy's solve_bvp)
and their thin-wall and small-hole limits, the breathing modes of a sphere against
the traction-free condition with scipy's Bessel functions and against a shooting
solution of the radial wave equation, the bar modes against a 1D finite-element
eigenproblem and the Pochhammer-Chree equation, the flat punch and the Hertz sphere
against the surface displacement of a half-space under their pressure (Boussinesq's
point-load kernel integrated over rings)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, linalg, special
from scipy.optimize import brentq

from fem2d.exact.axisymmetric import (
    FlatPunch,
    HertzSphereContact,
    cylinder_axial_frequencies,
    flat_punch,
    hertz_sphere,
    lame_cylinder,
    lame_sphere,
    sphere_breathing_frequencies,
    sphere_breathing_roots,
)

E, NU = 2.0e11, 0.3


def _lame_parameters(E: float, nu: float) -> tuple[float, float]:
    return E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu)), E / (2.0 * (1.0 + nu))


def _cylinder_bvp(a, b, p_in, p_out, E, nu, plane):
    """u, sigma_rr, sigma_tt, sigma_zz and eps_zz from the radial equilibrium
    d(sigma_rr)/dr + (sigma_rr - sigma_tt)/r = 0 with 3D Hooke's law; with
    closed ends eps_zz is an unknown fixed by the axial force pi (p_in a^2 - p_out b^2)."""
    lam, mu = _lame_parameters(E, nu)
    if plane == "stress":  # sigma_zz = 0 eliminates eps_zz: the reduced Lamé modulus
        lam = 2.0 * lam * mu / (lam + 2.0 * mu)

    def stresses(r, u, srr, ezz):
        du = (srr - lam * (u / r + ezz)) / (lam + 2.0 * mu)
        trace = du + u / r + ezz
        return du, lam * trace + 2.0 * mu * u / r, lam * trace + 2.0 * mu * ezz

    def fun(r, y, p=(0.0,)):
        du, stt, szz = stresses(r, y[0], y[1], p[0])
        return np.vstack([du, (stt - y[1]) / r, 2.0 * math.pi * r * szz])

    r = np.linspace(a, b, 41)
    guess = np.zeros((3, r.size))
    guess[1] = np.linspace(-p_in, -p_out, r.size)
    if plane == "closed_ends":
        force = math.pi * (p_in * a**2 - p_out * b**2)
        bc = lambda ya, yb, p: np.array([ya[1] + p_in, yb[1] + p_out, ya[2], yb[2] - force])  # noqa: E731
        sol = integrate.solve_bvp(fun, bc, r, guess, p=[0.0], tol=1e-10, max_nodes=20000)
        ezz = sol.p[0]
    else:
        bc = lambda ya, yb: np.array([ya[1] + p_in, yb[1] + p_out, ya[2]])  # noqa: E731
        sol = integrate.solve_bvp(lambda r, y: fun(r, y), bc, r, guess, tol=1e-10, max_nodes=20000)
        ezz = 0.0
    assert sol.success, sol.message
    rr = np.linspace(a, b, 7)
    u, srr = sol.sol(rr)[:2]
    _, stt, szz = stresses(rr, u, srr, ezz)
    if plane == "stress":
        szz = np.zeros_like(rr)
        ezz = -nu * (srr + stt) / E  # Hooke's law with sigma_zz = 0, uniform for this solution
    return rr, u, srr, stt, szz, ezz


@pytest.mark.parametrize("plane", ["strain", "stress", "closed_ends"])
def test_lame_cylinder_solves_the_radial_equilibrium(plane):
    a, b, p_in, p_out = 0.05, 0.12, 3.0e7, 1.0e7
    tube = lame_cylinder(a, b, p_in, p_out, E, NU, plane)
    r, u, srr, stt, szz, ezz = _cylinder_bvp(a, b, p_in, p_out, E, NU, plane)
    scale = max(p_in, p_out)
    np.testing.assert_allclose(tube.u_r(r), u, rtol=1e-7)
    np.testing.assert_allclose(tube.sigma_rr(r), srr, atol=1e-7 * scale)
    np.testing.assert_allclose(tube.sigma_tt(r), stt, atol=1e-7 * scale)
    np.testing.assert_allclose(tube.sigma_zz(r), szz, atol=1e-7 * scale)
    np.testing.assert_allclose(tube.axial_strain, ezz, rtol=1e-7)


def test_lame_cylinder_thin_wall_and_small_hole_limits():
    a, p = 1.0, 2.0e6
    # half a tube: the hoop force balances the pressure, exactly, for any wall
    tube = lame_cylinder(a, 1.3 * a, p, 0.5 * p, E, NU)
    hoop, _ = integrate.quad(tube.sigma_tt, a, 1.3 * a)
    assert hoop == pytest.approx(p * a - 0.5 * p * 1.3 * a, rel=1e-12)
    # thin wall: sigma_tt = p a / t across the wall, to O(t / a)
    for t in (1e-2, 1e-3):
        thin = lame_cylinder(a, a + t, p, 0.0, E, NU, "closed_ends")
        assert float(thin.sigma_tt(a + t / 2)) == pytest.approx(p * (a + t / 2) / t, rel=t / a)
        assert float(thin.sigma_zz(a)) == pytest.approx(p * a / (2 * t), rel=t / a)
    # a pinhole under outer pressure: sigma_tt = -2 p at the hole, the rest a solid cylinder
    b = 1.0
    holed = lame_cylinder(1e-5 * b, b, 0.0, p, E, NU)
    assert float(holed.sigma_tt(1e-5 * b)) == pytest.approx(-2.0 * p, rel=1e-9)
    # a solid plane-strain cylinder is in uniform stress -p, sigma_zz = -2 nu p
    assert float(holed.u_r(b)) == pytest.approx(-p * (1 + NU) * (1 - 2 * NU) * b / E, rel=1e-9)


def _sphere_bvp(a, b, p_in, p_out, E, nu):
    """u, sigma_RR, sigma_tt from d(sigma_RR)/dR + 2 (sigma_RR - sigma_tt)/R = 0."""
    lam, mu = _lame_parameters(E, nu)

    def stresses(R, u, srr):
        du = (srr - 2.0 * lam * u / R) / (lam + 2.0 * mu)
        return du, lam * du + 2.0 * (lam + mu) * u / R

    def fun(R, y):
        du, stt = stresses(R, y[0], y[1])
        return np.vstack([du, 2.0 * (stt - y[1]) / R])

    R = np.linspace(a, b, 41)
    guess = np.vstack([np.zeros(R.size), np.linspace(-p_in, -p_out, R.size)])
    sol = integrate.solve_bvp(
        fun, lambda ya, yb: np.array([ya[1] + p_in, yb[1] + p_out]), R, guess, tol=1e-10, max_nodes=20000
    )
    assert sol.success, sol.message
    RR = np.linspace(a, b, 7)
    u, srr = sol.sol(RR)
    return RR, u, srr, stresses(RR, u, srr)[1]


@pytest.mark.parametrize("p_out", [0.0, 1.5e7])
def test_lame_sphere_solves_the_radial_equilibrium(p_out):
    a, b, p_in = 0.04, 0.1, 4.0e7
    shell = lame_sphere(a, b, p_in, p_out, E, NU)
    R, u, srr, stt = _sphere_bvp(a, b, p_in, p_out, E, NU)
    np.testing.assert_allclose(shell.u_r(R), u, rtol=1e-7)
    np.testing.assert_allclose(shell.sigma_rr(R), srr, atol=1e-7 * p_in)
    np.testing.assert_allclose(shell.sigma_tt(R), stt, atol=1e-7 * p_in)
    if p_out == 0.0:  # the textbook form for an inner pressure alone
        expected = p_in * a**3 / (E * (b**3 - a**3)) * ((1 - 2 * NU) * R + (1 + NU) * b**3 / (2 * R**2))
        np.testing.assert_allclose(shell.u_r(R), expected, rtol=1e-12)


def test_lame_sphere_thin_wall_and_small_cavity_limits():
    a, p = 1.0, 2.0e6
    # half a sphere: the hoop force over the wall's ring balances the pressure on the disc
    shell = lame_sphere(a, 1.4 * a, p, 0.3 * p, E, NU)
    hoop, _ = integrate.quad(lambda R: shell.sigma_tt(R) * 2 * math.pi * R, a, 1.4 * a)
    assert hoop == pytest.approx(math.pi * (p * a**2 - 0.3 * p * (1.4 * a) ** 2), rel=1e-12)
    for t in (1e-2, 1e-3):  # thin shell: sigma_tt = p a / (2 t)
        thin = lame_sphere(a, a + t, p, 0.0, E, NU)
        assert float(thin.sigma_tt(a + t / 2)) == pytest.approx(p * (a + t / 2) / (2 * t), rel=2 * t / a)
    # a small cavity under outer pressure: sigma_tt = -3 p / 2 at the cavity; the solid sphere uniform -p
    b = 1.0
    cavity = lame_sphere(1e-4 * b, b, 0.0, p, E, NU)
    assert float(cavity.sigma_tt(1e-4 * b)) == pytest.approx(-1.5 * p, rel=1e-9)
    assert float(cavity.u_r(b)) == pytest.approx(-p * (1 - 2 * NU) * b / E, rel=1e-9)


@pytest.mark.parametrize("nu", [-0.5, 0.0, 0.25, 0.3, 0.45])
def test_breathing_roots_free_the_sphere_surface(nu):
    """u_r = j1(k r) is the regular radial solution; sigma_rr = (lam + 2 mu) u' + 2 lam u / r
    must vanish at r = R for k R = xi, and nowhere else below the last root."""
    lam, mu = _lame_parameters(1.0, nu)
    roots = sphere_breathing_roots(nu, n=4)

    def surface_stress(xi):  # R = 1, k = xi
        return (lam + 2 * mu) * xi * special.spherical_jn(1, xi, derivative=True) + 2 * lam * special.spherical_jn(
            1, xi
        )

    assert np.all(np.diff(roots) > 0.0) and roots.size == 4
    for xi in roots:
        assert abs(surface_stress(xi)) < 1e-12 * (lam + 2 * mu) * xi
    x = np.linspace(1e-3, roots[-1] - 1e-9, 20001)
    crossings = np.count_nonzero(np.sign(surface_stress(x[:-1])) != np.sign(surface_stress(x[1:])))
    assert crossings == 3  # no root skipped


def test_breathing_roots_by_shooting_the_radial_wave_equation():
    """No Bessel function: integrate u'' + 2u'/r - 2u/r^2 + k^2 u = 0 (R = 1, c_p = 1)
    from the centre (u ~ r) and find the k where sigma_rr(1) = 0."""
    nu = 0.25
    lam, mu = _lame_parameters(1.0, nu)

    def surface_stress(k):
        r0 = 1e-5
        sol = integrate.solve_ivp(
            lambda r, y: [y[1], -2 * y[1] / r + 2 * y[0] / r**2 - k * k * y[0]],
            (r0, 1.0),
            [r0, 1.0],
            rtol=1e-11,
            atol=1e-14,
        )
        u, du = sol.y[:, -1]
        return (lam + 2 * mu) * du + 2 * lam * u

    expected = [brentq(surface_stress, lo, hi, xtol=1e-12) for lo, hi in ((2.0, 3.0), (5.5, 6.5))]
    np.testing.assert_allclose(sphere_breathing_roots(nu, n=2), expected, rtol=1e-8)
    # Love's table for nu = 1/4: k R / pi = 0.8160, 1.9285, 2.9539
    np.testing.assert_allclose(sphere_breathing_roots(nu) / math.pi, [0.8160, 1.9285, 2.9539], atol=5e-5)


def test_breathing_frequencies_in_hertz_and_the_incompressible_limit():
    radius, rho = 0.02, 2700.0
    lam, mu = _lame_parameters(7.0e10, 0.33)
    c_p = math.sqrt((lam + 2 * mu) / rho)
    f = sphere_breathing_frequencies(radius, 7.0e10, 0.33, rho, n=2)
    np.testing.assert_allclose(2 * math.pi * f * radius / c_p, sphere_breathing_roots(0.33, n=2), rtol=1e-13)
    # nu -> 1/2: (lam + 2 mu) / mu -> infinity and the equation becomes sin(xi) = 0
    np.testing.assert_allclose(sphere_breathing_roots(0.49999, n=3), [math.pi, 2 * math.pi, 3 * math.pi], rtol=1e-4)


def _bar_fe_frequencies(length, E, rho, n, lateral=0.0, elements=400):
    """Free-free bar (unit area) with linear elements, Richardson-extrapolated from
    ``elements`` / 2 (their error is O(h^2)); ``lateral`` = nu^2 J / A adds Love's lateral
    inertia rho nu^2 J u'' to the mass."""
    fine, coarse = (
        _bar_fe_mesh(length, E, rho, n, lateral, elements),
        _bar_fe_mesh(length, E, rho, n, lateral, elements // 2),
    )
    return (4.0 * fine - coarse) / 3.0


def _bar_fe_mesh(length, E, rho, n, lateral, elements):
    h = length / elements
    ke = E / h * np.array([[1.0, -1.0], [-1.0, 1.0]])
    me = rho * h / 6 * np.array([[2.0, 1.0], [1.0, 2.0]]) + rho * lateral / h * np.array([[1.0, -1.0], [-1.0, 1.0]])
    K = np.zeros((elements + 1, elements + 1))
    M = np.zeros_like(K)
    for e in range(elements):
        K[e : e + 2, e : e + 2] += ke
        M[e : e + 2, e : e + 2] += me
    omega2 = linalg.eigh(K, M, eigvals_only=True, subset_by_index=[0, n])
    return np.sqrt(np.clip(omega2[1:], 0.0, None)) / (2 * math.pi)  # the first is the rigid motion


def test_bar_modes_against_a_finite_element_bar():
    length, E_, rho = 0.8, 7.0e10, 2700.0
    np.testing.assert_allclose(
        cylinder_axial_frequencies(length, E_, rho, n=3), _bar_fe_frequencies(length, E_, rho, 3), rtol=1e-8
    )
    radius, nu = 0.1, 0.33
    love = cylinder_axial_frequencies(length, E_, rho, n=3, nu=nu, radius=radius)
    fe = _bar_fe_frequencies(length, E_, rho, 3, lateral=nu**2 * radius**2 / 2)
    np.testing.assert_allclose(love, fe, rtol=1e-8)
    assert np.all(love < cylinder_axial_frequencies(length, E_, rho, n=3))
    with pytest.raises(ValueError, match="needs the radius"):
        cylinder_axial_frequencies(length, E_, rho, nu=nu)


def test_love_correction_follows_the_pochhammer_chree_branch():
    """The exact first longitudinal branch of a solid cylinder (Pochhammer-Chree, J0/J1 of
    p r and q r with p^2 = w^2/c_p^2 - k^2, q^2 = w^2/c_s^2 - k^2) at a long wavelength:
    Love's correction removes most of the bar formula's error."""
    E_, nu, rho, radius = 1.0, 0.3, 1.0, 1.0
    lam, mu = _lame_parameters(E_, nu)
    c_p, c_s, c_bar = math.sqrt((lam + 2 * mu) / rho), math.sqrt(mu / rho), math.sqrt(E_ / rho)

    def frequency_equation(w, k):
        p = np.sqrt(complex(w**2 / c_p**2 - k**2))
        q = np.sqrt(complex(w**2 / c_s**2 - k**2))
        j0p, j1p = special.jv(0, p * radius), special.jv(1, p * radius)
        j0q, j1q = special.jv(0, q * radius), special.jv(1, q * radius)
        value = (
            2 * p / radius * (q**2 + k**2) * j1p * j1q - (q**2 - k**2) ** 2 * j0p * j1q - 4 * k**2 * p * q * j1p * j0q
        )
        return value.real

    for k in (0.2, 0.35):
        exact = brentq(frequency_equation, 0.9 * k * c_bar, k * c_bar, args=(k,), xtol=1e-15)
        length = math.pi / k  # the first free-free mode has wavenumber pi / L
        love = 2 * math.pi * cylinder_axial_frequencies(length, E_, rho, n=1, nu=nu, radius=radius)[0]
        bar = k * c_bar
        assert abs(love - exact) < 0.05 * abs(bar - exact)


def _half_space_settlement(pressure_times_ds, r, E_star, lo, hi, where):
    """Surface displacement at radius r of a half-space under an axisymmetric pressure:
    Boussinesq's P / (pi E* d) averaged over each loaded ring s (2 K(m) / (pi (r + s)),
    m = 4 r s / (r + s)^2), i.e. u(r) = 1/(pi E*) int p(s) s 4 K(m) / (r + s) ds."""

    def integrand(t):
        s, p_ds = pressure_times_ds(t)
        return p_ds * s * 4.0 * special.ellipk(4 * r * s / (r + s) ** 2) / (r + s)

    value, _ = integrate.quad(integrand, lo, hi, points=[where] if lo < where < hi else None, limit=200)
    return value / (math.pi * E_star)


def test_flat_punch_pressure_settles_its_disc_uniformly():
    punch = flat_punch(0.02, E, NU)
    a, force = punch.radius, 5.0e4

    def p_ds(phi):  # s = a sin(phi) removes the rim's inverse square root
        s = a * math.sin(phi)
        return s, float(punch.pressure(s, force)) * a * math.cos(phi)

    total = integrate.quad(lambda phi: 2 * math.pi * p_ds(phi)[0] * p_ds(phi)[1], 0, math.pi / 2)[0]
    assert total == pytest.approx(force, rel=1e-12)
    for r in (1e-9 * a, 0.3 * a, 0.7 * a, 0.95 * a):
        settle = _half_space_settlement(p_ds, r, E / (1 - NU**2), 0.0, math.pi / 2, math.asin(r / a))
        assert settle == pytest.approx(punch.indentation(force), rel=1e-7)
    assert punch.stiffness == pytest.approx(2 * a * E / (1 - NU**2))
    assert float(punch.pressure(1.5 * a, force)) == 0.0
    assert isinstance(punch, FlatPunch)


@pytest.mark.parametrize("flat", [(math.inf, 0.0), (7.0e10, 0.33)])
def test_hertz_sphere_pressure_fits_the_sphere_on_the_half_space(flat):
    E2, nu2 = flat
    h = hertz_sphere(0.015, E, NU, E2, nu2, 2.0e3)
    assert h == HertzSphereContact(2.0e3, 0.015, E, NU, E2, nu2)
    a = h.contact_radius
    total, _ = integrate.quad(lambda r: h.pressure(r) * 2 * math.pi * r, 0, a)
    assert total == pytest.approx(h.F, rel=1e-10)
    E_star = 1.0 / ((1 - NU**2) / E + (1 - nu2**2) / E2)
    assert h.effective_modulus == pytest.approx(E_star, rel=1e-14)

    def settle(r):  # both bodies: E* sums their compliances
        return _half_space_settlement(lambda s: (s, float(h.pressure(s))), r, E_star, 0.0, a, r)

    centre = settle(1e-9 * a)
    assert centre == pytest.approx(h.approach, rel=1e-7)
    for r in (0.3 * a, 0.6 * a, 0.9 * a):  # inside the contact the surfaces follow the sphere
        assert centre - settle(r) == pytest.approx(r**2 / (2 * h.R), rel=1e-6)
    assert h.peak_pressure == pytest.approx(1.5 * h.F / (math.pi * a**2))


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="0 < a < b"):
        lame_cylinder(0.2, 0.1, 1.0, 0.0, E, NU)
    with pytest.raises(ValueError, match="plane must be one of"):
        lame_cylinder(0.1, 0.2, 1.0, 0.0, E, NU, "axisymmetric")
    with pytest.raises(ValueError, match="Poisson"):
        lame_sphere(0.1, 0.2, 1.0, 0.0, E, 0.5)
    with pytest.raises(ValueError, match="radius"):
        FlatPunch(0.0, E, NU)
