"""From a case's settings to model objects: the only code that reads settings.

A case file says what code_aster's command file says; this module turns its
resolved settings into the objects a user would compose in Python
(:mod:`fem2d.model`: bodies, supports, loads, springs, point masses, initial
conditions, contact zones, the report, the time grid) and the analysis that
runs them (:class:`~fem2d.runs.direct.DirectAnalysis`,
:class:`~fem2d.runs.static.StaticAnalysis` or
:class:`~fem2d.runs.modal.ModalAnalysis`).

Objects below this layer name themselves and their field in their errors
(:class:`~fem2d.errors.ModelError`); :class:`CaseKeys` remembers which key of
the case each object came from and turns such an error into the one-line
:class:`~fem2d.errors.InputError` naming the file and the key the user wrote.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from fem2d.case.fields import tables_of
from fem2d.case.loading import Case
from fem2d.case.usage import CONTACT_METHOD_KEYS, SCHEME_KEYS
from fem2d.errors import InputError, MeshError, ModelError
from fem2d.mesh import BUILDERS, Mesh, read_mesh
from fem2d.mesh.builders import GmshUnavailableError
from fem2d.mesh.limits import LARGEST_LENGTH
from fem2d.model.bodies import Body
from fem2d.model.contact import Contact, RigidCircle, RigidPlane
from fem2d.model.discrete import GroundSpring, PointMass, Spring
from fem2d.model.excitation import BaseAcceleration
from fem2d.model.initial import InitialCondition
from fem2d.model.loads import BodyForce, PointForce, Pressure, Traction
from fem2d.model.model import Model
from fem2d.model.obstacles import NodalObstacle
from fem2d.model.report import Report
from fem2d.model.stepping import TimeStepping
from fem2d.model.supports import Support
from fem2d.model.system import System
from fem2d.model.timefunctions import Constant, PiecewiseLinear, Sine, TimeFunction
from fem2d.model.wear import Wear

if TYPE_CHECKING:  # each path imported when a case takes it (a modal run never loads the direct one)
    from fem2d.dynamics.schemes import TimeScheme
    from fem2d.runs.direct import DirectAnalysis
    from fem2d.runs.modal import ModalAnalysis
    from fem2d.runs.static import StaticAnalysis

T = TypeVar("T")

#: Load types of the case format and the objects they become.
LOAD_TYPES = {"pressure": Pressure, "traction": Traction, "body": BodyForce, "force": PointForce}


@dataclass
class CaseKeys:
    """Which key of the case each model object's fields came from.

    A field maps to ``prefix.field`` unless ``rename`` says otherwise; a
    renamed key holding a dot is a full key (``model.thickness`` for a body's
    thickness).
    """

    case: Case
    _owners: dict[int, tuple[object, str, Mapping[str, str]]] = field(default_factory=dict)

    def key(self, prefix: str, rename: Mapping[str, str], name: str) -> str:
        key = rename.get(name, name)
        if "." in key or not prefix:
            return key
        return f"{prefix}.{key}"

    def make(self, cls: type[T], prefix: str, rename: Mapping[str, str] | None = None, **values: Any) -> T:
        """``cls(**values)``, remembered under ``prefix``; an error of its
        checks names the case key."""
        rename = rename or {}
        try:
            obj = cls(**values)
        except ModelError as exc:
            entry = self._owners.get(id(exc.owner))  # about one of its parts (a body of its model)
            if entry is not None and entry[0] is exc.owner:
                _, prefix, rename = entry
            raise self.case.error(self.key(prefix, rename, exc.field), exc.message) from None
        return self.remember(obj, prefix, rename)

    def remember(self, obj: T, prefix: str, rename: Mapping[str, str] | None = None) -> T:
        """Remember that ``obj``'s fields came from the keys under ``prefix``."""
        self._owners[id(obj)] = (obj, prefix, rename or {})
        return obj

    @contextmanager
    def translate(self) -> Iterator[None]:
        """Turn a :class:`ModelError` about a remembered object into an InputError naming its key."""
        try:
            yield
        except ModelError as exc:
            entry = self._owners.get(id(exc.owner))
            if entry is None or entry[0] is not exc.owner:
                raise InputError(f"{self.case.where}: {exc}") from None
            _, prefix, rename = entry
            raise self.case.error(self.key(prefix, rename, exc.field), exc.message) from None


@dataclass
class BuiltCase:
    """A case turned into an analysis, and the keys its objects came from."""

    analysis: DirectAnalysis | StaticAnalysis | ModalAnalysis
    keys: CaseKeys
    #: what the settings make the run distrust (added to the result's warnings)
    warnings: list[str] = field(default_factory=list)


#: Polynomial order of each 2D cell kind: a mesh file may mix triangles and quadrangles of
#: one order, each kind in its own group (the element layer assembles each group with its own).
ELEMENT_ORDER = {"tri3": 1, "quad4": 1, "tri6": 2, "quad8": 2, "quad9": 2}

#: The keys of a builder's arguments that are not among ``mesh.params``.
BUILDER_ARGUMENT_KEYS = {"element": "mesh.element", "refine": "mesh.refine"}


def build_mesh(case: Case) -> Mesh:
    """The case's mesh: a Gmsh builder (``mesh.geometry``; ``mesh.element`` quad4 unless
    given) or a file (``mesh.file``: its cells are the element unless ``mesh.element`` is
    given, then they must agree)."""
    m = case.settings["mesh"]
    path = case.mesh_file
    if path is not None:
        try:
            mesh = read_mesh(path)
        except MeshError as exc:
            raise case.error("mesh.file", str(exc)) from None
        kinds = sorted({block.kind for block in mesh.groups.values() if block.dimension == 2})
        orders = {ELEMENT_ORDER[kind] for kind in kinds}
        if len(orders) > 1:
            raise case.error("mesh.file", f"{path} holds {' and '.join(kinds)} cells; expected cells of one order "
                             "(tri3 with quad4, or tri6 with quad8 or quad9)")
        if kinds and m.get("element") is not None and m["element"] not in kinds:
            raise case.error(
                "mesh.element", f"{m['element']!r} but {path} holds {' and '.join(kinds)} cells (set mesh.element)"
            )
        if m["refine"]:
            from fem2d.mesh.refine import split_uniform

            try:
                mesh = split_uniform(mesh, m["refine"])
            except MeshError as exc:
                raise case.error("mesh.refine", str(exc)) from None
        return mesh
    name = m["geometry"]
    if name not in BUILDERS:
        raise case.error("mesh.geometry", f"unknown builder {name!r}; expected one of {sorted(BUILDERS)}")
    try:
        return BUILDERS[name](element=m.get("element") or "quad4", refine=m["refine"], **m["params"])
    except GmshUnavailableError as exc:
        raise InputError(f"{case.where}: mesh.geometry needs the gmsh package, which failed to load ({exc.detail}); "
                         "expected pip install gmsh, or a mesh.file") from None
    except TypeError as exc:
        raise case.error("mesh.params", f"the {name} builder does not accept these parameters ({exc})") from None
    except MeshError as exc:
        # the builder names its parameter: "sliding_block: block_cells must be ..."
        message = str(exc).split(": ", 1)[-1]
        param = message.split(" ", 1)[0]
        key = BUILDER_ARGUMENT_KEYS.get(param) or (f"mesh.params.{param}" if param in m["params"] else "mesh.params")
        raise case.error(key, message) from None


#: The largest coordinate (m) a mesh may hold (fem2d.mesh.limits: the element areas overflow beyond).
LARGEST_COORDINATE = LARGEST_LENGTH


def check_coordinate_scale(case: Case, mesh: Mesh) -> None:
    """A mesh whose coordinates are too large for the element areas to be computed is an
    InputError on ``mesh.file`` (or ``mesh.params``), not a singular matrix later."""
    coordinates = np.abs(mesh.points[:, :2])
    finite = coordinates[np.isfinite(coordinates)]
    largest = float(finite.max(initial=0.0))
    if largest > LARGEST_COORDINATE:
        key = "mesh.file" if case.mesh_file is not None else "mesh.params"
        raise case.error(key, f"coordinates reach {largest:.3g} m: the element areas (their squares) overflow "
                         f"double precision; expected coordinates in metres, at most {LARGEST_COORDINATE:g}")


def time_function(case: Case, name: str, key: str | None = None) -> TimeFunction:
    """The ``[functions.NAME]`` table as a callable of time (``key``: the
    setting that names it, for the error when there is no such table)."""
    if name == "constant":
        return Constant(1.0)
    if name not in case.settings["functions"]:
        known = sorted(case.settings["functions"])
        raise case.error(key or f"functions.{name}", f"no [functions.{name}] table (known: {known})")
    spec = case.settings["functions"][name]
    key = f"functions.{name}"
    if spec["type"] == "constant":
        return Constant(spec["amplitude"])
    if spec["type"] == "sine":
        return Sine(spec["amplitude"], spec["omega"], spec["phase"])
    if spec.get("t") is None or spec.get("values") is None:
        raise case.error(key, "a piecewise_linear function needs t and values")
    try:
        return PiecewiseLinear(tuple(spec["t"]), tuple(spec["values"]))
    except ModelError as exc:  # names t or values of the table
        raise case.error(f"{key}.{exc.field}", exc.message) from None


def build_model(case: Case, keys: CaseKeys) -> Model:
    """The case's :class:`Model`: mesh, bodies, supports, springs, point
    masses, loads, initial conditions and contact zones."""
    s = case.settings
    with np.errstate(over="ignore", invalid="ignore"):  # huge coordinates: said by the check that follows, in one line
        mesh = build_mesh(case)
    check_coordinate_scale(case, mesh)
    section = {"hypothesis": "model.hypothesis", "thickness": "model.thickness", "lumped_mass": "model.lumped_mass"}
    bodies = [
        keys.make(Body, f"materials[{i}]", section, group=mat["group"], E=mat["E"], nu=mat["nu"],
                  rho=mat.get("rho") or 0.0,  # None: a static case's massless body
                  hypothesis=s["model"]["hypothesis"], thickness=s["model"]["thickness"],
                  lumped_mass=s["model"]["lumped_mass"], rayleigh=tuple(mat["rayleigh"]),
                  volumetric=mat["volumetric"], kinematics=mat["kinematics"], law=mat["law"],
                  frame=mat["frame"])
        for i, mat in enumerate(s["materials"])
    ]
    supports = [
        keys.make(Support, f"supports[{i}]", {"components": "dofs"}, group=sup["group"],
                  components=tuple(sup["dofs"]), value=sup["value"],
                  function=None if sup["function"] == "constant"
                  else time_function(case, sup["function"], f"supports[{i}].function"))
        for i, sup in enumerate(s["supports"])
    ]
    springs: list[Spring | GroundSpring] = [
        keys.make(Spring, f"springs[{i}]", group=sp["group"], k_axial=sp["k_axial"], k_transverse=sp["k_transverse"])
        for i, sp in enumerate(s["springs"])
    ]
    springs += [
        keys.make(GroundSpring, f"nodal[{i}]", group=nodal["group"], stiffness=tuple(nodal["stiffness"]))
        for i, nodal in enumerate(s["nodal"])
    ]
    masses = [
        keys.make(PointMass, f"nodal[{i}]", group=nodal["group"], mass=nodal["mass"])
        for i, nodal in enumerate(s["nodal"])
    ]
    loads = []
    for i, load in enumerate(s["loads"]):
        cls = LOAD_TYPES[load["type"]]
        amount = {"value": load["value"]} if cls is Pressure else {"vector": tuple(load["vector"])}
        loads.append(keys.make(cls, f"loads[{i}]", group=load["group"], function=time_function(case, load["function"]),
                               **amount))
    initial = [
        keys.make(InitialCondition, f"initial[{i}]", group=init["group"], velocity=tuple(init["velocity"]),
                  displacement=tuple(init["displacement"]))
        for i, init in enumerate(s["initial"])
    ]
    contacts = [
        keys.make(Contact, contact_key(case, i, ""), {"wear": contact_key(case, i, "wear.surface")}, slave=c["slave"],
                  master=contact_master(case, i, c, keys), mu=c["mu"], method=contact_method(c),
                  name=c.get("name") or "", wear=contact_wear(case, i, c, keys))
        for i, c in contact_zone_tables(case)
    ]
    model = Model(mesh, bodies, supports, loads, springs, masses, initial, contacts)
    return keys.remember(model, "", MODEL_KEYS)


#: The case key of each list of a :class:`Model`.
MODEL_KEYS = {"bodies": "materials", "supports": "supports", "loads": "loads", "springs": "springs",
              "masses": "nodal", "initial": "initial", "contacts": "contact"}


#: Where the fields of a direct analysis and its report come from, outside their own table.
DIRECT_KEYS = {"scheme": "time.scheme", "modified_mass": "time.scheme", "solver": "solver.linear",
               "initial": "preload", "tangent": "solver.tangent", "tangent_refresh": "solver.tangent_refresh"}
STATIC_KEYS = {"solver": "solver.linear", "regularization": "solver.regularization", "tangent": "solver.tangent",
               "tangent_refresh": "solver.tangent_refresh"}
POST_KEYS = {"window": "post.window", "impact_threshold": "post.threshold", "impact_quiet": "post.quiet",
             "energy_tolerance": "post.energy_tolerance"}


#: A given penalty coefficient ``contact.e_n`` (N/m per node) as a multiple of the slave body's
#: stiffness scale, E x thickness (N/m; the default coefficient is 100 times it). Measured on
#: sdnv104a (x at 3.40 s): up to 5e6 times the answer is that of 1e3 times to 1e-6 of it; at 5e7
#: times round-off moves it by 1.5e-4 of its value (warned above PENALTY_WARN), at 5e10 times by
#: 4e-3, at 5e12 times by half of it, and at 5e14 times the matrix is singular (refused above
#: PENALTY_LIMIT: the body's own stiffness is lost in the penalty's round-off).
PENALTY_WARN = 1e7
PENALTY_LIMIT = 1e10


def penalty_scale_warnings(case: Case, model: Model) -> list[str]:
    """Warnings for a given ``contact.e_n`` or ``contact.e_t`` above :data:`PENALTY_WARN` times the
    slave body's E x thickness; above :data:`PENALTY_LIMIT` times, an InputError naming the key.
    The tangential coefficient is bounded as the normal one: at 1e100 or 1e300 N/m the stuck
    nodes' rows swamp the body's (sdnv104a's block then sank 60 m into its support, exit 0)."""
    warnings = []
    for (i, table), contact in zip(contact_zone_tables(case), model.contacts, strict=True):
        if table.get("method") != "penalty" or contact.slave not in model.mesh.groups:
            continue  # (a missing group is said where the zone is built, naming its key)
        body = model.slave_body(contact)
        scale = model.slave_modulus(contact) * (body.thickness if body is not None else 1.0)
        for name in ("e_n", "e_t"):
            value = table.get(name)
            if value is None or not scale > 0.0 or value <= PENALTY_WARN * scale:
                continue
            key = contact_key(case, i, name)
            said = (f"{value:g} N/m is {value / scale:.2g} times the slave body's E x thickness ({scale:g} N/m); "
                    f"expected at most {PENALTY_WARN:g} times ({PENALTY_WARN * scale:.3g} N/m; the default is "
                    f"{'100 times' if name == 'e_n' else 'e_n'})")
            if value > PENALTY_LIMIT * scale:
                raise case.error(key, f"{said}: above {PENALTY_LIMIT:g} times the body's stiffness is lost in the "
                                 "penalty's round-off (a wrong answer or a singular matrix)")
            warnings.append(f"{key}: {said}: above that, round-off of the contact solve shows in the answer")
    return warnings


def contact_key(case: Case, index: int, key: str) -> str:
    """The dotted key of a contact setting, as the case file spells it
    (``contact.mu`` for a lone table, ``contact[1].mu`` in a list; the
    table itself for an empty ``key``)."""
    table = f"contact[{index}]" if isinstance(case.settings["contact"], list) else "contact"
    return f"{table}.{key}" if key else table


def contact_master(case: Case, index: int, table: dict, keys: CaseKeys) -> str | RigidPlane | RigidCircle:
    """A zone's master: its edge group, or the rigid plane of ``[contact.plane]``
    or circle of ``[contact.circle]``."""
    for kind, cls in (("plane", RigidPlane), ("circle", RigidCircle)):
        obstacle = table.get(kind)
        if obstacle is None:
            continue
        function = Constant(1.0)
        if any(obstacle["displacement"]):
            function = time_function(case, obstacle["function"], contact_key(case, index, f"{kind}.function"))
        if kind == "plane":
            geometry = {"point": tuple(obstacle["point"]), "normal": tuple(obstacle["normal"])}
        else:
            geometry = {"centre": tuple(obstacle["centre"]), "radius": obstacle["radius"]}
        return keys.make(cls, contact_key(case, index, kind), displacement=tuple(obstacle["displacement"]),
                         function=function, **geometry)
    return table["master"]


def contact_wear(case: Case, index: int, table: dict, keys: CaseKeys) -> Wear | None:
    """A zone's Archard wear from ``[contact.wear]``, or None."""
    wear = table.get("wear")
    if wear is None:
        return None
    return keys.make(Wear, contact_key(case, index, "wear"), coefficient=wear["coefficient"], surface=wear["surface"],
                     update=wear["update"], acceleration=wear["acceleration"])


def contact_zone_tables(case: Case) -> list[tuple[int, dict]]:
    """The tables that define a contact zone, with their index, checked:
    slave and master (an edge group, a plane or a circle) both given, zone names distinct."""
    tables = tables_of(case.settings["contact"])
    zones, names = [], {}
    for i, c in enumerate(tables):
        obstacles = [kind for kind in ("plane", "circle") if c.get(kind) is not None]
        if obstacles:
            kind = obstacles[-1]
            if c.get("master") is not None or len(obstacles) > 1:
                message = "give one master: an edge group, a plane or a circle"
                raise case.error(contact_key(case, i, kind), message)
            if c.get("slave") is None:
                raise case.error(contact_key(case, i, "slave"), f"missing; a {kind} master needs a slave edge group")
            name = c.get("name") or f"{c['slave']}/{kind}"
            if name in names:
                raise case.error(contact_key(case, i, "name"), f"zone name {name!r} is also zone {names[name]}'s")
            names[name] = i
            zones.append((i, c))
            continue
        if c.get("slave") is None and c.get("master") is None:
            if len(tables) > 1:
                message = "missing; every [[contact]] zone needs slave and master"
                raise case.error(contact_key(case, i, "slave"), message)
            continue
        if c.get("slave") is None or c.get("master") is None:
            missing = "slave" if c.get("slave") is None else "master"
            raise case.error(contact_key(case, i, missing), "missing; give both slave and master edge groups")
        name = c.get("name") or f"{c['slave']}/{c['master']}"
        if name in names:
            raise case.error(contact_key(case, i, "name"), f"zone name {name!r} is also zone {names[name]}'s")
        names[name] = i
        zones.append((i, c))
    return zones


def contact_method(c: dict):
    """The contact formulation of a ``[contact]`` table's ``method``, with its options."""
    from fem2d.contact import make_formulation

    options: dict[str, Any] = {"max_iter": c["max_iter"], "tolerance": c["tolerance"],
                               "discretization": c["discretization"]}
    options.update({key: c.get(key) for key in CONTACT_METHOD_KEYS[c["method"]]})  # the keys a case may write
    return make_formulation(c["method"], **options)


def scheme_of(case: Case) -> TimeScheme:
    """The time scheme a case asks for (``time.scheme``).

    ``newmark``: (beta, gamma); ``hht``: code_aster's HHT as DYNA_NON_LINE
    runs it by default (modified average acceleration, first order);
    ``hht_full``: Hilber-Hughes-Taylor proper (code_aster's MODI_EQUI='OUI');
    ``paoli_schatzman``: central differences (``time.theta``) with the
    contact condition at velocity level, restitution ``time.restitution``;
    ``moreau_jean``: the theta-method on velocities with Moreau's
    velocity-level impact law (``time.theta`` 1/2 by default, restitution
    ``time.restitution``; :mod:`fem2d.dynamics.moreau`);
    ``stabilised_newmark``: Deuflhard-Krause-Ertel's contact-stabilised
    Newmark (see :mod:`fem2d.dynamics.impact`);
    ``generalized_alpha``: Chung-Hulbert with ``time.rho_inf``;
    ``modified_mass``: Newmark (beta, gamma), integrated on the modified mass
    of the contact nodes (``DirectAnalysis.modified_mass``, see
    :meth:`NewmarkScheme.modified_mass`); ``auto``: with contact,
    ``paoli_schatzman`` (theta = 0, e = 0) when the mass is lumped
    (``model.lumped_mass``) and ``time.dt`` within its stability limit on the
    run's mesh, else on the modified mass average acceleration (frictionless
    contact) or generalized-alpha at rho_inf = 0 (friction)
    (:class:`~fem2d.dynamics.choice.ContactSchemeChoice`, the Newmark returned
    here being its implicit scheme); ``newmark`` without contact (plain Newmark
    creates energy at impacts: docs/theory/time-schemes.md).
    """
    from fem2d.dynamics.schemes import NewmarkScheme  # imported when asked for: it needs scipy.sparse

    t = case.settings["time"]
    # exactly the keys of SCHEME_KEYS, in order: the table a case's written keys are checked against
    args = [t.get(key) for key in SCHEME_KEYS[t["scheme"]]]
    if t["scheme"] == "hht":
        return NewmarkScheme.hht(*args)
    if t["scheme"] == "hht_full":
        return NewmarkScheme.hht_alpha(*args)
    if t["scheme"] == "generalized_alpha":
        return NewmarkScheme.generalized_alpha(*args)
    if t["scheme"] in ("paoli_schatzman", "moreau_jean"):
        theta, restitution = args
        if t["scheme"] == "moreau_jean":
            from fem2d.dynamics.moreau import MoreauJean

            if theta is not None and theta < 0.5:
                raise case.error("time.theta", f"{theta:g}: Moreau-Jean takes theta in [1/2, 1] (1/2 by default)")
            return MoreauJean(0.5 if theta is None else theta, restitution)
        from fem2d.dynamics.impact import PaoliSchatzman  # imported when chosen: it needs scipy.sparse.linalg

        if theta is not None and theta > 0.5:
            raise case.error("time.theta", f"{theta:g}: Paoli-Schatzman takes theta in [0, 1/2] (0 by default)")
        return PaoliSchatzman(0.0 if theta is None else theta, restitution)
    if t["scheme"] == "stabilised_newmark":
        from fem2d.dynamics.impact import ContactStabilisedNewmark

        return ContactStabilisedNewmark(*args)
    return NewmarkScheme(*args)


def build_analysis(case: Case) -> BuiltCase:
    """The case as an analysis object (direct or modal), with the keys its objects came from."""
    s = case.settings
    keys = CaseKeys(case)
    model = build_model(case, keys)
    warnings = penalty_scale_warnings(case, model)
    t = s["time"]
    stepping = keys.make(TimeStepping, "time", dt=t["dt"], end=t["end"], cut_factor=t["cut_factor"],
                         min_dt=min(t["min_dt"], t["dt"]), events=t["events"],
                         stick_slip=t["stick_slip"], extrapolate=t["extrapolate"])
    if s["case"]["kind"] in ("direct", "static"):
        r = s["report"]
        post = s["post"]
        window = post.get("window")
        report = keys.make(Report, "report", POST_KEYS, node=r.get("node"), component=r["component"],
                           at_times=r["at_times"], extrema=r["extrema"], modes=r["modes"], snapshots=r["snapshots"],
                           window=None if window is None else tuple(window), impact_threshold=post["threshold"],
                           impact_quiet=post["quiet"], energy_tolerance=post["energy_tolerance"],
                           bodies=tuple(r["bodies"]), reactions=tuple(r["reactions"]), groups=tuple(r["groups"]),
                           pressure_at=tuple(r["pressure_at"]))
        tangent = {"tangent": s["solver"]["tangent"], "tangent_refresh": s["solver"]["tangent_refresh"]}
        if s["case"]["kind"] == "static":
            from fem2d.runs.static import StaticAnalysis

            analysis = keys.make(StaticAnalysis, "", STATIC_KEYS, model=model, stepping=stepping,
                                 solver=s["solver"]["linear"], report=report,
                                 regularization=s["solver"]["regularization"], **tangent)
            return BuiltCase(analysis, keys, warnings)
        from fem2d.runs.direct import DirectAnalysis

        initial = None
        preload = s["preload"]
        if preload.get("end") is not None:  # settle statically, then the dynamics from that state
            from fem2d.runs.static import StaticAnalysis

            phase = keys.make(TimeStepping, "preload", {"cut_factor": "time.cut_factor", "min_dt": "time.min_dt"},
                              dt=preload.get("dt") or preload["end"], end=preload["end"], cut_factor=t["cut_factor"],
                              min_dt=min(t["min_dt"], preload.get("dt") or preload["end"]))
            initial = keys.make(StaticAnalysis, "preload", STATIC_KEYS, model=model, stepping=phase,
                                solver=s["solver"]["linear"], report=Report(),
                                regularization=s["solver"]["regularization"], **tangent)
        scheme = scheme_of(case)
        if t["scheme"] == "auto":  # chosen on the assembled system (and said so): DirectAnalysis' default
            from fem2d.dynamics.choice import ContactSchemeChoice
            from fem2d.dynamics.schemes import NewmarkScheme

            # a Newmark the case wrote (time.beta, time.gamma) serves every implicit branch, friction or not
            written = scheme != NewmarkScheme()
            scheme = ContactSchemeChoice(implicit=scheme, **({"friction": scheme} if written else {}))
        modified_mass = t["scheme"] == "modified_mass"
        analysis = keys.make(DirectAnalysis, "", DIRECT_KEYS, model=model, stepping=stepping, scheme=scheme,
                             solver=s["solver"]["linear"], report=report, modified_mass=modified_mass,
                             initial=initial, **tangent)
        return BuiltCase(analysis, keys, warnings)
    from fem2d.runs.modal import ModalAnalysis

    obstacles = []
    ob = s["obstacle"]
    if ob.get("node") is not None:
        obstacles.append(keys.make(NodalObstacle, "obstacle", {"group": "node", "kind": "type"}, group=ob["node"],
                                   kind=ob["type"], normal=tuple(ob["normal"]), origin=tuple(ob["origin"]),
                                   gap=ob["gap"], kn=ob["kn"], cn=ob["cn"], kt=ob["kt"], ct=ob.get("ct"),
                                   mu=ob["mu"], mu_static=ob.get("mu_static")))
    exc = s["excitation"]
    excitation = None
    if exc["a0"] != 0.0:
        excitation = keys.make(BaseAcceleration, "excitation", a0=exc["a0"], omega=exc["omega"],
                               direction=tuple(exc["direction"]))
    window = s["post"].get("window")
    modal_keys = {"n_modes": "modal.n_modes", "damping": "modal.damping", "integrator": "modal.integrator",
                  "archive": "modal.archive", "window": "post.window", "impact_threshold": "post.threshold",
                  "wear_blocks": "post.blocks", "excitation": "excitation", "obstacles": "obstacle"}
    analysis = keys.make(ModalAnalysis, "", modal_keys, model=model, stepping=stepping,
                         n_modes=s["modal"]["n_modes"], damping=s["modal"]["damping"],
                         integrator=s["modal"]["integrator"], archive=s["modal"]["archive"], excitation=excitation,
                         obstacles=obstacles, window=None if window is None else tuple(window),
                         impact_threshold=s["post"]["threshold"], wear_blocks=s["post"]["blocks"])
    return BuiltCase(analysis, keys)


def build_system(case: Case) -> System:
    """The case's assembled :class:`System` (its model, assembled)."""
    keys = CaseKeys(case)
    model = build_model(case, keys)
    with keys.translate():
        return model.assemble()
