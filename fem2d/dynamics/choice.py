r"""The default time scheme of a model with contact, chosen on the assembled
system: the explicit impact scheme when the step is within its stability
limit, an implicit energy-conserving one otherwise.

Measured on the exact Signorini bars (docs/theory/time-schemes.md, "Time schemes with impacts";
``fem2d compare bar_wall --schemes ...``): at a step within the explicit limit
on a lumped mass (Courant numbers 0.5 to 0.96), Paoli-Schatzman's central
differences give the contact force plateau within 9 % with the contact
duration within 1 % and the energy within 0.6 %, where the implicit schemes'
force overshoots (modified mass +34 to +37 %) or their energy drifts
(Moreau-Jean, -0.9 % and O(dt)); above that
limit no explicit scheme runs, and the modified mass method is the implicit
scheme that keeps the energy through repeated impacts (the bouncing bar:
1e-8 after 10 impacts, where Moreau-Jean and the contact-stabilised Newmark
lose the contact nodes' kinetic energy at each one, -27 % and -81 %).
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


@dataclass(frozen=True)
class ContactSchemeChoice:
    r"""Choose, for a run with contact, between the ``explicit`` scheme (when
    the mass is lumped and the step within its stability limit on the
    assembled system) and the ``implicit`` one on the modified mass of the
    contact nodes (otherwise: on a consistent mass the explicit scheme's force
    overshoots as much as the modified mass's, +60 % on bar_wall, and loses
    more energy).

    The limit is :meth:`PaoliSchatzman.critical_step
    <fem2d.dynamics.impact.PaoliSchatzman.critical_step>`, :math:`2/\omega_{max}`
    of the run's own mesh and mass matrix; a step above :math:`2/\omega_{low}`,
    with :math:`\omega_{low}` a lower bound from a few power iterations
    (:func:`~fem2d.dynamics.stability.frequency_lower_bound`), is certainly
    above it and costs no eigensolver. The choice is said in the run's result
    (``notes``), never made silently.

    >>> ContactSchemeChoice().label
    'auto'
    """

    explicit: TimeScheme = field(default_factory=PaoliSchatzman)
    implicit: NewmarkScheme = field(default_factory=NewmarkScheme)
    label: str = "auto"

    def choose(self, system: System, dt: float, contact_nodes: np.ndarray) -> tuple[TimeScheme, str]:
        """The scheme for step ``dt`` on ``system`` and the sentence that says why."""
        mass = self.explicit.mass(system)
        if (mass - sp.diags(mass.diagonal())).count_nonzero():
            scheme = self.implicit.modified_mass(system, contact_nodes)
            return scheme, (f"auto scheme: {scheme.label}, implicit: the mass matrix is consistent (the explicit "
                            f"{self.explicit.label} is chosen on a lumped mass only)")
        low = frequency_lower_bound(system.K_free, mass)
        certainly_above = low > 0.0 and dt * low > 2.0 * (1.0 + 1e-9)
        limit = 2.0 / low if certainly_above else self.explicit.critical_step(system)
        if not certainly_above and dt <= limit * (1.0 + 1e-9):
            return self.explicit, (f"auto scheme: {self.explicit.label}, explicit: the step {dt:g} s is within its "
                                   f"stability limit {limit:.6g} s on this mesh")
        bound = "at most " if certainly_above else ""
        scheme = self.implicit.modified_mass(system, contact_nodes)
        return scheme, (f"auto scheme: {scheme.label}, implicit: the step {dt:g} s is above the explicit "
                        f"{self.explicit.label}'s stability limit ({bound}{limit:.6g} s on this mesh)")
