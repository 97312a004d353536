r"""The default time scheme of a model with contact, chosen on the assembled
system: the explicit impact scheme when the step is within its stability
limit, otherwise an implicit scheme on the modified mass of the contact nodes,
energy-conserving when the contact is frictionless and dissipative when it
has friction.

Measured on the exact Signorini bars (docs/theory/time-schemes.md, "Time schemes with impacts";
``fem2d compare bar_wall --schemes ...``): at a step within the explicit limit
on a lumped mass (Courant numbers 0.5 to 0.96), Paoli-Schatzman's central
differences give the contact force plateau within 9 % with the contact
duration within 1 % and the energy within 0.6 %, where the implicit schemes'
force overshoots (modified mass +34 to +37 %) or their energy drifts
(Moreau-Jean, -0.9 % and O(dt)); above that limit no explicit scheme runs, and
the modified mass method with average acceleration is the implicit scheme that
keeps the energy through repeated frictionless impacts (the bouncing bar: 1e-8
after 10 impacts, where Moreau-Jean and the contact-stabilised Newmark lose
the contact nodes' kinetic energy at each one, -27 % and -81 %).

With friction the energy-conserving scheme is the wrong default. Coulomb's law
couples the normal and tangential motion of the contact nodes unsymmetrically,
so the contact modes of an elastic body sliding under load flutter: with no
dissipation at the frequencies the step does not resolve they grow, the normal
force swings to several times its static value and the contact opens and
closes. Measured on a block pressed on a rigid plane and pushed beyond mu N
(0.2 x 0.1 m, E = 2e9 Pa, QUAD8, dt = 1e-4 s; the battery of
``tests/test_auto_scheme.py``): average acceleration on the modified mass
created 7 % of the loads' work and counted 41 contact openings;
generalized-alpha at rho_inf = 0.7, 0.5, 0.3 left 11, 33 and 0 openings and
2.1e5 N peak normal force at 0.3 (static 2.0e5); at rho_inf = 0 none, the
normal force at its static value, the energy balance closed to 1e-11 and the
block within 1e-4 (relative) of the mesh- and step-converged motion, on
QUAD4, QUAD8 and TRI6, mu from 0.1 to 0.8, pushed above and below mu N, with
every contact method. Generalized-alpha stays second order at any rho_inf; at
rho_inf = 0 its error constant on the smooth motion is larger (SDNV104 A, one
run at dt = 0.01 s: 2.4e-3 m against 3.1e-4 at 0.7, both well within the
case's 1e-3 relative tolerance).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from fem2d.dynamics.impact import PaoliSchatzman
from fem2d.dynamics.schemes import NewmarkScheme, TimeScheme
from fem2d.dynamics.stability import frequency_lower_bound

if TYPE_CHECKING:
    from fem2d.model.system import System


#: The automatic scheme's spectral radius at infinite frequency when a contact has friction
#: (see the module docstring for the measurement behind it).
FRICTION_RHO_INF = 0.0


def friction_scheme() -> NewmarkScheme:
    """The automatic implicit scheme of a contact with friction: generalized-alpha at
    ``rho_inf = 0`` (second order, the unresolved frequencies annihilated).

    >>> friction_scheme().label
    'generalized-alpha(rho_inf=0)'
    """
    return NewmarkScheme.generalized_alpha(FRICTION_RHO_INF)


@dataclass(frozen=True)
class ContactSchemeChoice:
    r"""Choose, for a run with contact, between the ``explicit`` scheme (when
    the mass is lumped and the step within its stability limit on the
    assembled system) and an implicit one on the modified mass of the
    contact nodes (otherwise: on a consistent mass the explicit scheme's force
    overshoots as much as the modified mass's, +60 % on bar_wall, and loses
    more energy): ``implicit`` (average acceleration: energy-conserving) when
    every contact zone is frictionless, ``friction`` (generalized-alpha at
    rho_inf = 0) when one has friction.

    The limit is :meth:`PaoliSchatzman.critical_step
    <fem2d.dynamics.impact.PaoliSchatzman.critical_step>`, :math:`2/\omega_{max}`
    of the run's own mesh and mass matrix; a step above :math:`2/\omega_{low}`,
    with :math:`\omega_{low}` a lower bound from a few power iterations
    (:func:`~fem2d.dynamics.stability.frequency_lower_bound`), is certainly
    above it and costs no eigensolver. The choice is said in the run's result
    (``notes``), never made silently.

    >>> ContactSchemeChoice().label
    'auto'
    >>> ContactSchemeChoice().friction.label
    'generalized-alpha(rho_inf=0)'
    """

    explicit: TimeScheme = field(default_factory=PaoliSchatzman)
    implicit: NewmarkScheme = field(default_factory=NewmarkScheme)
    friction: NewmarkScheme = field(default_factory=friction_scheme)
    label: str = "auto"

    def choose(self, system: System, dt: float, contact_nodes: np.ndarray) -> tuple[TimeScheme, str]:
        """The scheme for step ``dt`` on ``system`` and the sentence that says why."""
        mass = self.explicit.mass(system)
        if (mass - sp.diags(mass.diagonal())).count_nonzero():
            scheme, why = self.implicit_for(system, contact_nodes)
            return scheme, (f"auto scheme: {scheme.label}, implicit: the mass matrix is consistent (the explicit "
                            f"{self.explicit.label} is chosen on a lumped mass only); {why}")
        low = frequency_lower_bound(system.K_free, mass)
        certainly_above = low > 0.0 and dt * low > 2.0 * (1.0 + 1e-9)
        limit = 2.0 / low if certainly_above else self.explicit.critical_step(system)
        if not certainly_above and dt <= limit * (1.0 + 1e-9):
            return self.explicit, (f"auto scheme: {self.explicit.label}, explicit: the step {dt:g} s is within its "
                                   f"stability limit {limit:.6g} s on this mesh")
        bound = "at most " if certainly_above else ""
        scheme, why = self.implicit_for(system, contact_nodes)
        return scheme, (f"auto scheme: {scheme.label}, implicit: the step {dt:g} s is above the explicit "
                        f"{self.explicit.label}'s stability limit ({bound}{limit:.6g} s on this mesh); {why}")

    def implicit_for(self, system: System, contact_nodes: np.ndarray) -> tuple[NewmarkScheme, str]:
        """The implicit scheme on the modified mass for ``system``'s contact zones, and why."""
        rubbing = [zone.name for zone in system.zones if zone.mu > 0.0]
        if not rubbing:
            return (self.implicit.modified_mass(system, contact_nodes),
                    "frictionless contact: the energy-conserving average acceleration")
        return (self.friction.modified_mass(system, contact_nodes),
                f"friction on {', '.join(repr(name) for name in rubbing)}: a dissipative scheme, since sliding "
                "under load makes an elastic body's contact modes flutter where the step does not resolve them")
