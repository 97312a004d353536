r"""Hyperelastic plane stress: the out-of-plane stretch that frees the faces of a thin sheet,
solved at each integration point.

A sheet in the plane :math:`(X_1, X_2)` deforms by the in-plane gradient :math:`F` (2x2) and
thins by :math:`\lambda_3 = \sqrt{C_{33}}` (no shear out of the plane: :math:`C_{13} = C_{23} = 0`).
Plane stress is :math:`S_{33}(C, C_{33}) = 0`, which fixes :math:`C_{33}` point by point; the
in-plane stress and the energy are then the three-dimensional law's at that :math:`C_{33}`, and
the tangent is the law's condensed on :math:`dS_{33} = 0`,

.. math::

    \mathbb{C}^{ps}_{abcd} = \mathbb{C}_{abcd}
    - \frac{\mathbb{C}_{ab33}\, \mathbb{C}_{33cd}}{\mathbb{C}_{3333}} .

The sheet's current thickness is :math:`t\,\lambda_3`: a total Lagrangian cell integrates over
its reference volume, so the force and the stiffness need nothing else.
"""

from __future__ import annotations

import numpy as np

from fem2d.fe.hyperelastic_laws import inverse_2x2

_I2 = np.eye(2)


def _neo_hookean_thinning(log_det_c: np.ndarray, mu: float, lam: float) -> np.ndarray:
    r"""Root :math:`x = \ln C_{33}` of :math:`g(x) = \mu (e^x - 1) + \tfrac{\lambda}{2} (\ell + x)`,
    :math:`\ell = \ln\det C` (in plane): :math:`g` is increasing and convex, so Newton's iterates
    from :math:`\max(0, -\ell)` (where :math:`g \ge 0`) decrease monotonically to the root."""
    x = np.maximum(0.0, -log_det_c)
    for _ in range(100):
        step = (mu * np.expm1(x) + 0.5 * lam * (log_det_c + x)) / (mu * np.exp(x) + 0.5 * lam)
        x = x - step
        if np.all(np.abs(step) <= 1e-15 * np.maximum(1.0, np.abs(x))):
            break
    return x


def plane_stress_response(F: np.ndarray, law: str, mu: float, lam: float, tangent: bool = True,
                          H: np.ndarray | None = None):
    r"""Energy density, in-plane 2nd Piola-Kirchhoff stress, :math:`C_{33}` and condensed tangent of
    an in-plane deformation gradient under plane stress (:math:`S_{33} = 0`).

    Saint Venant-Kirchhoff: :math:`S_{33} = \lambda \operatorname{tr} E + 2 \mu E_{33}` is linear,
    :math:`E_{33} = -\lambda (E_{11} + E_{22}) / (\lambda + 2\mu)`, and the law is the plane law
    with :math:`\lambda^* = 2 \mu \lambda / (\lambda + 2 \mu)`:

    .. math::

        W = \tfrac{\lambda^*}{2} (E_{11} + E_{22})^2 + \mu E:E, \quad
        S = \lambda^* (E_{11} + E_{22}) I + 2 \mu E, \quad
        \mathbb{C} = \lambda^* I \otimes I + 2 \mu\, \mathbb{I}.

    Compressible neo-Hookean, :math:`\ln J = \tfrac12 (\ln\det C + \ln C_{33})`:
    :math:`S_{33} = 0` reads :math:`\mu (C_{33} - 1) + \lambda \ln J = 0` (solved by Newton's
    method to round-off), and

    .. math::

        W = \tfrac{\mu}{2} (C_{11} + C_{22} + C_{33} - 3 - 2 \ln J) + \tfrac{\lambda}{2} (\ln J)^2,
        \quad S = \mu (I - C^{-1}) + \lambda \ln J\, C^{-1}, \\
        \mathbb{C}_{abcd} = \lambda C^{-1}_{ab} C^{-1}_{cd}
        + (\mu - \lambda \ln J)(C^{-1}_{ac} C^{-1}_{bd} + C^{-1}_{ad} C^{-1}_{bc})
        - \frac{\lambda^2\, C^{-1}_{ab} C^{-1}_{cd}}{\lambda + 2 (\mu - \lambda \ln J)} .

    Parameters and the in-plane quantities are those of
    :func:`fem2d.fe.hyperelastic_laws.material_response`; the third value returned is
    :math:`C_{33} = \lambda_3^2` instead of :math:`S_{33}` (zero).

    Examples
    --------
    A sheet stretched by 10 % along x and held at its width (mu = 1, lam = 2, neo-Hookean) thins
    until :math:`\mu (C_{33} - 1) + \lambda \ln J = 0`:

    >>> W, S, C33, CC = plane_stress_response(np.diag([1.1, 1.0]), "neo_hookean", 1.0, 2.0)
    >>> lnJ = 0.5 * np.log(1.21 * C33)
    >>> round(float(C33), 6), abs(float(1.0 * (C33 - 1) + 2.0 * lnJ)) < 1e-15
    (0.906996, True)

    At rest the condensed tangent is plane-stress Hooke's: :math:`\mathbb{C}_{1111} = E / (1 - \nu^2)`
    (here mu = 1, lam = 2: E = 8/3, nu = 1/3, E / (1 - nu^2) = 3).

    >>> round(float(plane_stress_response(np.eye(2), "neo_hookean", 1.0, 2.0)[3][0, 0, 0, 0]), 12)
    3.0
    """
    C = np.swapaxes(F, -1, -2) @ F
    two_E = C - _I2 if H is None else H + np.swapaxes(H, -1, -2) + np.swapaxes(H, -1, -2) @ H
    if law == "saint_venant_kirchhoff":
        lam_star = 2.0 * mu * lam / (lam + 2.0 * mu)
        Eg = 0.5 * two_E
        tr = Eg[..., 0, 0] + Eg[..., 1, 1]
        W = 0.5 * lam_star * tr**2 + mu * np.einsum("...IJ,...IJ->...", Eg, Eg)
        S = lam_star * tr[..., None, None] * _I2 + 2.0 * mu * Eg
        C33 = 1.0 - 2.0 * lam * tr / (lam + 2.0 * mu)
        CC = None
        if tangent:
            d = _I2
            CC0 = lam_star * np.einsum("IJ,KL->IJKL", d, d) + mu * (
                np.einsum("IK,JL->IJKL", d, d) + np.einsum("IL,JK->IJKL", d, d))
            CC = np.broadcast_to(CC0, F.shape[:-2] + (2, 2, 2, 2))
        return W, S, C33, CC
    if law != "neo_hookean":
        raise ValueError(f"plane stress: unknown law {law!r}")
    Ci, detC = inverse_2x2(C)
    if H is None:
        log_det_c = np.log(detC)
    else:
        log_det_c = 2.0 * np.log1p(H[..., 0, 0] + H[..., 1, 1] + H[..., 0, 0] * H[..., 1, 1]
                                   - H[..., 0, 1] * H[..., 1, 0])
    x = _neo_hookean_thinning(log_det_c, mu, lam)
    lnJ = 0.5 * (log_det_c + x)
    W = 0.5 * mu * (two_E[..., 0, 0] + two_E[..., 1, 1] + np.expm1(x) - 2.0 * lnJ) + 0.5 * lam * lnJ**2
    S = mu * (Ci @ two_E) + (lam * lnJ)[..., None, None] * Ci
    CC = None
    if tangent:
        shear = mu - lam * lnJ
        volume = lam - lam**2 / (lam + 2.0 * shear)
        CC = volume[..., None, None, None, None] * np.einsum("...IJ,...KL->...IJKL", Ci, Ci) + shear[
            ..., None, None, None, None] * (np.einsum("...IK,...JL->...IJKL", Ci, Ci)
                                            + np.einsum("...IL,...JK->...IJKL", Ci, Ci))
    return W, S, np.exp(x), CC
