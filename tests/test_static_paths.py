"""Static load paths driven by imposed displacements: a ramped support on a body
with or without density, each level at equilibrium, the support's reaction per level."""

from pathlib import Path

import pytest

from fem2d.errors import InputError, ModelError
from fem2d.mesh import rectangle
from fem2d.model import Body, Contact, Model, Report, RigidPlane, Support, TimeStepping
from fem2d.model.timefunctions import PiecewiseLinear
from fem2d.runs.direct import DirectAnalysis
from fem2d.runs.result import run
from fem2d.runs.static import StaticAnalysis

E, NU, STROKE = 1e7, 0.3, -0.01
RAMP = PiecewiseLinear((0.0, 1.0), (0.0, 1.0))
LEVELS = [0.2, 0.4, 0.6, 0.8, 1.0]
CASES = Path(__file__).parents[1] / "cases"


def compressed_block(rho: float, contact: bool = False) -> Model:
    """A 1 m x 1 m plane-strain block on smooth supports (or on a frictionless rigid plane),
    its top pushed down by a ramped imposed displacement."""
    supports = [Support("LEFT", ("dx",)), Support("TOP", ("dy",), value=STROKE, function=RAMP)]
    contacts = []
    if contact:
        contacts = [Contact("BOTTOM", RigidPlane((0.0, 0.0), (0.0, 1.0)))]
    else:
        supports.insert(0, Support("BOTTOM", ("dy",)))
    return Model(rectangle(1.0, 1.0, 3, 3), bodies=[Body("BODY", E=E, nu=NU, rho=rho)], supports=supports,
                 contacts=contacts)


def exact_reaction(t: float) -> float:
    """The top's reaction, N per m of thickness: plane strain with free sides, sigma_yy = E eps / (1 - nu^2)."""
    return E / (1.0 - NU**2) * STROKE * t


@pytest.mark.parametrize("rho", [0.0, 7800.0])
@pytest.mark.parametrize("contact", [False, True])
def test_ramped_support_on_any_body_reaction_per_level(rho, contact):
    report = Report("NE", "dx", at_times=LEVELS, reactions=["TOP"])
    result = StaticAnalysis(compressed_block(rho, contact), TimeStepping(dt=0.2, end=1.0), report=report).run()
    for t in LEVELS:
        computed = result.quantities[f"TOP_reaction_y_at_{t:.2f}"]
        assert computed == pytest.approx(exact_reaction(t), rel=1e-8)
        # the free side widens by nu / (1 - nu) |eps| (plane strain, sigma_xx = 0)
        assert result.quantities[f"x_at_{t:.2f}"] == pytest.approx(-NU / (1 - NU) * STROKE * t, rel=1e-8)
    history = result.histories["TOP:reaction_y"]
    assert history[1:] == pytest.approx([exact_reaction(t) for t in LEVELS], rel=1e-8)


def test_direct_run_still_needs_a_massless_moving_body():
    with pytest.raises(ModelError, match="massless body"):
        DirectAnalysis(compressed_block(7800.0), TimeStepping(dt=0.2, end=1.0)).run()


def _case_without_density(kind: str) -> str:
    """The built-in compression case (a ramped support, finite strain) with no rho and no lumped mass."""
    text = (CASES / "compression.toml").read_text()
    lines = [line for line in text.splitlines() if not line.startswith(("rho =", "lumped_mass ="))]
    return "\n".join(lines).replace('kind = "static"', f'kind = "{kind}"')


def test_static_case_needs_no_density_and_follows_a_ramped_support(tmp_path):
    path = tmp_path / "compression.toml"
    path.write_text(_case_without_density("static"))
    with_density = run(CASES / "compression.toml")
    without = run(path)
    for name in ("TOP_reaction_y_at_0.50", "TOP_reaction_y", "x_at_0.50", "x_at_1.00"):
        assert without.quantities[name] == pytest.approx(with_density.quantities[name], rel=1e-12)


def test_direct_case_without_density_names_the_key(tmp_path):
    path = tmp_path / "compression.toml"
    path.write_text(_case_without_density("direct"))
    with pytest.raises(InputError, match=r"materials\[0\]\.rho: missing; the density"):
        run(path)

