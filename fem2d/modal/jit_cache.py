"""Where the compiled modal kernels are kept: numba's cache (``cache=True``) and the
object files of :mod:`fem2d.modal.native`, in one directory private to the user.

What is kept there is loaded and run (numba's index is a pickle), so it is a directory
:func:`fem2d.cache_dirs.private_dir` accepts, chosen before numba or the loader reads
anything (:func:`kernel_cache`, without importing numba):

1. ``$NUMBA_CACHE_DIR`` when set;
2. else the package's own ``__pycache__`` (numba's own first choice), when it can be
   written and is private (an install group-writable or of another user is passed over);
3. else ``fem2d`` in the user's cache directory (``$XDG_CACHE_HOME`` or ``~/.cache``);
4. else ``fem2d-numba-cache-<uid>`` under the system's temporary directory (a read-only
   install with an unwritable HOME), said in one line on stderr.

A chosen directory that is not private (another user's, writable by others, a symbolic
link: planted, say, in a shared ``/tmp``) means no cache: the kernels are compiled in
each process (:func:`configure_numba` says ``cache=False``), nothing from there is
loaded, and one line on stderr says why. So does no writable directory at all.
"""

from __future__ import annotations

import functools
import os
import tempfile
from pathlib import Path

from fem2d.cache_dirs import NotPrivateError, note, private_dir, user_cache_base

#: the package directory whose sources numba compiles (its ``__pycache__``: numba's in-tree cache)
SOURCE_DIR = Path(__file__).resolve().parent


def kernel_cache(source_dir: Path = SOURCE_DIR) -> Path | None:
    """The directory the compiled kernels whose sources are in ``source_dir`` (the modal
    kernels' by default) are kept in, or None (not kept; see the module docstring).
    Decided once per process for the same environment."""
    temp = Path(tempfile.gettempdir())
    return choose(os.environ.get("NUMBA_CACHE_DIR", ""), source_dir, user_cache_base(), temp)


@functools.cache
def choose(numba_cache_dir: str, source_dir: Path, user_cache: Path | None, temp: Path) -> Path | None:
    """:func:`kernel_cache` for these places: ``numba_cache_dir`` (``$NUMBA_CACHE_DIR``,
    "" when unset), ``source_dir`` (the kernels' sources), ``user_cache`` (the user's
    cache directory, None when there is no home) and ``temp`` (the system's temporary
    directory). A note on stderr when it is the last one, or none."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    fallback = temp / f"fem2d-numba-cache-{uid}"
    if numba_cache_dir:
        candidates = [(Path(numba_cache_dir), False)]
    else:
        candidates = [(source_dir / "__pycache__", True)]
        if user_cache is not None:
            candidates.append((user_cache / "fem2d", False))
    candidates.append((fallback, False))
    for directory, passed_over in candidates:
        try:
            private_dir(directory)
        except NotPrivateError as exc:
            if passed_over:
                continue
            note(f"{exc}; the compiled kernels are not kept (compiled again in each run), nothing there is loaded")
            return None
        except OSError:
            continue
        if directory == fallback:
            note(f"the install and the user cache are read-only; compiled kernels are cached in {fallback}")
        return directory
    note("no writable cache directory; the compiled kernels are not kept (compiled again in each run)")
    return None


def configure_numba(source_dir: Path = SOURCE_DIR) -> bool:
    """Point numba at :func:`kernel_cache` before a ``cache=True`` dispatcher of a kernel
    whose source is in ``source_dir`` is made; False: compile without cache (nothing is read
    from any cache directory). Each package directory with kernels has its own in-tree
    ``__pycache__``, checked as private before numba may use it."""
    from numba.core import config

    directory = kernel_cache(source_dir)
    if directory is None:
        return False
    if directory != source_dir / "__pycache__":  # there numba's in-tree locator finds it alone
        config.CACHE_DIR = str(directory)
    return True
