"""`fem2d refine` on problems with exact answers: exit status, the error bar of each
quantity against Hertz, and a reference that stops holding as h falls (SDNV104 A)."""

import json

import pytest

from fem2d.cli import main
from fem2d.exact.hertz import HertzLineContact

HERTZ = HertzLineContact(P=3.6e6, R=0.05, E=2.1e11, nu=0.3)
EXACT = {"peak_pressure": HERTZ.peak_pressure, "contact_half_width": HERTZ.half_width}


def _refine(case, levels, out, capsys, *extra):
    status = main(["refine", case, "--levels", levels, "--out", str(out), "--quiet", *extra])
    captured = capsys.readouterr()
    return status, captured, json.loads((out / "refine.json").read_text())


def test_hertz_levels_0_2_exit_0_with_level_0_nook_and_exact_values_inside_the_bars(tmp_path, capsys):
    """Level 0 misses its 1 % (peak pressure 2.2 %): a NOOK row, not a failed study; the
    finest level passes, said on stderr in one line. Three levels: Celik's apparent order
    (2.49 for the pressure, from a pre-asymptotic level 0), the extrapolated values within
    their bar of Hertz's p0 and a. The range is untested with three levels, and said: level
    2's pressure is 2.20e6 from p0 against a bar of 2.0e6 (levels 0-3 bring p0 inside)."""
    status, captured, doc = _refine("hertz", "0-2", tmp_path / "r", capsys)
    assert status == 0 and doc["exit_status"] == 0
    assert captured.err.strip().splitlines()[-1] == (
        "fem2d refine: the finest level 2 passes its checks; coarser level 0 (NOOK)")
    for name, exact in EXACT.items():
        q = doc["quantities"][name]
        c = q["convergence"]
        assert q["status"][0] in ("NOOK", "OK") and q["status"][2] == "OK"
        assert c["kind"] == "monotone" and c["fit_levels"] == [0, 1, 2] and 1.8 < c["order"] < 2.6
        assert abs(c["extrapolated"] - exact) <= c["band"], name
        assert c["asymptotic"] is None
    assert abs(doc["quantities"]["contact_half_width"]["convergence"]["value"] - HERTZ.half_width) <= (
        doc["quantities"]["contact_half_width"]["convergence"]["band"])
    assert doc["quantities"]["peak_pressure"]["status"][0] == "NOOK"
    out = captured.out
    assert "peak_pressure: monotone: three levels in the range (0-2): the indicator is 1 by construction" in out


@pytest.mark.slow
def test_hertz_levels_0_3_extrapolate_within_their_gci_of_hertz(tmp_path, capsys):
    """Measured: peak pressure order 2.42 fitted over 0-3, extrapolated 2.29995e9 (p0
    2.29975e9: 2e5 away), bar +-7.8e5, 2.2x the finest level's true error 3.5e5; the
    half-width's bar is 3e-7 against a true error of 6e-9 (level 3 lands on a by chance:
    the indicator, 0.69, says the range is not asymptotic). Level 4 (not run here: 4 s more)
    is where Hertz's half-space theory stops holding for a (a/R = 0.02: about 1e-4)."""
    status, captured, doc = _refine("hertz", "0-3", tmp_path / "r", capsys)
    assert status == 0
    for name, exact in EXACT.items():
        c = doc["quantities"][name]["convergence"]
        assert c["fit_levels"] == [0, 1, 2, 3] and abs(c["extrapolated"] - exact) <= c["band"]
        assert abs(c["value"] - exact) <= c["band"]
        if c["asymptotic"]:
            assert c["band"] <= 3 * abs(c["value"] - exact)
    pressure = doc["quantities"]["peak_pressure"]["convergence"]
    assert pressure["band"] <= 3 * abs(pressure["value"] - EXACT["peak_pressure"])


@pytest.mark.slow
def test_sdnv104a_says_the_rigid_block_reference_stops_holding_and_bars_the_elastic_block(tmp_path, capsys):
    """The rigid block's x(1.70) is 4.4e-6 m from the elastic block's at level 0 and 1.39e-5 m
    at level 4, above the 1e-5 m tolerance from level 3: the reference stops holding there
    (said, not a failure); x(1.70) and x(3.40) are mesh-converged to 3e-7 of their value,
    each with its error bar (Fs x the range of the levels: 1.2e-5 m and about 4e-6 m, the second
    3.8e-6 m or 4.2e-6 m as the round-off of the finest runs falls: 15 % allowed)."""
    status, captured, doc = _refine("sdnv104a", "0-4", tmp_path / "r", capsys)
    assert status == 0
    said = doc["quantities"]["x_at_1.70"]["reference_stops_holding"]
    assert "stops holding from level 3" in said and said in captured.out and "above 1e-05 abs from level 3" in said
    for name, band, rel in (("x_at_1.70", 1.2e-5, 0.05), ("x_at_3.40", 4.0e-6, 0.15)):
        c = doc["quantities"][name]["convergence"]
        assert c["kind"] == "mesh-converged" and c["band"] == pytest.approx(band, rel=rel)
    # x(3.40): within 1e-5 m at every level, but the bar excludes the rigid block from level 0 on
    assert "departs from the levels from level 0" in doc["quantities"]["x_at_3.40"]["reference_stops_holding"]
    assert "within 1e-05 abs at every level" in doc["quantities"]["x_at_3.40"]["reference_stops_holding"]
    assert doc["quantities"]["peak_pressure"]["convergence"]["kind"] == "diverging"  # the block's corner
    assert captured.err.strip().splitlines()[-1].startswith("fem2d refine: the finest level 4 passes its checks")
