"""An output directory: fem2d replaces only the entries it wrote, whatever happens.

A run's outputs (``result.json``, its histories, its VTU series) are written into
a hidden staging directory inside the output directory, then renamed into place
one entry at a time, ``result.json`` and the manifest last
(:func:`replaced_together`):

- **What is fem2d's.** The manifest :data:`MANIFEST` lists what the last run wrote,
  each entry with its identity (device and inode) and, for a folder, the files in
  it. An entry is fem2d's only while it is the very entry the manifest names and a
  folder holds nothing but the files fem2d put there. A plain file of an output's
  name is that output's slot: the new output replaces it. Anything else in the
  directory (the user's files, folders, links, mount points, a file dropped into
  fem2d's ``vtu`` folder) is never moved, renamed or deleted; a folder or link of
  the user's that holds an output's name is refused before anything moves.
- **Faults.** Ctrl-C and SIGTERM wait for the few renames of the swap; a failing
  rename undoes the ones before it; a writer killed in the middle of its swap has
  it finished by the next writer, which acts only while the manifest is still the
  one the killed writer found (a plan is never applied twice, nor after a later
  run). Two writers take turns under a lock on the directory (``flock``, taken only
  to write: :mod:`fem2d.io.dirlock`, which says when it waits and gives up after a
  minute).
- **Staging folders.** A staging folder is fem2d's only when it holds the marker
  :data:`STAGE_MARKER` with the process id and the random token of its name
  (``.fem2d-stage-PID-TOKEN``); a folder of the user's named alike is never removed.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import os
import secrets
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

from fem2d.errors import OutputError
from fem2d.io.dirlock import directory_lock
from fem2d.io.files import _follow_umask, _output_error

#: Names a run writes into its directory (``history.npz``, ``NAME.pvd``, the ``vtu`` folder, ...).
RUN_OUTPUTS: tuple[str, ...] = ("result.json", "history.*", "pressure.csv", "impacts.csv", "*.pvd", "vtu")

#: The hidden file that lists the entries of the directory the last run wrote.
MANIFEST = ".fem2d-outputs.json"

#: The prefix of a run's staging directory, made inside the output directory.
STAGE_PREFIX = ".fem2d-stage-"

#: In a staging directory: ``{"pid": PID, "token": TOKEN}``, the two parts of its name.
STAGE_MARKER = ".fem2d-stage.json"

_COMPLETE = ".complete"  # in a staging directory: its outputs are whole, and the plan of the swap
_TRASH = ".replaced"  # in a staging directory: the previous run's entries, removed with it
_EVERY_RUN = ("result.json", "history.npz", "history.csv", "pressure.csv", "impacts.csv", "vtu")  # checked before a run


def _is_output(name: str) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in RUN_OUTPUTS)


def _bare(name: object) -> bool:
    """A name of an entry of the directory itself: no separator, not ``.`` nor ``..``."""
    return (isinstance(name, str) and name not in ("", ".", "..") and os.path.basename(name) == name
            and not any(c in name for c in "/\\\0"))


def _is_plain_file(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def _identity(path: Path) -> list[int] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return [st.st_dev, st.st_ino]


def _record(stage: Path, names: list[str]) -> dict:
    """The manifest of the entries ``names`` staged in ``stage`` (a rename keeps an identity)."""
    outputs = {}
    for name in names:
        entry = {"id": _identity(stage / name)}
        if (stage / name).is_dir():
            entry["files"] = sorted(os.listdir(stage / name))
        outputs[name] = entry
    return {"outputs": outputs}


def _owned(out: Path) -> set[str]:
    """The entries of ``out`` that are fem2d's: named in :data:`MANIFEST`, the same
    entry (identity), and, for a folder, holding only the files fem2d put there."""
    try:
        listed = json.loads((out / MANIFEST).read_text(encoding="utf-8"))["outputs"]
        listed = dict(listed)
    except (OSError, ValueError, KeyError, TypeError):
        return set()
    owned = set()
    for name, entry in listed.items():
        if not (_bare(name) and _is_output(name) and isinstance(entry, dict)):
            continue
        path = out / name
        if path.is_symlink() or _identity(path) is None or _identity(path) != entry.get("id"):
            continue
        if path.is_dir():
            files = entry.get("files")
            if not isinstance(files, list) or not set(os.listdir(path)) <= set(files):
                continue  # the user put something in it: not fem2d's alone
            if not all(_is_plain_file(path / f) for f in os.listdir(path)):
                continue
        owned.add(name)
    return owned


def _replaceable(path: Path, owned: set[str]) -> bool:
    """Whether a new output may take the place of ``path``: an entry fem2d wrote, or a
    plain file of the output's name (the output's slot). A user's folder or link is not."""
    return path.name in owned or _is_plain_file(path)


def _foreign_message(path: Path) -> str:
    kind = "a link" if path.is_symlink() else "a folder" if path.is_dir() else "an entry"
    return (f"{path}: {kind} fem2d did not write, named like one of its outputs; expected no such entry "
            "(fem2d replaces only what it wrote): move it or choose another output directory")


def check_output_dir(path: str | os.PathLike) -> Path:
    """Make sure ``path`` is (or can be made) a writable directory, before any work is done.

    Creates it (and its parents) and writes and removes a probe file, so a read-only
    or full file system, a path that is a file, or a parent that is a file is
    reported at once as an :class:`~fem2d.errors.OutputError` naming the path,
    rather than after the whole computation. A folder or link of the user's named
    like an output every run may write (``vtu``, ``result.json``, ...) is refused now too.
    """
    if "\0" in os.fspath(path):
        raise OutputError(f"{os.fspath(path)!r}: a name with a NUL character; expected a directory name")
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise OutputError(f"{path}: is a file; expected an output directory")
    if path.is_symlink() and not path.exists():  # dangling, or a loop of links
        raise OutputError(f"{path}: a link that leads to no directory (its target is missing, or the links loop); "
                          "expected an output directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".fem2d-probe-", dir=path)
        try:
            os.write(fd, b"x")
        finally:
            os.close(fd)
            os.unlink(probe)
        owned = _owned(path)
        for name in _EVERY_RUN:
            if os.path.lexists(path / name) and not _replaceable(path / name, owned):
                raise OutputError(_foreign_message(path / name))
    except FileExistsError:
        raise OutputError(f"{path}: a parent is a file; expected an output directory") from None
    except NotADirectoryError:
        raise OutputError(f"{path}: a parent is a file; expected an output directory") from None
    except OSError as exc:
        raise _output_error(path, exc) from None
    return path


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait while the entries are swapped (a few renames)."""
    held = {signal.SIGINT, signal.SIGTERM}
    try:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    except (AttributeError, OSError, ValueError):
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class _Staging:
    """A hidden staging directory inside ``out`` and the swap that puts its entries in place."""

    def __init__(self, out: Path) -> None:
        self.out = out
        pid, token = os.getpid(), secrets.token_hex(8)
        self.dir = out / f"{STAGE_PREFIX}{pid}-{token}"
        self.dir.mkdir(mode=0o700)
        try:
            _follow_umask(self.dir, directory=True)
            (self.dir / STAGE_MARKER).write_text(json.dumps({"pid": pid, "token": token}) + "\n", encoding="utf-8")
        except BaseException:  # interrupted right here: the new directory must not stay behind
            self.discard()
            raise

    def commit(self) -> None:
        out, stage = self.out, self.dir
        new = sorted(e for e in os.listdir(stage) if e not in (_COMPLETE, _TRASH, MANIFEST, STAGE_MARKER))
        for entry in new:
            if not (_bare(entry) and _is_output(entry)):
                raise OutputError(f"{stage / entry}: not one of fem2d's output names {list(RUN_OUTPUTS)}")
        owned = _owned(out)
        for entry in new:
            if os.path.lexists(out / entry) and not _replaceable(out / entry, owned):
                raise OutputError(_foreign_message(out / entry))
        (stage / MANIFEST).write_text(json.dumps(_record(stage, new)) + "\n", encoding="utf-8")
        _follow_umask(stage / MANIFEST)
        old = [e for e in new if os.path.lexists(out / e)] + sorted(owned - set(new))
        plan = {"trash": [[e, _identity(out / e)] for e in old], "add": [*new, MANIFEST],
                "manifest_before": _identity(out / MANIFEST)}
        (stage / _COMPLETE).write_text(json.dumps(plan), encoding="utf-8")
        with _signals_held():
            _apply(out, stage, plan, undo_on_error=True)
        self.discard()

    def discard(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def _apply(out: Path, stage: Path, plan: dict, undo_on_error: bool = False) -> None:
    """The renames of a swap, in order: each old entry (if it is still the one the plan
    found) to the trash, then each new entry in, ``result.json`` and the manifest
    last; a rename already done is skipped. The manifest is replaced in one rename,
    the swap's last: until then it is the one the plan found, and the swap can be
    finished (:func:`_recover`); after it, never applied again. With
    ``undo_on_error``, a failing rename undoes the ones before it."""
    trash = stage / _TRASH
    trash.mkdir(exist_ok=True)
    moves = [(out / name, trash / name) for name, identity in plan["trash"]
             if _identity(out / name) == identity and not os.path.lexists(trash / name)]
    last = {"result.json": 1, MANIFEST: 2}
    moves += [(stage / name, out / name) for name in sorted(plan["add"], key=lambda e: (last.get(e, 0), e))
              if os.path.lexists(stage / name)]
    done = []
    try:
        for source, destination in moves:
            if destination.name == MANIFEST:
                os.replace(source, destination)
                continue  # the last: nothing after it to fail
            if os.path.lexists(destination):  # appeared since the plan (never replaced here)
                raise FileExistsError(17, "appeared while fem2d was writing", str(destination))
            os.rename(source, destination)
            done.append((source, destination))
    except BaseException:
        if undo_on_error:
            for source, destination in reversed(done):
                with contextlib.suppress(OSError):
                    os.rename(destination, source)
        raise


def _valid_plan(plan: object) -> bool:
    if not isinstance(plan, dict):
        return False
    trash, add = plan.get("trash"), plan.get("add")
    return (isinstance(trash, list) and isinstance(add, list)
            and all(isinstance(t, list) and len(t) == 2 and _bare(t[0]) and _is_output(t[0]) for t in trash)
            and all(_bare(a) and (_is_output(a) or a == MANIFEST) for a in add))


def _stage_pid(stage: Path) -> int | None:
    """The process id of the fem2d writer that made the staging directory ``stage``, or None
    when fem2d cannot prove it made it: a real folder of this user, named
    ``.fem2d-stage-PID-TOKEN``, whose marker holds that PID and TOKEN."""
    name = stage.name
    if not name.startswith(STAGE_PREFIX) or stage.is_symlink() or not stage.is_dir():
        return None
    try:
        if os.lstat(stage).st_uid != os.getuid():
            return None
        marker = json.loads((stage / STAGE_MARKER).read_text(encoding="utf-8"))
        pid, token = marker["pid"], marker["token"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not (isinstance(pid, int) and isinstance(token, str) and name == f"{STAGE_PREFIX}{pid}-{token}"):
        return None
    return pid


def staging_pids(out: Path) -> list[int]:
    """The process ids of the fem2d writers whose staging directories are in ``out``."""
    try:
        entries = os.listdir(out)
    except OSError:
        return []
    return [pid for entry in entries if (pid := _stage_pid(out / entry)) is not None]


def _recover(out: Path) -> None:
    """Under the directory's lock, every other staging directory was left by a writer
    that died. One whose swap had begun (its plan written) while the manifest is still
    the one its plan found is finished; every such directory is then removed. Only
    staging directories fem2d can prove it made (:func:`_stage_pid`) are touched: the
    user's files never enter them, and a user's folder named alike is left alone."""
    for entry in os.listdir(out):
        stage = out / entry
        if _stage_pid(stage) is None:
            continue
        try:
            plan = json.loads((stage / _COMPLETE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            plan = None
        if _valid_plan(plan) and plan.get("manifest_before") == _identity(out / MANIFEST):
            with contextlib.suppress(OSError):
                _apply(out, stage, plan)
        shutil.rmtree(stage, ignore_errors=True)


@contextlib.contextmanager
def replaced_together(out_dir: str | os.PathLike) -> Iterator[Path]:
    """Write a run's outputs into the yielded staging directory; on success they
    replace the previous run's outputs in ``out_dir``.

    Only fem2d's own entries are ever replaced or removed (see the module's text);
    every other entry of ``out_dir`` is left as it is, whatever happens. On any
    exception (Ctrl-C and a full disk included) ``out_dir`` is left as it was. An
    ``OSError`` while writing becomes an :class:`~fem2d.errors.OutputError` naming
    the directory.

    >>> import pathlib, tempfile
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "run"
    >>> with replaced_together(out) as stage:
    ...     _ = (stage / "result.json").write_text("{}")
    >>> _ = (out / "notes.txt").write_text("mine")
    >>> with replaced_together(out) as stage:
    ...     _ = (stage / "result.json").write_text("{}")
    >>> sorted(p.name for p in out.iterdir())
    ['.fem2d-outputs.json', 'notes.txt', 'result.json']
    """
    if "\0" in os.fspath(out_dir):
        raise OutputError(f"{os.fspath(out_dir)!r}: a name with a NUL character; expected a directory name")
    out = Path(out_dir)
    try:
        if out.exists() and not out.is_dir():
            raise OutputError(f"{out}: is a file; expected an output directory")
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _output_error(out, exc) from None
    with directory_lock(out, staging_pids) as held:
        try:
            if held:  # without the lock another writer's staging directory may be alive
                _recover(out)
            staging = _Staging(out)
        except OSError as exc:
            raise _output_error(out, exc) from None
        try:
            yield staging.dir
            staging.commit()
        except OSError as exc:
            staging.discard()
            raise _output_error(out, exc) from None
        except BaseException:
            staging.discard()
            raise
