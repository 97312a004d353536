"""Directories fem2d keeps its caches in: private to the user, checked before anything in them is read.

A cache holds what fem2d loads and runs (numba's pickled index and machine code, the
modal kernels' object files) or trusts (exact reference values). Whoever can write such a
directory can make fem2d run their code or report their numbers, so a cache directory is
used only when it is this user's own real directory that no one else may write:
:func:`private_dir` creates each missing level with mode 0700 and checks, before the
caller reads anything from it, that the directory (and each level it created) is owned
by the current user, not writable by its group or others, and not a symbolic link (which
points wherever its maker chose). Every directory above it must be owned by root or the
current user and either not writable by its group or others or sticky (as ``/tmp``, mode
1777): in a directory others may write without the sticky bit, anyone can rename the
checked directory away and put their own in its place after the check. One that fails
is not used at all: its callers then cache nothing, and say so in one line (:func:`note`).
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from pathlib import Path


class NotPrivateError(Exception):
    """A cache directory others may have written: its message says which and why."""


def _check(path: Path) -> None:
    """Raise :class:`NotPrivateError` unless ``path`` is this user's real directory that
    neither its group nor others may write; OSError when it cannot be examined."""
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise NotPrivateError(f"{path} is a symbolic link")
    if not stat.S_ISDIR(info.st_mode):
        raise NotADirectoryError(20, "not a directory", str(path))
    if hasattr(os, "getuid"):
        if info.st_uid != os.getuid():
            raise NotPrivateError(f"{path} belongs to user id {info.st_uid}, not to this user ({os.getuid()})")
        if info.st_mode & 0o022:
            raise NotPrivateError(f"{path} may be written by others (mode {stat.S_IMODE(info.st_mode):04o})")


def _check_ancestor(path: Path, seen: frozenset[Path] = frozenset()) -> None:
    """Raise :class:`NotPrivateError` unless ``path``, a directory above a cache directory,
    can be changed only by root or this user: owned by one of them, and not writable by
    its group or others unless sticky (there, only an entry's owner may rename it). A
    symbolic link (its own owner checked) stands for its target and the levels above that."""
    info = os.lstat(path)
    if not hasattr(os, "getuid"):
        return
    if info.st_uid not in (0, os.getuid()):
        raise NotPrivateError(f"{path}, above the cache directory, belongs to user id {info.st_uid}, "
                              f"not to root or this user ({os.getuid()})")
    if stat.S_ISLNK(info.st_mode):
        target = Path(os.path.realpath(path))
        if target in seen:
            return
        for level in [*target.parents][::-1] + [target]:
            _check_ancestor(level, seen | {target})
    elif info.st_mode & 0o022 and not info.st_mode & stat.S_ISVTX:
        raise NotPrivateError(f"{path}, above the cache directory, may be written by others without the sticky "
                              f"bit (mode {stat.S_IMODE(info.st_mode):04o}): the cache directory could be replaced")


def private_dir(path: str | os.PathLike, owned: int = 1) -> Path:
    """``path``, created if missing (each missing level with mode 0700), once checked.

    The last ``owned`` levels of ``path`` (the ones fem2d names, e.g. 2 for
    ``~/.cache/fem2d/exact``) and every level created here must pass the check (the
    module docstring); the levels above (the user's home, the system's temporary
    directory) need only be owned by root or the user and be sticky where others may
    write them. A file is then created in it and removed: writability is
    tried, not guessed (``os.access`` says yes to root on a read-only mount).

    Raises :class:`NotPrivateError` when a level fails the check (nothing in it has
    been read), OSError when it cannot be created or written.
    """
    path = Path(os.path.abspath(path))
    levels = [*path.parents][::-1] + [path]  # from the root down
    named = set(levels[-owned:]) if owned > 0 else set()
    for level in levels:  # each checked before anything is made in it
        if not os.path.lexists(level):
            with contextlib.suppress(FileExistsError):  # made meanwhile by someone else: the check says whose
                os.mkdir(level, 0o700)
            _check(level)
        elif level in named:
            _check(level)
        else:
            _check_ancestor(level)
    fd, probe = tempfile.mkstemp(prefix=".fem2d-probe-", dir=path)
    os.close(fd)
    os.unlink(probe)
    return path


def user_cache_base() -> Path | None:
    """The user's cache directory: ``$XDG_CACHE_HOME``, else ``~/.cache`` (None: no home)."""
    chosen = os.environ.get("XDG_CACHE_HOME")
    if chosen:
        return Path(chosen)
    home = os.path.expanduser("~")
    return Path(home) / ".cache" if os.path.isabs(home) else None


def note(text: str) -> None:
    """One line ``fem2d: note: text`` on stderr (nothing when stderr is closed)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(f"fem2d: note: {text}", file=sys.stderr)
