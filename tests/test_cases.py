"""Case files: schema, overrides, references, bad input."""

import subprocess
import sys

import pytest

from fem2d.case.loading import builtin_cases, load_case, make_checks, parse_overrides, read_case, references_for
from fem2d.errors import InputError


def test_builtin_cases_load():
    names = builtin_cases()
    assert {"sdnv104a", "sdnv104b", "sdnv104c", "sdnv104d", "sdnv104e", "cantilever"} <= set(names)
    for name in names:
        case = load_case(name)
        assert case.name == name
        assert case.get("time.dt") > 0


def test_extends_merges_tables_and_keeps_references():
    d = load_case("sdnv104d")
    assert d.get("mesh.element") == "quad8" and d.get("contact.method") == "lagrange"
    e = load_case("sdnv104e")
    assert (e.get("mesh.element"), e.get("contact.method"), e.get("contact.e_n")) == ("quad8", "penalty", 2.1e8)
    assert len(e.settings["references"]) == len(load_case("sdnv104a").settings["references"])


def test_a_parents_mesh_file_is_found_from_the_parents_folder(tmp_path, monkeypatch):
    from fem2d.case.build import build_mesh
    from fem2d.mesh import BUILDERS
    from fem2d.mesh.io import write_mesh

    (tmp_path / "base").mkdir()
    (tmp_path / "child").mkdir()
    write_mesh(BUILDERS["sliding_block"](element="tri3"), tmp_path / "base" / "block.msh")
    (tmp_path / "base" / "base.toml").write_text(
        '[case]\nextends = "sdnv104a"\nname = "base"\n[mesh]\nfile = "block.msh"\n')
    (tmp_path / "child" / "child.toml").write_text(
        '[case]\nextends = "../base/base.toml"\nname = "child"\n[time]\ndt = 0.005\n')
    monkeypatch.chdir(tmp_path / "child")
    case = load_case(tmp_path / "child" / "child.toml")
    assert case.mesh_file.resolve() == (tmp_path / "base" / "block.msh").resolve()
    assert {b.kind for b in build_mesh(case).groups.values() if b.dimension == 2} == {"tri3"}


@pytest.mark.parametrize("parent", ["nosuch_parent", "nosuch_parent.toml"])
def test_a_missing_parent_names_the_file_and_case_extends(tmp_path, parent):
    (tmp_path / "child.toml").write_text(f'[case]\nextends = "{parent}"\nname = "child"\n')
    with pytest.raises(InputError) as info:
        load_case(tmp_path / "child.toml")
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'child.toml'}: case.extends: ")
    assert ("unknown case 'nosuch_parent'" if parent == "nosuch_parent"
            else f"{tmp_path / 'nosuch_parent.toml'}: case file not found") in message


def test_a_case_file_read_once_loads_as_load_case_does():
    """read_case parses the file (and the one it extends) once; each load applies its own
    overrides to a copy: the same Case as load_case, the file's data untouched, the
    references' applicability the same with the base case handed over."""
    import copy

    from fem2d.case.references import applicable

    source = read_case("sdnv104e")  # extends sdnv104d
    raw = copy.deepcopy(source.raw)
    for overrides in ({}, {"time.dt": 0.005, "contact.e_n": 1e9}, {"solver.linear": "superlu"}):
        assert source.load(overrides) == load_case("sdnv104e", overrides)
        assert source.raw == raw
    base = source.load()
    aster = {"time.scheme": "hht", "time.stick_slip": False, "time.extrapolate": False}
    for mu in (0.5, 0.3):  # another friction voids code_aster's stored rows; the file's own keeps them
        changed = source.load({**aster, "contact.mu": mu})
        assert applicable(changed, base) == applicable(changed)
    assert applicable(source.load({**aster, "contact.mu": 0.5}), base)[1]
    with pytest.raises(InputError, match="no_such_case"):
        read_case("no_such_case")


def test_overrides_are_toml_values():
    assert parse_overrides(["time.dt=0.005", "post.window=[2.0, 9.5]", 'contact.method="penalty"']) == {
        "time.dt": 0.005,
        "post.window": [2.0, 9.5],
        "contact.method": "penalty",
    }
    assert parse_overrides(["contact.method=penalty"]) == {"contact.method": "penalty"}  # shells eat quotes
    case = load_case("sdnv104a", ["time.dt=0.005", "mesh.refine=2", "loads.1.value=1e5"])
    assert case.get("time.dt") == 0.005 and case.get("mesh.refine") == 2 and case.get("loads.1.value") == 1e5


def test_references_follow_the_settings():
    default = {r["quantity"]: r["value"] for r in references_for(load_case("sdnv104a"))}
    # exact values computed for the settings: the digits SDNV104's analytic model prints
    assert default["x_at_1.70"] == pytest.approx(14.898649, abs=5e-7)
    assert default["x_ext_1"] == pytest.approx(14.911447, abs=5e-7)
    # code_aster's algorithm: no event located, one run
    aster = {"time.scheme": "hht", "time.stick_slip": False, "time.extrapolate": False}
    hht = {r["quantity"]: r["value"] for r in references_for(load_case("sdnv104a", aster))}
    assert hht == {"x_at_1.70": 14.836107, "x_at_3.40": 3.624710}
    located = references_for(load_case("sdnv104a", {"time.scheme": "hht", "time.extrapolate": False}))
    assert not [r for r in located if r.get("source", "").startswith("code_aster")]


def test_checks_compute_relative_and_absolute_errors():
    case = load_case("sdnv104a", {"time.extrapolate": False})  # one run: x_at_* within 1e-3 relative
    ref = {r["quantity"]: r["value"] for r in references_for(case)}
    computed = {"x_at_1.70": ref["x_at_1.70"] * (1 + 2e-3), "t_ext_1": 1.735}
    checks = {c["quantity"]: c for c in make_checks(case, computed)}
    assert checks["x_at_1.70"]["relative_error"] == pytest.approx(2e-3) and not checks["x_at_1.70"]["passed"]
    assert checks["t_ext_1"]["relative_error"] == pytest.approx(1.735 - ref["t_ext_1"]) and checks["t_ext_1"]["passed"]
    assert ref["t_ext_1"] == pytest.approx(1.731654, abs=5e-7)
    assert checks["x_at_3.40"]["value"] is None and not checks["x_at_3.40"]["passed"]  # not computed -> fails
    # extrapolated in time (the default): 1e-5 m absolute (penalty: 1.5e-4 m, the most specific row)
    default = {c["quantity"]: c for c in make_checks(load_case("sdnv104a"), {"x_at_1.70": ref["x_at_1.70"] + 9e-6})}
    assert default["x_at_1.70"]["relative_error"] == pytest.approx(9e-6) and default["x_at_1.70"]["passed"]
    assert not default["x_at_1.70"]["relative"] and default["x_at_1.70"]["tolerance"] == 1e-5
    penalty = load_case("sdnv104a", {"contact.method": "penalty"})
    assert {c["quantity"]: c for c in make_checks(penalty, {"x_at_1.70": 1.0})}["x_at_1.70"]["tolerance"] == 1.5e-4


@pytest.mark.parametrize(
    "overrides, message",
    [
        (["time.dt=-0.01"], r"sdnv104a.toml: time.dt: expected a number > 0, got -0.01"),
        (["time.dtt=0.01"], r"override time.dtt: unknown key"),  # the command line says --set (test_cli)
        (['time.dt="fast"'], r"time.dt: expected a number > 0, got 'fast'"),
        (["mesh.element=tri10"], r"mesh.element: expected one of 'quad4', 'quad8', 'quad9', 'tri3', 'tri6', "
                                 r"got 'tri10'"),
        (["time.dt=10"], r"time.dt: 10.0 is larger than time.end"),
        (["post.window=[3.0, 2.0]"], r"post.window: expected \[t_start, t_end\]"),
        (["time.dt=[1,"], r"cannot read '\[1,' as a TOML value"),
        (["time.dt"], r"expected KEY=VALUE"),
    ],
)
def test_bad_overrides_name_the_key(overrides, message):
    with pytest.raises(InputError, match=message):
        load_case("sdnv104a", overrides)


def test_bad_files_name_the_file_and_key(tmp_path):
    with pytest.raises(InputError, match="unknown case 'nope'"):
        load_case("nope")
    with pytest.raises(InputError, match="case file not found"):
        load_case(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    head = '[case]\nname = "x"\nkind = "direct"\n[time]\ndt = 0.1\nend = 1.0\n'
    bad.write_text(head + '[mesh]\nfile = "m.msh"\nfoo = 1\n')
    with pytest.raises(InputError, match=r"bad.toml: mesh.foo: unknown key"):
        load_case(bad)
    bad.write_text("[case\n")
    with pytest.raises(InputError, match=r"bad.toml: not valid TOML"):
        load_case(bad)
    bad.write_text(head + '[mesh]\ngeometry = "rectangle"\n')
    with pytest.raises(InputError, match="at least one \\[\\[materials\\]\\]"):
        load_case(bad)


def test_the_references_module_imports_first_in_a_fresh_process():
    """case.references imports case.loading, which re-exports two of its names:
    either may be imported first (``fem2d plot DIR`` starts from references)."""
    code = "import fem2d.case.references; from fem2d.case.loading import make_checks, references_for"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
