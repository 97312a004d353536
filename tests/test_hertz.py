"""Hertz line contact: the exact solution checked independently, the half-disc
builder, the pressure quantities and pressure.csv, the hertz case and its bad input."""

from __future__ import annotations

import csv
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import integrate

from fem2d.errors import InputError, MeshError
from fem2d.exact.hertz import HertzLineContact
from fem2d.mesh.disc import half_disc
from fem2d.post.pressure import half_width
from fem2d.runs.result import run, write_result

FEM2D = str(Path(sys.executable).parent / "fem2d")


@pytest.mark.parametrize("plane_strain", [True, False])
def test_hertz_pressure_carries_the_load_and_fits_the_cylinder(plane_strain):
    """Independent of the closed forms: the pressure integrates to P, and on an
    elastic half-space (surface slope -2/(pi E*) PV int p(s)/(x - s) ds, Johnson
    eq. 2.25b) it makes the surface follow the cylinder, slope -x/R, inside the strip."""
    hertz = HertzLineContact(P=3.0e6, R=0.02, E=7.0e10, nu=0.33, plane_strain=plane_strain)
    a = hertz.half_width
    total, _ = integrate.quad(hertz.pressure, -a, a)
    assert total == pytest.approx(hertz.P, rel=1e-10)
    for x in (-0.7 * a, -0.2 * a, 0.35 * a, 0.8 * a):
        # the Cauchy weight integrates f(s) / (s - x)
        principal, _ = integrate.quad(hertz.pressure, -a, a, weight="cauchy", wvar=x, limit=200)
        slope = 2.0 / (math.pi * hertz.effective_modulus) * principal
        assert slope == pytest.approx(-x / hertz.R, rel=1e-7)
    assert hertz.effective_modulus == pytest.approx(7.0e10 / (1 - 0.33**2) if plane_strain else 7.0e10)


def test_half_width_of_a_hertz_distribution_and_a_uniform_one():
    x = np.linspace(-2.0, 2.0, 40001)
    assert half_width(x + 0.3, np.sqrt(np.clip(1.0 - x**2 / 4.0, 0.0, None))) == pytest.approx(2.0, rel=1e-6)
    assert half_width(x, np.ones_like(x)) == pytest.approx(4.0 / math.sqrt(3.0), rel=1e-4)  # sum, not integral


@pytest.mark.parametrize("element", ["quad4", "quad8"])
def test_half_disc_area_groups_and_refinement(element):
    from fem2d.fe import integrate_over_cells  # noqa: F401  (the fe package imports)
    from fem2d.mesh.mesh import NODES_PER_CELL

    radius = 0.3
    areas = []
    for level in (0, 1):
        mesh = half_disc(element, level, radius=radius, cells=4, radial_cells=3, focus=0.2)
        cells = mesh.group("DISC").nodes
        assert cells.shape == (2 * 4 * 3 * 4**level, NODES_PER_CELL[element])
        corners = mesh.points[cells[:, :4]]
        x, y = corners[..., 0], corners[..., 1]
        signed = 0.5 * np.sum(x * np.roll(y, -1, 1) - np.roll(x, -1, 1) * y, axis=1)
        assert np.all(signed > 0)  # counter-clockwise, no folded cell
        areas.append(signed.sum())
        arc = np.unique(mesh.group("ARC").nodes)
        assert np.allclose(np.linalg.norm(mesh.points[arc] - [0.0, radius], axis=1), radius)
        top = np.unique(mesh.group("TOP").nodes)
        assert np.allclose(mesh.points[top, 1], radius)
        assert np.allclose(mesh.points[np.unique(mesh.group("AXIS").nodes), 0], 0.0)
        assert mesh.points[mesh.group("BOTTOM").nodes[0, 0]].tolist() == [0.0, 0.0]
        assert mesh.points[mesh.group("CENTER").nodes[0, 0]].tolist() == [0.0, radius]
    exact = math.pi * radius**2 / 2
    # the polygon of the corners converges to the half disc (the largest cells, graded away
    # from the contact point, shrink by 1.5 per level rather than 2)
    assert abs(areas[1] - exact) < 0.6 * abs(areas[0] - exact)


@pytest.mark.parametrize(
    ("params", "word"),
    [({"radius": -1.0}, "radius"), ({"cells": 0}, "cells"), ({"radial_cells": 1.5}, "radial_cells"),
     ({"focus": 0.5}, "focus"), ({"refine": -1}, "refine")],
)
def test_half_disc_bad_parameters(params, word):
    with pytest.raises(MeshError, match=word):
        half_disc(**params)


def test_hertz_case_within_one_percent_and_pressure_csv(tmp_path):
    result = run("hertz")
    checks = {c["quantity"]: c for c in result.checks}
    assert set(checks) == {"peak_pressure", "contact_half_width"}
    assert all(c["passed"] and c["relative_error"] < 1e-2 for c in checks.values()), checks
    hertz = HertzLineContact(3.6e6, 0.05, 2.1e11, 0.3)
    assert checks["peak_pressure"]["reference"] == pytest.approx(hertz.peak_pressure, rel=1e-12)
    assert checks["contact_half_width"]["reference"] == pytest.approx(hertz.half_width, rel=1e-12)
    # the discrete strip: between the two nodes either side of a
    assert abs(result.quantities["contact_extent"] - hertz.half_width) < 0.1 * hertz.half_width
    out = write_result(result, tmp_path / "run")
    with (out / "pressure.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert {float(r["time_s"]) for r in rows} == {0.5, 1.0}
    end = [r for r in rows if float(r["time_s"]) == 1.0]
    force = sum(float(r["pressure_Pa"]) for r in end)  # a check of the sum, not of the weights: see below
    assert force > 0.0
    peak = max(float(r["pressure_Pa"]) for r in end)
    assert peak == pytest.approx(result.quantities["peak_pressure"], rel=1e-12)
    proc = subprocess.run([FEM2D, "plot", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert (out / "hertz_pressure_profile.png").stat().st_size > 10_000


def test_pressure_of_a_uniformly_pressed_block():
    """A block of nu = 0 pressed by 1e4 Pa: every slave node reads 1e4 Pa (the
    tributary weights turn nodal forces back into the pressure), and the half-width
    of a uniform strip of half-length c = 0.5 m is 2c/sqrt(3)."""
    from fem2d.mesh import rectangle
    from fem2d.model import Body, Contact, Model, Pressure, Report, RigidPlane, Support, TimeStepping
    from fem2d.runs.static import StaticAnalysis

    model = Model(rectangle(1.0, 1.0, 4, 4), bodies=[Body("BODY", E=1e7, nu=0.0, rho=1.0, thickness=0.5)],
                  supports=[Support("LEFT", ("dx",))], loads=[Pressure("TOP", 1.0e4)],
                  contacts=[Contact("BOTTOM", RigidPlane((0.0, 0.0), (0.0, 1.0)))])
    result = StaticAnalysis(model, TimeStepping(dt=1.0, end=1.0), report=Report(pressure_at=[1.0])).run()
    q = result.quantities
    assert q["peak_pressure"] == pytest.approx(1.0e4, rel=1e-9)
    assert q["contact_extent"] == pytest.approx(0.5)
    # nodal forces of a uniform pressure on 4 cells: 1/8, 1/4, 1/4, 1/4, 1/8 of the load
    s, f = np.linspace(-0.5, 0.5, 5), np.array([1, 2, 2, 2, 1.0])
    assert q["contact_half_width"] == pytest.approx(half_width(s, f), rel=1e-9)
    header, rows = result.fields.pressure
    assert [r[-1] for r in rows] == pytest.approx([1.0e4] * 5, rel=1e-9)


def test_hertz_with_friction_has_no_reference():
    result = run("hertz", {"contact.mu": 0.2, "mesh.refine": 0})
    assert result.checks == []
    assert {n["quantity"] for n in result.unchecked} == {"peak_pressure", "contact_half_width"}
    assert "frictionless" in result.unchecked[0]["reason"]


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        (["report.pressure_at=[-1.0]"], "report.pressure_at[0]"),
        (["report.pressure_at=[2.0]"], "report.pressure_at"),
        (["report.pressure_at=1.0"], "report.pressure_at"),
        (["mesh.params.focus=0.5"], "mesh.params.focus"),
        (["mesh.params.cells=0"], "mesh.params.cells"),
        (["mesh.params.radius=0"], "mesh.params.radius"),
        (["mesh.params.width=1"], "mesh.params"),
        (["solver.regularization=-1e-3"], "solver.regularization"),
        (["exact.model='hertz'"], "exact.model"),
    ],
)
def test_bad_hertz_input_is_one_line_naming_the_key(tmp_path, overrides, key):
    sets = [f"--set={o}" for o in overrides]
    proc = subprocess.run([FEM2D, "run", "hertz", "--out", str(tmp_path), *sets], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert f"hertz.toml: {key}:" in lines[0] or f"--set {key}" in lines[0], lines[0]


def test_pressure_at_needs_a_contact_zone(tmp_path):
    case = tmp_path / "beam.toml"
    text = Path(__file__).resolve().parents[1].joinpath("cases", "cantilever.toml").read_text()
    case.write_text(text.replace("modes = 2", "modes = 2\npressure_at = [0.1]"))
    with pytest.raises(InputError, match=r"beam.toml: report.pressure_at: the model has no contact zone"):
        run(case)


@pytest.mark.slow
def test_hertz_observed_orders():
    """`fem2d refine hertz --levels 0-3`: p0 and a converge at about second order
    (the errors of levels 1-3 against the exact values, and the level-to-level changes)."""
    errors: dict[str, list[float]] = {"peak_pressure": [], "contact_half_width": []}
    values: dict[str, list[float]] = {"peak_pressure": [], "contact_half_width": []}
    for level in range(4):
        result = run("hertz", {"mesh.refine": level})
        for check in result.checks:
            errors[check["quantity"]].append(check["relative_error"])
            values[check["quantity"]].append(check["value"])
    p0, a = errors["peak_pressure"], errors["contact_half_width"]
    p0_orders = [math.log2(p0[i - 1] / p0[i]) for i in (1, 2, 3)]
    a_orders = [math.log2(a[i - 1] / a[i]) for i in (1, 2)]  # level 3 is at the half-space theory's 1e-5
    assert all(1.5 < q < 3.0 for q in p0_orders + a_orders), (p0_orders, a_orders)
    for name in values:
        changes = np.abs(np.diff(values[name]))
        orders = np.log2(changes[:-1] / changes[1:])
        assert np.all((orders > 1.5) & (orders < 3.0)), (name, orders)
    assert max(p0[2], a[2]) < 2e-3 and max(p0[3], a[3]) < 5e-4
