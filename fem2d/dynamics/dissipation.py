r"""The energy a time scheme removes by itself over a step: its numerical dissipation.

Newmark's relations (:class:`~fem2d.dynamics.schemes.NewmarkScheme`), written with the
jump :math:`[\![x]\!] = x_{n+1} - x_n` and the mean :math:`\langle x\rangle = (x_n + x_{n+1})/2`,

.. math::

    [\![u]\!] = \Delta t\,\langle v\rangle + \Delta t^2 (\beta - \tfrac\gamma2) [\![a]\!], \qquad
    [\![v]\!] = \Delta t\,\langle a\rangle + \Delta t (\gamma - \tfrac12) [\![a]\!],

give for the kinetic and strain energy :math:`E = \tfrac12 v^T M v + \tfrac12 u^T K u` of a
linear system, with :math:`R = f + f_c - (M a + C v + K u)` what the forces at a step's end
leave unbalanced there (Hughes, *The Finite Element Method*, section 9.3.4),

.. math::

    [\![E]\!] = [\![u]\!]^T \langle f + f_c \rangle - [\![u]\!]^T C \langle v\rangle
    - [\![u]\!]^T \langle R\rangle - H, \qquad
    H = \Delta t^2 (\beta - \tfrac\gamma2) [\![a]\!]^T M \langle a\rangle
    - \Delta t (\gamma - \tfrac12) \langle v\rangle^T M [\![a]\!] :

the work of the loads and contact forces by the trapezoidal rule, the damping's, and
what the scheme itself removes. Newmark's equilibrium at each step's end makes
:math:`R = 0`; the generalized-alpha method's at :math:`t_{n+1-\alpha}`
(:math:`M a_{n+1-\alpha_m} + C v_{n+1-\alpha_f} + K u_{n+1-\alpha_f} = (f + f_c)_{n+1-\alpha_f}`)
leaves the end-of-step force unbalanced by the recursion

.. math::

    (1 - \alpha_f) R_{n+1} + \alpha_f R_n = (\alpha_f - \alpha_m) M [\![a]\!], \qquad R_0 = 0 .

The numerical dissipation of the step is :math:`D_h = H + [\![u]\!]^T\langle R\rangle`, made of
the scheme's own parameters and states: zero for average acceleration (beta = 1/4,
gamma = 1/2), positive for code_aster's HHT, Hilber's and the generalized-alpha method
(their damping of the high frequencies). Whatever else changes the energy (the
contact forces' work between the two ends of a step, a body's nonlinear strain energy,
an equilibrium the step did not reach) is not in it: it stays in the energy balance's
residual (:mod:`fem2d.post.energy`), which is what a run judges.

Schemes whose energy identity is not derived here report no numerical dissipation:
the central difference of Paoli-Schatzman conserves its own energy exactly
(:meth:`~fem2d.dynamics.history.DirectHistory` records it at the half steps), the
contact-stabilised Newmark is average acceleration away from contact, and
Moreau-Jean's dissipation for theta > 1/2 remains in the residual (as a loss, which is
never judged).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from fem2d.dynamics.schemes import NewmarkScheme, TimeScheme
from fem2d.dynamics.stepper import StepState


class NumericalDissipation:
    """The numerical dissipation :math:`D_h` of each step of a run (J per unit thickness),
    for ``scheme`` integrating with ``mass`` (see the module docstring); zero for a scheme
    that is not of the Newmark family.

    Average acceleration conserves the energy of a mass on a spring; code_aster's HHT
    (alpha = -0.3: beta = 0.4225, gamma = 0.8) removes some of it:

    >>> import numpy as np, scipy.sparse as sp
    >>> def steps(scheme, n=20, dt=0.3):  # M = 1, K = 1, u0 = 1: E0 = 1/2
    ...     state, dissipated = StepState(0.0, np.ones(1), np.zeros(1), -np.ones(1)), 0.0
    ...     d = NumericalDissipation(scheme, sp.identity(1, format="csr"))
    ...     b, g = scheme.beta, scheme.gamma
    ...     for _ in range(n):
    ...         u, v, a = state.u, state.v, state.a
    ...         a_new = -(u + dt * v + dt * dt * (0.5 - b) * a) / (1 + b * dt * dt)
    ...         u_new = u + dt * v + dt * dt * ((0.5 - b) * a + b * a_new)
    ...         new = StepState(state.t + dt, u_new, v + dt * ((1 - g) * a + g * a_new), a_new)
    ...         dissipated += d.step(state, new)
    ...         state = new
    ...     return 0.5 * float(state.v @ state.v + state.u @ state.u), dissipated
    >>> energy, dissipated = steps(NewmarkScheme())
    >>> round(energy, 12), dissipated
    (0.5, 0.0)
    >>> energy, dissipated = steps(NewmarkScheme.hht(-0.3))
    >>> round(energy, 4), round(energy + dissipated, 12)  # the energy lost is the dissipation
    (0.287, 0.5)
    """

    def __init__(self, scheme: TimeScheme, mass: sp.spmatrix) -> None:
        self.newmark = scheme if isinstance(scheme, NewmarkScheme) else None
        self.mass = mass
        self._unbalanced: np.ndarray | None = None  # R_n of the generalized-alpha recursion

    def step(self, previous: StepState, new: StepState) -> float:
        """:math:`D_h` of the step ``previous`` -> ``new`` (the scheme's own states)."""
        s = self.newmark
        dt = new.t - previous.t
        if s is None or dt <= 0.0:
            return 0.0
        jump = new.a - previous.a
        m_jump = self.mass @ jump
        mean_a = 0.5 * (previous.a + new.a)
        mean_v = 0.5 * (previous.v + new.v)
        dissipated = dt * dt * (s.beta - 0.5 * s.gamma) * float(mean_a @ m_jump)
        dissipated -= dt * (s.gamma - 0.5) * float(mean_v @ m_jump)
        if s.alpha_m or s.alpha_f:
            r_old = self._unbalanced if self._unbalanced is not None else np.zeros_like(jump)
            r_new = ((s.alpha_f - s.alpha_m) * m_jump - s.alpha_f * r_old) / (1.0 - s.alpha_f)
            self._unbalanced = r_new
            dissipated += 0.5 * float((new.u - previous.u) @ (r_old + r_new))
        return dissipated
