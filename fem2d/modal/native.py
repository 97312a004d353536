"""The compiled modal kernels' machine code, kept as an object file and loaded without numba.

numba's own cache keeps a kernel's machine code on disk, but a process that loads it
imports numba and fills its typing and lowering registries first: 0.5-0.8 s on a
2-core machine, where SDND104's 120000 compiled steps take 0.02 s. Here an entry kernel
(:data:`ENTRY_POINTS`: ``_euler``, ``_devogelaere``, ``_adapt``) gets a C entry point,
compiled once per environment by numba: it takes the kernel's arguments flattened (the
arrays' data pointers and shapes, the integers, the floats) and calls the kernel's numba
dispatcher (:func:`fem2d.modal.jit.compiled`'s, the same options: the same machine
code). Its object code is written next to numba's cache (a directory private to the user,
:mod:`fem2d.modal.jit_cache`; none: nothing kept, numba's path); a later process loads it with
llvmlite's MCJIT (llvmlite is numba's own code generator, 0.03 s to import) and calls it
through :mod:`ctypes`: no numba import, the same instructions, the same numbers
(``tests/test_modal_native.py`` checks them bit for bit against the dispatcher).

The file's name holds a hash of what the code depends on: the kernels' source files, the
numba and llvmlite installs, the CPU (name and features) and the arguments' layout
(kinds, dtypes, dimensions). Anything else -- no such file, an argument of another
layout, an llvmlite that cannot load it -- takes the numba dispatcher.

The compiled code keeps numba's error paths (exception raising, reference counting of
arrays the kernels never allocate); they need numba's runtime, which a process without
numba does not have. The kernels are compiled with NumPy's error model (a division by
zero gives inf or nan, as in the interpreter, instead of raising), allocate nothing and
raise nothing, so those paths are never taken; their symbols are bound to ``abort`` so
that a path taken by mistake stops the process loudly instead of jumping to address 0.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["ENTRY_POINTS", "CompiledKernel", "NativeKernel", "cache_directory", "is_kept", "layout_of", "native_kernel"]

#: The entry kernels that get a C entry point (their names in fem2d.modal.integrators).
ENTRY_POINTS = ("_euler", "_devogelaere", "_adapt")

_FORMAT = 1  # of the cache file: a JSON header line, then the object code
#: numba runtime symbols the object code names on its (never taken) error paths
_NUMBA_RUNTIME = ("numba_gil_ensure", "numba_gil_release", "numba_runtime_build_excinfo_struct", "numba_unpickle",
                  "numba_do_raise", "NRT_Free", "NRT_MemInfo_call_dtor", "NRT_decref", "NRT_incref")
_SOURCES = ("integrators.py", "shocks.py", "jit.py", "native.py")
_KINDS = {np.dtype(np.float64): "f8", np.dtype(np.int64): "i8"}


def layout_of(args: tuple) -> tuple:
    """The layout of a kernel's arguments: per argument ``("f8" | "i8", ndim)`` for an
    array, ``"float"``, ``"int"``, or a tuple of layouts; None when an argument cannot be
    passed by pointer (another dtype, not C-contiguous, another type).

    >>> layout_of((np.zeros(3), 1.0, 2, (np.zeros((2, 2), dtype=np.int64),)))
    (('f8', 1), 'float', 'int', (('i8', 2),))
    """
    out: list = []
    for a in args:
        if isinstance(a, tuple):
            inner = layout_of(a)
            if inner is None:
                return None
            out.append(inner)
        elif isinstance(a, np.ndarray):
            kind = _KINDS.get(a.dtype)
            if kind is None or not a.flags.c_contiguous or not 1 <= a.ndim <= 3:
                return None
            out.append((kind, a.ndim))
        elif isinstance(a, (bool, np.bool_)):
            return None
        elif isinstance(a, (int, np.integer)):
            out.append("int")
        elif isinstance(a, (float, np.floating)):
            out.append("float")
        else:
            return None
    return tuple(out)


def _flatten(args: tuple, arrays: list, dims: list, ints: list, floats: list) -> None:
    """The arguments as the C entry point reads them: array k's data pointer at
    ``arrays[k]`` and its shape at ``dims[3k:3k+3]``; integers and floats in order."""
    for a in args:
        if isinstance(a, tuple):
            _flatten(a, arrays, dims, ints, floats)
        elif isinstance(a, np.ndarray):
            arrays.append(a.ctypes.data)
            dims.extend((*a.shape, 0, 0)[:3])
        elif isinstance(a, (int, np.integer)):
            ints.append(int(a))
        else:
            floats.append(float(a))


class NativeKernel:
    """A kernel's machine code loaded by llvmlite, called through ctypes with the
    kernel's own arguments (``layout``: :func:`layout_of` of them)."""

    def __init__(self, code: bytes, symbol: str, layout: tuple) -> None:
        import llvmlite.binding as llvm

        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        abort = ctypes.cast(ctypes.CDLL(None).abort, ctypes.c_void_p).value
        for name in _NUMBA_RUNTIME:
            if not llvm.address_of_symbol(name):  # numba, when imported, has the real ones
                llvm.add_symbol(name, abort)
        machine = llvm.Target.from_default_triple().create_target_machine(
            cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(), codemodel="jitdefault")
        self._engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), machine)
        self._engine.add_object_file(llvm.ObjectFileRef.from_data(code))
        self._engine.finalize_object()
        address = self._engine.get_function_address(symbol)
        if not address:
            raise RuntimeError(f"{symbol} is not in the object code")
        pointers = ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_int64)
        self._call = ctypes.CFUNCTYPE(ctypes.c_int64, pointers[0], pointers[1], pointers[1],
                                      ctypes.POINTER(ctypes.c_double))(address)
        self.layout = layout

    def __call__(self, *args: Any) -> int:
        if layout_of(args) != self.layout:
            raise TypeError(f"arguments of layout {layout_of(args)}, expected {self.layout}")
        arrays: list = []
        dims: list = []
        ints: list = []
        floats: list = []
        _flatten(args, arrays, dims, ints, floats)
        return self._call((ctypes.c_void_p * max(len(arrays), 1))(*arrays),
                          (ctypes.c_int64 * max(len(dims), 1))(*dims), (ctypes.c_int64 * max(len(ints), 1))(*ints),
                          (ctypes.c_double * max(len(floats), 1))(*floats))


def _stamp(path: str | None) -> str:
    if path is None:
        return "absent"
    info = os.stat(path)
    return f"{path}:{info.st_size}:{info.st_mtime_ns}"


def _cache_file(name: str, layout: tuple, directory: Path) -> Path:
    """Where ``name``'s object code for ``layout`` is kept (the hash: see the module docstring)."""
    import importlib.util

    import llvmlite
    import llvmlite.binding as llvm

    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for source in _SOURCES:
        digest.update((here / source).read_bytes())
    numba_spec = importlib.util.find_spec("numba")
    numba_dir = Path(numba_spec.origin).parent if numba_spec and numba_spec.origin else None
    stamps = [_stamp(str(numba_dir / "_version.py")) if numba_dir else "absent", llvmlite.__version__,
              llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten(), repr(layout), str(_FORMAT),
              sys.platform]
    digest.update("\n".join(stamps).encode())
    return directory / f"fem2d-native-{name}-{digest.hexdigest()[:24]}.o"


def _load(path: Path, layout: tuple) -> NativeKernel | None:
    """The kernel kept at ``path``; None when there is none, when it is not this user's own
    file or others may write it (its machine code would run: the fallback directory is
    under the system's temporary directory), or when its header does not parse (in each
    case it is built again, replacing it); an object code llvmlite cannot load raises."""
    try:
        with open(path, "rb") as f:
            info = os.fstat(f.fileno())
            if (hasattr(os, "getuid") and info.st_uid != os.getuid()) or info.st_mode & 0o022:
                return None
            header, _, code = f.read().partition(b"\n")
        symbol = json.loads(header)["symbol"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return NativeKernel(code, symbol, layout)


def _entry_point(name: str, dispatcher: Callable) -> Any:
    """numba's compilation of ``name``'s C entry point around ``dispatcher`` (the kernel's)."""
    from numba import carray, njit, types

    f8, i8 = np.float64, np.int64
    options = {"error_model": "numpy", "no_cpython_wrapper": True}
    signature = types.int64(types.CPointer(types.voidptr), types.CPointer(types.int64), types.CPointer(types.int64),
                            types.CPointer(types.float64))

    @njit(inline="always")
    def vec(p, d, k, dtype):
        return carray(p[k], (d[3 * k],), dtype)

    @njit(inline="always")
    def mat(p, d, k, dtype):
        return carray(p[k], (d[3 * k], d[3 * k + 1]), dtype)

    @njit(inline="always")
    def cube(p, d, k):
        return carray(p[k], (d[3 * k], d[3 * k + 1], d[3 * k + 2]), f8)

    @njit(inline="always")
    def common(p, d):  # m, w2, c2, q0, v0; the excitations and obstacles, arrays 5 to 14
        exc = (mat(p, d, 5, f8), vec(p, d, 6, i8), mat(p, d, 7, f8), vec(p, d, 8, f8), vec(p, d, 9, f8),
               vec(p, d, 10, i8))
        obs = (vec(p, d, 11, i8), cube(p, d, 12), mat(p, d, 13, f8), mat(p, d, 14, f8))
        return (vec(p, d, 0, f8), vec(p, d, 1, f8), vec(p, d, 2, f8), vec(p, d, 3, f8), vec(p, d, 4, f8), exc, obs)

    if name in ("_euler", "_devogelaere"):
        def entry(p, d, n, s):
            m, w2, c2, q0, v0, exc, obs = common(p, d)
            return dispatcher(m, w2, c2, q0, v0, s[0], s[1], n[0], n[1], exc, obs, vec(p, d, 15, i8),
                              mat(p, d, 16, f8), vec(p, d, 17, f8), mat(p, d, 18, f8), mat(p, d, 19, f8),
                              cube(p, d, 20), mat(p, d, 21, f8), cube(p, d, 22))
    elif name == "_adapt":
        def entry(p, d, n, s):
            m, w2, c2, q0, v0, exc, obs = common(p, d)
            return dispatcher(m, w2, c2, q0, v0, s[0], s[1], s[2], s[3], s[4], s[5], n[0], s[6], s[7], s[8], exc, obs,
                              vec(p, d, 15, i8), mat(p, d, 16, f8), vec(p, d, 17, f8), mat(p, d, 18, f8),
                              mat(p, d, 19, f8), cube(p, d, 20), vec(p, d, 21, i8), mat(p, d, 22, f8), cube(p, d, 23),
                              vec(p, d, 24, i8), mat(p, d, 25, f8))
    else:
        raise KeyError(name)
    entry.__qualname__ = f"native{name}"
    return njit(signature, **options)(entry)


#: the layouts the C entry points read (checked before a build: a kernel called otherwise
#: takes its dispatcher)
_V, _M, _C, _I = ("f8", 1), ("f8", 2), ("f8", 3), ("i8", 1)
_EXC = (_M, _I, _M, _V, _V, _I)
_OBS = (_I, _C, _M, _M)
EXPECTED = {
    "_euler": (_V,) * 5 + ("float", "float", "int", "int", _EXC, _OBS, _I, _M, _V, _M, _M, _C, _M, _C),
    "_adapt": (_V,) * 5 + ("float",) * 6 + ("int", "float", "float", "float", _EXC, _OBS, _I, _M, _V, _M, _M, _C,
                                             _I, _M, _C, _I, _M),
}
EXPECTED["_devogelaere"] = EXPECTED["_euler"]


def build(name: str, dispatcher: Callable, layout: tuple, path: Path) -> NativeKernel:
    """Compile ``name``'s C entry point with numba, write its object code to ``path``
    (atomically: another process may be reading or writing it) and load it."""
    compiled = _entry_point(name, dispatcher)
    result = compiled.overloads[compiled.signatures[0]]
    library = result.library
    code = library._codegen._tm.emit_object(library._final_module)  # numba keeps no public handle on it
    symbol = result.fndesc.llvm_cfunc_wrapper_name
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, partial = tempfile.mkstemp(prefix=path.name, dir=path.parent)
    with os.fdopen(fd, "wb") as f:
        f.write(json.dumps({"symbol": symbol, "layout": repr(layout)}).encode() + b"\n" + code)
    os.replace(partial, path)
    return NativeKernel(code, symbol, layout)


def is_kept(name: str) -> bool:
    """Has an earlier process kept ``name``'s machine code for the layout the integrators
    call it with (:data:`EXPECTED`)?"""
    if name not in ENTRY_POINTS:
        return False
    try:
        directory = cache_directory()
        return directory is not None and _cache_file(name, EXPECTED[name], directory).is_file()
    except Exception:  # no llvmlite here: numba's path, whose start the plain break-even counts
        return False


def native_kernel(name: str, args: tuple, directory: Path, dispatcher: Callable | None = None) -> NativeKernel | None:
    """The native kernel ``name`` for ``args``: loaded from ``directory`` when its object
    code is there, else built with ``dispatcher`` (the kernel's numba dispatcher; None:
    do not build); None when ``args`` are not of the entry point's layout."""
    layout = layout_of(args)
    if layout is None or layout != EXPECTED.get(name):
        return None
    path = _cache_file(name, layout, directory)
    loaded = _load(path, layout)
    if loaded is not None or dispatcher is None:
        return loaded
    return build(name, dispatcher, layout, path)


def cache_directory() -> Path | None:
    """Where the object files go, found without numba: the directory numba keeps the
    kernels in (:func:`fem2d.modal.jit_cache.kernel_cache`, private to the user), or None
    when none is (then nothing is loaded or kept: numba's dispatcher compiles them)."""
    from fem2d.modal.jit_cache import kernel_cache

    return kernel_cache()


class CompiledKernel:
    """A kernel run compiled: its native entry point (:func:`native_kernel`, loaded or
    built) for the layouts it has one for, its numba dispatcher (made by ``dispatcher()``
    when first needed) otherwise; the same machine code either way."""

    def __init__(self, name: str, dispatcher: Callable[[], Callable]) -> None:
        self.name = name
        self._make_dispatcher = dispatcher
        self._dispatcher: Callable | None = None
        self._native: dict[tuple | None, NativeKernel | None] = {}

    @property
    def loaded(self) -> bool:
        """Has this process loaded or compiled machine code for it?"""
        return self._dispatcher is not None or any(k is not None for k in self._native.values())

    def dispatcher(self) -> Callable:
        if self._dispatcher is None:
            self._dispatcher = self._make_dispatcher()
        return self._dispatcher

    def __call__(self, *args: Any) -> Any:
        layout = layout_of(args)
        if layout not in self._native:
            self._native[layout] = None
            if self.name in ENTRY_POINTS:
                try:
                    directory = cache_directory()
                    if directory is not None:
                        self._native[layout] = (native_kernel(self.name, args, directory)
                                                or native_kernel(self.name, args, directory, self.dispatcher()))
                except Exception:  # llvmlite or numba cannot make or load it here: numba's own path
                    self._native[layout] = None
        native = self._native[layout]
        return native(*args) if native is not None else self.dispatcher()(*args)
