"""A setting the chosen path ignores is an error: one line naming the file and the key, exit 2.

The schema fills defaults, so only keys the user wrote (the file after extends, or an
override) count; a built-in case, with each of its validation variants, writes none.
"""

from __future__ import annotations

import itertools

import pytest

from fem2d.case.loading import builtin_cases, load_case
from fem2d.case.usage import CONTACT_METHOD_KEYS, SCHEME_KEYS
from fem2d.cli import main

BAR = """
[case]
name = "bar"
kind = "direct"
extends = "bar_wall"
"""


def _run(capsys, argv: list[str]) -> tuple[int, str]:
    status = main(argv)
    err = capsys.readouterr().err.strip()
    return status, err


def _write(tmp_path, text: str) -> str:
    path = tmp_path / "case.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("scheme", "key"),
    [("generalized_alpha", "gamma"), ("generalized_alpha", "beta"), ("newmark", "rho_inf"), ("newmark", "alpha"),
     ("hht", "beta"), ("modified_mass", "theta"), ("paoli_schatzman", "alpha"), ("stabilised_newmark", "beta")],
)
def test_a_parameter_of_another_scheme_is_an_error(tmp_path, capsys, scheme, key):
    value = -0.1 if key == "alpha" else 0.3  # within every key's own range
    path = _write(tmp_path, BAR + f'[time]\nscheme = "{scheme}"\n{key} = {value}\n')
    status, err = _run(capsys, ["run", path, "--out", str(tmp_path / "out"), "--quiet"])
    assert status == 2
    assert err.count("\n") == 0
    assert f"{path}: time.{key}: " in err and f'"{scheme}" does not use it' in err
    assert not (tmp_path / "out").exists()


def test_every_scheme_parameter_is_used_by_some_scheme():
    schema_keys = {"beta", "gamma", "alpha", "rho_inf", "theta", "restitution"}
    assert set(itertools.chain(*SCHEME_KEYS.values())) == schema_keys


@pytest.mark.parametrize(
    ("method", "key", "value"),
    [("lagrange", "e_n", "1e9"), ("lagrange", "rho_n", "10.0"), ("penalty", "integration", '"gauss"'),
     ("continuous", "e_t", "1e9")],
)
def test_an_option_of_another_contact_method_is_an_error(tmp_path, capsys, method, key, value):
    assert key not in CONTACT_METHOD_KEYS[method]
    path = _write(tmp_path, BAR + f'[contact]\nmethod = "{method}"\n{key} = {value}\n')
    status, err = _run(capsys, ["run", path, "--out", str(tmp_path / "out"), "--quiet"])
    assert status == 2 and err.count("\n") == 0
    assert f"{path}: contact.{key}: " in err and f'"{method}" does not use it' in err


def test_a_used_option_loads(tmp_path):
    path = _write(tmp_path, BAR + '[contact]\nmethod = "penalty"\ne_n = 1e9\n[time]\nscheme = "hht"\nalpha = -0.1\n')
    case = load_case(path)
    assert case.get("contact.e_n") == 1e9 and case.get("time.alpha") == -0.1


def test_an_option_of_one_zone_of_a_list_names_the_zone(tmp_path, capsys):
    zone = '[[contact]]\nslave = "BAR1_END"\nmaster = "WALL_END_FACE"\nmethod = "{}"\n'
    path = _write(tmp_path, BAR + zone.format("penalty") + zone.format("lagrange") + "e_n = 1e9\n")
    status, err = _run(capsys, ["run", path, "--out", str(tmp_path / "out"), "--quiet"])
    assert status == 2 and err.count("\n") == 0
    assert f'{path}: contact[1].e_n: contact[1].method = "lagrange" does not use it' in err


def test_an_override_of_an_ignored_key_is_worded_as_set(tmp_path, capsys):
    path = _write(tmp_path, BAR + '[time]\nscheme = "generalized_alpha"\n')
    status, err = _run(capsys, ["run", path, "--set", "time.gamma=0.6", "--out", str(tmp_path / "out"), "--quiet"])
    assert status == 2 and err.count("\n") == 0
    assert f"{path}: --set time.gamma: " in err and '"generalized_alpha" does not use it' in err
    status, err = _run(capsys, ["run", path, "--set", "contact.rho_n=5.0", "--out", str(tmp_path / "o2"), "--quiet"])
    assert status == 2 and f"{path}: --set contact.rho_n: " in err


def test_an_override_of_the_choice_sets_aside_the_files_parameters():
    """sdnv104a writes rho_inf for its generalized-alpha; its validation variant runs HHT."""
    case = load_case("sdnv104a", {"time.scheme": "hht", "time.alpha": -0.3})
    assert case.get("time.scheme") == "hht"
    with pytest.raises(Exception, match=r"override time.rho_inf: .*\"hht\" does not use it"):
        load_case("sdnv104a", {"time.scheme": "hht", "time.rho_inf": 0.5})


def test_builder_parameters_with_a_mesh_file_are_an_error(tmp_path, capsys):
    (tmp_path / "m.msh").write_text("")
    path = _write(tmp_path, BAR + '[mesh]\nfile = "m.msh"\nparams = { length = 1.0 }\n')
    status, err = _run(capsys, ["run", path, "--out", str(tmp_path / "out"), "--quiet"])
    assert status == 2 and err.count("\n") == 0
    assert f"{path}: mesh.params: " in err and "mesh.file" in err


def test_scheme_keys_in_a_modal_case_are_an_error(tmp_path, capsys):
    path = _write(tmp_path, '[case]\nname = "m"\nkind = "modal"\nextends = "sdnd104"\n[time]\nscheme = "newmark"\n')
    status, err = _run(capsys, ["run", path, "--out", str(tmp_path / "out"), "--quiet"])
    assert status == 2 and err.count("\n") == 0
    assert f"{path}: time.scheme: a modal case does not use it" in err


def test_a_modal_table_in_a_direct_case_and_contact_in_a_modal_case(tmp_path, capsys):
    path = _write(tmp_path, BAR + "[modal]\nn_modes = 2\n")
    status, err = _run(capsys, ["run", path, "--out", str(tmp_path / "out"), "--quiet"])
    assert status == 2 and f"{path}: modal: a direct case does not use [modal]" in err
    path = _write(tmp_path, '[case]\nname = "m"\nkind = "modal"\nextends = "sdnd104"\n[contact]\nmu = 0.2\n')
    status, err = _run(capsys, ["run", path, "--out", str(tmp_path / "out"), "--quiet"])
    assert status == 2 and f"{path}: contact: a modal case does not use [contact]" in err


@pytest.mark.parametrize("name", builtin_cases())
def test_every_builtin_case_and_variant_loads_clean(name):
    """No built-in case writes a key its path ignores, nor does any of its validation runs."""
    case = load_case(name)
    for variant in case.validation_variants():
        for combo in itertools.product(*variant.grid.values()):
            load_case(name, {**variant.overrides, **dict(zip(variant.grid, combo, strict=True))})


def test_a_static_case_has_no_scheme_and_regularization_is_static_only(tmp_path, capsys):
    path = _write(tmp_path, '[case]\nname = "s"\nkind = "static"\nextends = "hertz"\n[time]\nrho_inf = 0.5\n')
    status, err = _run(capsys, ["run", path, "--out", str(tmp_path / "out"), "--quiet"])
    assert status == 2 and err.count("\n") == 0
    assert f"{path}: time.rho_inf: a static case " in err
    path = _write(tmp_path, BAR + "[solver]\nregularization = 1e-3\n")
    status, err = _run(capsys, ["run", path, "--out", str(tmp_path / "out"), "--quiet"])
    assert status == 2 and f"{path}: solver.regularization: a direct case does not use it" in err


MODAL = '[case]\nname = "m"\nkind = "modal"\nextends = "{}"\n'
STATIC = '[case]\nname = "s"\nkind = "static"\nextends = "hertz"\n'
CANTILEVER = '[case]\nname = "c"\nkind = "direct"\nextends = "cantilever"\n'


@pytest.mark.parametrize(
    ("text", "key", "why"),
    [
        (MODAL.format("sdnd104") + "[time]\nevents = true\n", "time.events", "a modal case does not use it"),
        (MODAL.format("sdnd104") + "[time]\nstick_slip = false\n", "time.stick_slip", "a modal case does not use it"),
        (STATIC + "[time]\nstick_slip = false\n", "time.stick_slip", "a static case does not use it"),
        (STATIC + "[time]\nevents = false\n", "time.events", "a static case does not use it"),
        (MODAL.format("sdnd101") + "[time]\nextrapolate = true\n", "time.extrapolate", "a modal case does not use it"),
        (STATIC + "[time]\nextrapolate = false\n", "time.extrapolate", "a static case does not use it"),
        (BAR + "[time]\nstick_slip = true\n", "time.stick_slip", "no contact zone has friction"),
        (CANTILEVER + "[time]\nevents = true\n", "time.events", "the case has no [contact] zone"),
        (MODAL.format("sdnd101") + '[report]\nnode = "NO1"\n', "report.node", "a modal case does not use it"),
        (MODAL.format("sdnd101") + "[report]\nat_times = [0.1]\n", "report.at_times", "reads report.curve only"),
        (MODAL.format("sdnd101") + "[post]\nquiet = 1e-3\n", "post.quiet", "a modal case does not use it"),
        (MODAL.format("sdnd104") + "[post]\nenergy_tolerance = 0.1\n", "post.energy_tolerance", "post.blocks"),
        (BAR + "[post]\nblocks = 4\n", "post.blocks", "a direct case does not use it"),
        (STATIC + "[post]\nthreshold = 1.0\n", "post", "a static case does not use [post]"),
        (STATIC + '[report]\nbodies = ["DISC"]\n', "report.bodies", "a static case has no motion"),
        (MODAL.format("sdnd104") + '[modal]\nintegrator = "exact"\n', "obstacle.kt",
         'modal.integrator = "exact" does not use it'),
    ],
)
def test_a_key_the_kind_or_the_physics_does_not_use_is_an_error(tmp_path, capsys, text, key, why):
    """time.events / time.stick_slip where nothing is located, [report] / [post] keys a
    kind does not read, and obstacle keys the exact modal integrator ignores (its stick is
    rigid: sdnd104's kt, inherited here, would be silently dropped)."""
    path = _write(tmp_path, text)
    status, err = _run(capsys, ["run", path, "--out", str(tmp_path / "out"), "--quiet"])
    assert status == 2 and err.count("\n") == 0, err
    assert f"{path}: {key}: " in err and why in err
    assert not (tmp_path / "out").exists()


def test_used_keys_of_each_kind_load(tmp_path):
    """The same keys where the path reads them: stick_slip with friction, events with
    contact, post.blocks in a modal case, report.curve anywhere."""
    load_case(_write(tmp_path, BAR + "[time]\nevents = true\n"))
    load_case(_write(tmp_path, BAR + "[contact]\nmu = 0.2\n[time]\nstick_slip = false\n"))
    load_case(_write(tmp_path, MODAL.format("sdnd104") + "[post]\nblocks = 4\n"))
    load_case(_write(tmp_path, MODAL.format("sdnd104") + '[report.curve]\nlabel = "x"\n'))
    load_case(_write(tmp_path, STATIC + '[report]\ngroups = ["DISC"]\n'))


def test_an_obstacle_without_its_node_is_an_error(tmp_path, capsys):
    """Without obstacle.node the modal run had no obstacle at all: every other key ignored."""
    (tmp_path / "p.msh").write_text("")
    text = ('[case]\nname = "m"\nkind = "modal"\n[mesh]\nfile = "p.msh"\n[time]\ndt = 1e-3\nend = 1.0\n'
            "[obstacle]\nkn = 1e6\ngap = 0.1\n")
    path = _write(tmp_path, text)
    status, err = _run(capsys, ["run", path, "--out", str(tmp_path / "out"), "--quiet"])
    assert status == 2 and err.count("\n") == 0, err
    assert f"{path}: obstacle.node: missing" in err


@pytest.mark.parametrize(
    ("extra", "key", "why"),
    [
        ('[[loads]]\ntype = "body"\ngroup = "BAR1"\nvector = [0.0, -1.0]\nvalue = 5.0\n', "loads[0].value",
         "a body load does not use it (it uses loads[0].vector)"),
        ('[[loads]]\ntype = "pressure"\ngroup = "BAR1_END"\nvalue = 5.0\nvector = [1.0, 0.0]\n', "loads[0].vector",
         "a pressure load does not use it (it uses loads[0].value)"),
        ('[functions.ramp]\ntype = "piecewise_linear"\nt = [0.0, 1.0]\nvalues = [0.0, 1.0]\namplitude = 2.0\n',
         "functions.ramp.amplitude", "a piecewise_linear function does not use it"),
        ('[functions.f]\ntype = "constant"\namplitude = 2.0\nomega = 3.0\n', "functions.f.omega",
         "a constant function does not use it (it uses functions.f.amplitude)"),
    ],
)
def test_a_key_the_load_or_function_type_does_not_read_is_an_error(tmp_path, capsys, extra, key, why):
    """A body load with a value as well as its vector, a ramp scaled by an amplitude it
    ignores: the number the user wrote would not be used."""
    path = _write(tmp_path, BAR + extra)
    status, err = _run(capsys, ["run", path, "--out", str(tmp_path / "out"), "--quiet"])
    assert status == 2 and err.count("\n") == 0, err
    assert f"{path}: {key}: {why}" in err


def test_a_stick_spring_without_friction_is_an_error(tmp_path, capsys):
    """The shock law computes no tangential force when mu = mu_static = 0: kt and ct unused."""
    path = _write(tmp_path, MODAL.format("sdnd101") + "[obstacle]\nkt = 1.0e6\n")
    status, err = _run(capsys, ["run", path, "--out", str(tmp_path / "out"), "--quiet"])
    assert status == 2 and err.count("\n") == 0, err
    assert f"{path}: obstacle.kt: the obstacle has no friction (obstacle.mu = 0)" in err
    load_case(_write(tmp_path, MODAL.format("sdnd101") + "[obstacle]\nkt = 1.0e6\nmu = 0.1\n"))
