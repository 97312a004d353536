r"""Exact models of the static built-in cases of large deflections and finite strains,
evaluated for a run's own settings.

Each reads the geometry from the body's nodes (the ``rectangle`` builder's block,
or any mesh of that shape), E, nu, the hypothesis, the thickness, the kinematics
and the law from the case, and the loads and supports from the assembled System;
it raises :class:`~fem2d.case.references.NoExactSolution` when the run leaves the
model's assumptions.

* ``cantilever_elastica``: a cantilever under a dead tip load, the elastica
  (:mod:`fem2d.exact.elastica`).
* ``plane_strain_compression`` and ``plane_stress_compression``: a block (a thin sheet)
  compressed homogeneously between smooth supports (:mod:`fem2d.exact.compression`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from fem2d.case.loading import Case
from fem2d.case.references import ExactReference, NoExactSolution
from fem2d.errors import InputError

if TYPE_CHECKING:
    from fem2d.model.system import System

#: nodes within this fraction of the body's size of a line are on it
ON_LINE = 1e-9


@dataclass(frozen=True)
class Block:
    """The one body of a static case as a rectangle: its material table, its node
    numbers and their reference coordinates, the corner (x0, y0) and the sizes."""

    material: dict
    nodes: np.ndarray
    x: np.ndarray
    y: np.ndarray
    x0: float
    y0: float
    length: float
    height: float

    def on_x(self, x: float) -> np.ndarray:
        """The body's nodes on the line X = x."""
        return self.nodes[np.abs(self.x - x) <= ON_LINE * max(self.length, self.height)]

    def on_y(self, y: float) -> np.ndarray:
        """The body's nodes on the line Y = y."""
        return self.nodes[np.abs(self.y - y) <= ON_LINE * max(self.length, self.height)]


def _block(case: Case, system: System) -> Block:
    """The static case's one body, unloaded by anything but its loads and supports, and
    filling its bounding rectangle (the nodes on its four sides and corners)."""
    if case.get("case.kind") != "static":
        raise NoExactSolution("the model is a static solution (case.kind = static)")
    materials = case.get("materials")
    if len(materials) != 1:
        raise NoExactSolution(f"one body of one material (got {len(materials)} materials)")
    if case.get("springs") or case.get("nodal") or system.zones:
        raise NoExactSolution("discrete springs, nodal masses or contact change the solution")
    material = materials[0]
    nodes = np.unique(system.mesh.group(material["group"]).nodes)
    x, y = system.mesh.points[nodes, 0], system.mesh.points[nodes, 1]
    block = Block(material, nodes, x, y, float(x.min()), float(y.min()), float(np.ptp(x)), float(np.ptp(y)))
    if len(block.on_x(block.x0)) < 2 or len(block.on_x(block.x0 + block.length)) < 2:
        raise NoExactSolution("the body is not a rectangle (no straight ends at its smallest and largest x)")
    return block


def _at_times(case: Case) -> dict[str, float]:
    """``{"1.00": 1.0, ...}``: the labels of the reported times inside the run."""
    from fem2d.post.extrema import time_label

    return {time_label(t): t for t in case.get("report.at_times") if t <= case.get("time.end")}


def _reported_node(case: Case, system: System) -> int | None:
    name = case.get("report.node")
    if name is None:
        return None
    nodes = system.mesh.group_nodes(name)
    return int(nodes[0]) if len(nodes) == 1 else None


def tip_displacement(tip, load: float, length: float, offset: float) -> tuple[float, float]:
    r"""The displacement (ux, uy) of a point of the tip section at ``offset`` e above the
    centre line, the section turning rigidly with the tip (plane sections), under a dead
    tip load ``load`` P along -y (P < 0: along +y) of a cantilever along +x:

    .. math::

        u_x = -L\,\delta_x + s\,e \sin\theta_L, \qquad
        u_y = -s\,L\,\delta_y + e\,(\cos\theta_L - 1),

    :math:`s = \mathrm{sign}(P)`, :math:`\delta_x, \delta_y, \theta_L` the
    :class:`~fem2d.exact.elastica.ElasticaTip` ``tip``.

    >>> from fem2d.exact.elastica import cantilever_tip
    >>> ux, uy = tip_displacement(cantilever_tip(1.0), 10.0, 2.0, 0.0)
    >>> round(ux, 5), round(uy, 5)
    (-0.11287, -0.60344)
    """
    s = math.copysign(1.0, load)
    return (-length * tip.shortening + s * offset * math.sin(tip.rotation),
            -s * length * tip.deflection + offset * (math.cos(tip.rotation) - 1.0))


def cantilever_elastica(case: Case, system: System) -> ExactReference:
    r"""A cantilever under a dead tip load: the elastica of :mod:`fem2d.exact.elastica`.

    The body is the rectangle :math:`L \times h` of its nodes (``rectangle`` builder),
    held in dx and dy on its end :math:`x = x_0` and nowhere else, static, loaded only
    along y on its other end :math:`x = x_0 + L`, with the resultant :math:`P(T)`
    (:math:`-\sum f_y`, N: positive down) of the System's loads at each
    ``report.at_times`` T; its bending stiffness is

    .. math::

        EI = E'\,t\,\frac{h^3}{12}, \qquad E' = \frac{E}{1 - \nu^2}
        \text{ (plane strain)}, \quad E' = E \text{ (plane stress)},

    t the thickness (``model.thickness``; the loads carry it too), so
    :math:`\lambda(T) = |P(T)| L^2 / EI`. ``"corotational"`` and ``"finite"`` bodies
    get the elastica (:func:`~fem2d.exact.elastica.cantilever_tip`); a ``"small"``
    one gets linear beam theory, :math:`u_y = -PL^3/(3EI)`, :math:`u_x = 0`, the tip
    turning by :math:`\theta_L = PL^2/(2EI)`. The reported node (``report.node``, one
    node) is on the tip section, at the offset e above the centre line
    (:math:`y_0 + h/2`); it moves with the section turned rigidly by :math:`\theta_L`
    (:func:`tip_displacement`; e = 0 for the builder's ``EAST``). Quantities:
    ``x_at_T`` of ``report.component``. The continuum differs from the beam by
    :math:`O((h/L)^2)` (it stretches along its axis, shears, and the clamp holds its
    whole end section) and, for a ``"finite"`` body, by its law's
    departure from Hooke's at the largest strain :math:`\kappa h / 2`.

    >>> from fem2d.case.build import build_system
    >>> from fem2d.case.loading import load_case
    >>> case = load_case("elastica")
    >>> reference = cantilever_elastica(case, build_system(case))
    >>> round(reference.parameters["load_parameter"], 9), round(reference.value("x_at_1.00"), 6)
    (10.0, -0.810609)
    """
    from fem2d.exact.elastica import cantilever_tip

    block = _block(case, system)
    hypothesis = case.get("model.hypothesis")
    if hypothesis == "axisymmetric":
        raise NoExactSolution("the cantilever is a plane body (plane strain or plane stress)")
    material = block.material
    E, nu = material["E"], material["nu"]
    stiffness = E / (1.0 - nu**2) if hypothesis == "plane_strain" else E
    length, h, thickness = block.length, block.height, case.get("model.thickness")
    EI = stiffness * thickness * h**3 / 12.0
    clamp, tip = block.on_x(block.x0), block.on_x(block.x0 + length)
    held = np.sort(np.concatenate([2 * clamp, 2 * clamp + 1]))
    if system.motions or np.any(system.fixed_values):
        raise NoExactSolution("a support prescribes a non-zero displacement")
    if not np.array_equal(np.sort(system.fixed), held):
        raise NoExactSolution(f"the cantilever is held in dx and dy on its end x = {block.x0:g} and nowhere else")
    node = _reported_node(case, system)
    if node is None:
        raise NoExactSolution("report.node is not one node")
    if node not in tip:
        raise NoExactSolution(f"the reported node is not on the tip section x = {block.x0 + length:g}")
    offset = float(system.mesh.points[node, 1]) - (block.y0 + 0.5 * h)
    component = "dx dy".split().index(case.get("report.component"))
    loaded = np.zeros(system.n_dofs, dtype=bool)
    for load in system.loads:
        loaded |= load.vector != 0.0
    if np.any(loaded[0::2]) or np.any(np.setdiff1d(np.flatnonzero(loaded[1::2]), tip)):
        raise NoExactSolution("the loads are not along y on the tip section only")
    kinematics = material["kinematics"]
    values, loads = {}, {}
    for label, t in _at_times(case).items():
        P = -float(system.force(t)[1::2].sum())
        lam = abs(P) * length**2 / EI
        loads[label] = lam
        if kinematics == "small":
            theta = P * length**2 / (2.0 * EI)
            u = (offset * theta, -P * length**3 / (3.0 * EI))
        else:
            u = tip_displacement(cantilever_tip(lam), P, length, offset)
        values[f"x_at_{label}"] = u[component]
    if not values:
        raise NoExactSolution("no report.at_times inside the run")
    which = "linear beam theory" if kinematics == "small" else "elastica"
    largest = max(loads.values())
    source = (f"exact: {which}, cantilever L={length:g} m h={h:g} m EI={EI:.6g} N m^2, dead tip load up to "
              f"P L^2/EI = {largest:.6g}")
    return ExactReference(source, values.get, parameters={"L": length, "h": h, "EI": EI, "offset": offset,
                                                          "load_parameter": largest, "kinematics": kinematics})


def plane_strain_compression(case: Case, system: System) -> ExactReference:
    r"""A block compressed (or stretched) homogeneously in plane strain between smooth
    supports: :func:`fem2d.exact.compression.uniaxial_plane_strain`.

    The body is the rectangle :math:`w \times H` of its nodes, static and unloaded,
    held in dx on its side :math:`x = x_0` and in dy on its base :math:`y = y_0`, its
    top :math:`y = y_0 + H` moved by the same prescribed dy :math:`d(T)` (a support's
    ``value`` times its function), nothing else held: the deformation is homogeneous,
    :math:`\lambda_y(T) = 1 + d(T)/H`, the sides free. ``"small"`` and
    ``"corotational"`` bodies follow Hooke's law (linear in the strain
    :math:`\lambda_y - 1`); ``"finite"`` ones their ``law`` (``"hooke"``: Saint
    Venant-Kirchhoff). Quantities at each ``report.at_times`` T:

    * ``G_reaction_y_at_T`` (and ``G_reaction_y`` at ``time.end``) of a
      ``report.reactions`` group G on the top, :math:`P_{yy}\,w\,t`
      (the nominal stress times the reference width and the thickness: the force the
      support exerts, negative in compression), the opposite on the base;
    * ``x_at_T`` of ``report.node``, the exact field
      :math:`u_x = (\lambda_x - 1)(X - x_0)`, :math:`u_y = (\lambda_y - 1)(Y - y_0)`.

    >>> from fem2d.case.build import build_system
    >>> from fem2d.case.loading import load_case
    >>> case = load_case("compression")
    >>> reference = plane_strain_compression(case, build_system(case))
    >>> round(reference.parameters["stretch"], 12), round(reference.value("TOP_reaction_y") / 1e6, 6)
    (0.7, -4.584239)
    """
    return _uniaxial_block(case, system, "plane_strain")


def plane_stress_compression(case: Case, system: System) -> ExactReference:
    r"""The block of :func:`plane_strain_compression` as a thin sheet (``model.hypothesis =
    "plane_stress"``, its ``model.thickness``), free across its thickness too:
    :func:`fem2d.exact.compression.uniaxial_plane_stress`. The same quantities; the force is the
    nominal stress times the reference width and thickness.

    >>> from fem2d.case.build import build_system
    >>> from fem2d.case.loading import load_case
    >>> case = load_case("compression", overrides={"model.hypothesis": "plane_stress", "model.thickness": 0.01})
    >>> reference = plane_stress_compression(case, build_system(case))
    >>> round(reference.value("TOP_reaction_y") / 1e3, 6)
    -40.523042
    """
    return _uniaxial_block(case, system, "plane_stress")


def _uniaxial_block(case: Case, system: System, hypothesis: str) -> ExactReference:
    from fem2d.exact.compression import uniaxial_plane_strain, uniaxial_plane_stress

    block = _block(case, system)
    if case.get("model.hypothesis") != hypothesis:
        raise NoExactSolution(f"the block is in {hypothesis.replace('_', ' ')} (model.hypothesis = \"{hypothesis}\")")
    uniaxial = uniaxial_plane_strain if hypothesis == "plane_strain" else uniaxial_plane_stress
    width = block.length
    law, stretch, values = compressed_block(
        case, system, block, block.on_x(block.x0), ("block", "on its side x = x0", "the side"),
        uniaxial, width * case.get("model.thickness"), block.x0)
    source = (f"exact: homogeneous {hypothesis.replace('_', '-')} compression, {law} E={block.material['E']:g} "
              f"nu={block.material['nu']:g}, w={width:g} m H={block.height:g} m, stretch {stretch:.6g} at the end")
    return ExactReference(source, values.get, parameters={"law": law, "stretch": stretch, "width": width,
                                                          "height": block.height})


def compressed_block(case: Case, system: System, block: Block, lateral: np.ndarray, names: tuple[str, str, str],
                     uniaxial: Callable, section: float, origin: float) -> tuple[str, float, dict[str, float]]:
    r"""What a homogeneous compression between smooth ends gives, for a block of ``block``
    held in dx on the nodes ``lateral`` (a side, or a cylinder's axis), in dy on its base and
    top, the top moved as one by its support: the law, the end's stretch and the exact
    values (``<G>_reaction_y[_at_T]`` of the top and base groups of ``report.reactions``: the
    nominal stress of ``uniaxial(stretch, law, E, nu)`` times ``section``; ``x_at_T`` of
    ``report.node``, :math:`u_x = (\lambda_x - 1)(X - x_0)` with ``origin`` as :math:`x_0`,
    :math:`u_y = (\lambda_y - 1)(Y - y_0)`). ``names``: the body, where ``lateral`` is held
    and what it is called, for the messages of :class:`NoExactSolution`."""
    body, where, lateral_name = names
    if any(np.any(load.vector) for load in system.loads):
        raise NoExactSolution(f"the {body} is loaded: the model has it moved by its supports only")
    base, top = block.on_y(block.y0), block.on_y(block.y0 + block.height)
    held = np.unique(np.concatenate([2 * lateral, 2 * base + 1, 2 * top + 1]))
    if not np.array_equal(np.sort(system.fixed), held):
        raise NoExactSolution(f"the {body} is held in dx {where}, held in dy on its base and top, and nowhere else")
    times = {**_at_times(case), "end": case.get("time.end")}
    moved = {label: system.prescribed_at(t) for label, t in times.items()}
    for u in moved.values():
        if np.any(u[2 * lateral]) or np.any(u[2 * base + 1]) or np.ptp(u[2 * top + 1]) > ON_LINE * block.height:
            raise NoExactSolution(f"{lateral_name} and base are not held at 0, or the top does not move as one")
    stretch = {label: 1.0 + float(u[2 * top[0] + 1]) / block.height for label, u in moved.items()}
    material = block.material
    law = "hooke" if material["kinematics"] != "finite" else (
        "saint_venant_kirchhoff" if material["law"] == "hooke" else material["law"])
    try:
        response = {label: uniaxial(b, law, material["E"], material["nu"]) for label, b in stretch.items()}
    except InputError as exc:  # a stretch the law has no answer for
        raise NoExactSolution(str(exc)) from None
    values: dict[str, float] = {}
    lines = {"top": set(top.tolist()), "base": set(base.tolist())}
    for name in case.get("report.reactions"):
        nodes = set(system.mesh.group_nodes(name).tolist())
        sign = 1.0 if nodes == lines["top"] else -1.0 if nodes == lines["base"] else 0.0
        if not sign:
            continue
        for label, r in response.items():
            key = f"{name}_reaction_y" + ("" if label == "end" else f"_at_{label}")
            values[key] = sign * float(r.nominal_stress) * section
    node = _reported_node(case, system)
    if node is not None:
        X, Y = system.mesh.points[node, :2]
        for label, r in response.items():
            if label != "end":
                u = ((r.lateral_stretch - 1.0) * (X - origin), (stretch[label] - 1.0) * (Y - block.y0))
                values[f"x_at_{label}"] = float(u["dx dy".split().index(case.get("report.component"))])
    return law, stretch["end"], values


#: the static large-deflection and finite-strain exact models, by the name ``[exact] model`` gives them
STATIC_MODELS: dict[str, Callable[[Case, System], ExactReference]] = {
    "cantilever_elastica": cantilever_elastica,
    "plane_strain_compression": plane_strain_compression,
    "plane_stress_compression": plane_stress_compression,
}
