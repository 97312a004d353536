r"""Hyperelastic laws at a point, in plane strain: the energy, the second Piola-Kirchhoff
stress and the material tangent of Saint Venant-Kirchhoff and compressible neo-Hookean
materials, and the Lamé coefficients they take.

The cells that integrate them are :mod:`fem2d.fe.hyperelastic` (plane strain and plane
stress, :mod:`fem2d.fe.plane_stress`), :mod:`fem2d.fe.fbar` (F-bar) and the axisymmetric
kernels.
"""

from __future__ import annotations

import numpy as np

from fem2d.errors import InputError
from fem2d.fe.elasticity import elasticity_matrix

LAWS = ("saint_venant_kirchhoff", "neo_hookean")

_I2 = np.eye(2)


def lame(E: float, nu: float) -> tuple[float, float]:
    r"""Lamé coefficients ``(mu, lam)`` (Pa) of Young's modulus and Poisson's ratio.

    .. math::

        \mu = \frac{E}{2 (1 + \nu)}, \qquad \lambda = \frac{E \nu}{(1 + \nu)(1 - 2 \nu)}

    Examples
    --------
    >>> lame(2.5, 0.25)
    (1.0, 1.0)
    """
    elasticity_matrix(E, nu)  # checks E > 0 and -1 < nu < 1/2
    return E / (2.0 * (1.0 + nu)), E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))


def check_law(law: str) -> None:
    """Raise :class:`~fem2d.errors.InputError` unless ``law`` is one of :data:`LAWS`."""
    if law not in LAWS:
        raise InputError(f"hyperelastic: law must be one of {', '.join(LAWS)}, got {law!r}")


def inverse_2x2(C: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Inverse and determinant of a stack of 2x2 matrices (..., 2, 2)."""
    det = C[..., 0, 0] * C[..., 1, 1] - C[..., 0, 1] * C[..., 1, 0]
    adj = np.stack([np.stack([C[..., 1, 1], -C[..., 0, 1]], -1), np.stack([-C[..., 1, 0], C[..., 0, 0]], -1)], -2)
    return adj / det[..., None, None], det


def material_response(F: np.ndarray, law: str, mu: float, lam: float, tangent: bool = True,
                      H: np.ndarray | None = None):
    r"""Energy density, 2nd Piola-Kirchhoff stress and material tangent of a plane-strain
    deformation gradient.

    Saint Venant-Kirchhoff, :math:`E = (C - I)/2` (:math:`E_{33} = 0`):

    .. math::

        W = \tfrac{\lambda}{2} (\operatorname{tr} E)^2 + \mu E:E, \quad
        S = \lambda \operatorname{tr} E\, I + 2 \mu E, \quad
        \mathbb{C}_{IJKL} = \lambda \delta_{IJ}\delta_{KL} + \mu (\delta_{IK}\delta_{JL} + \delta_{IL}\delta_{JK}),
        \quad S_{33} = \lambda \operatorname{tr} E.

    Compressible neo-Hookean, :math:`I_1 = C_{11} + C_{22} + 1`:

    .. math::

        W = \tfrac{\mu}{2} (I_1 - 3 - 2 \ln J) + \tfrac{\lambda}{2} (\ln J)^2, \quad
        S = \mu (I - C^{-1}) + \lambda \ln J\, C^{-1}, \\
        \mathbb{C}_{IJKL} = \lambda C^{-1}_{IJ} C^{-1}_{KL}
        + (\mu - \lambda \ln J)(C^{-1}_{IK} C^{-1}_{JL} + C^{-1}_{IL} C^{-1}_{JK}),
        \quad S_{33} = \mu (1 - C_{33}^{-1}) + \lambda \ln J\, C_{33}^{-1} = \lambda \ln J.

    Parameters
    ----------
    F : ndarray, shape (..., 2, 2)
        In-plane deformation gradients with ``det F > 0``.
    law : {"saint_venant_kirchhoff", "neo_hookean"}
    mu, lam : float
        Lamé coefficients (Pa), see :func:`lame`.
    tangent : bool
        Also return the material tangent.
    H : ndarray, shape (..., 2, 2), optional
        The displacement gradient :math:`F - I`, when known: the strain is then made from it,
        :math:`2E = H + H^T + H^T H` (and :math:`\ln J = \operatorname{log1p}(\operatorname{tr} H
        + \det H)`), without the round-off of :math:`C - I` (1e-16, times a steel's
        modulus a stress of 2e-5 Pa, which a Newton iteration of a stiff body cannot get below).

    Returns
    -------
    W : ndarray, shape (...)
        Energy per unit reference volume (J/m^3).
    S : ndarray, shape (..., 2, 2)
        In-plane second Piola-Kirchhoff stress (Pa).
    S33 : ndarray, shape (...)
        Out-of-plane second Piola-Kirchhoff stress (Pa).
    CC : ndarray, shape (..., 2, 2, 2, 2), or None
        Material tangent (Pa).

    Examples
    --------
    >>> W, S, S33, CC = material_response(np.diag([1.1, 1.0]), "saint_venant_kirchhoff", 1.0, 2.0)
    >>> round(float(W), 6), S.round(3).tolist(), round(float(S33), 3)
    (0.02205, [[0.42, 0.0], [0.0, 0.21]], 0.21)
    """
    check_law(law)
    C = np.swapaxes(F, -1, -2) @ F  # F^T F (matmul: einsum's generic loop is slow on 2 x 2 blocks)
    if H is None:
        two_E = C - _I2
    else:
        two_E = H + np.swapaxes(H, -1, -2) + np.swapaxes(H, -1, -2) @ H
    if law == "saint_venant_kirchhoff":
        Eg = 0.5 * two_E
        tr = Eg[..., 0, 0] + Eg[..., 1, 1]
        W = 0.5 * lam * tr**2 + mu * np.einsum("...IJ,...IJ->...", Eg, Eg)
        S = lam * tr[..., None, None] * _I2 + 2.0 * mu * Eg
        S33 = lam * tr
        CC = None
        if tangent:
            d = _I2
            CC0 = lam * np.einsum("IJ,KL->IJKL", d, d) + mu * (
                np.einsum("IK,JL->IJKL", d, d) + np.einsum("IL,JK->IJKL", d, d)
            )
            CC = np.broadcast_to(CC0, F.shape[:-2] + (2, 2, 2, 2))
        return W, S, S33, CC
    Ci, detC = inverse_2x2(C)
    if H is None:
        lnJ = 0.5 * np.log(detC)
    else:
        lnJ = np.log1p(H[..., 0, 0] + H[..., 1, 1] + H[..., 0, 0] * H[..., 1, 1] - H[..., 0, 1] * H[..., 1, 0])
    W = 0.5 * mu * (two_E[..., 0, 0] + two_E[..., 1, 1] - 2.0 * lnJ) + 0.5 * lam * lnJ**2
    # I - C^-1 = C^-1 (C - I)
    S = mu * (Ci @ two_E) + (lam * lnJ)[..., None, None] * Ci
    S33 = lam * lnJ
    CC = None
    if tangent:
        coef = (mu - lam * lnJ)[..., None, None, None, None]
        CC = lam * np.einsum("...IJ,...KL->...IJKL", Ci, Ci) + coef * (
            np.einsum("...IK,...JL->...IJKL", Ci, Ci) + np.einsum("...IL,...JK->...IJKL", Ci, Ci)
        )
    return W, S, S33, CC
