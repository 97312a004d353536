"""Writing results: files replaced atomically, a run's files replaced together,
and nothing else in an output directory ever touched.

Every file is written to a temporary name and renamed over its target
(``os.replace``), so an interrupted or failing run never leaves a
half-written file. A run's outputs (``result.json``, its histories, its VTU
series) are written into a hidden staging directory inside the output
directory and then renamed into place one entry at a time, ``result.json``
last (:func:`replaced_together`); Ctrl-C waits for those few renames, a failed
rename undoes the others, and a writer killed in the middle has its swap
finished by the next one. Only the entries fem2d wrote are replaced or
removed: a user's files, folders, links and mount points in the output
directory are never moved, renamed or deleted. Files and directories get the
modes the umask gives (``mkstemp`` alone would make them 0600).
"""

from __future__ import annotations

import contextlib
import csv
import errno
import fcntl
import fnmatch
import io
import json
import math
import os
import shutil
import signal
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from fem2d.errors import OutputError

#: Names a run writes into its directory. A plain file of such a name is replaced by
#: the new run's entry of that name; an older entry that the new run did not write is
#: removed only when the last run listed it in :data:`MANIFEST`. Anything else in the
#: directory (a case file, the user's notes, folders, links, mount points) is never
#: moved, renamed or deleted.
RUN_OUTPUTS: tuple[str, ...] = ("result.json", "history.*", "pressure.csv", "*.pvd", "vtu")

#: The hidden file that lists the entries of the directory the last run wrote.
MANIFEST = ".fem2d-outputs.json"

#: The prefix of a run's staging directory, made inside the output directory.
STAGE_PREFIX = ".fem2d-stage-"

_COMPLETE = ".complete"  # in a staging directory: its outputs are whole; the swap may go on
_TRASH = ".replaced"  # in a staging directory: the previous run's entries, removed at the end


def _umask() -> int:
    try:  # Linux: read it without changing it (os.umask would race with other threads)
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _follow_umask(path: Path, directory: bool = False) -> None:
    with contextlib.suppress(OSError):
        os.chmod(path, (0o777 if directory else 0o666) & ~_umask())


def _output_error(path: Path, exc: OSError) -> OutputError:
    where = exc.filename or path
    if exc.errno == errno.ENOSPC:
        what = "the disk is full"
    elif exc.errno == errno.EDQUOT:
        what = "the disk quota is exceeded"
    else:
        what = exc.strerror or str(exc)
    return OutputError(f"{where}: cannot write ({what}); expected a writable directory with free space")


def check_output_dir(path: str | os.PathLike) -> Path:
    """Make sure ``path`` is (or can be made) a writable directory, before any work is done.

    Creates it (and its parents) and writes and removes a probe file, so a read-only
    or full file system, a path that is a file, or a parent that is a file is
    reported at once as an :class:`~fem2d.errors.OutputError` naming the path,
    rather than after the whole computation. An entry named like a run output that
    fem2d cannot replace (a folder or a link of the user's) is refused now too.
    """
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise OutputError(f"{path}: is a file; expected an output directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".fem2d-probe-", dir=path)
        try:
            os.write(fd, b"x")
        finally:
            os.close(fd)
            os.unlink(probe)
        owned = _owned(path)
        for entry in os.listdir(path):
            if _is_output(entry) and not _replaceable(path / entry, owned):
                raise OutputError(_foreign_message(path / entry))
    except FileExistsError:
        raise OutputError(f"{path}: a parent is a file; expected an output directory") from None
    except NotADirectoryError:
        raise OutputError(f"{path}: a parent is a file; expected an output directory") from None
    except OSError as exc:
        raise _output_error(path, exc) from None
    return path


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it over ``path`` on success.

    On any exception (KeyboardInterrupt included) the temporary file is
    removed and ``path`` is left as it was. The new file's mode follows the umask.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        _follow_umask(Path(tmp))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _is_output(name: str) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in RUN_OUTPUTS)


def _is_plain_file(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def _foreign_message(path: Path) -> str:
    kind = "a link" if path.is_symlink() else "a folder" if path.is_dir() else "an entry"
    return (f"{path}: {kind} fem2d did not write, named like one of its outputs; expected it elsewhere "
            "(fem2d never replaces it): move it or choose another output directory")


def _looks_like_ours(path: Path) -> bool:
    """An output-named entry that an older fem2d (one without :data:`MANIFEST`) wrote:
    a ``vtu`` folder of ``.vtu`` files only."""
    if path.is_symlink() or not path.is_dir() or path.name != "vtu":
        return False
    return all(_is_plain_file(e) and e.name.endswith(".vtu") for e in path.iterdir())


def _replaceable(path: Path, owned: set[str]) -> bool:
    """Whether a new output may take the place of ``path``: an entry fem2d wrote, or a
    plain file of the output's name (the output's slot). A user's folder or link is not."""
    return path.name in owned or _is_plain_file(path) or _looks_like_ours(path)


def _owned(out: Path) -> set[str]:
    """The entries of ``out`` that the last run wrote, as :data:`MANIFEST` lists them
    (none without it: an entry is removed only when fem2d knows it wrote it)."""
    listed: set[str] = set()
    with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
        names = json.loads((out / MANIFEST).read_text(encoding="utf-8")).get("outputs")
        if isinstance(names, list):
            listed = {n for n in names if isinstance(n, str)}
    return {e for e in listed if _is_output(e) and os.path.lexists(out / e) and not (out / e).is_symlink()}


@contextlib.contextmanager
def _locked(out: Path) -> Iterator[None]:
    """Hold an exclusive lock on the directory ``out`` (``flock``): a second writer
    into the same directory waits until the first has put its files in place."""
    try:
        fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        yield  # a system without directory descriptors: nothing to lock with
        return
    try:
        with contextlib.suppress(OSError):  # ENOLCK (some network file systems): no lock, as before
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait while the entries are swapped (a few renames): the
    directory never stays half old, half new because of them. (SIGKILL cannot
    wait; the next writer finishes the swap, :func:`_recover`.)"""
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
    """A hidden staging directory inside ``out`` and the swap that puts its entries in place.

    The swap moves only output-named entries: each new entry replaces the entry of
    its name (one ``rename`` each; a replaced or removed entry goes to the staging
    directory's trash first, so a failed swap is undone), the previous run's other
    outputs are removed, and ``result.json`` comes last. Nothing that is not fem2d's
    is moved: before moving anything, the swap refuses an output name held by a
    folder or a link of the user's.
    """

    def __init__(self, out: Path) -> None:
        self.out = out
        self.dir = Path(tempfile.mkdtemp(prefix=f"{STAGE_PREFIX}{os.getpid()}-", dir=out))
        try:
            _follow_umask(self.dir, directory=True)
        except BaseException:  # interrupted right here: the new directory must not stay behind
            self.discard()
            raise

    def commit(self) -> None:
        out, stage = self.out, self.dir
        new = sorted(e for e in os.listdir(stage) if e not in (_COMPLETE, _TRASH))
        (stage / MANIFEST).write_text(json.dumps({"outputs": new}) + "\n", encoding="utf-8")
        _follow_umask(stage / MANIFEST)
        owned = _owned(out)
        for entry in new:
            target = out / entry
            if os.path.lexists(target) and not _replaceable(target, owned):
                raise OutputError(_foreign_message(target))
        plan = {"replace": [e for e in [*new, MANIFEST] if os.path.lexists(out / e)],
                "remove": sorted(owned - set(new)), "add": [*new, MANIFEST]}
        (stage / _COMPLETE).write_text(json.dumps(plan), encoding="utf-8")
        with _signals_held():
            _apply(_moves(out, stage, plan), undo_on_error=True)
        self.discard()

    def discard(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def _moves(out: Path, stage: Path, plan: dict) -> list[tuple[Path, Path]]:
    """The renames of a swap, in order: the old entries to the trash, then the new
    entries in, ``result.json`` last."""
    trash = stage / _TRASH
    moves = [(out / e, trash / e) for e in dict.fromkeys((*plan["replace"], *plan["remove"]))]
    return moves + [(stage / e, out / e) for e in sorted(plan["add"], key=lambda e: (e == "result.json", e))]


def _apply(moves: list[tuple[Path, Path]], undo_on_error: bool = False) -> None:
    """Do the renames ``moves``; one already done (by a writer that was killed) is
    skipped. With ``undo_on_error``, a failing rename undoes the ones before it."""
    done = []
    try:
        for source, destination in moves:
            if not os.path.lexists(source) or os.path.lexists(destination) and destination.parent.name == _TRASH:
                continue
            destination.parent.mkdir(exist_ok=True)
            os.rename(source, destination)
            done.append((source, destination))
    except BaseException:
        if undo_on_error:
            for source, destination in reversed(done):
                with contextlib.suppress(OSError):
                    os.rename(destination, source)
        raise


def _recover(out: Path) -> None:
    """Finish the swap of a writer killed in the middle of it (its staging directory
    says its outputs were whole), or remove the staging directory of a writer killed
    before its swap. Only fem2d's staging directories are touched: the user's files
    never enter them."""
    for entry in os.listdir(out):
        if not entry.startswith(STAGE_PREFIX):
            continue
        stage = out / entry
        pid = entry[len(STAGE_PREFIX):].split("-")[0]
        if stage.is_symlink() or not stage.is_dir() or not pid.isdigit() or int(pid) == os.getpid():
            continue
        if _alive(int(pid)):
            continue  # its writer is at work: not abandoned
        try:
            plan = json.loads((stage / _COMPLETE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            plan = None
        if isinstance(plan, dict):
            with contextlib.suppress(OSError, KeyError, TypeError):
                _apply(_moves(out, stage, plan))
        shutil.rmtree(stage, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # alive, another user's
        return True
    return True


@contextlib.contextmanager
def replaced_together(out_dir: str | os.PathLike) -> Iterator[Path]:
    """Write a run's outputs into the yielded staging directory; on success they
    replace the previous run's outputs in ``out_dir``.

    Only fem2d's own entries are ever replaced or removed: the new run's outputs
    (:data:`RUN_OUTPUTS`) and the previous run's outputs listed in :data:`MANIFEST`;
    every other entry of ``out_dir`` (files, folders, links, mount points) is left
    as it is, whatever happens. On any exception (Ctrl-C and a full disk included)
    ``out_dir`` is left as it was; a writer killed in the middle of its swap has it
    finished by the next writer. Two writers into one directory take turns (a lock
    on the directory). An ``OSError`` while writing becomes an
    :class:`~fem2d.errors.OutputError` naming the directory.

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
    out = Path(out_dir)
    try:
        if out.exists() and not out.is_dir():
            raise OutputError(f"{out}: is a file; expected an output directory")
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _output_error(out, exc) from None
    with _locked(out):
        try:
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


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return _jsonable(value.tolist())
    if isinstance(value, np.generic):
        return _jsonable(value.item())
    if isinstance(value, float) and not math.isfinite(value):
        return None  # JSON has no NaN/inf
    if isinstance(value, Path):
        return str(value)
    return value


def write_json(path: str | os.PathLike, data: Mapping[str, Any]) -> None:
    """Write a strict JSON document atomically (NaN and inf become null)."""
    write_text_atomic(path, json.dumps(_jsonable(data), indent=2, sort_keys=False, allow_nan=False) + "\n")


def write_csv(path: str | os.PathLike, columns: Mapping[str, np.ndarray]) -> None:
    """Write equal-length 1D columns as CSV with a header row, atomically.

    Numbers at full precision (``repr``); in an object column, None is an empty cell.
    """
    names = list(columns)
    arrays = [np.asarray(columns[n]).ravel() for n in names]
    n = len(arrays[0]) if arrays else 0
    if any(len(a) != n for a in arrays):
        raise ValueError("write_csv: columns must have the same length")
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(names)
    # column-wise, C-level formatting (repr of each float, as before): ~3x faster on 1e5-row modal histories
    cells = [list(map(repr, a.astype(float).tolist())) if np.issubdtype(a.dtype, np.number) else None for a in arrays]
    if all(c is not None for c in cells):
        buffer.write("".join(line + "\r\n" for line in map(",".join, zip(*cells))))
    else:
        for i in range(n):
            writer.writerow([c[i] if c is not None else a[i] for c, a in zip(cells, arrays)])
    write_text_atomic(path, buffer.getvalue())


def write_table_csv(path: str | os.PathLike, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> Path:
    """Write a table given by rows as CSV (:func:`write_csv`, column by column); returns ``path``."""
    columns = list(zip(*rows)) if rows else [()] * len(header)
    write_csv(path, {name: _object_column(values) for name, values in zip(header, columns)})
    return Path(path)


def _object_column(values: Sequence[Any]) -> np.ndarray:
    column = np.empty(len(values), dtype=object)
    column[:] = [float(v) if isinstance(v, np.floating) else v for v in values]
    return column
