"""The compiled modal kernels' machine code loaded without numba (fem2d.modal.native).

The native entry point of each scheme gives the numba dispatcher's numbers bit for bit
(the same machine code); a fresh process that finds the object file imports no numba; a
call of another layout takes the dispatcher.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_modal_kernels import FIELDS, two_modes_two_obstacles

from fem2d.modal import integrators, jit, native
from fem2d.modal.integrators import integrate_modal

ENTRY = {"euler": integrators._euler, "devogelaere": integrators._devogelaere, "adapt": integrators._adapt}


@pytest.mark.parametrize("scheme", ["euler", "devogelaere", "adapt"])
def test_the_native_entry_point_gives_the_dispatchers_numbers_bit_for_bit(scheme, monkeypatch):
    problem = two_modes_two_obstacles()
    spec = jit._spec(ENTRY[scheme])
    monkeypatch.setattr(spec, "machine", None)
    monkeypatch.setattr(native, "ENTRY_POINTS", ())  # numba's dispatcher only
    by_numba = integrate_modal(problem, scheme, 1e-3, 1.0, archive_stride=3, compiled=True)
    assert spec.machine._dispatcher is not None and not any(spec.machine._native.values())
    monkeypatch.undo()
    monkeypatch.setattr(spec, "machine", None)
    by_native = integrate_modal(problem, scheme, 1e-3, 1.0, archive_stride=3, compiled=True)
    assert [type(k) for k in spec.machine._native.values()] == [native.NativeKernel]
    assert by_native.fn.any() and by_native.contact.any()
    assert (by_native.steps, by_native.evaluations, by_native.rejected) == (by_numba.steps, by_numba.evaluations,
                                                                            by_numba.rejected)
    for name in (*FIELDS, "stuck", "contact"):
        np.testing.assert_array_equal(getattr(by_native, name), getattr(by_numba, name), err_msg=name)


def test_a_fresh_process_loads_the_kept_machine_code_without_numba():
    integrate_modal(two_modes_two_obstacles(), "euler", 1e-3, 0.1, compiled=True)  # the object file exists
    code = (
        f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from fem2d.modal import jit\n"
        "from fem2d.modal.integrators import _euler, integrate_modal\n"
        "from test_modal_kernels import two_modes_two_obstacles\n"
        "h = integrate_modal(two_modes_two_obstacles(), 'euler', 1e-3, 0.1, compiled=True)\n"
        "print('numba' in sys.modules, jit.is_loaded(_euler), h.steps)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True", "100"]


def test_arguments_of_another_layout_are_refused_by_the_native_kernel_and_taken_by_numba():
    problem = two_modes_two_obstacles()
    integrate_modal(problem, "euler", 1e-3, 0.01, compiled=True)
    machine = jit._spec(integrators._euler).machine
    kernel = next(k for k in machine._native.values() if k is not None)
    with pytest.raises(TypeError, match="layout"):
        kernel(np.zeros(2))
    assert native.layout_of((np.zeros((3, 2))[:, 0],)) is None  # not contiguous
    assert native.layout_of((np.zeros(3, dtype=np.float32),)) is None
    assert native.layout_of((True,)) is None


def test_numbas_path_loads_its_registries_without_scipy_linalg_and_keeps_blas_for_later():
    """numba's own path (the first run of an environment): the kernels' dispatchers load
    numba's registries without importing scipy.linalg, and numba still knows BLAS is there."""
    code = (
        f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from fem2d.modal import jit, native\n"
        "native.ENTRY_POINTS = ()  # numba's dispatcher\n"
        "from fem2d.modal.integrators import integrate_modal\n"
        "from test_modal_kernels import two_modes_two_obstacles\n"
        "h = integrate_modal(two_modes_two_obstacles(), 'euler', 1e-3, 0.1, compiled=True)\n"
        "from numba.np import arraymath\n"
        "print('numba.np.arraymath' in sys.modules, 'scipy.linalg' in sys.modules, arraymath._HAVE_BLAS, h.steps)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False", "True", "100"]


def test_a_damaged_kept_file_reads_as_absent_so_it_is_built_again(tmp_path):
    problem = two_modes_two_obstacles()
    machine = jit.compiled(integrators._euler)
    integrate_modal(problem, "euler", 1e-3, 0.01, compiled=True)
    args_layout = native.EXPECTED["_euler"]
    kept = native._cache_file("_euler", args_layout, native.cache_directory())
    damaged = tmp_path / kept.name
    damaged.write_bytes(b"not a header\n\x7fELF")
    assert native._load(damaged, args_layout) is None
    assert native._load(tmp_path / "absent.o", args_layout) is None
    assert machine.loaded


def test_a_kept_file_others_may_write_is_not_loaded(tmp_path):
    integrate_modal(two_modes_two_obstacles(), "euler", 1e-3, 0.01, compiled=True)
    layout = native.EXPECTED["_euler"]
    copy = tmp_path / "copy.o"
    copy.write_bytes(native._cache_file("_euler", layout, native.cache_directory()).read_bytes())
    copy.chmod(0o600)
    assert isinstance(native._load(copy, layout), native.NativeKernel)
    for mode in (0o620, 0o602, 0o666):
        copy.chmod(mode)
        assert native._load(copy, layout) is None, oct(mode)


def test_a_run_past_the_native_break_even_is_compiled_when_the_machine_code_is_kept(monkeypatch):
    integrate_modal(two_modes_two_obstacles(), "euler", 1e-3, 0.01, compiled=True)  # kept from now on
    assert native.is_kept("_euler") and not native.is_kept("toy")
    spec = jit._spec(integrators._euler)
    monkeypatch.setattr(spec, "machine", None)
    monkeypatch.setattr(spec, "interpreted", 0)
    below = jit.NATIVE_BREAK_EVEN_EVALUATIONS - 1
    assert jit.use_compiled(integrators._euler, below) is integrators._euler
    assert jit.use_compiled(integrators._euler, 1) is not integrators._euler  # with what it already interpreted
    monkeypatch.setattr(spec, "machine", None)
    monkeypatch.setattr(native, "is_kept", lambda name: False)  # not kept: numba's start, the plain break-even
    assert jit.use_compiled(integrators._euler, jit.BREAK_EVEN_EVALUATIONS - below - 2) is integrators._euler
