"""A result in Python can be saved and looked at as `fem2d run` does: Result.write,
Result.write_vtu, Result.plot; its histories under the files' column names; and
`dir(fem2d)` shows the public API."""

import csv
import json
import subprocess
import sys

import meshio
import numpy as np
import pytest

import fem2d
from fem2d.cli import main
from fem2d.errors import InputError

#: a short sliding-block run with every file fem2d run can write (pressure.csv and VTU included)
OVERRIDES = {"time.end": 0.2, "time.dt": 0.01, "report.snapshots": 10, "report.pressure_at": [0.1, 0.2]}


def _files(directory):
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*"))


@pytest.fixture(scope="module")
def result():
    return fem2d.run("sdnv104a", OVERRIDES)


@pytest.fixture(scope="module")
def composed():
    """The sliding block composed in Python, kept snapshots."""
    ramp = fem2d.PiecewiseLinear((0.0, 0.07), (0.0, 1.0))
    model = fem2d.Model(
        fem2d.mesh.sliding_block(),
        bodies=[fem2d.Body("PATIN", E=2.1e11, nu=0.0, rho=7000.0), fem2d.Body("BATI", E=1e11, nu=0.0, rho=0.0)],
        supports=[fem2d.Support("BATI"), fem2d.Support("R1"), fem2d.Support("R2")],
        springs=[fem2d.Spring("RESLAT", k_axial=12e3)],
        loads=[fem2d.Pressure("FSUP", 7e4, ramp), fem2d.Pressure("FLAT", 2e5, ramp)],
        contacts=[fem2d.Contact("LESC", "LMAI", mu=0.3)],
    )
    return fem2d.DirectAnalysis(model, fem2d.TimeStepping(dt=0.01, end=0.2),
                                fem2d.NewmarkScheme.generalized_alpha(0.7),
                                report=fem2d.Report("A", "dx", snapshots=5)).run()


def test_write_gives_the_files_and_numbers_of_fem2d_run(tmp_path, result):
    cli, python = tmp_path / "cli", tmp_path / "python"
    args = [f"{k}={json.dumps(v)}" for k, v in OVERRIDES.items()]
    assert main(["run", "sdnv104a", "--quiet", "--out", str(cli), "--csv", "--vtu", "10",
                 *[a for pair in args for a in ("--set", pair)]]) in (0, 1)
    assert result.write(python, csv=True) == python
    assert _files(python) == _files(cli)
    assert {"result.json", "history.npz", "history.csv", "pressure.csv", "sdnv104a.pvd", "vtu"} <= set(_files(python))
    ours, theirs = (json.loads((d / "result.json").read_text()) for d in (python, cli))
    for key in ("case", "settings", "overrides", "mesh", "quantities", "checks", "unchecked"):
        assert ours[key] == theirs[key], key
    with np.load(python / "history.npz") as a, np.load(cli / "history.npz") as b:
        assert a.files == b.files
        for name in a.files:
            np.testing.assert_array_equal(a[name], b[name])
    assert (python / "pressure.csv").read_text() == (cli / "pressure.csv").read_text()
    assert (python / "history.csv").read_text() == (cli / "history.csv").read_text()


def test_write_leaves_the_vtu_series_out_on_request_and_replaces_only_its_own_files(tmp_path, result):
    (tmp_path / "notes.txt").write_text("mine")
    result.write(tmp_path)
    assert (tmp_path / "sdnv104a.pvd").is_file()  # kept snapshots: the series by default
    result.write(tmp_path, vtu=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".fem2d-outputs.json", "history.npz", "notes.txt", "pressure.csv", "result.json"]


def test_write_vtu_writes_a_series_meshio_reads(tmp_path, result):
    pvd = result.write_vtu(tmp_path / "vtu-out")
    assert pvd == tmp_path / "vtu-out" / "sdnv104a.pvd"
    files = sorted((tmp_path / "vtu-out" / "vtu").glob("*.vtu"))
    assert len(files) == len(result.fields.snapshots) == 3 and pvd.read_text().count("<DataSet") == 3
    last = meshio.read(files[-1])
    u = result.fields.snapshots.u[-1]
    np.testing.assert_allclose(last.point_data["displacement"][:, 0], u[0::2][: len(last.points)])
    assert {"von_mises", "contact_pressure"} <= set(last.point_data)


def test_write_vtu_of_a_run_without_snapshots_says_how_to_keep_them(tmp_path, composed):
    import dataclasses

    bare = dataclasses.replace(composed, fields=dataclasses.replace(composed.fields, snapshots=None))
    with pytest.raises(InputError, match=r"Report\(snapshots=N\)"):
        bare.write_vtu(tmp_path)
    with pytest.raises(InputError, match=r"Report\(snapshots=N\)"):
        bare.write(tmp_path, vtu=True)
    assert not any(tmp_path.iterdir())
    modal = fem2d.run("sdnd101", {"time.end": 0.05, "post.window": [0.0, 0.05]})
    with pytest.raises(InputError, match="a modal run has no finite-element displacement field"):
        modal.write_vtu(tmp_path)
    assert "result.json" in _files(modal.write(tmp_path))  # its files without a VTU series


def test_plot_draws_the_standard_figures(tmp_path, result):
    paths = result.plot(tmp_path)
    names = [p.name for p in paths]
    for kind in ("history", "energy", "contact_forces", "pressure_profile"):
        assert f"sdnv104a_{kind}.png" in names
    assert all(p.parent == tmp_path and p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in paths)
    chosen = result.plot(tmp_path / "two", which=["energy", "contact_forces"])
    assert [p.name for p in chosen] == ["sdnv104a_energy.png", "sdnv104a_contact_forces.png"]
    assert sorted(p.name for p in (tmp_path / "two").iterdir()) == sorted(p.name for p in chosen)
    default = result.plot(which="history")  # no directory: a new temporary one
    assert [p.name for p in default] == ["sdnv104a_history.png"] and default[0].is_file()
    with pytest.raises(InputError, match="no figure named 'energies'"):
        result.plot(tmp_path, which=["energies"])


def test_a_model_composed_in_python_writes_and_plots(tmp_path, composed):
    out = composed.write(tmp_path / "run")
    assert {"result.json", "history.npz", "fem2d.pvd", "vtu"} <= set(_files(out))
    doc = json.loads((out / "result.json").read_text())
    assert doc["case"] == "fem2d" and doc["quantities"] == json.loads(json.dumps(composed.quantities))
    names = [p.name for p in composed.plot(tmp_path / "figures")]
    assert {"fem2d_history.png", "fem2d_energy.png", "fem2d_contact_forces.png"} <= set(names)
    assert main(["plot", str(out)]) == 0 and (out / "fem2d_energy.png").is_file()  # fem2d plot reads it back


def test_histories_are_the_files_columns_under_their_plain_names(tmp_path, result):
    result.write(tmp_path, csv=True, vtu=False)
    with np.load(tmp_path / "history.npz") as data:
        assert data.files == list(result.columns)
        for column in data.files:
            np.testing.assert_array_equal(data[column], result.columns[column])
    with (tmp_path / "history.csv").open(newline="") as f:
        header = next(csv.reader(f))
    assert header == [c for c, v in result.columns.items() if np.ndim(v) == 1]
    assert list(result.columns)[:3] == ["time [s]", "dt [s]", "u [m]"]
    for (name, values), column in zip(result.histories.items(), result.columns):
        unit = result.units[name]
        assert column == (f"{name} [{unit}]" if unit else name) and result.columns[column] is values


def test_dir_of_fem2d_lists_the_public_api():
    names = dir(fem2d)
    for name in ("Model", "Body", "DirectAnalysis", "ModalAnalysis", "run", "Result", "Report", "Fem2dWarning",
                 "StrictRunError", "Fem2dError", "InputError", "mesh", "model"):
        assert name in names
    assert names == sorted(fem2d.__all__)  # dir() sorts what __dir__ gives
    for name in fem2d.__all__:
        assert getattr(fem2d, name) is not None, name


def test_fem2d_model_is_the_model_package():
    # a fresh interpreter: the attribute as `import fem2d` alone gives it (no submodule imported first)
    code = ("import fem2d; print(fem2d.model.__name__, fem2d.mesh.__name__, fem2d.model.Body is fem2d.Body); "
            "print(hasattr(fem2d, 'no_such_name'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["fem2d.model", "fem2d.mesh", "True", "False"]
