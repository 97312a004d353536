"""The automatic time scheme on the classes of contact problem a user brings, each
on its defaults (``time.scheme`` left at "auto", only ``dt`` and ``end`` given) and
against an exact or converged reference computed for its own settings:

- a block pressed on a rigid plane and pushed sideways (sliding under load, and
  stuck below mu N), on QUAD4, QUAD8 and TRI6, mu 0.1 to 0.8, every contact method,
  steps from 1e-5 to 1e-3 s: the rigid block's exact motion, and a step and mesh
  study of the elastic block;
- stick-slip (SDNV104 A on auto): the exact rigid block;
- repeated impacts (the bar on a rigid wall, the bouncing bar): the exact bars;
- a block dropped on the plane with a sideways velocity, then sliding to rest: the
  rigid block's exact landing and slide;
- preload, then dynamics: the push block settled statically, then pushed.
"""

import math

import numpy as np
import pytest
from conftest import PUSH_BLOCK
from scipy.integrate import quad

from fem2d.cli import main
from fem2d.runs.result import run


def ramp(t, t0, t1):
    return float(np.clip((t - t0) / (t1 - t0), 0.0, 1.0))


def rigid_pushed_block(t, mu=0.3, top=1e6, left=8e5, length=0.2, height=0.1, rho=2000.0):
    """x(t) of the rigid block under the push block's loads: at rest while the push is at most
    mu N, then m x'' = F - mu N; F - mu N does not decrease once it is positive (N is constant
    from 0.01 s, F grows), so the block never sticks again: x(t) = int (t - s) (F - mu N)(s) / m ds."""
    m = rho * length * height
    excess = lambda s: left * height * ramp(s, 0.01, 0.02) - mu * top * length * ramp(s, 0.0, 0.01)  # noqa: E731
    starts = [s for s in np.linspace(0.0, t, 20001) if excess(s) > 0.0]
    if not starts:
        return 0.0
    t_slip = starts[0]
    return quad(lambda s: (t - s) * max(excess(s), 0.0) / m, t_slip, t, points=[0.01, 0.02], limit=200)[0]


def test_the_rigid_pushed_block():
    """By hand: sliding from 0.0175 s, 0.625 m/s at 0.02 s, then 500 m/s^2."""
    x02 = 2e5 / 6 * 0.0025**3
    assert rigid_pushed_block(0.05) == pytest.approx(x02 + 0.625 * 0.03 + 0.5 * 500 * 0.03**2, rel=1e-6)
    assert rigid_pushed_block(0.05, mu=0.8) == 0.0


@pytest.fixture(scope="module")
def converged(push_block):
    """x(0.05) of the elastic block converged in the step (Richardson over dt = 4e-4, 2e-4, 1e-4 at
    the observed order) and the mesh (8 x 4 against 16 x 8 cells at dt = 1e-4)."""
    x = [run(push_block, [f"time.dt={dt}"], reference_cache=False).quantities["x_at_0.05"]
         for dt in (4e-4, 2e-4, 1e-4)]
    order = math.log2((x[0] - x[1]) / (x[1] - x[2]))
    in_time = x[2] + (x[2] - x[1]) / (2.0**order - 1.0)
    fine = run(push_block, ["mesh.params.nx=16", "mesh.params.ny=8"], reference_cache=False)
    return {"order": order, "x": in_time + fine.quantities["x_at_0.05"] - x[2], "steps": x}


def test_the_step_study_converges_at_second_order(converged):
    """The step study is in its asymptotic range (generalized-alpha is second order), and the
    converged elastic block is the rigid block plus its own elastic strain (under 1e-3)."""
    assert 1.5 < converged["order"] < 2.5, converged
    assert converged["x"] == pytest.approx(rigid_pushed_block(0.05), rel=1e-3)


def test_the_pushed_block_on_defaults_is_right_quiet_and_exits_0(push_block, converged, tmp_path, capsys):
    """Every [time] key but dt and end left at its default: exit 0, within 1e-3 of the converged
    reference, the energy balance closed, no chatter, fewer than 10 lines of output."""
    assert main(["run", str(push_block), "--quiet", "--out", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    lines = (captured.out + captured.err).splitlines()
    assert len(lines) < 10, lines
    result = run(push_block, reference_cache=False)
    q = result.quantities
    assert q["x_at_0.05"] == pytest.approx(converged["x"], rel=1e-3)
    assert q["energy_growth"] < 1e-6 and q["chatter_openings"] == 0 and not result.warnings
    assert q["f_n_max"] == pytest.approx(1e6 * 0.2, rel=0.02)  # the normal force stays at its static value
    assert "rho_inf=0" in result.notes[0] and "friction on 'BOTTOM/plane'" in result.notes[0]


VARIANTS = {
    "quad4": ["mesh.element=quad4"],
    "tri6": ["mesh.element=tri6"],
    "mu 0.1": ["contact.mu=0.1"],
    "mu 0.8, stuck": ["contact.mu=0.8"],
    "pushed below mu N": ["loads.1.value=5e5"],
    "penalty": ["contact.method=penalty"],
    "continuous": ["contact.method=continuous"],
    "dt 1e-3": ["time.dt=1e-3"],
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_pressed_and_pushed_variants_on_defaults(push_block, name):
    """Against the rigid block: sliding within 2e-3 (the elastic block is 7e-4 ahead of the rigid one;
    1e-2 at dt = 1e-3, where each 0.01 s ramp takes 10 steps), stuck within 0.1 mm (its elastic
    shear); the energy balance closed and no chatter, whatever the element, mu or method."""
    overrides = VARIANTS[name]
    result = run(push_block, overrides, reference_cache=False)
    q = result.quantities
    settings = dict(o.split("=") for o in overrides)
    mu = float(settings.get("contact.mu", 0.3))
    left = float(settings.get("loads.1.value", 8e5))
    exact = rigid_pushed_block(0.05, mu=mu, left=left)
    if exact == 0.0:
        assert abs(q["x_at_0.05"]) < 1e-4
    else:
        assert q["x_at_0.05"] == pytest.approx(exact, rel=1e-2 if "time.dt" in settings else 2e-3)
    assert q["energy_growth"] < 1e-3 and q["chatter_openings"] == 0 and not result.warnings, result.warnings
    assert "t_rest" not in q or exact == 0.0


@pytest.mark.slow
@pytest.mark.parametrize("element", ["quad8", "quad4"])
def test_resolved_steps_show_the_flutter_and_name_it(push_block, converged, element):
    """At dt = 1e-5 the step resolves the contact modes (a wave crosses a cell in about 1e-5 s) and
    they flutter, as friction makes them: the contact opens and closes, which the run names in one
    warning and counts; the motion stays within 1e-3 of the converged one and no energy is created."""
    result = run(push_block, ["time.dt=1e-5", f"mesh.element={element}"], reference_cache=False)
    q = result.quantities
    assert q["chatter_openings"] >= 3
    assert sum("chatters" in w for w in result.warnings) == 1
    assert q["x_at_0.05"] == pytest.approx(converged["x"], rel=1e-3)
    assert q["energy_growth"] < 1e-3


def test_without_friction_the_flutter_is_gone(push_block):
    """mu = 0: no chatter at a resolved step either, so it is friction's."""
    q = run(push_block, ["contact.mu=0.0", "time.dt=2e-5", "time.end=0.02"], reference_cache=False).quantities
    assert q["chatter_openings"] == 0 and q["f_n_max"] == pytest.approx(2e5, rel=0.02)


def test_stick_slip_on_auto_meets_the_exact_block():
    """SDNV104 A (slides, reverses, sticks) on the automatic scheme, one run at dt = 0.01 s: the exact
    rigid block within the case's 1e-3 for one run of a second-order scheme."""
    result = run("sdnv104a", ['time.scheme="auto"', "time.extrapolate=false"], reference_cache=False)
    q = result.quantities
    assert q["x_at_1.70"] == pytest.approx(14.898649, rel=1e-3) and q["x_at_3.40"] == pytest.approx(3.513052, rel=1e-3)
    assert q["energy_growth"] < 1e-4 and not result.warnings


def test_impacts_on_auto_meet_the_exact_bar():
    """A bar on a rigid wall, frictionless, lumped mass within the explicit limit: Paoli-Schatzman,
    every exact check passing; the bouncing bar (consistent mass): the energy-conserving modified mass."""
    wall = run("bar_wall", reference_cache=False)
    assert "paoli-schatzman" in wall.notes[0] and wall.checks and wall.passed, wall.checks
    bounce = run("bar_bounce", ["time.end=0.5"], reference_cache=False)
    assert "frictionless contact" in bounce.notes[0] and "modified-mass newmark" in bounce.notes[0]
    assert abs(bounce.quantities["energy_drift"]) < 1e-6


#: the push block's mesh and body, 5 mm above the plane
DROP_BODY = PUSH_BLOCK.split("[[loads]]")[0].replace("ny = 4 }", "ny = 4, origin = [0.0, 0.005] }")


def test_a_block_dropped_then_sliding_meets_the_rigid_landing(tmp_path):
    """Dropped from 5 mm under g with 1 m/s sideways, mu = 0.3: the rigid block lands at
    sqrt(2 h / g), loses mu v_land of its speed in the landing, then slides to rest at mu g. At a
    step that does not resolve the elastic landing (1e-4 s against 2 H / c = 1.7e-4 s) the
    dissipative scheme lets its bounces die out within 0.15 s (the first flight half an elastic
    one): it stops where the rigid block does, rest within 1 %, and the energy of the bounces is
    numerical dissipation, never created energy (no chatter either: they end long before the end)."""
    text = DROP_BODY + """
[[loads]]
type = "body"
group = "BODY"
vector = [0.0, -19620.0]

[[initial]]
group = "BODY"
velocity = [1.0, 0.0]

[contact]
slave = "BOTTOM"
plane = { point = [0.0, 0.0], normal = [0.0, 1.0] }
mu = 0.3

[time]
dt = 1.0e-4
end = 0.4

[report]
node = "SW"
component = "dx"
at_times = [0.4]
"""
    path = tmp_path / "drop.toml"
    path.write_text(text)
    result = run(path, reference_cache=False)
    q = result.quantities
    g, mu, h, v0 = 9.81, 0.3, 0.005, 1.0
    t_land = math.sqrt(2 * h / g)
    v_after = v0 - mu * math.sqrt(2 * g * h)
    x_rest = v0 * t_land + v_after**2 / (2 * mu * g)
    assert q["x_rest"] == pytest.approx(x_rest, rel=1e-2)
    assert q["t_rest"] == pytest.approx(t_land + v_after / (mu * g), rel=1e-2)
    assert q["energy_growth"] < 1e-3 and not result.warnings


def test_preload_then_push_on_defaults(push_block, converged, tmp_path):
    """The weight settled statically first ([preload] to 0.01 s), then the push: the same motion."""
    result = run(push_block, ["preload.end=0.01"], reference_cache=False)
    assert result.quantities["x_at_0.05"] == pytest.approx(converged["x"], rel=1e-3)
    assert result.quantities["energy_growth"] < 1e-3 and not result.warnings


def test_stacked_blocks_pressed_and_pushed_move_as_the_rigid_block(tmp_path):
    """Two elastic blocks stacked on a rigid plane (non-matching interface, mu = 0.5 between them,
    0.3 on the plane), the top one pressed, both pushed on their left faces: the upper one can
    stick (it needs 3e4 N/m of friction, 1e5 available), so the pair is the rigid pushed block,
    within 2e-3 as the single elastic block is; the old default (average acceleration on the
    modified mass) created 13 % of the loads' work here."""
    import gridmesh

    mesh = gridmesh.write(tmp_path / "stack.msh", {"LOWER": (0.0, 0.0, 0.2, 0.05, 8, 2),
                                                   "UPPER": (0.0, 0.05, 0.2, 0.1, 6, 2)})
    bodies = "".join(f'[[materials]]\ngroup = "{g}"\nE = 2.0e9\nnu = 0.3\nrho = 2000.0\n\n'
                     for g in ("LOWER", "UPPER"))
    pressed = (("UPPER_TOP", 1e6, "press"), ("LOWER_LEFT", 8e5, "push"), ("UPPER_LEFT", 8e5, "push"))
    loads = "".join(f'[[loads]]\ntype = "pressure"\ngroup = "{g}"\nvalue = {v}\nfunction = "{f}"\n\n'
                    for g, v, f in pressed)
    functions = PUSH_BLOCK[PUSH_BLOCK.index("[functions.press]"):PUSH_BLOCK.index("[contact]")]
    zones = ('[[contact]]\nslave = "LOWER_BOTTOM"\nplane = { point = [0.0, 0.0], normal = [0.0, 1.0] }\n'
             'mu = 0.3\n\n[[contact]]\nslave = "UPPER_BOTTOM"\nmaster = "LOWER_TOP"\nmu = 0.5\n\n')
    path = tmp_path / "stack.toml"
    path.write_text(f'[case]\nname = "stack"\nkind = "direct"\n\n[mesh]\nfile = "{mesh}"\nelement = "quad4"\n\n'
                    f'[model]\nhypothesis = "plane_strain"\n\n{bodies}{loads}{functions}{zones}'
                    '[time]\ndt = 1.0e-4\nend = 0.05\n\n[report]\nnode = "LOWER_SW"\ncomponent = "dx"\n'
                    'at_times = [0.05]\n')
    result = run(path, reference_cache=False)
    q = result.quantities
    assert q["x_at_0.05"] == pytest.approx(rigid_pushed_block(0.05), rel=2e-3)
    assert q["energy_growth"] < 1e-6 and not result.warnings, result.warnings
    assert q["UPPER_BOTTOM_LOWER_TOP_chatter_openings"] == q["LOWER_BOTTOM_plane_chatter_openings"] == 0


def test_a_run_with_many_contacts_prints_one_line_for_them_and_writes_impacts_csv(push_block, tmp_path, capsys):
    """Average acceleration on the modified mass counts tens of contacts on the pushed block (41 or
    35: the number of a spurious chatter's contacts follows round-off, which differs between BLAS
    builds; the table is what is checked): the impact table goes to impacts.csv (one row per
    contact, as result.json's impact_K_* quantities), the printed output stays short, and the chatter is one warning."""
    import csv

    code = main(["run", str(push_block), "--quiet", "--out", str(tmp_path), "--set", 'time.scheme="modified_mass"'])
    assert code == 1  # the energy it created
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) <= 10 and "impacts.csv" in captured.out
    assert sum("chatters" in line for line in captured.err.splitlines()) == 1
    rows = list(csv.DictReader((tmp_path / "impacts.csv").open()))
    import json

    quantities = json.loads((tmp_path / "result.json").read_text())["quantities"]
    assert len(rows) == quantities["n_impacts"] >= 20
    assert float(rows[1]["f_max"]) == pytest.approx(quantities["impact_2_f_max"], rel=1e-12)
