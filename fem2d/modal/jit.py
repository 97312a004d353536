"""The modal kernels: one Python source, run compiled by numba or by the interpreter.

A kernel is a plain function written in the subset of Python that numba compiles
(loops over NumPy arrays and floats, no allocation). :func:`kernel` records its numba
options and returns the function unchanged, so importing the modal path imports no
numba. :func:`dispatcher` turns a kernel into a numba dispatcher (``cache=True``: the
machine code is kept on disk) whose calls to other kernels go to their dispatchers, so
numba compiles them into it (inlined where marked), as ``@njit`` would. Calling the
kernel itself runs the same source in the interpreter (numba's ``py_func``), with the
same IEEE operations in the same order: both paths give the same numbers
(``tests/test_modal_kernels.py``).

:func:`compiled` is what a run calls: an entry kernel's machine code kept as an object
file by an earlier process and loaded without numba (:mod:`fem2d.modal.native`: llvmlite
and ctypes, about 0.03 s), else the dispatcher, which then keeps that file. The
dispatcher's start is importing numba, loading its typing and lowering registries
(:func:`load_numba_target`, without ``scipy.linalg``) and the cached machine code,
0.5-0.8 s on a 2-core machine. The interpreter costs 14-25 us per force
evaluation of SDND104's one-mode, one-obstacle model (the compiled kernel 0.1 us).
:func:`use_compiled` takes the compiled path when the kernel is already loaded in this
process, or when the run, with the evaluations the process already interpreted, has at
least :data:`BREAK_EVEN_EVALUATIONS` force evaluations (``python
benchmarks/bench_small.py --break-even`` measures both sides).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["BREAK_EVEN_EVALUATIONS", "NATIVE_BREAK_EVEN_EVALUATIONS", "compiled", "dispatcher", "is_loaded",
           "kernel", "load_numba_target", "use_compiled"]

F = TypeVar("F", bound=Callable[..., Any])

#: Force evaluations from which the compiled path is the faster one in a fresh process:
#: ``benchmarks/bench_small.py --break-even`` gave 27700, 31600 and 53900 (compiled start
#: / interpreter cost per evaluation, SDND104's one-mode model, load 6-8 on 2 cores).
BREAK_EVEN_EVALUATIONS = 30_000

#: The same when an earlier process kept the kernel's machine code
#: (:func:`fem2d.modal.native.is_kept`): loading it without numba costs a fresh process
#: 0.02-0.05 s, 1000-3500 evaluations of the interpreter.
NATIVE_BREAK_EVEN_EVALUATIONS = 3_000

_SPEC = "fem2d_kernel"  # the attribute of a kernel function holding its KernelSpec


@dataclass
class KernelSpec:
    """A kernel's numba options, and its dispatcher once this process made it (:func:`compiled`)."""

    inline: bool
    options: dict[str, Any]
    dispatcher: Any = None
    #: what :func:`compiled` returns (a :class:`fem2d.modal.native.CompiledKernel`)
    machine: Any = None
    #: force evaluations this process has run through the interpreter so far
    interpreted: int = 0


def kernel(*, inline: bool = False, **options: Any) -> Callable[[F], F]:
    """Mark a function as a modal kernel and return it unchanged.

    ``inline``: compiled into its callers (numba's ``inline="always"``); ``options``:
    more numba options of an entry kernel (e.g. ``_nrt=False``).

    >>> @kernel(inline=True)
    ... def twice(x):
    ...     return 2.0 * x
    >>> twice(1.5)
    3.0
    """

    def mark(func: F) -> F:
        setattr(func, _SPEC, KernelSpec(inline, dict(options)))
        return func

    return mark


def _spec(func: Callable) -> KernelSpec:
    spec = getattr(func, _SPEC, None)
    if spec is None:
        raise TypeError(f"{func!r} is not a modal kernel (decorate it with fem2d.modal.jit.kernel)")
    return spec


def compiled(entry: F) -> F:
    """The kernel run compiled, made once per process: its machine code loaded without
    numba when an earlier process kept it (:class:`fem2d.modal.native.CompiledKernel`),
    else its numba dispatcher (:func:`dispatcher`)."""
    spec = _spec(entry)
    if spec.machine is None:
        from fem2d.modal.native import CompiledKernel

        spec.machine = CompiledKernel(entry.__name__, lambda: dispatcher(entry))
    return spec.machine


def dispatcher(entry: F) -> F:
    """The numba dispatcher of a kernel, made once per process (imports numba).

    It is compiled from the kernel's own code object, with the globals of its module
    except that every kernel it calls is that kernel's dispatcher (made the same way),
    so numba compiles the callees into it (``inline="always"`` where marked) while the
    module's names stay the plain functions the interpreter runs.
    """
    spec = _spec(entry)
    if spec.dispatcher is None:
        from numba import njit

        from fem2d.modal.jit_cache import configure_numba

        # before numba looks for a cached kernel: a private directory, or none
        cache = configure_numba(Path(entry.__code__.co_filename).resolve().parent)
        load_numba_target()
        namespace = dict(entry.__globals__)
        for name in entry.__code__.co_names:
            callee = namespace.get(name)
            if callee is not entry and hasattr(callee, _SPEC):
                namespace[name] = dispatcher(callee)
        source = types.FunctionType(entry.__code__, namespace, entry.__name__, entry.__defaults__,
                                    entry.__closure__)
        source.__qualname__ = entry.__qualname__  # numba's cache files are named by it
        source.__doc__ = entry.__doc__
        # NumPy's error model: a division by zero gives inf or nan, as the interpreter's NumPy
        # scalars do, instead of raising (the native entry points have no numba runtime to raise)
        spec.dispatcher = njit(cache=cache, inline="always" if spec.inline else "never", error_model="numpy",
                               **spec.options)(source)
    return spec.dispatcher


def load_numba_target() -> None:
    """Load numba's CPU typing and lowering registries (once per process), without
    ``scipy.linalg``.

    numba loads every registry at a process's first compilation or cache load; one of
    them, ``numba.np.arraymath``, imports ``scipy.linalg`` (its whole package, docstrings
    parsed: 0.06-0.17 s) only to set ``_HAVE_BLAS``, which picks BLAS for ``np.dot`` and
    ``np.vdot`` when such a call is compiled. The kernels make no such call. Here the
    registries load with ``scipy.linalg.cython_blas`` unimportable for that moment, then
    the flag is set to what the import would have given (scipy installed), so a later
    compilation in this process that calls ``np.dot`` still uses BLAS (its own
    ``ensure_blas`` imports ``scipy.linalg`` then). A process that already imported
    numba's registries or ``scipy.linalg`` is left as it is.
    """
    import importlib.util
    import sys

    from numba.core.registry import cpu_target

    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    blas = "scipy.linalg.cython_blas"
    sys.modules[blas] = None  # type: ignore[assignment]  # an import of it raises ImportError
    try:
        cpu_target.typing_context.refresh()
        cpu_target.target_context.refresh()
    finally:
        if sys.modules.get(blas, 0) is None:
            del sys.modules[blas]
    from numba.np import arraymath

    arraymath._HAVE_BLAS = importlib.util.find_spec("scipy") is not None


def is_loaded(entry: Callable) -> bool:
    """Has this process already compiled or loaded ``entry``'s machine code?"""
    machine = _spec(entry).machine
    return machine is not None and machine.loaded


def use_compiled(entry: Callable, evaluations: int, choice: bool | None = None) -> Callable:
    """The function to call for a run of ``evaluations`` force evaluations: the compiled
    kernel when ``choice`` is True, or (``choice`` None) when it is already loaded or this
    run, with what the process already ran through the interpreter, reaches
    :data:`BREAK_EVEN_EVALUATIONS` (:data:`NATIVE_BREAK_EVEN_EVALUATIONS` when its machine
    code is kept: :func:`fem2d.modal.native.is_kept`) (so a study of many short runs in one process compiles
    once the interpreter has cost it one compiled start); else the kernel itself.

    >>> @kernel()
    ... def one():
    ...     return 1
    >>> use_compiled(one, 10) is one
    True
    """
    spec = _spec(entry)
    if choice is None:
        choice = is_loaded(entry) or spec.interpreted + evaluations >= BREAK_EVEN_EVALUATIONS
        if not choice and spec.interpreted + evaluations >= NATIVE_BREAK_EVEN_EVALUATIONS:
            from fem2d.modal.native import is_kept

            choice = is_kept(entry.__name__)
    if choice:
        return compiled(entry)
    spec.interpreted += evaluations
    return entry
