"""Writing results: files replaced atomically, a run's files replaced together.

Every file is written to a temporary name and renamed over its target
(``os.replace``), so an interrupted or failing run never leaves a
half-written file. A run's outputs (``result.json``, its histories, its VTU
series) are written into a staging directory next to the output directory
and swapped in as one (:func:`replaced_together`): a reader sees all the old
files or all the new ones, never a mix. Files and directories get the modes
the umask gives (``mkstemp`` alone would make them 0600).
"""

from __future__ import annotations

import contextlib
import csv
import ctypes
import errno
import fnmatch
import glob
import io
import json
import math
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from fem2d.errors import OutputError

#: Names a run writes into its directory; older files of these names belong to the
#: previous run and are replaced (or removed) together with the new ones. Anything
#: else in the directory (a case file, the user's notes) is carried over untouched.
RUN_OUTPUTS: tuple[str, ...] = ("result.json", "history.*", "pressure.csv", "*.pvd", "vtu")


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
    rather than after the whole computation.
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


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two directories in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False
    where the system cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    status = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE)
    if status == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


class _Staging:
    """A staging directory beside ``out`` (same file system) and the swap that puts it in place."""

    def __init__(self, out: Path) -> None:
        self.out = out
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.exists() and not out.is_dir():
            raise OutputError(f"{out}: is a file; expected an output directory")
        _remove_abandoned(out)
        self.dir = Path(tempfile.mkdtemp(prefix=f".{out.name}.fem2d-new-{os.getpid()}-", dir=out.parent))
        try:
            _follow_umask(self.dir, directory=True)
        except BaseException:  # interrupted right here: the new directory must not stay behind
            self.discard()
            raise

    def commit(self) -> None:
        out = self.out
        if not out.exists():
            os.rename(self.dir, out)
            return
        # what is not a run output stays: moved into the new directory before the swap
        for entry in sorted(os.listdir(out)):
            if not _is_output(entry) and not (self.dir / entry).exists():
                os.rename(out / entry, self.dir / entry)
        cwd = _cwd_under(out)
        if _exchange(self.dir, out):
            old = self.dir
        else:  # two renames: for an instant ``out`` is absent, never a mix of old and new
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.fem2d-old-{os.getpid()}-", dir=out.parent))
            os.rmdir(old)
            os.rename(out, old)
            os.rename(self.dir, out)
        if cwd is not None:  # the process stood in the old directory: follow the new one
            with contextlib.suppress(OSError):
                os.chdir(out.resolve() / cwd)
        shutil.rmtree(old, ignore_errors=True)

    def discard(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def _remove_abandoned(out: Path) -> None:
    """Remove the staging directories of ``out`` whose writer died without cleaning up
    (SIGKILL, power loss): their names carry the writer's process id."""
    for entry in out.parent.glob(f".{glob.escape(out.name)}.fem2d-*-*-*"):
        pid = entry.name[len(out.name) + 2:].split("-")[2]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(entry, ignore_errors=True)
        except OSError:  # alive, another user's
            pass


def _cwd_under(out: Path) -> Path | None:
    try:
        return Path.cwd().relative_to(out.resolve())
    except (OSError, ValueError):
        return None


@contextlib.contextmanager
def replaced_together(out_dir: str | os.PathLike) -> Iterator[Path]:
    """Write a run's outputs into the yielded staging directory; on success they
    replace the previous run's outputs in ``out_dir`` in one step.

    Old files named like a run output (:data:`RUN_OUTPUTS`) that the new run did
    not write are removed; other entries of ``out_dir`` are kept. On any exception
    (Ctrl-C and a full disk included) ``out_dir`` is left exactly as it was. An
    ``OSError`` while writing becomes an :class:`~fem2d.errors.OutputError`
    naming the directory.

    >>> import pathlib, tempfile
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "run"
    >>> with replaced_together(out) as stage:
    ...     _ = (stage / "result.json").write_text("{}")
    >>> sorted(p.name for p in out.iterdir())
    ['result.json']
    """
    out = Path(out_dir)
    try:
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
