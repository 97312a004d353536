"""Figures for any run (fem2d run --plot, fem2d plot DIR) and the run command's output lines."""

import pytest

from fem2d.cli import main
from fem2d.studies.figures import record_from_dir


def test_run_plot_and_plot_dir(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "sdnd101", "--set", "obstacle.gap=1.001", "--plot", "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "sdnd101: SDND101: impact of a mass-spring on a stop (modal) [obstacle.gap=1.001]" in text
    wrote = text.strip().splitlines()[-1]
    for name in ("result.json", "history.npz", "sdnd101_impacts.png", "sdnd101_contact_forces.png"):
        assert str(out / name) in wrote and (out / name).stat().st_size > 1000
    record = record_from_dir(out)
    assert record.label == "obstacle.gap=1.001" and len(record.histories["time"]) > 100
    assert main(["plot", str(out), "--out", str(tmp_path / "again")]) == 0
    assert (tmp_path / "again" / "sdnd101_contact_forces.png").is_file()
    assert main(["plot", str(tmp_path / "nowhere")]) == 2
    assert "no result.json" in capsys.readouterr().err


def test_sliding_block_figure_has_the_exact_curve(tmp_path, capsys):
    out = tmp_path / "block"
    assert main(["run", "sdnv104a", "--set", "time.end=0.5", "--set", "report.at_times=[]", "--plot",
                 "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert str(out / "sdnv104a_history.png") in text and str(out / "sdnv104a_pressure.png") in text
    assert main(["plot", str(out)]) == 0
    assert "with the exact rigid block (event-driven)" in capsys.readouterr().out


def test_no_impact_no_peak_force(tmp_path):
    """SDND104's mass rests on the plane: a contact that never ends is no impact."""
    import json

    out = tmp_path / "wear"
    main(["run", "sdnd104", "--set", "time.end=5.0", "--set", "post.window=[4.0,5.0]", "--out", str(out), "--quiet"])
    q = json.loads((out / "result.json").read_text())["quantities"]
    assert q["n_impacts"] == 0 and q["f_max_abs"] == 0.0
    assert q["wear_power"] == pytest.approx(15.0, rel=0.1)


def test_refine_says_mesh_converged_and_refuses_a_case_without_mesh(tmp_path, capsys):
    from fem2d.studies.study import refine_specs

    assert main(["refine", "sdnd104", "--out", str(tmp_path / "no")]) == 2
    assert "no mesh size h to refine" in capsys.readouterr().err
    specs = refine_specs("sdnv104a", [0, 2], {"time.end": 1.0}, None, dt=0.01)
    assert [s.overrides["time.dt"] for s in specs] == [0.01, 0.0025]
    # the rigid block's motion does not change with h: no orders of round-off
    args = ["refine", "sdnv104a", "--levels", "0,1", "--set", "time.end=0.3", "--set", "report.at_times=[0.3]",
            "--out", str(tmp_path / "r"), "--quiet"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "x_at_0.30: mesh-converged" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("x_at_0.30 ")]
    assert len(rows) == 3 and rows[1][8] == "-"  # order column empty
    assert rows[2][1] == "mesh-converged"  # the convergence table: its bar is Fs x the range of the values


def test_plot_dir_of_a_run_on_a_relative_mesh_file(tmp_path, monkeypatch):
    """result.json records a relative mesh.file resolved against the case file's folder,
    so the run directory can be plotted from anywhere (the exact curve rebuilds the system)."""
    import json

    from fem2d.mesh import BUILDERS
    from fem2d.mesh.io import write_mesh

    cases = tmp_path / "cases"
    cases.mkdir()
    write_mesh(BUILDERS["sliding_block"](), cases / "block.msh")
    (cases / "user.toml").write_text('[case]\nextends = "sdnv104a"\nname = "user"\n'
                                     '[mesh]\nfile = "block.msh"\nelement = "quad4"\n')
    out = tmp_path / "run"
    assert main(["run", str(cases / "user.toml"), "--set", "time.end=0.3", "--set", "report.at_times=[]",
                 "--out", str(out), "--quiet"]) == 0
    recorded = json.loads((out / "result.json").read_text())["settings"]["mesh"]["file"]
    assert recorded == str((cases / "block.msh").resolve())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["plot", str(out), "--out", "figs"]) == 0
    assert (elsewhere / "figs" / "user_history.png").stat().st_size > 1000


@pytest.mark.parametrize("history, why", [
    ("object", r"Object arrays cannot be loaded"),
    ("text", r"not a NumPy \.npz archive"),
    ("strings", r"column 'time \[s\]' holds <U1, not numbers"),
], ids=["object array", "70 bytes of text", "strings"])
def test_plot_of_a_history_that_is_not_one_says_so_in_one_line(tmp_path, capsys, history, why):
    import re

    import numpy as np

    out = tmp_path / "r"
    assert main(["run", "sdnd101", "--out", str(out), "--quiet"]) == 0
    path = out / "history.npz"
    if history == "text":
        path.write_bytes(b"x" * 69 + b"\n")
    else:
        column = np.array([{"not": "numbers"}, 1], dtype=object) if history == "object" else np.array(["a", "b"])
        np.savez(path, **{"time [s]": column})
    capsys.readouterr()
    assert main(["plot", str(out), "--out", str(tmp_path / "figs")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"fem2d: error: {path}: not a fem2d history ("), err
    assert re.search(why, err), err
    assert not (tmp_path / "figs").exists()
