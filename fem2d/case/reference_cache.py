"""Exact reference values kept on disk, computed once per settings and code.

An exact model is computed for a run's own settings
(:func:`fem2d.case.references.exact_reference`); some are costly (SDND104's
event-driven solution: hundreds of matrix exponentials, about 0.4 s), and the
same settings come back run after run (``fem2d run sdnd104`` again, the
three integrators of a ``fem2d validate`` grid point). A :class:`ReferenceCache`
keeps the values a run asked for in one small JSON file per key:

.. math:: \\text{key} = \\operatorname{sha256}(\\text{model},\\ \\text{settings},\\
          \\text{mesh},\\ \\text{quantities},\\ \\text{the fem2d source})

so a change of any setting, of the mesh (a mesh file's nodes and cells), of
the quantities asked for, or of any line of fem2d's code computes anew. What
is kept is the value of each quantity (None when the model does not give it)
and the source text of the checks table, or the reason the model does not apply.

The directory is ``$FEM2D_CACHE_DIR`` when set (an empty value: no cache),
otherwise ``$XDG_CACHE_HOME/fem2d/exact`` or ``~/.cache/fem2d/exact``; a
directory that cannot be written means no cache (the values are computed
every time, as before). A cached value is reported as the exact one, so the
directory must be private to the user (:func:`fem2d.cache_dirs.private_dir`:
created with mode 0700, this user's, no one else may write it, not a symbolic
link); one that is not means no cache, said in one line on stderr, and a file in
it that is not the user's own or that others may write is a miss. Files are
replaced atomically, so workers of one ``fem2d validate`` writing the same key
never leave a half-written file; an unreadable or malformed file is a miss. Each file
carries the sha256 of its own content and key (:func:`checksum`): a file edited by
hand, or copied under another key's name, does not match and is a miss, computed
anew and replaced.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fem2d.cache_dirs import NotPrivateError, note, private_dir, user_cache_base

if TYPE_CHECKING:
    from fem2d.mesh.mesh import Mesh

_PACKAGE = Path(__file__).resolve().parents[1]


def source_fingerprint(package: Path = _PACKAGE) -> str:
    """sha256 of every ``.py`` file of the package (names and contents, in order)."""
    files = []
    for root, dirs, names in os.walk(package):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        files += [os.path.join(root, n) for n in names if n.endswith(".py")]
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(os.path.relpath(path, package).encode())
        with open(path, "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()


def _mesh_bytes(mesh: Mesh) -> bytes:
    digest = hashlib.sha256(mesh.points.tobytes())
    for name in sorted(mesh.groups):
        block = mesh.groups[name]
        digest.update(f"{name}:{block.kind}".encode())
        digest.update(block.nodes.tobytes())
    return digest.digest()


def checksum(key: str, data: dict) -> str:
    """sha256 of a cache file's key and content (``source``, ``values``, ``reason``), as
    canonical JSON: what the file must carry as ``checksum`` to be read.

    >>> len(checksum("k", {"source": "exact", "values": {"x": 1.0}, "reason": None}))  # hexadecimal digits
    64
    >>> one, two = ({"source": "exact", "values": {"x": x}} for x in (1.0, 2.0))
    >>> checksum("k", one) == checksum("k", two), checksum("k", one) == checksum("j", one)
    (False, False)
    """
    content = {name: data.get(name) for name in ("source", "values", "reason")}
    return hashlib.sha256(json.dumps([key, content], sort_keys=True).encode()).hexdigest()


@functools.cache
def _usable(directory: Path, owned: int) -> bool:
    """Is ``directory`` a private, writable cache (once per process; a note when it is not private)?"""
    try:
        private_dir(directory, owned)
    except NotPrivateError as exc:
        note(f"{exc}; exact references are computed every time (not cached), nothing there is read")
        return False
    except OSError:
        return False
    return True


@dataclass(frozen=True)
class CachedReference:
    """What a cache file holds: the source text and one value per quantity asked
    for, or the reason the exact model does not hold (``values`` empty)."""

    source: str
    values: dict[str, float | None]
    reason: str | None = None


class ReferenceCache:
    """A directory of exact reference values (see the module docstring).

    >>> import tempfile
    >>> cache = ReferenceCache(tempfile.mkdtemp())
    >>> key = cache.key("model", {"a0": 15.0}, None, ["wear_power"])
    >>> cache.get(key) is None
    True
    >>> cache.put(key, CachedReference("exact", {"wear_power": 15.27}))
    >>> cache.get(key).values
    {'wear_power': 15.27}
    """

    def __init__(self, directory: str | os.PathLike, fingerprint: str | None = None) -> None:
        self.directory = Path(directory)
        self._fingerprint = fingerprint

    @classmethod
    def default(cls) -> ReferenceCache | None:
        """The cache of this user (``$FEM2D_CACHE_DIR``, else the XDG cache), or None
        when it is switched off (``FEM2D_CACHE_DIR=``) or cannot be written."""
        chosen = os.environ.get("FEM2D_CACHE_DIR")
        if chosen is not None:
            if not chosen:
                return None
            directory, owned = Path(chosen), 1
        else:
            base = user_cache_base()
            if base is None:
                return None
            directory, owned = base / "fem2d" / "exact", 2
        return cls(directory) if _usable(directory, owned) else None

    @property
    def fingerprint(self) -> str:
        """The fem2d source's sha256 (computed once per cache object)."""
        if self._fingerprint is None:
            self._fingerprint = source_fingerprint()
        return self._fingerprint

    def key(self, model: str, settings: Any, mesh: Mesh | None, quantities: list[str]) -> str:
        """The file name of one exact computation."""
        text = json.dumps({"model": model, "settings": settings, "quantities": sorted(quantities)},
                          sort_keys=True, default=repr)
        digest = hashlib.sha256(text.encode())
        if mesh is not None:
            digest.update(_mesh_bytes(mesh))
        digest.update(self.fingerprint.encode())
        return digest.hexdigest()

    def get(self, key: str) -> CachedReference | None:
        """The stored reference, or None (absent, unreadable, malformed, its checksum not
        its content's, or a file that is not this user's own or that others may write)."""
        try:
            with open(self.directory / f"{key}.json", "rb") as f:
                info = os.fstat(f.fileno())
                if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
                    return None
                data = json.loads(f.read().decode("utf-8"))
            if data.get("checksum") != checksum(key, data):
                return None  # edited or truncated since fem2d wrote it: computed anew
            values = {str(k): None if v is None else float(v) for k, v in data["values"].items()}
            return CachedReference(str(data["source"]), values, data.get("reason"))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def put(self, key: str, reference: CachedReference) -> None:
        """Store a reference (atomically; a failure to write is not an error: no cache)."""
        data = {"source": reference.source, "values": reference.values, "reason": reference.reason}
        data["checksum"] = checksum(key, data)
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{key}.", dir=self.directory)
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f)
            os.replace(tmp, self.directory / f"{key}.json")
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
