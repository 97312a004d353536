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
every time, as before). Files are replaced atomically, so workers of one
``fem2d validate`` writing the same key never leave a half-written file; an
unreadable or malformed file is a miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
            directory = Path(chosen)
        else:
            base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
            directory = Path(base) / "fem2d" / "exact"
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError:
            return None
        return cls(directory) if os.access(directory, os.W_OK) else None

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
        """The stored reference, or None (absent, unreadable or malformed)."""
        try:
            data = json.loads((self.directory / f"{key}.json").read_text(encoding="utf-8"))
            values = {str(k): None if v is None else float(v) for k, v in data["values"].items()}
            return CachedReference(str(data["source"]), values, data.get("reason"))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def put(self, key: str, reference: CachedReference) -> None:
        """Store a reference (atomically; a failure to write is not an error: no cache)."""
        data = {"source": reference.source, "values": reference.values, "reason": reference.reason}
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
