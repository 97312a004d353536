"""Every bad input and every fault gets a clear, safe outcome.

Each bad input below is run through the command line (in this process, through
``fem2d.cli.main``) and asserted to end with the expected exit status (2: the
input is at fault; 1: the computation failed), ONE line on stderr starting
``fem2d: error:`` that names the culprit (file, key or flag), no traceback, and
no result.json. The same inputs through ``fem2d.run`` raise a fem2d error.
Faults (full disk, read-only output, broken pipe, meshio's sys.exit, gmsh
failing to load) and the outputs-replaced-together mechanism follow; the
signal tests are in ``test_reliability_signals.py``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import fem2d
from fem2d.cli import main
from fem2d.errors import Fem2dError, InputError, NumericalError, OutputError

# (case, --set pairs, exit status, regex naming the culprit)
BAD_SETTINGS = [
    # one key, wrong type or range (the schema)
    ("sdnv104a", ["time.dt=-1"], 2, r"time\.dt: expected a number > 0"),
    ("sdnv104a", ["time.dt=0"], 2, r"time\.dt: expected a number > 0"),
    ("sdnv104a", ["time.dt=abc"], 2, r"time\.dt: .*'abc'"),
    ("sdnv104a", ["time.dt=[1,2]"], 2, r"time\.dt: "),
    ("sdnv104a", ["time.dt=1e400"], 2, r"time\.dt: .*inf"),
    ("sdnv104a", ["time.dt=nan"], 2, r"time\.dt: "),
    ("sdnv104a", ["time.end=-3"], 2, r"time\.end: "),
    ("sdnv104a", ["time.end=inf"], 2, r"time\.end: "),
    ("sdnv104a", ["time.dt=10"], 2, r"time\.dt: 10.0 is larger than time\.end"),
    ("sdnv104a", ["time.scheme=rk4"], 2, r"time\.scheme: expected one of"),
    ("sdnv104a", ["time.alpha=0.5"], 2, r"time\.alpha: "),
    ("sdnv104a", ["time.rho_inf=2"], 2, r"time\.rho_inf: "),
    ("sdnv104a", ["time.beta=-0.25"], 2, r"time\.beta: "),
    ("sdnv104a", ["time.cut_factor=1"], 2, r"time\.cut_factor: "),
    ("sdnv104a", ["time.min_dt=0"], 2, r"time\.min_dt: "),
    ("sdnv104a", ['exact.model="no such model"'], 2,
     r"exact\.model: unknown exact model 'no such model'; expected one of .*sliding_block"),
    ("cantilever", ['exact.model="x"'], 2, r"cantilever\.toml: exact\.model: unknown exact model 'x'"),
    ("sdnv104a", ["time.min_dt=0.1"], 2, r"time\.min_dt: 0\.1 s is larger than time\.dt = 0\.01 s"),
    ("sdnv104a", ["mesh.element=tri10"], 2, r"mesh\.element: expected one of"),
    ("sdnv104a", ["mesh.refine=-1"], 2, r"mesh\.refine: "),
    ("sdnv104a", ["mesh.refine=99"], 2, r"mesh\.refine: "),
    ("sdnv104a", ["mesh.refine=1.5"], 2, r"mesh\.refine: "),
    ("sdnv104a", ['mesh.geometry="spaceship"'], 2, r"mesh\.geometry: unknown builder 'spaceship'"),
    ("sdnv104a", ["materials.0.nu=0.5"], 2, r"materials\[0\]\.nu: "),
    ("sdnv104a", ["materials.0.E=0"], 2, r"materials\[0\]\.E: "),
    ("sdnv104a", ["materials.0.rho=-1"], 2, r"materials\[0\]\.rho: "),
    ("sdnv104a", ["materials.0.group=NOPE"], 2, r"NOPE"),
    ("sdnv104a", ["materials.9.E=1"], 2, r"--set materials\.9\.E: index 9 out of range"),
    ("sdnv104a", ["loads.5.value=1"], 2, r"--set loads\.5\.value: index 5 out of range"),
    ("sdnv104a", ["loads.0.group=GHOST"], 2, r"loads\[0\]\.group: .*no group named 'GHOST'"),
    ("sdnv104a", ["loads.0.function=nope"], 2, r"loads\[0\]\.function: no \[functions\.nope\]"),
    ("sdnv104a", ["loads.0.type=torque"], 2, r"loads\[0\]\.type: "),
    ("sdnv104a", ["model.thickness=0"], 2, r"model\.thickness: "),
    ("sdnv104a", ["model.hypothesis=axisymmetric"], 2, r"model\.hypothesis: "),
    ("sdnv104a", ["contact.mu=-1"], 2, r"contact\.mu: "),
    ("sdnv104a", ["contact.method=mortar"], 2, r"contact\.method: expected one of"),
    ("sdnv104a", ["contact.max_iter=0"], 2, r"contact\.max_iter: "),
    ("sdnv104a", ["contact.e_n=0"], 2, r"contact\.e_n: "),
    ("sdnv104a", ["contact.method=penalty", "contact.e_n=1e30"], 2,
     r"contact\.e_n: 1e\+30 N/m is 4\.8e\+18 times the slave body's E x thickness \(2\.1e\+11 N/m\)"),
    ("sdnv104a", ["contact.rho_n=-1"], 2, r"contact\.rho_n: "),
    ("sdnv104a", ["contact.integration=exact"], 2, r"contact\.integration: "),
    ("sdnv104a", ["contact.slave=NOPE"], 2, r"contact\.slave: .*NOPE"),
    ("sdnv104a", ["contact.method=penalty", "contact.e_n=1e9", "contact.slave=NOPE"], 2, r"contact\.slave: .*NOPE"),
    ("sdnv104a", ["contact.master=NOPE"], 2, r"contact\.master: .*NOPE"),
    ("sdnv104a", ["solver.linear=mumps"], 2, r"unknown solver 'mumps'"),
    ("sdnv104a", ["report.component=dz"], 2, r"report\.component: "),
    ("sdnv104a", ["report.node=NOPE"], 2, r"report\.node: .*no group named 'NOPE'"),
    ("sdnv104a", ["report.extrema=-1"], 2, r"report\.extrema: "),
    ("sdnv104a", ["report.snapshots=-2"], 2, r"report\.snapshots: "),
    ("sdnv104a", ["report.at_times=[-1.0]"], 2, r"report\.at_times\[0\]: "),
    ("sdnv104a", ["report.at_times=1.7"], 2, r"report\.at_times: "),
    ("sdnv104a", ["post.window=[1.0]"], 2, r"post\.window: "),
    ("sdnv104a", ["post.window=[3.0, 2.0]"], 2, r"post\.window: expected \[t_start, t_end\]"),
    ("sdnv104a", ["post.blocks=0"], 2, r"post\.blocks: "),
    ("sdnv104a", ["case.kind=quasistatic"], 2, r"case\.kind: "),
    ("sdnv104a", ["case.kind=static"], 2, r"time\.scheme: .* a static case has no time scheme"),
    ("sdnv104a", ["time.nope=1"], 2, r"--set time\.nope: unknown key"),
    ("sdnv104a", ["nope=1"], 2, r"--set nope: unknown key"),
    ("sdnv104a", ["time=1"], 2, r"--set time: time is a table; set one of its keys, e.g\. time\.dt"),
    ("sdnv104a", ["materials=1"], 2, r"--set materials: materials is a list of tables; .* e\.g\. materials\.0\.E"),
    ("sdnv104a", ["time.dt"], 2, r"--set 'time\.dt': expected KEY=VALUE"),
    ("sdnv104a", ["=1"], 2, r"--set '=1': expected KEY=VALUE"),
    ("sdnv104a", ["time.dt=abc%"], 2, r"--set: cannot read 'abc%'"),
    ("sdnv104a", ['time.dt="0.01'], 2, r"--set: cannot read"),
    ("sdnd101", ["modal.integrator=rk"], 2, r"modal\.integrator: expected one of"),
    ("sdnd101", ["modal.n_modes=0"], 2, r"modal\.n_modes: "),
    ("sdnd101", ["modal.damping=-0.1"], 2, r"modal\.damping: "),
    ("sdnd101", ["modal.archive=0"], 2, r"modal\.archive: "),
    ("sdnd101", ["obstacle.type=sphere"], 2, r"obstacle\.type: "),
    ("sdnd101", ["obstacle.cn=-1"], 2, r"obstacle\.cn: "),
    ("sdnd101", ["obstacle.normal=[1.0]"], 2, r"obstacle\.normal: "),
    ("sdnd101", ["obstacle.node=NOPE"], 2, r"NOPE"),
    ("sdnd104", ["excitation.omega=-1"], 2, r"excitation\.omega: "),
    ("sdnd104", ["excitation.direction=[1.0, 0.0, 0.0]"], 2, r"excitation\.direction: "),
    ("sdnd104", ["post.threshold=-1"], 2, r"post\.threshold: "),
    # meaningless combinations of settings
    ("sdnv104a", ["report.at_times=[1.7, 3.4, 10.0]"], 2, r"report\.at_times: \[10\.0\] outside the run"),
    ("sdnv104a", ["time.end=1.0", "report.at_times=[1.7]"], 2, r"report\.at_times: \[1\.7\] outside the run"),
    ("sdnd104", ["post.window=[4.0, 20.0]"], 2, r"post\.window: \[4\.0, 20\.0\] outside the run"),
    ("sdnd104", ["post.window=[14.0, 20.0]"], 2, r"post\.window: .*outside the run"),
    ("sdnd104", ["time.end=2.0"], 2, r"post\.window: \[4\.0, 12\.0\] outside the run"),
    ("sdnd104", ["time.end=6.0", "post.window=[4.0, 12.0]"], 2, r"post\.window: \[4\.0, 12\.0\] outside"),
    ("sdnv104a", ["contact.master=LESC"], 2, r"contact\.master: 'LESC' is also contact\.slave"),
    ("sdnv104a", ["contact.tolerance=1e-50"], 2, r"contact\.tolerance: 1e-50 is below round-off"),
    ("sdnv104a", ["contact.tolerance=1e-16"], 2, r"contact\.tolerance: "),
    ("sdnd101", ["obstacle.kn=0"], 2, r"obstacle\.kn: 0 N/m: an obstacle is declared"),
    ("sdnd104", ["modal.n_modes=5"], 2, r"modal\.n_modes: 5 modes asked, the model has 1 free dofs"),
    ("sdnd101", ["modal.n_modes=3"], 2, r"modal\.n_modes: "),
    ("sdnv104a", ["time.dt=0.1", "time.dt=0.2"], 2, r"--set time\.dt: given twice"),
    ("sdnv104a", ["time.scheme=newmark", "time.gamma=0.3"], 2, r"time\.gamma: 0\.3 < 1/2"),
    # a static body pulled off the contact that alone holds it: no equilibrium (found at the first level)
    ("hertz", ["mesh.refine=0", "loads.0.value=-3.6e7"], 2,
     r"hertz\.toml: loads\[0\]\.value: at t = 0\.5 s it pulls a body off its contact, and nothing else holds"),
    # stability, proven by the settings alone (exit 2)
    ("sdnd101", ["references=[]", "time.dt=0.05"], 2, r"time\.dt: 0\.05 s is above the stability limit"),
    ("sdnd101", ["time.dt=0.025"], 2, r"time\.dt: .*2/omega_max = 0\.0199"),
    ("sdnd101", ["modal.integrator=devogelaere", "time.dt=0.05"], 2,
     r"time\.dt: .*'devogelaere' integrator, 2\*sqrt\(2\)/omega_max = 0\.02814"),
    ("sdnd104", ["time.dt=0.1"], 2, r"time\.dt: 0\.1 s is above the stability limit"),
    ("sdnd104", ["time.dt=0.001"], 2, r"time\.dt: .*stability limit"),
    # stability, shown by the run (exit 1)
    ("sdnv104a", ["time.scheme=newmark", "time.beta=0.1", "time.dt=0.05"], 1,
     r"time\.beta: the state grows without bound .*conditionally stable"),
]


def _ids(params):
    return [f"{case}:{' '.join(sets)}"[:60] for case, sets, _, _ in params]


def _assert_clean(capsys, status, expected, culprit):
    err = capsys.readouterr().err
    assert status == expected, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fem2d: error: "), err
    assert re.search(culprit, lines[0]), lines[0]


@pytest.mark.parametrize("case, sets, status, culprit", BAD_SETTINGS, ids=_ids(BAD_SETTINGS))
def test_bad_setting_is_one_line_naming_the_key(tmp_path, capsys, case, sets, status, culprit):
    args = [a for pair in sets for a in ("--set", pair)]
    out = tmp_path / "out"
    _assert_clean(capsys, main(["run", case, *args, "--quiet", "--out", str(out)]), status, culprit)
    assert not (out / "result.json").exists()


API_SAMPLE = [p for i, p in enumerate(BAD_SETTINGS) if i % 6 == 0 or p[2] == 1]


@pytest.mark.parametrize("case, sets, status, culprit", API_SAMPLE, ids=_ids(API_SAMPLE))
def test_the_python_api_raises_fem2d_errors(case, sets, status, culprit):
    with pytest.raises(Fem2dError) as info:
        fem2d.run(case, sets)
    assert info.value.exit_status == status
    assert isinstance(info.value, NumericalError if status == 1 else InputError)
    # the command line words an override as --set (fem2d/cli/); below it, the error says "override"
    assert re.search(culprit.replace("--set", "override"), str(info.value))


# --- case files ---------------------------------------------------------------------------------------------

GOOD_HEAD = '[case]\nname = "c"\nkind = "direct"\n'
MINIMAL = (GOOD_HEAD + '[mesh]\nfile = "{mesh}"\n[[materials]]\ngroup = "B"\nE = 1.0\nnu = 0.0\nrho = 1.0\n'
           "[time]\ndt = 0.1\nend = 1.0\n")

BAD_FILES = [
    ("latin1", '[case]\nname = "c"\ntitle = "caf\xe9"\n'.encode("latin-1"),
     r"c\.toml: byte 30 is not UTF-8 text \(byte 0xe9\)"),
    ("utf16", '[case]\nname = "c"\n'.encode("utf-16"), r"c\.toml: byte 0 is not UTF-8"),
    ("binary", bytes(range(256)), r"c\.toml: .*not UTF-8"),
    ("not toml", b"this is not toml\n", r"c\.toml: not valid TOML"),
    ("unterminated", b'[case]\nname = "c\n', r"c\.toml: not valid TOML"),
    ("empty", b"", r"c\.toml: case"),
    ("no kind", b'[case]\nname = "c"\n', r"c\.toml: case\.kind"),
    ("unknown section", GOOD_HEAD.encode() + b"[engine]\nx = 1\n", r"c\.toml: .*engine"),
    ("unknown key", GOOD_HEAD.encode() + b"[time]\nspeed = 1\n", r"c\.toml: time\.speed"),
    ("no dt", GOOD_HEAD.encode() + b"[time]\nend = 1.0\n", r"c\.toml: time\.dt: missing"),
    ("no mesh", GOOD_HEAD.encode() + b"[time]\ndt = 0.1\nend = 1.0\n", r"c\.toml: mesh: give exactly one"),
    ("no materials", GOOD_HEAD.encode() + b'[mesh]\ngeometry = "rectangle"\n[time]\ndt = 0.1\nend = 1.0\n',
     r"c\.toml: materials: "),
    ("extends nothing", b'[case]\nname = "c"\nextends = "nope"\n', r"unknown case 'nope'"),
    ("extends itself", b'[case]\nname = "c"\nextends = "c.toml"\n', r"c\.toml: case\.extends makes a cycle"),
    ("extends a number", b'[case]\nname = "c"\nextends = 3\n', r"c\.toml: case\.extends: "),
    ("missing mesh file", MINIMAL.format(mesh="absent.msh").encode(), r"absent\.msh: mesh file not found"),
    ("mesh is garbage", MINIMAL.format(mesh="garbage.msh").encode(), r"garbage\.msh: cannot read mesh"),
    ("mesh is toml", MINIMAL.format(mesh="c.toml").encode(), r"c\.toml: cannot read mesh"),
    ("mesh is a directory", MINIMAL.format(mesh="sub").encode(), r"sub: mesh file not found"),
    ("dt > end", GOOD_HEAD.encode() + b"[time]\ndt = 2.0\nend = 1.0\n", r"c\.toml: time\.dt: 2\.0 is larger"),
]


@pytest.mark.parametrize("content, culprit", [b[1:] for b in BAD_FILES], ids=[b[0] for b in BAD_FILES])
def test_bad_case_file_is_one_line_naming_the_file(tmp_path, capsys, content, culprit):
    (tmp_path / "garbage.msh").write_bytes(b"\x00\x01 not a mesh at all\n")
    (tmp_path / "sub").mkdir()
    case = tmp_path / "c.toml"
    case.write_bytes(content)
    _assert_clean(capsys, main(["run", str(case), "--quiet", "--out", str(tmp_path / "out")]), 2, culprit)
    with pytest.raises(InputError):
        fem2d.run(str(case))


def test_a_case_file_that_is_a_directory_or_missing(tmp_path, capsys):
    (tmp_path / "d.toml").mkdir()
    _assert_clean(capsys, main(["run", str(tmp_path / "d.toml"), "--out", str(tmp_path)]), 2,
                  r"d\.toml: is a directory; expected a case file")
    _assert_clean(capsys, main(["run", f"{tmp_path}/"]), 2, rf"{tmp_path}: is a directory; expected a case file")
    _assert_clean(capsys, main(["run", str(tmp_path / "gone.toml")]), 2, r"gone\.toml: case file not found")
    _assert_clean(capsys, main(["run", "nope"]), 2, r"unknown case 'nope'")


# --- command-line flags -------------------------------------------------------------------------------------

BAD_FLAGS = [
    (["run", "sdnd101", "--vtu", "-1"], r"--vtu"),
    (["run", "sdnv104a", "--vtu", "0"], r"--vtu 0: expected a stride >= 1"),
    (["study", "sdnd101", "--grid", "time.dt=5e-4,2.5e-4", "--scheduler", "local", "--timeout", "-5"],
     r"--timeout -5\.0: expected a number of seconds > 0"),
    (["study", "sdnd101", "--grid", "time.dt=5e-4", "--timeout", "nan"], r"--timeout nan: "),
    (["run", "sdnd101", "--vtu"], r"--vtu: sdnd101 is a modal case"),
    (["validate", "--workers", "0"], r"--workers 0: expected an integer >= 1"),
    (["validate", "nope", "--workers", "1"], r"unknown case 'nope'"),
    (["validate", "gone.toml", "--workers", "1"], r"gone\.toml: case file not found"),
    (["compare", "cantilever", "--methods", "penalty"], r"--methods: cantilever has no contact zone"),
    (["compare", "sdnv104a", "--methods", "mortar"], r"contact\.method: expected one of"),
    (["compare", "sdnv104a", "--elements", "tri9"], r"mesh\.element: expected one of"),
    (["compare", "sdnv104a", "--solvers", "mumps"], r"solver\.linear: unknown solver 'mumps'"),
    (["refine", "sdnv104a", "--levels", "a-b"], r"--levels"),
    (["refine", "sdnv104a", "--levels", "0-99"], r"mesh\.refine: "),
    (["study", "sdnd101"], r"--grid"),
    (["study", "sdnd101", "--grid", "time.dt"], r"--grid"),
    (["study", "sdnd101", "--grid", "time.nope=1,2"], r"time\.nope: unknown key"),
    (["study", "sdnd101", "--grid", "time.dt=0.001", "--scheduler", "not a url"], r"--scheduler not a url: "),
    (["study", "sdnd101", "--grid", "time.dt=0.001", "--scheduler", "tcp://h:1", "--workers", "2"], r"--workers"),
]


@pytest.mark.parametrize("argv, culprit", BAD_FLAGS, ids=[" ".join(a)[:50] for a, _ in BAD_FLAGS])
def test_bad_flag_is_one_line_naming_the_flag(tmp_path, capsys, argv, culprit):
    out = ["--out", str(tmp_path / "o")]
    _assert_clean(capsys, main([*argv, *out, *(["--quiet"] if argv[0] != "validate" else [])]), 2, culprit)


# --- output directories -------------------------------------------------------------------------------------


def test_output_that_is_a_file_or_under_a_file_fails_before_running(tmp_path, capsys, monkeypatch):
    import fem2d.runs.result as runner

    def must_not_run(*args, **kwargs):
        raise AssertionError("the run started although its output cannot be written")

    monkeypatch.setattr(runner, "run", must_not_run)
    afile = tmp_path / "afile"
    afile.write_text("x")
    for command in (["run", "sdnd101"], ["validate", "sdnd101"], ["study", "sdnd101", "--grid", "time.dt=1e-3"],
                    ["compare", "cantilever", "--elements", "quad4"], ["refine", "cantilever", "--levels", "0"]):
        _assert_clean(capsys, main([*command, "--out", str(afile), "--quiet"]), 2, r"afile: is a file")
        _assert_clean(capsys, main([*command, "--out", str(afile / "sub"), "--quiet"]), 2,
                      r"afile/sub: a parent is a file")
    assert afile.read_text() == "x"


def _deny(monkeypatch, code: int):
    import errno
    import tempfile

    real = tempfile.mkstemp

    def refusing(*args, **kwargs):
        raise OSError(code, os.strerror(code), kwargs.get("dir", "?"))

    monkeypatch.setattr(tempfile, "mkstemp", refusing)
    return real, errno


@pytest.mark.parametrize("code, what", [(28, "the disk is full"), (30, "Read-only file system"),
                                        (13, "Permission denied"), (122, "quota")])
def test_unwritable_output_fails_before_running(tmp_path, capsys, monkeypatch, code, what):
    """A patched file system (the real ones: test_reliability_signals.py)."""
    _deny(monkeypatch, code)
    _assert_clean(capsys, main(["run", "sdnd101", "--quiet", "--out", str(tmp_path / "o")]), 2,
                  rf"{tmp_path / 'o'}: cannot write \(.*{what}")


def test_a_disk_full_while_writing_keeps_the_previous_outputs(tmp_path, capsys, monkeypatch):
    out = tmp_path / "o"
    assert main(["run", "sdnd101", "--quiet", "--out", str(out), "--set", "time.end=0.1"]) == 1
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    import fem2d.io.files as files

    real = files.write_text_atomic

    def full(path, text):
        if Path(path).name == "result.json":  # history.npz was written: the disk fills up at the next file
            raise OSError(28, "No space left on device", str(path))
        real(path, text)

    monkeypatch.setattr(files, "write_text_atomic", full)
    _assert_clean(capsys, main(["run", "sdnd101", "--quiet", "--out", str(out), "--set", "time.end=0.2"]), 2,
                  r"result\.json: cannot write \(the disk is full\)")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # the old set, whole
    assert [p.name for p in tmp_path.iterdir()] == ["o"]  # no staging directory left behind


# --- outputs replaced together ------------------------------------------------------------------------------


def test_outputs_are_replaced_together_and_foreign_files_kept(tmp_path):
    from fem2d.io.outdir import MANIFEST, replaced_together

    out = tmp_path / "run"
    with replaced_together(out) as stage:
        (stage / "result.json").write_text("old")
        (stage / "history.csv").write_text("old")
        (stage / "vtu").mkdir()
        (stage / "vtu" / "c_0000.vtu").write_text("old")
        (stage / "c.pvd").write_text("old")
    (out / "notes.txt").write_text("mine")
    with replaced_together(out) as stage:
        (stage / "result.json").write_text("new")
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "notes.txt", "result.json"]
    assert (out / "result.json").read_text() == "new" and (out / "notes.txt").read_text() == "mine"
    with pytest.raises(KeyboardInterrupt), replaced_together(out) as stage:
        (stage / "result.json").write_text("newer")
        raise KeyboardInterrupt
    assert (out / "result.json").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "notes.txt", "result.json"]


def test_a_staging_directory_abandoned_by_a_killed_writer_is_removed(tmp_path):
    """The next writer holds the directory's lock: every other staging directory there
    was left by a writer that died (whatever process now has its number)."""
    from fem2d.io.outdir import STAGE_MARKER, STAGE_PREFIX, replaced_together

    out = tmp_path / "run"
    out.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    for pid in (dead.pid, os.getppid()):
        abandoned = out / f"{STAGE_PREFIX}{pid}-killed01"
        abandoned.mkdir()
        (abandoned / STAGE_MARKER).write_text(json.dumps({"pid": pid, "token": "killed01"}))  # as fem2d marks it
        (abandoned / "result.json").write_text("half")
    older = tmp_path / f".run.fem2d-new-{dead.pid}-abcd1234"  # an older fem2d's: may hold the user's files
    older.mkdir()
    (older / "thesis.tex").write_text("mine")
    with replaced_together(out) as stage:
        (stage / "result.json").write_text("{}")
    assert sorted(p.name for p in out.iterdir()) == [".fem2d-outputs.json", "result.json"]
    assert (older / "thesis.tex").read_text() == "mine"


def test_file_modes_follow_the_umask(tmp_path):
    old = os.umask(0o027)
    try:
        assert main(["run", "sdnd101", "--quiet", "--out", str(tmp_path / "o"), "--set", "time.end=0.1"]) == 1
    finally:
        os.umask(old)
    assert (tmp_path / "o" / "result.json").stat().st_mode & 0o777 == 0o640
    assert (tmp_path / "o" / "history.npz").stat().st_mode & 0o777 == 0o640
    assert (tmp_path / "o").stat().st_mode & 0o777 == 0o750


def test_result_json_is_strict_json(tmp_path):
    assert main(["run", "sdnd101", "--quiet", "--out", str(tmp_path)]) == 0
    text = (tmp_path / "result.json").read_text()
    doc = json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))
    assert doc["case"] == "sdnd101"
    from fem2d.io.files import write_json

    write_json(tmp_path / "n.json", {"q": float("nan"), "r": [float("inf"), 1.0]})
    assert (tmp_path / "n.json").read_text().split() == ["{", '"q":', "null,", '"r":', "[", "null,", "1.0", "]", "}"]


def test_a_failed_study_run_is_a_row_and_keeps_the_previous_result(tmp_path, capsys):
    from fem2d.studies.execution import RunSpec, run_all

    out = tmp_path / "r"
    good = run_all([RunSpec("sdnd101", {"time.end": 0.1}, "ok", str(out))], executor=_inline())
    assert good[0].error is None and (out / "history.npz").is_file()
    before = sorted(p.name for p in out.iterdir())
    bad = run_all([RunSpec("sdnd101", {"time.dt": 0.05}, "unstable", str(out))], executor=_inline())
    assert "time.dt: 0.05 s is above the stability limit" in bad[0].error and bad[0].status == "FAILED"
    assert sorted(p.name for p in out.iterdir()) == before  # as fem2d run: the earlier result stands


def _inline():
    from fem2d.studies.execution import InlineExecutor

    return InlineExecutor()


# --- third-party failures -----------------------------------------------------------------------------------


def test_meshio_exiting_becomes_an_error_of_fem2d_run(tmp_path, monkeypatch):
    import meshio

    def exits(*args, **kwargs):
        print("meshio: I give up")
        sys.exit(1)

    monkeypatch.setattr(meshio, "read", exits)
    mesh = tmp_path / "m.msh"
    mesh.write_text("whatever")
    case = tmp_path / "c.toml"
    case.write_text(MINIMAL.format(mesh="m.msh"))
    with pytest.raises(InputError, match=r"m\.msh: cannot read mesh \(meshio: I give up\)"):
        fem2d.run(str(case))


def test_gmsh_failing_to_load_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "gmsh", None)  # import fails as if the library could not load
    _assert_clean(capsys, main(["run", "cantilever", "--quiet", "--out", str(tmp_path)]), 2,
                  r"mesh\.geometry needs the gmsh package")


def test_a_library_that_exits_inside_a_run_is_not_systemexit(monkeypatch):
    import fem2d.runs.modal as modal

    def exits(*args, **kwargs):
        sys.exit(3)

    monkeypatch.setattr(modal.ModalAnalysis, "compute", exits)  # what fem2d.run calls
    with pytest.raises(Fem2dError, match=r"sdnd101\.toml: a library stopped the run \(exit status 3\)"):
        fem2d.run("sdnd101")


def test_broken_pipe_exits_quietly(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "fem2d.cli", "cases"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader went away before the first line (`fem2d cases | head -0`)
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) in (0, 141)
    assert err == ""


@pytest.mark.parametrize("integrator", ["euler", "devogelaere"])
def test_the_explicit_stability_limits_are_where_the_integrators_blow_up(integrator):
    """2/omega (euler) and 2 sqrt(2)/omega (devogelaere): 2 % below, bounded; 2 % above, growing."""
    import numpy as np

    from fem2d.modal.basis import ModalProblem
    from fem2d.modal.integrators import integrate_modal
    from fem2d.modal.stability import stability_limit

    problem = ModalProblem(masses=[1.0], stiffnesses=[100.0], q0=[1.0])
    limit = stability_limit(problem, integrator)
    below = integrate_modal(problem, integrator, dt=0.98 * limit, t_end=400 * limit)
    above = integrate_modal(problem, integrator, dt=1.02 * limit, t_end=400 * limit)
    assert np.abs(below.q).max() < 10.0 and np.abs(above.q).max() > 1e10


def test_numerical_errors_exit_1_and_input_errors_2():
    assert NumericalError("x").exit_status == 1 and InputError("x").exit_status == 2
    assert issubclass(OutputError, InputError)
