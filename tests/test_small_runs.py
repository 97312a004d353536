"""Small runs without start-up waste: the modal path loads only what it uses, and an
exact reference is computed once per settings (kept on disk), with the same values."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
import scipy.linalg

from fem2d.case import loading, references  # loading first (it re-exports from references)
from fem2d.case.build import build_system
from fem2d.case.reference_cache import ReferenceCache
from fem2d.modal.basis import dense_modes
from fem2d.runs.result import run


def test_exact_reference_is_read_back_for_the_same_settings_only(tmp_path, monkeypatch):
    cache = ReferenceCache(tmp_path)
    case = loading.load_case("sdnd104", {"excitation.a0": 1.5})
    system = build_system(case)
    computed, _ = references.resolve(case, system, cache)
    assert len(list(tmp_path.glob("*.json"))) == 1
    uncached, _ = references.resolve(case, system)
    assert computed == uncached  # the same rows, values and sources as without a cache

    def not_again(*args, **kwargs):
        raise AssertionError("computed again")

    monkeypatch.setattr(references, "exact_reference", not_again)
    assert references.resolve(case, system, cache)[0] == computed  # read back, not computed
    other = loading.load_case("sdnd104", {"excitation.a0": 1.25})  # another setting: another key
    with pytest.raises(AssertionError, match="computed again"):
        references.resolve(other, build_system(other), cache)
    (stored,) = tmp_path.glob("*.json")
    stored.write_text("{not json")  # a damaged file is a miss
    with pytest.raises(AssertionError, match="computed again"):
        references.resolve(case, system, cache)
    # another version of the code is another key
    assert ReferenceCache(tmp_path, "another fem2d").key("m", {}, None, []) != cache.key("m", {}, None, [])


def test_the_reason_an_exact_model_does_not_hold_is_kept_too(tmp_path):
    cache = ReferenceCache(tmp_path)
    case = loading.load_case("sdnd104", {"post.window": [2.0, 20.0], "time.end": 20.0, "modal.n_modes": 1,
                                 "excitation.omega": 6.0})
    system = build_system(case)
    first = references.resolve(case, system, cache)
    assert first == references.resolve(case, system, cache) == references.resolve(case, system)
    data = json.loads(next(tmp_path.glob("*.json")).read_text())
    assert set(data) == {"source", "values", "reason", "checksum"}


def test_cache_switched_off_or_unwritable(tmp_path, monkeypatch):
    monkeypatch.setenv("FEM2D_CACHE_DIR", "")
    assert ReferenceCache.default() is None
    monkeypatch.setenv("FEM2D_CACHE_DIR", str(tmp_path / "here"))
    assert ReferenceCache.default().directory == tmp_path / "here"


def test_dense_modes_agree_with_lapack():
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((2, 12, 12))
    K, M = a @ a.T, b @ b.T + 12 * np.eye(12)
    lam, phi = dense_modes(K, M, 4)
    ref_lam, ref_phi = scipy.linalg.eigh(K, M, subset_by_index=[0, 3])
    np.testing.assert_allclose(lam, ref_lam, rtol=1e-11)
    np.testing.assert_allclose(np.abs(phi.T @ M @ ref_phi), np.eye(4), atol=1e-9)
    np.testing.assert_allclose(phi.T @ M @ phi, np.eye(4), atol=1e-12)


def test_a_modal_run_loads_neither_the_direct_path_nor_scipys_solvers():
    code = (
        "import sys\n"
        "from fem2d.case.build import build_analysis\n"
        "from fem2d.case.loading import load_case\n"
        "built = build_analysis(load_case('sdnd104'))\n"
        "built.analysis.problem(built.analysis.model.assemble())\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
                 .stdout.split())
    assert "fem2d.modal.basis" in loaded
    unwanted = {"fem2d.runs.direct", "fem2d.contact.lagrange", "fem2d.contact.continuous", "fem2d.contact.penalty",
                "fem2d.modal.events", "scipy.linalg", "scipy.optimize", "scipy.sparse.linalg", "matplotlib"}
    assert loaded & unwanted == set()


#: A user's modal case on a small finite-element model: an elastic bar (10 x 1 QUAD4) pushed
#: onto a plane stop at its free end, six modes (assembled densely: 44 dofs).
USER_MODAL_CASE = """
[case]
name = "bar_modal"
kind = "modal"
[mesh]
geometry = "rectangle"
params = { length = 1.0, height = 0.1, nx = 10, ny = 1 }
[model]
hypothesis = "plane_stress"
[[materials]]
group = "BODY"
E = 2.1e11
nu = 0.3
rho = 7800.0
[[supports]]
group = "LEFT"
dofs = ["dx", "dy"]
[[loads]]
type = "traction"
group = "RIGHT"
vector = [1.0e7, 0.0]
[modal]
integrator = "euler"
n_modes = 6
[time]
end = 6.0e-4
dt = 1.0e-8
[obstacle]
type = "plane"
node = "RIGHT"
normal = [-1.0, 0.0]
origin = [1.0, 0.0]
gap = 5.0e-5
kn = 1.0e10
"""


def test_a_modal_run_imports_no_scipy_once_its_exact_reference_is_kept(tmp_path):
    """``fem2d run`` of SDND104, SDND101 and a user's modal case on a small elastic bar, one
    fresh process, the exact references already in the cache: the model is assembled densely
    and the process never imports scipy (0.2 s of start-up, more than such a run), while the
    exact references are still checked (read back from the cache). Nor does it import
    ``numpy.ma`` (through ``np.unique`` or ``np.median``, 17 ms) or ``importlib.metadata`` (to find
    MKL, 20-45 ms) when the ``mkl`` wheel is in this environment's prefix, as pip puts it."""
    cache = tmp_path / "cache"
    cache.mkdir()
    (tmp_path / "bar.toml").write_text(USER_MODAL_CASE)
    for name in ("sdnd104", "sdnd101"):  # computes the exact references (scipy) into the cache
        assert run(name, reference_cache=ReferenceCache(cache)).passed
    code = (
        "import sys\n"
        "from fem2d.cli import main\n"
        "status = [main(['run', case, '--quiet', '--out', out]) for case, out in zip(sys.argv[1::2], sys.argv[2::2])]\n"
        "print(status, sorted(m for m in sys.modules if m.split('.')[0] == 'scipy'\n"
        "                     or m in ('numpy.ma', 'importlib.metadata')))\n"
    )
    cases = {"sdnd104": tmp_path / "a", "sdnd101": tmp_path / "b", str(tmp_path / "bar.toml"): tmp_path / "c"}
    args = [str(x) for pair in cases.items() for x in pair]
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True,
                          env={**os.environ, "FEM2D_CACHE_DIR": str(cache)})
    assert proc.stdout.splitlines()[-1] == "[0, 0, 0] []"
    results = {name: json.loads((out / "result.json").read_text()) for name, out in cases.items()}
    for name in ("sdnd104", "sdnd101"):  # the exact references were there, read back
        assert any(c["source"].startswith("exact") for c in results[name]["checks"]), name
    assert results[str(tmp_path / "bar.toml")]["quantities"]["n_impacts"] == 1
