"""Mortar contact: the contact patch test on non-matching meshes, with every method and element.

The patch test: two elastic blocks stacked, meshed independently (different numbers of cells
along the interface), the lower one on a frictionless support, a uniform pressure p on the
upper one's top. Its exact solution is a uniform stress sigma_yy = -p in both blocks, so the
interface pressure is p at every point. A node-to-segment discretisation transmits it with
errors of several percent on non-matching meshes; the mortar one exactly, to the solver's
tolerance. The pressure a slave node stands for is its normal force over its tributary length
(:func:`fem2d.contact.kinematics.slave_weights`).
"""

from __future__ import annotations

import numpy as np
import pytest

import fem2d
from fem2d.contact.kinematics import slave_weights
from fem2d.mesh.builders import rectangle
from fem2d.mesh.mesh import CellBlock, Mesh

E, NU, P, TAU = 2.0e11, 0.3, 1.0e7, 2.0e6
METHODS = {"lagrange": fem2d.LagrangeFormulation, "penalty": fem2d.PenaltyFormulation,
           "continuous": fem2d.ContinuousFormulation}


def stacked(element: str, n_low: int, n_up: int, width: float = 1.0, height: float = 0.5) -> Mesh:
    """Blocks [0, width] x [-height, 0] (groups LOW_*) and [0, width] x [0, height] (UP_*),
    n_low and n_up cells along the interface, meshed apart (no node shared)."""
    low = rectangle(width, height, n_low, 2, element, origin=(0.0, -height))
    up = rectangle(width, height, n_up, 2, element, origin=(0.0, 0.0))
    groups = {f"LOW_{name}": block for name, block in low.groups.items()}
    offset = len(low.points)
    groups.update({f"UP_{name}": CellBlock(block.kind, block.nodes + offset) for name, block in up.groups.items()})
    return Mesh(np.vstack([low.points, up.points]), groups, f"stacked {element}")


def interface_pressure(mesh, contact, result, axisymmetric=False):
    """Per slave node, normal and tangential force over the tributary length (ring area), Pa."""
    weights = slave_weights(contact.zone(mesh, axisymmetric))
    inside = weights > 1e-9 * weights.max()  # (a SEG3 corner on the axis has no ring area)
    normal = result.histories["slave_normal_force"][-1][inside] / weights[inside]
    tangential = result.histories["slave_tangential_force"][-1][inside] / weights[inside]
    return normal, tangential


def pressed(element, method, discretization="mortar", hypothesis="plane_strain", n=(4, 3), upper=(E, NU),
            **options):
    mesh = stacked(element, *n)
    bodies = [fem2d.Body("LOW_BODY", E=E, nu=NU, rho=0.0, hypothesis=hypothesis),
              fem2d.Body("UP_BODY", E=upper[0], nu=upper[1], rho=0.0, hypothesis=hypothesis)]
    supports = [fem2d.Support("LOW_BOTTOM", ("dy",)), fem2d.Support("LOW_LEFT", ("dx",)),
                fem2d.Support("UP_LEFT", ("dx",))]
    contact = fem2d.Contact("UP_BOTTOM", "LOW_TOP", method=METHODS[method](discretization=discretization, **options))
    model = fem2d.Model(mesh, bodies=bodies, supports=supports, loads=[fem2d.Pressure("UP_TOP", P)],
                        contacts=[contact])
    result = fem2d.StaticAnalysis(model, fem2d.TimeStepping(dt=1.0, end=1.0)).run()
    return mesh, contact, result


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("element", ["quad4", "quad8", "quad9", "tri3", "tri6"])
def test_a_uniform_pressure_passes_exactly_between_non_matching_meshes(element, method):
    mesh, contact, result = pressed(element, method)
    normal, tangential = interface_pressure(mesh, contact, result)
    assert np.max(np.abs(normal - P)) < 1e-9 * P
    assert np.max(np.abs(tangential)) < 1e-9 * P


def test_node_to_segment_fails_the_same_patch_test():
    """What the mortar discretisation is for: the node-to-segment one is off by percents here."""
    mesh, contact, result = pressed("quad4", "lagrange", "node_to_segment")
    normal, _ = interface_pressure(mesh, contact, result)
    assert np.max(np.abs(normal - P)) > 0.05 * P


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("element", ["quad4", "quad8", "tri6"])
def test_the_axisymmetric_patch_test_passes(element, method):
    """Two stacked cylinders (x the radius): the ring areas 2 pi r weigh the integrals; a SEG3
    corner node on the axis, whose ring area vanishes, hands its multiplier to its neighbour."""
    mesh, contact, result = pressed(element, method, hypothesis="axisymmetric")
    normal, _ = interface_pressure(mesh, contact, result, axisymmetric=True)
    assert np.max(np.abs(normal - P)) < 1e-9 * P


@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_two_materials_with_the_same_lateral_expansion(element):
    """An upper block of other E and nu whose lateral strain nu (1 + nu) p / E is the lower one's
    (so that the two surfaces stay flush: the exact solution stays uniform)."""
    nu_up = 0.45
    e_up = E * nu_up * (1 + nu_up) / (NU * (1 + NU))
    mesh, contact, result = pressed(element, "lagrange", n=(3, 5), upper=(e_up, nu_up))
    normal, _ = interface_pressure(mesh, contact, result)
    assert np.max(np.abs(normal - P)) < 1e-9 * P


def sheared(element, method, discretization="mortar"):
    """The patch test with a sticking shear tau (mu = 0.5 > tau / p): the uniform state
    sigma_yy = -p, sigma_xy = tau, held by the tractions of that state on every side."""
    mesh = stacked(element, 4, 3)
    bodies = [fem2d.Body("LOW_BODY", E=E, nu=NU, rho=0.0), fem2d.Body("UP_BODY", E=E, nu=NU, rho=0.0)]
    supports = [fem2d.Support("LOW_BOTTOM", ("dy",)), fem2d.Support("LOW_SW", ("dx",))]
    loads = [fem2d.Pressure("UP_TOP", P), fem2d.Traction("UP_TOP", (TAU, 0.0)),
             fem2d.Traction("LOW_BOTTOM", (-TAU, 0.0))]
    for block in ("LOW", "UP"):
        loads += [fem2d.Traction(f"{block}_RIGHT", (0.0, TAU)), fem2d.Traction(f"{block}_LEFT", (0.0, -TAU))]
    contact = fem2d.Contact("UP_BOTTOM", "LOW_TOP", mu=0.5, method=METHODS[method](discretization=discretization))
    model = fem2d.Model(mesh, bodies=bodies, supports=supports, loads=loads, contacts=[contact])
    return mesh, contact, fem2d.StaticAnalysis(model, fem2d.TimeStepping(dt=1.0, end=1.0)).run()


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_a_sticking_shear_passes_too(element, method):
    """Every node sticks and carries p and tau; penalty to its elastic slip's convergence
    (1e-7 with node-to-segment on matching meshes too)."""
    mesh, contact, result = sheared(element, method)
    normal, tangential = interface_pressure(mesh, contact, result)
    tolerance = 1e-6 if method == "penalty" else 1e-9
    assert np.max(np.abs(normal - P)) < tolerance * P
    assert np.max(np.abs(np.abs(tangential) - TAU)) < tolerance * TAU
    assert (result.histories["slave_status"][-1] == 1).all()  # stuck


def test_penalty_mortar_penetrates_by_the_pressure_over_its_coefficient():
    """With mortar, a given e_n (N/m, as node-to-segment's) acts as e_n / mean(w) (Pa/m, w the
    tributary lengths), uniformly: the uniform p penetrates by p mean(w) / e_n at every node,
    corner and mid-side alike."""
    e_n = 1.0e13
    mesh, contact, result = pressed("quad8", "penalty", e_n=e_n)
    normal, _ = interface_pressure(mesh, contact, result)
    assert np.max(np.abs(normal - P)) < 1e-9 * P
    mean = slave_weights(contact.zone(mesh)).mean()
    np.testing.assert_allclose(result.histories["slave_gap"][-1], -P * mean / e_n, rtol=1e-6)


def test_gauss_integration_is_refused_with_mortar():
    with pytest.raises(fem2d.InputError, match=r"integration: does not apply with discretization = \"mortar\""):
        fem2d.ContinuousFormulation(integration="gauss", discretization="mortar")
    with pytest.raises(fem2d.InputError, match="discretization: expected one of 'node_to_segment', 'mortar'"):
        fem2d.contact.make_formulation("lagrange", discretization="segment_to_segment")


CASE = """
[case]
name = "patch"
kind = "static"
[mesh]
file = "patch.msh"
[[materials]]
group = "A"
E = 2.0e11
nu = 0.3
[[materials]]
group = "B"
E = 2.0e11
nu = 0.3
[[supports]]
group = "A_BOTTOM"
dofs = ["dy"]
[[supports]]
group = "A_SW"
dofs = ["dx"]
[[supports]]
group = "B_SW"
dofs = ["dx"]
[[loads]]
type = "pressure"
group = "B_TOP"
value = 1.0e7
[contact]
slave = "B_BOTTOM"
master = "A_TOP"
discretization = "mortar"
{extra}
[time]
dt = 1.0
end = 1.0
[report]
node = "B_SW"
component = "dy"
"""


def write_patch(tmp_path, extra=""):
    from gridmesh import write

    write(tmp_path / "patch.msh", {"A": (0.0, -0.5, 1.0, 0.0, 4, 2), "B": (0.0, 0.0, 1.0, 0.5, 3, 2)})
    path = tmp_path / "patch.toml"
    path.write_text(CASE.format(extra=extra))
    return path


def test_a_case_file_asks_for_mortar_and_its_peak_pressure_is_the_applied_one(tmp_path):
    result = fem2d.run(str(write_patch(tmp_path)))
    assert result.quantities["peak_pressure"] == pytest.approx(1.0e7, rel=1e-9)


def test_a_case_with_mortar_and_an_integration_is_refused_naming_the_key(tmp_path):
    path = write_patch(tmp_path, 'method = "continuous"\nintegration = "gauss"')
    with pytest.raises(fem2d.InputError, match=r"patch.toml: contact.integration: .*discretization = \"mortar\""):
        fem2d.run(str(path))


@pytest.mark.parametrize("method", METHODS)
def test_the_plane_stress_patch_test_passes(method):
    mesh, contact, result = pressed("quad8", method, hypothesis="plane_stress")
    normal, _ = interface_pressure(mesh, contact, result)
    assert np.max(np.abs(normal - P)) < 1e-9 * P


@pytest.mark.parametrize("case", ["sdnv104a", "sdnv104d"])
def test_the_sliding_block_with_mortar_follows_the_rigid_block(case):
    """SDNV104 A and D (QUAD4 and QUAD8 blocks sliding with Coulomb friction, reversing twice)
    with mortar: every check against the event-driven rigid block within its tolerance (x within
    1e-5 m). On QUAD8 the consistent forces of a corner node next to an open one are negative:
    its friction jumps at a reversal too, and the restart of the scheme there must count it."""
    result = fem2d.run(case, {"contact.discretization": "mortar"})
    assert len(result.checks) == 6 and result.passed, result.checks


def test_mortar_on_matching_faces_is_node_to_segment_in_an_impact():
    """The bar hitting a wall end-on (one slave node on one master node) with the explicit
    velocity-level scheme: the same numbers with either discretization."""
    runs = [fem2d.run("bar_wall", {"time.scheme": "paoli_schatzman", "contact.discretization": d})
            for d in ("node_to_segment", "mortar")]
    for name in ("impact_1_duration", "impact_1_impulse", "energy_drift"):
        assert runs[1].quantities[name] == pytest.approx(runs[0].quantities[name], rel=1e-9, abs=1e-12)


def test_compare_puts_the_discretizations_side_by_side_with_their_pressure_profiles(tmp_path, capsys):
    """`fem2d compare hertz --discretizations ...`: a column each, the pressure profile's L2
    error against Hertz's (below 2 % on the case's mesh with either), and the profiles drawn."""
    from fem2d.cli import main

    code = main(["compare", "hertz", "--methods", "lagrange", "--discretizations", "node_to_segment,mortar",
                 "--out", str(tmp_path), "--quiet", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0
    header = next(line for line in out.splitlines() if line.startswith("quantity"))
    assert "lagrange/node_to_segment" in header and "lagrange/mortar" in header
    row = next(line for line in out.splitlines() if line.startswith("pressure profile L2 error"))
    errors = [float(v) for v in row.split()[-2:]]
    assert all(0.0 < e < 0.02 for e in errors)
    assert (tmp_path / "compare_pressure.png").is_file()


def test_the_mortar_pressure_is_its_multipliers_not_the_forces_over_the_lengths():
    """A mortar zone's pressure output solves M p = F (M the slave surface's matrix): the Hertz
    disc's peak pressure within 2e-4 of Hertz's p0, where F / w smooths it to 7e-4."""
    result = fem2d.run("hertz", {"contact.discretization": "mortar"})
    check = next(c for c in result.checks if c["quantity"] == "peak_pressure")
    assert abs(check["relative_error"]) < 2e-4


def test_the_hertz_peak_pressure_converges_with_mortar_at_least_at_order_two():
    """The Hertz disc (QUAD8) on a rigid plane at levels 0-2: with mortar, the peak pressure's
    error against Hertz's p0 falls at observed orders of at least 2 (measured 4.5 then 3.7;
    1.6e-3 then 1.25e-4 at levels 1 and 2)."""
    errors = []
    for level in (0, 1, 2):
        result = fem2d.run("hertz", {"contact.discretization": "mortar", "mesh.refine": level})
        errors.append(abs(next(c for c in result.checks if c["quantity"] == "peak_pressure")["relative_error"]))
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert np.all(orders >= 2.0), (errors, orders)
    assert errors[-1] < 3e-4


def two_cylinders(level: int, discretization: str):
    """Two steel half discs R = 50 mm, meshed apart (8 and 6 cells across each half), the lower
    one turned upside down, pressed by P = 3.6e6 N/m: Hertz's two equal cylinders, the contact of
    a disc R / 2 with E / 2 on a rigid plane. The peak pressure's relative error."""
    from fem2d.exact.hertz import HertzLineContact
    from fem2d.mesh.disc import half_disc

    radius, load = 0.05, 3.6e6
    up = half_disc("quad8", level, radius=radius, cells=8, radial_cells=8, focus=0.04)
    low = half_disc("quad8", level, radius=radius, cells=6, radial_cells=8, focus=0.05)
    groups = {f"UP_{k}": v for k, v in up.groups.items()}
    groups.update({f"LOW_{k}": CellBlock(v.kind, v.nodes + len(up.points)) for k, v in low.groups.items()})
    mesh = Mesh(np.vstack([up.points, -low.points]), groups, "two half discs")  # turned by 180 degrees
    model = fem2d.Model(
        mesh, bodies=[fem2d.Body(f"{b}_DISC", E=2.1e11, nu=NU, rho=0.0) for b in ("UP", "LOW")],
        supports=[fem2d.Support("UP_AXIS", ("dx",)), fem2d.Support("LOW_AXIS", ("dx",)), fem2d.Support("LOW_TOP")],
        loads=[fem2d.Pressure("UP_TOP", load / (2 * radius))],
        contacts=[fem2d.Contact("UP_CONTACT", "LOW_CONTACT",
                                method=fem2d.LagrangeFormulation(discretization=discretization))])
    result = fem2d.StaticAnalysis(model, fem2d.TimeStepping(dt=0.5, end=1.0), report=fem2d.Report("UP_CENTER")).run()
    exact = HertzLineContact(P=load, R=radius / 2, E=2.1e11 / 2, nu=NU).peak_pressure
    return result.quantities["peak_pressure"] / exact - 1.0


def test_two_deformable_cylinders_on_non_matching_meshes_converge_with_mortar_only():
    """Node-to-segment's peak pressure stays 1.25-1.3 % off at levels 1 to 3 (the meshes' mismatch,
    not h); mortar's is 4.8e-4, 6.7e-4, 7.3e-5 off at levels 1, 2, 3."""
    assert abs(two_cylinders(1, "node_to_segment")) > 1e-2
    assert abs(two_cylinders(1, "mortar")) < 1e-3
    assert abs(two_cylinders(2, "mortar")) < 1e-3
