"""What a case file may say: every section, key, type and default.

A case file is data, like a code_aster command file: the mesh, materials,
supports, discrete elements, loads and their time functions, contact or
obstacles, the time scheme, what to report, and the references the results
are checked against (with their source and tolerance).
"""

from __future__ import annotations

from fem2d.case.fields import (
    Any_,
    Array,
    Boolean,
    Integer,
    Optional,
    Real,
    String,
    Table,
    TableList,
    TableOrList,
)
from fem2d.contact.options import DISCRETIZATIONS
from fem2d.exact.curves import CURVES
from fem2d.linalg.default import default_solver

ELEMENTS = ("quad4", "quad8", "quad9", "tri3", "tri6")
METHODS = ("lagrange", "penalty", "continuous")

SCHEMES = (
    "auto", "newmark", "hht", "hht_full", "generalized_alpha", "modified_mass", "paoli_schatzman", "stabilised_newmark",
    "moreau_jean",
)
INTEGRATORS = ("euler", "devogelaere", "adapt", "exact")
COMPONENTS = ("dx", "dy")

_vector2 = Array(item=Real(), length=2)

CASE = Table(
    fields={
        "name": String(doc="case name, the default output directory results/<name> (a plain name: no slash, "
                       "backslash, colon or leading dot)"),
        "title": String(default="", doc="one line shown in tables"),
        "kind": String(
            choices=("direct", "static", "modal"),
            doc="direct FE dynamics, static equilibrium with contact (load levels at time.dt up to time.end), "
            "or reduced-modal",
        ),
        "description": String(default="", doc="free text about the case"),
        "extends": Optional(inner=String(), doc="a case this one starts from (its tables merged, arrays replaced)"),
    }
)

MESH = Table(
    fields={
        "geometry": Optional(inner=String(), doc="a built-in builder (sliding_block, rectangle, bars, half_disc, "
                             "annulus_sector, quarter_disc, single_node)"),
        "file": Optional(inner=String(), doc="a meshio-readable file with named groups, relative to the case file"),
        "element": Optional(
            inner=String(choices=ELEMENTS),
            doc="element of the bodies: a builder's (default quad4), or a mesh file's, read from its cells when not "
            "given (when given, the file's cells must agree; a file holding triangles and quadrangles of one order "
            "names either kind)",
        ),
        "refine": Integer(
            default=0,
            min=0,
            max=8,
            doc="0 is the case's base mesh; each level halves h (a mesh file: every cell split in four, groups kept)",
        ),
        "params": Table(open_keys=Any_(), doc="builder parameters (lengths, cell counts): a length in [1e-6, 1e150] "
                        "m, a coordinate within 1e150 m, a cell count an integer >= 1, at most 1e7 cells in all with "
                        "refine (fem2d/mesh/limits.py says why)"),
    }
)

MODEL = Table(
    fields={
        "hypothesis": String(
            default="plane_strain", choices=("plane_strain", "plane_stress", "axisymmetric"),
            doc="plane strain, plane stress, or axisymmetric (x is the radius r >= 0, y the axis z; "
                "u_r = 0 held on the axis; every force, reaction, impulse and energy is the total over the "
                "whole circumference, a point force or nodal spring or mass a total ring value; contact by "
                "lagrange or penalty, the contact width a radius)",
        ),
        "thickness": Real(default=1.0, min=1e-6, max=1e150, doc="out-of-plane thickness, m (none when "
                          "axisymmetric)"),
        "lumped_mass": Boolean(default=False, doc="row-sum lumped mass instead of the consistent one"),
    }
)

MATERIAL = Table(
    fields={
        "group": String(doc="mesh group of the body's cells"),
        # bounds with their reasons: docs/user/case-format.md, "Bounds of the numbers"
        "E": Real(positive=True, max=1e20, doc="Young's modulus, Pa"),
        "nu": Real(min=-0.999, max=0.4999, doc="Poisson's ratio"),
        "rho": Real(default=None, min=0.0, max=1e12, doc="density, kg/m^3 (required but in a static case, which "
                    "has no inertia: left out there, the body is massless)"),
        "volumetric": String(
            default="auto", choices=("auto", "full", "bbar"),
            doc="the volumetric strain: \"auto\" is \"bbar\" from nu = 0.45 in plane strain and axisymmetry "
                "where B-bar (F-bar) serves the cells, \"full\" otherwise (the run's notes say which; a warning "
                "where the cells are left to lock); \"full\" as the element has it (it locks as nu nears 0.5), "
                "or \"bbar\" "
                "(B-bar: projected on a constant per cell, linear for QUAD8/QUAD9) for a nearly incompressible body "
                "in plane strain or axisymmetry, on QUAD4, QUAD8, QUAD9 or TRI6 cells; TRI3 cells with nu > 0.49 "
                "are refused in plane strain and axisymmetry (they lock). With kinematics = \"finite\", \"bbar\" is "
                "F-bar (the law at (J0 / J)^(1/2) F, J0 the volume change at the cell's centre, or of its mean F on "
                "QUAD8 and TRI6), on QUAD4, QUAD8 and TRI6 cells (on QUAD9 cells its tangent turns indefinite under "
                "compression, at nu = 0.49 from 17 %: refused); in axisymmetry (J0 / J)^(1/3) F, J0 the "
                "cell's ring's, on QUAD4 cells only; refused on a body a single cell thick (most cells with every "
                "corner on its boundary: bending comes out far too soft, fem2d/fe/fbar_layers.py); a \"corotational\" "
                "body refuses it",
        ),
        "kinematics": String(
            default="small", choices=("small", "corotational", "finite"),
            doc="how the strain follows the motion: \"small\" (linear strain: rotations below about 0.05 rad), "
                "\"corotational\" (Hooke's law in a frame turning with each cell: any rotation, small strains; "
                "plane strain or plane stress) or \"finite\" (total Lagrangian finite strain with the law; plane "
                "strain, plane stress: a thin sheet that thins freely, or axisymmetry: solids of revolution "
                "such as seals and rubber mounts, the hoop stretch 1 + u_r/R included); both solve each step by "
                "Newton iterations, on direct and static runs",
        ),
        "frame": String(
            default="element", choices=("element", "body"),
            doc="a \"corotational\" body's frame: \"element\" (a frame per cell: any rotation of the cells) or "
                "\"body\" (one frame following the body's rigid rotation: one factorisation for the run; for a free "
                "body whose cells turn little relative to it, direct runs; refused past 0.05 rad)",
        ),
        "law": String(
            default="hooke", choices=("hooke", "saint_venant_kirchhoff", "neo_hookean"),
            doc="the elastic law: \"hooke\" (linear; Saint Venant-Kirchhoff with kinematics = \"finite\"), "
                "\"saint_venant_kirchhoff\" or \"neo_hookean\" (W = mu/2 (I1 - 3 - 2 ln J) + lambda/2 (ln J)^2, "
                "mu and lambda from E and nu), both with kinematics = \"finite\"",
        ),
        "rayleigh": Array(
            item=Real(min=0.0),
            length=2,
            default=[0.0, 0.0],
            doc="Rayleigh damping [a_M (1/s), a_K (s)]: C = a_M M + a_K K of this body",
        ),
    }
)

SUPPORT = Table(
    fields={
        "group": String(doc="mesh group of the held nodes (any dimension)"),
        "dofs": Array(item=String(choices=COMPONENTS), min_length=1, doc="components held"),
        "value": Real(default=0.0, min=-1e150, max=1e150, doc="prescribed displacement, m (within 1e150 m: "
                      "positions overflow beyond, as coordinates)"),
        "function": String(
            default="constant", doc="value x [functions.NAME](t): a displacement history (massless bodies only)"
        ),
    }
)

SPRING = Table(
    fields={
        "group": String(doc="SEG2 cells, each a two-node spring (code_aster DIS_T on SEG2)"),
        "k_axial": Real(min=0.0, doc="N/m along node1 -> node2"),
        "k_transverse": Real(default=0.0, min=0.0, doc="N/m across"),
    }
)

NODAL = Table(
    fields={
        "group": String(doc="nodes carrying a point mass / spring to ground (DIS_T on POI1)"),
        "mass": Real(default=0.0, min=0.0, doc="point mass per node, kg"),
        "stiffness": Array(item=Real(min=0.0), length=2, default=[0.0, 0.0], doc="N/m in x and y"),
    }
)

LOAD = Table(
    fields={
        "type": String(
            choices=("pressure", "traction", "force", "body"),
            doc="pressure on edges, traction on edges, force on nodes, body force on cells",
        ),
        "group": String(doc="mesh group the load acts on"),
        "value": Optional(inner=Real(), doc="pressure in Pa (positive pushes into the body)"),
        "vector": Optional(inner=_vector2, doc="traction Pa, nodal force N or body force N/m^3"),
        "function": String(default="constant", doc="name of a [functions.NAME] table, or 'constant'"),
    }
)

FUNCTION = Table(
    fields={
        "type": String(
            choices=("constant", "piecewise_linear", "sine"),
            doc="constant (amplitude), piecewise_linear (t, values) or sine (amplitude, omega, phase)",
        ),
        "t": Optional(inner=Array(item=Real(), min_length=1), doc="s, increasing"),
        "values": Optional(inner=Array(item=Real(), min_length=1), doc="function values at t"),
        "amplitude": Real(default=1.0, doc="scale of a constant or sine function"),
        "omega": Real(default=0.0, doc="rad/s circular frequency of a sine"),
        "phase": Real(default=0.0, doc="rad phase of a sine"),
    }
)

INITIAL = Table(
    fields={
        "group": String(doc="mesh group of the nodes"),
        "velocity": Array(item=Real(), length=2, default=[0.0, 0.0], doc="m/s initial velocity (vx, vy)"),
        "displacement": Array(item=Real(), length=2, default=[0.0, 0.0], doc="m initial displacement (ux, uy)"),
    }
)

PLANE = Table(
    fields={
        "point": Array(item=Real(), length=2, doc="a point of the plane, m"),
        "normal": Array(item=Real(), length=2, doc="outward normal of the obstacle (towards the slave body)"),
        "displacement": Array(item=Real(), length=2, default=[0.0, 0.0], doc="motion: displacement x function(t), m"),
        "function": String(default="constant", doc="name of a [functions.NAME] table, or 'constant'"),
    },
    doc="a rigid plane obstacle as the zone's master (instead of a master edge group)",
)

CIRCLE = Table(
    fields={
        "centre": Array(item=Real(), length=2, doc="m centre of the disc"),
        "radius": Real(positive=True, doc="m radius of the disc (the slave body lies outside it)"),
        "displacement": Array(item=Real(), length=2, default=[0.0, 0.0], doc="motion: displacement x function(t), m"),
        "function": String(default="constant", doc="name of a [functions.NAME] table, or 'constant'"),
    },
    doc="a rigid circle (disc) obstacle as the zone's master (instead of a master edge group)",
)

WEAR = Table(
    fields={
        "coefficient": Real(min=0.0, doc="1/Pa Archard's k/H (m^2/N): worn depth rate = coefficient x pressure x slip "
                            "speed"),
        "surface": String(default="slave", choices=("slave", "master", "both"),
                          doc="the surface that wears (a rigid master does not; the slave surface is computed)"),
        "update": Boolean(default=True, doc="feed the worn depth back into the normal gap (the surface moves by the "
                          "depth along its normal), so the pressure redistributes"),
        "acceleration": Real(default=1.0, min=1.0, doc="factor on the wear of every step (cycle jump): exact for a "
                             "steady problem"),
    },
    doc="Archard wear of the zone's surface in direct runs (worn_area, max_wear_depth, wear_power)",
)

CONTACT = Table(
    fields={
        "name": Optional(inner=String(), doc="zone name (default SLAVE/MASTER); prefixes its quantities"),
        "method": String(
            default="lagrange",
            choices=METHODS,
            doc="discrete Lagrange multipliers (active set), penalty, or continuous (augmented Lagrangian)",
        ),
        "slave": Optional(inner=String(), doc="edge group of the slave surface"),
        "master": Optional(inner=String(), doc="edge group of the master surface"),
        "plane": Optional(inner=PLANE, doc="a rigid plane master (point, outward normal), optionally moving"),
        "circle": Optional(inner=CIRCLE, doc="a rigid circle master (centre, radius), optionally moving"),
        "mu": Real(default=0.0, min=0.0, doc="Coulomb coefficient"),
        # the method's options: their ranges are checked by the contact layer (fem2d.contact.check_options)
        "e_n": Optional(inner=Real(), doc="penalty normal stiffness, N/m, > 0 (default: from E and h); above 1e7 x "
                        "the slave body's E x thickness a warning (round-off), above 1e10 x refused"),
        "e_t": Optional(inner=Real(), doc="penalty tangential stiffness, N/m, > 0 (default: e_n); bounded as e_n: "
                        "above 1e7 x the slave body's E x thickness a warning, above 1e10 x refused"),
        "discretization": String(
            default="node_to_segment", choices=DISCRETIZATIONS,
            doc="node_to_segment: slave nodes projected on the master's segments; mortar: the contact integrated "
            "over the slave edges cut where they face the master's nodes (a uniform pressure passes exactly between "
            "non-matching meshes; the multipliers are pressures; penalty e_n and e_t act as e_n / (mean tributary "
            "length), a pressure per metre of penetration), with every method",
        ),
        "integration": String(
            default="nodal", doc="continuous method: contact points at nodes (nodal) or Gauss points (gauss); "
            "not with discretization = mortar"
        ),
        "rho_n": Real(default=100.0, doc="augmentation, code_aster's COEF_REGU_CONT, > 0"),
        "rho_t": Real(default=100.0, doc="augmentation, code_aster's COEF_REGU_FROT, > 0"),
        "max_iter": Integer(default=50, doc="contact iterations per step, >= 1"),
        "tolerance": Real(default=1e-10, doc="relative, > 0"),
        "wear": Optional(inner=WEAR, doc="Archard wear of the zone, a table of its own (the wear page of the "
                         "theory docs): coefficient (1/Pa, >= 0, required: worn depth rate = coefficient x pressure x "
                         "slip speed), surface (\"slave\", the default; \"master\" or \"both\": a rigid master "
                         "does not wear, a mesh master's wear is not computed yet), update (true: the worn depth "
                         "enters the normal gap), acceleration (>= 1, default 1: a factor on every step's wear)"),
    }
)

TIME = Table(
    fields={
        "scheme": String(
            default="auto",
            choices=SCHEMES,
            doc="auto: with contact, paoli_schatzman (explicit, e = 0) when the mass is lumped and dt within its "
            "stability limit on the run's mesh, else no inertia on the contact nodes (the modified mass) with "
            "average acceleration when the contact is frictionless, generalized-alpha at rho_inf = 0 with friction "
            "(a sliding body's contact modes flutter otherwise); generalized_alpha at rho_inf = 0.9 for bodies that "
            "turn or stretch; the run says which; newmark without contact",
        ),
        "beta": Real(default=0.25, min=1e-6, max=1.0, doc="Newmark beta (scheme = newmark; at least 1e-6: the "
                     "effective stiffness's weight 1/(beta dt^2) overflows for a denormal one; at most 1: beyond, "
                     "the effective stiffness's weight 1/(beta dt^2) fades and the scheme's damping and period error "
                     "dwarf the motion)"),
        "gamma": Real(default=0.5, positive=True, max=1.0, doc="Newmark gamma (scheme = newmark; at most 1, as beta)"),
        "alpha": Real(
            default=-0.3, min=-1.0 / 3.0, max=0.0, doc="HHT alpha (code_aster's modified average acceleration)"
        ),
        "rho_inf": Real(default=0.9, min=0.0, max=1.0, doc="generalized-alpha spectral radius at infinite frequency"),
        "theta": Optional(
            inner=Real(min=0.0, max=1.0),
            doc="paoli_schatzman: 0 (default) central differences (explicit) .. 1/2, 1/4 unconditionally stable; "
            "moreau_jean: 1/2 (default, energy-conserving midpoint) .. 1 (dissipative)",
        ),
        "restitution": Real(
            default=0.0, min=0.0, max=1.0,
            doc="restitution coefficient e of the contact nodes (paoli_schatzman, moreau_jean)",
        ),
        "dt": Optional(
            inner=Real(positive=True),
            doc="s time step (the initial and largest one for adapt), at most 1e9 steps to time.end; a modal run "
            "warns when its samples, every "
            "time.dt x modal.archive, hold fewer than 50 points of the shortest period of its motion (a shock's, "
            "kn closed, or the excitation's)",
        ),
        "end": Optional(inner=Real(positive=True), doc="s final time"),
        "cut_factor": Integer(default=5, min=2, doc="a failed step is cut into this many"),
        "events": Boolean(
            default=False,
            doc="split a step at an impact or a release inside it (impact problems: energy kept by the modified mass)",
        ),
        "min_dt": Real(default=1e-7, positive=True, doc="s smallest step after cuts (at most time.dt, at least 1e-12 x "
                       "time.end: a shorter step does not move the time)"),
        "stick_slip": Boolean(
            default=True,
            doc="split a step where a sliding contact stops or reverses and restart the scheme there "
            "(second order in time through stick/slip events; direct runs with friction)",
        ),
        "extrapolate": Boolean(
            default=False,
            doc="run at dt and dt/2 and combine them by Richardson extrapolation, (2^p X(dt/2) - X(dt)) / (2^p - 1) "
            "for a scheme of order p (direct runs; three times the steps; refused with time.events); the dt/2 run's "
            "error estimate on the reported displacement is the quantity time_error, and the run warns when it "
            "exceeds 1 % of the largest reported |displacement|; each quantity's own, |q(dt/2) - q(dt)| / (2^p - 1), "
            "is in result.json's time_errors (and beside the mesh error bar in fem2d refine)",
        ),
    }
)

PRELOAD = Table(
    fields={
        "end": Optional(
            inner=Real(positive=True), doc="s: the loads followed statically from 0 to here, then the dynamics"
        ),
        "dt": Optional(inner=Real(positive=True), doc="s load increment of the static phase (default: preload.end)"),
    },
    doc="a static preload before the dynamics (code_aster's STAT_NON_LINE, then DYNA_NON_LINE with ETAT_INIT): "
    "settle the weight, then push; the dynamics start from the settled state with the [[initial]] velocities "
    "(an initial displacement is an error with it)",
)

SOLVER = Table(
    fields={
        "linear": String(
            default=default_solver(),
            doc="direct sparse solver: pardiso-cholesky (the default where the mkl wheel installs), "
            "pardiso-ldlt, pardiso, superlu (the default elsewhere), cholmod",
        ),
        "regularization": Real(
            default=1e-4,
            positive=True,
            max=0.5,
            doc="static cases: proximal term epsilon diag(K) where only contact holds a body; "
            "changes the iterations, not the answer",
        ),
        "tangent": String(
            default="kept",
            choices=("kept", "refreshed"),
            doc="bodies that turn or stretch: kept (the factorised tangent serves iterations and steps while "
            "each iteration divides the residual by 1 / solver.tangent_refresh), refreshed (factorised at every "
            "Newton iteration: faster on the large levels of a slender static structure, slower in dynamics); the "
            "same answer to the Newton tolerance on a stable path, a different cost",
        ),
        "tangent_refresh": Real(
            default=0.1,
            positive=True,
            max=0.9,
            doc="a kept tangent is refactorised when an iteration leaves more than this fraction of the last "
            "one's residual",
        ),
    }
)

REPORT = Table(
    fields={
        "node": Optional(
            inner=String(),
            doc="one-node group whose displacement is reported (x_at_T, x_ext_k at t_ext_k; t_still: its velocity "
            "falls below 1e-6 of its peak for good; with friction, t_rest: the contact stops sliding for good (from "
            "then on its sliding nodes carry under half its normal force), reported when the node's speed then stays "
            "below 1 % of its peak, and x_rest: the final displacement)",
        ),
        "component": String(default="dx", choices=COMPONENTS, doc="component of the reported displacement"),
        "at_times": Array(item=Real(min=0.0), default=[], doc="s instants where x_at_T is reported"),
        "extrema": Integer(default=2, min=0, doc="how many successive extrema to report"),
        "modes": Integer(default=0, min=0, doc="report the first N natural frequencies f_1..f_N (Hz)"),
        "snapshots": Integer(default=0, min=0, doc="keep the full displacement every N steps (VTU output); 0: none"),
        "error_bars": Boolean(
            default=False,
            doc="a mesh error bar on every quantity (fem2d run, fem2d.run): the run's mesh.refine level L and the "
            "two coarser levels L-1, L-2 of its mesh family are run at the same time.dt, and each quantity is "
            "reported as value +- GCI (Roache's grid convergence index of level L: an observed order and a "
            "Richardson extrapolation, result.json's error_bars); with L = 1 two levels, the element's order "
            "assumed and a safety factor of 3 (said in a note); needs mesh.refine >= 1 on a direct or static case",
        ),
        "bodies": Array(
            item=String(),
            default=[],
            doc="2D groups whose momentum, mean velocity, kinetic energy and rigid rotation are reported "
            "(B_momentum_x, ..., B_rotation, B_rotation_min, B_rotation_max in rad; B_..._at_T at each of at_times)",
        ),
        "reactions": Array(
            item=String(),
            default=[],
            doc="groups with [[supports]] whose reaction resultant is reported (G_reaction_x, G_reaction_y, N)",
        ),
        "groups": Array(
            item=String(),
            default=[],
            doc="groups whose mean displacement and velocity are reported (G_dx_at_T, G_vx_at_T, G_dx_ext_k, "
            "G_dx_t_ext_k, G_dx_rest, G_dx_t_rest, G_vx_min, G_vx_max; likewise dy, vy)",
        ),
        "pressure_at": Array(
            item=Real(min=0.0),
            default=[],
            doc="s instants where the contact pressure along each slave surface is written (pressure.csv) and drawn",
        ),
        "curve": Table(
            fields={
                "function": Optional(inner=String(), doc="a reference curve of fem2d, f(t, **args) -> reported dof: "
                                     f"{', '.join(sorted(CURVES))} (fem2d/exact/curves.py)"),
                "args": Table(open_keys=Any_(), doc="keyword arguments of the function"),
                "label": String(default="reference", doc="legend of the reference curve in plots"),
            },
            doc="a reference curve of the reported dof against time, drawn in plots",
        ),
    }
)

MODAL = Table(
    fields={
        "integrator": String(
            default="euler", choices=INTEGRATORS, doc="code_aster's EULER, DEVOGE, ADAPT, or the exact event-driven one"
        ),
        "n_modes": Integer(default=1, min=1, doc="modes of the reduced basis"),
        "damping": Real(default=0.0, min=0.0, doc="modal damping ratio"),
        "archive": Integer(default=1, min=1, doc="keep every N-th step"),
    }
)

OBSTACLE = Table(
    fields={
        "type": String(
            default="plan_z",
            choices=("plan_z", "plane"),
            doc="plan_z: two planes at +-gap (code_aster PLAN_Z); plane: one",
        ),
        "node": Optional(inner=String(), doc="group of nodes: one obstacle per node"),
        "normal": Array(item=Real(), length=2, default=[0.0, 1.0], doc="obstacle normal (global frame)"),
        "origin": Array(item=Real(), length=2, default=[0.0, 0.0], doc="m obstacle origin"),
        "gap": Real(default=0.0, doc="m half distance between the planes (code_aster JEU)"),
        "kn": Real(default=0.0, min=0.0, doc="N/m normal penalty stiffness"),
        "cn": Real(default=0.0, min=0.0, doc="N s/m normal damping"),
        "kt": Real(default=0.0, min=0.0, doc="N/m tangential stick stiffness"),
        "ct": Optional(inner=Real(min=0.0), doc="N s/m (default: code_aster's rule)"),
        "mu": Real(default=0.0, min=0.0, doc="dynamic Coulomb coefficient"),
        "mu_static": Optional(inner=Real(min=0.0), doc="static coefficient (default: mu)"),
    }
)

EXCITATION = Table(
    fields={
        "a0": Real(default=0.0, doc="base acceleration amplitude, m/s^2"),
        "omega": Real(default=0.0, min=0.0, doc="rad/s circular frequency of the base acceleration"),
        "direction": Array(item=Real(), length=2, default=[1.0, 0.0], doc="direction of the base acceleration"),
    }
)

POST = Table(
    fields={
        "window": Optional(inner=Array(item=Real(min=0.0), length=2), doc="[t_start, t_end], s"),
        "threshold": Real(default=0.0, min=0.0, doc="impact force threshold, N"),
        "quiet": Real(
            default=0.0, min=0.0, doc="s: a release shorter than this is a re-opening inside one impact (DUREE_REPOS)"
        ),
        "blocks": Integer(default=8, min=1, doc="wear-power averaging blocks"),
        "energy_tolerance": Real(
            default=0.01,
            positive=True,
            doc="a direct run warns when its energy grows more (relative to max(E(0), max|W|))",
        ),
    }
)

EXACT = Table(
    fields={
        "model": Optional(
            inner=String(),
            doc="exact solution computed for each run's settings (fem2d/case/exact_models.py: sliding_block, "
            "block_on_incline, wear_on_vibrating_plane, oscillator_on_stop, bar_on_wall, two_bars, bouncing_bar, "
            "hertz_line_contact; axisymmetric cases: lame_sphere, sphere_breathing, cylinder_axial_modes, "
            "flat_punch in fem2d/case/exact_axisymmetric.py); references without a value take theirs from it, "
            "plots draw its curve",
        ),
    },
    doc="the exact model of the case",
)

REFERENCE = Table(
    fields={
        "quantity": String(doc="name of a reported quantity (x_at_1.70, wear_power, impact_2_f_max...)"),
        "value": Optional(
            inner=Real(),
            doc="a stored value, checked only for the settings of the case file (and when); "
            "leave out to use the exact model computed for the run's settings",
        ),
        "source": String(default="", doc="where a stored value comes from (exact values name their model)"),
        "tolerance": Real(positive=True, doc="largest error that passes"),
        "relative": Boolean(default=True, doc="false: absolute tolerance"),
        "when": Table(open_keys=Any_(), doc="settings (dotted keys) the reference applies to"),
        "refine": Optional(
            inner=Array(item=Integer(min=0), length=2),
            doc="[first, last]: the mesh.refine levels the tolerance was measured for; at another level the "
            "reference does not apply (the run says so in a note: neither a pass nor a failure); "
            "left out: every level",
        ),
    }
)

VARIANT = Table(
    fields={
        "label": String(default="", doc="name of the variant in tables"),
        "set": Table(open_keys=Any_(), doc="dotted key -> value, as --set"),
        "grid": Table(open_keys=Array(item=Any_(), min_length=1), doc="dotted key -> list of values: one run each"),
        "solvers": String(
            default="default", choices=("default", "installed"),
            doc="installed: one run per installed linear solver (those not installed are noted as not run)",
        ),
    }
)

SCHEMA = Table(
    fields={
        "case": CASE,
        "mesh": MESH,
        "model": MODEL,
        "materials": TableList(table=MATERIAL),
        "supports": TableList(table=SUPPORT),
        "springs": TableList(table=SPRING),
        "nodal": TableList(table=NODAL),
        "loads": TableList(table=LOAD),
        "functions": Table(open_keys=FUNCTION),
        "initial": TableList(table=INITIAL),
        "contact": TableOrList(table=CONTACT, doc="one contact zone [contact], or several [[contact]]"),
        "time": TIME,
        "preload": PRELOAD,
        "solver": SOLVER,
        "report": REPORT,
        "modal": MODAL,
        "obstacle": OBSTACLE,
        "excitation": EXCITATION,
        "post": POST,
        "exact": EXACT,
        "references": TableList(table=REFERENCE),
        "validation": TableList(table=VARIANT),
    }
)
