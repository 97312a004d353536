r"""Modal basis and projections for the reduced (modal) dynamics path.

The physical model on its free dofs is :math:`M \ddot u + C \dot u + K u = f(t)`.
With the lowest modes :math:`K \phi_i = \omega_i^2 M \phi_i` collected in
:math:`\Phi` and :math:`u = \Phi q`, the modal equations are diagonal:

.. math::

    m_i \ddot q_i + c_i \dot q_i + k_i q_i = \phi_i^T f(t) + \phi_i^T f_{nl},
    \qquad m_i = \phi_i^T M \phi_i,\; k_i = \phi_i^T K \phi_i = \omega_i^2 m_i,
    \; c_i = 2 \xi_i \omega_i m_i .

Modes are scaled as code_aster's default for the shock law: the component of
largest magnitude equals +1 (so :math:`m_i` and :math:`k_i` are not 1).

A base (seismic) acceleration :math:`a(t)` along the influence vector :math:`r`
(1 on the dofs moving with the base in the excitation direction) is applied in
the relative frame as the inertial load :math:`-M r\, a(t)`; its generalised
vector is :math:`-\Phi^T M r` (code_aster's ``CALC_CHAR_SEISME`` +
``PROJ_VECT_BASE``).

Loads are a generalised vector times a scalar time function
(:mod:`fem2d.model.timefunctions`: constant, sine or piecewise-linear table), as code_aster's
``EXCIT=_F(VECT_ASSE_GENE=..., FONC_MULT=...)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from fem2d.errors import NumericalError
from fem2d.modal.shocks import Obstacle
from fem2d.model.timefunctions import TimeFunction

__all__ = [
    "DENSE_MAX",
    "Excitation",
    "ModalBasis",
    "ModalProblem",
    "base_acceleration_load",
    "modal_basis",
    "modal_damping",
    "node_modes",
    "project_initial",
    "project_load",
]

#: Up to this many dofs the modes come from a dense generalised eigensolver (:func:`dense_modes`):
#: faster there than a sparse shift-invert, exact, and NumPy only (a modal analysis of a model
#: this small also assembles it densely: :meth:`fem2d.model.Model.assemble`).
DENSE_MAX = 400


@dataclass(frozen=True)
class ModalBasis:
    """Lowest modes of :math:`K\\phi = \\omega^2 M \\phi`.

    Attributes
    ----------
    omegas : (n_modes,) array
        Circular frequencies :math:`\\omega_i` (rad/s), increasing.
    modes : (n_dofs, n_modes) array
        Mode shapes, largest-magnitude component +1.
    masses, stiffnesses : (n_modes,) arrays
        Generalised masses :math:`m_i` (kg) and stiffnesses :math:`k_i` (N/m).
    """

    omegas: np.ndarray
    modes: np.ndarray
    masses: np.ndarray
    stiffnesses: np.ndarray

    @property
    def frequencies(self) -> np.ndarray:
        """Frequencies :math:`f_i = \\omega_i / 2\\pi` (Hz)."""
        return self.omegas / (2.0 * math.pi)

    @property
    def n_modes(self) -> int:
        """Number of modes."""
        return self.modes.shape[1]


def _as_dense(a) -> np.ndarray:
    return a.toarray() if hasattr(a, "toarray") else np.asarray(a, dtype=float)


def modal_basis(K, M, n_modes: int, sigma: float | None = None, dense_max: int = DENSE_MAX) -> ModalBasis:
    r"""Lowest ``n_modes`` modes of :math:`K \phi = \omega^2 M \phi` on the free dofs.

    Dense for at most ``dense_max`` dofs (:func:`dense_modes`, NumPy only), otherwise
    ``scipy.sparse.linalg.eigsh`` in shift-invert mode around ``sigma``
    (default: a small negative shift :math:`-10^{-6}\,\bar K/\bar M`, so a
    singular :math:`K`, e.g. a free body, is factorised safely).

    Parameters
    ----------
    K, M : (n, n) sparse or dense
        Stiffness (N/m) and mass (kg) matrices, already restricted to the free dofs.
    n_modes : int
        Number of modes, ``1 <= n_modes <= n`` (``< n`` for the sparse solver).

    Returns
    -------
    ModalBasis
        Modes scaled to a largest component of +1, with :math:`m_i, k_i`.
    """
    n = K.shape[0]
    if not 1 <= n_modes <= n:
        raise ValueError(f"n_modes must be between 1 and {n}, got {n_modes}")
    if n <= dense_max or n_modes >= n - 1:
        lam, vec = dense_modes(_as_dense(K), _as_dense(M), n_modes)
    else:
        import scipy.sparse as sp  # imported here: a small model (the modal cases) needs NumPy only
        import scipy.sparse.linalg as spla

        Ks, Ms = sp.csc_matrix(K), sp.csc_matrix(M)
        if sigma is None:
            sigma = -1e-6 * float(abs(Ks.diagonal()).mean()) / float(abs(Ms.diagonal()).mean())
        # a fixed start vector makes the modes reproducible from run to run
        try:
            lam, vec = spla.eigsh(Ks, k=n_modes, M=Ms, sigma=sigma, which="LM", v0=np.ones(n))
        except RuntimeError as exc:  # SuperLU inside the shift-invert: "Factor is exactly singular"
            raise NumericalError(f"the natural modes cannot be computed: the shifted stiffness is singular "
                                 f"({' '.join(str(exc).split())}); likely cause: a stiffness or mass far out of "
                                 "scale (materials[].E, materials[].rho)") from None
        order = np.argsort(lam)
        lam, vec = lam[order], vec[:, order]
    idx = np.argmax(np.abs(vec), axis=0)
    vec = vec / vec[idx, np.arange(vec.shape[1])]
    Kd = K @ vec
    Md = M @ vec
    masses = np.einsum("ij,ij->j", vec, np.asarray(Md))
    stiffnesses = np.einsum("ij,ij->j", vec, np.asarray(Kd))
    omegas = np.sqrt(np.maximum(lam, 0.0))
    return ModalBasis(omegas=omegas, modes=vec, masses=masses, stiffnesses=stiffnesses)


def dense_modes(K: np.ndarray, M: np.ndarray, n_modes: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Lowest ``n_modes`` eigenpairs of the dense symmetric pencil :math:`K\phi = \lambda M\phi`,
    :math:`M` positive definite (LAPACK's ``sygv`` reduction, in NumPy):

    .. math:: M = L L^T,\quad (L^{-1} K L^{-T})\, w = \lambda w,\quad \phi = L^{-T} w .

    Returns ``(lam, phi)``, eigenvalues increasing, :math:`\phi^T M \phi = I`.

    >>> lam, phi = dense_modes(np.array([[2.0, -1.0], [-1.0, 2.0]]), np.eye(2), 1)
    >>> round(float(lam[0]), 12)
    1.0
    """
    L = np.linalg.cholesky(M)
    Linv = np.linalg.inv(L)  # lower triangular; small: n <= dense_max
    C = Linv @ K @ Linv.T
    lam, w = np.linalg.eigh(0.5 * (C + C.T))
    return lam[:n_modes], Linv.T @ w[:, :n_modes]


def modal_damping(ratios, basis: ModalBasis) -> np.ndarray:
    r"""Generalised damping coefficients :math:`c_i = 2 \xi_i \omega_i m_i` (N s/m).

    ``ratios`` is one reduced damping :math:`\xi` for all modes or one per mode
    (code_aster's ``AMOR_MODAL=_F(AMOR_REDUIT=...)``).
    """
    xi = np.broadcast_to(np.asarray(ratios, dtype=float), basis.omegas.shape)
    return 2.0 * xi * basis.omegas * basis.masses


def project_load(basis: ModalBasis, f: np.ndarray) -> np.ndarray:
    r"""Generalised load :math:`\Phi^T f` (N per unit modal coordinate) of a free-dof load vector (N)."""
    return basis.modes.T @ np.asarray(f, dtype=float)


def project_initial(basis: ModalBasis, M, u: np.ndarray) -> np.ndarray:
    r"""Modal coordinates of a free-dof field by M-orthogonal projection.

    .. math:: q_i = \phi_i^T M u / m_i

    Exact for a field in the span of the modes; otherwise its M-orthogonal
    projection. Use it for initial displacements (m) and velocities (m/s).
    """
    return (basis.modes.T @ (M @ np.asarray(u, dtype=float))) / basis.masses


def base_acceleration_load(basis: ModalBasis, M, influence: np.ndarray) -> np.ndarray:
    r"""Generalised vector :math:`-\Phi^T M r` of a base acceleration in the relative frame.

    Multiply by the base acceleration :math:`a(t)` (m/s^2); ``influence`` is the
    free-dof vector :math:`r` of the base's unit rigid motion in the excitation
    direction (1 on the x dofs for an x acceleration of every node).
    """
    return -(basis.modes.T @ (M @ np.asarray(influence, dtype=float)))


def node_modes(basis: ModalBasis, dofs: tuple[int, int]) -> np.ndarray:
    """Rows of the mode matrix for a node's (x, y) free dofs; ``-1`` marks a constrained dof (zero row).

    Returns the (2, n_modes) array an :class:`~fem2d.modal.shocks.Obstacle` needs.
    """
    rows = np.zeros((2, basis.n_modes))
    for k, dof in enumerate(dofs):
        if dof >= 0:
            rows[k] = basis.modes[dof]
    return rows


@dataclass(frozen=True)
class Excitation:
    """A generalised load: ``vector`` (n_modes,) times ``function(t)``."""

    vector: np.ndarray
    function: TimeFunction

    def __post_init__(self) -> None:
        object.__setattr__(self, "vector", np.atleast_1d(np.asarray(self.vector, dtype=float)))


@dataclass(frozen=True)
class ModalProblem:
    r"""A reduced modal model with localised shocks (plain arrays, SI units).

    .. math:: m_i \ddot q_i + c_i \dot q_i + k_i q_i
              = \sum_e b_{e,i}\, g_e(t) + \sum_{obstacles} \phi_{node,i}^T F_{shock}

    Attributes
    ----------
    masses, stiffnesses, damping : (n_modes,) arrays
        :math:`m_i` (kg), :math:`k_i` (N/m), :math:`c_i` (N s/m).
    excitations : tuple of Excitation
    obstacles : tuple of Obstacle
    q0, v0 : (n_modes,) arrays
        Initial modal coordinates and velocities (zeros if omitted).
    t0 : float
        Initial time (s).
    """

    masses: np.ndarray
    stiffnesses: np.ndarray
    damping: np.ndarray | None = None
    excitations: tuple[Excitation, ...] = ()
    obstacles: tuple[Obstacle, ...] = ()
    q0: np.ndarray | None = None
    v0: np.ndarray | None = None
    t0: float = 0.0

    def __post_init__(self) -> None:
        m = np.atleast_1d(np.asarray(self.masses, dtype=float))
        n = m.size
        if np.any(m <= 0.0):
            raise ValueError("generalised masses must be > 0")

        def vec(x, name):
            a = np.zeros(n) if x is None else np.atleast_1d(np.asarray(x, dtype=float))
            if a.shape != (n,):
                raise ValueError(f"{name} must have shape ({n},), got {a.shape}")
            return a

        object.__setattr__(self, "masses", m)
        object.__setattr__(self, "stiffnesses", vec(self.stiffnesses, "stiffnesses"))
        object.__setattr__(self, "damping", vec(self.damping, "damping"))
        object.__setattr__(self, "q0", vec(self.q0, "q0"))
        object.__setattr__(self, "v0", vec(self.v0, "v0"))
        object.__setattr__(self, "excitations", tuple(self.excitations))
        object.__setattr__(self, "obstacles", tuple(self.obstacles))
        for e in self.excitations:
            if e.vector.shape != (n,):
                raise ValueError(f"excitation vector must have shape ({n},), got {e.vector.shape}")

    @property
    def n_modes(self) -> int:
        """Number of modes."""
        return self.masses.size

    @property
    def omegas(self) -> np.ndarray:
        """Undamped circular frequencies :math:`\\sqrt{k_i/m_i}` (rad/s)."""
        return np.sqrt(np.maximum(self.stiffnesses, 0.0) / self.masses)

    @property
    def damping_ratios(self) -> np.ndarray:
        """Reduced damping :math:`\\xi_i = c_i / (2 \\sqrt{k_i m_i})` (0 where :math:`k_i = 0`)."""
        km = np.sqrt(np.maximum(self.stiffnesses, 0.0) * self.masses)
        return np.divide(self.damping, 2.0 * km, out=np.zeros_like(km), where=km > 0.0)

    @classmethod
    def from_basis(
        cls,
        basis: ModalBasis,
        damping_ratios=0.0,
        excitations: tuple[Excitation, ...] = (),
        obstacles: tuple[Obstacle, ...] = (),
        q0=None,
        v0=None,
        t0: float = 0.0,
    ) -> ModalProblem:
        """Problem on a computed basis with reduced damping ratios :math:`\\xi_i`."""
        return cls(
            basis.masses, basis.stiffnesses, modal_damping(damping_ratios, basis), excitations, obstacles, q0, v0, t0
        )
