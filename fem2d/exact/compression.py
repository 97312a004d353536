r"""Homogeneous uniaxial loading of a hyperelastic block in plane strain, and of a thin sheet in plane
stress (:func:`uniaxial_plane_stress`).

A block is stretched by :math:`\lambda_y` along :math:`y` (imposed), its
lateral faces :math:`x` are traction-free and the out-of-plane stretch is 1
(plane strain): :math:`\mathbf F = \mathrm{diag}(\lambda_x, \lambda_y, 1)`,
:math:`J = \lambda_x\lambda_y`. The lateral stretch :math:`\lambda_x` makes
the lateral first Piola-Kirchhoff stress :math:`P_{xx}` vanish. With the
Lamé constants :math:`\lambda = E\nu/((1+\nu)(1-2\nu))`,
:math:`\mu = E/(2(1+\nu))`:

* ``"saint_venant_kirchhoff"``, :math:`W = \frac{\lambda}{2}(\mathrm{tr}\,\mathbf E)^2 + \mu\,\mathbf E:\mathbf E`,
  :math:`\mathbf E = (\mathbf C - \mathbf I)/2`,
  :math:`\mathbf S = \lambda\,\mathrm{tr}\mathbf E\,\mathbf I + 2\mu\mathbf E`,
  :math:`\mathbf P = \mathbf F\mathbf S`. :math:`S_{xx} = 0` gives
  :math:`E_{xx} = -\frac{\nu}{1-\nu} E_{yy}` in closed form;
* ``"neo_hookean"``, :math:`W = \frac{\mu}{2}(I_1 - 3 - 2\ln J) + \frac{\lambda}{2}(\ln J)^2`,
  :math:`\mathbf P = \mu(\mathbf F - \mathbf F^{-T}) + \lambda\ln J\,\mathbf F^{-T}`.
  :math:`P_{xx} = 0` reads :math:`\mu(\lambda_x^2 - 1) + \lambda\ln(\lambda_x\lambda_y) = 0`,
  increasing and convex in :math:`\ln\lambda_x`, solved by Newton's method to round-off;
* ``"hooke"``, small strains :math:`\varepsilon = \lambda_y - 1`:
  :math:`\varepsilon_{xx} = -\frac{\nu}{1-\nu}\varepsilon`,
  :math:`\sigma_{yy} = \frac{E}{1-\nu^2}\varepsilon`, :math:`\sigma_{zz} = \nu\sigma_{yy}`,
  nominal and Cauchy stresses equal.

The Cauchy stresses are :math:`\boldsymbol\sigma = \mathbf P\mathbf F^T/J`:
:math:`\sigma_{yy} = P_{yy}/\lambda_x`, :math:`\sigma_{zz} = P_{zz}/J`.
A block of reference width :math:`w` carries the force :math:`P_{yy}\,w` per
unit thickness.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fem2d.errors import InputError

#: The constitutive laws :func:`uniaxial_plane_strain` knows.
LAWS = ("hooke", "saint_venant_kirchhoff", "neo_hookean")


@dataclass(frozen=True)
class UniaxialResponse:
    """Response of the block (stresses in Pa; floats, or arrays for an array of stretches).

    ``lateral_stretch`` :math:`\\lambda_x` (the traction-free direction),
    ``nominal_stress`` :math:`P_{yy}` (force per reference area),
    ``cauchy_stress`` :math:`\\sigma_{yy}` (force per current area) and
    ``out_of_plane_stress`` :math:`\\sigma_{zz}` (Cauchy).
    """

    lateral_stretch: np.ndarray | float
    nominal_stress: np.ndarray | float
    cauchy_stress: np.ndarray | float
    out_of_plane_stress: np.ndarray | float


def lame(E: float, nu: float) -> tuple[float, float]:
    """Lamé constants ``(lambda, mu)`` of Young's modulus E and Poisson's ratio nu.

    >>> lame(2.6, 0.3)  # doctest: +ELLIPSIS
    (1.5..., 1.0)
    """
    return E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu)), E / (2.0 * (1.0 + nu))


def checked_material(law: str, E: float, nu: float) -> None:
    """Raise :class:`~fem2d.errors.InputError` unless ``law`` is one of :data:`LAWS`, E > 0 and
    -1 < nu < 0.5 (one line naming the value)."""
    if law not in LAWS:
        raise InputError(f"unknown law {law!r}: expected one of " + ", ".join(f'"{name}"' for name in LAWS))
    if not E > 0.0:
        raise InputError(f"Young's modulus E {E!r}: expected a positive modulus (Pa)")
    if not -1.0 < nu < 0.5:
        raise InputError(f"Poisson's ratio nu {nu!r}: expected -1 < nu < 0.5")


def _neo_hookean_lateral(stretch: np.ndarray, lam: float, mu: float) -> np.ndarray:
    r"""Root :math:`x = \ln\lambda_x` of :math:`g(x) = \mu(e^{2x} - 1) + \lambda(x + \ln\lambda_y)`.

    :math:`g` is increasing and convex, and :math:`g(\max(0, -\ln\lambda_y)) \ge 0`, so Newton's
    iterates from there decrease monotonically to the root.
    """
    log_y = np.log(stretch)
    x = np.maximum(0.0, -log_y)
    for _ in range(200):
        g = mu * np.expm1(2.0 * x) + lam * (x + log_y)
        step = g / (2.0 * mu * np.exp(2.0 * x) + lam)
        x = x - step
        if np.all(np.abs(step) <= 1e-15 * np.maximum(1.0, np.abs(x))):
            break
    return np.exp(x)


def _scalar_or_array(x: np.ndarray) -> np.ndarray | float:
    return float(x) if np.ndim(x) == 0 else x


def uniaxial_plane_strain(stretch, law: str, E: float, nu: float) -> UniaxialResponse:
    r"""Plane-strain uniaxial response to the stretch :math:`\lambda_y` (> 0, scalar or array;
    0.7 is a 30 % compression) of ``law`` ("hooke", "saint_venant_kirchhoff", "neo_hookean").

    Saint Venant-Kirchhoff: :math:`\lambda_x^2 = 1 - \frac{\nu}{1-\nu}(\lambda_y^2 - 1)`,
    :math:`P_{yy} = \lambda_y S_{yy}`, :math:`S_{yy} = \lambda\,\mathrm{tr}\mathbf E + 2\mu E_{yy}`,
    :math:`\sigma_{zz} = \lambda\,\mathrm{tr}\mathbf E / J`.
    Neo-Hookean: :math:`\mu(\lambda_x^2 - 1) + \lambda\ln J = 0`,
    :math:`P_{yy} = \mu(\lambda_y - 1/\lambda_y) + \lambda\ln J/\lambda_y`,
    :math:`\sigma_{zz} = \lambda\ln J / J`. Hooke: :math:`P_{yy} = \sigma_{yy} = E\varepsilon/(1-\nu^2)`.

    With :math:`\nu = 0` (:math:`\lambda = 0`) the block keeps its width and the neo-Hookean
    nominal stress is :math:`\mu(\lambda_y - 1/\lambda_y)`:

    >>> r = uniaxial_plane_strain(0.5, "neo_hookean", 2.0, 0.0)  # mu = 1
    >>> r.lateral_stretch, r.nominal_stress, r.cauchy_stress
    (1.0, -1.5, -1.5)
    >>> r = uniaxial_plane_strain(0.7, "saint_venant_kirchhoff", 2.0, 0.0)  # P = mu (b^3 - b)
    >>> round(r.nominal_stress, 12)
    -0.357
    """
    checked_material(law, E, nu)
    b = np.asarray(stretch, dtype=float)
    if not np.all(b > 0.0):
        raise InputError("stretch: expected stretches > 0 (1 is the undeformed block, 0.7 a 30 % compression)")
    lam, mu = lame(E, nu)
    if law == "hooke":
        strain = b - 1.0
        sigma = E / (1.0 - nu**2) * strain
        a, p_yy, s_yy, s_zz = 1.0 - nu / (1.0 - nu) * strain, sigma, sigma, nu * sigma
    elif law == "saint_venant_kirchhoff":
        e_yy = 0.5 * (b**2 - 1.0)
        e_xx = -nu / (1.0 - nu) * e_yy
        if np.any(1.0 + 2.0 * e_xx <= 0.0):
            raise InputError(
                f"stretch {stretch!r}: saint_venant_kirchhoff finds no lateral stretch that frees the sides "
                f"beyond a stretch of 1/sqrt(nu) = {1.0 / np.sqrt(nu):.6g}"
            )
        a = np.sqrt(1.0 + 2.0 * e_xx)
        trace = e_xx + e_yy
        p_yy = b * (lam * trace + 2.0 * mu * e_yy)
        s_yy, s_zz = p_yy / a, lam * trace / (a * b)
    else:
        a = _neo_hookean_lateral(b, lam, mu)
        log_j = np.log(a * b)
        p_yy = mu * (b - 1.0 / b) + lam * log_j / b
        s_yy, s_zz = p_yy / a, lam * log_j / (a * b)
    return UniaxialResponse(*(_scalar_or_array(np.asarray(v, dtype=float)) for v in (a, p_yy, s_yy, s_zz)))


def uniaxial_plane_stress(stretch, law: str, E: float, nu: float) -> UniaxialResponse:
    r"""Uniaxial response of a thin sheet (plane stress) to the stretch :math:`\lambda_y` (> 0, scalar
    or array): the lateral and the out-of-plane faces are free, so by isotropy the sheet narrows
    and thins alike, :math:`\mathbf F = \mathrm{diag}(\lambda_x, \lambda_y, \lambda_x)`,
    :math:`J = \lambda_x^2 \lambda_y`, and ``out_of_plane_stress`` is 0.

    Saint Venant-Kirchhoff: :math:`S_{xx} = \lambda (2 E_{xx} + E_{yy}) + 2 \mu E_{xx} = 0` gives
    :math:`E_{xx} = -\nu E_{yy}` and :math:`S_{yy} = E\, E_{yy}`, :math:`P_{yy} = \lambda_y S_{yy}`.
    Neo-Hookean: :math:`\mu(\lambda_x^2 - 1) + \lambda \ln J = 0`, that is
    :math:`g(x) = \mu (e^{2x} - 1) + \lambda (2x + \ln\lambda_y)` with :math:`x = \ln\lambda_x`
    (the plane-strain equation with :math:`\lambda` doubled and :math:`\ln\lambda_y` halved),
    :math:`P_{yy} = \mu(\lambda_y - 1/\lambda_y) + \lambda \ln J / \lambda_y`.
    Hooke: :math:`\sigma_{yy} = E \varepsilon`, :math:`\varepsilon_{xx} = -\nu\varepsilon`.
    The Cauchy stress :math:`\sigma_{yy} = P_{yy} / \lambda_x^2` (force per current area).

    >>> r = uniaxial_plane_stress(1.2, "saint_venant_kirchhoff", 2.0, 0.0)  # P = E b (b^2 - 1) / 2
    >>> round(r.nominal_stress, 12), r.lateral_stretch
    (0.528, 1.0)
    >>> r = uniaxial_plane_stress(0.8, "neo_hookean", 2.6, 0.3)
    >>> mu, lam = 1.0, 1.5
    >>> bool(abs(mu * (r.lateral_stretch**2 - 1) + lam * np.log(r.lateral_stretch**2 * 0.8)) < 1e-15)
    True
    """
    checked_material(law, E, nu)
    b = np.asarray(stretch, dtype=float)
    if not np.all(b > 0.0):
        raise InputError("stretch: expected stretches > 0 (1 is the undeformed sheet, 0.7 a 30 % compression)")
    lam, mu = lame(E, nu)
    if law == "hooke":
        strain = b - 1.0
        sigma = E * strain
        a, p_yy, s_yy = 1.0 - nu * strain, sigma, sigma
    elif law == "saint_venant_kirchhoff":
        e_yy = 0.5 * (b**2 - 1.0)
        e_xx = -nu * e_yy
        if np.any(1.0 + 2.0 * e_xx <= 0.0):
            raise InputError(
                f"stretch {stretch!r}: saint_venant_kirchhoff finds no lateral stretch that frees the sides "
                f"beyond a stretch of sqrt(1 + 1/nu) = {np.sqrt(1.0 + 1.0 / nu):.6g}"
            )
        a = np.sqrt(1.0 + 2.0 * e_xx)
        p_yy = b * E * e_yy
        s_yy = p_yy / a**2
    else:
        a = _neo_hookean_lateral(np.sqrt(b), 2.0 * lam, mu)
        p_yy = mu * (b - 1.0 / b) + lam * np.log(a * a * b) / b
        s_yy = p_yy / a**2
    zero = np.zeros_like(b)
    return UniaxialResponse(*(_scalar_or_array(np.asarray(v, dtype=float)) for v in (a, p_yy, s_yy, zero)))
