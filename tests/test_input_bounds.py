"""Non-finite, huge and tiny numbers never reach Gmsh, the solver or an int conversion.

Each one is ONE line naming the file and the key, exit 2, through the command line;
the Python API raises the same errors (the mesh builders a MeshError, the model
objects a ModelError)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import fem2d
from fem2d.cli import main
from fem2d.errors import InputError, MeshError, ModelError
from fem2d.mesh import builders
from fem2d.mesh.builders import rectangle, sliding_block
from fem2d.mesh.disc import half_disc
from fem2d.mesh.sector import annulus_sector
from fem2d.model import TimeStepping

BOUNDED = [
    ("compression", ["mesh.params.length=nan"], r"mesh\.params\.length: .*got nan"),
    ("compression", ["mesh.params.length=inf"], r"mesh\.params\.length: .*got inf"),
    ("compression", ["mesh.params.length=1e308"], r"mesh\.params\.length: .*1e\+150\] m, got 1e\+308"),
    ("compression", ["mesh.params.height=1e-300"], r"mesh\.params\.height: .*\[1e-06, "),
    ("compression", ["mesh.params.nx=100000", "mesh.params.ny=100000"], r"mesh\.params\.nx: .*1e\+10 cells"),
    ("compression", ["mesh.params.origin=[1e308,0.0]"], r"mesh\.params\.origin: "),
    ("sdnv104a", ["mesh.params.support_length=nan"], r"mesh\.params\.support_length: "),
    ("sdnv104a", ["mesh.params.block_cells=100000"], r"mesh\.params\.block_cells: .*cells"),
    ("sdnv104a", ["time.dt=5e-324"], r"time\.dt: .* makes inf steps"),
    ("sdnv104a", ["time.dt=1e-300"], r"time\.dt: .*expected at most 1e\+09 steps"),
    ("sdnv104a", ["time.end=1e300"], r"time\.dt: .*up to end = 1e\+300 s"),
    ("sdnv104a", ["time.min_dt=1e-300"], r"time\.min_dt: .*does not move the time"),
    ("sdnv104a", ["materials.1.E=1e308"], r"materials\[1\]\.E: expected a number > 0 <= 1e\+20, got 1e\+308"),
    ("sdnv104a", ["materials.0.rho=1e300"], r"materials\[0\]\.rho: expected a number >= 0 <= 1e\+12"),
    ("sdnv104a", ["model.thickness=1e-308"], r"model\.thickness: expected a number >= 1e-06 <= 1e\+150"),
    ("bar_wall", ["supports.0.value=1e308"], r"supports\[0\]\.value: expected a number >= -1e\+150 <= 1e\+150"),
    ("bar_wall", ["time.beta=1e308"], r"time\.beta: expected a number >= 1e-06 <= 1, got 1e\+308"),
    ("rolling_disc", ["time.beta=1e-308"], r"time\.beta: expected a number >= 1e-06 <= 1, got 1e-308"),
    ("hertz", ["mesh.params.focus=1e-308"], r"mesh\.params\.focus: .*\[1e-6, 0\.5\)"),
]


@pytest.mark.parametrize("case, sets, culprit", BOUNDED, ids=[" ".join(s)[:50] for _, s, _ in BOUNDED])
def test_an_out_of_range_number_is_one_line_naming_the_key(tmp_path, capsys, case, sets, culprit):
    args = [a for pair in sets for a in ("--set", pair)]
    status = main(["run", case, *args, "--quiet", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fem2d: error: ") and f"{case}.toml: " in lines[0], err
    assert re.search(culprit, lines[0]), lines[0]
    assert not (tmp_path / "result.json").exists()


def test_the_python_api_raises_the_same_errors():
    with pytest.raises(InputError, match=r"mesh\.params\.length: .*got nan"):
        fem2d.run("compression", {"mesh.params.length": float("nan")})
    for build, kwargs in [(rectangle, {"length": float("nan")}), (rectangle, {"height": 1e308}),
                          (rectangle, {"nx": 10**5, "ny": 10**5}), (sliding_block, {"block_width": float("inf")}),
                          (half_disc, {"radius": 1e-9}), (annulus_sector, {"outer_radius": float("nan")}),
                          (annulus_sector, {"radial_cells": 10**4, "arc_cells": 10**4})]:
        with pytest.raises(MeshError, match=r"^\w+: \w+ "):
            build(**kwargs)
    with pytest.raises(ModelError, match=r"TimeStepping\.dt: .*inf steps"):
        TimeStepping(dt=5e-324, end=1.0)
    with pytest.raises(ModelError, match=r"Model\.mesh: expected a fem2d\.mesh\.Mesh .*got None"):
        fem2d.Model(None, bodies=[])
    with pytest.raises(ModelError, match=r"Model\.bodies: expected a list, got None"):
        fem2d.Model(rectangle(), bodies=None)


def test_a_gmsh_failure_is_a_mesh_error(monkeypatch):
    """Gmsh raises a bare Exception when it cannot mesh (out of memory inside it): a MeshError naming the builder."""
    gmsh = builders._gmsh()

    def fail(dim):
        raise Exception("Could not allocate memory")  # what gmsh's Python API raises

    monkeypatch.setattr(gmsh.model.mesh, "generate", fail)
    with pytest.raises(MeshError, match=r"^rectangle\(.*gmsh could not mesh it \(Could not allocate memory\)"):
        rectangle()


def test_cells_turned_inside_out_cut_the_step():
    """90 % compression in one load level: the level turns cells inside out, is cut, and
    the cut levels reach the exact stretch 0.1 (P = -1.347e8 N)."""
    result = fem2d.run("compression", {"supports.2.value": -0.9, "time.dt": 1.0})
    assert result.timing["step_cuts"] >= 1
    assert any(re.fullmatch(r"\d+ step\(s\) turned cells inside out and were cut into 5 \(the shorter steps "
                            r"converged\)", note) for note in result.notes), result.notes
    assert result.quantities["TOP_reaction_y"] == pytest.approx(-134684016.2, rel=1e-8)


def test_a_body_crushed_flat_is_one_line_saying_where_and_when(tmp_path, capsys):
    status = main(["run", "compression", "--set", "supports.2.value=-1.0", "--quiet", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert re.search(r"^fem2d: error: no convergence at t = 0\.99\d* s .*on a longer step from t = 0\.99\d* s, "
                     r"group 'BODY': \d cell\(s\) turned inside out .*crushes the body there; .* holds the converged "
                     r"steps, up to t = 0\.99\d* s$", lines[0]), lines[0]
    written = json.loads((tmp_path / "result.json").read_text())
    assert written["quantities"] == {} and "the computation failed" in written["warnings"][0]
    times = np.load(tmp_path / "history.npz")["time [s]"]
    assert 0.99 < times[-1] < 1.0 and np.all(np.diff(times) > 0)


def test_the_python_api_keeps_the_converged_steps_on_the_error():
    with pytest.raises(fem2d.errors.ConvergenceError) as info:
        fem2d.run("compression", {"supports.2.value": -1.0})
    partial = info.value.result
    assert partial.quantities == {} and partial.case.name == "compression"
    assert 0.99 < partial.histories["time"][-1] < 1.0


PENALTY = {"contact.method": "penalty", "contact.e_n": 1e9}


@pytest.mark.parametrize("e_t", ["1e100", "1e300"])
def test_a_tangential_penalty_beyond_the_bodys_stiffness_is_refused(tmp_path, capsys, e_t):
    sets = [a for key, value in {**PENALTY, "contact.e_t": e_t}.items() for a in ("--set", f"{key}={value}")]
    sets[1] = 'contact.method="penalty"'
    status = main(["run", "sdnv104a", *sets, "--quiet", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 2, err
    assert re.fullmatch(r"fem2d: error: \S+sdnv104a\.toml: contact\.e_t: 1e\+\d+ N/m is .* times the slave body's "
                        r"E x thickness .*round-off.*\n", err), err


def test_a_penetration_deeper_than_a_quarter_of_an_edge_is_a_warning(monkeypatch, tmp_path, capsys):
    """With the bound lifted, e_t = 1e100 lets the block sink (0.14 m in 0.2 s through 0.2 m edges): the run
    says so, and under --strict exits 1."""
    import fem2d.case.build as build

    monkeypatch.setattr(build, "PENALTY_LIMIT", float("inf"))
    short = {**PENALTY, "contact.e_t": 1e100, "time.end": 0.2, "references": [], "report.at_times": []}
    with pytest.warns(fem2d.Fem2dWarning):
        result = fem2d.run("sdnv104a", short)
    assert result.quantities["max_penetration"] > 0.05
    sunk = [w for w in result.warnings if w.startswith("contact: slave nodes went")]
    assert len(sunk) == 1 and "more than 25 % of the shortest slave edge (0.2 m)" in sunk[0], result.warnings
    assert not [w for w in fem2d.run("sdnv104b", {"time.end": 0.2, "references": [], "report.at_times": []}).warnings
                if "into their master" in w]
    status = main(["run", "sdnv104a", "--set", 'contact.method="penalty"', "--set", "contact.e_n=1e9", "--set",
                   "contact.e_t=1e100", "--set", "time.end=0.2", "--set", "references=[]",
                   "--set", "report.at_times=[]",
                   "--strict", "--quiet", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 1 and "contact: slave nodes went" in err, err


def test_a_prescribed_state_that_crushes_the_body_at_the_start_is_one_line(tmp_path, capsys):
    """The base of the compression block held 1e15 m away from t = 0: no step to cut, one line, exit 1."""
    status = main(["run", "compression", "--set", "supports.0.value=1e15", "--quiet", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 1 and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "the state at t = 0 s turns cells inside out (group 'BODY'" in err and "crush the body" in err, err


def test_a_quiet_time_longer_than_any_run_is_no_overflow():
    """post.quiet = 1e308 s (an int(inf) in the impact count): every release is inside one impact."""
    result = fem2d.run("sdnv104a", {"post.quiet": 1e308, "time.end": 0.5, "references": [], "report.at_times": []})
    assert result.quantities["n_impacts"] <= 1


def test_model_objects_refuse_non_finite_loads_and_times():
    from fem2d.model.timefunctions import PiecewiseLinear

    with pytest.raises(ModelError, match=r"Pressure\('FSUP'\)\.value: expected a finite pressure \(Pa\), got nan"):
        fem2d.Pressure("FSUP", float("nan"))
    with pytest.raises(ModelError, match=r"PiecewiseLinear\.t: expected finite numbers"):
        PiecewiseLinear((0.0, float("nan")), (0.0, 1.0))
    with pytest.raises(ModelError, match=r"PiecewiseLinear\.values: expected finite numbers"):
        PiecewiseLinear((0.0, 1.0), (0.0, float("inf")))
    with pytest.raises(ModelError, match=r"TimeStepping\.dt: expected a time > 0 \(s\), got '0\.1'"):
        TimeStepping(dt="0.1", end=1.0)


def test_a_stiffness_in_the_denormal_range_is_one_line_not_a_solver_traceback(tmp_path, capsys):
    """The cantilever's natural frequencies (report.modes) with E = 1e-308 Pa: SuperLU's shift-invert
    finds the matrix singular; one line, exit 1."""
    status = main(["run", "cantilever", "--set", "materials.0.E=1e-308", "--quiet", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 1 and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "the natural modes cannot be computed: the shifted stiffness is singular" in err, err
