r"""Time schemes of the Newmark family: Newmark (beta, gamma), code_aster's HHT,
Hilber-Hughes-Taylor and Chung-Hulbert's generalized-alpha."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NewmarkScheme:
    r"""Newmark parameters (beta, gamma) and generalized-alpha weights.

    With :math:`\alpha_m = \alpha_f = 0` this is Newmark's scheme. The
    generalized-alpha method (Chung & Hulbert 1993) writes equilibrium at
    intermediate instants, :math:`M a_{n+1-\alpha_m} + C v_{n+1-\alpha_f} +
    K u_{n+1-\alpha_f} = f_{n+1-\alpha_f}` with
    :math:`x_{n+1-\alpha} = (1-\alpha) x_{n+1} + \alpha x_n`: second-order
    accurate, with a controllable damping of the high frequencies.
    Build them with :meth:`hht` (code_aster's form), :meth:`hht_alpha` (Hilber's)
    and :meth:`generalized_alpha`.
    """

    beta: float = 0.25
    gamma: float = 0.5
    alpha_m: float = 0.0
    alpha_f: float = 0.0
    label: str = "newmark"

    @classmethod
    def hht(cls, alpha: float) -> NewmarkScheme:
        """code_aster's HHT as DYNA_NON_LINE runs it by default (MODI_EQUI = 'NON'):
        plain Newmark with beta = (1-alpha)^2/4, gamma = 1/2 - alpha (first order)."""
        if not -1.0 / 3.0 <= alpha <= 0.0:
            raise ValueError(f"HHT alpha must lie in [-1/3, 0], got {alpha}")
        return cls((1.0 - alpha) ** 2 / 4.0, 0.5 - alpha, label=f"hht(alpha={alpha:g})")

    @classmethod
    def hht_alpha(cls, alpha: float) -> NewmarkScheme:
        """Hilber-Hughes-Taylor proper: forces weighted at t_{n+1+alpha} (second order)."""
        if not -1.0 / 3.0 <= alpha <= 0.0:
            raise ValueError(f"HHT alpha must lie in [-1/3, 0], got {alpha}")
        return cls((1.0 - alpha) ** 2 / 4.0, 0.5 - alpha, 0.0, -alpha, f"hht-alpha(alpha={alpha:g})")

    @classmethod
    def generalized_alpha(cls, rho_inf: float) -> NewmarkScheme:
        """Chung-Hulbert's optimal parameters for a spectral radius ``rho_inf``
        at infinite frequency (1: no dissipation, 0: annihilates in one step)."""
        if not 0.0 <= rho_inf <= 1.0:
            raise ValueError(f"generalized-alpha rho_inf must lie in [0, 1], got {rho_inf}")
        alpha_m = (2.0 * rho_inf - 1.0) / (rho_inf + 1.0)
        alpha_f = rho_inf / (rho_inf + 1.0)
        gamma = 0.5 - alpha_m + alpha_f
        beta = 0.25 * (1.0 - alpha_m + alpha_f) ** 2
        return cls(beta, gamma, alpha_m, alpha_f, f"generalized-alpha(rho_inf={rho_inf:g})")

    @property
    def mass_factor(self) -> float:
        """(1 - alpha_m) / ((1 - alpha_f) beta): K_eff = K + mass_factor M / dt^2 + ..."""
        return (1.0 - self.alpha_m) / ((1.0 - self.alpha_f) * self.beta)
