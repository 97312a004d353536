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


#: A user's own case: a QUAD8 block 0.2 x 0.1 m (E = 2e9 Pa, nu = 0.3, rho = 2000) pressed on a
#: rigid plane by 1e6 Pa ramped over 0.01 s, then pushed by 8e5 Pa on its left face ramped from
#: 0.01 to 0.02 s (8e4 N/m > mu N = 6e4 N/m at mu = 0.3); only time.dt and time.end in [time].
#: The benchmark of the time schemes on it holds the case.
PUSH_BLOCK = load_benchmark("auto_scheme_battery").CASE


@pytest.fixture(scope="session")
def push_block(tmp_path_factory):
    """A user's own case: a QUAD8 block pressed on a rigid plane, then pushed sideways beyond mu N
    (only time.dt and time.end given in [time])."""
    path = tmp_path_factory.mktemp("push") / "push_block.toml"
    path.write_text(PUSH_BLOCK)
    return path
