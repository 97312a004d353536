r"""Continuous (weak-form) contact: augmented Lagrangian solved by a semi-smooth Newton.

code_aster's ``CONTINUE`` method (``DEFI_CONTACT``, ``FORMULATION='CONTINUE'``). The contact pressure
:math:`\lambda_n` and the friction traction :math:`\lambda_t` (Pa) are fields
on the slave surface, interpolated by the slave shape functions
:math:`\phi_j`; the contact virtual work is
:math:`\int_{\Gamma_s} (\lambda_n \delta g + \lambda_t \delta u)\, d\Gamma`,
integrated at the slave nodes (``integration="nodal"``, code_aster's default:
weights :math:`w_j = \int \phi_j\, d\Gamma`) or at Gauss points of the slave
edges (``"gauss"``: mortar-like weighted gaps with the consistent surface
matrix), see :mod:`fem2d.contact.kinematics`. The nodal forces are
:math:`p = B^T \lambda`.

Alart-Curnier's augmented Lagrangian gives the statuses, per node, from

.. math::

    \hat\lambda_n = \lambda_n - \rho_n g, \qquad
    \hat\lambda_t = \lambda_t - \rho_t u

(contact if :math:`\hat\lambda_n > 0`; stick if moreover
:math:`|\hat\lambda_t| \le \mu \hat\lambda_n`, else slip opposite to
:math:`\hat\lambda_t`: the projection of :math:`\hat\lambda_t` on the Coulomb
disc); a proposed reversal of the slip direction goes through stick
(:func:`fem2d.contact.coulomb.reversal_to_stick`), without which Newton
alternates between the two directions in a step where the block stops. The
residual

.. math::

    R_n = \lambda_n - \max(0, \hat\lambda_n), \qquad
    R_t = \lambda_t - \Pi_{[-\mu\hat\lambda_n^+,\, \mu\hat\lambda_n^+]}(\hat\lambda_t)

is piecewise linear in :math:`\lambda` through the condensed compliance, and
its generalised (semi-smooth) Newton step for the current statuses is the
linear system of :func:`fem2d.contact.active_set.solve_statuses`: one
generalised Newton iteration updates the contact status and the friction
threshold at once and solves for the multipliers (the displacements follow
from :math:`d = d_{free} + C B^T \lambda`); the geometry is re-paired at each
solution of the linear model until it agrees (code_aster's fixed point on the
geometry around the generalised Newton on contact and friction).

Scaling of :math:`\rho`. As code_aster's COEF_REGU_CONT / COEF_REGU_FROT
(default 100), ``rho_n`` and ``rho_t`` are dimensionless: they multiply the
contact stiffness of the condensed problem,
:math:`\bar k = \mathrm{median}_j\, w_j / W_{jj}` (Pa/m, the pressure that
closes a unit gap at node j; it includes the bodies' elasticity, the mass
over :math:`\beta\Delta t^2` and the mesh). The converged solution does not
depend on :math:`\rho`: the fixed point of the residual above is the
Signorini-Coulomb solution for every :math:`\rho > 0`, and convergence is
judged by the parameter-free natural residual; :math:`\rho` only steers which
statuses the Newton iterates visit.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import ClassVar

import numpy as np

from fem2d.contact import active_set
from fem2d.contact.coulomb import alart_curnier_status, reversal_to_stick
from fem2d.contact.kinematics import gauss_kinematics, nodal_kinematics, zone_weights
from fem2d.contact.mortar import mortar_kinematics
from fem2d.contact.options import CHOICES
from fem2d.contact.problem import OPEN, SLIP, CondensedProblem, ContactSolution, ContactZone
from fem2d.contact.surface import MasterSurface, master_surface
from fem2d.errors import FieldError


@dataclass(frozen=True)
class ContinuousState:
    """History between steps: the multipliers ``lam`` = (pressures, tractions)
    in Pa (2 n_slave), the statuses and slip directions, ``pressure`` (the
    contact pressure per slave node, Pa) and the oriented master ``surface``."""

    surface: MasterSurface
    lam: np.ndarray
    status: np.ndarray
    direction: np.ndarray

    @property
    def pressure(self) -> np.ndarray:
        return self.lam[: len(self.status)]

    @property
    def traction(self) -> np.ndarray:
        return self.lam[len(self.status) :]


@dataclass(frozen=True)
class ContinuousFormulation:
    """Weak-form frictional contact, Alart-Curnier augmented Lagrangian.

    Parameters
    ----------
    integration
        ``"nodal"`` (code_aster's default) or ``"gauss"``.
    rho_n, rho_t
        Dimensionless augmentation coefficients (code_aster's
        COEF_REGU_CONT, COEF_REGU_FROT), scaled by the contact stiffness of
        the condensed problem (module docstring).
    gauss_points
        Gauss points per slave edge for ``"gauss"`` (default: 2 on SEG2,
        3 on SEG3 edges).
    tolerance, max_iter, orientation, discretization
        As for :class:`fem2d.contact.lagrange.LagrangeFormulation`; with
        ``discretization="mortar"`` the weak form is integrated on the segments of the slave
        edges cut by the master's nodes (:mod:`fem2d.contact.mortar`), and ``integration``
        and ``gauss_points`` do not apply (given, an error).
    """

    integration: str = "nodal"
    rho_n: float = 100.0
    rho_t: float = 100.0
    gauss_points: int | None = None
    tolerance: float = 1e-10
    max_iter: int = 50
    orientation: str = "auto"
    discretization: str = "node_to_segment"
    name: ClassVar[str] = "continuous"
    choices: ClassVar[dict[str, tuple[str, ...]]] = CHOICES["continuous"]

    def __post_init__(self) -> None:
        if self.discretization == "mortar" and (self.integration != "nodal" or self.gauss_points is not None):
            key = "integration" if self.integration != "nodal" else "gauss_points"
            raise FieldError("contact method 'continuous'", key, 'does not apply with discretization = "mortar" '
                             "(its integrals are taken on the slave edges cut by the master's nodes); leave it out")

    def initial_state(self, zone: ContactZone) -> ContinuousState:
        """Zero multipliers, every node open."""
        n = zone.n_slave
        return ContinuousState(master_surface(zone, self.orientation), np.zeros(2 * n), np.full(n, OPEN), np.zeros(n))

    def _kinematics(self, problem: CondensedProblem, surface: MasterSurface):
        if self.discretization == "mortar":
            return partial(mortar_kinematics, problem, surface)
        if self.integration == "gauss":
            points = self.gauss_points or (3 if problem.zone.slave_edges.kind == "seg3" else 2)
            return lambda d: gauss_kinematics(problem, surface, d, points)
        weights = zone_weights(problem)
        return lambda d: nodal_kinematics(problem, surface, d, weights)

    def solve(self, problem: CondensedProblem, state: ContinuousState) -> ContactSolution:
        """Semi-smooth Newton; the first iterate solves with the previous step's statuses."""
        mu, n = problem.zone.mu, problem.zone.n_slave
        rho: dict[str, float] = {}

        def rule(it: active_set.Iterate) -> tuple[np.ndarray, np.ndarray]:
            w = it.kin.weight
            if not rho:  # scale once per step, from the first linearisation
                rho["n"] = self.rho_n * contact_stiffness(w, it.diag[:n], it.kin.outside)
                rho["t"] = self.rho_t * contact_stiffness(w, it.diag[n:], it.kin.outside)
            status, direction = alart_curnier_status(it.lam[:n], it.lam[n:], it.gap, it.slip, rho["n"], rho["t"], mu)
            if mu == 0.0:
                # frictionless: a link in contact slides, whatever the sign of its slip (a round-off slip
                # at a node a support holds tangentially reverses from one iterate to the next, and
                # through stick each reversal cost a solve until the loop gave up)
                return np.where(status == OPEN, OPEN, SLIP), np.zeros(n)
            return reversal_to_stick(status, direction, it.status, it.direction)

        result = active_set.run(
            problem,
            self._kinematics(problem, state.surface),
            rule,
            state.lam,
            state.status,
            state.direction,
            self.tolerance,
            self.max_iter,
            rule_at_start=False,
        )
        new_state = ContinuousState(state.surface, result.lam.copy(), result.status.copy(), result.direction.copy())
        return active_set.solution(result, problem, new_state)


def contact_stiffness(weights: np.ndarray, diag: np.ndarray, outside: np.ndarray) -> float:
    r"""Median pressure per unit gap of the slave nodes, :math:`w_j / W_{jj}` (Pa/m)."""
    ok = (~outside) & (diag > 0.0)
    if not ok.any():
        return 1.0
    return float(np.median(weights[ok] / diag[ok]))
