"""The effective stiffness condensed on the contact boundary.

For linear elastic bodies the Newmark effective stiffness ``K_eff`` is
constant at fixed dt and contact touches only the boundary dofs. With ``S``
the selection of the free boundary dofs, the boundary compliance

    C = S K_eff^{-1} S^T

(dense, n_b x n_b) is all a contact formulation needs (see
:mod:`fem2d.contact.problem`). It costs one back-substitution per boundary dof,
once per step size; afterwards the contact forces ``p`` are applied to the
free dofs as ``K_eff^{-1} S^T p``, either from the stored columns
``Z = K_eff^{-1} S^T`` (small models) or by one more back-substitution (large
models, where Z would not fit in memory).
"""

from __future__ import annotations

import numpy as np

from fem2d.linalg.base import Factorization

#: Store Z = K_eff^-1 S^T when it takes less than this many bytes. Applying the contact
#: forces is then one dense product (7 ms at SDNV104's refine 5, 127 MB) instead of a
#: back-substitution (25 ms with SuperLU). A fixed size, so that results do not depend on the
#: machine (the two ways round off differently). Refine 6 (1 GB) back-substitutes.
Z_STORE_LIMIT = 256 * 2**20
#: Right-hand sides per batched back-substitution.
BATCH = 64


class BoundaryCondensation:
    """``C = S K_eff^{-1} S^T`` and the map from boundary forces to free dofs.

    Parameters
    ----------
    factor
        The factorised effective stiffness of the free dofs.
    boundary_free_index
        For each boundary dof (interleaved x, y per boundary node), its index
        among the free dofs, or -1 if the dof is prescribed.
    n_free
        Number of free dofs.
    """

    def __init__(self, factor: Factorization, boundary_free_index: np.ndarray, n_free: int) -> None:
        self.factor = factor
        self.index = np.asarray(boundary_free_index, dtype=np.int64)
        self.n_free = n_free
        self.active = np.flatnonzero(self.index >= 0)
        #: the free dof of each active boundary dof (distinct: a dof is listed once)
        self.rows = self.index[self.active]
        n_b, n_a = len(self.index), len(self.active)
        self.compliance = np.zeros((n_b, n_b))
        store = n_free * n_a * 8 <= Z_STORE_LIMIT
        self.Z = np.zeros((n_free, n_a)) if store else None
        rows = self.rows
        for start in range(0, n_a, BATCH):
            cols = np.arange(start, min(start + BATCH, n_a))
            rhs = np.zeros((n_free, len(cols)))
            rhs[rows[cols], np.arange(len(cols))] = 1.0
            x = factor.solve(rhs).reshape(n_free, len(cols))
            self.compliance[np.ix_(self.active, self.active[cols])] = x[rows]
            if self.Z is not None:
                self.Z[:, cols] = x
        # K_eff is symmetric: symmetrise away the round-off of the solves
        self.compliance = 0.5 * (self.compliance + self.compliance.T)

    def boundary_values(self, u_free: np.ndarray, prescribed: np.ndarray) -> np.ndarray:
        """Boundary dof values (n_b,) from free-dof values and the prescribed ones."""
        out = np.array(prescribed, dtype=float, copy=True)
        out[self.active] = u_free[self.rows]
        return out

    def apply(self, p: np.ndarray) -> np.ndarray:
        """Free-dof displacement ``K_eff^{-1} S^T p`` due to boundary forces p (n_b,)."""
        p_active = np.asarray(p, dtype=float).ravel()[self.active]
        if self.Z is not None:
            return self.Z.dot(p_active)
        rhs = np.zeros(self.n_free)
        rhs[self.rows] = p_active
        return self.factor.solve(rhs)

    def force(self, p: np.ndarray) -> np.ndarray:
        """The free-dof force vector ``S^T p`` of boundary forces p (n_b,)."""
        out = np.zeros(self.n_free)
        out[self.rows] = np.asarray(p, dtype=float).ravel()[self.active]
        return out
