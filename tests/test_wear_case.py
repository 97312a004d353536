"""[contact.wear] in case files: built into the zone's Archard wear, checked with one line naming the key."""

import json
import re

import pytest

from fem2d.cli import main

K, P, S, A = 1.0e-12, 1.0e6, 0.1, 2.0

BLOCK = f"""
[case]
name = "wear_block"
kind = "static"

[mesh]
geometry = "rectangle"
element = "quad4"
params = {{ length = 0.02, height = 0.01, nx = 4, ny = 2 }}

[[materials]]
group = "BODY"
E = 1.0e9
nu = 0.0
rho = 1.0

[[supports]]
group = "TOP"
dofs = ["dx"]

[[loads]]
type = "pressure"
group = "TOP"
value = {P}

[CONTACT]
slave = "BOTTOM"
plane = {{ point = [0.0, 0.0], normal = [0.0, 1.0], displacement = [{S}, 0.0], function = "ramp" }}

[contact.wear]
coefficient = {K}
acceleration = {A}

[functions.ramp]
type = "piecewise_linear"
t = [0.0, 1.0]
values = [0.0, 1.0]

[time]
dt = 0.1
end = 1.0

[report]
node = "SW"
component = "dy"
"""


def _case(tmp_path, listed: bool = False):
    path = tmp_path / "wear_block.toml"
    path.write_text(BLOCK.replace("[CONTACT]", "[[contact]]" if listed else "[contact]"))
    return path


@pytest.mark.parametrize("listed", [False, True])
def test_a_case_wears_its_block_by_a_k_p_s(tmp_path, capsys, listed):
    """A pressure P on a block over a rigid plane sliding S (quasi-static load steps): the depth is
    a k P S everywhere, to round-off, the worn area that times the width."""
    out = tmp_path / "out"
    assert main(["run", str(_case(tmp_path, listed)), "--quiet", "--out", str(out)]) == 0
    q = json.loads((out / "result.json").read_text())["quantities"]
    assert q["max_wear_depth"] == pytest.approx(A * K * P * S, rel=1e-9)
    assert q["worn_area"] == pytest.approx(A * K * P * S * 0.02, rel=1e-9)


@pytest.mark.parametrize("listed", [False, True])
@pytest.mark.parametrize("setting, message", [
    ("wear.coefficient=-1e-13", r"wear.coefficient: expected a number >= 0"),
    ("wear.coefficient=nan", r"wear.coefficient: expected a number >= 0"),
    ("wear.acceleration=0.5", r"wear.acceleration: expected a number >= 1"),
    ('wear.surface="master"', r"wear.surface: surface = 'master': a rigid master does not wear"),
    ('wear.surface="both"', r"wear.surface: surface = 'both': a rigid master does not wear"),
    ('wear.surface="top"', r"wear.surface: expected one of 'slave', 'master', 'both'"),
    ("wear.update=1", r"wear.update: expected true or false"),
])
def test_bad_wear_settings_are_one_line_naming_the_key_and_exit_2(tmp_path, capsys, listed, setting, message):
    key = ("contact.0." if listed else "contact.") + setting
    said = r"contact\[0\]\." if listed else r"contact\."
    assert main(["run", str(_case(tmp_path, listed)), "--quiet", "--out", str(tmp_path / "out"), "--set", key]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("fem2d: error: ")
    assert "wear_block.toml" in err and re.search(said + message, err), err


def test_a_modal_case_refuses_wear(tmp_path, capsys):
    assert main(["run", str(_case(tmp_path)), "--quiet", "--out", str(tmp_path / "out"),
                 "--set", 'case.kind="modal"']) == 2
    assert re.search(r"contact.wear: a modal case does not wear", capsys.readouterr().err)
