"""The long sliding block (SDNV104 with mu = 0.5 and 3e5 Pa, run to rest) and
the block on an incline: their references recomputed from the case settings
by fem2d.exact, checked against an independent integration, and the runs."""

import numpy as np
import pytest
from scipy.integrate import quad

from fem2d.case.loading import load_case, references_for
from fem2d.errors import InputError
from fem2d.exact.incline import incline_acceleration, incline_displacement, incline_velocity
from fem2d.exact.sliding_block import SlidingBlock, newmark_block, solve
from fem2d.mesh.builders import sliding_block
from fem2d.runs.result import run


def block_of(case) -> SlidingBlock:
    """The rigid block of an SDNV104-like case's settings."""
    s = case.settings
    mesh = sliding_block(**s["mesh"]["params"])
    width = np.ptp(mesh.points[np.unique(mesh.group("PATIN").nodes), 0])
    height = np.ptp(mesh.points[np.unique(mesh.group("PATIN").nodes), 1])
    rho = next(m["rho"] for m in s["materials"] if m["group"] == "PATIN")
    pressure = {load["group"]: load["value"] for load in s["loads"]}
    ramp = s["functions"]["ramp"]
    return SlidingBlock(
        mass=rho * width * height,
        stiffness=2 * s["springs"][0]["k_axial"],
        mu=s["contact"]["mu"],
        ft=pressure["FLAT"] * height,
        fn=pressure["FSUP"] * width,
        ramp_t=tuple(ramp["t"]),
        ramp_r=tuple(ramp["values"]),
    )


def test_long_sliding_block_references_are_the_exact_block_for_its_settings():
    case = load_case("sdnv104_long")
    block = block_of(case)
    assert (block.mu, block.ft, block.fn) == (0.5, 3e5, 7e4)
    exact = solve(block, case.settings["time"]["end"])
    expected = {f"x_ext_{k}": x for k, x in enumerate(exact.extrema_x, start=1)}
    expected |= {f"t_ext_{k}": t for k, t in enumerate(exact.extrema_t, start=1)}
    expected["x_rest"], expected["t_rest"] = exact.rest()[1], exact.rest()[0]
    for ref in references_for(case):
        assert ref["value"] == pytest.approx(expected[ref["quantity"]], rel=1e-12), ref["quantity"]
    # the block stops at its fourth extremum, within the 30 m support
    assert len(exact.extrema_x) == 4 and exact.rest()[0] == pytest.approx(exact.extrema_t[3], abs=1e-12)
    assert max(exact.extrema_x) + 1.0 < case.settings["mesh"]["params"]["support_length"]
    # independent: the rigid block by Newmark with an implicit Coulomb law at a small step
    t, x = newmark_block(block, 1e-4, 8.0)
    assert x[-1] == pytest.approx(exact.rest()[1], rel=1e-5)
    assert x.max() == pytest.approx(exact.extrema_x[0], rel=1e-6)


def test_long_sliding_block_runs_to_rest_on_its_support(tmp_path):
    result = run("sdnv104_long")
    assert all(check["passed"] for check in result.checks), result.checks
    assert {"x_ext_4", "x_rest", "t_rest"} <= set(result.quantities)
    assert result.histories["n_left_master"].max() == 0


def test_sliding_block_builder_parameters():
    default, long = sliding_block(), sliding_block(support_length=30.0, block_cells=(4, 2), block_width=2.0)
    assert np.ptp(default.points[:, 0]) == pytest.approx(20.1)
    assert np.ptp(long.points[:, 0]) == pytest.approx(30.1)
    assert len(long.group("PATIN")) == 8 and long.points[long.group("R1").nodes[0, 0]].tolist() == [2.1, 0.0]
    with pytest.raises(InputError, match="block_cells must be a positive integer"):
        sliding_block(block_cells=0)
    with pytest.raises(InputError, match="support_length"):
        sliding_block(support_length=0.5)


def test_bad_builder_parameter_names_file_and_key(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[case]\nextends = "sdnv104_long"\nname = "bad"\n[mesh.params]\nblock_cells = -1\n')
    with pytest.raises(InputError) as err:
        run(str(path))
    assert str(err.value).startswith(f"{path}: mesh.params.block_cells:")


def incline_of(case) -> tuple[float, float, float, float]:
    """(g, theta, mu, t_ramp) of the incline case's settings."""
    s = case.settings
    fx, fy = s["loads"][0]["vector"]
    rho = next(m["rho"] for m in s["materials"] if m["group"] == "PATIN")
    return float(np.hypot(fx, fy) / rho), float(np.arctan2(fx, -fy)), s["contact"]["mu"], s["functions"]["ramp"]["t"][1]


@pytest.mark.parametrize("vector", [None, [11924.420360388105, -67626.74839934832]])
def test_incline_references_are_the_exact_block_for_its_settings(vector):
    case = load_case("incline", {} if vector is None else {"loads.0.vector": vector})
    g, theta, mu, t_ramp = incline_of(case)
    assert g == pytest.approx(9.81, rel=1e-12)
    refs = references_for(case)
    assert refs
    for ref in refs:
        t = float(ref["quantity"].removeprefix("x_at_"))
        assert ref["value"] == pytest.approx(float(incline_displacement(t, g, theta, mu, t_ramp)), rel=1e-12, abs=0)
    # independent: integrate the speed numerically; stuck exactly when tan(theta) <= mu
    x2 = quad(lambda s: float(incline_velocity(s, g, theta, mu, t_ramp)), 0.0, 2.0, points=[t_ramp])[0]
    assert float(incline_displacement(2.0, g, theta, mu, t_ramp)) == pytest.approx(x2, rel=1e-12, abs=1e-15)
    assert (incline_acceleration(g, theta, mu) == 0.0) == (np.tan(theta) <= mu)


@pytest.mark.parametrize("vector", [None, [11924.420360388105, -67626.74839934832]])
def test_incline_runs_within_tolerance(vector):
    result = run("incline", {} if vector is None else {"loads.0.vector": vector})
    assert result.checks and all(check["passed"] for check in result.checks), result.checks


@pytest.mark.parametrize("vector", [None, [11924.420360388105, -67626.74839934832]])
def test_support_reaction_balances_the_weight_and_limits_friction(vector):
    """The support's reaction on the block: stuck, it is minus the body force
    resultant; sliding, its normal part is the weight's and its tangential part
    is mu times it, opposing the slide (Coulomb)."""
    overrides = {"report.reactions": ["BATI"]} | ({} if vector is None else {"loads.0.vector": vector})
    result = run("incline", overrides)
    g, theta, mu, _ = incline_of(load_case("incline", {} if vector is None else {"loads.0.vector": vector}))
    weight = 7000.0 * g
    rx, ry = result.quantities["BATI_reaction_x"], result.quantities["BATI_reaction_y"]
    assert ry == pytest.approx(weight * np.cos(theta), rel=1e-6)  # the block still rocks a little
    if np.tan(theta) > mu:
        assert rx == pytest.approx(-mu * ry, rel=1e-9)
    else:
        assert rx == pytest.approx(-weight * np.sin(theta), rel=1e-9)


def test_a_reaction_group_without_support_is_an_error():
    with pytest.raises(InputError, match=r"incline.toml: report.reactions\[0\]: group 'PATIN' has no prescribed dof"):
        run("incline", {"report.reactions": ["PATIN"]})
