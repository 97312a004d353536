"""Shared test data: a tiny cantilever case (the first 20 ms), fast enough to
run many times in tests of the workflows (study, validate, CLI); and the
scripts of ``benchmarks/`` loaded as modules."""

import importlib.util
import signal
from pathlib import Path

import pytest

# The Ctrl-C tests send SIGINT to fem2d processes they start, and a child inherits an ignored
# SIGINT across exec. A shell starts a background job (`cmd &` without job control) with SIGINT
# ignored, so a test run started that way would see fem2d ignore the Ctrl-C it is tested on (as
# it should: a background job is not interrupted). The tests run as a foreground job would.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"

TINY_CASE = """
[case]
extends = "cantilever"
name = "tinybeam"
title = "cantilever, first 20 ms"

[time]
end = 0.02

[report]
at_times = [0.01, 0.02]
extrema = 0
modes = 0

[[references]]
quantity = "x_at_0.01"
value = 1.0078e-4
source = "Euler-Bernoulli beam, 60 modes"
tolerance = 0.05
"""


@pytest.fixture
def write_tiny_case(tmp_path):
    """``write_tiny_case(extra="") -> path``: the tiny case plus extra TOML, as a file."""

    def write(extra: str = "") -> str:
        path = tmp_path / "tinybeam.toml"
        path.write_text(TINY_CASE + extra)
        return str(path)

    return write


def load_benchmark(name: str):
    """The script ``benchmarks/<name>.py`` as a module (the directory is no package)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: the block: 0.2 x 0.1 m, E = 2e9 Pa, nu = 0.3, rho = 2000; 1e6 Pa on TOP ramped over 0.01 s,
#: 8e5 Pa on LEFT ramped from 0.01 to 0.02 s (8e4 N/m > mu N = 6e4 N/m at mu = 0.3)
PUSH_BLOCK = """
[case]
name = "push_block"
kind = "direct"

[mesh]
geometry = "rectangle"
element = "quad8"
params = { length = 0.2, height = 0.1, nx = 8, ny = 4 }

[model]
hypothesis = "plane_strain"

[[materials]]
group = "BODY"
E = 2.0e9
nu = 0.3
rho = 2000.0

[[loads]]
type = "pressure"
group = "TOP"
value = 1.0e6
function = "press"

[[loads]]
type = "pressure"
group = "LEFT"
value = 8.0e5
function = "push"

[functions.press]
type = "piecewise_linear"
t = [0.0, 0.01]
values = [0.0, 1.0]

[functions.push]
type = "piecewise_linear"
t = [0.0, 0.01, 0.02]
values = [0.0, 0.0, 1.0]

[contact]
slave = "BOTTOM"
plane = { point = [0.0, 0.0], normal = [0.0, 1.0] }
mu = 0.3

[time]
dt = 1.0e-4
end = 0.05

[report]
node = "SW"
component = "dx"
at_times = [0.03, 0.05]
"""


@pytest.fixture(scope="session")
def push_block(tmp_path_factory):
    """A user's own case: a QUAD8 block pressed on a rigid plane, then pushed sideways beyond mu N
    (only time.dt and time.end given in [time])."""
    path = tmp_path_factory.mktemp("push") / "push_block.toml"
    path.write_text(PUSH_BLOCK)
    return path
