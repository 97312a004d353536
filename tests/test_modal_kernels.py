"""The modal kernels run compiled (numba) or in the interpreter: same source, same numbers.

A short run takes the interpreter and imports no numba (fem2d.modal.jit); the two
paths must agree to 1e-12 on every archived array, for the three schemes, with
several modes, both obstacle kinds, friction, damping and a tabulated excitation.
"""

import math
import subprocess
import sys

import numpy as np
import pytest

from fem2d.modal import jit
from fem2d.modal.basis import Excitation, ModalProblem
from fem2d.modal.integrators import _euler, integrate_modal
from fem2d.modal.shocks import Obstacle
from fem2d.model.timefunctions import PiecewiseLinear, Sine

FIELDS = ("t", "q", "v", "fn", "ft", "d", "xt", "vn", "vt")


def two_modes_two_obstacles() -> ModalProblem:
    """Two modes, a rubbing plane pair with friction and a damped stop, a sine and a table."""
    rub = Obstacle(node_modes=np.array([[1.0, 0.3], [0.0, 0.0]]), kind="plan_z", normal=[0.0, 1.0],
                   origin=[0.0, 1.0], gap=0.5, kn=20.0, kt=9e4, mu_static=0.12, mu_dynamic=0.1, name="rub")
    stop = Obstacle(node_modes=np.array([[0.5, -1.0], [0.0, 0.0]]), kind="plane", normal=[-1.0, 0.0],
                    origin=[0.0, 0.0], gap=0.02, kn=5e3, cn=2.0, name="stop")
    shake = Excitation(np.array([-1.0, -0.4]), Sine(3.0, 2.0 * math.pi))
    push = Excitation(np.array([0.2, 1.0]), PiecewiseLinear((0.0, 0.3, 0.6, 1.0), (0.0, 2.0, -1.0, 0.5)))
    return ModalProblem(masses=[1.0, 0.5], stiffnesses=[40.0, 900.0], damping=[0.12, 1.2],
                        excitations=(shake, push), obstacles=(rub, stop), v0=[0.1, -0.2])


@pytest.mark.parametrize("scheme", ["euler", "devogelaere", "adapt"])
def test_interpreted_and_compiled_kernels_give_the_same_history(scheme):
    problem = two_modes_two_obstacles()
    runs = [integrate_modal(problem, scheme, 1e-3, 1.0, archive_stride=3, compiled=c) for c in (False, True)]
    python, machine = runs
    assert python.fn.any() and python.contact.any() and (python.contact & ~python.stuck).any()  # shocks and slips
    assert python.fn[:, 1].any()  # the stop is hit too
    assert (python.steps, python.evaluations, python.rejected) == (machine.steps, machine.evaluations,
                                                                    machine.rejected)
    for name in FIELDS:
        a, b = getattr(python, name), getattr(machine, name)
        assert a.shape == b.shape
        scale = max(float(np.max(np.abs(b))), 1e-300)
        assert float(np.max(np.abs(a - b))) <= 1e-12 * scale, name
    np.testing.assert_array_equal(python.stuck, machine.stuck)
    np.testing.assert_array_equal(python.contact, machine.contact)


def test_a_kernel_once_loaded_is_used_for_short_runs_too():
    compiled_euler = jit.compiled(_euler)
    assert jit.compiled(_euler) is compiled_euler  # made once per process
    integrate_modal(two_modes_two_obstacles(), "euler", 1e-3, 0.01, compiled=True)
    assert jit.is_loaded(_euler)
    assert jit.use_compiled(_euler, 10) is compiled_euler
    assert jit.use_compiled(_euler, 10, choice=False) is _euler
    with pytest.raises(TypeError, match="not a modal kernel"):
        jit.compiled(math.sin)


def test_short_runs_in_one_process_compile_once_the_interpreter_cost_a_start():
    @jit.kernel()
    def toy(x):
        return x + 1.0

    third = jit.BREAK_EVEN_EVALUATIONS // 3 + 1
    assert jit.use_compiled(toy, third) is toy
    assert jit.use_compiled(toy, third) is toy
    assert jit.use_compiled(toy, third) is not toy  # 3 x third > the break-even: compile
    assert jit.use_compiled(toy, 1, choice=False) is toy


def test_a_short_run_imports_no_numba_and_a_long_one_compiles():
    """In a fresh interpreter: below the break-even the run takes the interpreter and numba is
    never imported; its quantities are those of the compiled kernel to 1e-12 (which imports numba
    only when no earlier process kept its machine code: tests/test_modal_native.py)."""
    code = (
        "import sys, fem2d\n"
        "from fem2d.modal.jit import BREAK_EVEN_EVALUATIONS\n"
        "from fem2d.modal.jit import NATIVE_BREAK_EVEN_EVALUATIONS\n"
        "short = {'time.end': 0.25, 'post.window': [0.0, 0.25], 'excitation.a0': 1.5}\n"
        "assert 0.25 / 1e-4 < NATIVE_BREAK_EVEN_EVALUATIONS < BREAK_EVEN_EVALUATIONS\n"
        "a = fem2d.run('sdnd104', short, reference_cache=False)\n"
        "print('numba' in sys.modules)\n"
        "import fem2d.modal.jit as jit\n"
        "from fem2d.modal.integrators import _euler\n"
        "assert not jit.is_loaded(_euler)\n"
        "jit.BREAK_EVEN_EVALUATIONS = 0  # the same run, compiled\n"
        "b = fem2d.run('sdnd104', short, reference_cache=False)\n"
        "print('numba' in sys.modules, jit.is_loaded(_euler))\n"
        "print(max(abs(a.quantities[k] - b.quantities[k]) / max(abs(b.quantities[k]), 1e-300)\n"
        "          for k in b.quantities if b.quantities[k] == b.quantities[k]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "False"
    assert out[1].split()[1] == "True"  # loaded: numba's compilation, or the kept machine code without numba
    assert float(out[2]) <= 1e-12


def test_the_fast_exit_leaves_complete_outputs_of_a_modal_run(tmp_path):
    """`fem2d run sdnd101 --csv` through the console script (os._exit after the flush, stdout
    a pipe): the table arrives whole, result.json parses, history.npz and history.csv hold
    every sample of the run (1000 steps of 5e-4 s)."""
    import csv
    import json

    code = "import sys; sys.argv = ['fem2d'] + sys.argv[1:]; from fem2d.cli import script; script()"
    proc = subprocess.run([sys.executable, "-c", code, "run", "sdnd101", "--quiet", "--csv", "--out", str(tmp_path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().splitlines()[-1].startswith("wall time") and proc.stdout.endswith("\n")
    doc = json.loads((tmp_path / "result.json").read_text())
    assert doc["timing"]["steps"] == 1000 and doc["checks"] and all(c["passed"] for c in doc["checks"])
    with np.load(tmp_path / "history.npz") as history:
        times = history["time [s]"]
        assert len(times) == 1001 and times[-1] == pytest.approx(0.5)
        assert all(len(history[name]) == 1001 for name in history.files)
    with open(tmp_path / "history.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert len(rows) == 1002 and float(rows[-1][0]) == pytest.approx(0.5)
