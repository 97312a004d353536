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


def energy_remedy(scheme: TimeScheme, events: bool, friction: bool) -> str:
    """What to change when a run with contact created energy, for the scheme it ran
    (``events``: impacts located at step ends; ``friction``: a contact zone has mu > 0).

    >>> energy_remedy(NewmarkScheme(), events=False, friction=True) == TO_AUTO
    True
    >>> energy_remedy(NewmarkScheme(), events=False, friction=False) == TO_AUTO
    True
    """
    if not isinstance(scheme, NewmarkScheme):  # the impact schemes never create energy at e = 0
        return "the scheme's restitution creates energy above 0 (time.restitution = 0)"
    if scheme.mass_matrix is None:
        return TO_AUTO
    conserving = not (scheme.alpha_m or scheme.alpha_f) and scheme.gamma == 0.5
    if conserving and friction:
        return FRICTION_TO_AUTO
    if conserving and not events:
        return LOCATE_IMPACTS
    return "no setting of this scheme is known to remove it"
