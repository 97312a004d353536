r"""The effective stiffness condensed on the contact boundary, and the step solved through it.

For linear elastic bodies the effective stiffness :math:`K_{eff}` is constant
at fixed dt and contact touches only the boundary dofs. With :math:`S` the
selection of the free boundary dofs, a contact formulation needs only the
boundary compliance (see :mod:`fem2d.contact.problem`)

.. math::

    C = S K_{eff}^{-1} S^T = \left(K_{bb} - K_{bi} K_{ii}^{-1} K_{ib}\right)^{-1},

the inverse of the Schur complement of the interior dofs :math:`i`. A step
:math:`K_{eff}\,\Delta u = r + S^T p` with contact forces :math:`p` then runs
as condense, solve contact, expand:

1. forward sweep: the interior is eliminated, leaving the reduced right-hand
   side :math:`g = r_b - K_{bi} K_{ii}^{-1} r_i` on the boundary;
2. :math:`\Delta u_b = C (g + p)`, with :math:`p` found by the formulation
   from :math:`d(p) = d_{free} + C p`, :math:`d_{free} = u_b + C g`;
3. backward sweep from :math:`\Delta u_b`: the interior increment.

That is one forward and one backward sweep per step, the cost of one solve,
whatever the contact does (:class:`SchurCondensation`, for backends with a Schur
complement facility). Other backends build :math:`C` by one back-substitution
per boundary dof and apply the contact forces by a second solve in the steps
where some force is non-zero (:class:`SolveCondensation`). Neither keeps a dense
matrix of size n_free x n_boundary.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import cached_property

import numpy as np

from fem2d.linalg.base import Factorization

#: Right-hand sides per batched back-substitution.
BATCH = 64


class BoundaryCondensation(ABC):
    """What both ways share: the boundary numbering, :math:`C` and :math:`S^T p`.

    Parameters
    ----------
    boundary_free_index
        For each boundary dof (interleaved x, y per boundary node), its index
        among the free dofs, or -1 if the dof is prescribed.
    n_free
        Number of free dofs.
    """

    def __init__(self, boundary_free_index: np.ndarray, n_free: int) -> None:
        self.index = np.asarray(boundary_free_index, dtype=np.int64)
        self.n_free = n_free
        self.active = np.flatnonzero(self.index >= 0)
        #: the free dof of each active boundary dof (distinct: a dof is listed once)
        self.rows = self.index[self.active]
        #: C (n_b x n_b), zero on prescribed boundary dofs
        self.compliance = np.zeros((len(self.index), len(self.index)))

    @cached_property
    def active_compliance_rows(self) -> np.ndarray:
        """The rows of :math:`C` of the active boundary dofs (n_active x n_b), made once:
        the boundary increment of the contact forces, :math:`(C p)_{active}`, at every step."""
        rows = self.compliance[self.active]
        rows.flags.writeable = False
        return rows

    def boundary_values(self, u_free: np.ndarray, prescribed: np.ndarray) -> np.ndarray:
        """Boundary dof values (n_b,) from free-dof values and the prescribed ones."""
        out = np.array(prescribed, dtype=float, copy=True)
        out[self.active] = u_free[self.rows]
        return out

    def force(self, p: np.ndarray) -> np.ndarray:
        """The free-dof force vector ``S^T p`` of boundary forces p (n_b,)."""
        out = np.zeros(self.n_free)
        out[self.rows] = np.asarray(p, dtype=float).ravel()[self.active]
        return out

    @abstractmethod
    def condense(self, rhs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The step's work so far and the active boundary increment without contact, :math:`C g`."""

    @abstractmethod
    def expand(self, work: np.ndarray, du_boundary: np.ndarray, p: np.ndarray) -> np.ndarray:
        """The free-dof increment from :meth:`condense`'s work, the active boundary
        increment :math:`C (g + p)` and the boundary forces p (n_b,)."""


class SchurCondensation(BoundaryCondensation):
    """:math:`C` as the inverse of the Schur complement the factorisation computed
    with the boundary eliminated last; a step is one forward and one backward sweep."""

    def __init__(self, factor: Factorization, boundary_free_index: np.ndarray, n_free: int) -> None:
        super().__init__(boundary_free_index, n_free)
        self.factor = factor
        sorted_rows = factor.boundary
        if not np.array_equal(sorted_rows, np.sort(self.rows)):
            raise ValueError("the factorisation's Schur rows are not this boundary's free dofs")
        #: position of each active boundary dof among the factorisation's sorted Schur rows
        self.position = np.searchsorted(sorted_rows, self.rows)
        inverse = np.linalg.inv(factor.schur)
        inverse = 0.5 * (inverse + inverse.T)  # K_eff is symmetric: drop the round-off of the inverse
        self.compliance[np.ix_(self.active, self.active)] = inverse[np.ix_(self.position, self.position)]
        self._active_compliance = np.ascontiguousarray(inverse[np.ix_(self.position, self.position)])

    def condense(self, rhs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        work = self.factor.forward(rhs)
        g = work[self.rows]
        return work, self._active_compliance @ g

    def expand(self, work: np.ndarray, du_boundary: np.ndarray, p: np.ndarray) -> np.ndarray:
        work[self.rows] = du_boundary
        return self.factor.backward(work)


class SolveCondensation(BoundaryCondensation):
    """:math:`C` by one back-substitution per active boundary dof (any backend);
    a step with non-zero contact forces solves twice."""

    def __init__(self, factor: Factorization, boundary_free_index: np.ndarray, n_free: int) -> None:
        super().__init__(boundary_free_index, n_free)
        self.factor = factor
        n_a, rows = len(self.active), self.rows
        for start in range(0, n_a, BATCH):
            cols = np.arange(start, min(start + BATCH, n_a))
            rhs = np.zeros((n_free, len(cols)))
            rhs[rows[cols], np.arange(len(cols))] = 1.0
            x = factor.solve(rhs).reshape(n_free, len(cols))
            self.compliance[np.ix_(self.active, self.active[cols])] = x[rows]
        # K_eff is symmetric: symmetrise away the round-off of the solves
        self.compliance = 0.5 * (self.compliance + self.compliance.T)

    def apply(self, p: np.ndarray) -> np.ndarray:
        """Free-dof displacement ``K_eff^{-1} S^T p`` due to boundary forces p (n_b,)."""
        return self.factor.solve(self.force(p))

    def condense(self, rhs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        work = self.factor.solve(rhs)
        return work, work[self.rows]

    def expand(self, work: np.ndarray, du_boundary: np.ndarray, p: np.ndarray) -> np.ndarray:
        if not np.asarray(p).ravel()[self.active].any():
            return work
        return work + self.apply(p)


def condensation(factor: Factorization, boundary_free_index: np.ndarray, n_free: int) -> BoundaryCondensation:
    """The condensation a factorisation allows: through its Schur complement if it has one."""
    if getattr(factor, "schur", None) is not None:
        return SchurCondensation(factor, boundary_free_index, n_free)
    return SolveCondensation(factor, boundary_free_index, n_free)
