"""Where numba keeps the compiled modal kernels (``cache=True``), on any install.

numba caches next to the source (``__pycache__``) or in the user's cache
directory; on a read-only install with an unwritable HOME it finds neither and
every ``@njit(cache=True)`` fails at import ("no locator available").
:func:`ensure_writable_cache` runs before the kernels are defined: when neither
place can be written it points numba at a directory under the system's
temporary directory and says so in one line on stderr.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path


def _writable(directory: Path) -> bool:
    """Can a file be created in ``directory`` (created if missing)? Tried, not guessed:
    ``os.access`` says yes to root on a read-only mount's bind or a full disk."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".fem2d-probe-", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError:
        return False
    return True


def ensure_writable_cache(source_dir: Path | None = None) -> Path | None:
    """Make sure numba has a writable cache directory; return the fallback it was given
    (None when its own choice works)."""
    from numba.core import config

    if config.CACHE_DIR:
        if _writable(Path(config.CACHE_DIR)):
            return None
    else:
        source_dir = source_dir or Path(__file__).resolve().parent
        if _writable(source_dir / "__pycache__"):
            return None
        from numba.misc.appdirs import user_cache_dir

        if _writable(Path(user_cache_dir(appname="numba", appauthor=False))):
            return None
    uid = os.getuid() if hasattr(os, "getuid") else 0
    fallback = Path(tempfile.gettempdir()) / f"fem2d-numba-cache-{uid}"
    if not _writable(fallback):
        fallback = Path(tempfile.mkdtemp(prefix="fem2d-numba-cache-"))
    config.CACHE_DIR = str(fallback)
    with contextlib.suppress(OSError, ValueError):
        print(f"fem2d: note: the install and the user cache are read-only; compiled kernels are cached in "
              f"{fallback}", file=sys.stderr)
    return fallback
