r"""Closed-form references of the axisymmetric benchmarks (SI units).

Pressures are positive when they push on a surface (compressive); radial
displacements are positive outward; stresses are positive in tension.

* **Thick-walled cylinder** (Lamé 1852; Timoshenko & Goodier, *Theory of
  Elasticity*, 3rd ed. 1970, section 28, "Stress distribution symmetrical
  about an axis"): inner radius :math:`a`, outer :math:`b`, pressures
  :math:`p_i` inside and :math:`p_o` outside,

  .. math::

      \sigma_{rr} = A - \frac{B}{r^2}, \quad \sigma_{\theta\theta} = A + \frac{B}{r^2}, \quad
      A = \frac{p_i a^2 - p_o b^2}{b^2 - a^2}, \quad B = \frac{(p_i - p_o) a^2 b^2}{b^2 - a^2}.

  The axial stress is :math:`\sigma_{zz} = 2\nu A` in plane strain
  (:math:`\varepsilon_{zz} = 0`), 0 in plane stress (a thin disc), and
  :math:`A` for a closed tube whose end caps carry the pressures
  (:math:`\varepsilon_{zz}` uniform, the axial force :math:`\pi(p_i a^2 - p_o b^2)`);
  :math:`u_r = r\,\varepsilon_{\theta\theta}` from Hooke's law.
* **Thick-walled sphere** (Lamé; Timoshenko & Goodier, the symmetrical stress
  distribution in a sphere): with :math:`R` the distance from the centre,

  .. math::

      \sigma_{RR} = C - \frac{2D}{R^3}, \quad \sigma_{\theta\theta} = C + \frac{D}{R^3}, \quad
      C = \frac{p_i a^3 - p_o b^3}{b^3 - a^3}, \quad D = \frac{(p_i - p_o) a^3 b^3}{2 (b^3 - a^3)},

      u_R = \frac{1}{E}\left((1 - 2\nu) C R + (1 + \nu) \frac{D}{R^2}\right),

  which for :math:`p_o = 0` is
  :math:`u_R = \frac{p_i a^3}{E (b^3 - a^3)}\left((1 - 2\nu) R + \frac{(1 + \nu) b^3}{2 R^2}\right)`.
* **Breathing modes of a free solid sphere** (Lamb, "On the vibrations of an
  elastic solid of spherical form", Proc. London Math. Soc. 13, 1882; Love,
  *A Treatise on the Mathematical Theory of Elasticity*, 4th ed., chapter XII):
  see :func:`sphere_breathing_frequencies`.
* **Axial modes of a free-free bar**: :math:`f_k = k c / (2 L)`,
  :math:`c = \sqrt{E/\rho}`, with Love's lateral-inertia correction
  (Rayleigh-Love rod) when the radius is given: see :func:`cylinder_axial_frequencies`.
* **Rigid flat-ended cylindrical punch on an elastic half-space** (Boussinesq
  1885; Sneddon, "The relation between load and penetration in the
  axisymmetric Boussinesq problem for a punch of arbitrary profile",
  Int. J. Eng. Sci. 3, 1965; Johnson, *Contact Mechanics*, 1985, chapter 3):
  see :class:`FlatPunch`.
* **Hertz contact of a sphere on a flat** (Hertz 1882; Johnson, *Contact
  Mechanics*, 1985, chapter 4): see :class:`HertzSphereContact`, the point-contact
  counterpart of :class:`fem2d.exact.hertz.HertzLineContact`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

__all__ = [
    "FlatPunch",
    "HertzSphereContact",
    "LameCylinder",
    "LameSphere",
    "cylinder_axial_frequencies",
    "flat_punch",
    "hertz_sphere",
    "lame_cylinder",
    "lame_sphere",
    "sphere_breathing_frequencies",
    "sphere_breathing_roots",
]

CYLINDER_PLANES = ("strain", "stress", "closed_ends")


def _check_radii(a: float, b: float, what: str) -> None:
    if not 0.0 < a < b:
        raise ValueError(f"{what}: the radii must satisfy 0 < a < b (got a = {a!r} m, b = {b!r} m)")


def _check_material(E: float, nu: float, what: str) -> None:
    if not E > 0.0:
        raise ValueError(f"{what}: Young's modulus E must be positive (got {E!r} Pa)")
    if not -1.0 < nu < 0.5:
        raise ValueError(f"{what}: Poisson's ratio nu must be in (-1, 0.5) (got {nu!r})")


@dataclass(frozen=True)
class LameCylinder:
    """A thick-walled cylinder of radii ``a`` < ``b`` (m) under the pressures
    ``p_in`` and ``p_out`` (Pa); ``plane`` is ``"strain"``, ``"stress"`` or
    ``"closed_ends"`` (see the module's equations). Methods take radii (m) and
    return arrays.

    >>> tube = LameCylinder(a=0.1, b=0.2, p_in=1.0e7, p_out=0.0, E=2.1e11, nu=0.3)
    >>> round(float(tube.u_r(0.1)) * 1e6, 4), round(float(tube.sigma_tt(0.1)) / 1e6, 4)
    (9.0794, 16.6667)
    """

    a: float
    b: float
    p_in: float
    p_out: float
    E: float
    nu: float
    plane: str = "strain"

    def __post_init__(self) -> None:
        _check_radii(self.a, self.b, "lame_cylinder")
        _check_material(self.E, self.nu, "lame_cylinder")
        if self.plane not in CYLINDER_PLANES:
            raise ValueError(f"lame_cylinder: plane must be one of {', '.join(CYLINDER_PLANES)} (got {self.plane!r})")

    @property
    def A(self) -> float:
        """:math:`A = (p_i a^2 - p_o b^2) / (b^2 - a^2)` (Pa), the mean of the two in-plane stresses."""
        a2, b2 = self.a**2, self.b**2
        return (self.p_in * a2 - self.p_out * b2) / (b2 - a2)

    @property
    def B(self) -> float:
        """:math:`B = (p_i - p_o) a^2 b^2 / (b^2 - a^2)` (N, a stress times m²)."""
        a2, b2 = self.a**2, self.b**2
        return (self.p_in - self.p_out) * a2 * b2 / (b2 - a2)

    def sigma_rr(self, r: np.ndarray) -> np.ndarray:
        """Radial stress :math:`A - B/r^2` (Pa): :math:`-p_i` at ``a``, :math:`-p_o` at ``b``."""
        return self.A - self.B / np.asarray(r, dtype=float) ** 2

    def sigma_tt(self, r: np.ndarray) -> np.ndarray:
        """Hoop stress :math:`A + B/r^2` (Pa)."""
        return self.A + self.B / np.asarray(r, dtype=float) ** 2

    def sigma_zz(self, r: np.ndarray) -> np.ndarray:
        """Axial stress (Pa): :math:`2\\nu A` in plane strain, 0 in plane stress, :math:`A` with closed ends."""
        factor = {"strain": 2.0 * self.nu, "stress": 0.0, "closed_ends": 1.0}[self.plane]
        return np.full_like(np.asarray(r, dtype=float), factor * self.A)

    @property
    def axial_strain(self) -> float:
        """:math:`\\varepsilon_{zz}`: 0 in plane strain, :math:`(1 - 2\\nu) A / E` with closed ends,
        and :math:`-2\\nu A / E` in plane stress (uniform, the disc's thickness change over its thickness)."""
        return {"strain": 0.0, "stress": -2.0 * self.nu * self.A, "closed_ends": (1.0 - 2.0 * self.nu) * self.A}[
            self.plane
        ] / self.E

    def u_r(self, r: np.ndarray) -> np.ndarray:
        """Radial displacement (m), :math:`r\\,\\varepsilon_{\\theta\\theta}`:

        * plane strain: :math:`\\frac{1 + \\nu}{E}\\left((1 - 2\\nu) A r + B / r\\right)`,
        * plane stress: :math:`\\frac{1}{E}\\left((1 - \\nu) A r + (1 + \\nu) B / r\\right)`,
        * closed ends: :math:`\\frac{1}{E}\\left((1 - 2\\nu) A r + (1 + \\nu) B / r\\right)`.
        """
        r = np.asarray(r, dtype=float)
        nu = self.nu
        if self.plane == "strain":
            return (1.0 + nu) / self.E * ((1.0 - 2.0 * nu) * self.A * r + self.B / r)
        grow = 1.0 - nu if self.plane == "stress" else 1.0 - 2.0 * nu
        return (grow * self.A * r + (1.0 + nu) * self.B / r) / self.E


def lame_cylinder(
    a: float, b: float, p_in: float, p_out: float, E: float, nu: float, plane: str = "strain"
) -> LameCylinder:
    """The Lamé thick-walled cylinder (see :class:`LameCylinder`).

    >>> round(float(lame_cylinder(0.1, 0.2, 1.0e7, 0.0, 2.1e11, 0.3, "closed_ends").u_r(0.2)) * 1e6, 4)
    5.3968
    """
    return LameCylinder(a, b, p_in, p_out, E, nu, plane)


@dataclass(frozen=True)
class LameSphere:
    """A thick-walled sphere of radii ``a`` < ``b`` (m) under the pressures
    ``p_in`` and ``p_out`` (Pa). Methods take the distance ``R`` from the
    centre (m) and return arrays; :math:`\\sigma_{\\theta\\theta} = \\sigma_{\\varphi\\varphi}`.

    >>> shell = LameSphere(a=0.1, b=0.2, p_in=1.0e7, p_out=0.0, E=2.1e11, nu=0.3)
    >>> round(float(shell.u_r(0.1)) * 1e6, 4), round(float(shell.sigma_tt(0.1)) / 1e6, 4)
    (3.8095, 7.1429)
    """

    a: float
    b: float
    p_in: float
    p_out: float
    E: float
    nu: float

    def __post_init__(self) -> None:
        _check_radii(self.a, self.b, "lame_sphere")
        _check_material(self.E, self.nu, "lame_sphere")

    @property
    def C(self) -> float:
        """:math:`C = (p_i a^3 - p_o b^3) / (b^3 - a^3)` (Pa), the uniform part of the stress."""
        a3, b3 = self.a**3, self.b**3
        return (self.p_in * a3 - self.p_out * b3) / (b3 - a3)

    @property
    def D(self) -> float:
        """:math:`D = (p_i - p_o) a^3 b^3 / (2 (b^3 - a^3))` (Pa m³)."""
        a3, b3 = self.a**3, self.b**3
        return (self.p_in - self.p_out) * a3 * b3 / (2.0 * (b3 - a3))

    def sigma_rr(self, R: np.ndarray) -> np.ndarray:
        """Radial stress :math:`C - 2D/R^3` (Pa)."""
        return self.C - 2.0 * self.D / np.asarray(R, dtype=float) ** 3

    def sigma_tt(self, R: np.ndarray) -> np.ndarray:
        """Hoop stress :math:`C + D/R^3` (Pa), the same in both tangential directions."""
        return self.C + self.D / np.asarray(R, dtype=float) ** 3

    def u_r(self, R: np.ndarray) -> np.ndarray:
        """Radial displacement :math:`((1 - 2\\nu) C R + (1 + \\nu) D / R^2) / E` (m)."""
        R = np.asarray(R, dtype=float)
        return ((1.0 - 2.0 * self.nu) * self.C * R + (1.0 + self.nu) * self.D / R**2) / self.E


def lame_sphere(a: float, b: float, p_in: float, p_out: float, E: float, nu: float) -> LameSphere:
    """The Lamé thick-walled sphere (see :class:`LameSphere`).

    >>> round(float(lame_sphere(0.1, 0.2, 0.0, 1.0e7, 2.1e11, 0.3).u_r(0.2)) * 1e6, 4)
    -5.2381
    """
    return LameSphere(a, b, p_in, p_out, E, nu)


def sphere_breathing_roots(nu: float, n: int = 3) -> np.ndarray:
    r"""The first ``n`` roots :math:`\xi = \omega R / c_p` of the breathing-mode
    frequency equation of a free solid sphere (dimensionless, increasing).

    A purely radial motion is :math:`u = \nabla\phi` with
    :math:`\phi = j_0(k r)`, :math:`k = \omega / c_p`, so
    :math:`u_r \propto j_1(k r)` (regular at the centre). With
    :math:`j_1'(x) = j_0(x) - 2 j_1(x)/x`, the radial stress
    :math:`\sigma_{rr} = (\lambda + 2\mu)\,u_r' + 2\lambda\,u_r/r` is

    .. math::

        \sigma_{rr}(r) = k\left((\lambda + 2\mu)\, j_0(x) - 4\mu\, \frac{j_1(x)}{x}\right), \quad x = k r,

    and a traction-free surface :math:`\sigma_{rr}(R) = 0` gives, with
    :math:`j_0 = \sin x / x`, :math:`j_1 = \sin x / x^2 - \cos x / x` and
    :math:`\xi = k R`,

    .. math::

        \frac{\tan\xi}{\xi} = \frac{1}{1 - \frac{\lambda + 2\mu}{4\mu}\,\xi^2}, \qquad
        \frac{\lambda + 2\mu}{\mu} = \frac{2(1 - \nu)}{1 - 2\nu}.

    The roots are found as the sign changes of the pole-free form
    :math:`(4 - \beta\xi^2)\sin\xi - 4\xi\cos\xi` (:math:`\beta = (\lambda + 2\mu)/\mu`),
    each refined by a bracketed root finder. For :math:`\nu = 1/4`,
    :math:`\xi/\pi = 0.8160, 1.9285, 2.9539` (Love's table):

    >>> [round(float(x), 4) for x in sphere_breathing_roots(0.25)]
    [2.5634, 6.0587, 9.2799]
    """
    if not -1.0 < nu < 0.5:
        raise ValueError(f"sphere_breathing_roots: Poisson's ratio nu must be in (-1, 0.5) (got {nu!r})")
    if n < 1:
        raise ValueError(f"sphere_breathing_roots: n must be at least 1 (got {n!r})")
    beta = 2.0 * (1.0 - nu) / (1.0 - 2.0 * nu)

    def residual(x: float | np.ndarray) -> float | np.ndarray:
        return (4.0 - beta * x * x) * np.sin(x) - 4.0 * x * np.cos(x)

    # near 0 the residual is (4/3 - beta) x^3 + O(x^5), never zero for nu > -1; the k-th root is below (k + 1) pi
    grid = np.linspace(1e-3, (n + 1.0) * math.pi, 200 * (n + 1))
    values = residual(grid)
    changes = np.nonzero(np.sign(values[:-1]) * np.sign(values[1:]) < 0.0)[0][:n]
    if len(changes) < n:  # cannot happen for -1 < nu < 0.5; said rather than returning fewer
        raise RuntimeError(f"sphere_breathing_roots: found {len(changes)} roots below {(n + 1)} pi, expected {n}")
    return np.array([brentq(residual, grid[i], grid[i + 1], xtol=1e-14, rtol=1e-15) for i in changes])


def sphere_breathing_frequencies(radius: float, E: float, nu: float, rho: float, n: int = 3) -> np.ndarray:
    r"""The first ``n`` radially symmetric ("breathing") eigenfrequencies (Hz)
    of a free solid elastic sphere of radius ``radius`` (m), density ``rho``
    (kg/m³): :math:`f = \xi\,c_p / (2\pi R)` with :math:`\xi` from
    :func:`sphere_breathing_roots` and the P-wave speed
    :math:`c_p = \sqrt{(\lambda + 2\mu)/\rho} = \sqrt{E (1 - \nu) / (\rho (1 + \nu)(1 - 2\nu))}`.

    >>> [round(float(f), 1) for f in sphere_breathing_frequencies(0.05, 2.1e11, 0.3, 7800.0)]
    [51168.9, 116739.8, 178231.5]
    """
    _check_material(E, nu, "sphere_breathing_frequencies")
    c_p = math.sqrt(E * (1.0 - nu) / (rho * (1.0 + nu) * (1.0 - 2.0 * nu)))
    return sphere_breathing_roots(nu, n) * c_p / (2.0 * math.pi * radius)


def cylinder_axial_frequencies(
    length: float, E: float, rho: float, n: int = 3, nu: float = 0.0, radius: float | None = None
) -> np.ndarray:
    r"""The first ``n`` axial (longitudinal) eigenfrequencies (Hz) of a free-free
    cylinder of length ``length`` (m): the bar modes :math:`u = \cos(k\pi z/L)`,

    .. math:: f_k = \frac{k c}{2 L}, \qquad c = \sqrt{E/\rho}, \qquad k = 1 \dots n.

    This is exact for :math:`\nu = 0` (no lateral motion). For :math:`\nu > 0`
    it is the long-wavelength limit (what ``nu = 0`` returns); ``nu`` needs the
    ``radius`` (m), with which Love's lateral
    inertia (Rayleigh-Love rod: :math:`\rho A \ddot u - E A u'' - \rho\nu^2 J \ddot u'' = 0`,
    :math:`J / A = r^2/2` for a solid circular section, with the same cosine
    modes) lowers them to

    .. math:: f_k = \frac{k c}{2 L} \Big/ \sqrt{1 + \nu^2 \frac{r^2}{2} \left(\frac{k\pi}{L}\right)^2},

    which agrees with the Pochhammer-Chree first branch to order :math:`(k r / L)^2`.

    >>> [round(float(f), 2) for f in cylinder_axial_frequencies(1.0, 2.1e11, 7800.0)]
    [2594.37, 5188.75, 7783.12]
    >>> [round(float(f), 2) for f in cylinder_axial_frequencies(1.0, 2.1e11, 7800.0, nu=0.3, radius=0.05)]
    [2592.93, 5177.26, 7744.52]
    """
    if not (length > 0.0 and E > 0.0 and rho > 0.0):
        raise ValueError(f"cylinder_axial_frequencies: length, E and rho must be positive (got {length}, {E}, {rho})")
    k = np.arange(1, n + 1, dtype=float)
    bar = k * math.sqrt(E / rho) / (2.0 * length)
    if radius is None:
        if nu != 0.0:
            raise ValueError(
                f"cylinder_axial_frequencies: nu = {nu!r} needs the radius for Love's lateral-inertia correction; "
                "pass radius=..., or leave nu at 0 for the long-wavelength limit"
            )
        return bar
    return bar / np.sqrt(1.0 + nu**2 * 0.5 * radius**2 * (k * math.pi / length) ** 2)


@dataclass(frozen=True)
class FlatPunch:
    r"""A rigid flat-ended cylindrical punch of radius ``radius`` (m) pressed
    on an elastic half-space (``E`` Pa, ``nu``), frictionless. With
    :math:`E^* = E / (1 - \nu^2)`, the force ``F`` (N) and the indentation
    :math:`\delta` (m) are

    .. math::

        F = 2 a E^* \delta, \qquad p(r) = \frac{F}{2\pi a \sqrt{a^2 - r^2}}, \quad r < a,

    the pressure :math:`p_0 (1 - r^2/a^2)^{-1/2}` that displaces the whole
    disc :math:`r < a` by the same :math:`\delta` (infinite at the rim, the
    punch's sharp edge).

    >>> punch = FlatPunch(radius=0.01, E=2.1e11, nu=0.3)
    >>> round(punch.stiffness / 1e9, 4), round(punch.indentation(1.0e4) * 1e6, 4)
    (4.6154, 2.1667)
    """

    radius: float
    E: float
    nu: float

    def __post_init__(self) -> None:
        if not self.radius > 0.0:
            raise ValueError(f"flat_punch: the radius must be positive (got {self.radius!r} m)")
        _check_material(self.E, self.nu, "flat_punch")

    @property
    def effective_modulus(self) -> float:
        """:math:`E^* = E / (1 - \\nu^2)` (Pa)."""
        return self.E / (1.0 - self.nu**2)

    @property
    def stiffness(self) -> float:
        """:math:`F / \\delta = 2 a E^*` (N/m)."""
        return 2.0 * self.radius * self.effective_modulus

    def indentation(self, force: float) -> float:
        """:math:`\\delta = F / (2 a E^*)` (m)."""
        return force / self.stiffness

    def pressure(self, r: np.ndarray, force: float) -> np.ndarray:
        """:math:`F / (2\\pi a \\sqrt{a^2 - r^2})` under the punch, 0 outside (Pa; ``inf`` at the rim)."""
        r = np.asarray(r, dtype=float)
        a = self.radius
        with np.errstate(divide="ignore"):
            inside = force / (2.0 * math.pi * a * np.sqrt(np.clip(a * a - r * r, 0.0, None)))
        return np.where(np.abs(r) < a, inside, np.where(np.abs(r) == a, np.inf, 0.0))


def flat_punch(radius: float, E: float, nu: float) -> FlatPunch:
    """The rigid flat punch on a half-space (see :class:`FlatPunch`).

    >>> round(flat_punch(0.01, 2.1e11, 0.3).stiffness / 1e9, 4)
    4.6154
    """
    return FlatPunch(radius, E, nu)


@dataclass(frozen=True)
class HertzSphereContact:
    r"""An elastic sphere of radius ``R`` (m; ``E1`` Pa, ``nu1``) pressed by the
    force ``F`` (N) on an elastic flat (``E2``, ``nu2``; ``E2 = math.inf``, the
    default, is a rigid flat). With
    :math:`1/E^* = (1 - \nu_1^2)/E_1 + (1 - \nu_2^2)/E_2`, for :math:`a \ll R`
    the contact is the disc :math:`r \le a` with

    .. math::

        a = \left(\frac{3 F R}{4 E^*}\right)^{1/3}, \quad
        p(r) = p_0 \sqrt{1 - r^2/a^2}, \quad p_0 = \frac{3 F}{2\pi a^2}, \quad
        \delta = \frac{a^2}{R},

    :math:`\delta` the approach of the sphere's centre toward the flat's far
    field. For two spheres, pass the effective radius :math:`R_1 R_2 / (R_1 + R_2)`.

    >>> h = HertzSphereContact(F=1.0e3, R=0.01, E1=2.1e11, nu1=0.3)
    >>> round(h.contact_radius * 1e3, 6), round(h.peak_pressure / 1e6, 3), round(h.approach * 1e6, 4)
    (0.319125, 4688.341, 10.1841)
    """

    F: float
    R: float
    E1: float
    nu1: float
    E2: float = math.inf
    nu2: float = 0.0

    def __post_init__(self) -> None:
        if not (self.F >= 0.0 and self.R > 0.0):
            raise ValueError(f"hertz_sphere: F must be >= 0 and R > 0 (got F = {self.F!r} N, R = {self.R!r} m)")
        _check_material(self.E1, self.nu1, "hertz_sphere (sphere)")
        _check_material(self.E2, self.nu2, "hertz_sphere (flat)")

    @property
    def effective_modulus(self) -> float:
        """:math:`E^*` (Pa)."""
        return 1.0 / ((1.0 - self.nu1**2) / self.E1 + (1.0 - self.nu2**2) / self.E2)

    @property
    def contact_radius(self) -> float:
        """:math:`a = (3 F R / (4 E^*))^{1/3}` (m)."""
        return (3.0 * self.F * self.R / (4.0 * self.effective_modulus)) ** (1.0 / 3.0)

    @property
    def peak_pressure(self) -> float:
        """:math:`p_0 = 3 F / (2\\pi a^2)` (Pa), 1.5 times the mean pressure."""
        return 3.0 * self.F / (2.0 * math.pi * self.contact_radius**2)

    @property
    def approach(self) -> float:
        """:math:`\\delta = a^2 / R = (9 F^2 / (16 R E^{*2}))^{1/3}` (m)."""
        return self.contact_radius**2 / self.R

    def pressure(self, r: np.ndarray) -> np.ndarray:
        """:math:`p_0 \\sqrt{1 - r^2/a^2}` inside the contact, 0 outside (Pa), r from its centre."""
        ratio = np.asarray(r, dtype=float) / self.contact_radius
        return self.peak_pressure * np.sqrt(np.clip(1.0 - ratio**2, 0.0, None))


def hertz_sphere(R: float, E1: float, nu1: float, E2: float, nu2: float, F: float) -> HertzSphereContact:
    """Hertz contact of a sphere (``R``, ``E1``, ``nu1``) on a flat (``E2``, ``nu2``;
    ``math.inf`` for a rigid one) under the force ``F`` (see :class:`HertzSphereContact`).

    >>> round(hertz_sphere(0.01, 2.1e11, 0.3, 2.1e11, 0.3, 1.0e3).contact_radius * 1e3, 6)
    0.402073
    """
    return HertzSphereContact(F, R, E1, nu1, E2, nu2)
