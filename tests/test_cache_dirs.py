"""Cache directories are private to the user: fem2d creates them with mode 0700 and,
before numba, the object-file loader or the reference cache reads anything from one,
checks that it is this user's real directory that no one else may write. A planted one
(another user's, mode 0777, a symbolic link) turns the cache off, with one line on
stderr; nothing in it is read and the run still works."""

from __future__ import annotations

import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from fem2d.cache_dirs import NotPrivateError, private_dir
from fem2d.case.reference_cache import CachedReference, ReferenceCache
from fem2d.modal import jit_cache

NOBODY = 65534
needs_root = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                                reason="giving a directory to another user needs root")


class _Plant:
    """A pickle whose loading creates ``marker`` (a stand-in for any code)."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self):
        return open, (self.marker, "w")


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def _planted(directory: Path, how: str) -> Path:
    """``directory`` as someone else could have left it: ``foreign`` (another user's,
    mode 0777), ``open`` (this user's, mode 0777) or ``symlink`` (to a private directory)."""
    if how == "symlink":
        target = directory.parent / "elsewhere"
        target.mkdir(mode=0o700)
        directory.symlink_to(target)
        return directory
    directory.mkdir()
    directory.chmod(0o777)
    if how == "foreign":
        os.chown(directory, NOBODY, NOBODY)
    return directory


def test_private_dir_creates_each_missing_level_0700(tmp_path):
    (tmp_path / "home").mkdir(mode=0o755)
    made = private_dir(tmp_path / "home" / "cache" / "fem2d" / "exact", owned=2)
    assert made == tmp_path / "home" / "cache" / "fem2d" / "exact" and made.is_dir()
    for level in (made, made.parent, made.parent.parent):
        assert _mode(level) == 0o700, level
    assert _mode(tmp_path / "home") == 0o755  # the user's own level is left as it is
    assert list(made.iterdir()) == []  # the writability probe is gone


@pytest.mark.parametrize("how", ["open", "symlink", pytest.param("foreign", marks=needs_root)])
def test_private_dir_refuses_a_directory_others_may_have_written(tmp_path, how):
    planted = _planted(tmp_path / "cache", how)
    with pytest.raises(NotPrivateError, match=str(planted)):
        private_dir(planted)
    with pytest.raises(NotPrivateError):
        private_dir(planted / "exact", owned=2)  # a level fem2d names above the one asked for
    assert not (planted / "exact").exists()


@pytest.mark.parametrize("how", ["open", "symlink", pytest.param("foreign", marks=needs_root)])
def test_a_planted_fallback_turns_the_kernel_cache_off(tmp_path, capsys, monkeypatch, how):
    """The install and the user cache cannot be written: the fallback under the temporary
    directory is the one left; planted, it is not used and no kernel file is looked for."""
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    uid = os.getuid()
    temp = tmp_path / "tmp"
    temp.mkdir()
    _planted(temp / f"fem2d-numba-cache-{uid}", how)
    assert jit_cache.choose("", blocker, blocker / "cache", temp) is None
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"fem2d: note: {temp / f'fem2d-numba-cache-{uid}'}")
    assert "not kept" in err[0]
    monkeypatch.setattr(jit_cache, "kernel_cache", lambda: None)
    from fem2d.modal import native

    assert native.cache_directory() is None and not native.is_kept("_euler")


def test_a_fresh_fallback_is_made_private(tmp_path, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    chosen = jit_cache.choose("", blocker, None, tmp_path)
    assert chosen == tmp_path / f"fem2d-numba-cache-{os.getuid()}" and _mode(chosen) == 0o700
    assert capsys.readouterr().err.startswith("fem2d: note: the install and the user cache are read-only")


def test_a_writable_install_keeps_numbas_own_choice(tmp_path, capsys):
    source = tmp_path / "modal"
    source.mkdir()
    assert jit_cache.choose("", source, tmp_path / "home", tmp_path) == source / "__pycache__"
    (source / "__pycache__").chmod(0o777)  # an install others may write is passed over
    assert jit_cache.choose("", source, tmp_path / "home2", tmp_path) == tmp_path / "home2" / "fem2d"
    assert capsys.readouterr().err == ""


_COMPILE = """
import sys
sys.path.insert(0, {tests!r})
from fem2d.modal.integrators import integrate_modal
from test_modal_kernels import two_modes_two_obstacles
print(integrate_modal(two_modes_two_obstacles(), "euler", 1e-3, 0.01, compiled=True).steps)
"""


@needs_root
def test_a_planted_numba_cache_is_never_read(tmp_path):
    """NUMBA_CACHE_DIR names another user's mode-0777 directory holding numba index files
    whose loading would create a marker: the kernels are compiled without cache."""
    from numba.core.caching import _CacheLocator

    from fem2d.modal import integrators, jit, shocks

    planted = _planted(tmp_path / "numba-cache", "foreign")
    marker = tmp_path / "planted code ran"
    py = f"py{sys.version_info.major}{sys.version_info.minor}"
    for module in (integrators, shocks):
        where = planted / _CacheLocator.get_suitable_cache_subpath(module.__file__)
        where.mkdir(exist_ok=True, mode=0o777)
        for f in vars(module).values():
            if hasattr(f, jit._SPEC):
                index = where / f"{Path(module.__file__).stem}.{f.__qualname__}-{f.__code__.co_firstlineno}.{py}.nbi"
                index.write_bytes(pickle.dumps(_Plant(marker)))
    before = sorted(planted.rglob("*"))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(planted)}
    done = subprocess.run([sys.executable, "-c", _COMPILE.format(tests=str(Path(__file__).parent))], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["10"]
    assert not marker.exists()
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"fem2d: note: {planted} belongs to user id {NOBODY}"), lines
    assert sorted(planted.rglob("*")) == before  # nothing kept there either


@pytest.mark.parametrize("how", ["open", "symlink", pytest.param("foreign", marks=needs_root)])
def test_a_planted_reference_cache_is_not_read(tmp_path, monkeypatch, capsys, how):
    planted = _planted(tmp_path / "exact", how)
    monkeypatch.setenv("FEM2D_CACHE_DIR", str(planted))
    assert ReferenceCache.default() is None
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"fem2d: note: {planted}") and "computed every time" in err[0]
    monkeypatch.setenv("FEM2D_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("FEM2D_CACHE_DIR")
    cache = ReferenceCache.default()
    assert cache.directory == tmp_path / "xdg" / "fem2d" / "exact"
    assert _mode(cache.directory) == _mode(cache.directory.parent) == 0o700


def test_a_reference_file_others_may_write_is_a_miss(tmp_path):
    cache = ReferenceCache(private_dir(tmp_path / "exact"))
    cache.put("k", CachedReference("exact", {"wear_power": 15.27}))
    assert cache.get("k").values == {"wear_power": 15.27}
    (cache.directory / "k.json").chmod(0o666)
    assert cache.get("k") is None
    if os.geteuid() == 0:
        (cache.directory / "k.json").chmod(0o600)
        os.chown(cache.directory / "k.json", NOBODY, NOBODY)
        assert cache.get("k") is None


def test_a_parent_others_may_write_without_the_sticky_bit_turns_the_cache_off(tmp_path, monkeypatch, capsys):
    """Another user could rename the checked directory away and put theirs in its place
    after the check: under such a parent (a TMPDIR or XDG_CACHE_HOME of mode 0777) nothing
    is cached; sticky (as /tmp, 1777) only an entry's owner may rename it."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    with pytest.raises(NotPrivateError, match=f"{shared}, above the cache directory, .*sticky"):
        private_dir(shared / "fem2d" / "exact", owned=2)
    monkeypatch.setenv("XDG_CACHE_HOME", str(shared))
    monkeypatch.delenv("FEM2D_CACHE_DIR", raising=False)
    assert ReferenceCache.default() is None
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"fem2d: note: {shared}, above") and "computed every time" in err[0]
    shared.chmod(0o1777)
    assert private_dir(shared / "fem2d" / "exact", owned=2) == shared / "fem2d" / "exact"


def test_a_link_above_the_cache_stands_for_its_target(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    (tmp_path / "link").symlink_to(shared)
    with pytest.raises(NotPrivateError, match=str(shared)):
        private_dir(tmp_path / "link" / "fem2d" / "exact", owned=2)


@needs_root
def test_a_parent_of_another_user_turns_the_cache_off(tmp_path):
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o755)
    os.chown(theirs, NOBODY, NOBODY)
    with pytest.raises(NotPrivateError, match=f"{theirs}, above the cache directory, belongs to user id {NOBODY}"):
        private_dir(theirs / "fem2d", owned=1)
