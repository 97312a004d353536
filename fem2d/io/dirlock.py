"""The lock on an output directory: one writer at a time, taken only to write.

A run computes without any lock; only the swap of its outputs into the directory
(:func:`fem2d.io.outdir.replaced_together`) holds an exclusive ``flock`` on it.
A second writer that finds the lock held says so once on stderr, naming the
holder's process id, and waits; after :data:`LOCK_WAIT` seconds it gives up with
an :class:`~fem2d.errors.OutputError` naming the directory and the holder (a run
stopped with Ctrl-Z, or any process that locked the folder, would otherwise hold
it up for ever). Nothing is written into the directory before the lock is held.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from fem2d.errors import OutputError

#: Seconds a writer waits for another's lock on the output directory before it gives up.
#: A run's swap takes well under a second; a minute is a holder that is stopped or stuck.
LOCK_WAIT = 60.0

#: Seconds between two attempts at the lock.
_POLL = 0.05


def lock_holders(path: Path) -> list[int]:
    """The process ids holding a ``flock`` on ``path``, from ``/proc/locks`` (Linux; [] elsewhere)."""
    try:
        st = os.stat(path)
        lines = Path("/proc/locks").read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return []
    inode = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    holders = []
    for line in lines:
        fields = line.split()
        # "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF" (a waiter's line carries "->")
        if "->" in fields or len(fields) < 6 or fields[1] != "FLOCK":
            continue
        if fields[5] == inode and fields[4].isdigit():
            holders.append(int(fields[4]))
    return holders


def _holder_words(path: Path, staged_by: Callable[[Path], list[int]]) -> str:
    pids = lock_holders(path) or staged_by(path)
    if not pids:
        return "another process"
    return f"process {', '.join(str(p) for p in sorted(set(pids)))}"


@contextlib.contextmanager
def directory_lock(out: Path, staged_by: Callable[[Path], list[int]] = lambda out: [],
                   wait: float | None = None) -> Iterator[bool]:
    """Hold an exclusive lock on the directory ``out`` while the body runs.

    Yields whether the lock is held (False on a file system without locks). When
    another process holds it: one line on stderr (``fem2d: waiting for the lock on
    OUT, held by process PID (up to 60 s)``), then attempts every 50 ms; after
    ``wait`` seconds (default :data:`LOCK_WAIT`) an :class:`~fem2d.errors.OutputError`
    naming the directory and the holder. ``staged_by(out)`` names fem2d writers
    where ``/proc/locks`` cannot (their staging folders' process ids).
    """
    wait = LOCK_WAIT if wait is None else wait
    try:
        fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        yield False
        return
    try:
        held, said, start = False, False, time.monotonic()
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held = True
                break
            except BlockingIOError:
                pass
            except OSError:  # ENOLCK (some network file systems)
                break
            waited = time.monotonic() - start
            if waited >= wait:
                raise OutputError(f"{out}: {_holder_words(out, staged_by)} has held the lock on this output "
                                  f"directory for {wait:g} s; expected it to finish writing (if it is stopped or "
                                  "stuck, end it) or another output directory")
            if not said and sys.stderr is not None:
                print(f"fem2d: waiting for the lock on {out}, held by {_holder_words(out, staged_by)} "
                      f"(up to {wait:g} s)", file=sys.stderr, flush=True)
                said = True
            time.sleep(_POLL)
        yield held
    finally:
        os.close(fd)  # releases the lock
