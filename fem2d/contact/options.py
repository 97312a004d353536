"""The contact formulations' option choices, by method, in a module that imports nothing.

A case checks every contact option it gives, whatever its method
(:func:`fem2d.contact.check_options`); reading the choices here keeps that check
from importing the formulations (and scipy) on the modal path. Each formulation's
``choices`` class attribute is its entry of :data:`CHOICES`.

>>> CHOICES["continuous"]["integration"]
('nodal', 'gauss')
"""

from __future__ import annotations

#: method -> option -> allowed values (options not listed are numbers, checked by range)
CHOICES: dict[str, dict[str, tuple[str, ...]]] = {
    "lagrange": {"strategy": ("block", "single"), "orientation": ("auto", "left", "right")},
    "penalty": {"orientation": ("auto", "left", "right")},
    "continuous": {"integration": ("nodal", "gauss"), "orientation": ("auto", "left", "right")},
}

#: How the contact is discretised, whatever the method enforces it: slave nodes projected
#: on master segments, or the mortar integrals over the slave edges cut by the master's nodes.
DISCRETIZATIONS = ("node_to_segment", "mortar")
for _choices in CHOICES.values():
    _choices["discretization"] = DISCRETIZATIONS
