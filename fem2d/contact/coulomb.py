r"""Coulomb friction in 2D: the stick/slip return map and the contact residuals.

Sign conventions (shared by every formulation): per slave node, the normal
multiplier :math:`\lambda_n \ge 0` is compressive, the tangential one
:math:`\lambda_t` is the friction force (or traction) on the slave side along
the master tangent :math:`t`, and :math:`u` is the tangential slip increment
of the step (slave relative to master, along :math:`t`). The Coulomb law reads

.. math::

    |\lambda_t| \le \mu \lambda_n, \qquad
    |\lambda_t| < \mu \lambda_n \Rightarrow u = 0, \qquad
    u \ne 0 \Rightarrow \lambda_t = -\mu \lambda_n\, \mathrm{sign}(u),

i.e. friction opposes the slip. In a slip ``direction`` array, +1/-1 is the
sign of :math:`u` of a sliding node (so :math:`\lambda_t = -\mu \lambda_n
\,\mathrm{direction}`), 0 for a node that does not slide.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fem2d.contact.problem import OPEN, SLIP, STICK


@dataclass(frozen=True)
class ReturnMap:
    r"""Result of :func:`return_map`, per node.

    ``force`` the admissible tangential force, ``stick`` whether the trial
    was admissible, and the consistent tangent: ``d_trial`` =
    :math:`\partial F/\partial F^{trial}` (1 stick, 0 slip) and
    ``d_threshold`` = :math:`\partial F/\partial \tau` (0 stick,
    :math:`\mathrm{sign}(F^{trial})` slip).
    """

    force: np.ndarray
    stick: np.ndarray
    d_trial: np.ndarray
    d_threshold: np.ndarray


def return_map(trial: np.ndarray, threshold: np.ndarray) -> ReturnMap:
    r"""Project a trial tangential force on the Coulomb disc (an interval in 2D).

    .. math::

        F = \begin{cases} F^{trial} & |F^{trial}| \le \tau \quad\text{(stick)} \\
        \tau\, \mathrm{sign}(F^{trial}) & \text{otherwise (slip)} \end{cases}

    Parameters
    ----------
    trial
        Trial tangential forces :math:`F^{trial}` (N, or Pa for tractions).
    threshold
        Slip thresholds :math:`\tau = \mu \lambda_n` (same unit); negative
        values count as 0.

    Returns
    -------
    ReturnMap
        The projected force and the derivatives of the map (its consistent
        tangent, used by the penalty Newton).

    Examples
    --------
    A trial within the threshold sticks; one beyond it slips at the threshold:

    >>> r = return_map(np.array([0.5, -3.0]), np.array([1.0, 1.0]))
    >>> r.force, r.stick
    (array([ 0.5, -1. ]), array([ True, False]))
    >>> r.d_trial, r.d_threshold
    (array([1., 0.]), array([ 0., -1.]))
    """
    trial = np.asarray(trial, dtype=float)
    tau = np.maximum(np.asarray(threshold, dtype=float), 0.0)
    stick = np.abs(trial) <= tau
    sign = np.sign(trial)
    force = np.where(stick, trial, tau * sign)
    return ReturnMap(force, stick, stick.astype(float), np.where(stick, 0.0, sign))


def natural_residual(
    lam_n: np.ndarray,
    lam_t: np.ndarray,
    gap: np.ndarray,
    slip: np.ndarray,
    mu: float,
    stiffness: float | np.ndarray,
) -> np.ndarray:
    r"""Per-node residual of the Signorini-Coulomb conditions, in multiplier units.

    With the gap and slip turned into multiplier units by a stiffness
    :math:`c` (multiplier per metre),

    .. math::

        r_n = \min(\lambda_n, c\, g), \qquad
        r_t = \lambda_t - \Pi_{[-\mu\lambda_n^+,\, \mu\lambda_n^+]}(\lambda_t - c\, u),

    both zero exactly when the contact and friction laws hold, whatever
    :math:`c > 0`. With :math:`c = \epsilon F / \delta`, ":math:`|r| \le
    \epsilon F`" reads: forces within :math:`\epsilon F` and gaps and slips
    within :math:`\delta` (m) of the law. Returns :math:`\max(|r_n|, |r_t|)`
    per node; an infinite gap (no master facing) counts as open.

    Examples
    --------
    A closed node sliding at the Coulomb limit and an open node without force
    satisfy the laws; a closed node at the limit that slips 1 mm the wrong way
    does not (:math:`r_t = c\,u` = 1 N with :math:`c` = 1000 N/m):

    >>> natural_residual(np.array([2.0, 0.0]), np.array([-1.0, 0.0]), np.array([0.0, 0.1]),
    ...                  np.array([0.0, 0.0]), mu=0.5, stiffness=1.0)
    array([0., 0.])
    >>> natural_residual(np.array([2.0]), np.array([0.0]), np.array([0.0]), np.array([1e-3]), mu=0.5, stiffness=1e3)
    array([1.])
    """
    if isinstance(stiffness, float) and stiffness > 0.0:
        g = stiffness * gap  # an infinite gap stays infinite
    else:
        with np.errstate(invalid="ignore"):
            g = np.where(np.isinf(gap), np.inf, stiffness * gap)
    r_n = np.minimum(lam_n, g)
    radius = mu * np.maximum(lam_n, 0.0)
    r_t = lam_t - np.minimum(np.maximum(lam_t - stiffness * slip, -radius), radius)
    return np.maximum(np.abs(r_n), np.abs(r_t))


def alart_curnier_status(
    lam_n: np.ndarray,
    lam_t: np.ndarray,
    gap: np.ndarray,
    slip: np.ndarray,
    rho_n: float,
    rho_t: float,
    mu: float,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Contact and friction statuses from the augmented multipliers (Alart-Curnier).

    .. math::

        \hat\lambda_n = \lambda_n - \rho_n g, \qquad
        \hat\lambda_t = \lambda_t - \rho_t u;

    a node is in contact when :math:`\hat\lambda_n > 0`, stuck when moreover
    :math:`|\hat\lambda_t| \le \mu \hat\lambda_n`, sliding otherwise, with the
    slip direction :math:`-\mathrm{sign}(\hat\lambda_t)`. The fixed point of
    the semi-smooth Newton built on these statuses does not depend on
    :math:`\rho_n, \rho_t > 0` (units: multiplier per metre).

    Returns (status, direction) with status in OPEN/STICK/SLIP.

    Examples
    --------
    With :math:`\mu = 0.5` and :math:`\hat\lambda_n = 1`: a tangential
    multiplier 0.2 sticks, 0.9 slides (direction -1, opposing it), and a node
    without force is open:

    >>> alart_curnier_status(np.array([1.0, 1.0, 0.0]), np.array([0.2, 0.9, 0.0]),
    ...                      np.zeros(3), np.zeros(3), rho_n=1.0, rho_t=1.0, mu=0.5)
    (array([1, 2, 0]), array([ 0., -1.,  0.]))
    """
    aug_n = lam_n - rho_n * gap
    aug_t = lam_t - rho_t * slip
    active = aug_n > 0.0
    stick = active & (np.abs(aug_t) <= mu * np.where(active, aug_n, 0.0))  # (a node facing nothing: -inf)
    status = np.where(active, np.where(stick, STICK, SLIP), OPEN)
    direction = np.where(status == SLIP, -np.sign(aug_t), 0.0)
    return status, direction


def reversal_to_stick(
    status: np.ndarray, direction: np.ndarray, previous_status: np.ndarray, previous_direction: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Turn a proposed slip *reversal* into stick.

    A node that slid one way in the last Newton iterate and is now proposed
    to slide the other way goes through stick instead: when the step
    contains a velocity reversal, a semi-smooth Newton otherwise alternates
    between the two slip directions without ever trying the stuck state that
    lies between them. The fixed point is unchanged (a consistent status set
    is never a reversal of itself).

    Examples
    --------
    >>> reversal_to_stick(np.array([SLIP, SLIP]), np.array([1.0, -1.0]),
    ...                   np.array([SLIP, SLIP]), np.array([1.0, 1.0]))
    (array([2, 1]), array([1., 0.]))
    """
    flip = (status == SLIP) & (previous_status == SLIP) & (direction * previous_direction < 0.0)
    return np.where(flip, STICK, status), np.where(flip, 0.0, direction)
