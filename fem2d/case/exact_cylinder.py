r"""Exact model of the axial compression of a solid of revolution, evaluated for a run's own
settings: ``cylinder_compression`` (:mod:`fem2d.exact.cylinder_compression`).

It reads the cylinder from the body's nodes (the ``rectangle`` builder's block, x the
radius and y the axis, or any mesh of that shape), E, nu, the kinematics and the law from
the case, and the supports from the assembled System; it raises
:class:`~fem2d.case.references.NoExactSolution` when the run leaves the model's
assumptions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fem2d.case.exact_static import ON_LINE, _block, compressed_block
from fem2d.case.loading import Case
from fem2d.case.references import ExactReference, NoExactSolution

if TYPE_CHECKING:
    from fem2d.model.system import System


def cylinder_compression(case: Case, system: System) -> ExactReference:
    r"""A solid cylinder (or a tube) of revolution compressed (or stretched) homogeneously along
    its axis between smooth ends, its lateral surfaces free:
    :func:`fem2d.exact.cylinder_compression.uniaxial_cylinder`.

    The body is the meridian rectangle :math:`R_0 \le R \le R_1`, :math:`y_0 \le Z \le y_0 + H`
    of its nodes (axisymmetric, static, unloaded), held in dy on its base :math:`Z = y_0`, its
    top :math:`Z = y_0 + H` moved by the same prescribed dy :math:`d(T)`, and in dx only on the
    axis (:math:`R_0 = 0`): the deformation is homogeneous, :math:`\lambda_z(T) = 1 + d(T)/H`.
    ``"small"`` bodies follow Hooke's law; ``"finite"`` ones their ``law`` (``"hooke"``: Saint
    Venant-Kirchhoff). Quantities at each ``report.at_times`` T:

    * ``G_reaction_y_at_T`` (and ``G_reaction_y`` at ``time.end``) of a ``report.reactions``
      group G on the top, the nominal stress times the reference area of the whole ring,
      :math:`P_{zz}\,\pi (R_1^2 - R_0^2)` (the force the support exerts, negative in
      compression; fem2d's axisymmetric forces are totals over the circumference), the
      opposite on the base;
    * ``x_at_T`` of ``report.node``, the exact field :math:`u_r = (\lambda_r - 1) R`,
      :math:`u_z = (\lambda_z - 1)(Z - y_0)`.

    >>> from fem2d.case.build import build_system
    >>> from fem2d.case.loading import load_case
    >>> case = load_case("cylinder_compression")
    >>> reference = cylinder_compression(case, build_system(case))
    >>> round(reference.parameters["stretch"], 12), round(reference.value("TOP_reaction_y") / 1e6, 6)
    (0.7, -3.182672)
    """
    from fem2d.exact.cylinder_compression import uniaxial_cylinder

    block = _block(case, system)
    if case.get("model.hypothesis") != "axisymmetric":
        raise NoExactSolution("the cylinder is a solid of revolution (model.hypothesis = \"axisymmetric\")")
    size = max(block.length, block.height)
    axis = block.on_x(0.0) if abs(block.x0) <= ON_LINE * size else block.nodes[:0]
    area = np.pi * ((block.x0 + block.length) ** 2 - block.x0**2)
    law, stretch, values = compressed_block(case, system, block, axis, ("cylinder", "on the axis", "the axis"),
                                            uniaxial_cylinder, area, 0.0)
    material = block.material
    source = (f"exact: homogeneous axial compression of a cylinder, {law} E={material['E']:g} nu={material['nu']:g}, "
              f"R={block.x0:g}..{block.x0 + block.length:g} m H={block.height:g} m, stretch {stretch:.6g} "
              "at the end")
    return ExactReference(source, values.get, parameters={"law": law, "stretch": stretch, "area": area,
                                                          "height": block.height})

