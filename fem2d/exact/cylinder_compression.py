r"""Homogeneous axial loading of a hyperelastic solid cylinder with a free lateral surface.

A cylinder is stretched by :math:`\lambda_z` along its axis (imposed, 0.7 a 30 %
compression) between smooth ends; its lateral surface is free. The deformation is
homogeneous, :math:`u_r = (\lambda_r - 1) R`, :math:`u_z = (\lambda_z - 1) Z`, so the
hoop stretch :math:`r / R` equals the radial one:
:math:`\mathbf F = \mathrm{diag}(\lambda_r, \lambda_z, \lambda_r)` (rr, zz,
:math:`\theta\theta`), :math:`J = \lambda_r^2 \lambda_z`, and
:math:`P_{rr} = P_{\theta\theta}` (the stress is in equilibrium). The radial stretch
:math:`\lambda_r` makes :math:`P_{rr}` vanish. With the Lamé constants
:math:`\lambda = E\nu/((1+\nu)(1-2\nu))`, :math:`\mu = E/(2(1+\nu))`:

* ``"saint_venant_kirchhoff"``, :math:`\mathbf S = \lambda\,\mathrm{tr}\mathbf E\,\mathbf I + 2\mu\mathbf E`:
  :math:`S_{rr} = \lambda (2 E_{rr} + E_{zz}) + 2\mu E_{rr} = 0` gives
  :math:`E_{rr} = -\nu E_{zz}` in closed form, and :math:`P_{zz} = \lambda_z S_{zz}
  = \lambda_z E (\lambda_z^2 - 1)/2` (Young's modulus in Green-Lagrange strain);
* ``"neo_hookean"``, :math:`\mathbf P = \mu(\mathbf F - \mathbf F^{-T}) + \lambda\ln J\,\mathbf F^{-T}`:
  :math:`P_{rr} = 0` reads :math:`\mu(\lambda_r^2 - 1) + \lambda\ln(\lambda_r^2\lambda_z) = 0`
  (increasing in :math:`\lambda_r`, solved by Brent's method to round-off), and
  :math:`P_{zz} = \mu(\lambda_z - 1/\lambda_z) + \lambda\ln J/\lambda_z`;
* ``"hooke"``, small strains :math:`\varepsilon = \lambda_z - 1`:
  :math:`\varepsilon_{rr} = -\nu\varepsilon`, :math:`P_{zz} = \sigma_{zz} = E\varepsilon`.

The Cauchy axial stress is :math:`\sigma_{zz} = P_{zz}\lambda_z / J = P_{zz}/\lambda_r^2`. A
cylinder of reference radius :math:`R_0` carries the axial force :math:`P_{zz}\,\pi R_0^2`.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

from fem2d.errors import InputError
from fem2d.exact.compression import UniaxialResponse, checked_material, lame


def _neo_hookean_radial(stretch: float, lam: float, mu: float) -> float:
    r"""Root :math:`x = \ln\lambda_r` of :math:`g(x) = \mu(e^{2x} - 1) + \lambda(2x + \ln\lambda_z)`.

    :math:`g` increases; it is :math:`\le 0` at :math:`x = \min(0, -\ln\lambda_z / 2)` and
    :math:`\ge 0` at :math:`\max(0, -\ln\lambda_z / 2)`, which bracket the root.
    """
    log_z = np.log(stretch)
    lo, hi = sorted((0.0, -0.5 * log_z))
    if lo == hi:
        return 1.0
    x = brentq(lambda x: mu * np.expm1(2.0 * x) + lam * (2.0 * x + log_z), lo, hi, xtol=1e-16, rtol=1e-15)
    return float(np.exp(x))


def uniaxial_cylinder(stretch: float, law: str, E: float, nu: float) -> UniaxialResponse:
    r"""Response of a cylinder with a free lateral surface to the axial stretch :math:`\lambda_z`
    (> 0; 0.7 is a 30 % compression) of ``law`` ("hooke", "saint_venant_kirchhoff",
    "neo_hookean"), as :class:`~fem2d.exact.compression.UniaxialResponse`:
    ``lateral_stretch`` :math:`\lambda_r`, ``nominal_stress`` :math:`P_{zz}`,
    ``cauchy_stress`` :math:`\sigma_{zz}`, and ``out_of_plane_stress`` the hoop Cauchy
    stress :math:`\sigma_{\theta\theta}` (0: the lateral surface is free).

    Saint Venant-Kirchhoff: :math:`\lambda_r^2 = 1 - \nu(\lambda_z^2 - 1)`,
    :math:`P_{zz} = \lambda_z E (\lambda_z^2 - 1)/2`. Neo-Hookean:
    :math:`\mu(\lambda_r^2 - 1) + \lambda\ln(\lambda_r^2\lambda_z) = 0`,
    :math:`P_{zz} = \mu(\lambda_z - 1/\lambda_z) + \lambda\ln J/\lambda_z`. Hooke:
    :math:`P_{zz} = E(\lambda_z - 1)`, :math:`\lambda_r = 1 - \nu(\lambda_z - 1)`.

    With :math:`\nu = 0` the cylinder keeps its radius and the neo-Hookean nominal stress is
    :math:`\mu(\lambda_z - 1/\lambda_z)`:

    >>> r = uniaxial_cylinder(0.5, "neo_hookean", 2.0, 0.0)  # mu = 1
    >>> r.lateral_stretch, r.nominal_stress, r.cauchy_stress
    (1.0, -1.5, -1.5)
    >>> r = uniaxial_cylinder(0.7, "neo_hookean", 1.0e7, 0.3)
    >>> round(r.lateral_stretch, 9), round(r.nominal_stress / 1e6, 9)
    (1.107934733, -4.052304243)
    """
    checked_material(law, E, nu)
    b = float(stretch)
    if not b > 0.0:
        raise InputError("stretch: expected a stretch > 0 (1 is the undeformed cylinder, 0.7 a 30 % compression)")
    lam, mu = lame(E, nu)
    if law == "hooke":
        a, p_zz = 1.0 - nu * (b - 1.0), E * (b - 1.0)
        s_zz = p_zz
    elif law == "saint_venant_kirchhoff":
        a2 = 1.0 - nu * (b**2 - 1.0)
        if a2 <= 0.0:
            raise InputError(f"stretch {stretch!r}: saint_venant_kirchhoff finds no radial stretch that frees the "
                             f"lateral surface beyond a stretch of sqrt(1 + 1/nu) = {np.sqrt(1.0 + 1.0 / nu):.6g}")
        a = float(np.sqrt(a2))
        p_zz = b * E * 0.5 * (b**2 - 1.0)
        s_zz = p_zz / a2
    else:
        a = _neo_hookean_radial(b, lam, mu)
        p_zz = mu * (b - 1.0 / b) + lam * np.log(a * a * b) / b
        s_zz = p_zz / (a * a)
    return UniaxialResponse(float(a), float(p_zz), float(s_zz), 0.0)
