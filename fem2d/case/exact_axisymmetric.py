r"""Exact models of the axisymmetric built-in cases (:mod:`fem2d.exact.axisymmetric`),
evaluated for a run's own settings.

Each reads the geometry from its builder's parameters (``mesh.params``, the
builder's defaults for those left out), the body's E, nu and rho, and the loads,
supports and reported quantities from the case and the assembled System; it
raises :class:`~fem2d.case.references.NoExactSolution` when the run leaves the
model's assumptions. A support is accepted where the exact displacement (or
every exact mode shape) has a zero component along the held dof: the symmetry
supports and the axis' u_r = 0 (held by the model itself).

* ``lame_sphere``: a thick-walled sphere under pressures inside and out.
* ``sphere_breathing``: the radial (breathing) modes of a free solid sphere;
  which computed mode is the breathing one is decided by its shape (MAC).
* ``cylinder_axial_modes``: the axial bar modes of a free-free cylinder, nu = 0.
* ``flat_punch``: a rigid flat-ended punch pressed into a large cylinder standing for
  a half-space (Boussinesq / Sneddon stiffness).
* ``cylinder_compression``: a solid cylinder compressed homogeneously along its axis between
  smooth ends, finite strain (:mod:`fem2d.case.exact_cylinder`).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from fem2d.case.exact_cylinder import cylinder_compression
from fem2d.case.loading import Case
from fem2d.case.references import ExactReference, NoExactSolution

if TYPE_CHECKING:
    from fem2d.model.system import System

#: a computed mode is the exact one when their modal assurance criterion (MAC) is above this
MAC_MATCH = 0.9


def _geometry(case: Case, builder: str) -> dict:
    """``mesh.params`` of a case on the named builder, with the builder's defaults filled in."""
    from fem2d.mesh.builders import BUILDERS

    if case.get("mesh.geometry") != builder or case.get("mesh.file") is not None:
        raise NoExactSolution(f"the model needs the {builder} builder's mesh (mesh.geometry = \"{builder}\")")
    defaults = {name: p.default for name, p in inspect.signature(BUILDERS[builder]).parameters.items()
                if p.default is not inspect.Parameter.empty}
    return {**defaults, **(case.get("mesh.params") or {})}


def _material(case: Case) -> dict:
    materials = case.get("materials")
    if len(materials) != 1:
        raise NoExactSolution(f"one body of one material (got {len(materials)} materials)")
    if any(materials[0]["rayleigh"]):
        raise NoExactSolution("the body is damped (materials.rayleigh)")
    return materials[0]


def _no_discrete_parts(case: Case, system: System) -> None:
    if case.get("springs") or case.get("nodal") or system.zones:
        raise NoExactSolution("discrete springs, nodal masses or contact change the solution")


def _check_supports(system: System, shapes: list[np.ndarray]) -> None:
    """Every held dof is held at 0 where each exact field ``shapes`` (all dofs) is 0."""
    if system.motions or np.any(system.fixed_values):
        raise NoExactSolution("a support prescribes a non-zero displacement")
    for shape in shapes:
        held = np.abs(shape[system.fixed])
        if held.size and held.max() > 1e-9 * np.abs(shape).max():
            node, direction = divmod(int(system.fixed[np.argmax(held)]), 2)
            raise NoExactSolution(f"a support holds {'dx dy'.split()[direction]} of node {node}, "
                                  "where the exact solution moves")


def _radial(points: np.ndarray, u_of_radius: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The field ``u(R) e_R`` at the nodes, interleaved (ux, uy); 0 at the centre."""
    R = np.hypot(points[:, 0], points[:, 1])
    out = np.zeros_like(points)
    inside = R > 0.0
    out[inside] = (u_of_radius(R[inside]) / R[inside])[:, None] * points[inside]
    return out.ravel()


def lame_sphere(case: Case, system: System) -> ExactReference:
    r"""The Lamé thick-walled sphere (:func:`fem2d.exact.axisymmetric.lame_sphere`):
    the meridian section of the ``annulus_sector`` builder at ``angle = 90``
    (``inner_radius`` a, ``outer_radius`` b), static, loaded only by pressures on
    ``INNER`` and ``OUTER`` (each scaled by its function at the reported time;
    linear, so superposed). Quantities at each ``report.at_times`` T: ``x_at_T``
    of ``report.node`` and ``G_dx_at_T``, ``G_dy_at_T`` of each ``report.groups``
    group (the mean over its nodes of the exact :math:`u_R(R)\,e_R`; at a node
    on y = 0 dx is :math:`u_R`)."""
    from fem2d.case.build import time_function
    from fem2d.exact.axisymmetric import lame_sphere as lame
    from fem2d.post.extrema import time_label

    if case.get("case.kind") != "static":
        raise NoExactSolution("Lamé's sphere is a static solution (case.kind = static)")
    params = _geometry(case, "annulus_sector")
    if float(params["angle"]) != 90.0:
        raise NoExactSolution("the meridian section of a sphere spans 90 degrees (mesh.params.angle = 90)")
    a, b = float(params["inner_radius"]), float(params["outer_radius"])
    material = _material(case)
    _no_discrete_parts(case, system)
    parts = []
    for i, load in enumerate(case.get("loads")):
        if load["type"] != "pressure" or load["group"] not in ("INNER", "OUTER"):
            raise NoExactSolution("the loads are pressures on INNER and OUTER only")
        p = float(load["value"])
        sphere = lame(a, b, p if load["group"] == "INNER" else 0.0, p if load["group"] == "OUTER" else 0.0,
                      material["E"], material["nu"])
        parts.append((sphere, time_function(case, load["function"], f"loads[{i}].function")))
    if not parts:
        raise NoExactSolution("no pressure loads the sphere")
    points = system.mesh.points

    def field(t: float) -> np.ndarray:
        return sum(f(t) * _radial(points, sphere.u_r) for sphere, f in parts)

    _check_supports(system, [_radial(points, sphere.u_r) for sphere, _ in parts])
    values: dict[str, float] = {}
    node = case.get("report.node")
    groups = {name: system.mesh.group_nodes(name) for name in case.get("report.groups")}
    for t in case.get("report.at_times"):
        if t > case.get("time.end"):
            continue
        u = field(t).reshape(-1, 2)
        label = time_label(t)
        if node is not None and len(system.mesh.group_nodes(node)) == 1:
            values[f"x_at_{label}"] = float(u[system.mesh.group_nodes(node)[0], "dx dy".split().index(
                case.get("report.component"))])
        for name, nodes in groups.items():
            values[f"{name}_dx_at_{label}"] = float(u[nodes, 0].mean())
            values[f"{name}_dy_at_{label}"] = float(u[nodes, 1].mean())
    pressures = ", ".join(f"{load['group']} {load['value']:g} Pa" for load in case.get("loads"))
    source = f"exact: Lamé sphere, a={a:g} m b={b:g} m E={material['E']:g} nu={material['nu']:g}, {pressures}"
    return ExactReference(source, values.get, parameters={"a": a, "b": b, "E": material["E"], "nu": material["nu"]})


def _modes(case: Case, system: System):
    """The run's first ``report.modes`` computed modes, as the run reports them (f_1...)."""
    from fem2d.modal.basis import modal_basis

    n = case.get("report.modes")
    if not n:
        raise NoExactSolution("no frequencies reported (report.modes = 0)")
    return modal_basis(system.K_free, system.M_free, n)


def _mac(basis, M_free, shape: np.ndarray) -> np.ndarray:
    """The modal assurance criterion of each computed mode with ``shape`` (free dofs), mass-weighted."""
    Mpsi = M_free @ shape
    phi = basis.modes
    return (phi.T @ Mpsi) ** 2 / (basis.masses * float(shape @ Mpsi))


def sphere_breathing(case: Case, system: System) -> ExactReference:
    r"""The breathing (purely radial) modes of a free solid sphere
    (:func:`fem2d.exact.axisymmetric.sphere_breathing_frequencies`, Lamb 1882):
    the meridian section of the ``quarter_disc`` builder (``radius``), its E,
    nu and rho, held at most by the symmetry support ``dy`` on the equator
    ``BOTTOM``. The computed modes are the run's ``f_1 .. f_N``
    (``report.modes``); the one whose shape matches Lamb's k-th breathing mode
    :math:`u_R \propto j_1(\xi_k R / a)` by a mass-weighted MAC above 0.9 gets
    Lamb's k-th frequency as its reference (the other ``f_i``, modes with an
    angular shape, have none). Quantities: those ``f_i`` (Hz)."""
    from fem2d.exact.axisymmetric import sphere_breathing_frequencies, sphere_breathing_roots

    radius = float(_geometry(case, "quarter_disc")["radius"])
    material = _material(case)
    _no_discrete_parts(case, system)
    E, nu, rho = material["E"], material["nu"], material["rho"]
    basis = _modes(case, system)
    roots = sphere_breathing_roots(nu, 3)
    frequencies = sphere_breathing_frequencies(radius, E, nu, rho, 3)
    shapes = [_radial(system.mesh.points, lambda R, x=x: _j1(x * R / radius)) for x in roots]
    _check_supports(system, shapes)
    M_free = system.M_free
    values, matched = {}, []
    for k, (shape, f) in enumerate(zip(shapes, frequencies), start=1):
        mac = _mac(basis, M_free, shape[system.free])
        best = int(np.argmax(mac))
        if mac[best] > MAC_MATCH and f"f_{best + 1}" not in values:
            values[f"f_{best + 1}"] = float(f)
            matched.append(f"breathing mode {k} = f_{best + 1} (MAC {mac[best]:.3f})")
    if not matched:
        raise NoExactSolution(f"none of the first {basis.n_modes} computed modes has the breathing shape "
                              "(raise report.modes)")
    source = (f"exact: Lamb, breathing modes of a free sphere R={radius:g} m E={E:g} nu={nu:g} rho={rho:g}: "
              + ", ".join(matched))
    return ExactReference(source, values.get, parameters={"frequencies": [float(f) for f in frequencies]})


def _j1(x: np.ndarray) -> np.ndarray:
    """The spherical Bessel function :math:`j_1(x) = \\sin x / x^2 - \\cos x / x` (x > 0)."""
    return np.sin(x) / x**2 - np.cos(x) / x


def cylinder_axial_modes(case: Case, system: System) -> ExactReference:
    r"""The axial modes of a free-free cylinder, :math:`f_k = k c / (2L)`,
    :math:`c = \sqrt{E/\rho}` (:func:`fem2d.exact.axisymmetric.cylinder_axial_frequencies`):
    a ``rectangle`` builder's section (x the radius from the origin's x, y the
    axis over ``height`` = L), nu = 0 (the bar modes are then exact), nothing
    holding it along the axis. The computed modes are the run's ``f_1 .. f_N``
    (``report.modes``); the one whose shape matches the k-th bar mode
    :math:`u_z \propto \cos(k \pi (z - z_0) / L)`, :math:`u_r = 0` (k = 0: the rigid
    translation along the axis, 0 Hz) by a mass-weighted MAC above 0.9 gets its
    frequency as its reference: on a short, thick cylinder other axisymmetric modes
    fall between the axial ones, and an ``f_i`` is never compared with a mode of
    another shape. Quantities: those ``f_i`` (Hz)."""
    from fem2d.exact.axisymmetric import cylinder_axial_frequencies

    params = _geometry(case, "rectangle")
    material = _material(case)
    _no_discrete_parts(case, system)
    if material["nu"] != 0.0:
        raise NoExactSolution("nu != 0: the axial modes are bar modes for nu = 0 only")
    basis = _modes(case, system)
    n = basis.n_modes
    length, E, rho = float(params["height"]), material["E"], material["rho"]
    y0 = float(params["origin"][1])
    y = system.mesh.points[:, 1]
    shapes = []
    for k in range(n):  # u_z = cos(k pi (z - z0) / L), u_r = 0; k = 0: the rigid translation
        shape = np.zeros(system.n_dofs)
        shape[1::2] = np.cos(k * math.pi * (y - y0) / length)
        shapes.append(shape)
    _check_supports(system, shapes)
    frequencies = [0.0, *cylinder_axial_frequencies(length, E, rho, n - 1)] if n > 1 else [0.0]
    M_free = system.M_free
    values, matched = {}, []
    for k, (shape, f) in enumerate(zip(shapes, frequencies)):
        mac = _mac(basis, M_free, shape[system.free])
        best = int(np.argmax(mac))
        if mac[best] > MAC_MATCH and f"f_{best + 1}" not in values:
            values[f"f_{best + 1}"] = float(f)
            matched.append(f"{'rigid translation' if k == 0 else f'axial mode {k}'} = f_{best + 1}")
    if not matched:
        raise NoExactSolution(f"none of the first {n} computed modes has an axial bar shape (raise report.modes)")
    source = (f"exact: free-free bar modes k c / 2L, L={length:g} m E={E:g} rho={rho:g}: " + ", ".join(matched))
    return ExactReference(source, values.get, parameters={"length": length, "c": math.sqrt(E / rho)})


#: the smallest cylinder, in punch radii (radius and height), that stands for a half-space:
#: its stiffness is then within about 1 % of the half-space's (the error falls as 1 / size)
PUNCH_HALF_SPACE = 100.0


def flat_punch(case: Case, system: System) -> ExactReference:
    r"""A rigid flat-ended punch pressed into an elastic half-space
    (:func:`fem2d.exact.axisymmetric.flat_punch`, Boussinesq / Sneddon):
    :math:`F = 2 a E \delta / (1 - \nu^2)`. The half-space is the cylinder of the
    ``graded_cylinder`` builder (``punch_radius`` a; ``radius`` and ``height`` at
    least 100 a), static, unloaded, its base ``BOTTOM`` held along the axis and
    nothing else held; the punch is the one frictionless contact zone: the rigid
    plane through y = 0 facing down (``normal = [0, -1]``) on the slave ``PUNCH``,
    moved by ``displacement = [0, -delta]`` x its function (the indentation
    :math:`\delta(t)`, largest at ``time.end``). Quantities: ``f_n_max``
    (:math:`F` at the largest indentation), ``BOTTOM_reaction_y_at_T`` at each
    ``report.at_times`` T (:math:`F(\delta(T))`, when ``BOTTOM`` is in
    ``report.reactions``) and ``contact_extent`` (a: the whole face pressed)."""
    from fem2d.case.build import time_function
    from fem2d.case.fields import tables_of
    from fem2d.exact.axisymmetric import flat_punch as sneddon
    from fem2d.post.extrema import time_label

    if case.get("case.kind") != "static":
        raise NoExactSolution("the punch's stiffness is a static solution (case.kind = static)")
    params = _geometry(case, "graded_cylinder")
    a = float(params["punch_radius"])
    if min(float(params["radius"]), float(params["height"])) < PUNCH_HALF_SPACE * a:
        raise NoExactSolution(f"the cylinder stands for a half-space when its radius and height are at least "
                              f"{PUNCH_HALF_SPACE:g} punch radii (mesh.params)")
    material = _material(case)
    if case.get("springs") or case.get("nodal") or case.get("loads"):
        raise NoExactSolution("loads, discrete springs or nodal masses change the solution")
    zones = tables_of(case.settings["contact"]) if case.settings.get("contact") else []
    if len(zones) != 1 or len(system.zones) != 1 or zones[0].get("plane") is None or zones[0]["slave"] != "PUNCH":
        raise NoExactSolution("the punch is one contact zone: a rigid plane on the slave PUNCH")
    zone = zones[0]
    plane = zone["plane"]
    normal = np.asarray(plane["normal"], dtype=float)
    if zone["mu"] != 0.0:
        raise NoExactSolution("the punch is frictionless (contact.mu = 0)")
    if normal[0] != 0.0 or normal[1] >= 0.0 or float(plane["point"][1]) != 0.0 or plane["displacement"][0] != 0.0:
        raise NoExactSolution("the punch is the plane through y = 0 facing down (normal [0, -1]), moving along y")
    supports = case.get("supports")
    if (not supports or any(h["group"] != "BOTTOM" or h["value"] != 0.0 for h in supports)
            or not any("dy" in h["dofs"] for h in supports)):
        raise NoExactSolution("the cylinder is held along the axis (dy) on its base BOTTOM, and nowhere else")
    f = time_function(case, zone["plane"]["function"], "contact.plane.function")
    end = case.get("time.end")
    d = -float(plane["displacement"][1])

    def indentation(t: float) -> float:
        return max(d * f(t), 0.0)

    samples = [indentation(t) for t in np.linspace(0.0, end, 1001)]
    if max(samples) > indentation(end) * (1.0 + 1e-12):
        raise NoExactSolution("the indentation is largest before time.end (f_n_max is the run's largest force)")
    punch = sneddon(a, material["E"], material["nu"])
    values = {"f_n_max": punch.stiffness * indentation(end), "contact_extent": a}
    if "BOTTOM" in case.get("report.reactions"):
        for t in case.get("report.at_times"):
            if t <= end:
                values[f"BOTTOM_reaction_y_at_{time_label(t)}"] = punch.stiffness * indentation(t)
    source = (f"exact: Sneddon flat punch F = 2 a E delta / (1 - nu^2), a={a:g} m E={material['E']:g} "
              f"nu={material['nu']:g} delta={indentation(end):g} m: stiffness {punch.stiffness:.6g} N/m")
    return ExactReference(source, values.get, parameters={"a": a, "E": material["E"], "nu": material["nu"],
                                                          "stiffness": punch.stiffness, "delta": indentation(end)})


#: the axisymmetric exact models, by the name ``[exact] model`` gives them
AXISYMMETRIC_MODELS: dict[str, Callable[[Case, System], ExactReference]] = {
    "lame_sphere": lame_sphere,
    "sphere_breathing": sphere_breathing,
    "cylinder_axial_modes": cylinder_axial_modes,
    "flat_punch": flat_punch,
    "cylinder_compression": cylinder_compression,
}
