"""Which keys each choice of a case uses: a key the chosen path ignores is an error.

The schema fills every default, so "the user wrote it" is read from the raw
case data (after ``extends`` and the overrides), never from the settings.
The tables below are what the builders consume: :func:`fem2d.case.build.scheme_of`
hands a scheme exactly the keys of :data:`SCHEME_KEYS`, and
:func:`fem2d.case.build.contact_method` a formulation exactly the keys of
:data:`CONTACT_METHOD_KEYS`, so a table cannot drift from the code that reads it.
This module imports nothing heavy (the modal path loads cases too).

>>> SCHEME_KEYS["generalized_alpha"]
('rho_inf',)
>>> unused_keys({"time": {"scheme": "generalized_alpha", "gamma": 0.6}}, "direct", "generalized_alpha", ["lagrange"])
[('time.gamma', 'time.gamma', 'time.scheme = "generalized_alpha" does not use it (it uses time.rho_inf)')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: time.scheme -> the ``[time]`` keys its scheme object is made from.
SCHEME_KEYS: dict[str, tuple[str, ...]] = {
    "auto": ("beta", "gamma"),
    "newmark": ("beta", "gamma"),
    "modified_mass": ("beta", "gamma"),
    "hht": ("alpha",),
    "hht_full": ("alpha",),
    "generalized_alpha": ("rho_inf",),
    "paoli_schatzman": ("theta", "restitution"),
    "stabilised_newmark": (),
    "moreau_jean": ("theta", "restitution"),
}

#: contact.method -> the method's own ``[contact]`` options given to its formulation
#: (every method takes max_iter and tolerance).
CONTACT_METHOD_KEYS: dict[str, tuple[str, ...]] = {
    "lagrange": (),
    "penalty": ("e_n", "e_t"),
    "continuous": ("integration", "rho_n", "rho_t"),
}

#: The ``[time]`` keys that belong to one scheme or another.
SCHEME_PARAMETERS = tuple(sorted({key for keys in SCHEME_KEYS.values() for key in keys}))
#: The ``[contact]`` keys that belong to one method or another.
METHOD_OPTIONS = tuple(sorted({key for keys in CONTACT_METHOD_KEYS.values() for key in keys}))

#: Tables each kind of run does not read (a static run's pseudo-time has no impacts,
#: energy balance or wear: every key of ``[post]`` is about those).
UNUSED_TABLES: dict[str, tuple[str, ...]] = {
    "direct": ("obstacle", "excitation", "modal"),
    "static": ("obstacle", "excitation", "modal", "preload", "post"),
    "modal": ("contact", "preload"),
}

#: kind -> table -> (keys of the table its run does not read, why). The modal run reads
#: its quantities from the obstacles (motion, impacts, wear), not from ``[report]``
#: (:func:`fem2d.case.build.build_analysis` hands it none of those keys).
UNUSED_KEYS: dict[str, dict[str, tuple[tuple[str, ...], str]]] = {
    "direct": {
        "post": (("blocks",), "wear-power blocks are a modal case's"),
    },
    "static": {
        "time": (("events", "stick_slip", "extrapolate"), "a static case has no motion in time: no impact, "
                 "release or slip to locate, no time-discretisation error to extrapolate"),
        "report": (("bodies",), "momentum and kinetic energy: a static case has no motion"),
    },
    "modal": {
        "time": (("events", "stick_slip", "extrapolate"), "contact events and Richardson extrapolation of the "
                 "direct path; the modal integrator is modal.integrator"),
        "report": (("node", "component", "at_times", "extrema", "modes", "snapshots", "bodies", "reactions",
                    "groups", "pressure_at"),
                   "a modal case reports its obstacles' impacts and wear (of [report] it reads report.curve only)"),
        "post": (("quiet", "energy_tolerance"), "a modal case reads post.window, post.threshold and post.blocks"),
    },
}

#: loads[].type -> the one of value / vector it reads (:func:`fem2d.case.build.build_model`).
LOAD_AMOUNT = {"pressure": "value", "traction": "vector", "force": "vector", "body": "vector"}

#: functions.NAME.type -> the keys of its table it reads (:func:`fem2d.case.build.time_function`).
FUNCTION_KEYS: dict[str, tuple[str, ...]] = {
    "constant": ("amplitude",),
    "sine": ("amplitude", "omega", "phase"),
    "piecewise_linear": ("t", "values"),
}

#: modal.integrator -> the ``[obstacle]`` keys it does not read, and why.
INTEGRATOR_IGNORES: dict[str, tuple[tuple[str, ...], str]] = {
    "exact": (("kt", "ct"), "the exact integrator's stick is rigid (ideal Coulomb, no tangential spring)"),
}


#: Kinds of run without a time scheme: what steps them instead.
NO_SCHEME: dict[str, str] = {
    "modal": "its integrator is modal.integrator",
    "static": "load levels at every time.dt, no inertia",
}


def _unused_by_the_physics(
    data: Mapping[str, Any], kind: str, integrator: str, friction: bool
) -> list[tuple[str, str, str]]:
    """Keys a direct run reads only with contact or friction, an obstacle's keys the
    modal integrator ignores, and an ``[obstacle]`` without the node it acts on."""
    found: list[tuple[str, str, str]] = []
    time = data.get("time", {})
    if kind == "direct" and isinstance(time, Mapping):
        if "events" in time and not data.get("contact"):
            found.append(("time.events", "time.events", "the case has no [contact] zone: no impact or release to "
                          "locate"))
        if "stick_slip" in time and not friction:
            found.append(("time.stick_slip", "time.stick_slip",
                          "no contact zone has friction (contact.mu > 0): no slip to stop or reverse"))
    loads = data.get("loads")
    for i, load in enumerate(loads if isinstance(loads, list) else []):
        amount = LOAD_AMOUNT.get(load.get("type")) if isinstance(load, Mapping) else None
        other = {"value": "vector", "vector": "value"}.get(amount or "")
        if other is not None and other in load:
            found.append((f"loads.{i}.{other}", f"loads[{i}].{other}",
                          f'a {load["type"]} load does not use it (it uses loads[{i}].{amount})'))
    functions = data.get("functions")
    for name, spec in (functions.items() if isinstance(functions, Mapping) else ()):
        used = FUNCTION_KEYS.get(spec.get("type")) if isinstance(spec, Mapping) else None
        for key in () if used is None else sorted({k for keys in FUNCTION_KEYS.values() for k in keys} - set(used)):
            if key in spec:
                found.append((f"functions.{name}.{key}", f"functions.{name}.{key}",
                              f'a {spec["type"]} function does not use it ({_uses(used, f"functions.{name}")})'))
    obstacle = data.get("obstacle")
    if kind == "modal" and isinstance(obstacle, Mapping):
        keys, why = INTEGRATOR_IGNORES.get(integrator, ((), ""))
        found.extend((f"obstacle.{key}", f"obstacle.{key}", f'modal.integrator = "{integrator}" does not use it '
                      f"({why})") for key in keys if key in obstacle)
        mu = obstacle.get("mu", 0.0)
        mu_static = obstacle.get("mu_static", mu)
        if mu == 0 and mu_static == 0:  # the shock law computes no tangential force (fem2d/modal/shocks.py)
            found.extend((f"obstacle.{key}", f"obstacle.{key}", "the obstacle has no friction (obstacle.mu = 0): "
                          "no tangential force, no stick spring or damper") for key in ("kt", "ct") if key in obstacle)
        if "node" not in obstacle:
            found.append(("obstacle", "obstacle.node", "missing: without it the [obstacle] acts on no node and "
                          "the run has no obstacle"))
    return found


def _uses(keys: Sequence[str], prefix: str) -> str:
    return f"it uses {', '.join(f'{prefix}.{k}' for k in keys)}" if keys else "it uses none of them"


def unused_keys(
    data: Mapping[str, Any],
    kind: str,
    scheme: str,
    methods: Sequence[str],
    integrator: str = "euler",
    friction: bool = False,
) -> list[tuple[str, str, str]]:
    """(dotted key, key as errors name it, why) of every key written in ``data`` that the
    chosen path ignores (``contact.1.e_n`` is named ``contact[1].e_n``).

    ``data`` is the raw case (what the user wrote, overrides applied), ``kind``
    ``scheme`` and ``methods`` (one per contact zone, in order) the resolved choices,
    ``integrator`` the modal one and ``friction`` whether some contact zone has mu > 0.
    A table the kind does not read (``[obstacle]`` in a direct case) comes first.

    >>> unused_keys({"time": {"stick_slip": True}, "contact": {"mu": 0.0}}, "direct", "auto", ["lagrange"])[0][2]
    'no contact zone has friction (contact.mu > 0): no slip to stop or reverse'
    """
    found: list[tuple[str, str, str]] = []
    for name in UNUSED_TABLES.get(kind, ()):
        if name in data:
            found.append((name, name, f"a {kind} case does not use [{name}]"))
    for table, (keys, why) in UNUSED_KEYS.get(kind, {}).items():
        written = data.get(table, {})
        if isinstance(written, Mapping) and table not in UNUSED_TABLES.get(kind, ()):
            found.extend((f"{table}.{key}", f"{table}.{key}", f"a {kind} case does not use it ({why})")
                         for key in keys if key in written)
    found.extend(_unused_by_the_physics(data, kind, integrator, friction))
    mesh = data.get("mesh", {})
    if isinstance(mesh, Mapping) and "file" in mesh and "params" in mesh:
        found.append(("mesh.params", "mesh.params",
                      "builder parameters, but the mesh comes from mesh.file (give mesh.geometry or drop mesh.params)"))
    time = data.get("time", {})
    if kind in NO_SCHEME and isinstance(time, Mapping):
        for key in ("scheme", *SCHEME_PARAMETERS):
            if key in time:
                found.append((f"time.{key}", f"time.{key}", f"a {kind} case does not use it ({NO_SCHEME[kind]})"))
    solver = data.get("solver", {})
    if kind != "static" and isinstance(solver, Mapping) and "regularization" in solver:
        found.append(("solver.regularization", "solver.regularization", f"a {kind} case does not use it (static only)"))
    if kind == "direct" and isinstance(time, Mapping):
        used = SCHEME_KEYS.get(scheme, ())
        for key in SCHEME_PARAMETERS:
            if key in time and key not in used:
                why = f'time.scheme = "{scheme}" does not use it ({_uses(used, "time")})'
                found.append((f"time.{key}", f"time.{key}", why))
    contact = data.get("contact")
    if kind in ("direct", "static") and contact is not None:
        zones = [contact] if isinstance(contact, Mapping) else list(contact)
        for i, (zone, method) in enumerate(zip(zones, methods, strict=False)):
            if not isinstance(zone, Mapping):
                continue
            dotted = "contact" if isinstance(contact, Mapping) else f"contact.{i}"
            head = "contact" if isinstance(contact, Mapping) else f"contact[{i}]"
            used = CONTACT_METHOD_KEYS.get(method, ())
            for key in METHOD_OPTIONS:
                if key in zone and key not in used:
                    found.append((f"{dotted}.{key}", f"{head}.{key}",
                                  f'{head}.method = "{method}" does not use it ({_uses(used, head)})'))
            if zone.get("discretization") == "mortar" and "integration" in zone and "integration" in used:
                found.append((f"{dotted}.integration", f"{head}.integration",
                              f'{head}.discretization = "mortar" does not use it (the mortar integrals are taken '
                              "exactly on the slave edges cut by the master's nodes)"))
    return found
