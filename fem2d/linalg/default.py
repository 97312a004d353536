"""Which direct solver a run uses unless it names one (light: imports neither NumPy nor SciPy)."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path


def mkl_runtime() -> Path | None:
    """Path of ``libmkl_rt`` installed by the ``mkl`` wheel, or None."""
    try:
        files = importlib.metadata.files("mkl") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for f in files:
        if f.name.startswith(("libmkl_rt.so", "libmkl_rt.dylib", "mkl_rt")) and f.name.endswith(
            (".so", ".dylib", ".dll") + tuple(f".so.{i}" for i in range(1, 10))
        ):
            path = Path(f.locate()).resolve()
            if path.exists():
                return path
    return None


def default_solver() -> str:
    """``pardiso-cholesky`` (MKL PARDISO's Cholesky with a Schur complement on the contact
    boundary) where the ``mkl`` wheel is installed, otherwise ``superlu`` (ships with SciPy).

    Measured on SDNV104 at level 6 (206k free dofs, `benchmarks/bench_limit.py`): factorisation
    and Schur complement together 3.3 s against 9.2 s for SuperLU's factorisation alone.
    """
    return "pardiso-cholesky" if mkl_runtime() is not None else "superlu"
