"""What a warning tells the user to change, for the scheme the run integrated with.

Every piece of advice here is followed in ``tests/test_energy_advice.py`` on the
run that printed it, and that run then closes its energy balance; none sends the
user back to the setting they came from. A scheme and contact for which no
setting is known to remove created energy get the diagnosis alone.
"""

from __future__ import annotations

from fem2d.dynamics.schemes import NewmarkScheme, TimeScheme

#: The advice for a scheme chosen by hand that created energy at a contact.
TO_AUTO = ('leave time.scheme at its default, "auto" (on the modified mass of the contact nodes, '
           'dissipative where the contact has friction)')

#: The advice for the modified mass with average acceleration when a contact has friction.
FRICTION_TO_AUTO = ('with friction, leave time.scheme at its default, "auto" (generalized-alpha at rho_inf = 0 '
                    'on the modified mass): average acceleration lets a sliding body\'s contact modes flutter')

#: The advice for the frictionless modified mass whose impacts fall inside steps.
LOCATE_IMPACTS = ("locate the impacts at step ends (time.events = true): average acceleration on the modified "
                  "mass then keeps the energy through each impact")


#: The advice for a contact that chatters under a scheme that does not annihilate the frequencies its
#: step does not resolve (a body that turns or stretches keeps rho_inf = 0.9 on auto: its rolling).
DAMP_CHATTER = ('time.scheme = "generalized_alpha" with time.rho_inf = 0 annihilates the contact modes the step '
                'does not resolve')


def chatter_remedy(scheme: TimeScheme, turning: bool = False) -> str | None:
    """What to change when a contact chatters, for the scheme the run integrated with: None when the
    scheme already annihilates the unresolved frequencies (generalized-alpha at rho_inf = 0, where
    alpha_m - alpha_f = (rho_inf - 1)/(rho_inf + 1) = -1) or is no Newmark scheme; else the
    automatic scheme, or rho_inf = 0 for bodies that turn or stretch (``turning``), for which auto
    keeps 0.9.

    >>> chatter_remedy(NewmarkScheme.generalized_alpha(0.9), turning=True) == DAMP_CHATTER
    True
    >>> chatter_remedy(NewmarkScheme()) == TO_AUTO
    True
    >>> chatter_remedy(NewmarkScheme.generalized_alpha(0.0)) is None
    True
    """
    if not isinstance(scheme, NewmarkScheme) or scheme.alpha_m - scheme.alpha_f <= -1.0 + 1e-9:
        return None
    return DAMP_CHATTER if turning else TO_AUTO


def energy_remedy(scheme: TimeScheme, events: bool, friction: bool, turning: bool = False) -> str:
    """What to change when a run with contact created energy, for the scheme it ran
    (``events``: impacts located at step ends; ``friction``: a contact zone has mu > 0;
    ``turning``: a body turns or stretches, for which auto keeps generalized-alpha at 0.9).

    >>> energy_remedy(NewmarkScheme(), events=False, friction=True) == TO_AUTO
    True
    >>> energy_remedy(NewmarkScheme.generalized_alpha(0.9), False, True, turning=True) == DAMP_CHATTER
    True
    """
    if not isinstance(scheme, NewmarkScheme):  # the impact schemes never create energy at e = 0
        return "the scheme's restitution creates energy above 0 (time.restitution = 0)"
    if turning and friction and chatter_remedy(scheme) is not None:
        return DAMP_CHATTER
    if scheme.mass_matrix is None:
        return TO_AUTO
    conserving = not (scheme.alpha_m or scheme.alpha_f) and scheme.gamma == 0.5
    if conserving and friction:
        return FRICTION_TO_AUTO
    if conserving and not events:
        return LOCATE_IMPACTS
    return "no setting of this scheme is known to remove it"
